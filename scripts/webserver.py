"""Static server for the built site (dist/): loopback only, with the cache headers a
host should send: content-hashed files under assets/ cached forever, everything else
(the HTML pages) revalidated on every visit.

Used by scripts/serve and scripts/bench. The browser tests use the stock http.server
instead, to prove the site needs nothing special from its host.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

DIST = Path(__file__).resolve().parent.parent / "dist"
IMMUTABLE = "public, max-age=31536000, immutable"

# Debian's Chromium, as the browser tests and scripts/bench launch it. The last three
# flags stop Chromium's own calls home, which this machine's closed network refuses.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class Handler(SimpleHTTPRequestHandler):
    extensions_map = {  # noqa: RUF012 - the stdlib's own class attribute
        **SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",  # streaming compilation requires it
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".whl": "application/zip",
        ".zip": "application/zip",
        ".toml": "text/plain; charset=utf-8",
        ".py": "text/plain; charset=utf-8",
        ".json": "application/json",
    }
    quiet = False

    def end_headers(self) -> None:
        # A file under assets/ is named by its content: a new build gives new names.
        hashed = "assets" in self.path.split("?")[0].split("/")[:-1]
        self.send_header("Cache-Control", IMMUTABLE if hashed else "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class Server(ThreadingHTTPServer):
    daemon_threads = True


def make_server(port: int = 8000, quiet: bool = False, root: Path = DIST) -> ThreadingHTTPServer:
    handler = functools.partial(Handler, directory=str(root))
    Handler.quiet = quiet
    return Server(("127.0.0.1", port), handler)


def start_in_thread(port: int = 0, root: Path = DIST) -> tuple[ThreadingHTTPServer, str]:
    server = make_server(port, quiet=True, root=root)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the controller page on 127.0.0.1.")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 = any)")
    parser.add_argument("--dir", type=Path, default=DIST, help="folder (default dist/)")
    args = parser.parse_args(argv)
    try:
        server = make_server(args.port, root=args.dir)
    except OSError as exc:
        print(f"serve: cannot listen on 127.0.0.1:{args.port}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"budgetcore controller: http://127.0.0.1:{server.server_address[1]}/", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
