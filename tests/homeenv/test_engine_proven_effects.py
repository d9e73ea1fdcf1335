"""Effects the engine trusts without re-checking (issue 37) must not let an invalid value in:
an omitted argument takes its default, which nothing checked, and a behaviour may replace a
proven value; either way the call is refused and the home is left as it was."""

from __future__ import annotations

import json
from typing import Any

from smh_core.homeenv.behaviors import register_behavior
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home


@register_behavior("test_proven_overwrite")
def _overwrite(state: Any, args: dict[str, Any], changes: dict[str, Any], ns: str) -> None:
    """Replaces the proven argument's value with one the attribute refuses."""
    changes["level"] = 500
    return None


def _engine() -> HomeEngine:
    level = {"name": "level", "type": "int", "range": [0, 100]}
    return HomeEngine(
        Home.model_validate(
            {
                "rooms": [{"id": "r1", "type": "living_room", "name": "Living room"}],
                "devices": [
                    {
                        "name": "Dimmer",
                        "userdata": {
                            "did": "d1",
                            "spid": "test.dimmer",
                            "category": "test",
                            "subcategory": "dimmer",
                            "room": "r1",
                        },
                        "attributes": [
                            {
                                "name": "state",
                                "type": "str",
                                "options": ["on", "off"],
                                "value": "off",
                            },
                            {**level, "value": 10},
                        ],
                        "services": [
                            {
                                "name": "set_level",
                                "arguments": [{**level, "required": True}],
                                "effects": [
                                    {"set": "level", "arg": "level"},
                                    {"set": "state", "value": "on"},
                                ],
                            },
                            {
                                "name": "set_level_or_default",
                                "arguments": [{**level, "required": False, "default": 250}],
                                "effects": [{"set": "level", "arg": "level"}],
                            },
                            {
                                "name": "set_level_then_overwrite",
                                "arguments": [{**level, "required": True}],
                                "effects": [{"set": "level", "arg": "level"}],
                                "behavior": "test_proven_overwrite",
                            },
                        ],
                    }
                ],
            }
        )
    )


def _state(engine: HomeEngine) -> str:
    return json.dumps(engine.state_view("d1"), sort_keys=True)


def test_a_proven_call_sets_its_values_reported_in_attribute_order() -> None:
    engine = _engine()
    result = engine.execute("d1", "set_level", {"level": 40})
    assert result.ok
    assert [(c.locator, c.before, c.after) for c in result.changes] == [
        ("state", "off", "on"),
        ("level", 10, 40),
    ]
    assert engine.state_view("d1") == {"state": "on", "level": 40}


def test_an_invalid_default_is_still_refused() -> None:
    engine = _engine()
    before = _state(engine)
    result = engine.execute("d1", "set_level_or_default", {})
    assert not result.ok and result.error is not None
    assert result.error.field == "level"
    assert _state(engine) == before
    assert engine.execute("d1", "set_level_or_default", {"level": 55}).ok


def test_a_value_a_behaviour_replaces_is_checked() -> None:
    engine = _engine()
    before = _state(engine)
    result = engine.execute("d1", "set_level_then_overwrite", {"level": 20})
    assert not result.ok and result.error is not None and "500" in result.error.message
    assert _state(engine) == before
