"""Issue 39's flow on a real HA to-do list that adds, updates and removes items: HA's own
``shopping_list`` (its todo entity creates, updates, deletes and moves items; no requirement).
The twin is read live (items with ``todo.get_items``), tasks are written for each to-do
subcategory, the oracle runs them on the twin and, through the mapping the twin implies, on the
real list; side by side nothing differs. A list that ignores updates or removals is flagged and
its tasks are not scored. ``tests/ha/twin_flow.py`` drives the flow."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from smh_core.ha.hardware import run_on_hardware
from smh_core.ha.hardware_map import load_mapping
from smh_core.ha.twin_compare import compare_runs
from smh_core.homeenv.engine import HomeEngine
from smh_core.suites.for_home.todo import TODO_SUBCATEGORIES
from smh_core.task.home import HomeCache
from smh_core.task.model import Task
from tests.ha.rich_cases import DID, entity_id, setup_device
from tests.ha.twin_flow import TwinFlow, twin_then_real

LIST = "todo.shopping_list"
PER_SUBCATEGORY = 4
OWN = [("oat milk", False), ("Eggs", False), ("eggs", False), ("flour", True), ("milk", False),
       ("jam", False), ("milk", False)]  # fmt: skip
"""A used list: two items that differ only in case, one twice, one done. Tasks may name only
"oat milk" and "jam" (no other item shares their text)."""
NOTHING_OPEN = [("flour", True)]
"""Nothing left to do: each task to complete, remove or ask puts its own items there first,
removing "flour" (``todo.remove_item``) and adding three (``todo.add_item``)."""
ACTING = ("todo_complete", "todo_remove")


async def _items(hass: HomeAssistant) -> list[tuple[str, str]]:
    answer: Any = await hass.services.async_call(
        "todo", "get_items", {"entity_id": LIST}, blocking=True, return_response=True
    )
    return [(i["summary"], i["status"]) for i in answer[LIST]["items"]]


async def _shopping_url(hass: HomeAssistant, hass_client, items: list[tuple[str, bool]]) -> str:
    """HA's shopping list holding ``items`` (text, done), the APIs on a loopback port."""
    # file_upload (an smh dependency) registers an HTTP view before the test server starts
    domains = ("homeassistant", "api", "websocket_api", "config", "conversation", "file_upload")
    for domain in domains:
        assert await async_setup_component(hass, domain, {})
    entry = MockConfigEntry(domain="shopping_list")
    entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(entry.entry_id)
    await hass.async_block_till_done()
    for text, _ in items:
        await hass.services.async_call(
            "todo", "add_item", {"entity_id": LIST, "item": text}, blocking=True
        )
    answer: Any = await hass.services.async_call(
        "todo", "get_items", {"entity_id": LIST}, blocking=True, return_response=True
    )
    for item, (_, done) in zip(answer[LIST]["items"], items, strict=True):
        if done:  # by uid: "milk" twice
            data = {"entity_id": LIST, "item": item["uid"], "status": "completed"}
            await hass.services.async_call("todo", "update_item", data, blocking=True)
    return str((await hass_client()).make_url("")).rstrip("/")


def _todo_tasks(flow: TwinFlow) -> list[Task]:
    return [t for t in flow.made.tasks if t.subcategory in TODO_SUBCATEGORIES]


@pytest.mark.parametrize("start", ["own items", "nothing open"])
async def test_todo_tasks_pass_on_the_twin_and_the_real_list_alike(
    hass: HomeAssistant, hass_client, hass_access_token: str, tmp_path: Path, capsys, start: str
) -> None:
    items = OWN if start == "own items" else NOTHING_OPEN
    url = await _shopping_url(hass, hass_client, items)
    began = time.perf_counter()
    flow = await twin_then_real(hass, url, hass_access_token, tmp_path, PER_SUBCATEGORY)
    seconds = time.perf_counter() - began
    twin_items = HomeEngine(flow.home).value(LIST, "items")
    assert [(i["summary"], i["status"] == "completed") for i in twin_items] == items
    todo = _todo_tasks(flow)
    # every to-do subcategory, each task drawn (none left out for naming a shared item)
    assert {t.subcategory for t in todo} == set(TODO_SUBCATEGORIES)
    assert len(todo) == PER_SUBCATEGORY * len(TODO_SUBCATEGORIES)
    assert not [sub for sub in flow.made.short if sub in TODO_SUBCATEGORIES], flow.made.short
    acting = [t for t in todo if t.subcategory in ACTING]
    named = {a.arguments["item"] for t in acting for a in t.reference.actions}
    if start == "own items":
        assert named == {"oat milk", "jam"} and not any(t.overrides for t in todo)
    else:  # every task but an addition starts from items it puts there itself
        assert all(t.overrides for t in todo if t.subcategory != "todo_add")
    # named as HA names the list ("Shopping List", "Shopping list" on other HA releases)
    name = hass.states.get(LIST).name
    assert all(
        name in t.turns[0].text and "list list" not in t.turns[0].text.casefold() for t in todo
    ), (name, [t.turns[0].text for t in todo])
    # the oracle passes each on the twin and on the real list; side by side nothing differs
    assert flow.run.skipped_tasks == {}
    assert {task for task, _, _ in flow.side.both} == {t.id for t in flow.made.tasks}
    assert all(twin and real for _, twin, real in flow.side.both), flow.side.markdown()
    assert flow.side.differences == [] and flow.side.only_twin == {}, flow.side.markdown()
    with capsys.disabled():
        print(f"\nTODO {start}: {len(flow.made.tasks)} tasks ({len(todo)} to-do) on both, "
              f"{len(flow.side.differences)} differences, {seconds:.1f} s")  # fmt: skip


async def test_a_list_that_ignores_updates_and_removals_is_flagged(
    hass: HomeAssistant, hass_client, hass_access_token: str, tmp_path: Path
) -> None:
    """HA accepts the calls and the list does nothing: each task to complete or remove an item
    is not scored and the list is flagged as having ignored it; a start state that needs a
    removal is refused with what the list holds, and the list is not added to (it grew by the
    task's items each time the runner tried again, to hundreds of items)."""
    url = await _shopping_url(hass, hass_client, OWN)
    flow = await twin_then_real(hass, url, hass_access_token, tmp_path, 1)
    entity = hass.data["todo"].get_entity(LIST)

    async def ignore(**kwargs: Any) -> None:  # the call reaches the list, which does nothing
        return None

    entity.async_update_todo_item = ignore
    entity.async_delete_todo_items = ignore
    chosen = [t for t in flow.made.tasks if t.subcategory in ACTING]
    before = await _items(hass)

    async def run(tasks: list[Task], name: str) -> Any:
        return await run_on_hardware(
            tasks,
            url,
            hass_access_token,
            "conversation.home_assistant",
            load_mapping(flow.mapping_file),
            tmp_path / name,
            HomeCache(flow.tasks_dir),
            progress=False,
            interval=0.05,
            player="oracle",
            attempts=1,
        )

    faulty = await run(chosen, "faulty-run")
    # the runner commands a device that did not follow once more: a removal it kept is not
    # followed by the list's items added again
    assert await _items(hass) == before
    side = compare_runs(flow.twin_run, tmp_path / "faulty-run", flow.home, faulty.skipped_tasks)
    assert set(side.by_device()) == {LIST}
    # the list and its count stayed as they were: ignored, never "rounded" (a count one above)
    assert dict(side.by_device()[LIST]) == {"ignored": 2 * len(chosen)}, side.markdown()
    assert side.both == []  # tasks the faulty run did not have are "not run", not scored
    assert all(side.only_twin[t.id].startswith("not scored: the commanded state") for t in chosen)
    assert f"| {LIST} | {2 * len(chosen)} | 0 | 0 | 0 | 0 |" in side.markdown()

    # a task that starts from its own items: the list's are to go first, and stay
    own = next(t for t in flow.made.tasks if t.subcategory == "todo_add")
    start = {"items": [{"summary": "tea", "status": "needs_action"}], "open_items": 1}
    fresh = Task.model_validate({**own.model_dump(), "overrides": [{"did": LIST, "values": start}]})
    stuck = await run([fresh], "stuck-run")
    why = stuck.skipped_tasks.get(fresh.id, "")
    assert "after todo.remove_item" in why and "nothing added" in why, stuck.skipped_tasks
    assert await _items(hass) == before  # not one item more


async def test_the_twin_finds_an_item_as_home_assistant_does(
    hass: HomeAssistant, hass_client, hass_access_token: str, tmp_path: Path
) -> None:
    """An item named otherwise than exactly ("OAT MILK", " jam") is refused by the real list and
    by its twin, neither changing; of two items that differ only in case, each side completes
    the one named. Also for SMH's own list in HA, which HA hands the exact text it matched."""
    url = await _shopping_url(hass, hass_client, OWN)
    flow = await twin_then_real(hass, url, hass_access_token, tmp_path, 1)
    twin = HomeEngine(flow.home)
    for text in ("OAT MILK", " jam", "Milk"):
        snapshot = twin.snapshot()
        assert not twin.execute(LIST, "complete_item", {"item": text}).ok
        assert twin.diff(snapshot, twin.snapshot()) == []
        real = await _items(hass)
        with pytest.raises(ServiceValidationError):
            await hass.services.async_call(
                "todo",
                "update_item",
                {"entity_id": LIST, "item": text, "status": "completed"},
                blocking=True,
            )
        assert await _items(hass) == real
    data = {"entity_id": LIST, "item": "eggs", "status": "completed"}
    await hass.services.async_call("todo", "update_item", data, blocking=True)
    assert twin.execute(LIST, "complete_item", {"item": "eggs"}).ok
    real_items = await _items(hass)
    assert [(i["summary"], i["status"]) for i in twin.value(LIST, "items")] == real_items
    assert ("Eggs", "needs_action") in real_items and ("eggs", "completed") in real_items

    values = {"items": [{"summary": s, "status": "needs_action"} for s in ("Eggs", "eggs")]}
    entry, engine = await setup_device(hass, "todo_list", {**values, "open_items": 2})
    smh_list = entity_id(hass, entry, "todo", "todo")
    data = {"entity_id": smh_list, "item": "eggs", "status": "completed"}
    await hass.services.async_call("todo", "update_item", data, blocking=True)
    assert [i["status"] for i in engine.value(DID, "items")] == ["needs_action", "completed"]
