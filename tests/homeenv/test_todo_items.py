"""A to-do list finds an item by its exact text, as Home Assistant's ``todo.update_item`` and
``todo.remove_item`` do: a call HA refuses is refused by the twin too (nothing changes), and
where two items differ only in case both act on the same one."""

from __future__ import annotations

import pytest

from sim_devices.catalog import instantiate
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home

LIST = "todo.shopping"
ITEMS = [
    {"summary": "Eggs", "status": "needs_action"},
    {"summary": "eggs", "status": "needs_action"},
    {"summary": "milk", "status": "needs_action"},
]


def _engine() -> HomeEngine:
    device = instantiate("todo_list", did=LIST, room=None, name="Shopping",
                         values={"items": ITEMS, "open_items": 3})  # fmt: skip
    return HomeEngine(Home(rooms=[], devices=[device]))


@pytest.mark.parametrize("service", ["complete_item", "remove_item", "update_item"])
@pytest.mark.parametrize("text", ["MILK", "Milk", " milk", "milk "])
def test_an_item_named_otherwise_than_exactly_is_refused_and_nothing_changes(
    service: str, text: str
) -> None:
    engine = _engine()
    before = engine.snapshot()
    args = {"item": text, **({"status": "completed"} if service == "update_item" else {})}
    result = engine.execute(LIST, service, args)
    assert not result.ok and "has no item" in str(result.error)
    assert engine.diff(before, engine.snapshot()) == []


def test_items_that_differ_only_in_case_are_each_their_own() -> None:
    engine = _engine()
    assert engine.execute(LIST, "complete_item", {"item": "eggs"}).ok
    assert [i["status"] for i in engine.value(LIST, "items")] == [
        "needs_action",
        "completed",
        "needs_action",
    ]
    assert engine.execute(LIST, "remove_item", {"item": "Eggs"}).ok
    assert [i["summary"] for i in engine.value(LIST, "items")] == ["eggs", "milk"]
    assert engine.value(LIST, "open_items") == 1
