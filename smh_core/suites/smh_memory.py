"""SMH-Bench TC6 personalized memory: short-term and long-term.

Long-term tasks put the user's stored preferences in ``Task.memory`` (the target preference
among unrelated ones) and say only the trigger phrase ("time to sleep"): the request cannot
be done as intended without reading the memory. Short-term tasks carry the previous turn in
``history`` (and its effect as ``overrides``) and ask to repeat it on another device of the
same kind ("do the same for the bedroom one"): the value lives only in the dialogue.
"""

from __future__ import annotations

import random
from typing import Any

from smh_core.homeenv.engine import HomeEngine

from .common import control_target, device_critic
from .wording import attr_words, value_words

MEMORY_SUBCATEGORIES = ("short_term", "long_term")

_PHRASES = [
    ("sleep", ["Time to sleep.", "I'm off to bed.", "Bedtime, please.", "Okay, sleep mode."]),
    ("movie", ["Movie time!", "Let's watch a film.", "Set things up for a movie."]),
    (
        "reading",
        ["I'm going to read for a bit.", "Reading time.", "Set me up for reading, please."],
    ),
    ("wake-up", ["Good morning!", "I'm up.", "Morning routine, please."]),
    ("guests", ["Guests are coming over.", "We have visitors soon, get the place ready."]),
    ("work", ["Time to focus on work.", "I'm starting work now."]),
]
_SAME = [
    "Do the same for the {b}.",
    "Now the {b} too, same setting.",
    "Set the {b} the same way as before.",
    "Same thing for the {b}, please.",
    "And the {b} — make it match.",
]


def _describe(engine: HomeEngine, target: dict[str, Any]) -> str:
    name = engine.device(target["did"]).name
    if "switch_on" in target:
        return f"the {name} {'on' if target['switch_on'] else 'off'}"
    return f"the {name} {attr_words(target['loc'])} at {value_words(target['loc'], target['value'], target['unit'])}"


def _long_term(engine: HomeEngine, rng: random.Random, pick: Any) -> dict[str, Any] | None:
    target = pick(engine, rng)
    if target is None:
        return None
    phrases = list(_PHRASES)
    rng.shuffle(phrases)
    (scene, texts), others = phrases[0], phrases[1:3]
    memory = [f"When I say it's {scene} time, I like {_describe(engine, target)}."]
    for other, _ in others:  # unrelated preferences: the right one must be picked
        decoy = pick(engine, rng)
        if decoy is not None and decoy["did"] != target["did"]:
            memory.append(f"For {other} time, I want {_describe(engine, decoy)}.")
    rng.shuffle(memory)
    return {
        "subcategory": "long_term",
        "text": rng.choice(texts),
        "memory": memory,
        "goal": {"kind": "execute", "critic": target["critic_text"]},
        "reference": {
            "mode": "execute",
            "response": "Done, as you like it.",
            "actions": target["actions"],
        },
    }


def _short_term(engine: HomeEngine, rng: random.Random, pick: Any) -> dict[str, Any] | None:
    target = pick(engine, rng)
    if target is None or "switch_on" in target:
        return None
    first = engine.device(target["did"])
    kind = first.userdata.subcategory
    peers = [
        d["did"]
        for d in engine.devices(subcategory=kind)
        if d["did"] != first.did and engine.value(d["did"], target["loc"]) != target["value"]
    ]
    if not peers:
        return None
    other = rng.choice(peers)
    trial = HomeEngine(engine.home)
    actions = [dict(a, did=other) for a in target["actions"]]
    if not all(r.ok for r in trial.execute_many(actions)):
        return None
    name_a, name_b = first.name, engine.device(other).name
    if name_a == name_b:
        return None
    attr, value = (
        attr_words(target["loc"]),
        value_words(target["loc"], target["value"], target["unit"]),
    )
    history = [
        {"role": "user", "content": f"Set the {name_a} {attr} to {value}."},
        {"role": "assistant", "content": f"Done, the {name_a} {attr} is now {value}."},
    ]
    overrides = [{"did": first.did, "values": dict(target["critic"])}]
    critic = target["critic_for"](other)
    return {
        "subcategory": "short_term",
        "text": rng.choice(_SAME).format(b=name_b),
        "history": history,
        "overrides": overrides,
        "goal": {"kind": "execute", "critic": critic, "may_change": [first.did]},
        "reference": {
            "mode": "execute",
            "response": f"The {name_b} matches now.",
            "actions": actions,
        },
    }


def memory_task(sub: str, engine: HomeEngine, rng: random.Random) -> dict[str, Any] | None:
    """One TC6 task of ``sub`` on ``engine``'s home, or ``None`` if this draw has no fit."""

    def pick(eng: HomeEngine, r: random.Random) -> dict[str, Any] | None:
        t = control_target(eng, r)
        if t is not None:
            t["critic_text"] = device_critic(t["did"], t["critic"])
            t["critic_for"] = lambda did, pairs=t["critic"]: device_critic(did, pairs)
        return t

    if sub == "long_term":
        return _long_term(engine, rng, pick)
    if sub == "short_term":
        return _short_term(engine, rng, pick)
    raise ValueError(f"unknown memory subcategory {sub!r}")
