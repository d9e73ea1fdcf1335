"""Home Assistant entities in catalog terms: which type each domain becomes, what the entity
supports (its supported features and colour modes narrow the device), and how an HA state and
its attributes carry over as attribute values and the critic clauses that check them.

HA's units become the catalog's: volume 0-1 is a percentage, colours (``rgb_color``,
``hs_color``, ``xy_color``, ``rgbw_color``) hex, a fan's percentage a speed level, a vacuum
``off`` docked, a cover or valve ``open`` any position above 0. A light's brightness stays in
HA's 0-255 (an imported light has that range, :data:`RANGES`), so every level reads back exactly.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from smh_core.homeenv.colours import COLOUR_MODES, hex_of, hs_hex, mode_names
from smh_core.homeenv.narrowing import Narrowing


class Unsupported(Exception):
    """An HA state or attribute the catalog has no counterpart for (the message says which)."""


class UnsupportedAttributes(Unsupported):
    """State attributes the catalog type has no place for (``names``), the state itself fine."""

    def __init__(self, domain: str, names: list[str]) -> None:
        super().__init__(f"{domain} attributes {names}")
        self.names = names


@dataclass(frozen=True)
class Mapped:
    """An HA state in catalog terms: attribute values (to set up, or to reach), the critic
    clauses that check it (on the device), and what could not be carried over exactly."""

    values: dict[str, Any]
    critic: list[str]
    notes: tuple[str, ...] = ()
    background: frozenset[str] = frozenset()
    """Values carried over only so the device starts as the source's entity would (an off
    light's stored brightness, a fan's turn-on speed): no goal, and dropped where the entity
    does not support them."""

    def goals(self) -> dict[str, Any]:
        """The values a task must reach (the background ones left out)."""
        return {k: v for k, v in self.values.items() if k not in self.background}


DESCRIPTIVE = frozenset(
    {
        "supported_features",
        "device_class",
        "friendly_name",
        "icon",
        "supported_color_modes",
        "color_mode",
        "min_color_temp_kelvin",
        "max_color_temp_kelvin",
        "min_mireds",
        "max_mireds",
        "preset_modes",
        "percentage_step",
        "speed_count",
        "assumed_state",
        "attribution",
        "entity_picture",
        "unit_of_measurement",
        "reports_position",
        "source_list",
        "fan_speed_list",
        "sound_mode_list",
        "effect_list",
        "media_content_type",
        "media_duration",
        "media_position",
        "media_position_updated_at",
    }
)
"""Attributes that describe what an entity can do rather than its state: nothing to set or check."""

RANGES: dict[str, dict[str, tuple[float, float]]] = {"light": {"brightness": (0, 255)}}
"""Per HA domain, attributes imported in HA's own units rather than the catalog's (a light's
brightness 0-255, not 1-100 %): every level the source states is kept and read back exactly."""


FEATURE_BITS: dict[str, dict[str, int]] = {
    "cover": {"OPEN": 1, "CLOSE": 2, "SET_POSITION": 4, "STOP": 8, "OPEN_TILT": 16,
              "CLOSE_TILT": 32, "STOP_TILT": 64, "SET_TILT_POSITION": 128},
    "valve": {"OPEN": 1, "CLOSE": 2, "SET_POSITION": 4, "STOP": 8},
    "fan": {"SET_SPEED": 1, "OSCILLATE": 2, "DIRECTION": 4, "PRESET_MODE": 8, "TURN_OFF": 16,
            "TURN_ON": 32},
    "media_player": {"PAUSE": 1, "SEEK": 2, "VOLUME_SET": 4, "VOLUME_MUTE": 8,
                     "PREVIOUS_TRACK": 16, "NEXT_TRACK": 32, "TURN_ON": 128, "TURN_OFF": 256,
                     "PLAY_MEDIA": 512, "VOLUME_STEP": 1024, "SELECT_SOURCE": 2048, "STOP": 4096,
                     "CLEAR_PLAYLIST": 8192, "PLAY": 16384, "SHUFFLE_SET": 32768,
                     "SELECT_SOUND_MODE": 65536, "BROWSE_MEDIA": 131072, "REPEAT_SET": 262144,
                     "GROUPING": 524288, "MEDIA_ANNOUNCE": 1048576, "MEDIA_ENQUEUE": 2097152,
                     "SEARCH_MEDIA": 4194304},
    "vacuum": {"TURN_ON": 1, "TURN_OFF": 2, "PAUSE": 4, "STOP": 8, "RETURN_HOME": 16,
               "FAN_SPEED": 32, "BATTERY": 64, "STATUS": 128, "SEND_COMMAND": 256, "LOCATE": 512,
               "CLEAN_SPOT": 1024, "MAP": 2048, "STATE": 4096, "START": 8192},
    "light": {"EFFECT": 4, "FLASH": 8, "TRANSITION": 32},
    "climate": {"TARGET_TEMPERATURE": 1, "TARGET_TEMPERATURE_RANGE": 2, "TARGET_HUMIDITY": 4,
                "FAN_MODE": 8, "PRESET_MODE": 16, "SWING_MODE": 32, "TURN_OFF": 128,
                "TURN_ON": 256, "SWING_HORIZONTAL_MODE": 512},
    "lock": {"OPEN": 1},
    "todo": {"CREATE_TODO_ITEM": 1, "DELETE_TODO_ITEM": 2, "UPDATE_TODO_ITEM": 4,
             "MOVE_TODO_ITEM": 8, "SET_DUE_DATE_ON_ITEM": 16, "SET_DUE_DATETIME_ON_ITEM": 32,
             "SET_DESCRIPTION_ON_ITEM": 64},
}  # fmt: skip
"""Per domain, HA's entity feature flags by name (``CoverEntityFeature``...): a live HA states
``supported_features`` as their sum, home-assistant-datasets' fixtures by name. A test checks
the table against HA's own enums. A flag HA has since removed stays (:data:`REMOVED_FEATURES`):
a home on an older HA still states it."""

REMOVED_FEATURES: dict[tuple[str, str], str] = {("vacuum", "BATTERY"): "2026.8"}
"""(domain, flag) -> the HA release that removed it (HA's deprecation notice): older HAs state
the flag, newer ones never do and leave its bit unused. A test checks both sides."""


NOT_SIMULATED_FEATURES: dict[str, frozenset[str]] = {
    "cover": frozenset({"STOP", "OPEN_TILT", "CLOSE_TILT", "STOP_TILT", "SET_TILT_POSITION"}),
    "valve": frozenset({"STOP"}),
    "fan": frozenset({"DIRECTION"}),
    "light": frozenset({"EFFECT", "FLASH", "TRANSITION"}),
    "lock": frozenset({"OPEN"}),
    "media_player": frozenset(
        {"SEEK", "CLEAR_PLAYLIST", "SHUFFLE_SET", "SELECT_SOUND_MODE", "BROWSE_MEDIA",
         "REPEAT_SET", "GROUPING", "MEDIA_ANNOUNCE", "MEDIA_ENQUEUE", "SEARCH_MEDIA"}
    ),
    "vacuum": frozenset({"SEND_COMMAND", "LOCATE", "CLEAN_SPOT", "MAP"}),
    "climate": frozenset({"TARGET_TEMPERATURE_RANGE", "TARGET_HUMIDITY", "PRESET_MODE",
                          "SWING_MODE", "SWING_HORIZONTAL_MODE"}),
    "todo": frozenset({"MOVE_TODO_ITEM", "SET_DUE_DATE_ON_ITEM", "SET_DUE_DATETIME_ON_ITEM",
                       "SET_DESCRIPTION_ON_ITEM"}),
}  # fmt: skip
"""Per domain, the HA features the catalog's devices have no counterpart for: a device imported
from an entity that has them is simulated without them (its twin's report names them)."""


def unsimulated_features(domain: str, attrs: Mapping[str, Any]) -> list[str]:
    """Which of the entity's features (by name, see :func:`named_features`) the twin lacks."""
    named = features(named_features(domain, attrs)) or set()
    lacking = named & NOT_SIMULATED_FEATURES.get(domain, frozenset())
    fans = {str(f) for f in attrs.get("fan_modes") or ()}
    if domain == "climate" and "FAN_MODE" in named and not fans <= set(_AC_FAN_LEVELS):
        lacking.add("FAN_MODE")  # fan modes the air conditioner's levels do not name
    return sorted(lacking)


def named_features(domain: str, attrs: Mapping[str, Any]) -> dict[str, Any]:
    """``attrs`` with an integer ``supported_features`` (a live HA's bitmask) written as the
    feature names :func:`features` reads; other attributes, and names, as they are. A bit the
    table does not know is left out (the feature is not used)."""
    raw = attrs.get("supported_features")
    bits = FEATURE_BITS.get(domain)
    if bits is None or not isinstance(raw, int) or isinstance(raw, bool):
        return dict(attrs)
    return {**attrs, "supported_features": [n for n, bit in bits.items() if raw & bit]}


def features(attrs: Mapping[str, Any]) -> set[str] | None:
    """An entity's supported features by name (``cover.CoverEntityFeature.OPEN`` -> ``OPEN``);
    None when the fixture does not say."""
    raw = attrs.get("supported_features")
    if raw is None or isinstance(raw, (int, float)):
        return None if raw is None else set()
    if isinstance(raw, str):
        raw = [raw]
    return {str(f).rsplit(".", 1)[-1].upper() for f in raw}


def _value(text: Any) -> str | None:
    """An HA state as text: YAML reads a bare on/off as a boolean."""
    if isinstance(text, bool):
        return "on" if text else "off"
    return None if text is None else str(text)


def _percent(value: Any, top: float) -> int:
    return max(0, min(100, round(float(value) * 100 / top)))


# ---------------------------------------------------------------------------------- colours
def _hex(rgb: Any) -> str:
    """The RGB part of an HA colour (``rgb_color``, or the first three of ``rgbw_color``)."""
    try:
        return hex_of(list(rgb[:3]) if isinstance(rgb, (list, tuple)) else rgb)
    except ValueError:
        raise Unsupported(f"colour {rgb!r}") from None


def _hs_hex(hs: Any) -> str:
    h, s = float(hs[0]), float(hs[1])
    try:
        return hs_hex(h, s)
    except ValueError:
        raise Unsupported(f"colour {hs!r}") from None


def _xy_hex(xy: Any) -> str:
    """CIE 1931 xy at full brightness to sRGB (the conversion HA's colour util makes)."""
    x, y = float(xy[0]), float(xy[1])
    if y <= 0:
        raise Unsupported(f"xy colour {xy!r}")
    X, Z = x / y, (1 - x - y) / y
    rgb = [
        X * 1.656492 - 0.354851 - Z * 0.255038,
        -X * 0.707196 + 1.655397 + Z * 0.036152,
        X * 0.051713 - 0.121364 + Z * 1.011530,
    ]
    rgb = [12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055 for c in rgb]
    top = max(max(rgb), 1e-9)
    return _hex([max(0.0, c / top) * 255 for c in rgb])


def _colour(attrs: dict[str, Any]) -> tuple[str | None, list[str]]:
    """The colour an HA light state asks for, as hex, and how it was approximated. HA reports
    one colour in every space it converts to; the first given (rgb first) decides."""
    found = _first_colour(attrs)
    for key in ("rgb_color", "rgbw_color", "rgbww_color", "hs_color", "xy_color"):
        attrs.pop(key, None)
    return found


def _first_colour(attrs: dict[str, Any]) -> tuple[str | None, list[str]]:
    if attrs.get("rgb_color") is not None:
        return _hex(attrs.pop("rgb_color")), []
    for key in ("rgbw_color", "rgbww_color"):
        if attrs.get(key) is not None:
            value = attrs.pop(key)
            return _hex(value[:3]), [f"{key} {value} compared as its RGB part"] if any(
                value[3:]
            ) else []
    if attrs.get("hs_color") is not None:
        return _hs_hex(attrs.pop("hs_color")), []
    if attrs.get("xy_color") is not None:
        return _xy_hex(attrs.pop("xy_color")), []
    return None, []


# ---------------------------------------------------------------------------------- domains
_DERIVED_COLOURS = ("rgb_color", "rgbw_color", "rgbww_color", "hs_color", "xy_color")


def _stated_modes(attrs: Mapping[str, Any]) -> set[str] | None:
    """The light's ``supported_color_modes`` by name, or None where it states none."""
    modes = attrs.get("supported_color_modes")
    return mode_names(modes) if isinstance(modes, list) else None


def _white_only(attrs: Mapping[str, Any]) -> bool:
    """Whether a light states its colour modes and none of them is a colour: HA still reports
    ``hs_color``, ``rgb_color`` and ``xy_color`` for it while on, converted from its colour
    temperature, which the light cannot be set to (a white-only light's twin has no colour)."""
    modes = _stated_modes(attrs)
    return modes is not None and not modes & COLOUR_MODES


def _light_narrowing(attrs: Mapping[str, Any]) -> tuple[str, Narrowing | None]:
    modes = _stated_modes(attrs)
    if modes is None:
        return "light", None  # the fixture does not say: a dimmable light
    colour, white = bool(modes & COLOUR_MODES), "color_temp" in modes
    dimmable = bool(modes - {"onoff"})
    if colour:
        kept = ["state", "brightness", "color"] + (
            ["color_temperature", "color_mode"] if white else []
        )
        services = ["turn_on", "turn_off", "toggle", "set_brightness", "set_color"]
        services += ["set_color_temperature"] if white else []
        return "color_light", Narrowing.of(kept, services, fixed={"color_mode": "color"})
    if white:
        return "color_temperature_light", None
    if dimmable:
        return "light", None
    full = RANGES["light"]["brightness"][1]
    return "light", Narrowing.of(
        ["state"], ["turn_on", "turn_off", "toggle"], fixed={"brightness": full}
    )


def _light(state: str | None, attrs: dict[str, Any]) -> Mapped:
    """A light in HA's own terms: brightness 0-255 as is (see :data:`RANGES`), and, as the
    source's synthetic lights are built, a light with a brightness above 0 is on whatever its
    state says; an off light keeps its brightness, which turning it on restores."""
    values: dict[str, Any] = {}
    critic: list[str] = []
    notes: list[str] = []
    background: set[str] = set()
    brightness = attrs.pop("brightness", None)
    level = (
        int(brightness)
        if isinstance(brightness, (int, float)) and not isinstance(brightness, bool)
        else None
    )
    if level and state in (None, "off"):
        state = "on"
    if state in ("on", "off"):
        values["state"] = state
        critic.append(f"state == {state}")
    elif state is not None:
        raise Unsupported(f"light state {state!r}")
    if level is not None:
        values["brightness"] = level
        if state != "off" and level:
            critic.append(f"brightness == {level}")
        else:
            background.add("brightness")
    colour, more = _colour(attrs)
    notes += more
    if colour is not None and state != "off":
        values["color"] = colour
        critic.append(f'color == "{colour}"')
    kelvin = attrs.pop("color_temp_kelvin", None)
    mireds = attrs.pop("color_temp", None)  # the same, in HA's older unit, where still stated
    if kelvin is None and mireds:
        kelvin = round(1_000_000 / float(mireds))
    if kelvin is not None and state != "off":
        values["color_temperature"] = int(kelvin)
        critic.append(f"color_temperature == {int(kelvin)}")
    _no_more("light", attrs)
    return Mapped(values, critic, tuple(notes), frozenset(background))


def _no_more(domain: str, attrs: Mapping[str, Any]) -> None:
    other = sorted(k for k, v in attrs.items() if v is not None)
    if other:
        raise UnsupportedAttributes(domain, other)


def _lock(state: str | None, attrs: dict[str, Any]) -> Mapped:
    _no_more("lock", attrs)
    if state not in ("locked", "unlocked", None):
        raise Unsupported(f"lock state {state!r}")
    return Mapped({"state": state}, [f"state == {state}"]) if state else Mapped({}, [])


def _positioned(kind: str) -> Callable[[str | None, dict[str, Any]], Mapped]:
    """A cover or a valve: a position 0-100, HA's open being any position above 0."""

    def mapped(state: str | None, attrs: dict[str, Any]) -> Mapped:
        position = attrs.pop("current_position", None)
        _no_more(kind, attrs)
        if position is not None:
            try:
                pos = int(float(position))
            except (TypeError, ValueError):
                raise Unsupported(f"{kind} position {position!r}") from None
            return Mapped({"position": pos}, [f"position == {pos}"])
        if state in ("closed", "off"):
            return Mapped({"position": 0}, ["position == 0"])
        if state in ("open", "on"):
            return Mapped({"position": 100}, ["position > 0"])
        if state is None:
            return Mapped({}, [])
        raise Unsupported(f"{kind} state {state!r}")

    return mapped


def _garage(state: str | None, attrs: dict[str, Any]) -> Mapped:
    attrs.pop("current_position", None)  # a garage door opens or closes: nothing in between
    _no_more("cover", attrs)
    state = {"off": "closed", "on": "open"}.get(state or "", state)
    if state in ("open", "closed"):
        return Mapped({"state": state}, [f"state == {state}"])
    if state is None:
        return Mapped({}, [])
    raise Unsupported(f"garage door state {state!r}")


_SPEEDS = ((33, "low"), (66, "medium"), (100, "high"))


def _fan(state: str | None, attrs: dict[str, Any]) -> Mapped:
    percentage = attrs.pop("percentage", None)
    oscillating = attrs.pop("oscillating", None)
    preset = attrs.pop("preset_mode", None)
    _no_more("fan", attrs)
    if state not in ("on", "off", None):
        raise Unsupported(f"fan state {state!r}")
    values: dict[str, Any] = {}
    critic: list[str] = []
    notes = []
    if state is not None:
        values["state"] = state
        critic.append(f"state == {state}")
    # HA's fans go to 100 % when turned on and report 0 % when off: those are what on and off
    # mean there, not a speed the user asked for, so only another percentage is a speed goal.
    if (
        isinstance(percentage, (int, float))
        and not (state == "on" and percentage == 100)
        and not (state == "off" and percentage == 0)
        and percentage > 0
    ):
        level = next(name for top, name in _SPEEDS if percentage <= top)
        values["speed_level"] = level
        critic.append(f"speed_level == {level}")
        notes.append(f"percentage {percentage} compared as speed level {level}")
    elif percentage is not None:
        notes.append(f"percentage {percentage} of a fan turned {state} not compared")
    if isinstance(oscillating, bool):
        values["oscillation_enabled"] = oscillating
        critic.append(f"oscillation_enabled == {oscillating}")
    if preset is not None:
        values["preset_mode"] = str(preset)
        critic.append(f"preset_mode == {preset}")
    background = frozenset()
    if state is not None and "speed_level" not in values:
        values["speed_level"] = (
            "high"  # the source's fans run at 100 % when turned on without a speed
        )
        background = frozenset({"speed_level"})
    return Mapped(values, critic, tuple(notes), background)


_MEDIA_STATES = {
    "playing": "playing",
    "paused": "paused",
    "idle": "idle",
    "on": "idle",
    "standby": "idle",
    "off": "off",
    "buffering": "playing",
}


def _state_in(
    table: Mapping[str, str], what: str, state: str | None
) -> tuple[dict[str, Any], list[str]]:
    """An HA state through ``table`` as values and their clause (none for no state)."""
    if state is None:
        return {}, []
    if state not in table:
        raise Unsupported(f"{what} state {state!r}")
    return {"state": table[state]}, [f"state == {table[state]}"]


def _media(state: str | None, attrs: dict[str, Any]) -> Mapped:
    values, critic = _state_in(_MEDIA_STATES, "media player", state)
    volume = attrs.pop("volume_level", None)
    if volume is not None:
        values["volume_level"] = _percent(volume, 1.0)
        critic.append(f"volume_level == {values['volume_level']}")
    muted = attrs.pop("is_volume_muted", None)
    if isinstance(muted, bool):
        values["volume_muted_enabled"] = muted
        critic.append(f"volume_muted_enabled == {muted}")
    track = attrs.pop("media_track", None)
    if track is not None:
        values["media_track"] = int(track)
        critic.append(f"media_track == {int(track)}")
    title = attrs.pop("media_title", None)
    if title:
        values["media_name"] = str(title)
        critic.append(f'media_name == "{title}"')
    source = attrs.pop("source", None)
    if source is not None:
        values["source"] = str(source).lower()
        critic.append(f"source == {values['source']}")
    _no_more("media player", attrs)
    return Mapped(values, critic)


_VACUUM_STATES = {
    "off": "docked",
    "docked": "docked",
    "cleaning": "cleaning",
    "on": "cleaning",
    "paused": "paused",
    "idle": "idle",
    "returning": "returning",
}


def _vacuum(state: str | None, attrs: dict[str, Any]) -> Mapped:
    values, critic = _state_in(_VACUUM_STATES, "vacuum", state)
    notes = (
        [f"vacuum state {state!r} is {values['state']!r} here"]
        if values and state != values["state"]
        else []
    )
    speed = attrs.pop("fan_speed", None)
    if speed is not None:
        values["suction"] = str(speed).lower()
        critic.append(f"suction == {values['suction']}")
    attrs.pop("battery_level", None)  # a reading, not a state to reach
    _no_more("vacuum", attrs)
    return Mapped(values, critic, tuple(notes))


def _switch(state: str | None, attrs: dict[str, Any]) -> Mapped:
    _no_more("switch", attrs)
    if state not in ("on", "off", None):
        raise Unsupported(f"switch state {state!r}")
    return Mapped({"state": state}, [f"state == {state}"]) if state else Mapped({}, [])


def _stand_in(
    attribute: str, read: Callable[[str], Any]
) -> Callable[[str | None, dict[str, Any]], Mapped]:
    """A read-only entity (a sensor): its state as the stand-in's one attribute. Nothing can
    change it, so an expectation on it is checked, never reached by a call."""

    def mapper(state: str | None, attrs: dict[str, Any]) -> Mapped:
        if state is None:
            return Mapped({}, [])
        value = read(state)
        return Mapped(
            {attribute: value},
            [f"{attribute} == {value!r}" if isinstance(value, str) else f"{attribute} == {value}"],
        )

    return mapper


def _todo(state: str | None, attrs: dict[str, Any]) -> Mapped:
    items = attrs.pop("todo_items", None)
    _no_more("to-do list", attrs)
    values: dict[str, Any] = {}
    critic: list[str] = []
    if isinstance(items, list):
        values["items"] = [
            {
                "summary": str(i.get("summary", i)) if isinstance(i, dict) else str(i),
                "status": "completed"
                if isinstance(i, dict) and i.get("status") == "completed"
                else "needs_action",
            }
            for i in items
        ]
        values["open_items"] = sum(i["status"] == "needs_action" for i in values["items"])
    if state is not None:
        try:
            count = int(state)
        except ValueError:
            raise Unsupported(f"to-do list state {state!r}") from None
        values.setdefault("open_items", count)
        critic.append(f"open_items == {count}")
    return Mapped(values, critic)


# ---------------------------------------------------------------------------------- narrowing
def _by_features(
    always_attrs: list[str],
    always_services: list[str],
    by_feature: Mapping[str, tuple[list[str], list[str]]],
    fixed: Mapping[str, Any] | None = None,
) -> Callable[[Mapping[str, Any]], Narrowing | None]:
    """A narrowing from an entity's supported features: what every entity of the domain has,
    plus the attributes and services each feature brings; None when the fixture names none."""

    def narrowing(attrs: Mapping[str, Any]) -> Narrowing | None:
        named = features(attrs)
        if named is None:
            return None
        kept_attrs, kept_services = list(always_attrs), list(always_services)
        for feature, (a, s) in by_feature.items():
            if feature in named:
                kept_attrs += a
                kept_services += s
        return Narrowing.of(kept_attrs, kept_services, fixed=fixed)

    return narrowing


@dataclass(frozen=True)
class Domain:
    """One HA domain in catalog terms (``type`` may depend on the entity's device class)."""

    type: Callable[[Mapping[str, Any]], str]
    state: Callable[[str | None, dict[str, Any]], Mapped]
    narrowing: Callable[[Mapping[str, Any]], Narrowing | None] = lambda attrs: None
    note: str = ""


def is_garage(attrs: Mapping[str, Any]) -> bool:
    return "garage" in str(attrs.get("device_class", "")).lower()


def device_class(attrs: Mapping[str, Any]) -> str | None:
    """The entity's HA device class by name (``media_player.MediaPlayerDeviceClass.SPEAKER`` ->
    ``speaker``); None when the fixture gives none. HA's intents match it: "pause the speaker"
    asks for a media player of class speaker."""
    raw = attrs.get("device_class")
    return str(raw).rsplit(".", 1)[-1].lower() or None if raw else None


_MEDIA = _by_features(
    ["state"],
    ["pause"],
    {
        "PLAY": ([], ["play"]),
        "PAUSE": ([], ["pause"]),
        "STOP": ([], ["stop"]),
        "TURN_ON": ([], ["turn_on"]),
        "TURN_OFF": ([], ["turn_off"]),
        "VOLUME_SET": (["volume_level"], ["set_volume"]),
        "VOLUME_STEP": (["volume_level"], ["volume_up", "volume_down"]),
        "VOLUME_MUTE": (["volume_muted_enabled"], ["mute", "unmute"]),
        "NEXT_TRACK": (["media_track"], ["next_track"]),
        "PREVIOUS_TRACK": (["media_track"], ["previous_track"]),
        "PLAY_MEDIA": (["media_name"], ["play"]),
        "SELECT_SOURCE": (["source"], ["select_source"]),
    },
)
_VACUUM = _by_features(
    ["state", "dock_countdown"],
    [],
    {
        "START": ([], ["start"]),
        "PAUSE": ([], ["pause"]),
        "STOP": ([], ["stop"]),
        "RETURN_HOME": ([], ["return_to_base"]),
        "FAN_SPEED": (["suction"], ["set_suction"]),
        "BATTERY": (["battery_level"], []),
    },
)
_FAN = _by_features(
    ["state"],
    ["turn_on", "turn_off", "toggle"],
    {
        "SET_SPEED": (["speed_level"], ["set_speed_level"]),
        "OSCILLATE": (["oscillation_enabled"], ["set_oscillation"]),
        "PRESET_MODE": (["preset_mode"], ["set_preset_mode"]),
    },
    fixed={"preset_mode": "normal"},
)
_POSITIONED = {
    "OPEN": ([], ["open"]),
    "CLOSE": ([], ["close"]),
    "SET_POSITION": ([], ["set_position"]),
}
_TODO = _by_features(
    ["items", "open_items"],
    [],
    {
        "CREATE_TODO_ITEM": ([], ["add_item"]),
        "DELETE_TODO_ITEM": ([], ["remove_item", "remove_completed_items"]),
        "UPDATE_TODO_ITEM": ([], ["complete_item", "update_item"]),
    },
)


def _fan_narrowing(attrs: Mapping[str, Any]) -> Narrowing | None:
    """A fan without speeds, oscillation or presets only switches; with presets, HA's list."""
    found = _FAN(attrs)
    named = features(attrs)
    if found is None and named is None and not attrs:
        return Narrowing.of(["state"], ["turn_on", "turn_off", "toggle"])
    if (
        found is not None
        and "PRESET_MODE" in (named or ())
        and isinstance(attrs.get("preset_modes"), list)
    ):
        return Narrowing.of(
            found.attributes,
            found.services,
            fixed=found.fixed,
            options={"preset_mode": [str(p) for p in attrs["preset_modes"]]},
        )
    return found


def _cover_narrowing(attrs: Mapping[str, Any]) -> Narrowing | None:
    if is_garage(attrs):
        return None
    return _by_features(["position"], [], _POSITIONED)(attrs)


DOMAINS: dict[str, Domain] = {
    "light": Domain(
        lambda attrs: _light_narrowing(attrs)[0], _light, lambda attrs: _light_narrowing(attrs)[1]
    ),
    "lock": Domain(
        lambda attrs: "smart_lock", _lock, lambda attrs: Narrowing.of(["state"], ["lock", "open"])
    ),
    "cover": Domain(
        lambda attrs: "garage_door" if is_garage(attrs) else "curtain",
        _positioned("cover"),
        _cover_narrowing,
        "a cover acts as the catalog curtain (position 0-100, 100 open)",
    ),
    "fan": Domain(
        lambda attrs: "smart_fan",
        _fan,
        _fan_narrowing,
        "speed as low/medium/high levels, not percent",
    ),
    "media_player": Domain(lambda attrs: "media_player", _media, _MEDIA),
    "vacuum": Domain(lambda attrs: "room_vacuum", _vacuum, _VACUUM),
    "valve": Domain(
        lambda attrs: "valve", _positioned("valve"), _by_features(["position"], [], _POSITIONED)
    ),
    "todo": Domain(lambda attrs: "todo_list", _todo, _TODO),
    "switch": Domain(lambda attrs: "smart_plug", _switch),
    # stand-ins: HA matches their names and areas (a binary sensor named "Smart Lock" makes
    # "unlock the smart lock" ambiguous there); their readings are not simulated
    "binary_sensor": Domain(
        lambda attrs: "binary_sensor",
        _stand_in("detected", lambda s: s == "on"),
        note="a stand-in for its name and area: its reading is not simulated",
    ),
    "sensor": Domain(
        lambda attrs: "sensor",
        _stand_in("reading", lambda s: s[:255]),
        note="a stand-in for its name and area: its reading is not simulated",
    ),
}
"""HA domain -> catalog; a domain not here (climate, weather...) is left out."""
STAND_INS = frozenset({"binary_sensor", "sensor"})
"""Domains imported only so that HA sees their entities' names and areas."""


# ------------------------------------------------------- climate (a live home's twin only)
_HVAC = {"heat": "heat", "cool": "cool", "auto": "auto", "heat_cool": "auto", "dry": "dry",
         "fan_only": "fan_only"}  # fmt: skip
"""HA's HVAC modes as the catalog air conditioner's ``ac_mode`` (heat_cool regulates both ways)."""
HEAT_COOL = "heat_cool"
"""The ``ac_mode`` of a thermostat that offers both ``auto`` and ``heat_cool``: an alias of the
catalog's ``auto`` (:mod:`smh_core.homeenv.narrowing`), so its twin names both of its modes that
regulate both ways, as HA does (HA's demo Ecobee; ``climate.turn_on`` lands it in heat_cool)."""


def _hvac_names(offered: Iterable[Any]) -> dict[str, str]:
    """HA's HVAC mode -> the twin's ``ac_mode`` for an entity offering ``offered`` modes."""
    names = dict(_HVAC)
    if {"auto", HEAT_COOL} <= {str(m) for m in offered}:
        names[HEAT_COOL] = HEAT_COOL
    return names


_AC_FAN_LEVELS = ("auto", "low", "medium", "high")
CLIMATE_DESCRIPTIVE = frozenset(
    {"hvac_modes", "fan_modes", "swing_modes", "swing_horizontal_modes", "preset_modes",
     "min_temp", "max_temp", "target_temp_step", "min_humidity", "max_humidity", "hvac_action",
     "temperature_unit"}
)  # fmt: skip
"""A climate entity's attributes that say what it can do (or what it is doing right now)."""


def _climate(state: str | None, attrs: dict[str, Any]) -> Mapped:
    """An HA climate entity as the catalog's air conditioner: off, or on in an ``ac_mode``,
    with its target and measured temperatures (°C) and fan level."""
    hvac = _hvac_names(attrs.get("hvac_modes") or [])
    for key in CLIMATE_DESCRIPTIVE:
        attrs.pop(key, None)
    target = attrs.pop("temperature", None)
    current = attrs.pop("current_temperature", None)
    fan = attrs.pop("fan_mode", None)
    _no_more("climate", attrs)
    values: dict[str, Any] = {}
    critic: list[str] = []
    if state == "off":
        values["state"] = "off"
    elif state in hvac:
        values.update(state="on", ac_mode=hvac[state])
        critic.append(f"ac_mode == {hvac[state]}")
    elif state is not None:
        raise Unsupported(f"climate state {state!r}")
    if "state" in values:
        critic.insert(0, f"state == {values['state']}")
    for name, value in (("target_temperature", target), ("current_temperature", current)):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            values[name] = float(value)
            if name == "target_temperature":
                critic.append(f"target_temperature == {float(value)}")
    if fan is not None:
        if str(fan) not in _AC_FAN_LEVELS:
            raise UnsupportedAttributes("climate", ["fan_mode"])
        values["fan_level"] = str(fan)
    return Mapped(values, critic)


def _climate_narrowing(attrs: Mapping[str, Any]) -> Narrowing | None:
    """What the entity offers: its HVAC modes, a target temperature, its fan levels."""
    named = features(attrs) or set()
    modes = [m for m in (attrs.get("hvac_modes") or []) if str(m) in _HVAC]
    hvac = _hvac_names(modes)
    kept = ["state", "current_temperature"]
    services = ["turn_on", "turn_off"]
    options: dict[str, list[Any]] = {}
    fixed: dict[str, Any] = {}
    aliases: dict[str, dict[Any, Any]] = {}
    if modes:
        kept.append("ac_mode")
        services.append("set_ac_mode")
        options["ac_mode"] = list(dict.fromkeys(hvac[str(m)] for m in modes))
        if HEAT_COOL in options["ac_mode"]:
            aliases["ac_mode"] = {HEAT_COOL: "auto"}
    else:
        fixed["ac_mode"] = "auto"
    if "TARGET_TEMPERATURE" in named:
        kept.append("target_temperature")
        services.append("set_target_temperature")
    fans = [str(f) for f in attrs.get("fan_modes") or []]
    if "FAN_MODE" in named and fans and set(fans) <= set(_AC_FAN_LEVELS):
        kept.append("fan_level")
        services.append("set_fan_level")
        options["fan_level"] = fans
    else:
        fixed["fan_level"] = "auto"
    fixed.update(swing_enabled=False, swing_position="middle")
    return Narrowing.of(kept, services, options=options, fixed=fixed, aliases=aliases)


LIVE_DOMAINS: dict[str, Domain] = {
    "climate": Domain(lambda attrs: "split_ac", _climate, _climate_narrowing),
}
"""Domains read only from a live home (its twin): home-assistant-datasets' imports keep to
:data:`DOMAINS`, so their homes and tasks stay as they were measured."""
LIVE_HOME_DOMAINS: dict[str, Domain] = {**DOMAINS, **LIVE_DOMAINS}
"""Every domain a live home's twin reads."""


def map_state(domain: str, state: Any, attrs: Mapping[str, Any], garage: bool = False) -> Mapped:
    """An HA state of ``domain`` in catalog terms (``garage``: a garage-door cover, open or
    closed as its own state). Descriptive attributes are ignored; ``Unsupported`` names what
    has no counterpart."""
    kept = {k: v for k, v in attrs.items() if k not in DESCRIPTIVE and domain not in STAND_INS}
    if domain == "light" and _white_only(attrs):
        for key in _DERIVED_COLOURS:  # HA's rendering of its white, not a colour it holds
            kept.pop(key, None)
    text = _value(state)
    if domain == "cover" and garage:
        return _garage(text, kept)
    return LIVE_HOME_DOMAINS[domain].state(text, kept)


def map_state_without(
    domain: str, state: Any, attrs: Mapping[str, Any], garage: bool = False
) -> tuple[Mapped, list[str]]:
    """As :func:`map_state`, leaving out the state attributes the catalog type has no place for
    (a media player's shuffle, a cover's tilt) instead of refusing the entity: ``(mapped, the
    attributes left out)``. For a twin of a real home, where a device that cannot report
    everything is still the device people ask for; an unreadable state still raises."""
    kept = dict(attrs)
    left_out: list[str] = []
    while True:
        try:
            return map_state(domain, state, kept, garage), left_out
        except UnsupportedAttributes as e:
            if not e.names or not set(e.names) <= kept.keys():
                raise
            left_out += e.names
            for name in e.names:
                kept.pop(name)


def todo_item(sentence: str) -> str:
    """The item a request adds to a list ("Put history homework on my list" -> history
    homework), or the whole request when its words do not say."""
    m = re.search(r"\b(?:put|add)\s+(.+?)\s+(?:on|to|onto)\b", sentence, flags=re.I)
    return m.group(1).strip() if m else sentence.strip()[:200]
