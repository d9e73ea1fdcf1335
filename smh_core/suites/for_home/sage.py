"""SAGE's task kinds written for one given home (``smh tasks generate --home --suite sage``): a
user's twin of their HA home, or any home file.

SAGE's own makers (:mod:`smh_core.suites.sage_suite`) are written around roles of its hand-built
homes (the TV on the credenza, the dishwasher, the nightstand lamp); a home of someone else has
none of them by name. Here each kind first finds its roles among the home's own devices, then
builds the task with the SAGE suite's goal builders and critic helpers, which take device ids:

* device resolution: two or more devices of one kind (a light, a fan...) in different rooms,
  the request naming one by its room ("the light in the bedroom"); the others must stay as they
  were, so "all of them" fails. A twin's devices carry no placement ("on the credenza"), so
  the room stands in for SAGE's descriptions; the request acts on it or asks about it;
* persistence: a device with a state to watch and one to act on ("when the kitchen light turns
  off, turn on the hall fan"), or one device to act on later ("turn off the fan in 20
  minutes"); SAGE's "when the dishwasher is done" needs an appliance's cycle, which a twin's
  devices do not simulate;
* personalization: a device with a setting a user has a preference for (a cover's position, a
  thermostat's target, a speaker's volume, a fan's speed, a light's brightness in percent), the
  preference in the user's memory with others of the home as distractors;
* intent resolution: a room with lights and a problem instead of a command ("it's too dark in
  the kitchen"): any of its lights on is a fix;
* command chaining: every device of one kind off and another device on in one request; and
  SAGE's "darken the entire house" (every light off and every cover closed), which is also an
  intent to resolve.

A task's ``category`` is its primary challenge and its ``subcategory`` every challenge it poses,
as in the shipped suite, one row per kind. Each task is validated as every generated task is
(the reference passes on the home, doing nothing fails); a kind the home cannot support is
listed with why. Same home, same seed, same bytes.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from smh_core.homeenv.model import Device, Home
from smh_core.task.home import HomeCache
from smh_core.task.model import Task

from ..common import validate
from ..sage_suite import (
    START,
    Made,
    all_of,
    answer_made,
    any_of,
    at_offset,
    automation_made,
    call_on,
    difficulty_of,
    execute_made,
    overrides_of,
    state_is,
    subcategory_of,
)
from .base import (
    HomeTasks,
    RealCheck,
    collect,
    first_draw,
    real_for,
    unknown_values,
    write_home,
)

NOUNS = {"light": "light", "fan": "fan", "switch": "switch", "ac": "air conditioner"}
"""Device category -> what a user calls one. Only these kinds are named by kind ("the fan in
the bedroom"): a category not listed has no word a request could use for all of its devices."""
ALSO_CALLED = {"light": ("lamp",), "switch": ("plug",), "air conditioner": ("ac",)}
"""Other words for a kind: a device of another kind named with one of them ("AC" for a plug)
may be taken for one of the kind."""
PLURALS = {"switch": "switches"}
TASK_FIELDS = ("overrides", "memory", "entry_room", "entry_device", "start_time")


@dataclass(frozen=True)
class Switchable:
    """A device that turns on and off (its ``state`` is ``on`` or ``off``), with what a request
    calls it: its kind, its own name (None when another device has the same one) and its room
    (None when the home places it nowhere)."""

    did: str
    noun: str
    name: str | None
    room: str | None


@dataclass(frozen=True)
class Setting:
    """A setting a user may have a preference for: a device's attribute, the one-argument
    service that sets it, the values a preference may name and how a sentence says one."""

    did: str
    name: str
    attribute: str
    service: str
    values: tuple[Any, ...]
    phrase: Callable[[Any], str]
    powered: bool
    """The device also turns on and off (it starts on, so the setting is what differs)."""


def _percent(what: str) -> Callable[[Any], str]:
    return lambda v: f"at {v}% {what}"


PREFERENCES: dict[str, tuple[tuple[Any, ...], Callable[[Any], str]]] = {
    "position": ((20, 30, 40, 60, 70, 80), lambda v: f"{v}% open"),
    "brightness": ((20, 30, 40, 60, 70, 80), _percent("brightness")),
    "volume_level": ((20, 30, 40, 60), _percent("volume")),
    "target_temperature": ((19.0, 20.0, 21.0, 22.0, 23.0, 24.0), lambda v: f"at {v:g} °C"),
    "color_temperature": ((2700, 3000, 4000, 5000), lambda v: f"at {v} K"),
    "speed_level": ((), lambda v: f"on {v} speed"),
}
"""Attribute -> the values a preference may name (options: the attribute's own) and its words.
A brightness is used only on a 0-100 scale: HA's 0-255 has no words a user says."""


class SageHome:
    """The roles SAGE's kinds need, found among one home's devices."""

    def __init__(self, home: Home) -> None:
        self.home = home
        self.rooms = {r.id: r.name for r in home.rooms}
        self.devices = {d.did: d for d in home.devices}
        counts: dict[str, int] = {}
        for d in home.devices:
            counts[d.name.casefold()] = counts.get(d.name.casefold(), 0) + 1
        rooms = {name.casefold() for name in self.rooms.values()}
        # a name of its own, not an entity id, not a room's ("the Kitchen" is the room)
        self.unique = {
            d.did
            for d in home.devices
            if counts[d.name.casefold()] == 1
            and "." not in d.name
            and d.name.strip()
            and d.name.casefold() not in rooms
        }
        self.switchables = [s for d in home.devices if (s := self._switchable(d))]
        self.settings = [s for d in home.devices for s in self._settings(d)]
        self.covers = [d.did for d in home.devices if self._closable(d)]

    def _switchable(self, device: Device) -> Switchable | None:
        noun = NOUNS.get(device.userdata.category)
        attrs = {a.name: a for a in device.attributes}
        services = {s.name for s in device.services}
        state = attrs.get("state")
        if noun is None or state is None or set(state.options or ()) != {"on", "off"}:
            return None
        if not {"turn_on", "turn_off"} <= services:
            return None
        room = device.userdata.room if device.userdata.room in self.rooms else None
        name = device.name if device.did in self.unique else None
        return Switchable(device.did, noun, name, room)

    def _settings(self, device: Device) -> list[Setting]:
        if device.did not in self.unique:
            return []
        attrs = {a.name: a for a in device.attributes}
        state = attrs.get("state")
        powered = state is not None and set(state.options or ()) == {"on", "off"}
        found = []
        for service in device.services:
            if len(service.arguments) != 1:
                continue
            arg = service.arguments[0]
            spec = attrs.get(arg.name)
            if arg.name not in PREFERENCES or spec is None:
                continue
            if not any(e.set == arg.name and e.arg == arg.name for e in service.effects):
                continue
            grid, phrase = PREFERENCES[arg.name]
            if arg.name == "speed_level":
                grid = tuple(spec.options or ())
            elif spec.range is None or (arg.name == "brightness" and spec.range[1] != 100):
                continue
            else:
                low, high = spec.range
                grid = tuple(v for v in grid if low <= v <= high)
            if len(grid) >= 2:
                found.append(
                    Setting(device.did, device.name, arg.name, service.name, grid, phrase, powered)
                )
        return found

    def _closable(self, device: Device) -> bool:
        """A cover that closes to position 0 (a garage door, open or closed, is not a blind)."""
        attrs = {a.name: a for a in device.attributes}
        position = attrs.get("position")
        close = next((s for s in device.services if s.name == "close"), None)
        return (
            device.userdata.category == "cover"
            and position is not None
            and tuple(position.range or ()) == (0, 100)
            and close is not None
            and any(e.set == "position" and e.value == 0 for e in close.effects)
        )

    def home_value(self, did: str, attribute: str) -> Any:
        """The value the home file gives a device's attribute (its default for the tasks)."""
        return next(a.value for a in self.devices[did].attributes if a.name == attribute)

    def of_noun(self, noun: str) -> list[Switchable]:
        return [s for s in self.switchables if s.noun == noun]

    def room_name(self, room: str) -> str:
        return self.rooms[room]

    def named_like(self, noun: str, exclude: set[str]) -> list[str]:
        """Devices of another kind whose name says ``noun`` or another word for it (a plug
        called "Decorative Lights", or "AC"): a careful agent may take "every light" to mean
        them too, so they may change."""
        said = (noun, *ALSO_CALLED.get(noun, ()))
        return sorted(
            d.did
            for d in self.home.devices
            if d.did not in exclude and any(_says(d.name, word) for word in said)
        )

    def named_for_room(self, noun: str, room: str) -> list[Switchable]:
        """Devices of ``noun`` in no room (or another) whose name holds ``room``'s name ("Living
        Room RGBWW Lights" placed nowhere): a request about the room may mean them too."""
        name = self.room_name(room)
        return [
            s
            for s in self.of_noun(noun)
            if s.room != room and _says(self.devices[s.did].name, name)
        ]


def _says(name: str, words: str) -> bool:
    """Whether ``name`` holds ``words`` as whole words (``AC`` in "AC", not in "Back Door")."""
    return re.search(rf"\b{re.escape(words.casefold())}s?\b", name.casefold()) is not None


def _flip(state: str) -> str:
    return "off" if state == "on" else "on"


def _plural(noun: str) -> str:
    return PLURALS.get(noun, noun + "s")


# ----------------------------------------------------------------------------- the kinds
def dr_by_room(h: SageHome, rng: random.Random) -> Made | str:
    """A device named by its room among others of its kind; the others must stay as they were."""
    targets = []
    for noun in sorted(set(NOUNS.values())):
        group = h.of_noun(noun)
        rooms = [s.room for s in group if s.room]
        if len(set(rooms)) < 2:
            continue
        targets += [
            (noun, s, group)
            for s in group
            if s.room and rooms.count(s.room) == 1 and not h.named_for_room(noun, s.room)
        ]
    if not targets:
        return "no two devices of one kind (light, fan, switch, air conditioner) in different rooms"
    noun, target, group = rng.choice(targets)
    others = [s for s in group if s.did != target.did]
    room = h.room_name(target.room or "")
    if rng.random() < 0.5:  # ask about it
        on = rng.random() < 0.5
        state = "on" if on else "off"
        start = {target.did: {"state": state}, **{s.did: {"state": _flip(state)} for s in others}}
        text = rng.choice(
            [
                f"Is the {noun} in the {room} on?",
                f"Quick question: is the {room} {noun} switched on right now?",
                f"Can you check whether the {noun} in the {room} is on?",
            ]
        )
        return answer_made(
            [{"kind": "yesno", "value": on}],
            f"{'Yes' if on else 'No'}, the {noun} in the {room} is {state}.",
            text=text,
            overrides=overrides_of(start),
        )
    want = rng.choice(["on", "off"])
    before = _flip(want)
    text = rng.choice(
        [
            f"Turn {want} the {noun} in the {room}.",
            f"Switch the {room} {noun} {want}, please.",
            f"Can you put the {noun} in the {room} {want}?",
        ]
    )
    critic = all_of(
        state_is(target.did, "state", want), *[state_is(s.did, "state", before) for s in others]
    )
    return execute_made(
        critic,
        [call_on(target.did, f"turn_{want}")],
        f"I turned the {noun} in the {room} {want}.",
        text=text,
        overrides=overrides_of({s.did: {"state": before} for s in group}),
    )


def ps_rule_or_later(h: SageHome, rng: random.Random) -> Made | str:
    """A standing rule (one device's change acts on another) or an action some minutes later."""
    named = [s for s in h.switchables if s.name]
    if not named:
        return "no device that turns on and off has a name of its own"
    if len(named) >= 2 and rng.random() < 0.5:
        watched, acted = rng.sample(named, 2)
        to, want = rng.choice(["on", "off"]), rng.choice(["on", "off"])
        text = rng.choice(
            [
                f"When the {watched.name} turns {to}, turn {want} the {acted.name}.",
                f"Whenever the {watched.name} is switched {to}, switch the {acted.name} {want}.",
                f"From now on, if the {watched.name} goes {to}, turn the {acted.name} {want}.",
            ]
        )
        trigger = {"kind": "state", "did": watched.did, "locator": "state", "to": to}
        return automation_made(
            trigger,
            state_is(acted.did, "state", want),
            [call_on(acted.did, f"turn_{want}")],
            text,
            overrides=overrides_of(
                {watched.did: {"state": _flip(to)}, acted.did: {"state": _flip(want)}}
            ),
        )
    target = rng.choice(named)
    minutes = rng.choice([10, 15, 20, 30])
    want = rng.choice(["on", "off"])
    text = rng.choice(
        [
            f"Turn {want} the {target.name} in {minutes} minutes.",
            f"In {minutes} minutes, switch the {target.name} {want}.",
            f"Give it {minutes} minutes and then turn the {target.name} {want}.",
        ]
    )
    return {
        "text": text,
        "overrides": overrides_of({target.did: {"state": _flip(want)}}),
        "goal": {
            "kind": "timed",
            "checkpoints": [
                {
                    "at_seconds": minutes * 60,
                    "tolerance_seconds": 30,
                    "critic": state_is(target.did, "state", want),
                }
            ],
        },
        "reference": {
            "mode": "execute",
            "response": f"The {target.name} goes {want} in {minutes} minutes.",
            "schedules": [
                {"at": at_offset(minutes * 60), "actions": [call_on(target.did, f"turn_{want}")]}
            ],
        },
    }


def pe_usual_setting(h: SageHome, rng: random.Random) -> Made | str:
    """A setting put back to the user's stored preference, other preferences as distractors."""
    if not h.settings:
        return (
            "no named device has a setting to prefer (a position, target temperature, volume, "
            "fan speed, or a brightness in percent)"
        )
    setting = rng.choice(h.settings)
    current = h.home_value(setting.did, setting.attribute)
    usual = rng.choice([v for v in setting.values if v != current] or list(setting.values))
    start = rng.choice([v for v in setting.values if v != usual])
    memory = [f"The user likes the {setting.name} {setting.phrase(usual)}."]
    for other in rng.sample(h.settings, min(3, len(h.settings))):
        if other.did != setting.did and len(memory) < 3:
            memory.append(
                f"The user likes the {other.name} {other.phrase(rng.choice(other.values))}."
            )
    rng.shuffle(memory)
    text = rng.choice(
        [
            f"Set the {setting.name} the way I like it.",
            f"Put the {setting.name} back where I usually have it.",
            f"The {setting.name} isn't how I like it, fix it please.",
        ]
    )
    values: dict[str, Any] = {setting.attribute: start}
    if setting.powered:
        values["state"] = "on"
    return execute_made(
        state_is(setting.did, setting.attribute, usual),
        [call_on(setting.did, setting.service, **{setting.attribute: usual})],
        f"The {setting.name} is {setting.phrase(usual)}, as you like it.",
        text=text,
        memory=memory,
        overrides=overrides_of({setting.did: values}),
    )


def ir_too_dark(h: SageHome, rng: random.Random) -> Made | str:
    """A problem, not a command: any light of the room on fixes it; its covers may move."""
    by_room: dict[str, list[Switchable]] = {}
    for s in h.of_noun("light"):
        if s.room:
            by_room.setdefault(s.room, []).append(s)
    if not by_room:
        return "no light in a room"
    room_id = rng.choice(sorted(by_room))
    lights = by_room[room_id] + h.named_for_room("light", room_id)
    room = h.room_name(room_id)
    text = rng.choice(
        [
            f"It's too dark in the {room}.",
            f"I can barely see anything in the {room}.",
            f"The {room} is way too dark.",
        ]
    )
    covers = [c for c in h.covers if h.devices[c].userdata.room == room_id]
    return execute_made(
        any_of(*[state_is(s.did, "state", "on") for s in lights]),
        [call_on(lights[0].did, "turn_on")],
        f"I turned on the light in the {room}.",
        text=text,
        may_change=covers,
        overrides=overrides_of({s.did: {"state": "off"} for s in lights}),
    )


def cc_all_off_one_on(h: SageHome, rng: random.Random) -> Made | str:
    """Every device of one kind off and one device of another kind on, in one request."""
    fits = []
    for noun in sorted(set(NOUNS.values())):
        group = h.of_noun(noun)
        if len(group) < 2:
            continue
        confusable = set(h.named_like(noun, {s.did for s in group}))
        others = [s for s in h.switchables if s.noun != noun and s.name and s.did not in confusable]
        fits += [(noun, group, other, sorted(confusable)) for other in others]
    if not fits:
        return "no two devices of one kind and a named device of another"
    noun, group, other, confusable = rng.choice(fits)
    nouns = _plural(noun)
    text = rng.choice(
        [
            f"Turn off all the {nouns} and switch on the {other.name}.",
            f"Turn every {noun} off, then switch on the {other.name}.",
            f"Kill all the {nouns} and put the {other.name} on.",
        ]
    )
    critic = all_of(
        *[state_is(s.did, "state", "off") for s in group], state_is(other.did, "state", "on")
    )
    actions = [call_on(s.did, "turn_off") for s in group] + [call_on(other.did, "turn_on")]
    return execute_made(
        critic,
        actions,
        text=text,
        may_change=confusable,
        overrides=overrides_of(
            {**{s.did: {"state": "on"} for s in group}, other.did: {"state": "off"}}
        ),
    )


def cc_darken_house(h: SageHome, rng: random.Random) -> Made | str:
    """SAGE's "darken the entire house": every light off and every cover closed."""
    lights = h.of_noun("light")
    if not lights or len(lights) + len(h.covers) < 2:
        return "fewer than two lights and covers to darken the house with"
    lit = rng.sample(lights, max(1, (len(lights) + 1) // 2))
    text = rng.choice(
        ["Darken the entire house.", "Make the whole house dark.", "Black out the house, please."]
    )
    critic = all_of(
        *[state_is(s.did, "state", "off") for s in lights],
        *[state_is(c, "position", 0) for c in h.covers],
    )
    actions = [call_on(s.did, "turn_off") for s in lit] + [call_on(c, "close") for c in h.covers]
    confusable = h.named_like("light", {s.did for s in lights})
    return execute_made(
        critic,
        actions,
        text=text,
        may_change=confusable,
        overrides=overrides_of(
            {
                **{s.did: {"state": "on" if s in lit else "off"} for s in lights},
                **{c: {"position": 100} for c in h.covers},
            }
        ),
    )


Maker = Callable[[SageHome, random.Random], "Made | str"]
KINDS: dict[str, tuple[tuple[str, ...], Maker]] = {
    "by-room": (("device_resolution",), dr_by_room),
    "rule-or-later": (("persistence",), ps_rule_or_later),
    "usual-setting": (("personalization",), pe_usual_setting),
    "too-dark": (("intent_resolution",), ir_too_dark),
    "all-off-one-on": (("command_chaining",), cc_all_off_one_on),
    "darken-house": (("command_chaining", "intent_resolution"), cc_darken_house),
}
"""Kind -> (challenge tags, primary first; maker). Each kind's tags are its own, so the
subcategory (every challenge, as the shipped suite writes it) names one row of the report."""


def rows() -> dict[str, str]:
    """Subcategory -> category, in :data:`KINDS` order."""
    return {subcategory_of(tags): tags[0] for tags, _ in KINDS.values()}


def generate_sage(
    home: Home,
    out: Path,
    stem: str,
    seed: int = 0,
    per_subcategory: int = 10,
    *,
    real: RealCheck | None = None,
) -> HomeTasks:
    """SAGE's kinds on ``home``, ``per_subcategory`` tasks each where the home allows; the home
    is written to ``out/homes/<stem>.json`` (what the tasks name). ``real``: for a twin, what
    its HA can run (:func:`.base.real_for`)."""
    real = real_for(home, real)
    home_file = write_home(home, out, stem)
    cache = HomeCache(out)
    unknown = unknown_values(home)
    roles = SageHome(home)
    by_row = {subcategory_of(tags): (kind, tags, maker) for kind, (tags, maker) in KINDS.items()}

    def make(sub: str, idx: int) -> tuple[Task | None, str]:
        kind, tags, maker = by_row[sub]

        def draw(rng: random.Random) -> Task | str:
            made = maker(roles, rng)
            if isinstance(made, str):
                return made
            goal = made["goal"]
            if made.get("may_change"):
                goal = {**goal, "may_change": made["may_change"]}
            return Task.model_validate(
                {
                    "id": f"{stem}-sage-{kind}-{idx:03d}",
                    "suite": "sage",
                    "category": tags[0],
                    "subcategory": sub,
                    "difficulty": difficulty_of(tags),
                    "home": {"file": home_file},
                    "start_time": START,
                    "turns": [{"text": made["text"]}],
                    "goal": goal,
                    "reference": made["reference"],
                    **{k: made[k] for k in TASK_FIELDS if k in made},
                }
            )

        rng = random.Random(f"home:{stem}:{seed}:sage:{sub}:{idx}")
        return first_draw(rng, draw, home, unknown, "no device of this home fits", real)

    result = HomeTasks([], per_subcategory, suite="sage", title="SAGE", subcategories=rows())
    return collect(result, rows(), make, lambda task: validate([task], cache))
