"""HomeBench's device kinds in catalog terms: which type each becomes, how its state and
attributes carry over, which attribute values each of its methods asks for, and what the
imported device keeps of its type.

HomeBench describes a device as ``{"state": ..., "attributes": {name: {"value", "lowest",
"highest" | "options"}}}``. Its generator (``visual_home/device.py``) gives each kind a full set
of attributes and makes variants that keep only some of them; a method ``set_X`` exists exactly
when attribute ``X`` does, the others (``turn_on``, ``open``, ``start``...) always. The imported
device is narrowed (:mod:`smh_core.homeenv.narrowing`) to the catalog attributes and services
of what the HomeBench device has, with HomeBench's options: a colour-only light has no
brightness to set, a heating unit without a mode keeps heating, and a request HomeBench labels
impossible is refused by the engine.

Gold answers are method calls, so a method here yields the *state* it asks for
(``[(locator, value)]``); the importer finds the calls that reach it with the planner, as an
agent would have to, and checks that state, not the call.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from smh_core.homeenv.narrowing import Narrowing

Targets = list[tuple[str, Any]]
Values = dict[str, Any]


class Unsupported(Exception):
    """A HomeBench method or value the catalog has no counterpart for (the message says which)."""


@dataclass(frozen=True)
class Setting:
    """One HomeBench attribute: the catalog attributes it becomes and its value in their terms.

    Its options in catalog terms are the values of its options (HomeBench's AC swing ``auto``,
    ``up``, ``middle``, ``down`` become sweeping on or off and a louvre position)."""

    keeps: tuple[str, ...]
    values: Callable[[Any], Values]
    own_range: bool = False
    """Keep HomeBench's lowest/highest where they are wider than the catalog's (its water
    heaters go to 100 °C, the catalog's to 75 °C)."""


@dataclass(frozen=True)
class Method:
    """One HomeBench method: the catalog services it needs and the state a call asks for;
    ``needs`` names the HomeBench attribute the method comes with (None: every variant has it)."""

    services: tuple[str, ...]
    targets: Callable[[Any], Targets]
    needs: str | None = None


@dataclass(frozen=True)
class Kind:
    """One HomeBench device kind in catalog terms."""

    type: str
    state: Callable[[str], Values]
    settings: dict[str, Setting]
    methods: dict[str, Method]
    base: tuple[str, ...] = ("state",)
    """Catalog attributes every variant keeps (its power or open state)."""
    state_options: tuple[Any, ...] | None = None
    """The options HomeBench's state has in catalog terms, where fewer than the type's (a
    media player that is never off)."""
    fixed: Mapping[str, Any] = field(default_factory=dict)
    """Values catalog attributes keep when the HomeBench device lacks them (a light without
    dimming shines at 100 %, a heating unit without a mode heats)."""
    notes: dict[str, str] = field(default_factory=dict)
    """Per HomeBench attribute or method name (or ``""`` for the kind): how it is approximated."""

    def narrowing(
        self, present: Mapping[str, Any], ranges: Mapping[str, tuple[float, float]]
    ) -> Narrowing:
        """What a device of this kind with HomeBench attributes ``present`` (name -> spec with
        ``options``) keeps of its catalog type; ``ranges`` are the numeric limits it keeps.

        A device HomeBench switches on and off takes its settings while off: HomeBench's gold
        never turns a device on first (``generate_instructions`` in its ``visual_home/device.py``
        ignores the device's state) and its scorer (``code/eval.py``) compares call strings, so
        a lone ``set_swing`` on an air conditioner that is off is correct there, and the catalog's
        "must be running" rules are dropped for imported devices."""
        attributes = set(self.base)
        options: dict[str, list[Any]] = {}
        for name, setting in self.settings.items():
            if name not in present:
                continue
            attributes.update(setting.keeps)
            for option in (present[name] or {}).get("options") or ():
                try:
                    converted = setting.values(option)
                except (Unsupported, TypeError, ValueError):
                    continue
                for loc, value in converted.items():
                    if not isinstance(value, bool) and value not in options.setdefault(loc, []):
                        options[loc].append(value)
        if self.state_options is not None:
            options["state"] = list(self.state_options)
        services = {
            s
            for m in self.methods.values()
            if m.needs is None or m.needs in present
            for s in m.services
        }
        return Narrowing.of(
            attributes,
            services,
            ranges=ranges,
            options=options,
            fixed=self.fixed,
            unrequired=("state",) if "turn_on" in self.methods else (),
        )


def _rgb_hex(value: Any) -> str:
    if not (
        isinstance(value, (list, tuple))
        and len(value) == 3
        and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in value)
    ):
        raise Unsupported(f"colour {value!r} is not three integers 0-255")
    return "#" + "".join(f"{c:02X}" for c in value)


def _power(value: str) -> Values:
    if value not in ("on", "off"):
        raise Unsupported(f"state {value!r}")
    return {"state": value}


def _one(loc: str, convert: Callable[[Any], Any] = lambda v: v) -> Callable[[Any], Values]:
    return lambda v: {loc: convert(v)}


def _swing(sweeping: str) -> Callable[[Any], Values]:
    """HomeBench's swing is auto (sweeping) or a fixed position (up, middle, down)."""

    def values(v: Any) -> Values:
        if v == "auto":
            return {sweeping: True}
        if v in ("up", "middle", "down"):
            return {sweeping: False, "swing_position": v}
        raise Unsupported(f"swing {v!r}")

    return values


def _targets(values: Callable[[Any], Values]) -> Callable[[Any], Targets]:
    return lambda v: list(values(v).items())


def _const(*targets: tuple[str, Any]) -> Callable[[Any], Targets]:
    return lambda _: list(targets)


def _brightness(n: Any) -> Targets:
    """0 means off (as Home Assistant, and as the catalog's ``set_brightness`` does)."""
    return [("state", "off")] if n == 0 else [("brightness", n), ("state", "on")]


_ON_OFF = {
    "turn_on": Method(("turn_on",), _const(("state", "on"))),
    "turn_off": Method(("turn_off",), _const(("state", "off"))),
}


def _light(colour: bool) -> Kind:
    settings = {"brightness": Setting(("brightness",), _one("brightness"))}
    methods = {**_ON_OFF, "set_brightness": Method(("set_brightness",), _brightness, "brightness")}
    if colour:
        settings["color"] = Setting(("color",), _one("color", _rgb_hex))
        methods["set_color"] = Method(
            ("set_color",), lambda rgb: [("color", _rgb_hex(rgb)), ("state", "on")], "color"
        )
    return Kind(
        "color_light" if colour else "light",
        _power,
        settings,
        methods,
        fixed={"brightness": 100, "color_mode": "color"},
    )


def _set(
    method: str, service: str, setting: str, values: Callable[[Any], Values]
) -> dict[str, Method]:
    return {method: Method((service,), _targets(values), setting)}


_AC_SETTINGS = {
    "temperature": Setting(
        ("target_temperature",), _one("target_temperature", float), own_range=True
    ),
    "mode": Setting(("ac_mode",), _one("ac_mode")),
    "fan_speed": Setting(("fan_level",), _one("fan_level")),
}
_AC_METHODS = {
    **_ON_OFF,
    **_set(
        "set_temperature",
        "set_target_temperature",
        "temperature",
        _one("target_temperature", float),
    ),
    **_set("set_mode", "set_ac_mode", "mode", _one("ac_mode")),
    **_set("set_fan_speed", "set_fan_level", "fan_speed", _one("fan_level")),
}
_MEDIA_STATES = {"playing": "playing", "paused": "paused", "stopped": "idle"}
_VACUUM_STATES = {
    "cleaning": "cleaning",
    "charging": "docked",
    "stopped": "idle",
    "paused": "paused",
    "on": "idle",
}
_WATER_MODES = {"heating": "normal", "eco": "eco"}


def _from(table: Mapping[str, Any], what: str, loc: str = "state") -> Callable[[Any], Values]:
    def values(v: Any) -> Values:
        if v not in table:
            raise Unsupported(f"{what} {v!r}")
        return {loc: table[v]}

    return values


def _open_closed(open_value: Any, closed_value: Any, loc: str) -> Callable[[Any], Values]:
    return _from({"open": open_value, "closed": closed_value}, "state", loc)


def _tank_full(level: Any) -> Values:
    return {"water_tank_full": isinstance(level, (int, float)) and level >= 100}


def _fan_speed(s: Any) -> Values:
    """HomeBench's fan speeds are auto/low/medium/high: auto is the fan's auto preset, a speed
    the steady (normal) airflow at that level."""
    if s == "auto":
        return {"preset_mode": "auto"}
    if s in ("low", "medium", "high"):
        return {"speed_level": s, "preset_mode": "normal"}
    raise Unsupported(f"fan speed {s!r}")


def area(name: Any) -> str:
    """A cleaning area as this record's gold writes it, in lower case with single spaces
    (HomeBench writes rooms with and without spaces, ``masterbedroom`` and ``master bedroom``,
    in different records; its scorer drops spaces, so each is right for its own record, and a
    model told "the master bedroom" writes the spaced one)."""
    return " ".join(str(name).lower().split())


def _no_counterpart(what: str) -> Callable[[Any], Targets]:
    def targets(_: Any) -> Targets:
        raise Unsupported(what)

    return targets


KINDS: dict[str, Kind] = {
    "light": _light(colour=False),
    "color_light": _light(colour=True),
    "air_conditioner": Kind(
        "split_ac",
        _power,
        {
            **_AC_SETTINGS,
            "swing": Setting(("swing_enabled", "swing_position"), _swing("swing_enabled")),
        },
        {
            **_AC_METHODS,
            "set_swing": Method(
                ("set_swing", "set_swing_position"), _targets(_swing("swing_enabled")), "swing"
            ),
        },
    ),
    "heating": Kind(
        "split_ac",
        _power,
        _AC_SETTINGS,
        _AC_METHODS,
        fixed={"ac_mode": "heat"},
        notes={"": "a heating unit is the catalog's split AC (heat and fan_only modes)"},
    ),
    "curtain": Kind(
        "degree_curtain",
        _open_closed("open", "closed", "state"),
        {"degree": Setting(("degree",), _one("degree"))},
        {
            "open": Method(("open",), _const(("state", "open"))),
            "close": Method(("close",), _const(("state", "closed"))),
            "set_degree": Method(("set_degree",), _targets(_one("degree")), "degree"),
        },
    ),
    "blinds": Kind(
        "blind",
        _open_closed(100, 0, "position"),
        {},
        {
            "open": Method(("open",), _const(("position", 100))),
            "close": Method(("close",), _const(("position", 0))),
        },
        base=("position",),
    ),
    "garage_door": Kind(
        "garage_door",
        _open_closed("open", "closed", "state"),
        {},
        {
            "open": Method(("open",), _const(("state", "open"))),
            "close": Method(("close",), _const(("state", "closed"))),
        },
    ),
    "trash": Kind(
        "trash_bin",
        _from({"full": "full", "empty": "empty", "not_full": "not_full"}, "trash state"),
        {},
        {"pack": Method(("pack",), _const(("state", "empty")))},
    ),
    "air_purifiers": Kind(
        "air_purifier",
        _power,
        {
            "mode": Setting(("work_mode",), _one("work_mode")),
            "fan_speed": Setting(("fan_speed",), _one("fan_speed")),
        },
        {
            **_ON_OFF,
            **_set("set_mode", "set_work_mode", "mode", _one("work_mode")),
            **_set("set_fan_speed", "set_fan_speed", "fan_speed", _one("fan_speed")),
        },
    ),
    "humidifier": Kind(
        "humidifier",
        _power,
        {
            "intensity": Setting(("intensity",), _one("intensity")),
            "mode": Setting(("work_mode",), _one("work_mode")),
            "tank": Setting(("water_level",), _one("water_level")),
        },
        {
            **_ON_OFF,
            **_set("set_intensity", "set_intensity", "intensity", _one("intensity")),
            **_set("set_mode", "set_work_mode", "mode", _one("work_mode")),
        },
    ),
    "dehumidifiers": Kind(
        "dehumidifier",
        _power,
        {
            "intensity": Setting(("intensity",), _one("intensity")),
            "mode": Setting(("work_mode",), _one("work_mode")),
            "tank": Setting(("water_tank_full",), _tank_full),
        },
        {
            **_ON_OFF,
            **_set("set_intensity", "set_intensity", "intensity", _one("intensity")),
            **_set("set_mode", "set_work_mode", "mode", _one("work_mode")),
        },
        notes={"tank": "the tank level is kept as full (100) or not"},
    ),
    "fan": Kind(
        "swing_fan",
        _power,
        {
            "speed": Setting(("speed_level", "preset_mode"), _fan_speed),
            "swing": Setting(
                ("oscillation_enabled", "swing_position"), _swing("oscillation_enabled")
            ),
        },
        {
            **_ON_OFF,
            "set_speed": Method(
                ("set_speed_level", "set_preset_mode"), _targets(_fan_speed), "speed"
            ),
            "set_swing": Method(
                ("set_oscillation", "set_swing_position"),
                _targets(_swing("oscillation_enabled")),
                "swing",
            ),
        },
    ),
    "aromatherapy": Kind(
        "aroma_diffuser",
        _power,
        {
            "intensity": Setting(("intensity",), _one("intensity")),
            "interval": Setting(("interval",), _one("interval")),
        },
        {
            **_ON_OFF,
            **_set("set_intensity", "set_intensity", "intensity", _one("intensity")),
            **_set("set_interval", "set_interval", "interval", _one("interval")),
        },
    ),
    "media_player": Kind(
        "media_player",
        _from(_MEDIA_STATES, "media player state"),
        {"volume": Setting(("volume_level",), _one("volume_level"))},
        {
            "play": Method(("play",), _const(("state", "playing"))),
            "pause": Method(("pause",), _const(("state", "paused"))),
            "stop": Method(("stop",), _const(("state", "idle"))),
            **_set("set_volume", "set_volume", "volume", _one("volume_level")),
            "set_song": Method((), _no_counterpart("choosing a song by name alone")),
            "set_artist": Method((), _no_counterpart("choosing music by artist")),
            "set_style": Method((), _no_counterpart("choosing music by style")),
        },
        state_options=tuple(_MEDIA_STATES.values()),
    ),
    "water_heater": Kind(
        "electric_water_heater",
        _power,
        {
            "temperature": Setting(
                ("target_water_temperature",), _one("target_water_temperature"), own_range=True
            ),
            "mode": Setting(("work_mode",), _from(_WATER_MODES, "water heater mode", "work_mode")),
        },
        {
            **_ON_OFF,
            **_set(
                "set_temperature",
                "set_target_water_temperature",
                "temperature",
                _one("target_water_temperature"),
            ),
            **_set(
                "set_mode",
                "set_work_mode",
                "mode",
                _from(_WATER_MODES, "water heater mode", "work_mode"),
            ),
        },
        notes={"set_mode": "HomeBench's 'heating' mode is the catalog's normal mode"},
    ),
    "vacuum_robot": Kind(
        "room_vacuum",
        _from(_VACUUM_STATES, "robot vacuum state"),
        {
            "battery": Setting(("battery_level",), _one("battery_level")),
            "mode": Setting(("suction",), _one("suction")),
        },
        {
            "start": Method(("start",), _const(("state", "cleaning"))),
            "pause": Method(("pause",), _const(("state", "paused"))),
            "stop": Method(("stop",), _const(("state", "idle"))),
            "charge": Method(("return_to_base",), _const(("state", "returning"))),
            **_set("set_mode", "set_suction", "mode", _one("suction")),
            "set_cleaning_area": Method(
                ("set_cleaning_area",), lambda a: [("cleaning_area", area(a))]
            ),
        },
        base=("state", "cleaning_area", "dock_countdown"),
        notes={
            "charge": "charging is the robot returning to its dock (docked 10 s later)",
            "": "HomeBench's robot starts 'on': imported as idle",
        },
    ),
}
"""HomeBench device kind -> catalog (``vacuum_robot`` is the house-wide ``VacuumRobot``)."""
HOUSE_WIDE = {"VacuumRobot": "vacuum_robot"}
"""Devices HomeBench keeps beside the rooms (``home_status.VacuumRobot``) -> their kind."""


def kind_of(name: str, attributes: Mapping[str, Any]) -> Kind | None:
    """The mapping for a HomeBench device (a light with a colour is a colour light)."""
    if name == "light" and "color" in attributes:
        return KINDS["color_light"]
    return KINDS.get(name)


def method_targets(kind: Kind, method: str, argument: Any) -> Targets:
    """The attribute values a HomeBench method call asks for, in catalog terms."""
    found = kind.methods.get(method)
    if found is None:
        raise Unsupported(f"method {method!r} of a {kind.type}")
    return found.targets(argument)
