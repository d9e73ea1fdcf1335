"""To-do list tasks for a home that has lists (a twin of an HA home with shopping or to-do
lists): add an item, mark one done, remove one, ask what is on a list. Each names the home's own
list; an item to complete or remove is one the list holds, and where the home's list has none
(or its items were never read) the task's start state puts a few there, so every task says what
the list holds when it starts.

The twin finds an item by its exact text, as Home Assistant's item services do, so an agent
judged on the twin is judged as on the real list. A task never names an item whose text another
item shares, even in another case ("milk" twice, "Eggs" and "eggs"): HA would act on the first,
and a listener (a voice request has no case) could not tell which was meant; so no task depends
on how either side matches text. Written only for homes with lists that can add, update and
remove items (:data:`EDITABLE`): other homes' task files stay as they were.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from smh_core.homeenv.critic import device_id_text
from smh_core.homeenv.model import Device, Home

TODO_SUBCATEGORIES = {
    "todo_add": "atomic_control",
    "todo_complete": "atomic_control",
    "todo_remove": "atomic_control",
    "todo_query": "query",
}
"""To-do subcategory -> its SMH category (a change to a list is atomic control, asking what is
on it an environment query)."""

EDITABLE = frozenset({"add_item", "update_item", "remove_item"})
"""What a list needs for tasks: the runner puts each task's start state on the real list with
these three (HA's CREATE, UPDATE and DELETE features); a list lacking one gets no task (a
synthetic-home list, which only grows, would keep every later task from starting)."""

ITEMS = (
    "milk", "eggs", "bread", "coffee", "apples", "rice", "batteries", "light bulbs",
    "dish soap", "call the plumber", "water the plants", "book the dentist",
)  # fmt: skip
"""Items a task's start state puts on a list that has too few of its own."""

WORDING = {
    "todo_add": ("Add {item} to the {list}.", "Put {item} on my {list}."),
    "todo_complete": ("Mark {item} as done on the {list}.", "Check off {item} on the {list}."),
    "todo_remove": ("Remove {item} from the {list}.", "Take {item} off my {list}."),
    "todo_query": ("What is on the {list}?", "What's left to do on my {list}?"),
}
"""``{list}``: :func:`called` (HA's shopping list is named "Shopping List": no "list list")."""


def called(name: str) -> str:
    """How a request names a list: its name, with "list" after it unless it ends with it."""
    return name if name.casefold().split()[-1:] == ["list"] else f"{name} list"


def todo_lists(home: Home) -> list[Device]:
    """The home's to-do lists, in id order."""
    return sorted(
        (d for d in home.devices if d.userdata.subcategory == "todo_list"),
        key=lambda d: d.userdata.did,
    )


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _items(device: Device) -> list[dict[str, Any]]:
    return [dict(i) for i in dict(device.attributes_by_locator())["items"].value or []]


def nameable(items: list[dict[str, Any]]) -> list[int]:
    """Indexes of the items not done whose text no other item shares, in any case: the ones a
    request can name without doubt (see the module docstring)."""
    seen = Counter(i["summary"].casefold() for i in items)
    return [
        k
        for k, i in enumerate(items)
        if i["status"] == "needs_action" and seen[i["summary"].casefold()] == 1
    ]


def _start(
    device: Device, unknown: set[str], rng: random.Random, need_open: int
) -> tuple[list[dict[str, Any]], bool]:
    """The list's items when the task starts and whether the task must set them: the home's
    own if known and with ``need_open`` items a request can name (:func:`nameable`), else a
    few drawn from :data:`ITEMS`."""
    own = _items(device)
    if "items" not in unknown and len(nameable(own)) >= need_open:
        return own, False
    picked = rng.sample(ITEMS, 3)
    return [{"summary": s, "status": "needs_action"} for s in picked], True


def _open(items: list[dict[str, Any]]) -> int:
    return sum(i["status"] == "needs_action" for i in items)


def todo_task(
    sub: str, home: Home, unknown: dict[str, set[str]], rng: random.Random
) -> dict[str, Any] | str:
    """One task of ``sub`` on one of the home's lists: text, goal, reference and, where the
    start state is set, overrides; or why this home has none."""
    lists = [d for d in todo_lists(home) if dict(d.services_by_locator()).keys() >= EDITABLE]
    if not lists:
        return (
            "no to-do list of this home can add, update and remove items: a task's start state "
            "could not be put on the real list"
        )
    device = rng.choice(lists)
    did, name = device.userdata.did, device.name
    ref = f"device({device_id_text(did)})"
    items, overridden = _start(device, unknown.get(did, set()), rng, 0 if sub == "todo_add" else 1)
    text = rng.choice(WORDING[sub])
    out: dict[str, Any] = {}
    if sub == "todo_add":
        known = {i["summary"].casefold() for i in items}
        item = rng.choice([s for s in ITEMS if s.casefold() not in known])
        n = len(items)
        critic = (
            f"{ref}.items.{n}.summary == {_quoted(item)}; {ref}.items.{n}.status == needs_action; "
            f"{ref}.open_items == {_open(items) + 1}"
        )
        actions = [{"did": did, "locator": "add_item", "arguments": {"item": item}}]
    else:
        k = rng.choice(nameable(items))
        item = items[k]["summary"]
        if sub == "todo_query":
            names = [i["summary"] for i in items if i["status"] == "needs_action"]
            out["goal"] = {"kind": "query", "facts": [{"kind": "name", "value": s} for s in names]}
            out["reference"] = {
                "mode": "answer",
                "response": f"The {called(name)} has {', '.join(names)}.",
            }
        elif sub == "todo_complete":
            critic = (
                f"{ref}.items.{k}.summary == {_quoted(item)}; {ref}.items.{k}.status == completed; "
                f"{ref}.open_items == {_open(items) - 1}"
            )
            args = {"item": item, "status": "completed"}
            actions = [{"did": did, "locator": "update_item", "arguments": args}]
        else:
            kept = items[:k] + items[k + 1 :]
            clauses = [
                f"{ref}.items.{j}.summary == {_quoted(i['summary'])}" for j, i in enumerate(kept)
            ]
            # nothing after the kept items: the list is one shorter
            clauses.append(f"not {ref}.items.{len(kept)}.status in {{needs_action, completed}}")
            clauses.append(f"{ref}.open_items == {_open(items) - 1}")
            critic = "; ".join(clauses)
            actions = [{"did": did, "locator": "remove_item", "arguments": {"item": item}}]
    if sub != "todo_query":
        out["goal"] = {"kind": "execute", "critic": critic}
        out["reference"] = {"mode": "execute", "response": "Done.", "actions": actions}
    out["text"] = text.format(item=item, list=called(name))
    if overridden:
        out["overrides"] = [{"did": did, "values": {"items": items, "open_items": _open(items)}}]
    return out
