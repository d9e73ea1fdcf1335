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
from types import ModuleType
from typing import Any

from smh_core.bench.verifier import bank_problems
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import AttrType, Home
from smh_core.homeenv.samples import valid_value
from smh_core.languages.memhome import en
from smh_core.languages.wording import attr_words, value_words
from smh_core.memory.decision import bank_after
from smh_core.task.model import Task

from .common import control_target, device_critic, draw_on_homes, validate

SUBCATEGORIES = ("add", "update", "delete", "use", "no_memory")
SPLIT = (("simple", 30), ("medium", 30), ("complex", 24))

SCENES = list(en.SCENES)

Made = dict[str, Any]
Words = ModuleType
"""A wording module of :mod:`smh_core.languages.memhome` (``en`` unless a language is asked)."""


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _say(template: str, **fields: str) -> str:
    return template.format(**fields)


class _Pref:
    """A device preference: the control target, how it is said in memory and as a command."""

    def __init__(
        self,
        engine: HomeEngine,
        target: dict[str, Any],
        name: str | None = None,
        words: Words = en,
    ) -> None:
        self.target = target
        self.did = target["did"]
        self.name = name or engine.device(self.did).name
        self.critic = device_critic(self.did, target["critic"])
        self.actions = target["actions"]
        if "switch_on" in target:
            said = words.switch(self.name, target["switch_on"])
        else:
            loc, value, unit = target["loc"], target["value"], target["unit"]
            english = value_words(loc, value, unit)
            said = words.setting(self.name, attr_words(loc), value, unit, english)
        self.said = said
        self.value, self.desc, self.command = said.value, said.desc, said.command
        body = self.command[:1].lower() + self.command[1:]
        self.fields = words.name_words(self.name) | {
            "desc": self.desc,
            "command": self.command,
            "command_bare": self.command[:-1],
            "body": body,
            "body_bare": body[:-1],
            "request": said.request,
        }

    @property
    def key_terms(self) -> list[str]:
        return [self.name, self.value]


def _entry(words: Words, scene: str, desc: str, style: int = 0) -> str:
    return _say(words.ENTRY[style], desc=desc, **words.scene_words(scene))


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
    engine: HomeEngine,
    rng: random.Random,
    scenes: list[str],
    avoid: set[str],
    n: int,
    words: Words = en,
) -> list[str]:
    """Unrelated stored preferences (other scenes, other devices)."""
    out = []
    for scene in scenes[:n]:
        t = _target(engine, rng)
        if t is None or t["did"] in avoid:
            continue
        avoid.add(t["did"])
        desc = _Pref(engine, t, words=words).desc
        out.append(_entry(words, scene, desc, rng.randrange(len(words.ENTRY))))
    return out


def _noisy(text: str, rng: random.Random, words: Words) -> str:
    filler = rng.choice(words.FILLERS)
    return _say(
        rng.choice(words.NOISY),
        Filler=_cap(filler),
        filler=filler,
        text=text,
        text_low=f"{text[:1].lower()}{text[1:]}",
        text_bare=text.rstrip(".!?。！？"),
    )


def _style(
    rng: random.Random,
    words: Words,
    texts: tuple[str, ...],
    colloquial: tuple[str, ...],
    **fields: str,
) -> str:
    """One phrasing: a plain one half the time, a colloquial one 30%, a noisy one 20%."""
    roll = rng.random()
    if roll < 0.5:
        return _say(rng.choice(texts), **fields)
    if roll < 0.8:
        return _say(rng.choice(colloquial), **fields)
    return _noisy(_say(rng.choice(texts + colloquial), **fields), rng, words)


def _memory_goal(
    prefix: str, bank: list[str], key_terms: list[str] | None = None, then: str | None = None
) -> dict[str, Any]:
    goal: dict[str, Any] = {"kind": "memory", "prefix": prefix, "bank_after": bank}
    if key_terms:
        goal["key_terms"] = key_terms
    if then is not None:
        goal["then"] = {"kind": "execute", "critic": then}
    return goal


def _scenes(rng: random.Random, words: Words = en) -> list[str]:
    scenes = list(words.SCENES)
    rng.shuffle(scenes)
    return scenes


def _preference(
    engine: HomeEngine, rng: random.Random, words: Words = en
) -> tuple[dict[str, Any], _Pref, str, list[str]] | None:
    """A control target the user states a preference about, the preference, its scene and the
    other scenes in drawn order (for decoy memories); None when the home has no fit."""
    t = _target(engine, rng)
    if t is None:
        return None
    pref = _Pref(engine, t, words=words)
    scene, *others = _scenes(rng, words)
    return t, pref, scene, others


def _scene_key(words: Words, scene: str) -> str:
    return words.scene_words(scene)["scene"]


def add_task(engine: HomeEngine, rng: random.Random, words: Words = en) -> Made | None:
    drawn = _preference(engine, rng, words)
    if drawn is None:
        return None
    t, pref, scene, others = drawn
    memory = _decoys(engine, rng, others, {pref.did}, rng.randint(0, 3), words)
    content = _entry(words, scene, pref.desc)
    fields = pref.fields | words.scene_words(scene)
    made: Made = {}
    if "switch_on" not in t and rng.random() < 0.3:  # the setting lives in the previous turn
        made["history"] = [
            {"role": "user", "content": pref.command},
            {"role": "assistant", "content": pref.said.done},
        ]
        made["overrides"] = [{"did": pref.did, "values": dict(t["critic"])}]
        text = _style(rng, words, words.ADD_SETTING, words.ADD_SETTING_COLLOQUIAL, **fields)
    else:
        text = _style(rng, words, words.ADD, words.ADD_COLLOQUIAL, **fields)
    return made | {
        "text": text,
        "memory": memory,
        "goal": _memory_goal(
            "memory", memory + [content], [_scene_key(words, scene), *pref.key_terms]
        ),
        "reference": {
            "mode": "answer",
            "response": _say(words.RESPONSES["add"], content=content),
            "memory_output": f"memory: {content}",
        },
    }


def update_task(engine: HomeEngine, rng: random.Random, words: Words = en) -> Made | None:
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
    new = _Pref(engine, t, words=words)
    old = _Pref(engine, dict(t, value=old_value), words=words)
    scene, *others = _scenes(rng, words)
    style = rng.randrange(len(words.ENTRY))
    memory = _decoys(engine, rng, others, {new.did}, rng.randint(0, 3), words)
    stored = _entry(words, scene, old.desc, style)
    memory.insert(rng.randint(0, len(memory)), stored)
    content = _entry(words, scene, new.desc, style)
    said_old, said_new = old.said.said, new.said.said
    fields = new.fields | words.scene_words(scene)
    fields |= {"said_old": said_old, "Said_old": _cap(said_old), "said_new": said_new}
    text = _style(rng, words, words.UPDATE, words.UPDATE_COLLOQUIAL, **fields)
    bank = [content if m == stored else m for m in memory]
    return {
        "text": text,
        "memory": memory,
        "goal": _memory_goal("memory", bank, [*new.key_terms]),
        "reference": {
            "mode": "answer",
            "response": _say(words.RESPONSES["update"], content=content),
            "memory_output": f"memory: {content}",
        },
    }


def delete_task(engine: HomeEngine, rng: random.Random, words: Words = en) -> Made | None:
    drawn = _preference(engine, rng, words)
    if drawn is None:
        return None
    t, pref, scene, others = drawn
    target = _entry(words, scene, pref.desc, rng.randrange(len(words.ENTRY)))
    memory = _decoys(engine, rng, others, {pref.did}, rng.randint(1, 3), words)
    memory.insert(rng.randint(0, len(memory)), target)
    fields = pref.fields | words.scene_words(scene)
    text = _style(rng, words, words.DELETE, words.DELETE_COLLOQUIAL, **fields)
    return {
        "text": text,
        "memory": memory,
        "goal": _memory_goal("memory", [m for m in memory if m != target]),
        "reference": {
            "mode": "answer",
            "response": _say(words.RESPONSES["delete"], content=target),
            "memory_output": f"memory: delete {target}",
        },
    }


Scope = Callable[[HomeEngine, str, str], tuple[str, str] | None]
"""``(device id, its name) -> (short name, room name)`` when a memory may name the device
without its room (see :func:`english_scope`), else None."""


def english_scope(engine: HomeEngine, did: str, name: str) -> tuple[str, str] | None:
    """``(short name, room name)`` when the device's name without its room also names devices
    in other rooms and no other one in its own room (the memory can leave the room out)."""
    device = engine.device(did)
    room = engine.room(device.userdata.room).name
    if not name.startswith(room + " "):
        return None
    short = name[len(room) + 1 :]
    same = [d for d in engine.devices() if d["name"].endswith(" " + short)]
    if len(same) < 2 or sum(d["room"] == device.userdata.room for d in same) != 1:
        return None
    return short, room


def use_task(
    engine: HomeEngine, rng: random.Random, words: Words = en, scope: Scope = english_scope
) -> Made | None:
    drawn = _preference(engine, rng, words)
    if drawn is None:
        return None
    t, pref, scene, others = drawn
    made: Made = {}
    stored = pref
    scoped = scope(engine, pref.did, pref.name) if rng.random() < 0.5 else None
    if scoped is not None:  # "the downlight" in memory, the entry room says which one
        stored = _Pref(engine, t, name=scoped[0], words=words)
        made["entry_room"] = scoped[1]
    memory = _decoys(engine, rng, others[1:], {pref.did}, rng.randint(0, 3), words)
    if rng.random() < 0.4 and "switch_on" not in t:  # a competing memory: same device, other scene
        spec = dict(engine.device(t["did"]).attributes_by_locator())[t["loc"]]
        other = valid_value(spec, rng)
        if other != t["value"]:
            memory.append(
                _entry(
                    words,
                    others[0],
                    _Pref(engine, dict(t, value=other), stored.name, words).desc,
                    rng.randrange(len(words.ENTRY)),
                )
            )
    memory.insert(
        rng.randint(0, len(memory)),
        _entry(words, scene, stored.desc, rng.randrange(len(words.ENTRY))),
    )
    text = _style(rng, words, words.USE, words.USE_COLLOQUIAL, **words.scene_words(scene))
    return made | {
        "text": text,
        "memory": memory,
        "goal": _memory_goal("rewrite", memory, then=pref.critic),
        "reference": {
            "mode": "execute",
            "response": words.RESPONSES["use"],
            "actions": pref.actions,
            "memory_output": f"rewrite: {pref.command}",
        },
    }


def _digits(rng: random.Random, n: int) -> str:
    return "".join(str(rng.randint(0, 9)) for _ in range(n))


def _sensitive(engine: HomeEngine, rng: random.Random, words: Words = en) -> str:
    """A personal identifier to be remembered (its pieces drawn in one order for every
    language, so the draw stays the same)."""
    phone = _say(words.PHONE, a=str(rng.randint(200, 989)), b=_digits(rng, 3), c=_digits(rng, 4))
    name = engine.device(rng.choice(engine.device_ids())).name
    fields = words.name_words(name) | {"phone": phone}
    fields |= {"email": rng.choice(words.EMAIL_NAMES), "d2": _digits(rng, 2)}
    fields["card"] = words.CARD.format(*(_digits(rng, 4) for _ in range(4)))
    fields |= {"wifi": rng.choice(words.WIFI_WORDS), "d4": _digits(rng, 4)}
    fields |= {"pin": _digits(rng, 4), "passport": _digits(rng, 8)}
    return _say(rng.choice(words.SENSITIVE), **fields)


def _chitchat(rng: random.Random, words: Words = en) -> str:
    """A fact with nothing about the home (pieces drawn in one order for every language)."""
    fields = {"month": rng.choice(words.MONTHS), "day": str(rng.randint(1, 28))}
    fields["allergen"] = rng.choice(words.ALLERGENS)
    fields["team"] = rng.choice(words.TEAMS)
    fields["dog"] = rng.choice(words.DOGS)
    fields["weekday"] = rng.choice(words.WEEKDAYS)
    fields["wife"] = rng.choice(words.WIVES)
    return _say(rng.choice(words.CHITCHAT), **fields)


def no_memory_task(
    engine: HomeEngine, rng: random.Random, variant: int, words: Words = en
) -> Made | None:
    """Variants: 0 a personal identifier, 1 a non-device fact (both: do nothing), 2 a one-off
    request, 3 a command about a device the memory does not mention, 4 an explicit command that
    overrides a stored preference (all three executed as said)."""
    scenes = _scenes(rng, words)
    memory = _decoys(engine, rng, scenes[1:], set(), rng.randint(0, 3), words)
    if variant in (0, 1):
        text = _sensitive(engine, rng, words) if variant == 0 else _chitchat(rng, words)
        return {
            "text": text,
            "memory": memory,
            "goal": _memory_goal("no-rewrite", memory),
            "reference": {
                "mode": "answer",
                "response": words.RESPONSES["refuse"],
                "memory_output": "no-rewrite",
            },
        }
    t = _target(engine, rng)
    if t is None:
        return None
    pref = _Pref(engine, t, words=words)
    if any(pref.name in m for m in memory):
        return None
    if variant == 2:
        text = _style(rng, words, words.ONCE, words.ONCE_COLLOQUIAL, **pref.fields)
    elif variant == 3:
        text = _style(rng, words, words.UNCOVERED, words.UNCOVERED_COLLOQUIAL, **pref.fields)
    else:
        if "switch_on" in t:
            return None
        spec = dict(engine.device(t["did"]).attributes_by_locator())[t["loc"]]
        other = valid_value(spec, rng)
        if other == t["value"]:
            return None
        memory.insert(
            rng.randint(0, len(memory)),
            _entry(
                words,
                scenes[0],
                _Pref(engine, dict(t, value=other), words=words).desc,
                rng.randrange(len(words.ENTRY)),
            ),
        )
        fields = pref.fields | words.scene_words(scenes[0])
        text = _style(rng, words, words.OVERRIDE, words.OVERRIDE_COLLOQUIAL, **fields)
    return {
        "text": text,
        "memory": memory,
        "goal": _memory_goal("no-rewrite", memory, then=pref.critic),
        "reference": {
            "mode": "execute",
            "response": words.RESPONSES["execute"],
            "actions": pref.actions,
            "memory_output": "no-rewrite",
        },
    }


Maker = Callable[[HomeEngine, random.Random, int, Words, Scope], Made | None]
_MAKERS: dict[str, Maker] = {
    "add": lambda e, r, i, w, s: add_task(e, r, w),
    "update": lambda e, r, i, w, s: update_task(e, r, w),
    "delete": lambda e, r, i, w, s: delete_task(e, r, w),
    "use": lambda e, r, i, w, s: use_task(e, r, w, s),
    "no_memory": lambda e, r, i, w, s: no_memory_task(e, r, i % 5, w),
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


def consistent_draw(
    sub: str,
    home: Home,
    rng: random.Random,
    idx: int,
    words: Words = en,
    scope: Scope = english_scope,
) -> Made | None:
    """One draw of ``sub`` (task ``idx`` of it) on ``home``, kept only when its memory bank is
    consistent (the tasks-for-a-home writer draws with it too); ``words`` and ``scope`` say it in
    another language (:mod:`smh_core.suites.memhome_languages`)."""
    made = _MAKERS[sub](HomeEngine(home), rng, idx, words, scope)
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


HomeRefOf = Callable[[str, int], dict[str, Any]]
"""``(level, home seed) -> the task's home reference``."""


Draw = Callable[[str, Home, random.Random, int], Made | None]
"""``(subcategory, home, rng, task index) -> a consistent draw or None`` (:func:`consistent_draw`)."""


def build(
    seed: int = 0,
    draw: Draw = consistent_draw,
    homes: dict[tuple[str, int], Home] | None = None,
    home_ref: HomeRefOf = lambda level, seed: {"level": level, "seed": seed},
    prefix: str = "memhome",
) -> list[Task]:
    """The suite's tasks, unvalidated: per subcategory and task index one seeded draw on the
    generated homes (``homes``: a cache, filled with another language's homes beforehand, whose
    ``draw`` says the tasks in that language)."""
    homes = {} if homes is None else homes
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
                    lambda home, _seed: draw(sub, home, rng, idx),  # noqa: B023
                )
                if drawn is None:
                    raise RuntimeError(f"could not generate {prefix}/{sub}/{idx}")
                home_seed, made = drawn
                tasks.append(
                    made_task(
                        made, f"{prefix}-{sub}-{idx:03d}", sub, level, home_ref(level, home_seed)
                    )
                )
                idx += 1
    return tasks


def generate(seed: int = 0, validate_tasks: bool = True) -> list[Task]:
    tasks = build(seed)
    if validate_tasks:
        validate(tasks)
    return tasks
