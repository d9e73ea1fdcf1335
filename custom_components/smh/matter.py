"""Which Home Assistant entities a Matter-style device becomes (pure: no HA imports).

Matter devices keep one component per endpoint and cluster (``1.OnOff``, ``1.Thermostat``),
so the role matching of :mod:`.rich`, which looks inside one namespace, cannot see that an
``OnOff`` and a ``LevelControl`` make one light. Here, as in HA's own ``matter`` integration,
the Matter device type of the endpoint chooses the platform and a table per platform names the
cluster attributes of each role, with the cluster's units turned into HA's (0.01 °C -> °C,
0.01 % -> %, Matter's 0 = open lift position -> HA's 100 = open).

Attributes no platform entity shows become generic entities (:class:`.mirrors.Mirror`): the
useful ones (:data:`USEFUL`: a fridge's temperature, a washer's programme, a battery) with a
readable name, unit and device class; the rest — limits, feature maps, lists of supported
values — are diagnostic and disabled by default, still readable when enabled.

Commands people press (a washer's Start, a TV's Play) are buttons. Every HA call becomes an
engine call (a command such as ``1.OnOff.On`` or a write of a
writable attribute), so the engine's checks and messages apply unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from smh_core.homeenv.capabilities import Setter, Switch, setters

from .convert import Convert
from .mirrors import Mirror, generic_platform
from .rich import Bound, Rich

if TYPE_CHECKING:  # either form (smh_core.homeenv.plain)
    from smh_core.homeenv.model import Attribute, Device

# Matter device type id -> HA platform of the endpoint's main entity.
PLATFORM_OF_TYPE: dict[int, str] = {
    0x0100: "light",
    0x0101: "light",
    0x010C: "light",
    0x010D: "light",
    0x0072: "climate",
    0x0301: "climate",
    0x0309: "climate",
    0x002B: "fan",
    0x002D: "fan",
    0x0202: "cover",
    0x0074: "vacuum",
    0x0028: "media_player",
    0x0023: "media_player",
}
# Matter types whose fan is their main function but that HA has no better platform for: a
# humidifier without a target humidity is a fan with a humidity sensor.
FAN_LIKE_TAGS = ("humidifier", "dehumidifier")

SYSTEM_MODES = {
    0: "off",
    1: "auto",
    3: "cool",
    4: "heat",
    5: "heat",
    6: "cool",
    7: "fan_only",
    8: "dry",
}
FAN_MODES = {0: "off", 1: "low", 2: "medium", 3: "high", 4: "on", 5: "auto", 6: "smart"}
RVC_STATES = {
    0: "idle",
    1: "cleaning",
    2: "paused",
    3: "error",
    64: "returning",
    65: "docked",
    66: "docked",
}
OPERATIONAL_STATES = {0: "stopped", 1: "running", 2: "paused", 3: "error"}
PLAYBACK_STATES = {0: "playing", 1: "paused", 2: "idle", 3: "buffering"}  # HA media player states
LEVEL_WORDS = {0: "none", 1: "normal", 2: "extra", 3: "max"}


@dataclass(frozen=True)
class Useful:
    """How a remaining cluster attribute is shown when it is worth a visible entity."""

    name: str
    scale: float = 1.0
    unit: str | None = None
    device_class: str | None = None
    labels: Mapping[Any, str] | None = None
    labels_from: str | None = None  # sibling list attribute naming the options (SpinSpeeds)


# Matter units -> (factor to HA's unit, HA's unit, device class)
UNIT_SCALES: dict[str, tuple[float, str, str | None]] = {
    "0.01 °C": (0.01, "°C", "temperature"),
    "0.01 %": (0.01, "%", None),
    "mV": (0.001, "V", "voltage"),
    "mA": (0.001, "A", "current"),
    "mW": (0.001, "W", "power"),
}
_COUNTDOWN = Useful("Time remaining", unit="s", device_class="duration")

# (cluster, attribute) -> how HA shows it; "*Mode" matches every mode cluster's CurrentMode.
USEFUL: dict[tuple[str, str], Useful] = {
    ("OnOff", "OnOff"): Useful("Power"),
    ("TemperatureMeasurement", "MeasuredValue"): Useful("Temperature"),
    ("TemperatureControl", "TemperatureSetpoint"): Useful("Target temperature"),
    ("RelativeHumidityMeasurement", "MeasuredValue"): Useful("Humidity", device_class="humidity"),
    ("FanControl", "PercentSetting"): Useful("Fan speed", unit="%"),
    ("OperationalState", "OperationalState"): Useful("Operation", labels=OPERATIONAL_STATES),
    ("OperationalState", "CountdownTime"): _COUNTDOWN,
    ("RvcOperationalState", "CountdownTime"): _COUNTDOWN,
    ("RvcRunMode", "CurrentMode"): Useful("Run mode", labels_from="SupportedModes"),
    ("RvcCleanMode", "CurrentMode"): Useful("Clean mode", labels_from="SupportedModes"),
    ("*Mode", "CurrentMode"): Useful("Mode", labels_from="SupportedModes"),
    ("LaundryWasherControls", "SpinSpeedCurrent"): Useful("Spin speed", labels_from="SpinSpeeds"),
    ("LaundryWasherControls", "NumberOfRinses"): Useful("Rinses", labels=LEVEL_WORDS),
    ("LaundryDryerControls", "SelectedDrynessLevel"): Useful(
        "Dryness", labels={0: "low", 1: "normal", 2: "extra", 3: "max"}
    ),
    ("PowerSource", "BatPercentRemaining"): Useful("Battery", 0.5, "%", "battery"),
    ("ElectricalPowerMeasurement", "Voltage"): Useful("Voltage"),
    ("ElectricalPowerMeasurement", "ActiveCurrent"): Useful("Current"),
    ("ElectricalPowerMeasurement", "ActivePower"): Useful("Power"),
    ("LevelControl", "CurrentLevel"): Useful("Level"),
}


def is_matter(device: Device) -> bool:
    """Whether the device is built from Matter clusters (and is planned here)."""
    return device.matter is not None and all(_CLUSTER.fullmatch(c.name) for c in device.components)


_CLUSTER = re.compile(r"\d+\.[A-Za-z]+")


@dataclass
class _Device:
    """One Matter device being planned: its attributes by locator and how each is set."""

    device: Device
    ep: int
    attrs: dict[str, Attribute] = field(default_factory=dict)
    setters: dict[str, Setter] = field(default_factory=dict)
    services: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, device: Device) -> _Device:
        assert device.matter is not None
        ep = min(device.matter.device_types)
        out = cls(
            device,
            ep,
            dict(device.attributes_by_locator()),
            setters(device),
            {loc for loc, _ in device.services_by_locator()},
        )
        for loc, attr in out.attrs.items():  # a writable attribute is set by writing it
            if attr.writable:
                out.setters[loc] = Setter(loc, "value")
        return out

    def loc(self, cluster: str, attr: str) -> str:
        return f"{self.ep}.{cluster}.{attr}"

    def bound(
        self,
        cluster: str,
        attr: str,
        convert: Convert | None = None,
        *,
        settable: bool = False,
        limits: tuple[float, float] | None = None,
    ) -> Bound | None:
        loc = self.loc(cluster, attr)
        if loc not in self.attrs or (settable and loc not in self.setters):
            return None
        return Bound(
            loc, self.attrs[loc], self.setters.get(loc), None, convert or Convert(), limits
        )

    def onoff(self) -> Bound | None:
        """The endpoint's OnOff attribute with its On/Off commands as a switch."""
        loc, on, off = self.loc("OnOff", "OnOff"), f"{self.ep}.OnOff.On", f"{self.ep}.OnOff.Off"
        if loc not in self.attrs or not {on, off} <= self.services:
            return None
        return Bound(loc, self.attrs[loc], None, Switch(on, off, True, False))

    def command(self, cluster: str, name: str) -> str | None:
        loc = f"{self.ep}.{cluster}.{name}"
        return loc if loc in self.services else None

    def rich(
        self,
        platform: str,
        roles: Mapping[str, Bound | None],
        calls: Mapping[str, str | None],
        features: str,
        call_args: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> Rich:
        """A rich entity of the roles and calls found; a feature named ``X:role`` needs that role."""
        found = {k: v for k, v in roles.items() if v is not None}
        commands = {k: v for k, v in calls.items() if v is not None}
        names = []
        for f in features.split():
            flag, _, need = f.partition(":")
            if not need or need in found or need in commands:
                names.append(flag)
        return Rich(
            platform,
            self.device.did,
            "",
            found,
            commands,
            tuple(names),
            None,
            dict(call_args or {}),
        )


def _light(d: _Device) -> Rich | None:
    power = d.onoff()
    if power is None:
        return None
    level = d.bound("LevelControl", "CurrentLevel", settable=True)
    return d.rich("light", {"power": power, "brightness": level}, {}, "")


def _climate(d: _Device) -> Rich | None:
    mode = d.bound("Thermostat", "SystemMode", Convert(SYSTEM_MODES), settable=True)
    temp = Convert(scale=0.01)
    cool = d.bound("Thermostat", "OccupiedCoolingSetpoint", temp, settable=True)
    heat = d.bound("Thermostat", "OccupiedHeatingSetpoint", temp, settable=True)
    if mode is None or (cool or heat) is None:
        return None
    roles = {
        "power": d.onoff(),
        "mode": mode,
        "target_temperature": cool or heat,
        "heat_target_temperature": heat if cool is not None else None,
        "current_temperature": d.bound("Thermostat", "LocalTemperature", temp),
        "fan_mode": d.bound("FanControl", "FanMode", Convert(FAN_MODES), settable=True),
    }
    return d.rich(
        "climate", roles, {}, "TURN_ON:power TURN_OFF:power TARGET_TEMPERATURE FAN_MODE:fan_mode"
    )


def _fan(d: _Device) -> Rich | None:
    power = d.onoff()
    speed = d.bound("FanControl", "PercentSetting", settable=True, limits=(1, 100))
    if power is None or speed is None:
        return None
    return d.rich("fan", {"power": power, "speed": speed}, {}, "TURN_ON TURN_OFF SET_SPEED")


def _cover(d: _Device) -> Rich | None:
    # Matter counts closure (0 open, 10000 closed) in 0.01 %; HA counts openness in percent
    position = d.bound(
        "WindowCovering",
        "CurrentPositionLiftPercent100ths",
        Convert(scale=-0.01, offset=100.0),
        settable=True,
    )
    calls = {
        "open": d.command("WindowCovering", "UpOrOpen"),
        "close": d.command("WindowCovering", "DownOrClose"),
    }
    if position is None or None in calls.values():
        return None
    return d.rich("cover", {"position": position}, calls, "OPEN CLOSE SET_POSITION")


def _vacuum(d: _Device) -> Rich | None:
    state = d.bound("RvcOperationalState", "OperationalState", Convert(RVC_STATES))
    calls = {
        "start": d.command("RvcRunMode", "ChangeToMode"),
        "pause": d.command("RvcOperationalState", "Pause"),
        "return_to_base": d.command("RvcOperationalState", "GoHome"),
    }
    if state is None or calls["start"] is None or calls["return_to_base"] is None:
        return None
    return d.rich(
        "vacuum",
        {"state": state},
        calls,
        "STATE START PAUSE:pause RETURN_HOME",
        call_args={"start": {"newMode": 1}},
    )  # RvcRunMode 1 = Cleaning


# Commands without required arguments that people press: (cluster, command) -> button name.
BUTTONS: dict[tuple[str, str], str] = {
    ("OperationalState", "Start"): "Start",
    ("OperationalState", "Pause"): "Pause",
    ("OperationalState", "Resume"): "Resume",
    ("OperationalState", "Stop"): "Stop",
    ("MediaPlayback", "Play"): "Play",
    ("MediaPlayback", "Pause"): "Pause",
    ("MediaPlayback", "Stop"): "Stop",
    ("MediaPlayback", "Next"): "Next",
    ("MediaPlayback", "Previous"): "Previous",
    ("MediaPlayback", "StartOver"): "Start over",
}


def _buttons(d: _Device, taken: set[str]) -> list[Rich]:
    """A button per pressable command no platform entity calls already (a washer's Start, a
    TV's Start over); the engine checks each press as it checks the command (a washer already
    running refuses Start)."""
    out = []
    for loc, service in d.device.services_by_locator():
        _, cluster, command = loc.split(".", 2)
        name = BUTTONS.get((cluster, command))
        if name is not None and loc not in taken and not any(a.required for a in service.arguments):
            out.append(Rich("button", d.device.did, loc, {}, {"press": loc}, (), name=name))
    return out


def _media_player(d: _Device) -> Rich | None:
    power = d.onoff()
    state = d.bound("MediaPlayback", "CurrentState", Convert(PLAYBACK_STATES))
    if power is None or state is None:
        return None
    calls = {
        name: d.command("MediaPlayback", command)
        for name, command in (
            ("play", "Play"),
            ("pause", "Pause"),
            ("stop", "Stop"),
            ("next", "Next"),
            ("previous", "Previous"),
        )
    }
    rich = d.rich(
        "media_player",
        {"power": power, "state": state},
        calls,
        "TURN_ON TURN_OFF PLAY:play PAUSE:pause STOP:stop NEXT_TRACK:next PREVIOUS_TRACK:previous",
    )
    return replace(rich, device_class="tv")


BUILDERS: dict[str, Callable[[_Device], Rich | None]] = {
    "light": _light,
    "climate": _climate,
    "fan": _fan,
    "cover": _cover,
    "vacuum": _vacuum,
    "media_player": _media_player,
}


def _platform(device: Device, ep: int) -> str | None:
    assert device.matter is not None
    if any(t in device.userdata.tags for t in FAN_LIKE_TAGS):
        return "fan"
    return PLATFORM_OF_TYPE.get(device.matter.device_types[ep])


def words(name: str) -> str:
    """``PercentSetting`` -> "percent setting" (CamelCase split, acronyms kept together)."""
    return " ".join(re.findall(r"[A-Z]+(?=[A-Z][a-z]|\d|$)|[A-Z]?[a-z]+|\d+", name)).lower()


def readable_name(cluster: str, attr: str) -> str:
    """A diagnostic entity's name: the attribute in words, after its cluster unless the
    attribute already says it ("Operational state", "Fan control percent current")."""
    a, c = words(attr), words(cluster)
    text = a if a.startswith(c) or c.startswith(a) else f"{c} {a}"
    return text[:1].upper() + text[1:]


def _useful(cluster: str, attr: str) -> Useful | None:
    found = USEFUL.get((cluster, attr))
    if found is None and cluster.endswith("Mode") and attr == "CurrentMode":
        found = USEFUL[("*Mode", "CurrentMode")]
    return found


def _labels(d: _Device, cluster: str, useful: Useful) -> Mapping[Any, str]:
    if useful.labels is not None:
        return useful.labels
    if useful.labels_from is None:
        return {}
    source = d.attrs.get(d.loc(cluster, useful.labels_from))
    items = source.value if source is not None and isinstance(source.value, list) else []
    out: dict[Any, str] = {}
    for i, item in enumerate(items):
        if isinstance(item, dict) and "mode" in item and "label" in item:
            out[item["mode"]] = str(item["label"]).lower()
        elif isinstance(item, str):
            out[i] = item
    return out


def _mirror(d: _Device, loc: str, attr: Attribute, switch: Switch | None) -> Mirror:
    _, cluster, name = loc.split(".", 2)
    setter = d.setters.get(loc)
    platform = generic_platform(attr, setter, switch)
    scale, unit, device_class = UNIT_SCALES.get(attr.unit or "", (1.0, None, None))
    useful = _useful(cluster, name)
    if useful is None:
        return Mirror(
            platform,
            d.device.did,
            loc,
            attr,
            setter,
            switch,
            readable_name(cluster, name),
            Convert(scale=scale),
            unit,
            device_class,
            diagnostic=True,
        )
    labels = _labels(d, cluster, useful)
    if labels and setter is not None and platform == "number":
        platform = "select"  # an index into a list of names (SpinSpeeds): pick by name
    return Mirror(
        platform,
        d.device.did,
        loc,
        attr,
        setter,
        switch,
        useful.name,
        Convert(labels, useful.scale if useful.scale != 1.0 else scale),
        ha_unit=useful.unit or unit,
        ha_class=useful.device_class or device_class,
    )


def matter_plan(device: Device) -> tuple[list[Rich], list[Mirror]]:
    """The device's platform entity (if its type has one) and a mirror per attribute left."""
    d = _Device.of(device)
    platform = _platform(device, d.ep)
    rich = BUILDERS[platform](d) if platform in BUILDERS else None
    riches = [rich] if rich is not None else []
    riches += _buttons(d, {loc for r in riches for loc in r.calls.values()})
    covered = {loc for r in riches for loc in r.locators}
    onoff = d.onoff()
    out = []
    for loc, attr in d.attrs.items():
        if loc in covered:
            continue
        switch = onoff.switch if onoff is not None and loc == onoff.locator else None
        out.append(_mirror(d, loc, attr, switch))
    return riches, out
