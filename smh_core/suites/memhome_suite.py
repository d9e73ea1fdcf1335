"""The ``memhome`` suite: MemHome's memory decisions on generated homes, 84 tasks per subcategory.

Each task is one user turn with the user's memory bank (``Task.memory``, the target entry among
unrelated ones) and a :class:`~smh_core.task.model.MemoryGoal`: the decision's prefix
(``memory: ...``, ``memory: delete ...``, ``rewrite: ...``, ``no-rewrite``), the bank after the
turn and, when a command is executed, the device outcome.

* ``add``: an explicit "remember ..." (or "remember that setting", with the setting in the
  previous turn) stores one new device preference; nothing is executed now.
* ``update``: a changed preference replaces the stored one for the same scene and device.
* ``delete``: "forget my ... preference" removes exactly that entry.
* ``use``: a scene phrase ("movie night, the usual") is rewritten with the stored preference and
  executed; some memories name a device without its room, to be scoped by the entry room.
* ``no_memory``: nothing may be stored or rewritten: personal identifiers and non-device facts
  (doing nothing is correct), one-off requests ("just for tonight") and explicit commands the
  memory does not cover (executed as said).

Preferences, device names and values come from the home; wording has several phrasings per
intent, with colloquial and noisy variants. Every task is validated at generation: the
reference passes, and doing nothing fails unless doing nothing is correct.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from smh_core.bench.verifier import bank_problems
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import AttrType, Home
from smh_core.homeenv.samples import valid_value
from smh_core.languages.wording import FILLERS, attr_words, value_words
from smh_core.memory.decision import bank_after
from smh_core.task.model import Task

from .common import control_target, device_critic, draw_on_homes, validate

SUBCATEGORIES = ("add", "update", "delete", "use", "no_memory")
SPLIT = (("simple", 30), ("medium", 30), ("complex", 24))

SCENES = [
    "movie night",
    "bedtime",
    "reading time",
    "wake-up time",
    "dinner time",
    "workout time",
    "work time",
    "nap time",
    "game night",
    "date night",
    "cleaning day",
    "meditation time",
    "family breakfast",
    "study time",
    "party night",
    "rainy days",
]

Made = dict[str, Any]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class _Pref:
    """A device preference: the control target, how it is said in memory and as a command."""

    def __init__(self, engine: HomeEngine, target: dict[str, Any], name: str | None = None) -> None:
        self.target = target
        self.did = target["did"]
        self.name = name or engine.device(self.did).name
        self.critic = device_critic(self.did, target["critic"])
        self.actions = target["actions"]
        if "switch_on" in target:
            self.value = "on" if target["switch_on"] else "off"
            self.desc = f"the {self.name} {self.value}"
            self.command = f"Turn {self.value} the {self.name}."
            return
        loc, value = target["loc"], target["value"]
        attr = attr_words(loc)
        if isinstance(value, bool):
            self.value = "on" if value else "off"
            self.desc = f"the {self.name}'s {attr} {self.value}"
            self.command = f"Turn {self.value} the {attr} of the {self.name}."
            return
        self.value = f"{value:g}" if isinstance(value, float) else str(value)
        said = value_words(loc, value, target["unit"])
        self.desc = f"the {self.name} {attr} at {said}"
        self.command = f"Set the {self.name} {attr} to {said}."

    @property
    def key_terms(self) -> list[str]:
        return [self.name, self.value]


_ENTRY = [
    lambda s, d: f"For {s}, I like {d}.",
    lambda s, d: f"During {s} I prefer {d}.",
    lambda s, d: f"{_cap(s)}: {d}.",
]


def _entry(scene: str, desc: str, style: int = 0) -> str:
    return _ENTRY[style](scene, desc)


def _target(engine: HomeEngine, rng: random.Random, values: bool = False) -> dict[str, Any] | None:
    """A control target whose value is worth remembering (no free text or colour codes); with
    ``values`` only settings with a value (not plain on/off)."""
    t = control_target(engine, rng)
    if t is None or (values and "switch_on" in t):
        return None
    if "switch_on" not in t:
        spec = dict(engine.device(t["did"]).attributes_by_locator())[t["loc"]]
        if spec.type == AttrType.HEX or (spec.type == AttrType.STR and not spec.options):
            return None  # colour codes and free text are not preferences people say aloud
    return t


def _decoys(
    engine: HomeEngine, rng: random.Random, scenes: list[str], avoid: set[str], n: int
) -> list[str]:
    """Unrelated stored preferences (other scenes, other devices)."""
    out = []
    for scene in scenes[:n]:
        t = _target(engine, rng)
        if t is None or t["did"] in avoid:
            continue
        avoid.add(t["did"])
        out.append(_entry(scene, _Pref(engine, t).desc, rng.randrange(len(_ENTRY))))
    return out


def _noisy(text: str, rng: random.Random) -> str:
    filler = rng.choice(FILLERS)
    return rng.choice(
        [
            f"{_cap(filler)}, {text[:1].lower()}{text[1:]}",
            f"{_cap(filler)}... {filler}, {text[:1].lower()}{text[1:]}",
            f"{text.rstrip('.!?')}, {filler}, yeah.",
        ]
    )


def _style(rng: random.Random, texts: list[str], colloquial: list[str]) -> str:
    roll = rng.random()
    if roll < 0.5:
        return rng.choice(texts)
    if roll < 0.8:
        return rng.choice(colloquial)
    return _noisy(rng.choice(texts + colloquial), rng)


def _memory_goal(
    prefix: str, bank: list[str], key_terms: list[str] | None = None, then: str | None = None
) -> dict[str, Any]:
    goal: dict[str, Any] = {"kind": "memory", "prefix": prefix, "bank_after": bank}
    if key_terms:
        goal["key_terms"] = key_terms
    if then is not None:
        goal["then"] = {"kind": "execute", "critic": then}
    return goal


def _scenes(rng: random.Random) -> list[str]:
    scenes = list(SCENES)
    rng.shuffle(scenes)
    return scenes


def _preference(
    engine: HomeEngine, rng: random.Random
) -> tuple[dict[str, Any], _Pref, str, list[str]] | None:
    """A control target the user states a preference about, the preference, its scene and the
    other scenes in drawn order (for decoy memories); None when the home has no fit."""
    t = _target(engine, rng)
    if t is None:
        return None
    pref = _Pref(engine, t)
    scene, *others = _scenes(rng)
    return t, pref, scene, others


def add_task(engine: HomeEngine, rng: random.Random) -> Made | None:
    drawn = _preference(engine, rng)
    if drawn is None:
        return None
    t, pref, scene, others = drawn
    memory = _decoys(engine, rng, others, {pref.did}, rng.randint(0, 3))
    content = _entry(scene, pref.desc)
    made: Made = {}
    if "switch_on" not in t and rng.random() < 0.3:  # the setting lives in the previous turn
        made["history"] = [
            {"role": "user", "content": pref.command},
            {"role": "assistant", "content": f"Done, {pref.desc[4:]} now."},
        ]
        made["overrides"] = [{"did": pref.did, "values": dict(t["critic"])}]
        text = _style(
            rng,
            [
                f"Remember that setting for {scene}.",
                f"Perfect. Please remember that for {scene} from now on.",
                f"Keep that in mind for {scene}, that's how I like it.",
            ],
            [
                f"Nice, that's exactly what I want every {scene}, remember it!",
                f"Yeah, note that down for {scene}.",
            ],
        )
    else:
        text = _style(
            rng,
            [
                f"Remember that for {scene} I like {pref.desc}.",
                f"From now on, whenever it's {scene}, I want {pref.desc}.",
                f"Please keep in mind: for {scene}, {pref.desc}.",
                f"Can you remember this for me? For {scene} I want {pref.desc}.",
            ],
            [
                f"Hey, note that I always want {pref.desc} for {scene}, okay?",
                f"Remember this one: {scene} means {pref.desc}.",
                f"Just so you know for the future, every {scene} I like {pref.desc}. Remember that.",
            ],
        )
    return made | {
        "text": text,
        "memory": memory,
        "goal": _memory_goal("memory", memory + [content], [scene, *pref.key_terms]),
        "reference": {
            "mode": "answer",
            "response": f"Okay, I'll remember: {content}",
            "memory_output": f"memory: {content}",
        },
    }


def update_task(engine: HomeEngine, rng: random.Random) -> Made | None:
    t = _target(engine, rng, values=True)
    if t is None:
        return None
    spec = dict(engine.device(t["did"]).attributes_by_locator())[t["loc"]]
    if spec.type in (AttrType.BOOL,):
        return None
    old_value = next(
        (v for v in (valid_value(spec, rng) for _ in range(10)) if v != t["value"]), None
    )
    if old_value is None:
        return None
    new, old = _Pref(engine, t), _Pref(engine, dict(t, value=old_value))
    scene, *others = _scenes(rng)
    style = rng.randrange(len(_ENTRY))
    memory = _decoys(engine, rng, others, {new.did}, rng.randint(0, 3))
    memory.insert(rng.randint(0, len(memory)), _entry(scene, old.desc, style))
    content = _entry(scene, new.desc, style)
    said_old, said_new = old.desc.rsplit(" at ", 1)[-1], new.desc.rsplit(" at ", 1)[-1]
    text = _style(
        rng,
        [
            f"Actually, for {scene} I'd rather have {new.desc} from now on.",
            f"Change my {scene} setting: {said_new} instead of {said_old} for the {new.name}.",
            f"Update what you remember about {scene}: I now want {new.desc}.",
            f"Please remember a new {scene} preference: {new.desc}, not {said_old} anymore.",
        ],
        [
            f"{_cap(said_old)} is not right for {scene} anymore, make it {said_new} next time and remember that.",
            f"I changed my mind about {scene}. Remember {new.desc} instead.",
            f"Hey, {scene} update: from now on the {new.name} goes to {said_new}.",
        ],
    )
    bank = [content if m == _entry(scene, old.desc, style) else m for m in memory]
    return {
        "text": text,
        "memory": memory,
        "goal": _memory_goal("memory", bank, [*new.key_terms]),
        "reference": {
            "mode": "answer",
            "response": f"Updated: {content}",
            "memory_output": f"memory: {content}",
        },
    }


def delete_task(engine: HomeEngine, rng: random.Random) -> Made | None:
    drawn = _preference(engine, rng)
    if drawn is None:
        return None
    t, pref, scene, others = drawn
    target = _entry(scene, pref.desc, rng.randrange(len(_ENTRY)))
    memory = _decoys(engine, rng, others, {pref.did}, rng.randint(1, 3))
    memory.insert(rng.randint(0, len(memory)), target)
    text = _style(
        rng,
        [
            f"Forget what I told you about {scene}.",
            f"Please delete my {scene} preference.",
            f"I don't need the {pref.name} setting for {scene} anymore, remove it from memory.",
            f"You can stop remembering that I like {pref.desc} for {scene}.",
        ],
        [
            f"Never mind the {scene} thing with the {pref.name}, erase it.",
            f"Scrap my {scene} setting, I don't want it anymore.",
            f"That {scene} rule? Forget it, forget it.",
        ],
    )
    return {
        "text": text,
        "memory": memory,
        "goal": _memory_goal("memory", [m for m in memory if m != target]),
        "reference": {
            "mode": "answer",
            "response": f"Forgotten: {target}",
            "memory_output": f"memory: delete {target}",
        },
    }


def _scoped(engine: HomeEngine, pref: _Pref) -> tuple[str, str] | None:
    """``(short name, room name)`` when the device's name without its room also names devices
    in other rooms and no other one in its own room (the memory can leave the room out)."""
    device = engine.device(pref.did)
    room = engine.room(device.userdata.room).name
    if not pref.name.startswith(room + " "):
        return None
    short = pref.name[len(room) + 1 :]
    same = [d for d in engine.devices() if d["name"].endswith(" " + short)]
    if len(same) < 2 or sum(d["room"] == device.userdata.room for d in same) != 1:
        return None
    return short, room


def use_task(engine: HomeEngine, rng: random.Random) -> Made | None:
    drawn = _preference(engine, rng)
    if drawn is None:
        return None
    t, pref, scene, others = drawn
    made: Made = {}
    stored = pref
    scope = _scoped(engine, pref) if rng.random() < 0.5 else None
    if scope is not None:  # "the downlight" in memory, the entry room says which one
        stored = _Pref(engine, t, name=scope[0])
        made["entry_room"] = scope[1]
    memory = _decoys(engine, rng, others[1:], {pref.did}, rng.randint(0, 3))
    if rng.random() < 0.4 and "switch_on" not in t:  # a competing memory: same device, other scene
        spec = dict(engine.device(t["did"]).attributes_by_locator())[t["loc"]]
        other = valid_value(spec, rng)
        if other != t["value"]:
            memory.append(
                _entry(
                    others[0],
                    _Pref(engine, dict(t, value=other), stored.name).desc,
                    rng.randrange(len(_ENTRY)),
                )
            )
    memory.insert(
        rng.randint(0, len(memory)), _entry(scene, stored.desc, rng.randrange(len(_ENTRY)))
    )
    text = _style(
        rng,
        [
            f"It's {scene}.",
            f"Set things up for {scene}.",
            f"{_cap(scene)}, please. The usual.",
            f"Get the house ready for {scene}, like always.",
        ],
        [
            f"Okay, {scene}! You know what I like.",
            f"Here we go, {scene}. Do my thing.",
            f"Hey, it's {scene} again, set it up the way I like it.",
        ],
    )
    return made | {
        "text": text,
        "memory": memory,
        "goal": _memory_goal("rewrite", memory, then=pref.critic),
        "reference": {
            "mode": "execute",
            "response": "Done, the way you like it.",
            "actions": pref.actions,
            "memory_output": f"rewrite: {pref.command}",
        },
    }


def _digits(rng: random.Random, n: int) -> str:
    return "".join(str(rng.randint(0, 9)) for _ in range(n))


def _sensitive(engine: HomeEngine, rng: random.Random) -> str:
    phone = f"{rng.randint(200, 989)}-{_digits(rng, 3)}-{_digits(rng, 4)}"
    name = engine.device(rng.choice(engine.device_ids())).name
    return rng.choice(
        [
            f"Remember my phone number: {phone}.",
            f"Please keep in mind that my mobile number is {phone}.",
            f"From now on, remember my email is {rng.choice(['sam', 'alex', 'kim', 'jo'])}{_digits(rng, 2)}@example.com.",
            f"Note that my bank card number is {' '.join(_digits(rng, 4) for _ in range(4))}, remember it.",
            f"Remember that the Wi-Fi password for the {name} is {rng.choice(['sunset', 'maple', 'tiger'])}{_digits(rng, 4)}.",
            f"Can you remember my door PIN code? It's {_digits(rng, 4)}.",
            f"Um, remember my passport number, it's X{_digits(rng, 8)}.",
            f"Hey, save this for me: my mom's number is {phone}.",
        ]
    )


def _chitchat(rng: random.Random) -> str:
    month = rng.choice(["January", "March", "May", "July", "September", "November"])
    return rng.choice(
        [
            f"Remember that my sister's birthday is on {month} {rng.randint(1, 28)}.",
            f"Please remember I'm allergic to {rng.choice(['cats', 'peanuts', 'pollen', 'shellfish'])}.",
            f"Keep in mind that my favourite team is {rng.choice(['the Lakers', 'Arsenal', 'the Yankees'])}.",
            f"From now on, remember my dog's name is {rng.choice(['Biscuit', 'Luna', 'Max', 'Pepper'])}.",
            "Remember that I prefer tea over coffee.",
            f"Uh, remember I have a dentist appointment next {rng.choice(['Monday', 'Tuesday', 'Friday'])}.",
            "Just so you know, I'm vegetarian. Remember that, okay?",
            f"Remember that my wife's name is {rng.choice(['Anna', 'Maria', 'Grace', 'Lena'])}.",
        ]
    )


def no_memory_task(engine: HomeEngine, rng: random.Random, variant: int) -> Made | None:
    """Variants: 0 a personal identifier, 1 a non-device fact (both: do nothing), 2 a one-off
    request, 3 a command about a device the memory does not mention, 4 an explicit command that
    overrides a stored preference (all three executed as said)."""
    scenes = _scenes(rng)
    memory = _decoys(engine, rng, scenes[1:], set(), rng.randint(0, 3))
    if variant in (0, 1):
        text = _sensitive(engine, rng) if variant == 0 else _chitchat(rng)
        return {
            "text": text,
            "memory": memory,
            "goal": _memory_goal("no-rewrite", memory),
            "reference": {
                "mode": "answer",
                "response": "Sorry, I only remember device preferences.",
                "memory_output": "no-rewrite",
            },
        }
    t = _target(engine, rng)
    if t is None:
        return None
    pref = _Pref(engine, t)
    if any(pref.name in m for m in memory):
        return None
    command = pref.command
    if variant == 2:
        body = command[:1].lower() + command[1:]
        text = _style(
            rng,
            [
                f"Just for tonight, {body[:-1]}. No need to remember it.",
                f"Only this time: {body}",
                f"For now, {body[:-1]}, but don't save it as a preference.",
            ],
            [f"Can you {body[:-1]}? Just this once.", f"Temporarily, {body} Don't remember it."],
        )
    elif variant == 3:
        text = _style(
            rng,
            [command],
            [f"Could you {command[:1].lower()}{command[1:-1]}?", f"{command[:-1]}, please."],
        )
    else:
        if "switch_on" in t:
            return None
        spec = dict(engine.device(t["did"]).attributes_by_locator())[t["loc"]]
        other = valid_value(spec, rng)
        if other == t["value"]:
            return None
        memory.insert(
            rng.randint(0, len(memory)),
            _entry(scenes[0], _Pref(engine, dict(t, value=other)).desc, rng.randrange(len(_ENTRY))),
        )
        text = _style(
            rng,
            [command, f"{scenes[0][:1].upper()}{scenes[0][1:]} is over. {command}"],
            [f"Could you {command[:1].lower()}{command[1:-1]}?", f"{command[:-1]} right now."],
        )
    return {
        "text": text,
        "memory": memory,
        "goal": _memory_goal("no-rewrite", memory, then=pref.critic),
        "reference": {
            "mode": "execute",
            "response": "Done.",
            "actions": pref.actions,
            "memory_output": "no-rewrite",
        },
    }


_MAKERS: dict[str, Callable[[HomeEngine, random.Random, int], Made | None]] = {
    "add": lambda e, r, i: add_task(e, r),
    "update": lambda e, r, i: update_task(e, r),
    "delete": lambda e, r, i: delete_task(e, r),
    "use": lambda e, r, i: use_task(e, r),
    "no_memory": lambda e, r, i: no_memory_task(e, r, i % 5),
}


def _consistent(made: Made) -> bool:
    """The reference's decision, applied by the pipeline's bank, yields the expected bank, and
    no two memories are the same."""
    memory, goal = made["memory"], made["goal"]
    if len(set(memory)) != len(memory):
        return False
    actual = bank_after(memory, made["reference"]["memory_output"])
    return not any(
        bank_problems(memory, goal["bank_after"], actual, goal.get("key_terms", [])).values()
    )


def consistent_draw(sub: str, home: Home, rng: random.Random, idx: int) -> Made | None:
    """One draw of ``sub`` (task ``idx`` of it) on ``home``, kept only when its memory bank is
    consistent (the tasks-for-a-home writer draws with it too)."""
    made = _MAKERS[sub](HomeEngine(home), rng, idx)
    return made if made is not None and _consistent(made) else None


def made_task(made: Made, task_id: str, sub: str, level: str, home: dict[str, Any]) -> Task:
    """The task a draw made: one user turn, the memory bank and the draw's start state."""
    return Task.model_validate(
        {
            "id": task_id,
            "suite": "memhome",
            "category": "memory",
            "subcategory": sub,
            "difficulty": level,
            "home": home,
            "turns": [{"text": made["text"]}],
            "goal": made["goal"],
            "reference": made["reference"],
            **{k: made[k] for k in ("memory", "history", "overrides", "entry_room") if made.get(k)},
        }
    )


def generate(seed: int = 0, validate_tasks: bool = True) -> list[Task]:
    homes: dict[tuple[str, int], Home] = {}
    tasks: list[Task] = []
    for sub in SUBCATEGORIES:
        idx = 0
        for level, n in SPLIT:
            for _ in range(n):
                rng = random.Random(f"memhome:{seed}:{sub}:{idx}")
                drawn = draw_on_homes(
                    level,
                    idx,
                    60,
                    homes,
                    lambda home, _seed: consistent_draw(sub, home, rng, idx),  # noqa: B023
                )
                if drawn is None:
                    raise RuntimeError(f"could not generate memhome/{sub}/{idx}")
                home_seed, made = drawn
                tasks.append(
                    made_task(
                        made,
                        f"memhome-{sub}-{idx:03d}",
                        sub,
                        level,
                        {"level": level, "seed": home_seed},
                    )
                )
                idx += 1
    if validate_tasks:
        validate(tasks)
    return tasks
