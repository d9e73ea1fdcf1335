"""The README's picture of the leaderboard: the sample site's Success table in headless Chromium.

    python scripts/sample_site.py                # or: make sample-site
    python scripts/site_screenshot.py [--site artifacts/sample-site/site] [--out docs/img/leaderboard.png]

Opens the site from disk (nothing fetched), photographs the page's heading and the Success
table at a 1200-pixel-wide window, and writes an 8-bit palette PNG (Pillow, from matplotlib's
dependencies), refusing one over ``--max-kb`` (150 KB) so the README stays light. Chromium is
Debian's (scripts/ensure_chromium.sh), driven by playwright as the browser tests drive it.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.e2e.ui_browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

DEFAULT_SITE = REPO / "artifacts" / "sample-site" / "site"
DEFAULT_OUT = REPO / "docs" / "img" / "leaderboard.png"


async def shoot(site: Path, width: int = 1200) -> bytes:
    """The PNG bytes of the page top down to the end of the Success table."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = await browser.new_page(viewport={"width": width, "height": 800})
            await page.route(lambda url: not url.startswith("file://"), lambda r: r.abort())
            await page.goto((site / "index.html").as_uri())
            box = await page.locator("#leaderboard").bounding_box()
            if box is None:
                raise RuntimeError(f"{site / 'index.html'}: no leaderboard table")
            height = box["y"] + box["height"] + 16
            return await page.screenshot(
                clip={"x": 0, "y": 0, "width": width, "height": height}, full_page=True
            )
        finally:
            await browser.close()


def quantize(png: bytes) -> bytes:
    """The screenshot as a 256-colour PNG (text and flat colours lose nothing visible)."""
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    buf = io.BytesIO()
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(buf, "PNG", optimize=True)
    return buf.getvalue()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--site", type=Path, default=DEFAULT_SITE, help=f"default: {DEFAULT_SITE}")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"default: {DEFAULT_OUT}")
    p.add_argument("--max-kb", type=int, default=150, help="refuse a bigger PNG (default: 150)")
    args = p.parse_args(argv)
    if not (args.site / "index.html").is_file():
        print(
            f"{args.site / 'index.html'}: missing; build it first (make sample-site)",
            file=sys.stderr,
        )
        return 1
    if not CHROMIUM.exists():
        print(f"{CHROMIUM}: missing (bash scripts/ensure_chromium.sh)", file=sys.stderr)
        return 1
    png = quantize(asyncio.run(shoot(args.site)))
    if len(png) > args.max_kb * 1024:
        print(f"screenshot is {len(png) / 1024:.0f} KB, over {args.max_kb} KB", file=sys.stderr)
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(png)
    print(f"{args.out}: {len(png) / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
