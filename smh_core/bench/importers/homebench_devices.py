"""HomeBench's device kinds in catalog terms: which type each becomes, how its state and
attributes carry over, and which attribute values each of its methods asks for.

HomeBench describes a device as ``{"state": ..., "attributes": {name: {"value", "lowest",
"highest" | "options"}}}`` and lists its callable methods per home (``set_intensity(intensity:
int)``). Gold answers are method calls, so a method here yields the *state* it asks for
(``[(locator, value)]``); the importer finds the calls that reach it with the planner, as an
agent would have to, and checks that state, not the call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Targets = list[tuple[str, Any]]


class Unsupported(Exception):
    """A HomeBench method or value the catalog has no counterpart for (the message says which)."""


def _rgb_hex(value: Any) -> str:
    if not (isinstance(value, (list, tuple)) and len(value) == 3
            and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value)):
        raise Unsupported(f"colour {value!r} is not three integers 0-255")
    return "#" + "".join(f"{c:02X}" for c in value)


def _power(on: str = "on", off: str = "off") -> Callable[[str], dict[str, Any]]:
    def state(value: str) -> dict[str, Any]:
        if value not in ("on", "off"):
            raise Unsupported(f"state {value!r}")
        return {"state": on if value == "on" else off}
    return state


def _swing_sweeps(value: Any) -> bool:
    """HomeBench's swing is auto (sweeping) or a fixed louvre position (up, middle, down); the
    catalog knows sweeping or not, so a fixed position is 'not sweeping'."""
    return value == "auto"


def _brightness(n: Any) -> Targets:
    """0 means off (as Home Assistant, and as the catalog's ``set_brightness`` now does)."""
    return [("state", "off")] if n == 0 else [("brightness", n), ("state", "on")]


@dataclass(frozen=True)
class Kind:
    """One HomeBench device kind: the catalog type, its state and attributes in catalog terms,
    the state each method asks for, and the approximations to note."""

    type: str
    state: Callable[[str], dict[str, Any]]
    attributes: dict[str, tuple[str, Callable[[Any], Any]]]
    methods: dict[str, Callable[[Any], Targets]]
    notes: dict[str, str] = field(default_factory=dict)
    """Per HomeBench attribute or method name (or ``""`` for the kind): how it is approximated."""
    own_range: frozenset[str] = frozenset()
    """HomeBench attributes whose lowest/highest the device keeps where they are wider than the
    catalog's (HomeBench's water heaters go to 100 °C, the catalog's to 75 °C)."""


def _same(v: Any) -> Any:
    return v


def _float(v: Any) -> float:
    return float(v)


_LIGHT_METHODS: dict[str, Callable[[Any], Targets]] = {
    "turn_on": lambda _: [("state", "on")], "turn_off": lambda _: [("state", "off")],
    "set_brightness": _brightness,
    "set_color": lambda rgb: [("color", _rgb_hex(rgb)), ("color_mode", "color"), ("state", "on")],
}
_AC = Kind(
    "floor_ac", _power(),
    {"temperature": ("target_temperature", _float), "mode": ("ac_mode", _same),
     "fan_speed": ("fan_level", _same), "swing": ("swing_enabled", _swing_sweeps)},
    {"turn_on": lambda _: [("state", "on")], "turn_off": lambda _: [("state", "off")],
     "set_temperature": lambda t: [("target_temperature", float(t))], "set_mode": lambda m: [("ac_mode", m)],
     "set_fan_speed": lambda s: [("fan_level", s)], "set_swing": lambda s: [("swing_enabled", _swing_sweeps(s))]},
    {"set_swing": "a fixed louvre position (up, middle, down) is checked as 'not sweeping'"},
    frozenset({"temperature"}))
_MEDIA_STATES = {"playing": "playing", "paused": "paused", "stopped": "standby"}


def _media_state(value: str) -> dict[str, Any]:
    if value not in _MEDIA_STATES:
        raise Unsupported(f"media player state {value!r}")
    return {"player.state": "on", "player.work_state": _MEDIA_STATES[value]}


def _no_counterpart(what: str) -> Callable[[Any], Targets]:
    def method(_: Any) -> Targets:
        raise Unsupported(what)
    return method


def _tank_full(level: Any) -> bool:
    return isinstance(level, (int, float)) and level >= 100


_WATER_MODES = {"heating": "normal", "eco": "eco"}


def _water_mode(m: Any) -> str:
    if m not in _WATER_MODES:
        raise Unsupported(f"water heater mode {m!r}")
    return _WATER_MODES[m]


def _fan_speed(s: Any) -> Targets:
    """HomeBench's fan speeds are auto/low/medium/high; the catalog's fan has three speeds and
    an auto airflow mode."""
    return [("preset_mode", "auto")] if s == "auto" else [("speed_level", s)]


KINDS: dict[str, Kind] = {
    "light": Kind("light", _power(), {"brightness": ("brightness", _same)}, _LIGHT_METHODS,
                  {"": "a light HomeBench gives no brightness is the catalog's dimmable light"}),
    "color_light": Kind("color_light", _power(),
                        {"brightness": ("brightness", _same), "color": ("color", _rgb_hex)}, _LIGHT_METHODS),
    "air_conditioner": _AC,
    "heating": Kind(_AC.type, _AC.state, {k: v for k, v in _AC.attributes.items() if k != "swing"},
                    {k: v for k, v in _AC.methods.items() if k != "set_swing"},
                    {"": "a heating unit is the catalog's floor AC (heat and fan_only modes)"}, _AC.own_range),
    "curtain": Kind("curtain", lambda s: {"position": 100 if s == "open" else 0},
                    {"degree": ("position", _same)},
                    {"open": lambda _: [("position", 100)], "close": lambda _: [("position", 0)],
                     "set_degree": lambda d: [("position", d)]},
                    {"": "the curtain's degree is its opening percentage"}),
    "blinds": Kind("blind", lambda s: {"position": 100 if s == "open" else 0}, {},
                   {"open": lambda _: [("position", 100)], "close": lambda _: [("position", 0)]}),
    "air_purifiers": Kind("air_purifier", _power(), {"mode": ("work_mode", _same), "fan_speed": ("fan_speed", _same)},
                          {"turn_on": lambda _: [("state", "on")], "turn_off": lambda _: [("state", "off")],
                           "set_mode": lambda m: [("work_mode", m)], "set_fan_speed": lambda s: [("fan_speed", s)]}),
    "humidifier": Kind("humidifier", _power(),
                       {"intensity": ("intensity", _same), "mode": ("work_mode", _same), "tank": ("water_level", _same)},
                       {"turn_on": lambda _: [("state", "on")], "turn_off": lambda _: [("state", "off")],
                        "set_intensity": lambda n: [("intensity", n)], "set_mode": lambda m: [("work_mode", m)]}),
    "dehumidifiers": Kind("dehumidifier", _power(),
                          {"intensity": ("intensity", _same), "mode": ("work_mode", _same),
                           "tank": ("water_tank_full", _tank_full)},
                          {"turn_on": lambda _: [("state", "on")], "turn_off": lambda _: [("state", "off")],
                           "set_intensity": lambda n: [("intensity", n)], "set_mode": lambda m: [("work_mode", m)]},
                          {"tank": "the tank level is kept as full (100) or not"}),
    "fan": Kind("smart_fan", _power(), {"speed": ("speed_level", _same), "swing": ("oscillation_enabled", _swing_sweeps)},
                {"turn_on": lambda _: [("state", "on")], "turn_off": lambda _: [("state", "off")],
                 "set_speed": _fan_speed, "set_swing": lambda s: [("oscillation_enabled", _swing_sweeps(s))]},
                {"set_speed": "speed auto is the fan's auto airflow mode",
                 "set_swing": "a fixed direction (up, middle, down) is checked as 'not oscillating'"}),
    "aromatherapy": Kind("aroma_diffuser", _power(), {"intensity": ("intensity", _same), "interval": ("interval", _same)},
                         {"turn_on": lambda _: [("state", "on")], "turn_off": lambda _: [("state", "off")],
                          "set_intensity": lambda n: [("intensity", n)], "set_interval": lambda s: [("interval", s)]}),
    "media_player": Kind("universal_speaker", _media_state, {"volume": ("player.volume_level", _same)},
                         {"play": lambda _: [("player.work_state", "playing")],
                          "pause": lambda _: [("player.work_state", "paused")],
                          "stop": lambda _: [("player.work_state", "standby")],
                          "set_volume": lambda v: [("player.volume_level", v)],
                          "set_song": _no_counterpart("choosing a song by name alone"),
                          "set_artist": _no_counterpart("choosing music by artist"),
                          "set_style": _no_counterpart("choosing music by style")}),
    "water_heater": Kind("electric_water_heater", _power(),
                         {"temperature": ("target_water_temperature", _same), "mode": ("work_mode", _water_mode)},
                         {"turn_on": lambda _: [("state", "on")], "turn_off": lambda _: [("state", "off")],
                          "set_temperature": lambda t: [("target_water_temperature", t)],
                          "set_mode": lambda m: [("work_mode", _water_mode(m))]},
                         {"set_mode": "HomeBench's 'heating' mode is the catalog's normal mode"},
                         frozenset({"temperature"})),
}
"""HomeBench device kind -> catalog; kinds not here (trash, garage_door, vacuum_robot) have no
catalog type that acts like them and are left out, with the reason."""


def kind_of(name: str, attributes: dict[str, Any]) -> Kind | None:
    """The mapping for a HomeBench device (a light with a colour is a colour light)."""
    if name == "light" and "color" in attributes:
        return KINDS["color_light"]
    return KINDS.get(name)


def method_targets(kind: Kind, method: str, argument: Any) -> Targets:
    """The attribute values a HomeBench method call asks for, in catalog terms."""
    fn = kind.methods.get(method)
    if fn is None:
        raise Unsupported(f"method {method!r} of a {kind.type}")
    return fn(argument)
