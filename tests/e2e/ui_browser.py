"""What the browser tests share: headless Debian Chromium that never leaves loopback, logged in
through HA's real login form, plus the artifact folder and the checks on saved screenshots.

Needs /usr/bin/chromium (``scripts/ensure_chromium.sh`` installs it; ``make test`` runs that
first); without it the tests fail. ``SMH_SKIP_BROWSER=1`` skips them. Screenshots go to
``$SMH_ARTIFACTS`` (default: ``artifacts/`` in the repository).
"""

from __future__ import annotations

import asyncio
import os
import struct
import sys
from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page, Route, async_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import ha_instance  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
# Without the background-networking flags Chromium's own connections are refused on this
# closed network and slow the page down; --no-sandbox because tests run as root.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
BLANK_PNG = bytes.fromhex(  # a 1x1 transparent PNG
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
    "0000000d49444154789c6360606060000000050001a5f645400000000049454e44ae426082"
)
WIDTH = 1440


def artifact_dir() -> Path:
    """Where CI and people look for the screenshots (``/artifacts/`` is git-ignored)."""
    path = Path(os.environ.get("SMH_ARTIFACTS") or ROOT / "artifacts")
    path.mkdir(parents=True, exist_ok=True)
    return path


def require_chromium() -> None:
    """A missing browser is a set-up error, not a pass: fail loudly unless told to skip."""
    if os.environ.get("SMH_SKIP_BROWSER") == "1":
        pytest.skip("SMH_SKIP_BROWSER=1: the browser tests are skipped")
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: run `bash scripts/ensure_chromium.sh` (as root), "
            "or set SMH_SKIP_BROWSER=1 to skip this test"
        )


def fresh_shot(name: str) -> Path:
    """The artifact path of a test's screenshot, after checking the browser is there; an old
    screenshot is removed first, so a failed run never leaves a stale one looking current."""
    require_chromium()
    shot = artifact_dir() / name
    shot.unlink(missing_ok=True)
    return shot


def run_in_own_loop[T](scenario: Coroutine[Any, Any, T]) -> T:
    """Run a scenario on an event loop of its own (pytest-asyncio's loop belongs to the HA test
    plugin; these tests drive a separate ``hass`` process)."""
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(scenario)
    finally:
        loop.close()


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from the PNG header (fails on anything that is not a PNG)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


async def log_in(page: Page, url: str, path: str) -> None:
    """Through HA's real login form (the frontend redirects there, then back to ``path``)."""
    await page.goto(url + path)
    await page.get_by_role("textbox", name="Username").fill(ha_instance.USERNAME)
    await page.get_by_role("textbox", name="Password").fill(ha_instance.PASSWORD)
    await page.get_by_role("button", name="Log in").click()


@asynccontextmanager
async def browser_page(
    url: str, path: str, height: int = 900, init_script: str | None = None
) -> AsyncIterator[Page]:
    """A logged-in page of the HA at ``url``, on ``path``, in a fresh headless Chromium."""
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            context = await browser.new_context(
                viewport={"width": WIDTH, "height": height}, locale="en-US"
            )
            if init_script:
                await context.add_init_script(init_script)

            async def offline(route: Route) -> None:
                """Nothing leaves loopback: the integrations' brand icons (from the internet)
                get a blank image at once, not a timeout and a broken-image glyph."""
                if route.request.resource_type == "image":
                    await route.fulfill(content_type="image/png", body=BLANK_PNG)
                else:
                    await route.abort()

            await context.route(lambda u: not u.startswith(url), offline)
            page = await context.new_page()
            await log_in(page, url, path)
            yield page
        finally:
            await browser.close()
