"""One Home Assistant entity (its id, name, state and attributes) as a catalog device, narrowed
to what the entity supports.

Both ways SMH reads an HA home go through here: home-assistant-datasets' fixtures
(:mod:`.ha_datasets`) and a live or stored HA home made into its simulated twin
(:mod:`smh_core.ha.twin`). One conversion means a twin's light is the same device an imported
task's light is, and a fix to either reaches both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from sim_devices.catalog import instantiate, load_catalog
from smh_core.homeenv.colours import space_of_modes
from smh_core.homeenv.model import Device, Effect
from smh_core.homeenv.narrowing import Narrowing, alias_meanings, narrow

from .ha_entities import (
    DOMAINS,
    FEATURE_BITS,
    LIVE_HOME_DOMAINS,
    RANGES,
    Unsupported,
    device_class,
    is_garage,
    map_state,
    map_state_without,
    named_features,
    unsimulated_features,
)
from .report import ImportReport


@dataclass(frozen=True)
class ImportedEntity:
    """What an HA entity became: its domain, whether it is a garage door, and the catalog
    attributes the imported (narrowed) device has."""

    domain: str
    garage: bool
    attributes: frozenset[str]


def merge_capabilities(attrs: dict[str, Any], more: dict[str, list[Any]]) -> dict[str, Any]:
    """``attrs`` with the capability lists of ``more`` added (a device supports what either says)."""
    for key, values in more.items():
        mine = attrs.get(key)
        if isinstance(mine, list) or mine is None:
            attrs[key] = list(dict.fromkeys([*(mine or []), *values]))
    return attrs


def own_ranges(domain: str, attrs: dict[str, Any]) -> dict[str, tuple[float, float]] | None:
    """The ranges an entity states for itself, over the domain's own (:data:`RANGES`): a
    light's colour temperatures from its ``min_/max_color_temp_kelvin``, a climate entity's
    target temperatures from its ``min_/max_temp`` and its measured temperature where it reads
    outside the catalog's -10 to 50 °C (a heater outdoors in winter); a media player that
    counts its tracks from 0 (synthetic-home's report ``media_track: 0`` on the first track)
    keeps track 0. Each of these the catalog's own range refused, losing the whole device."""
    ranges = dict(RANGES.get(domain) or {})

    def pair(low_key: str, high_key: str) -> list[float]:
        values = [attrs.get(low_key), attrs.get(high_key)]
        numbers = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
        return numbers if len(numbers) == 2 and numbers[0] < numbers[1] else []

    kelvin = pair("min_color_temp_kelvin", "max_color_temp_kelvin")
    if domain == "light" and kelvin and kelvin[0] > 0:
        ranges["color_temperature"] = (int(kelvin[0]), int(kelvin[1]))
    if domain == "climate" and (limits := pair("min_temp", "max_temp")):
        ranges["target_temperature"] = (float(limits[0]), float(limits[1]))
    current = attrs.get("current_temperature")
    if domain == "climate" and isinstance(current, (int, float)) and not isinstance(current, bool):
        low, high = load_catalog()["split_ac"].attribute_specs()["current_temperature"].range
        if not low <= current <= high:
            ranges["current_temperature"] = (
                min(low, math.floor(current)),
                max(high, math.ceil(current)),
            )
    track = attrs.get("media_track")
    if domain == "media_player" and track == 0 and not isinstance(track, bool):
        spec = load_catalog()["media_player"].attribute_specs()["media_track"]
        ranges["media_track"] = (0, int(spec.range[1]))
    return ranges or None


def offered_defaults(
    type_name: str, narrowing: Narrowing, values: dict[str, Any]
) -> dict[str, Any]:
    """A value for each narrowed option attribute the entity does not state whose catalog
    default it does not offer: its first offered option. An off heater that only heats states
    no mode (HA shows ``off``); the catalog's air conditioner would start it in ``cool``, which
    the narrowing to ``heat`` refuses, losing the device."""
    specs = load_catalog()[type_name].attribute_specs()
    out = {}
    for loc, offered in narrowing.options.items():
        spec = specs.get(loc)
        if loc not in values and spec is not None and offered and spec.value not in offered:
            out[loc] = offered[0]
    return out


def mode_turns_on(device: Device) -> Device:
    """``device`` (an HA climate entity's air conditioner) with its mode change turning it on.
    An HA climate entity's HVAC mode is its state: ``climate.set_hvac_mode`` on an off unit
    turns it on, and HA has no "off, in auto mode". The catalog's air conditioner keeps its power
    apart from its mode, so without this the twin stayed off where the real unit came on."""
    services = [
        s.model_copy(update={"effects": [*s.effects, Effect(set="state", value="on")]})
        if s.name == "set_ac_mode" and not any(e.set == "state" for e in s.effects)
        else s
        for s in device.services
    ]
    return device.model_copy(update={"services": services})


TENTHS = 0.1
"""The grid a climate entity's temperatures are kept on when the catalog's is coarser than what
it reports (HA shows tenths of a degree)."""


def own_steps(domain: str, attrs: dict[str, Any]) -> dict[str, float] | None:
    """The grid of an entity's numbers where the catalog's would refuse what it reports: a
    climate entity reading 21.3 °C or set to 20.3 °C is kept in tenths (the catalog's air
    conditioner keeps half degrees, and its twin was lost); one on half degrees keeps the
    catalog's grid, so its tasks are as before."""
    if domain != "climate":
        return None
    specs = load_catalog()["split_ac"].attribute_specs()
    steps = {}
    for loc, key in (
        ("target_temperature", "temperature"),
        ("current_temperature", "current_temperature"),
    ):
        value, step = attrs.get(key), specs[loc].precision
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if number and step and not math.isclose(value / step, round(value / step), abs_tol=1e-9):
            steps[loc] = TENTHS
    return steps or None


def own_colours(domain: str, attrs: dict[str, Any]) -> dict[str, str] | None:
    """How a light's colour is held, from its HA colour modes (:func:`space_of_modes`): an hs
    or xy light keeps a colour at full value, an rgb, rgbw or rgbww one as given. ``None`` for
    a light without colour and for every other domain."""
    space = space_of_modes(attrs.get("supported_color_modes")) if domain == "light" else None
    return {"color": space} if space else None


def device_from_entity(
    name: str,
    ent: dict[str, Any],
    area: str | None,
    report: ImportReport,
    more: dict[str, list[Any]] | None = None,
    live: bool = False,
) -> tuple[Device, ImportedEntity] | None:
    """One entity (``id``, ``name``, ``state``, ``attributes``) as a catalog device in room
    ``area``, narrowed to what the entity supports (``more``: capabilities declared elsewhere,
    such as a test's setup). ``live``: the entity of a real home, kept as it is: its own ranges
    (a light's colour temperatures) instead of the catalog's, colours held as its colour modes
    hold them (:func:`own_colours`), and state attributes the catalog
    type has no place for left out and noted as an approximation, instead of the entity. None, with the reason in ``report`` under ``name: id`` (the id
    alone for no name), when the
    catalog has nothing that acts like it."""
    eid = str(ent["id"])
    item = f"{name}: {eid}" if name else eid
    domain = eid.split(".", 1)[0]
    domains = LIVE_HOME_DOMAINS if live else DOMAINS
    if domain not in domains:
        report.skip(item, f"no catalog type acts like HA's {domain} entities")
        return None
    stated = ent.get("attributes") or {}
    if live and "supported_features" not in stated and domain in FEATURE_BITS:
        # HA states supported_features whenever an entity has any; a live entity without it has
        # none: HA reads it as 0 and refuses it every service that needs a feature (a to-do list
        # of synthetic-home's that offers no item services must not get a twin that adds items)
        stated = {**stated, "supported_features": 0}
    attrs = merge_capabilities(named_features(domain, stated), more or {})
    kind = domains[domain]
    garage = domain == "cover" and is_garage(attrs)
    left_out: list[str] = []
    try:
        if live:
            mapped, left_out = map_state_without(domain, ent.get("state"), attrs, garage)
        else:
            mapped = map_state(domain, ent.get("state"), attrs, garage)
    except Unsupported as e:
        report.skip(item, f"initial {e} not modelled")
        return None
    narrowing = kind.narrowing(attrs)
    type_name = kind.type(attrs)
    label = str(ent.get("name") or eid)
    values = mapped.values
    guessed: dict[str, Any] = {}
    if narrowing is not None:
        values = {k: v for k, v in values.items() if k in narrowing.attributes}
        guessed = offered_defaults(type_name, narrowing, values)
    try:
        built = {**values, **guessed}
        device = instantiate(
            type_name,
            did=eid,
            room=area,
            name=label,
            values=(alias_meanings(narrowing, built) if narrowing else built) or None,
            ranges=own_ranges(domain, attrs) if live else RANGES.get(domain),
            steps=own_steps(domain, attrs) if live else None,
            colours=own_colours(domain, attrs) if live and type_name == "color_light" else None,
        )
        if narrowing is not None:  # with the values the type could not take (an alias)
            aliased = {k: v for k, v in built.items() if k in narrowing.aliases}
            device = narrow(device, narrowing, aliased)
        if live and domain == "climate":
            device = mode_turns_on(device)
    except ValueError as e:
        report.skip(item, f"cannot be built as a {type_name}: {e}")
        return None
    cls = device_class(attrs)
    if cls and cls not in device.userdata.tags:
        device.userdata.tags.insert(0, cls)
    device.userdata.device_class = (
        cls or ""
    )  # HA sees the source's class, or none where it has none
    # what the source does not state, its HA entity does not report (the main state aside: HA
    # needs one to target the entity); a live entity's background values (an off fan's speed)
    # are the importer's guesses, which a twin does not know either
    stated = {k for k in values if not (live and k in mapped.background)}
    device.userdata.unstated = sorted(
        loc for loc, _ in device.attributes_by_locator() if loc not in stated and loc != "state"
    )
    if kind.note and not garage:
        report.approximate(item, kind.note)
    if left_out:
        report.approximate(item, f"not simulated, so not reported: {', '.join(left_out)}")
    lacking = unsimulated_features(domain, attrs) if live else []
    if lacking:
        report.approximate(item, f"features not simulated: {', '.join(lacking)}")
    kept = frozenset(loc for loc, _ in device.attributes_by_locator())
    return device, ImportedEntity(domain, garage, kept)
