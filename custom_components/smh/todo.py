"""To-do and shopping lists: the items with their status, added, renamed, marked done or not done
and removed by their text (HA's todo services; ``todo.get_items`` reads them). HA shows the list's
state as the number of items not done."""

from __future__ import annotations

from typing import Any

from homeassistant.components.todo import (
    TodoItem,
    TodoItemStatus,
    TodoListEntity,
    TodoListEntityFeature,
)

from .entity import SmhRichEntity, rich_setup


class SmhTodoList(SmhRichEntity, TodoListEntity):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self._attr_supported_features = self.features(TodoListEntityFeature)

    @property
    def todo_items(self) -> list[TodoItem]:
        """The items, each identified by its text (the device finds items by it)."""
        return [
            TodoItem(summary=i["summary"], uid=i["summary"], status=TodoItemStatus(i["status"]))
            for i in self.get("items") or []
        ]

    async def async_create_todo_item(self, item: TodoItem) -> None:
        self.run(self.rich.call("add", item=item.summary or ""))

    async def async_update_todo_item(self, item: TodoItem) -> None:
        """HA's ``todo.update_item``: the item (found by its uid, its old text) renamed and/or
        marked done or not done; a list with only ``complete_item`` can only mark it done."""
        old = item.uid or item.summary or ""
        if "update" in self.rich.calls:
            args: dict[str, Any] = {"item": old}
            if item.summary and item.summary != old:
                args["rename"] = item.summary
            if item.status is not None:
                args["status"] = str(item.status)
            self.run(self.rich.call("update", **args))
        elif item.status == TodoItemStatus.COMPLETED:
            self.run(self.rich.call("complete", item=old))

    async def async_delete_todo_items(self, uids: list[str]) -> None:
        self.run(*(self.rich.call("remove", item=uid) for uid in uids))


async_setup_entry = rich_setup("todo", SmhTodoList)
