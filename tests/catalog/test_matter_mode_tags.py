"""Matter ``SupportedModes`` mode tags in both shapes: SimuHome writes bare ids
(``"modeTags": [16384]``), the catalog ModeTagStruct objects (``[{"value": 16384}]``). Either
loads, from a home file or a task override, and the state always holds the catalog's shape."""

from __future__ import annotations

import json

import pytest

from sim_devices.catalog import instantiate
from smh_core.homeenv.engine import HomeEngine, dump_home
from smh_core.homeenv.model import Home, Room, mode_tag_normalizer

MODES = "1.RefrigeratorAndTemperatureControlledCabinetMode.SupportedModes"
BARE = [
    {"label": "Normal", "mode": 0, "modeTags": [0]},
    {"label": "Rapid Cool", "mode": 1, "modeTags": [16384, 7]},
]
STRUCT = [
    {"label": "Normal", "mode": 0, "modeTags": [{"value": 0}]},
    {"label": "Rapid Cool", "mode": 1, "modeTags": [{"value": 16384}, {"value": 7}]},
]


def _home_data(modes: list) -> dict:
    home = Home(
        rooms=[Room(id="kitchen", type="kitchen", name="Kitchen")],
        devices=[instantiate("refrigerator", "f1", "kitchen", kind="matter")],
    )
    data = json.loads(dump_home(home))
    for comp in data["devices"][0]["components"]:
        for attr in comp["attributes"]:
            if attr["name"] == "SupportedModes":
                attr["value"] = modes
    return data


@pytest.mark.parametrize("modes", [BARE, STRUCT], ids=["bare ids", "structs"])
def test_a_home_file_loads_either_shape_into_the_catalog_shape(modes):
    engine = HomeEngine(Home.model_validate(_home_data(modes)))
    assert engine.value("f1", MODES) == STRUCT
    assert json.loads(dump_home(engine.to_home()))["devices"][0] == _home_data(STRUCT)["devices"][0]


def test_an_override_with_bare_ids_is_stored_in_the_catalog_shape():
    engine = HomeEngine(Home.model_validate(_home_data(STRUCT)))
    engine.set_values("f1", {MODES: STRUCT[:1]})
    result = engine.set_values("f1", {MODES: BARE})
    assert result.ok and engine.value("f1", MODES) == STRUCT
    assert [c.after for c in result.changes] == [STRUCT]


@pytest.mark.parametrize("tag", ["rapid", 1.5, True, None])
def test_other_tag_values_are_still_refused_and_change_nothing(tag):
    engine = HomeEngine(Home.model_validate(_home_data(STRUCT)))
    before = engine.snapshot()
    result = engine.set_values("f1", {MODES: [{"label": "Normal", "mode": 0, "modeTags": [tag]}]})
    assert not result.ok and result.error.code == "type_error"
    assert engine.diff(before, engine.snapshot()) == []
    with pytest.raises(ValueError, match="initial value invalid"):
        HomeEngine(
            Home.model_validate(_home_data([{"label": "Normal", "mode": 0, "modeTags": [tag]}]))
        )


def test_only_mode_option_lists_are_normalised():
    fridge = instantiate("refrigerator", "f1", "kitchen", kind="matter")
    shaped = [
        loc for loc, a in fridge.attributes_by_locator() if mode_tag_normalizer(a) is not None
    ]
    assert shaped == [MODES]
