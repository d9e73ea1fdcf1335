"""``smh ha map`` against HA's ``demo`` integration: the sample tasks' tiny home is proposed
onto the demo's lights, fan and thermostat (renamed as a user names their hardware), and the
result must be the hand-written, proven ``examples/hardware-mapping.yaml`` with no hand edit.
A re-run keeps what the user changed or skipped; ``--interactive`` lets them change it."""

from __future__ import annotations

from pathlib import Path

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.setup import async_setup_component

from smh_core.cli.main import main
from smh_core.ha.ha_inventory import Inventory, read_inventory
from smh_core.ha.hardware_map import load_mapping
from smh_core.ha.map_propose import propose
from smh_core.ha.map_review import review
from smh_core.ha.websocket import connect
from smh_core.task.home import read_home_file
from smh_core.task.model import HomeRef

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "tasks"
KNOWN_GOOD = ROOT / "examples" / "hardware-mapping.yaml"
NAMES = {
    "light.bed_light": "Bedroom Lamp",
    "light.ceiling_lights": "Bathroom Fan Light",
    "fan.living_room_fan": "Bathroom Fan",
    "climate.hvac": "Kitchen AC",
}


@pytest.fixture
async def demo_url(hass: HomeAssistant, hass_client) -> str:
    """HA's demo home with the four devices named as the tiny home names them; the REST,
    websocket and registry APIs on a loopback port."""
    for domain in ("homeassistant", "api", "websocket_api", "config", "conversation", "demo"):
        assert await async_setup_component(hass, domain, {})
    await hass.async_block_till_done()
    registry = er.async_get(hass)
    for entity_id, name in NAMES.items():
        registry.async_update_entity(entity_id, name=name)
    return str((await hass_client()).make_url("")).rstrip("/")


def _map(hass: HomeAssistant, url: str, token: str, out: Path, *more: str):
    return hass.async_add_executor_job(
        main,
        [
            "ha",
            "map",
            "--tasks",
            str(TASKS / "sample.jsonl"),
            "--out",
            str(out),
            "--ha-url",
            url,
            "--token",
            token,
            *more,
        ],
    )


async def test_the_proposal_is_the_known_good_mapping(
    hass: HomeAssistant, demo_url: str, hass_access_token: str, tmp_path: Path, capsys
) -> None:
    out = tmp_path / "mapping.yaml"
    assert await _map(hass, demo_url, hass_access_token, out) == 0
    printed = capsys.readouterr().out
    proposed = load_mapping(out)
    assert proposed.home == HomeRef(file="homes/tiny.json")
    assert proposed.devices == load_mapping(KNOWN_GOOD).devices
    text = out.read_text()
    # every attribute the mapping leaves out is named, with why
    assert "# not mapped: color: a hex colour that says nothing of which colours" in text
    assert "# not mapped: alias: a name, not a device state" in text
    assert "# not mapped: child_lock: no rule maps them" in text
    assert (
        "1002 Bathroom Fan Light (fan) (Master Bathroom) -> 'Bathroom Fan' [fan.living_room_fan]"
        in printed
    )
    # the sample tasks: all but the one needing a tool trace... which the oracle gives: 8 of 8
    assert "tasks of this home: 8 of 8 can run" in printed
    assert (
        await hass.async_add_executor_job(
            main,
            [
                "ha",
                "check-mapping",
                str(out),
                "--tasks-dir",
                str(TASKS),
                "--ha-url",
                demo_url,
                "--token",
                hass_access_token,
            ],
        )
        == 0
    )


async def test_a_rerun_keeps_the_users_choices(
    hass: HomeAssistant, demo_url: str, hass_access_token: str, tmp_path: Path
) -> None:
    """The user points the lamp at the kitchen lights and skips the AC; a re-run keeps both and
    proposes the rest as before. An entity that left HA is proposed again, and said so."""
    out = tmp_path / "mapping.yaml"
    assert await _map(hass, demo_url, hass_access_token, out) == 0
    edited = out.read_text().replace("entity: light.bed_light", "entity: light.kitchen_lights")
    edited = edited.replace("devices:\n", "skip: ['1003']\ndevices:\n", 1)
    out.write_text(edited)
    assert await _map(hass, demo_url, hass_access_token, out) == 0
    again = load_mapping(out)
    assert {amap.entity for amap in again.devices["1001"].values()} == {"light.kitchen_lights"}
    assert again.skip == ["1003"] and "1003" not in again.devices
    assert again.devices["1002"] == load_mapping(KNOWN_GOOD).devices["1002"]
    assert "# kept from the earlier file" in out.read_text()

    er.async_get(hass).async_remove("light.kitchen_lights")
    await hass.async_block_till_done()
    hass.states.async_remove("light.kitchen_lights")
    assert await _map(hass, demo_url, hass_access_token, out) == 0
    assert again.skip == load_mapping(out).skip
    assert {amap.entity for amap in load_mapping(out).devices["1001"].values()} == {
        "light.bed_light"
    }
    assert (
        "1001: the earlier choice used light.kitchen_lights, no longer in HA; proposed again"
        in out.read_text()
    )


async def _inventory(url: str, token: str) -> Inventory:
    async with connect(url, token) as call:
        return await read_inventory(call)


async def test_interactive_answers_change_the_proposal(
    hass: HomeAssistant, demo_url: str, hass_access_token: str
) -> None:
    """Enter keeps the lamp; an entity id moves the fan-light's light to another lamp; ``n``
    leaves its fan unmapped; ``s`` skips the AC for good."""
    inventory = await _inventory(demo_url, hass_access_token)
    proposal = propose(
        read_home_file(TASKS / "homes" / "tiny.json"), HomeRef(file="homes/tiny.json"), inventory
    )
    answers = iter(["", "light.office_rgbw_lights", "n", "s"])
    shown: list[str] = []
    review(proposal, inventory, lambda prompt: next(answers), shown.append)
    mapping = proposal.mapping()
    assert mapping.devices["1001"] == load_mapping(KNOWN_GOOD).devices["1001"]
    assert {amap.entity for amap in mapping.devices["1002"].values()} == {
        "light.office_rgbw_lights"
    }
    assert set(mapping.devices) == {"1001", "1002"} and mapping.skip == ["1003"]
    assert any("1003 Kitchen AC (room Kitchen)" in line for line in shown)
    assert any("-> 1) 'Hvac' [climate.hvac] score" in line for line in shown)


async def test_interactive_from_the_terminal(
    hass: HomeAssistant,
    demo_url: str,
    hass_access_token: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``--interactive`` reads the terminal; end of input keeps the rest of the proposal."""
    answers = iter(["2"])  # the lamp: the second candidate; then end of input

    def typed(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", typed)
    out = tmp_path / "mapping.yaml"
    assert await _map(hass, demo_url, hass_access_token, out, "--interactive") == 0
    mapping = load_mapping(out)
    assert mapping.devices["1001"]["state"].entity != "light.bed_light"
    assert mapping.devices["1003"] == load_mapping(KNOWN_GOOD).devices["1003"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--tasks", str(TASKS / "sage.jsonl")],
            "has tasks in 3 homes: pick one with --home (file:homes/sage-",
        ),
        (
            ["--tasks", str(TASKS / "sample.jsonl"), "--home", "nowhere.json"],
            "--home nowhere.json: no task of",
        ),
        (["--suite", "nosuch"], "nosuch.jsonl: no task file"),
    ],
)
def test_bad_input_is_one_line_and_changes_nothing(
    args: list[str], message: str, tmp_path: Path, capsys
) -> None:
    out = tmp_path / "m.yaml"
    code = main(
        [
            "ha",
            "map",
            *args,
            "--tasks-dir",
            str(TASKS),
            "--out",
            str(out),
            "--ha-url",
            "http://127.0.0.1:9",
            "--token",
            "t",
        ]
    )
    assert code == 2 and message in capsys.readouterr().err
    assert not out.exists()


def test_an_earlier_file_for_another_home_is_refused(tmp_path: Path, capsys) -> None:
    out = tmp_path / "m.yaml"
    out.write_text(
        "home: {seed: 1, generator: matter}\ndevices:\n  '2004': {1.OnOff.OnOff: {entity: light.x}}\n"
    )
    before = out.read_text()
    assert (
        main(
            [
                "ha",
                "map",
                "--tasks",
                str(TASKS / "sample.jsonl"),
                "--out",
                str(out),
                "--ha-url",
                "http://127.0.0.1:9",
                "--token",
                "t",
            ]
        )
        == 2
    )
    assert "maps the home matter:1, not file:homes/tiny.json" in capsys.readouterr().err
    assert out.read_text() == before
