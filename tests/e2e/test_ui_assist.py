"""End to end, in a browser: HA's Assist dialog, opened from the Overview of a real ``hass``
running ``make demo``'s configuration, takes a typed request, answers it, and the simulated
home changes.

Why a browser: the demo once shipped without ``assist_pipeline`` and the dialog did not open
at all ("Unknown command" from ``assist_pipeline/pipeline/list``); only the frontend shows that.
The websocket tests of the conversation agent cannot see it.

Browser set-up, skip rule and artifact folder: :mod:`tests.e2e.ui_browser`; the screenshot of
the answered dialog is saved there too.
"""

from __future__ import annotations

import re
from pathlib import Path

import aiohttp
import pytest
from playwright.async_api import Page, expect

from smh_core.llm.local import free_port

from .ui_browser import WIDTH, browser_page, fresh_shot, ha_instance, png_size, run_in_own_loop

pytestmark = pytest.mark.slow  # a real hass process and a browser: about 30 s

LEVEL, SEED = "simple", 0
SHOT_NAME = "ha-assist-dialog.png"
# The answer is rendered as markdown inside a shadow root, which innerText does not enter.
DEEP_TEXT_JS = """el => { const walk = n => (n.shadowRoot ? walk(n.shadowRoot) : '') + Array.from(n.childNodes,
  c => c.nodeType === Node.TEXT_NODE ? c.textContent : walk(c)).join(''); return walk(el).trim(); }"""


async def states(url: str, token: str) -> dict[str, dict]:
    async with (
        aiohttp.ClientSession(headers={"Authorization": f"Bearer {token}"}) as session,
        session.get(f"{url}/api/states") as r,
    ):
        r.raise_for_status()
        return {s["entity_id"]: s for s in await r.json()}


def a_light_to_switch(all_states: dict[str, dict]) -> tuple[str, str, str]:
    """(entity id, friendly name, state it should get) of the first light by entity id: the
    request names it and asks for the opposite of its state."""
    lights = sorted(eid for eid in all_states if eid.startswith("light."))
    assert lights, "the demo home has no light"
    state = all_states[lights[0]]
    return (
        lights[0],
        state["attributes"]["friendly_name"],
        "off" if state["state"] == "on" else "on",
    )


async def ask_assist(page: Page, sentence: str, shot: Path, ready: str = "Areas") -> str:
    """On the Overview, open Assist with its keyboard shortcut, type ``sentence``, and return
    the text of the dialog once the assistant's answer is shown (screenshot either way).
    ``ready``: a text the Overview shows once drawn (a home with floors shows "Floor 1")."""
    await expect(page.get_by_text(ready, exact=True).first).to_be_visible(timeout=30_000)
    # HA's keyboard shortcut for Assist (its toolbar button is an icon with no accessible name).
    await page.keyboard.press("a")
    dialog = page.locator("ha-voice-command-dialog")
    field = dialog.get_by_role("textbox")
    try:
        await expect(field).to_be_visible(timeout=15_000)
        await field.fill(sentence)
        await field.press("Enter")
        # The dialog shows the request, then a second bubble of its own: "..." while the agent
        # works, then the answer (a word in it means the answer has come).
        answers = dialog.locator(".message.hass")
        await expect(answers).to_have_count(2, timeout=30_000)
        await expect(answers.last).to_have_text(re.compile(r"\w"), timeout=30_000)
        return await answers.last.evaluate(DEEP_TEXT_JS)
    finally:
        await page.screenshot(path=shot)


def test_assist_dialog_answers_and_the_home_changes(tmp_path, socket_enabled):
    shot = fresh_shot(SHOT_NAME)

    async def scenario() -> tuple[str, str, str, str, str]:
        inst = await ha_instance.launch(
            tmp_path / "ha", free_port(), LEVEL, SEED, time_scale=0.0, demo=True
        )
        try:
            entity_id, name, wanted = a_light_to_switch(await states(inst.url, inst.token))
            async with browser_page(inst.url, "/lovelace/0") as page:
                answer = await ask_assist(page, f"turn {wanted} the {name}", shot)
            after = (await states(inst.url, inst.token))[entity_id]["state"]
            return entity_id, f"turn {wanted} the {name}", wanted, answer, after
        finally:
            inst.stop()

    entity_id, request, wanted, answer, after = run_in_own_loop(scenario())

    assert png_size(shot)[0] == WIDTH and shot.stat().st_size > 10_000, shot
    assert f"turned {wanted}" in answer.lower(), (
        f"Assist answered {request!r} with {answer!r}; see {shot}"
    )
    assert "sorry" not in answer.lower() and "couldn't" not in answer.lower(), (
        f"Assist did not understand {request!r}: {answer!r}; see {shot}"
    )
    assert after == wanted, f"{entity_id} is {after} after Assist answered {answer!r}; see {shot}"
