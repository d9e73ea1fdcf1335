"""SMH-Bench TC6 personalized memory: short-term and long-term.

Long-term tasks put the user's stored preferences in ``Task.memory`` (the target preference
among unrelated ones) and say only the trigger phrase ("time to sleep"): the request cannot
be done as intended without reading the memory. Short-term tasks carry the previous turn in
``history`` (and its effect as ``overrides``) and ask to repeat it on another device of the
same kind ("do the same for the bedroom one"): the value lives only in the dialogue.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

from smh_core.homeenv.engine import HomeEngine
from smh_core.languages.smh import en as EN

from .common import control_target, device_critic

MEMORY_SUBCATEGORIES = ("short_term", "long_term")


def _describe(engine: HomeEngine, target: dict[str, Any], w: ModuleType) -> str:
    name = engine.device(target["did"]).name
    if "switch_on" in target:
        way = "on" if target["switch_on"] else "off"
        return w.DESCRIBE_SWITCH[way].format(**w.device_parts(name))
    return w.DESCRIBE_SET.format(
        **w.set_parts(name, target["loc"], target["value"], target["unit"])
    )


def _long_term(
    engine: HomeEngine, rng: random.Random, pick: Any, w: ModuleType
) -> dict[str, Any] | None:
    target = pick(engine, rng)
    if target is None:
        return None
    phrases = list(w.PHRASES)
    rng.shuffle(phrases)
    (scene, texts), others = phrases[0], phrases[1:3]
    memory = [w.MEMORY_TARGET.format(scene=w.SCENES[scene], desc=_describe(engine, target, w))]
    for other, _ in others:  # unrelated preferences: the right one must be picked
        decoy = pick(engine, rng)
        if decoy is not None and decoy["did"] != target["did"]:
            memory.append(
                w.MEMORY_OTHER.format(scene=w.SCENES[other], desc=_describe(engine, decoy, w))
            )
    rng.shuffle(memory)
    return {
        "subcategory": "long_term",
        "text": rng.choice(texts),
        "memory": memory,
        "goal": {"kind": "execute", "critic": target["critic_text"]},
        "reference": {
            "mode": "execute",
            "response": w.LONG_DONE,
            "actions": target["actions"],
        },
    }


def _short_term(
    engine: HomeEngine, rng: random.Random, pick: Any, w: ModuleType
) -> dict[str, Any] | None:
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
    said = w.set_parts(name_a, target["loc"], target["value"], target["unit"])
    history = [
        {"role": "user", "content": w.sentence(w.HISTORY_USER.format(**said))},
        {"role": "assistant", "content": w.sentence(w.HISTORY_DONE.format(**said))},
    ]
    overrides = [{"did": first.did, "values": dict(target["critic"])}]
    critic = target["critic_for"](other)
    return {
        "subcategory": "short_term",
        "text": w.sentence(rng.choice(w.SAME).format(**w.device_parts(name_b))),
        "history": history,
        "overrides": overrides,
        "goal": {"kind": "execute", "critic": critic, "may_change": [first.did]},
        "reference": {
            "mode": "execute",
            "response": w.sentence(w.SAME_DONE.format(**w.device_parts(name_b))),
            "actions": actions,
        },
    }


def memory_task(
    sub: str, engine: HomeEngine, rng: random.Random, w: ModuleType = EN
) -> dict[str, Any] | None:
    """One TC6 task of ``sub`` on ``engine``'s home, worded by ``w`` (:mod:`smh_core.languages.smh`), or
    ``None`` if this draw has no fit."""

    def pick(eng: HomeEngine, r: random.Random) -> dict[str, Any] | None:
        t = control_target(eng, r, None if w is EN else w.aliases)
        if t is not None:
            t["critic_text"] = device_critic(t["did"], t["critic"])
            t["critic_for"] = lambda did, pairs=t["critic"]: device_critic(did, pairs)
        return t

    if sub == "long_term":
        return _long_term(engine, rng, pick, w)
    if sub == "short_term":
        return _short_term(engine, rng, pick, w)
    raise ValueError(f"unknown memory subcategory {sub!r}")
