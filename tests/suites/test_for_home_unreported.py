"""A value a twin's HA did not report, judged by a task that sets it in its start state: known
only when the task leaves the device in another state than the one HA was read in. An off
media player's volume (HA shows none while a player is off) set to 20 and asked for 30 stays
unshown while the player stays off: no run on HA could judge it (seen on the large generated
home: its off smart screen's volume, "not reported, want 30")."""

from __future__ import annotations

from smh_core.ha.twin import Registries, twin_from
from smh_core.homeenv.model import Home
from smh_core.suites.for_home import pins_unknown
from smh_core.suites.for_home.base import unknown_values
from smh_core.task.model import Task

SCREEN = "media_player.kids_screen"


def _twin() -> Home:
    off = {"friendly_name": "Kids Screen", "supported_features": 21389}  # off: no volume shown
    regs = Registries(
        floors=[],
        areas=[{"area_id": "kids", "name": "Kids Room", "floor_id": None, "aliases": []}],
        devices=[],
        entities=[{"entity_id": SCREEN, "area_id": "kids"}],
        states=[{"entity_id": SCREEN, "state": "off", "attributes": off}],
        exposed={SCREEN: True},
        name="Screen home",
    )
    return twin_from(regs).home


def _task(actions: list[dict]) -> Task:
    return Task.model_validate({
        "id": "t", "suite": "sage", "category": "personalization",
        "subcategory": "personalization", "difficulty": "simple",
        "home": {"file": "homes/twin.json"},
        "overrides": [{"did": SCREEN, "values": {"volume_level": 20}}],
        "turns": [{"text": "Set the Kids Screen the way I like it."}],
        "goal": {"kind": "execute", "critic": f"device('{SCREEN}').volume_level == 30"},
        "reference": {"mode": "execute", "response": "Done.", "actions": actions},
    })  # fmt: skip


def test_a_value_set_on_a_device_left_as_ha_hid_it_is_still_unknown() -> None:
    home = _twin()
    unknown = unknown_values(home)
    assert "volume_level" in unknown[SCREEN]  # HA showed no volume for the off screen
    volume = {"did": SCREEN, "locator": "set_volume", "arguments": {"volume_level": 30}}
    why = pins_unknown(_task([volume]), home, unknown)
    assert why == (
        f"its goal judges {SCREEN} volume_level, which the home never reported while the "
        "device was 'off', as the task leaves it"
    )
    # switched on first: HA shows its volume, the task judges what it shows
    on = {"did": SCREEN, "locator": "turn_on", "arguments": {}}
    assert pins_unknown(_task([on, volume]), home, unknown) is None
