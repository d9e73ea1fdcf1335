"""How a task device's attribute shows in Home Assistant: which entity of a matched HA device
holds it, how its values convert and which service call sets it.

One rule per kind of attribute. Matter-style attributes (``1.OnOff.OnOff``) are known by their
cluster and attribute name, so a rule is exact and holds for any Matter device HA's ``matter``
integration shows (the encodings are Matter's: 0.01 °C, levels 1-254, 0.01 % closed). HomeEnv
attributes (``state``, ``brightness``, ``speed_level``) are known by name and type and bound to
HA's domain conventions (a light's 0-255 brightness, a fan's percentages, a climate entity's
HVAC modes), as for HA's ``demo`` integration or any real light, fan or thermostat.

A rule answers with a :class:`Binding` (the mapping entry and a one-line reason), with a
sentence saying why this HA device cannot hold the attribute, or with ``None`` when the rule is
not about this attribute at all. :func:`bind` asks the rules in turn.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from smh_core.homeenv.colours import COLOUR_MODES, space_of_modes
from smh_core.homeenv.model import Attribute, AttrType

from .ha_inventory import HaEntity, Unit
from .todo_lists import PUT_ITEMS

# HA feature bits (homeassistant.components.*.const), as plain numbers: this package imports no HA
FAN_SET_SPEED, FAN_PRESET_MODE = 1, 8
LIGHT_WITHOUT_BRIGHTNESS = {"onoff"}

HVAC_OF_SYSTEM_MODE = {0: "off", 1: "heat_cool", 3: "cool", 4: "heat", 7: "fan_only", 8: "dry"}
"""Matter Thermostat SystemMode -> HA HVAC mode (HA's matter climate platform)."""
PRESET_OF_FAN_MODE = {1: "low", 2: "medium", 3: "high", 5: "auto"}
"""Matter FanControl FanMode -> HA fan preset (HA's matter fan platform)."""
OPERATIONAL_STATES = {
    0: "stopped",
    1: "running",
    2: "paused",
    3: "error",
    64: "seeking_charger",
    65: "charging",
    66: "docked",
}
"""Matter (RVC) OperationalState -> HA's operational-state sensor."""
BUTTON_FOR_STATE = {1: "start", 2: "pause", 0: "stop"}
"""Which of an appliance's buttons puts it in an operational state."""


@dataclass(frozen=True)
class TaskAttr:
    """One attribute of a task home's device (``did``, ``locator``, its declaration ``spec``),
    with what the rules need to know about it: the device's whole ``status`` (sibling
    attributes such as MinLevel or SupportedModes) and its ``category`` words."""

    did: str
    locator: str
    spec: Attribute
    status: Mapping[str, Any]
    category: str = ""

    @property
    def value(self) -> Any:
        return self.status.get(self.locator)

    @property
    def cluster(self) -> str | None:
        """The Matter cluster (``OnOff``) of a ``<endpoint>.<Cluster>.<Attribute>`` locator."""
        parts = self.locator.split(".")
        return parts[1] if len(parts) == 3 and parts[0].isdigit() else None

    @property
    def name(self) -> str:
        return self.spec.name

    def sibling(self, name: str) -> Any:
        """A value of the same component (``MinLevel`` next to ``CurrentLevel``)."""
        prefix = self.locator.rsplit(".", 1)[0] + "." if "." in self.locator else ""
        return self.status.get(prefix + name)

    def endpoint_has(self, cluster: str) -> bool:
        endpoint = self.locator.split(".", 1)[0]
        return any(loc.startswith(f"{endpoint}.{cluster}.") for loc in self.status)


@dataclass(frozen=True)
class Binding:
    """Where one attribute lives in HA: an ``AttributeMap`` entry and why it was chosen."""

    entity: str
    fields: dict[str, Any]
    reason: str

    def entry(self) -> dict[str, Any]:
        return {"entity": self.entity, **self.fields}


Rule = Callable[[TaskAttr, Unit], "Binding | str | None"]


# ---------------------------------------------------------------------------- helpers
def words(text: str) -> set[str]:
    """Lower-case words of a name or identifier (``NumberOfRinses`` -> number, of, rinses)."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text)
    return {w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if w}


def _closest(entities: list[HaEntity], name: str) -> HaEntity | None:
    """The entity whose key words share most with ``name`` (ties: entity id order)."""
    if not entities:
        return None
    target = words(name)
    return max(
        sorted(entities, key=lambda e: e.entity_id),
        key=lambda e: len(words(e.key_words()) & target),
    )


def _turn(entity: HaEntity) -> dict[str, Any]:
    return {"service": f"{entity.domain}.turn_{{value}}"}


def _scale(
    home: tuple[float, float], ha: tuple[float, float], decimals: int | None = None
) -> dict[str, Any]:
    out: dict[str, Any] = {"home": list(home), "ha": list(ha)}
    if decimals is not None:
        out["decimals"] = decimals
    return out


def _hundredths(attribute: str | None = None, **more: Any) -> dict[str, Any]:
    """A Matter value in hundredths (0.01 °C, 0.01 %) as HA's whole unit (the entity's state, or
    ``attribute``)."""
    where = {"attribute": attribute} if attribute else {}
    return {**where, "scale": _scale((0, 100), (0, 1), 2), **more}


def _sensor(unit: Unit, device_class: str) -> HaEntity | None:
    return next((e for e in unit.of_domain("sensor") if e.device_class == device_class), None)


def _labels(value: Any) -> list[str] | None:
    """Labels of a Matter list attribute: SupportedModes ``[{label, mode}]`` or plain strings."""
    if not isinstance(value, list) or not value:
        return None
    if all(isinstance(v, dict) and "label" in v for v in value):
        return [str(v["label"]) for v in value]
    if all(isinstance(v, str) for v in value):
        return list(value)
    return None


def _mode_values(attr: TaskAttr) -> dict[Any, str] | None:
    """Mode number -> label, from the component's SupportedModes."""
    modes = attr.sibling("SupportedModes")
    if (
        isinstance(modes, list)
        and modes
        and all(isinstance(m, dict) and "label" in m for m in modes)
    ):
        return {m["mode"]: str(m["label"]) for m in modes}
    return None


def _select_for(unit: Unit, values: dict[Any, str], name: str) -> HaEntity | None:
    """The select whose options are exactly ``values``' labels (or hold them all)."""
    wanted = set(values.values())
    exact = [
        e for e in unit.of_domain("select") if set(e.attributes.get("options") or []) == wanted
    ]
    return _closest(
        exact
        or [
            e for e in unit.of_domain("select") if wanted <= set(e.attributes.get("options") or [])
        ],
        name,
    )


def _select_call() -> dict[str, Any]:
    return {"service": "select.select_option", "data": {"option": "{value}"}}


# ---------------------------------------------------------------------------- Matter clusters
def on_off(attr: TaskAttr, unit: Unit) -> Binding | str:
    values = {True: "on", False: "off"}
    light = unit.of_domain("light")
    if light:
        return Binding(
            light[0].entity_id, {"values": values, "set": _turn(light[0])}, "the light's on/off"
        )
    switches = unit.of_domain("switch")
    switch = next((e for e in switches if e.translation_key == "power"), None) or _closest(
        switches, "power"
    )
    if switch is not None:
        return Binding(
            switch.entity_id, {"values": values, "set": _turn(switch)}, "its power switch"
        )
    return (
        f"no light or switch of {unit.name!r} shows its power (OnOff): HA's matter integration "
        f"gives a Fan device's OnOff no entity, and its fan entity switches the fan mode, not OnOff"
    )


def level(attr: TaskAttr, unit: Unit) -> Binding | str:
    light = next(
        (
            e
            for e in unit.of_domain("light")
            if set(e.attributes.get("supported_color_modes") or []) - LIGHT_WITHOUT_BRIGHTNESS
        ),
        None,
    )
    if light is None:
        return f"no dimmable light on {unit.name!r} shows its level"
    low, high = attr.sibling("MinLevel") or 1, attr.sibling("MaxLevel") or 254
    return Binding(
        light.entity_id,
        {
            "attribute": "brightness",
            "scale": _scale((low, high), (0, 255)),
            "set": {"service": "light.turn_on", "data": {"brightness": "{value}"}},
        },
        f"the light's brightness (level {low}-{high} as 0-255)",
    )


def percent_setting(attr: TaskAttr, unit: Unit) -> Binding | str:
    fan = unit.first("fan")
    if fan is None:
        return f"{unit.name!r} has no fan entity"
    if not fan.features & FAN_SET_SPEED:
        return f"{fan.entity_id} offers preset modes only, no percentage"
    return Binding(
        fan.entity_id,
        {
            "attribute": "percentage",
            "ignore": [0],
            "set": {"service": "fan.set_percentage", "data": {"percentage": "{value}"}},
        },
        "the fan's percentage (0 % reads as off: not observed)",
    )


def percent_current(attr: TaskAttr, unit: Unit) -> Binding | str:
    fan = unit.first("fan")
    if fan is None or not fan.features & FAN_SET_SPEED:
        return f"{unit.name!r} has no fan entity with a percentage"
    return Binding(fan.entity_id, {"attribute": "percentage"}, "the fan's percentage (read only)")


def fan_mode(attr: TaskAttr, unit: Unit) -> Binding | str:
    fan = unit.first("fan")
    if fan is None or not fan.features & FAN_PRESET_MODE:
        return f"{unit.name!r} has no fan entity with preset modes"
    presets = set(fan.attributes.get("preset_modes") or [])
    values = {
        k: v
        for k, v in PRESET_OF_FAN_MODE.items()
        if v in presets and k in (attr.spec.options or [k])
    }
    fields: dict[str, Any] = {"attribute": "preset_mode", "values": values}
    if fan.features & FAN_SET_SPEED:
        return Binding(
            fan.entity_id, fields, "the fan's preset (read only: the percentage sets it)"
        )
    fields["set"] = {"service": "fan.set_preset_mode", "data": {"preset_mode": "{value}"}}
    return Binding(fan.entity_id, fields, "the fan's preset")


def system_mode(attr: TaskAttr, unit: Unit) -> Binding | str:
    climate = unit.first("climate")
    if climate is None:
        return f"{unit.name!r} has no climate entity"
    values = {
        k: v
        for k, v in HVAC_OF_SYSTEM_MODE.items()
        if k in (attr.spec.options or HVAC_OF_SYSTEM_MODE)
    }
    fields: dict[str, Any] = {"values": values}
    powered = attr.endpoint_has("OnOff")
    if powered:  # "off" is also the climate's state while the unit's power is off: it says nothing
        values.pop(0, None)
        fields["ignore"] = ["off"]
    offered = set(climate.attributes.get("hvac_modes") or [])
    # one call per mode HA offers: a mode it does not offer (dry on most units) cannot be set here
    fields["set"] = {
        k: {"service": "climate.set_hvac_mode", "data": {"hvac_mode": v}}
        for k, v in values.items()
        if v in offered
    }
    missing = [f"{k} ({v})" for k, v in values.items() if v not in offered]
    note = f"; HA offers no {', '.join(missing)}: those cannot be set" if missing else ""
    return Binding(climate.entity_id, fields, f"the climate's HVAC mode{note}")


def setpoint(mode: str) -> Rule:
    def rule(attr: TaskAttr, unit: Unit) -> Binding | str:
        climate = unit.first("climate")
        if climate is None:
            return f"{unit.name!r} has no climate entity"
        return Binding(
            climate.entity_id,
            _hundredths(
                "temperature",
                when_state=[mode],
                set={"service": "climate.set_temperature", "data": {"temperature": "{value}"}},
            ),
            f"the climate's target temperature while it is in {mode} mode",
        )

    return rule


def local_temperature(attr: TaskAttr, unit: Unit) -> Binding | str:
    climate = unit.first("climate")
    if climate is None:
        return f"{unit.name!r} has no climate entity"
    return Binding(
        climate.entity_id, _hundredths("current_temperature"), "the climate's current temperature"
    )


def measured(device_class: str) -> Rule:
    def rule(attr: TaskAttr, unit: Unit) -> Binding | str:
        sensor = _sensor(unit, device_class)
        if sensor is None:
            return f"{unit.name!r} has no {device_class} sensor"
        return Binding(sensor.entity_id, _hundredths(), f"its {device_class} sensor")

    return rule


def temperature_setpoint(attr: TaskAttr, unit: Unit) -> Binding | str:
    numbers = [
        e for e in unit.of_domain("number") if e.attributes.get("unit_of_measurement") == "°C"
    ]
    number = _closest(numbers, "temperature setpoint")
    if number is None:
        return f"{unit.name!r} has no temperature number"
    return Binding(
        number.entity_id,
        _hundredths(set={"service": "number.set_value", "data": {"value": "{value}"}}),
        "its temperature-setpoint number",
    )


def current_mode(attr: TaskAttr, unit: Unit) -> Binding | str:
    values = _mode_values(attr)
    if values is None:
        return "its SupportedModes give no labels"
    select = _select_for(unit, values, attr.cluster or "mode")
    if select is None:
        return f"no select of {unit.name!r} offers the modes {sorted(values.values())}"
    return Binding(
        select.entity_id, {"values": values, "set": _select_call()}, "the select of its modes"
    )


def listed_option(list_name: str) -> Rule:
    """An index into a sibling list of labels (SpinSpeedCurrent into SpinSpeeds)."""

    def rule(attr: TaskAttr, unit: Unit) -> Binding | str:
        labels = _labels(attr.sibling(list_name))
        if labels is None:
            return f"its {list_name} give no labels"
        values = dict(enumerate(labels))
        select = _select_for(unit, values, attr.name)
        if select is None:
            return f"no select of {unit.name!r} offers {labels}"
        return Binding(
            select.entity_id,
            {"values": values, "set": _select_call()},
            f"the select of its {list_name}",
        )

    return rule


def ordered_select(attr: TaskAttr, unit: Unit) -> Binding | str:
    """An enum whose options a select lists in the same order under its own labels (rinses)."""
    options = attr.spec.options or []
    candidates = [
        e
        for e in unit.of_domain("select")
        if len(e.attributes.get("options") or []) == len(options)
        and words(e.key_words()) & words(attr.name)
    ]
    select = _closest(candidates, attr.name)
    if select is None or not options:
        return f"no select of {unit.name!r} named like {attr.name} with {len(options)} options"
    values = dict(zip(options, select.attributes["options"], strict=True))
    return Binding(
        select.entity_id,
        {"values": values, "set": _select_call()},
        "the select named like it, option by option in order",
    )


def operational_state(attr: TaskAttr, unit: Unit) -> Binding | str:
    sensor = next(
        (e for e in unit.of_domain("sensor") if e.translation_key == "operational_state"), None
    )
    if sensor is None:
        return f"{unit.name!r} has no operational-state sensor"
    options = set(sensor.attributes.get("options") or [])
    values = {
        k: v
        for k, v in OPERATIONAL_STATES.items()
        if v in options and k in (attr.spec.options or [k])
    }
    fields: dict[str, Any] = {"values": values}
    buttons = {e.translation_key: e.entity_id for e in unit.of_domain("button")}
    calls = {
        k: {"service": "button.press", "data": {"entity_id": buttons[name]}}
        for k, name in BUTTON_FOR_STATE.items()
        if name in buttons and k in values
    }
    if calls:
        fields["set"] = calls
    how = (
        f"; set by its {', '.join(BUTTON_FOR_STATE[k] for k in calls)} buttons"
        if calls
        else " (read only)"
    )
    return Binding(sensor.entity_id, fields, f"its operational-state sensor{how}")


def current_phase(attr: TaskAttr, unit: Unit) -> Binding | str:
    labels = _labels(attr.sibling("PhaseList"))
    sensor = next(
        (e for e in unit.of_domain("sensor") if e.translation_key == "current_phase"), None
    )
    if sensor is None or labels is None:
        return f"{unit.name!r} has no current-phase sensor"
    return Binding(
        sensor.entity_id,
        {"values": dict(enumerate(labels))},
        "its current-phase sensor (read only)",
    )


def lift(settable: bool) -> Rule:
    def rule(attr: TaskAttr, unit: Unit) -> Binding | str:
        covers = unit.of_domain("cover")
        if not covers:
            return f"{unit.name!r} has no cover entity"
        fields: dict[str, Any] = {
            "attribute": "current_position",
            "scale": _scale((0, 10000), (100, 0)),
        }
        if settable:
            fields["set"] = {"service": "cover.set_cover_position", "data": {"position": "{value}"}}
        return Binding(
            covers[0].entity_id,
            fields,
            "the cover's position (Matter 0.01 % closed as HA's % open)",
        )

    return rule


def battery(attr: TaskAttr, unit: Unit) -> Binding | str:
    sensor = _sensor(unit, "battery")
    if sensor is None:
        return f"{unit.name!r} has no battery sensor"
    return Binding(
        sensor.entity_id,
        {"scale": _scale((0, 200), (0, 100))},
        "its battery sensor (half-percent steps)",
    )


def thousandths(device_class: str) -> Rule:
    """mW, mV, mA as HA's W, V, A."""

    def rule(attr: TaskAttr, unit: Unit) -> Binding | str:
        sensor = _sensor(unit, device_class)
        if sensor is None:
            return f"{unit.name!r} has no {device_class} sensor"
        return Binding(
            sensor.entity_id, {"scale": _scale((0, 1000), (0, 1), 3)}, f"its {device_class} sensor"
        )

    return rule


def countdown(attr: TaskAttr, unit: Unit) -> str:
    return "HA shows an estimated end time (a timestamp), not the seconds left"


_OPERATIONAL: dict[str, Rule] = {
    "OperationalState": operational_state,
    "CurrentPhase": current_phase,
    "CountdownTime": countdown,
}
MATTER_RULES: dict[str, dict[str, Rule]] = {
    "OnOff": {"OnOff": on_off},
    "LevelControl": {"CurrentLevel": level},
    "FanControl": {
        "PercentSetting": percent_setting,
        "PercentCurrent": percent_current,
        "FanMode": fan_mode,
    },
    "Thermostat": {
        "SystemMode": system_mode,
        "OccupiedCoolingSetpoint": setpoint("cool"),
        "OccupiedHeatingSetpoint": setpoint("heat"),
        "LocalTemperature": local_temperature,
    },
    "TemperatureMeasurement": {"MeasuredValue": measured("temperature")},
    "RelativeHumidityMeasurement": {"MeasuredValue": measured("humidity")},
    "TemperatureControl": {"TemperatureSetpoint": temperature_setpoint},
    **{
        mode: {"CurrentMode": current_mode}
        for mode in (
            "LaundryWasherMode",
            "DishwasherMode",
            "RefrigeratorAndTemperatureControlledCabinetMode",
            "RvcCleanMode",
            "RvcRunMode",
        )
    },
    "LaundryWasherControls": {
        "SpinSpeedCurrent": listed_option("SpinSpeeds"),
        "NumberOfRinses": ordered_select,
    },
    "OperationalState": _OPERATIONAL,
    "RvcOperationalState": _OPERATIONAL,
    "WindowCovering": {
        "TargetPositionLiftPercent100ths": lift(settable=True),
        "CurrentPositionLiftPercent100ths": lift(settable=False),
    },
    "PowerSource": {"BatPercentRemaining": battery},
    "ElectricalPowerMeasurement": {
        "ActivePower": thousandths("power"),
        "Voltage": thousandths("voltage"),
        "ActiveCurrent": thousandths("current"),
    },
}
"""Matter cluster -> attribute -> its rule."""


# ---------------------------------------------------------------------------- HomeEnv attributes
_DOMAIN_HINTS = (
    ({"light", "lamp", "lights", "bulb"}, "light"),
    ({"fan"}, "fan"),
    ({"ac", "climate", "thermostat", "heater", "heat", "conditioner"}, "climate"),
    ({"tv", "speaker", "media", "television"}, "media_player"),
    ({"humidifier", "dehumidifier"}, "humidifier"),
    ({"plug", "switch", "outlet"}, "switch"),
)
_POWER_DOMAINS = ("light", "fan", "climate", "media_player", "humidifier", "switch")


def _power_entity(attr: TaskAttr, unit: Unit) -> HaEntity | None:
    """The entity that shows a HomeEnv device's (or component's) ``state``: of the domains its
    component's name (``fan`` of a fan-light) or else its category point to, if they point to
    any; else the first power domain the unit has."""
    component = attr.locator.rsplit(".", 1)[0] if "." in attr.locator else ""
    hinted = (
        [domain for keys, domain in _DOMAIN_HINTS if keys & words(component)] if component else []
    )
    hinted = hinted or [domain for keys, domain in _DOMAIN_HINTS if keys & words(attr.category)]
    for domain in hinted or _POWER_DOMAINS:
        found = unit.of_domain(domain)
        if found:
            return found[0]
    return None


def power_state(attr: TaskAttr, unit: Unit) -> Binding | str | None:
    if attr.name != "state" or not {"on", "off"} <= set(attr.spec.options or []):
        return None
    entity = _power_entity(attr, unit)
    if entity is None:
        return f"{unit.name!r} has no entity that switches on and off"
    if entity.domain in ("climate", "media_player"):  # any mode but off means on
        return Binding(
            entity.entity_id,
            {
                "values": {"off": "off"},
                "otherwise": "on",
                "set": {
                    "on": {"service": f"{entity.domain}.turn_on"},
                    "off": {"service": f"{entity.domain}.turn_off"},
                },
            },
            f"the {entity.domain}'s on/off (any state but off is on)",
        )
    return Binding(entity.entity_id, {"set": _turn(entity)}, f"the {entity.domain}'s on/off")


def brightness(attr: TaskAttr, unit: Unit) -> Binding | str | None:
    top = (attr.spec.range or (0, 255))[1]
    if attr.name != "brightness" or top > 100:
        return None
    light = next(
        (
            e
            for e in unit.of_domain("light")
            if set(e.attributes.get("supported_color_modes") or []) - LIGHT_WITHOUT_BRIGHTNESS
        ),
        None,
    )
    if light is None:
        return f"{unit.name!r} has no dimmable light"
    return Binding(
        light.entity_id,
        {
            "attribute": "brightness",
            "scale": _scale((0, 100), (0, 255)),
            "set": {"service": "light.turn_on", "data": {"brightness": "{value}"}},
        },
        "the light's brightness (percent as 0-255)",
    )


def speed_level(attr: TaskAttr, unit: Unit) -> Binding | str | None:
    options = attr.spec.options or []
    if (
        "speed" not in words(attr.name)
        or not options
        or not all(isinstance(o, str) for o in options)
    ):
        return None
    fan = unit.first("fan")
    if fan is None or not fan.features & FAN_SET_SPEED:
        return f"{unit.name!r} has no fan with a speed percentage"
    n = len(options)  # HA's ordered_list_item_to_percentage: the i-th of n speeds is (i+1)*100//n
    values = {o: (i + 1) * 100 // n for i, o in enumerate(options)}
    return Binding(
        fan.entity_id,
        {
            "attribute": "percentage",
            "values": values,
            "tolerance": 1,
            "ignore": [0],
            "set": {"service": "fan.set_percentage", "data": {"percentage": "{value}"}},
        },
        f"the fan's percentage ({n} speeds as HA spaces them; 0 % reads as off: not observed)",
    )


def target_temperature(attr: TaskAttr, unit: Unit) -> Binding | str | None:
    if attr.name not in ("target_temperature", "temperature_setpoint", "setpoint"):
        return None
    climate = unit.first("climate")
    if climate is None:
        return f"{unit.name!r} has no climate entity"
    return Binding(
        climate.entity_id,
        {
            "attribute": "temperature",
            "set": {"service": "climate.set_temperature", "data": {"temperature": "{value}"}},
        },
        "the climate's target temperature",
    )


def hvac_mode(attr: TaskAttr, unit: Unit) -> Binding | str | None:
    options = attr.spec.options or []
    if (
        "mode" not in words(attr.name)
        or not options
        or not all(isinstance(o, str) for o in options)
    ):
        return None
    climate = unit.first("climate")
    if climate is None:
        return None
    offered = set(climate.attributes.get("hvac_modes") or [])
    ha_of = dict(zip(options, options, strict=True))
    if "auto" in ha_of and "auto" not in offered and "heat_cool" in offered:
        ha_of["auto"] = "heat_cool"  # the import's name for it (the catalog has one automatic)
    if len(offered & set(ha_of.values())) < 2:
        return f"{climate.entity_id}'s HVAC modes {sorted(offered)} are not its options {options}"
    fields: dict[str, Any] = {
        "ignore": ["off"],
        "set": {"service": "climate.set_hvac_mode", "data": {"hvac_mode": "{value}"}},
    }
    if any(o != h for o, h in ha_of.items()):
        fields["values"] = ha_of
    return Binding(
        climate.entity_id, fields, "the climate's HVAC mode (off says nothing about the mode)"
    )


def unconvertible(attr: TaskAttr, unit: Unit) -> str | None:
    """HomeEnv attributes a mapping cannot carry, with the reason."""
    if attr.spec.type == "hex" or attr.name in ("color", "colour"):
        return (
            "a hex colour that says nothing of which colours the light holds (a twin's light "
            "says it, from its HA colour modes): HA keeps an hs light's colour at full value"
        )
    if attr.spec.type in ("tuple", "list", "dict"):
        colour = (
            " (and HA's colours go through its own colour space)"
            if words(attr.name) & {"rgb", "color", "hs"}
            else ""
        )
        return f"a {attr.spec.type} value does not convert to an HA state{colour}"
    if attr.name in ("alias", "name", "nickname"):
        return "a name, not a device state"
    return None


# ------------------------------------------------------- a device in HA's own units
# A home imported from HA (a live home's twin, home-assistant-datasets' homes) keeps some
# attributes in HA's units: a light's brightness 0-255 and colour temperature in kelvin, a
# cover's or valve's position 0-100 (100 open), a media player's volume in percent.
def own_brightness(attr: TaskAttr, unit: Unit) -> Binding | str | None:
    top = (attr.spec.range or (0, 100))[1]
    light = unit.first("light")
    if attr.name != "brightness" or top != 255 or light is None:
        return None
    return Binding(
        light.entity_id,
        {
            "attribute": "brightness",
            "set": {"service": "light.turn_on", "data": {"brightness": "{value}"}},
        },
        "the light's brightness (0-255 on both sides)",
    )


def own_colour_temperature(attr: TaskAttr, unit: Unit) -> Binding | str | None:
    light = unit.first("light")
    if attr.name != "color_temperature" or attr.spec.unit != "Kelvin" or light is None:
        return None
    if "color_temp" not in set(light.attributes.get("supported_color_modes") or ()):
        return f"{light.entity_id} has no colour temperature mode"
    return Binding(
        light.entity_id,
        {
            "attribute": "color_temp_kelvin",
            "when_state": ["on"],
            "set": {"service": "light.turn_on", "data": {"color_temp_kelvin": "{value}"}},
        },
        "the light's colour temperature (kelvin on both sides)",
    )


CHANNEL_TOLERANCE = {"hue_saturation": 0, "channels": 1}
"""Steps a channel of ``rgb_color`` may read off the colour expected, per colour space
(:mod:`smh_core.homeenv.colours`): none on an hs light (the twin rounds as HA does), 1 on an
rgb, rgbw or rgbww light (HA's conversions through the white channels move a channel by at most
1: over 20,000 colours, none by 2; ``tests/homeenv/test_colours.py``)."""
_SPACE_WORDS = {"hue_saturation": "hue and saturation at full value", "channels": "channels"}


def own_colour(attr: TaskAttr, unit: Unit) -> Binding | str | None:
    """A twin light's colour (hex, held as its HA colour modes hold it: ``spec.colour``) as HA's
    ``rgb_color``, set by ``light.turn_on`` with ``rgb_color``, read only while HA shows the
    light in a colour mode. A light that shows its colours only through xy stays out: HA's xy
    round trip moves a colour by up to 12 a channel (measured), which the twin does not model."""
    light = unit.first("light")
    if attr.name != "color" or attr.spec.type != "hex" or light is None:
        return None
    space = attr.spec.colour
    if space is None:
        return None
    modes = {str(m) for m in light.attributes.get("supported_color_modes") or ()}
    shown = space_of_modes(modes)
    if shown is None:
        return f"{light.entity_id} shows no colour (its colour modes: {sorted(modes)})"
    if shown != space:
        return f"{light.entity_id}'s colour modes {sorted(modes)} are not the twin's ({space})"
    if not modes & (COLOUR_MODES - {"xy"}):
        return (
            f"{light.entity_id} shows colours only as xy, whose round trip in HA moves a "
            "colour by up to 12 a channel: not modelled"
        )
    tolerance = CHANNEL_TOLERANCE[space]
    return Binding(
        light.entity_id,
        {
            "attribute": "rgb_color",
            "rgb": True,
            **({"tolerance": tolerance} if tolerance else {}),
            "when_attribute": {"color_mode": sorted(COLOUR_MODES)},
            "set": {"service": "light.turn_on", "data": {"rgb_color": "{value}"}},
        },
        f"the light's rgb_color (while in a colour mode; {_SPACE_WORDS[space]}"
        + (f", each channel within {tolerance})" if tolerance else ", exactly)"),
    )


POSITION_SET = 4
"""CoverEntityFeature.SET_POSITION and ValveEntityFeature.SET_POSITION."""


def own_position(attr: TaskAttr, unit: Unit) -> Binding | str | None:
    entity = unit.first("cover") or unit.first("valve")
    if attr.name != "position" or tuple(attr.spec.range or ()) != (0, 100) or entity is None:
        return None
    if entity.attributes.get("current_position") is None:
        return f"{entity.entity_id} does not report a position"
    fields: dict[str, Any] = {"attribute": "current_position"}
    if entity.features & POSITION_SET:
        service = f"{entity.domain}.set_{entity.domain}_position"
        fields["set"] = {"service": service, "data": {"position": "{value}"}}
    return Binding(entity.entity_id, fields, f"the {entity.domain}'s position (0-100, 100 open)")


def own_volume(attr: TaskAttr, unit: Unit) -> Binding | str | None:
    player = unit.first("media_player")
    if attr.name != "volume_level" or tuple(attr.spec.range or ()) != (0, 100) or player is None:
        return None
    return Binding(
        player.entity_id,
        {
            "attribute": "volume_level",
            "scale": _scale((0, 100), (0, 1), 2),
            "set": {"service": "media_player.volume_set", "data": {"volume_level": "{value}"}},
        },
        "the player's volume (percent as 0-1)",
    )


FAN_OSCILLATE, FAN_PRESET = 2, 8
"""FanEntityFeature.OSCILLATE and FanEntityFeature.PRESET_MODE."""


def own_fan_preset(attr: TaskAttr, unit: Unit) -> Binding | str | None:
    fan = unit.first("fan")
    if attr.name != "preset_mode" or fan is None:
        return None
    if not fan.features & FAN_PRESET:
        return f"{fan.entity_id} has no preset modes"
    return Binding(
        fan.entity_id,
        {
            "attribute": "preset_mode",
            "when_state": ["on"],  # a fan takes a preset only while it runs
            "set": {"service": "fan.set_preset_mode", "data": {"preset_mode": "{value}"}},
        },
        "the fan's preset mode (same names)",
    )


def own_oscillation(attr: TaskAttr, unit: Unit) -> Binding | str | None:
    fan = unit.first("fan")
    if attr.name != "oscillation_enabled" or attr.spec.type != AttrType.BOOL or fan is None:
        return None
    if not fan.features & FAN_OSCILLATE:
        return f"{fan.entity_id} does not oscillate"
    return Binding(
        fan.entity_id,
        {
            "attribute": "oscillating",
            "when_state": ["on"],
            "set": {"service": "fan.oscillate", "data": {"oscillating": "{value}"}},
        },
        "the fan's oscillation (on or off)",
    )


def own_current_temperature(attr: TaskAttr, unit: Unit) -> Binding | str | None:
    climate = unit.first("climate")
    if attr.name != "current_temperature" or attr.spec.unit != "Celsius" or climate is None:
        return None
    return Binding(
        climate.entity_id,
        {"attribute": "current_temperature"},
        "the climate's measured temperature (read only)",
    )


def _same_names(
    name: str, domain: str, listed: str, attribute: str, service: str, what: tuple[str, str]
) -> Rule:
    """An option attribute ``name`` an entity of ``domain`` takes under the same names, as its
    ``listed`` attribute offers them: read from ``attribute``, set by ``service`` with
    ``attribute`` as its field. ``what``: how the reasons word the entity's list and the options."""

    def rule(attr: TaskAttr, unit: Unit) -> Binding | str | None:
        entity = unit.first(domain)
        if attr.name != name or entity is None:
            return None
        offered = {str(m) for m in entity.attributes.get(listed) or ()}
        if not offered or not set(attr.spec.options or ()) <= offered:
            return f"{entity.entity_id}'s {what[0]} {sorted(offered)} are not its {what[1]}"
        return Binding(
            entity.entity_id,
            {"attribute": attribute, "set": {"service": service, "data": {attribute: "{value}"}}},
            f"the {domain}'s {what[0].rstrip('s')} (same names)",
        )

    return rule


own_climate_fan = _same_names(
    "fan_level", "climate", "fan_modes", "fan_mode", "climate.set_fan_mode", ("fan modes", "levels")
)
own_suction = _same_names(
    "suction",
    "vacuum",
    "fan_speed_list",
    "fan_speed",
    "vacuum.set_fan_speed",
    ("fan speeds", "suction levels"),
)


def own_lock(attr: TaskAttr, unit: Unit) -> Binding | str | None:
    lock = unit.first("lock")
    if attr.name != "state" or set(attr.spec.options or ()) != {"locked", "unlocked"}:
        return None
    if lock is None:
        return None
    return Binding(
        lock.entity_id,
        {
            "set": {
                "locked": {"service": "lock.lock"},
                "unlocked": {"service": "lock.unlock"},
            }
        },
        "the lock's state (locked or unlocked)",
    )


VACUUM_PAUSE, VACUUM_STOP, VACUUM_RETURN_HOME, VACUUM_START = 4, 8, 16, 8192
"""VacuumEntityFeature bits of the services that set an activity."""
VACUUM_ACTIVITIES = ("cleaning", "docked", "returning", "idle", "paused")
"""HA's vacuum activities (its ``error`` aside) under the names the catalog's vacuums use."""
_VACUUM_CALLS = (
    ("cleaning", VACUUM_START, "start"),
    ("paused", VACUUM_PAUSE, "pause"),
    ("idle", VACUUM_STOP, "stop"),
    ("returning", VACUUM_RETURN_HOME, "return_to_base"),
)
"""Activity -> the feature and the service that put a vacuum in it. ``docked`` has none: HA's
``return_to_base`` makes a vacuum *return*, and it docks when it gets there, on its own time
(synthetic-home's never does), so asking for ``docked`` would wait on the robot's drive home
and call that a device fault."""


def own_vacuum_activity(attr: TaskAttr, unit: Unit) -> Binding | str | None:
    """A robot vacuum's ``state`` (docked, cleaning, paused, idle, returning) as its HA vacuum
    entity's activity, the same names on both sides; set by the service that leads to each,
    where the entity offers it. HA's ``error`` is no activity of the twin: read, it is the
    device's fault (a reading with no value), never a state the agent reached."""
    options = set(attr.spec.options or ())
    if attr.name != "state" or not {"docked", "cleaning"} <= options:
        return None
    vacuum = unit.first("vacuum")
    if vacuum is None:
        return f"{unit.name!r} has no vacuum entity"
    values = {a: a for a in VACUUM_ACTIVITIES if a in options}
    calls = {
        activity: {"service": f"vacuum.{service}"}
        for activity, feature, service in _VACUUM_CALLS
        if activity in values and vacuum.features & feature
    }
    fields: dict[str, Any] = {"values": values}
    if calls:
        fields["set"] = calls
    how = (
        "set by " + ", ".join(call["service"] for call in calls.values())
        if calls
        else "read only: it offers none of start, pause, stop, return_to_base"
    )
    return Binding(
        vacuum.entity_id,
        fields,
        f"the vacuum's activity (same names; {how}; docked is reached by the robot, not a call)",
    )


TODO_CREATE = 1
"""TodoListEntityFeature.CREATE_TODO_ITEM: a list that can at least be added to."""


def own_todo_items(attr: TaskAttr, unit: Unit) -> Binding | str | None:
    """A to-do list's items as its HA list holds them: read with ``todo.get_items`` (the runner
    puts them in the state's ``todo_items``), put in place by the runner's own call, which
    removes, adds and updates items with HA's services (:mod:`.todo_lists`)."""
    todo = unit.first("todo")
    if attr.name != "items" or todo is None:
        return None
    fields: dict[str, Any] = {"attribute": "todo_items"}
    if todo.features & TODO_CREATE:
        fields["set"] = {"service": PUT_ITEMS, "data": {"items": "{value}"}}
        how = "put in place by todo.remove_item, add_item and update_item"
    else:
        how = "read only: it cannot be added to"
    return Binding(todo.entity_id, fields, f"the list's items (todo.get_items; {how})")


def own_todo_open_items(attr: TaskAttr, unit: Unit) -> Binding | str | None:
    todo = unit.first("todo")
    if attr.name != "open_items" or todo is None:
        return None
    return Binding(todo.entity_id, {}, "how many items are not done (the list's state, read only)")


HOMEENV_RULES: tuple[Rule, ...] = (
    power_state,
    brightness,
    speed_level,
    target_temperature,
    hvac_mode,
    own_brightness,
    own_colour_temperature,
    own_colour,
    own_position,
    own_volume,
    own_lock,
    own_current_temperature,
    own_climate_fan,
    own_suction,
    own_vacuum_activity,
    own_fan_preset,
    own_oscillation,
    own_todo_items,
    own_todo_open_items,
    unconvertible,
)


def bind(attr: TaskAttr, unit: Unit) -> Binding | str:
    """Where ``attr`` lives in ``unit``, or why it does not."""
    cluster = attr.cluster
    if cluster is not None:
        rule = MATTER_RULES.get(cluster, {}).get(attr.name)
        if rule is None:
            return f"no rule maps Matter {cluster}.{attr.name} to an HA entity"
        return rule(attr, unit) or f"no entity of {unit.name!r} shows {cluster}.{attr.name}"
    reasons = []
    for rule in HOMEENV_RULES:
        out = rule(attr, unit)
        if isinstance(out, Binding):
            return out
        if out:
            reasons.append(out)
    return (
        reasons[0]
        if reasons
        else f"no rule maps a {attr.spec.type} attribute named {attr.name!r} to an HA entity"
    )


def has_rule(attr: TaskAttr) -> bool:
    """Whether some rule is about this attribute (then its absence counts against a match)."""
    if attr.cluster is not None:
        rule = MATTER_RULES.get(attr.cluster, {}).get(attr.name)
        return rule is not None and rule is not countdown
    empty = Unit("", "", None, ())
    return any(isinstance(rule(attr, empty), str) for rule in HOMEENV_RULES[:-1])
