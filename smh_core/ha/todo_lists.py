"""A real Home Assistant to-do list as a twin's list: its items read with ``todo.get_items`` and
put in a task's start state with HA's own item services.

HA's state of a to-do list is only how many items are not done, so reading the list's
``items`` needs ``todo.get_items``: :func:`with_items` puts each list's items (summary and
status, as the catalog's ``todo_list`` keeps them) in its state's attributes under
``todo_items``, where the mapping reads them. HA has no service that sets a whole list, so the
mapping names the runner's own :data:`PUT_ITEMS` and :func:`put_items` does it with HA's: it
keeps the longest run of items that already agree from the top, removes the rest
(``todo.remove_item``, by uid), adds what is missing (``todo.add_item``) and marks items done or
not done (``todo.update_item``). A list HA cannot do that on (one without removal or updates, an
item HA gives no uid so no removal can name it) raises with the reason, as HA refusing a call
does; so does a list that still holds an item after its removal, before anything is added (the
runner tries again until its timeout: adding each time would grow such a list without end).
This module imports nothing of SMH: it is handed the two calls it makes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

TODO_ITEMS = "todo_items"
"""Where a to-do list's items ride in its state's attributes (what home-assistant-datasets'
fixtures call them): put there from ``todo.get_items``, HA's states never carry them."""
PUT_ITEMS = "todo.smh_put_items"
"""The mapping's service for a list's items: no HA service, the runner's :func:`put_items`."""

type GetItems = Callable[[str], Awaitable[list[dict[str, Any]]]]
"""A list's items as HA's ``todo.get_items`` answers (entity id -> summary, uid, status...)."""
type Call = Callable[[str, str, dict[str, Any]], Awaitable[None]]
"""An HA service call: (domain, service, data)."""


def as_items(raw: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """HA's items as the catalog's: summary and status (``needs_action`` unless completed)."""
    return [
        {
            "summary": str(i.get("summary", "")),
            "status": "completed" if i.get("status") == "completed" else "needs_action",
        }
        for i in raw
    ]


async def with_items(
    states: dict[str, dict[str, Any]], get_items: GetItems
) -> dict[str, dict[str, Any]]:
    """``states`` with every readable to-do list's items under ``attributes.todo_items``."""
    out = dict(states)
    for eid, state in states.items():
        if eid.startswith("todo.") and state.get("state") not in ("unavailable", "unknown"):
            try:
                items = as_items(await get_items(eid))
            except RuntimeError:  # HA will not list them: the items read as not reported
                continue
            out[eid] = {**state, "attributes": {**state.get("attributes", {}), TODO_ITEMS: items}}
    return out


def _agreeing(current: list[dict[str, Any]], wanted: list[dict[str, Any]]) -> int:
    """How many items from the top already have the wanted text."""
    n = 0
    while n < min(len(current), len(wanted)) and current[n]["summary"] == wanted[n]["summary"]:
        n += 1
    return n


async def put_items(data: Mapping[str, Any], get_items: GetItems, call: Call) -> None:
    """Make the list ``data["entity_id"]`` hold ``data["items"]`` in order, with HA's services
    (see the module docstring); ``RuntimeError`` naming the item when HA cannot."""
    eid = str(data.get("entity_id"))
    wanted = data.get("items")
    if not isinstance(wanted, list) or not all(
        isinstance(i, Mapping) and str(i.get("summary", "")).strip() for i in wanted
    ):
        raise RuntimeError(f"{PUT_ITEMS}: {eid}: items must be a list of items with a summary")
    wanted = as_items(wanted)
    current = await get_items(eid)
    keep = _agreeing(as_items(current), wanted)
    for item in current[keep:]:
        if not item.get("uid"):
            raise RuntimeError(
                f"{eid}: cannot remove {item.get('summary')!r}: Home Assistant gives it no uid, "
                "so todo.remove_item cannot name it"
            )
        await call("todo", "remove_item", {"entity_id": eid, "item": item["uid"]})
    if current[keep:]:
        left = as_items(await get_items(eid))
        if left != as_items(current[:keep]):
            texts = ", ".join(repr(i["summary"]) for i in left) or "nothing"
            raise RuntimeError(
                f"{eid}: the list holds {texts} after todo.remove_item, not the {keep} items "
                "kept: nothing added"
            )
    for item in wanted[keep:]:
        await call("todo", "add_item", {"entity_id": eid, "item": item["summary"]})
    now = await get_items(eid)
    for got, want in zip(now, wanted, strict=False):
        if as_items([got])[0]["status"] != want["status"]:
            await call(
                "todo",
                "update_item",
                {
                    "entity_id": eid,
                    "item": got.get("uid") or got["summary"],
                    "status": want["status"],
                },
            )
