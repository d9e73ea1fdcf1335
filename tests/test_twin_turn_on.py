"""What turning a thermostat on does to its mode (:mod:`smh_core.ha.twin_turn_on`), learnt from
rounds as the probe records them: a fixed mode from both prior modes is written into the twin's
``turn_on``; coming back in the mode it had is what the twin does already; anything else
(stays off, a mode the twin cannot name, a different mode each time, a refused call) teaches
nothing, so the side-by-side report still flags the device."""

from __future__ import annotations

from smh_core.ha.hardware_map import NOT_OBSERVED
from smh_core.ha.twin import Registries, twin_from
from smh_core.ha.twin_probe import calibrated
from smh_core.ha.twin_turn_on import STAYED_OFF, TurnOnLearnt, TurnOnSeen, learn_turn_on
from smh_core.homeenv.engine import HomeEngine, dump_home
from smh_core.homeenv.model import Home

MODES = ["heat", "cool", "auto", "dry", "fan_only"]
DEFAULT = [TurnOnSeen("heat", "heat", "heat"), TurnOnSeen("cool", "heat", "heat")]
"""HA's default turn-on (HA's demo Hvac): heat from either mode, also when already on."""


def test_the_same_mode_from_two_modes_is_a_fixed_mode() -> None:
    got = learn_turn_on("climate.hvac", MODES, DEFAULT)
    assert (got.lands, got.while_on, got.resumes, got.note) == ("heat", True, False, "")
    assert "lands in heat whatever mode it had, also when already on" in got.describe()
    # turned on while on it kept the mode it had: the mode is set from off only
    from_off = [TurnOnSeen("heat", "heat", "heat"), TurnOnSeen("cool", "cool", "heat")]
    got = learn_turn_on("climate.hvac", MODES, from_off)
    assert (got.lands, got.while_on, got.note) == ("heat", False, "")
    # while on it did neither: the part from off is still learnt, the rest named
    odd = [TurnOnSeen("heat", "dry", "heat"), TurnOnSeen("cool", "cool", "heat")]
    got = learn_turn_on("climate.hvac", MODES, odd)
    assert (got.lands, got.while_on) == ("heat", False) and "not learnt" in got.note


def test_the_mode_it_had_each_time_is_resuming() -> None:
    resumed = [TurnOnSeen("heat", "heat", "heat"), TurnOnSeen("cool", "cool", "cool")]
    got = learn_turn_on("climate.x", MODES, resumed)
    assert (got.lands, got.resumes, got.note) == (None, True, "")
    assert "in the mode it had" in got.describe()


def test_anything_else_teaches_nothing() -> None:
    cases = {
        "turn_on left it off": [
            TurnOnSeen("heat", "heat", STAYED_OFF),
            TurnOnSeen("cool", "cool", STAYED_OFF),
        ],
        # a mode the twin's modes (read through its mapping) lack: a twin without heat_cool
        "heat_cool, a mode its twin has no name for": [
            TurnOnSeen("cool", "heat_cool", "heat_cool"),
            TurnOnSeen("auto", "heat_cool", "heat_cool"),
        ],
        "not reported, a mode its twin has no name for": [
            TurnOnSeen("cool", NOT_OBSERVED, NOT_OBSERVED),
            TurnOnSeen("auto", NOT_OBSERVED, NOT_OBSERVED),
        ],
        "a different mode from each": [
            TurnOnSeen("heat", "cool", "cool"),
            TurnOnSeen("cool", "dry", "dry"),
        ],
        "from cool: turned off: refused": [
            TurnOnSeen("heat", "heat", "heat"),
            TurnOnSeen("cool", problem="turned off: refused (500)"),
        ],
        "not seen from two different modes": [TurnOnSeen("heat", "heat", "heat")],
    }
    for why, rounds in cases.items():
        got = learn_turn_on("climate.x", MODES, rounds)
        assert (got.lands, got.resumes) == (None, False), why
        assert why in got.note and got.note.endswith("nothing learnt (it will be flagged)"), (
            got.note
        )


def _twin() -> Home:
    thermostat = {"entity_id": "climate.hall", "state": "off", "attributes": {
        "friendly_name": "Thermostat", "hvac_modes": ["off", "heat", "cool", "auto"],
        "temperature": 22, "current_temperature": 22, "supported_features": 1 | 128 | 256}}  # fmt: skip
    regs = Registries(
        floors=[], areas=[], devices=[], entities=[], states=[thermostat], exposed={}, name="h"
    )
    return twin_from(regs).home


def _turned_on(home: Home, mode: str, power: str) -> str:
    engine = HomeEngine(home)
    assert engine.execute("climate.hall", "set_ac_mode", {"ac_mode": mode}).ok
    if power == "off":
        assert engine.execute("climate.hall", "turn_off", {}).ok
    assert engine.execute("climate.hall", "turn_on", {}).ok
    assert engine.value("climate.hall", "state") == "on"
    return str(engine.value("climate.hall", "ac_mode"))


def test_the_twin_turns_on_as_learnt() -> None:
    home = _twin()
    assert _turned_on(home, "cool", "off") == "cool"  # as imported: the mode it had
    fixed = calibrated(home, [], [learn_turn_on("climate.hall", MODES, DEFAULT)])
    assert _turned_on(fixed, "cool", "off") == "heat"
    assert _turned_on(fixed, "cool", "on") == "heat"
    from_off = TurnOnLearnt("climate.hall", lands="heat")
    only_off = calibrated(home, [], [from_off])
    assert (_turned_on(only_off, "cool", "off"), _turned_on(only_off, "cool", "on")) == (
        "heat",
        "cool",
    )
    # the home file holds it as data, and loads back into an engine that does the same
    assert _turned_on(Home.model_validate_json(dump_home(only_off)), "auto", "off") == "heat"
    # probed again: the earlier effect is replaced, not added to; resuming removes it
    again = calibrated(fixed, [], [learn_turn_on("climate.hall", MODES, DEFAULT)])
    assert dump_home(again) == dump_home(fixed)
    resumed = TurnOnLearnt("climate.hall", resumes=True)
    assert _turned_on(calibrated(fixed, [], [resumed]), "cool", "off") == "cool"
    # the engine holds the effect to the mode's options: a mode the twin cannot name is refused
    unnamed = calibrated(home, [], [TurnOnLearnt("climate.hall", lands="heat_cool")])
    refused = HomeEngine(unnamed).execute("climate.hall", "turn_on", {})
    assert not refused.ok and "heat_cool" in str(refused.error)
    # nothing learnt leaves the twin as it is
    nothing = TurnOnLearnt("climate.hall", note="why: nothing learnt (it will be flagged)")
    assert dump_home(calibrated(fixed, [], [nothing])) == dump_home(fixed)


def test_a_thermostat_landing_in_heat_cool_is_learnt_where_its_twin_names_it() -> None:
    """HA's demo Ecobee offers auto and heat_cool, and HA's turn-on lands it in heat_cool: its
    twin names both (heat_cool an alias of the catalog's auto), so the probe learns it and the
    twin turns on as the real one does."""
    ecobee = {"entity_id": "climate.hall", "state": "cool", "attributes": {
        "friendly_name": "Ecobee", "hvac_modes": ["off", "heat_cool", "cool", "auto", "dry", "fan_only"],
        "temperature": 22, "current_temperature": 22, "supported_features": 1 | 128 | 256}}  # fmt: skip
    regs = Registries(
        floors=[], areas=[], devices=[], entities=[], states=[ecobee], exposed={}, name="h"
    )
    home = twin_from(regs).home
    modes = next(a for a in home.devices[0].attributes if a.name == "ac_mode").options
    assert modes is not None and "heat_cool" in modes
    rounds = [
        TurnOnSeen("cool", "heat_cool", "heat_cool"),
        TurnOnSeen("auto", "heat_cool", "heat_cool"),
    ]
    got = learn_turn_on("climate.hall", modes, rounds)
    assert (got.lands, got.while_on, got.note) == ("heat_cool", True, "")
    fixed = calibrated(home, [], [got])
    assert _turned_on(fixed, "cool", "off") == "heat_cool"
    assert _turned_on(fixed, "auto", "on") == "heat_cool"
