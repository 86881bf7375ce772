"""Static server for web/: loopback only, correct MIME types, no caching.

Used by scripts/serve, the browser tests and scripts/bench.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

WEB = Path(__file__).resolve().parent.parent / "web"

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
        # The wheel is rebuilt from the checkout: never let a browser keep an old one.
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class Server(ThreadingHTTPServer):
    daemon_threads = True


def make_server(port: int = 8000, quiet: bool = False) -> ThreadingHTTPServer:
    handler = functools.partial(Handler, directory=str(WEB))
    Handler.quiet = quiet
    return Server(("127.0.0.1", port), handler)


def start_in_thread(port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    server = make_server(port, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve the controller page on 127.0.0.1.")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 = any)")
    args = parser.parse_args(argv)
    try:
        server = make_server(args.port)
    except OSError as exc:
        print(f"serve: cannot listen on 127.0.0.1:{args.port}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"budgetcore controller: http://127.0.0.1:{server.server_address[1]}/", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
