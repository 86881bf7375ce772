"""The README's screenshot of the controller page: docs/img/page-1440-en.png.

Serves the built site (dist/) with scripts/webserver.py, opens it in Debian's Chromium
at 1440 x 900 in English, waits until Python is ready and the export panel has
rendered, and saves the first screen (the viewport, not the whole page) as a PNG.
Beside the README's PNG it writes what that screen says (page-1440-en.json: the PNG's
sha256 and every visible text, by scripts/first-screen.js): a browser test compares the
live page's first screen with it, and a unit test the PNG with its sha256, so a change
to the first screen fails a test until this script is run again.
Run it through ``scripts/screenshot`` (which builds dist/ first).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from webserver import CHROMIUM, CHROMIUM_ARGS, DIST, start_in_thread

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "img" / "page-1440-en.png"
#: What OUT's screen says, beside it (written only with OUT's own viewport and language).
MANIFEST = OUT.with_suffix(".json")
FIRST_SCREEN_JS = (ROOT / "scripts" / "first-screen.js").read_text("utf-8")
WIDTH, HEIGHT = 1440, 900
#: A screenshot bigger than this makes the README slow to open on a phone.
MAX_BYTES = 300 * 1024


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=DIST, help="built site (default dist/)")
    parser.add_argument("--out", type=Path, default=OUT, help=f"PNG (default {OUT.name})")
    parser.add_argument("--width", type=int, default=WIDTH, help=f"viewport (default {WIDTH})")
    parser.add_argument("--height", type=int, default=HEIGHT, help=f"viewport (default {HEIGHT})")
    parser.add_argument("--lang", choices=("en", "zh"), default="en", help="page language")
    parser.add_argument(
        "--full", action="store_true", help="the whole page, not only its first screen"
    )
    args = parser.parse_args(argv)
    server, url = start_in_thread(root=args.dir)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(
                viewport={"width": args.width, "height": args.height},
                locale="zh-CN" if args.lang == "zh" else "en-US",
                device_scale_factor=1,
            )
            page.goto(url if args.lang == "en" else f"{url}#lang=zh")
            page.wait_for_function(
                "document.documentElement.dataset.state !== 'loading'", timeout=120_000
            )
            state = page.evaluate("document.documentElement.dataset.state")
            if state != "ready":
                print(f"screenshot: the page did not start ({state})", file=sys.stderr)
                return 1
            page.wait_for_selector("#export-text:not(:empty)", state="attached")
            page.wait_for_timeout(500)  # the deferred panels' frame
            if args.full:
                # Chromium's capture beyond the screen keeps content-visibility: auto
                # panels below it skipped (blank boxes at their height): draw them.
                page.evaluate(
                    """for (const e of document.querySelectorAll('*'))
                         if (getComputedStyle(e).contentVisibility === 'auto')
                           e.style.contentVisibility = 'visible';"""
                )
                page.wait_for_timeout(100)
            args.out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(args.out), full_page=args.full)
            texts = page.evaluate(FIRST_SCREEN_JS)
            browser.close()
    finally:
        server.shutdown()
    size = args.out.stat().st_size
    print(f"{args.out}: {args.width} x {args.height}, {size:,} bytes")
    readme = (args.width, args.height, args.lang, args.full) == (WIDTH, HEIGHT, "en", False)
    if args.out.resolve() == OUT.resolve() and readme:
        digest = hashlib.sha256(args.out.read_bytes()).hexdigest()
        manifest = {"png_sha256": digest, "viewport": [WIDTH, HEIGHT], "lang": "en"}
        manifest["first_screen"] = texts
        MANIFEST.write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", "utf-8")
        print(f"{MANIFEST}: {len(texts)} texts")
    if size > MAX_BYTES and not args.full:
        print(f"screenshot: larger than {MAX_BYTES:,} bytes", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
