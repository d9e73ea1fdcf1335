"""Small hand-built simulated homes for the simulator tests.

They use the model directly (not the Matter catalog) so the simulator's tests pin its own
semantics: a cooling/heating unit with a fan, a humidifier, a purifier, a dimmable lamp, a blind,
a motion sensor and a washer with a 59-minute programme.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Device, Home
from smh_core.homeenv.rules import Rule

START = datetime(2025, 6, 27, 12, 0, 0)


def _attr(name: str, type_: str, value: Any, **kw: Any) -> dict[str, Any]:
    return {"name": name, "type": type_, "value": value, **kw}


def ac(
    did: str,
    room: str,
    *,
    on: bool = False,
    mode: int = 3,
    setpoint: int = 2400,
    fan: int = 50,
    rate: float = 0.004,
) -> Device:
    """An air conditioner: OnOff, SystemMode (3 cool, 4 heat), setpoints in 0.01 °C, fan %."""
    on_req = [{"attr": "/on", "equals": True, "message": "turn the AC on first"}]
    return Device.model_validate(
        {
            "name": f"AC {did}",
            "attributes": [
                _attr("on", "bool", on),
                _attr("mode", "int", mode, options=[0, 3, 4], writable=True, write_requires=on_req),
                _attr(
                    "cool_setpoint",
                    "int",
                    setpoint,
                    range=[1600, 3200],
                    writable=True,
                    write_requires=on_req,
                ),
                _attr(
                    "heat_setpoint",
                    "int",
                    2000,
                    range=[700, 3000],
                    writable=True,
                    write_requires=on_req,
                ),
                _attr("fan", "int", fan, range=[0, 100], writable=True, write_requires=on_req),
                _attr("local_temperature", "int", 2500, range=[-5000, 8000]),
            ],
            "services": [
                {"name": "turn_on", "effects": [{"set": "on", "value": True}]},
                {"name": "turn_off", "effects": [{"set": "on", "value": False}]},
            ],
            "userdata": {
                "did": did,
                "spid": "test.ac",
                "category": "ac",
                "subcategory": "ac",
                "room": room,
            },
            "dynamics": {
                "drives": [
                    {
                        "variable": "temperature",
                        "direction": "down",
                        "rate": rate,
                        "target_attr": "cool_setpoint",
                        "target_scale": 0.01,
                        "output": 10.0,
                        "scale_attr": "fan",
                        "active_when": [
                            {"attr": "on", "equals": True},
                            {"attr": "mode", "equals": 3},
                        ],
                    },
                    {
                        "variable": "temperature",
                        "direction": "up",
                        "rate": rate,
                        "target_attr": "heat_setpoint",
                        "target_scale": 0.01,
                        "output": 40.0,
                        "scale_attr": "fan",
                        "active_when": [
                            {"attr": "on", "equals": True},
                            {"attr": "mode", "equals": 4},
                        ],
                    },
                ],
                "sensors": [{"variable": "temperature", "attr": "local_temperature", "scale": 100}],
            },
        }
    )


def humidifier(did: str, room: str, *, on: bool = False, fan: int = 100) -> Device:
    return Device.model_validate(
        {
            "name": f"Humidifier {did}",
            "attributes": [
                _attr("on", "bool", on),
                _attr("fan", "int", fan, range=[0, 100], writable=True),
                _attr("humidity", "int", 4500, range=[0, 10000]),
            ],
            "services": [
                {"name": "turn_on", "effects": [{"set": "on", "value": True}]},
                {"name": "turn_off", "effects": [{"set": "on", "value": False}]},
            ],
            "userdata": {
                "did": did,
                "spid": "test.hum",
                "category": "hum",
                "subcategory": "hum",
                "room": room,
            },
            "dynamics": {
                "drives": [
                    {
                        "variable": "humidity",
                        "direction": "up",
                        "rate": 0.003,
                        "target": 65,
                        "output": 90,
                        "scale_attr": "fan",
                        "active_when": [{"attr": "on", "equals": True}],
                    }
                ],
                "sensors": [{"variable": "humidity", "attr": "humidity", "scale": 100}],
            },
        }
    )


def purifier(did: str, room: str, *, on: bool = False, fan: int = 100) -> Device:
    return Device.model_validate(
        {
            "name": f"Purifier {did}",
            "attributes": [
                _attr("on", "bool", on),
                _attr("fan", "int", fan, range=[0, 100], writable=True),
            ],
            "services": [
                {"name": "turn_on", "effects": [{"set": "on", "value": True}]},
                {"name": "turn_off", "effects": [{"set": "on", "value": False}]},
            ],
            "userdata": {
                "did": did,
                "spid": "test.pur",
                "category": "pur",
                "subcategory": "pur",
                "room": room,
            },
            "dynamics": {
                "drives": [
                    {
                        "variable": v,
                        "direction": "down",
                        "rate": 0.005,
                        "target": 2,
                        "output": 0,
                        "scale_attr": "fan",
                        "active_when": [{"attr": "on", "equals": True}],
                    }
                    for v in ("pm25", "pm10")
                ]
            },
        }
    )


def lamp(did: str, room: str, *, on: bool = False, level: int = 254) -> Device:
    return Device.model_validate(
        {
            "name": f"Lamp {did}",
            "attributes": [
                _attr("on", "bool", on),
                _attr("level", "int", level, range=[1, 254], writable=True),
            ],
            "services": [
                {"name": "turn_on", "effects": [{"set": "on", "value": True}]},
                {"name": "turn_off", "effects": [{"set": "on", "value": False}]},
            ],
            "userdata": {
                "did": did,
                "spid": "test.lamp",
                "category": "light",
                "subcategory": "lamp",
                "room": room,
            },
            "dynamics": {
                "lights": [
                    {
                        "lux": 400,
                        "level_attr": "level",
                        "level_max": 254,
                        "active_when": [{"attr": "on", "equals": True}],
                    }
                ]
            },
        }
    )


def blind(did: str, room: str, *, closed: int = 0) -> Device:
    return Device.model_validate(
        {
            "name": f"Blind {did}",
            "attributes": [_attr("closed", "int", closed, range=[0, 10000], writable=True)],
            "userdata": {
                "did": did,
                "spid": "test.blind",
                "category": "cover",
                "subcategory": "blind",
                "room": room,
            },
            "dynamics": {"shades": [{"open_attr": "closed", "open_max": 10000, "inverted": True}]},
        }
    )


def motion(did: str, room: str) -> Device:
    return Device.model_validate(
        {
            "name": f"Motion {did}",
            "attributes": [_attr("occupied", "bool", False, writable=True)],
            "userdata": {
                "did": did,
                "spid": "test.motion",
                "category": "sensor",
                "subcategory": "motion",
                "room": room,
            },
        }
    )


def washer(did: str, room: str) -> Device:
    """OperationalState 0 stopped / 1 running / 2 paused; mode 0 = 59 min, 1 = 30 min, 2 = 4 min."""
    return Device.model_validate(
        {
            "name": f"Washer {did}",
            "attributes": [
                _attr("op_state", "int", 0, options=[0, 1, 2, 3]),
                _attr("countdown", "int", 0, range=[0, 86400]),
                _attr("phase", "int", 0, range=[0, 10]),
                _attr("mode", "int", 0, options=[0, 1, 2]),
            ],
            "services": [
                {
                    "name": "start",
                    "requires": [{"attr": "op_state", "in": [0]}],
                    "effects": [{"set": "op_state", "value": 1}],
                },
                {
                    "name": "pause",
                    "requires": [{"attr": "op_state", "in": [1]}],
                    "effects": [{"set": "op_state", "value": 2}],
                },
                {
                    "name": "resume",
                    "requires": [{"attr": "op_state", "in": [2]}],
                    "effects": [{"set": "op_state", "value": 1}],
                },
                {"name": "stop", "effects": [{"set": "op_state", "value": 0}]},
                {
                    "name": "change_mode",
                    "arguments": [{"name": "mode", "type": "int", "options": [0, 1, 2]}],
                    "requires": [
                        {"attr": "op_state", "not_in": [1, 2], "message": "stop the washer first"}
                    ],
                    "effects": [{"set": "mode", "arg": "mode"}],
                },
            ],
            "userdata": {
                "did": did,
                "spid": "test.washer",
                "category": "washer",
                "subcategory": "washer",
                "room": room,
            },
            "dynamics": {
                "cycle": {
                    "state_attr": "op_state",
                    "running": 1,
                    "paused": 2,
                    "stopped": 0,
                    "countdown_attr": "countdown",
                    "phase_attr": "phase",
                    "mode_attr": "mode",
                    "programs": {
                        "0": [
                            {"name": "pre-wash", "seconds": 600},
                            {"name": "wash", "seconds": 1500},
                            {"name": "rinse", "seconds": 840},
                            {"name": "spin", "seconds": 600},
                        ],
                        "1": [{"name": "quick", "seconds": 1800}],
                        "2": [{"name": "rinse", "seconds": 150}, {"name": "spin", "seconds": 90}],
                    },
                    "on_complete": {"phase": 0},
                }
            },
        }
    )


def home(
    *devices: Device,
    rooms: tuple[str, ...] = ("living", "kitchen"),
    env: dict | None = None,
    now: datetime = START,
    outdoor: dict | None = None,
) -> Home:
    environment = {
        "temperature": 28.0,
        "humidity": 40.0,
        "pm25": 30.0,
        "pm10": 50.0,
        "window_factor": 0.01,
        **(env or {}),
    }
    return Home.model_validate(
        {
            "rooms": [
                {"id": r, "type": r, "name": r.title(), "environment": environment} for r in rooms
            ],
            "devices": [
                d.model_dump(mode="json", by_alias=True, exclude_none=True) for d in devices
            ],
            "simulation": {"now": now.isoformat(), "outdoor": outdoor or {}},
        }
    )


def engine(*devices: Device, **kw: Any) -> HomeEngine:
    return HomeEngine(home(*devices, **kw))


def busy_home(period: int = 1, name: str | None = None) -> Home:
    """An AC cooling the living room, a lamp ("2") switched by two rules every ``period``
    seconds (on, then off ``period`` s later: 1 is a change every second), a washer ("3")."""
    rules = [
        {
            "id": "on",
            "triggers": [{"kind": "time", "cron": f"*/{2 * period} * * * * ?"}],
            "actions": [{"did": "2", "locator": "turn_on"}],
        },
        {
            "id": "off",
            "triggers": [{"kind": "time", "cron": f"{period}/{2 * period} * * * * ?"}],
            "actions": [{"did": "2", "locator": "turn_off"}],
        },
    ]
    out = home(ac("1", "living", on=True), lamp("2", "living"), washer("3", "kitchen"))
    return out.model_copy(
        update={
            "automations": [Rule.model_validate(r) for r in rules],
            **({"name": name} if name else {}),
        }
    )
