"""Agent tools: argument models (pydantic) -> JSON schemas, and dispatch to a backend.

The schemas the model sees are generated from the same pydantic models that validate the
calls, so they cannot drift apart. A call whose arguments fail validation is answered with
the exact invalid field and what is allowed, for the model to correct itself.

Tools that end or pause the loop (``ask_user``, ``finish``) are declared here but handled by
the loop itself; :func:`dispatch` answers only the home-facing tools.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .backend import HomeBackend
from .resolve import resolve_devices


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NoArgs(_Args):
    pass


class ListDevicesArgs(_Args):
    room: str | None = Field(default=None, description="room id; includes rooms nested inside it")
    category: str | None = Field(default=None, description="device category such as light, ac, fan")
    tags: list[str] | None = Field(default=None, description="all of these tags must be present")


class DeviceArgs(_Args):
    did: str = Field(description="device id")


class FindArgs(_Args):
    description: str = Field(description="natural description, e.g. 'the lamp by the bed'")


class ControlArgs(_Args):
    did: str = Field(description="device id")
    locator: str = Field(description="service locator, e.g. turn_on or fan.set_speed_level")
    arguments: dict[str, Any] = Field(default_factory=dict, description="service arguments by name")


class AskUserArgs(_Args):
    question: str = Field(description="one clarification question for the user")


class FinishArgs(_Args):
    answer: str = Field(description="final reply to the user: what was done, the answer, or why not")


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    args: type[_Args]
    run: Callable[[HomeBackend, Any], Any] | None  # None: handled by the loop

    def schema(self) -> dict[str, Any]:
        params = self.args.model_json_schema()
        params.pop("title", None)
        for prop in params.get("properties", {}).values():
            prop.pop("title", None)
        return {"type": "function", "function": {"name": self.name, "description": self.description,
                                                 "parameters": params}}


TOOLS: dict[str, Tool] = {t.name: t for t in [
    Tool("list_rooms", "List the home's rooms (id, name, type, floor, parent room).", NoArgs,
         lambda b, a: b.list_rooms()),
    Tool("list_devices", "List devices, optionally filtered by room, category and tags.", ListDevicesArgs,
         lambda b, a: b.list_devices(room=a.room, category=a.category, tags=a.tags)),
    Tool("find_devices", "Rank devices matching a natural description (name, room, type, tags); ties mean "
         "the description is ambiguous.", FindArgs,
         lambda b, a: [{**c.device, "score": c.score, "matched": c.matched}
                       for c in resolve_devices(b, a.description)]),
    Tool("get_device_status", "Current attribute values of one device.", DeviceArgs,
         lambda b, a: b.device_status(a.did)),
    Tool("get_device_spec", "Attributes with their constraints and services with argument schemas.", DeviceArgs,
         lambda b, a: b.device_spec(a.did)),
    Tool("control_device", "Call a device service; invalid calls change nothing and explain why.", ControlArgs,
         lambda b, a: b.execute(a.did, a.locator, a.arguments)),
    Tool("get_current_time", "The current local date and time.", NoArgs, lambda b, a: {"now": b.now()}),
    Tool("ask_user", "Ask the user one clarification question and wait for the reply.", AskUserArgs, None),
    Tool("finish", "End the turn with the final reply to the user.", FinishArgs, None),
]}


def tool_schemas(names: list[str] | None = None) -> list[dict[str, Any]]:
    return [TOOLS[n].schema() for n in (names or list(TOOLS))]


def validate_args(name: str, arguments: dict[str, Any]) -> _Args | dict[str, Any]:
    """Parsed arguments, or an error payload naming the tool, field and problem."""
    tool = TOOLS.get(name)
    if tool is None:
        return {"ok": False, "error": {"code": "unknown_tool", "message": f"unknown tool {name!r}",
                                       "allowed": sorted(TOOLS)}}
    try:
        return tool.args.model_validate(arguments)
    except ValidationError as e:
        first = e.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "(arguments)"
        return {"ok": False, "error": {"code": "invalid_tool_arguments", "tool": name, "field": field,
                                       "message": f"{name}: {field}: {first['msg']}",
                                       "allowed": sorted(tool.args.model_fields)}}


def dispatch(backend: HomeBackend, name: str, arguments: dict[str, Any]) -> Any:
    """Run a home-facing tool. Never raises for bad input: returns an error payload instead."""
    parsed = validate_args(name, arguments)
    if isinstance(parsed, dict):
        return parsed
    tool = TOOLS[name]
    if tool.run is None:
        return {"ok": False, "error": {"code": "loop_tool", "message": f"{name} is handled by the agent loop"}}
    return tool.run(backend, parsed)
