"""A home's to-do lists in its twin (issue 39): items read live with ``todo.get_items`` (offline
the count alone, said so), to-do tasks written only for homes with lists, and the hardware
mapping that reads a real list's items and puts a task's start state on it with HA's own item
services (``todo.remove_item`` / ``add_item`` / ``update_item``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sim_devices.catalog import instantiate
from smh_core.ha.device_sync import reach
from smh_core.ha.ha_inventory import inventory_from
from smh_core.ha.hardware_map import HardwareMapping, parse_mapping
from smh_core.ha.map_propose import render
from smh_core.ha.todo_lists import PUT_ITEMS, put_items, with_items
from smh_core.ha.twin import Registries, read_todo_items, twin_from
from smh_core.ha.twin_map import twin_mapping
from smh_core.ha.twin_runnable import real_check
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home, Room
from smh_core.homeenv.snapshot import Snapshot
from smh_core.suites.for_home import generate_for_home
from smh_core.task.model import HomeRef

LIST = "todo.shopping"
HA_ITEMS = [
    {"summary": "oat milk", "uid": "u1", "status": "needs_action", "due": "2026-12-01"},
    {"summary": "jam", "uid": "u2", "status": "completed"},
]
STATE = {"entity_id": LIST, "state": "1", "attributes": {"friendly_name": "Shopping",
         "supported_features": 1 | 2 | 4}}  # fmt: skip


def _regs(state: dict[str, Any]) -> Registries:
    return Registries([], [], [], [{"entity_id": LIST}], [state])


async def test_live_items_come_from_get_items_and_offline_the_count_is_said() -> None:
    asked: list[dict[str, Any]] = []

    async def call(message: dict[str, Any]) -> Any:
        asked.append(message)
        return {"response": {LIST: {"items": HA_ITEMS}}}

    states = await read_todo_items(call, [STATE, {"entity_id": "light.x", "state": "on"}])
    assert [m["service"] for m in asked] == ["get_items"] and asked[0]["return_response"]
    live = twin_from(_regs(states[0]))
    engine = HomeEngine(live.home)
    assert engine.value(LIST, "items") == [
        {"summary": "oat milk", "status": "needs_action"},
        {"summary": "jam", "status": "completed"},
    ]
    assert live.home.devices[0].userdata.unstated == []
    assert any("due not simulated" in why for _, why in live.report.approximated)
    offline = twin_from(_regs(STATE))  # a states dump: the count of items not done, no items
    assert HomeEngine(offline.home).value(LIST, "open_items") == 1
    assert "items" in offline.home.devices[0].userdata.unstated
    assert any("items were not read" in why for _, why in offline.report.approximated)


def _home(**values: Any) -> Home:
    devices = [
        instantiate("light", did="light.k", room="k", name="Kitchen light"),
        instantiate("todo_list", did=LIST, room="k", name="Shopping", values=values),
    ]
    return Home(name="t", rooms=[Room(id="k", type="kitchen", name="Kitchen")], devices=devices)


def test_todo_tasks_name_the_homes_list_and_are_the_same_for_the_same_seed(tmp_path: Path) -> None:
    home = _home(items=[{"summary": "oat milk", "status": "needs_action"}], open_items=1)
    made = generate_for_home(home, tmp_path / "a", "twin", 0, 2)
    todo = [t for t in made.tasks if t.subcategory.startswith("todo_")]
    assert {t.subcategory for t in todo} == {
        "todo_add",
        "todo_complete",
        "todo_remove",
        "todo_query",
    }
    assert all("Shopping" in t.turns[0].text for t in todo)
    done = next(t for t in todo if t.subcategory == "todo_complete" and not t.overrides)
    assert "oat milk" in done.turns[0].text  # the home's own item
    again = generate_for_home(home, tmp_path / "b", "twin", 0, 2)
    assert [t.model_dump() for t in again.tasks] == [t.model_dump() for t in made.tasks]
    # a list that cannot update or remove items gets none: its start states could not be put back
    adds = twin_from(
        _regs({**STATE, "attributes": {**STATE["attributes"], "supported_features": 1 | 2}})
    ).home
    grows = generate_for_home(adds, tmp_path / "d", "twin", 0, 1, real=real_check(adds))
    assert not any(t.subcategory.startswith("todo_") for t in grows.tasks)
    assert "can add, update and remove" in grows.short["todo_add"]
    # a home without lists gets no to-do rows at all (its task files stay as they were)
    plain = Home(name="t", rooms=home.rooms, devices=home.devices[:1])
    other = generate_for_home(plain, tmp_path / "c", "twin", 0, 1)
    assert not any(s.startswith("todo_") for s in other.subcategories)


def test_a_list_whose_items_were_never_read_gets_tasks_only_with_their_start_state(
    tmp_path: Path,
) -> None:
    twin = twin_from(_regs(STATE))  # offline: items unknown
    made = generate_for_home(twin.home, tmp_path, "twin", 0, 1, real=real_check(twin.home))
    todo = [t for t in made.tasks if t.subcategory.startswith("todo_")]
    # each task says what the list holds when it starts: nothing judges items never read
    assert len(todo) == 4 and all(t.overrides for t in todo)


def test_a_live_list_that_states_no_features_offers_no_item_services(tmp_path: Path) -> None:
    """HA states ``supported_features`` whenever an entity has any, and reads a state without it
    as none (a service that needs a feature refuses the entity): a list that states none (one of
    synthetic-home's, in home-assistant-datasets' ``intents`` homes) is twinned without item
    services, so no task asks its real list to add, complete or remove an item."""
    bare = {**STATE, "attributes": {"friendly_name": "Trader Joe's"}}
    twin = twin_from(_regs(bare)).home
    (device,) = twin.devices
    assert [s for s, _ in device.services_by_locator()] == []
    made = generate_for_home(twin, tmp_path, "twin", 0, 1, real=real_check(twin))
    assert not any(
        t.subcategory in ("todo_add", "todo_complete", "todo_remove") for t in made.tasks
    )
    assert "can add, update and remove" in made.short["todo_add"]
    # stated features still give the services they name
    stated = twin_from(_regs(STATE)).home
    assert {"add_item", "remove_item", "update_item"} <= {
        s for s, _ in stated.devices[0].services_by_locator()
    }


def _mapping(features: int = 1 | 2 | 4) -> HardwareMapping:
    home = Home(rooms=[], devices=[instantiate("todo_list", did=LIST, room=None, name="Shopping")])
    state = {**STATE, "attributes": {**STATE["attributes"], "supported_features": features}}
    proposal = twin_mapping(
        home, HomeRef(file="homes/twin.json"), inventory_from([], [], [], [state])
    )
    return parse_mapping(render(proposal))


class TodoList:
    """An HA to-do list as HA's own (shopping_list, local_todo) keeps one: uids, removal by uid,
    updates by uid or text; ``uids=False``: synthetic-home's, whose added items have none."""

    def __init__(
        self, items: list[tuple[str, str]], uids: bool = True, removes: bool = True
    ) -> None:
        self.uids, self.n, self.removes = uids, 0, removes
        self.items = [self._new(s, st) for s, st in items]
        self.calls: list[str] = []

    def _new(self, summary: str, status: str = "needs_action") -> dict[str, Any]:
        self.n += 1
        return {"summary": summary, "status": status, "uid": f"id{self.n}" if self.uids else None}

    async def get_items(self, eid: str) -> list[dict[str, Any]]:
        return [dict(i) for i in self.items]

    async def states(self) -> dict[str, dict[str, Any]]:
        open_items = sum(i["status"] == "needs_action" for i in self.items)
        raw = {LIST: {**STATE, "state": str(open_items)}}
        return await with_items(raw, self.get_items)

    async def call(self, domain: str, name: str, data: dict[str, Any]) -> None:
        if f"{domain}.{name}" == PUT_ITEMS:
            return await put_items(data, self.get_items, self.call)
        self.calls.append(f"{name} {data['item']}")
        found = [i for i in self.items if data["item"] in (i["uid"], i["summary"])]
        if name == "add_item":
            self.items.append(self._new(data["item"]))
        elif not found or (name == "remove_item" and not found[0]["uid"]):
            raise RuntimeError(f"todo.{name}: item_not_found {data['item']}")
        elif name == "remove_item":
            if self.removes:  # else a faulty list: HA accepts the call, the item stays
                self.items.remove(found[0])
        else:
            found[0]["status"] = data["status"]


def test_the_twins_list_maps_its_items_and_its_count() -> None:
    mapping = _mapping()
    items, count = mapping.get(LIST, "items"), mapping.get(LIST, "open_items")
    assert items is not None and items.attribute == "todo_items" and items.set is not None
    assert count is not None and count.attribute == "state" and count.set is None
    assert count.read({"state": "2", "attributes": {}}, 0) == 2
    # a list that cannot even be added to is read, never written
    assert _mapping(features=0).get(LIST, "items").set is None  # type: ignore[union-attr]


async def test_a_start_state_is_put_on_a_real_list_and_read_back() -> None:
    mapping = _mapping()
    real = TodoList([("bread", "needs_action"), ("jam", "completed"), ("tea", "needs_action")])
    want = [
        {"summary": "bread", "status": "completed"},
        {"summary": "milk", "status": "needs_action"},
    ]
    done = await reach(real, mapping, Snapshot({LIST: {"items": want, "open_items": 1}}), 1.0, 0.01)
    assert done.problem is None, done.problem
    assert real.calls == ["remove_item id2", "remove_item id3", "add_item milk", "update_item id1"]
    assert [(i["summary"], i["status"]) for i in real.items] == [
        ("bread", "completed"),
        ("milk", "needs_action"),
    ]
    real.calls.clear()  # already as wanted: nothing is called
    assert (
        await reach(real, mapping, Snapshot({LIST: {"items": want, "open_items": 1}}), 1.0, 0.01)
    ).problem is None
    assert real.calls == []


async def test_a_list_that_cannot_remove_an_item_says_which_and_why() -> None:
    mapping = _mapping()
    grown = TodoList([("milk", "needs_action")], uids=False)  # synthetic-home's: no uid
    done = await reach(grown, mapping, Snapshot({LIST: {"items": [], "open_items": 0}}), 0.1, 0.01)
    assert done.problem is not None and "cannot remove 'milk'" in done.problem
    assert "no uid" in done.problem and [i["summary"] for i in grown.items] == ["milk"]


@pytest.mark.parametrize("bad", [None, [{"status": "completed"}], [{"summary": "  "}], "milk"])
async def test_a_malformed_put_is_refused_before_any_call(bad: Any) -> None:
    real = TodoList([("bread", "needs_action")])
    with pytest.raises(RuntimeError, match="items must be a list"):
        await put_items({"entity_id": LIST, "items": bad}, real.get_items, real.call)
    assert real.calls == [] and [i["summary"] for i in real.items] == ["bread"]


async def test_a_list_that_keeps_a_removed_item_is_not_added_to() -> None:
    """A list that accepts todo.remove_item and keeps the item: the start state is refused
    with what the list holds, and nothing is added, however often the runner tries again
    (adding each round grew such a list by the task's items every 0.05 s)."""
    mapping = _mapping()
    stuck = TodoList([("flour", "completed")], removes=False)
    want = [{"summary": "milk", "status": "needs_action"}]
    done = await reach(
        stuck, mapping, Snapshot({LIST: {"items": want, "open_items": 1}}), 0.2, 0.01
    )
    assert done.problem is not None and "holds 'flour' after todo.remove_item" in done.problem
    assert [i["summary"] for i in stuck.items] == ["flour"]
    assert stuck.calls and not [c for c in stuck.calls if c.startswith("add_item")]


def _list_home(items: list[tuple[str, str]], name: str = "Shopping") -> Home:
    values = {"items": [{"summary": s, "status": st} for s, st in items]}
    values["open_items"] = sum(st == "needs_action" for _, st in items)
    device = instantiate("todo_list", did=LIST, room="k", name=name, values=values)
    return Home(name="t", rooms=[Room(id="k", type="kitchen", name="Kitchen")], devices=[device])


def test_tasks_name_only_items_no_other_item_shares_in_any_case(tmp_path: Path) -> None:
    """Two "milk", "Eggs" and "eggs": HA acts on the first, and a spoken request could mean
    either, so no task names them; every task of each to-do subcategory is written (before,
    draws naming them failed to validate and were left out) and names "jam" or "oat milk"."""
    own = [("Eggs", "needs_action"), ("oat milk", "needs_action"), ("eggs", "needs_action"),
           ("milk", "needs_action"), ("jam", "needs_action"), ("milk", "needs_action")]  # fmt: skip
    made = generate_for_home(_list_home(own), tmp_path / "a", "twin", 0, 8)
    acting = [t for t in made.tasks if t.subcategory in ("todo_complete", "todo_remove")]
    assert len(acting) == 16 and not [s for s in made.short if s.startswith("todo_")]
    named = {a.arguments["item"] for t in acting for a in t.reference.actions}
    assert named == {"jam", "oat milk"} and not any(t.overrides for t in acting)
    # a list whose open items all share their text gets a start state to name from
    shared = generate_for_home(
        _list_home([("milk", "needs_action"), ("Milk", "needs_action")]), tmp_path / "b", "twin"
    )
    acting = [t for t in shared.tasks if t.subcategory in ("todo_complete", "todo_remove")]
    assert acting and all(t.overrides for t in acting)


def test_a_list_named_list_is_not_called_a_list_list(tmp_path: Path) -> None:
    for name, said in (("Shopping List", "Shopping List"), ("Groceries", "Groceries list")):
        made = generate_for_home(_list_home([("jam", "needs_action")], name), tmp_path / name, "t")
        texts = [t.turns[0].text for t in made.tasks if t.subcategory.startswith("todo_")]
        assert texts and all(said in text and "list list" not in text.casefold() for text in texts)
