"""A Matter-shaped dimmable light, independent of the catalog, for the bridge's protocol tests."""

from __future__ import annotations

import pytest

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home


def matter_light(did: str = "1201", room: str = "living") -> dict:
    return {
        "name": "Reading Lamp",
        "userdata": {"did": did, "spid": "test.matter.light", "category": "light", "subcategory": "dimmable_light",
                     "room": room},
        "matter": {"device_types": {1: 0x0101}},
        "components": [
            {"name": "1.OnOff", "matter_cluster": 6,
             "attributes": [{"name": "OnOff", "matter_id": 0, "type": "bool", "value": False}],
             "services": [{"name": "On", "matter_id": 1, "effects": [{"set": "OnOff", "value": True}]},
                          {"name": "Off", "matter_id": 0, "effects": [{"set": "OnOff", "value": False}]}]},
            {"name": "1.LevelControl", "matter_cluster": 8,
             "attributes": [{"name": "CurrentLevel", "matter_id": 0, "type": "int", "range": [1, 254], "value": 100},
                            {"name": "MinLevel", "matter_id": 2, "type": "int", "value": 1},
                            {"name": "MaxLevel", "matter_id": 3, "type": "int", "value": 254}],
             "services": [{"name": "MoveToLevelWithOnOff", "matter_id": 4,
                           "arguments": [{"name": "level", "type": "int", "range": [1, 254]},
                                         {"name": "transitionTime", "type": "int", "required": False}],
                           "effects": [{"set": "CurrentLevel", "arg": "level"},
                                       {"set": "/1.OnOff.OnOff", "value": True}]},
                          {"name": "MoveToLevel", "matter_id": 0,
                           "arguments": [{"name": "level", "type": "int", "range": [1, 254]},
                                         {"name": "transitionTime", "type": "int", "required": False}],
                           "requires": [{"attr": "/1.OnOff.OnOff", "equals": True, "message": "turn the light on first"}],
                           "effects": [{"set": "CurrentLevel", "arg": "level"}]}]},
        ],
    }


@pytest.fixture
def light_engine() -> HomeEngine:
    home = Home.model_validate({"name": "test-home", "rooms": [{"id": "living", "type": "living_room",
                                                                 "name": "Living Room"}],
                                "devices": [matter_light()]})
    return HomeEngine(home)
