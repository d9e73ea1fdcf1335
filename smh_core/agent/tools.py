"""Agent tools: argument models (pydantic) -> JSON schemas, and dispatch to a backend.

The schemas the model sees are generated from the same pydantic models that validate the
calls, so they cannot drift apart. A call whose arguments fail validation is answered with
the exact invalid field and what is allowed, for the model to correct itself.

Tools that end or pause the loop (``ask_user``, ``finish``) are declared here but handled by
the loop itself; :func:`dispatch` answers only the home-facing tools.

The table is written once, against :class:`~.backend.AsyncHomeBackend`: every tool awaits the
backend. Callers on an event loop (the agents, Home Assistant) use :func:`dispatch_async`; a sync
caller with a sync backend (tests, scripts, the replay of a recorded run) uses :func:`dispatch`,
which runs the same table over :class:`~.backend.AsyncAdapter`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from smh_core.homeenv.rules import Action, Condition, Trigger

from .backend import AsyncAdapter, AsyncHomeBackend, HomeBackend, run_sync
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


class RoomArgs(_Args):
    room: str = Field(description="room id")


class ScheduleArgs(_Args):
    at: str = Field(description="local date-time to act, ISO 8601, e.g. 2025-06-27T18:30:00")
    actions: list[Action] = Field(min_length=1, description="device calls to run then, in order")


class ScheduleIdArgs(_Args):
    schedule_id: str = Field(description="id returned by schedule_actions")


class AutomationArgs(_Args):
    name: str = Field(default="", description="short human-readable name")
    triggers: list[Trigger] = Field(
        min_length=1,
        description=(
            "when to run: time (cron; Quartz 'sec min hour day month weekday [year]' or Unix 5-field), "
            "state (a device attribute becomes a value, optionally for_s seconds), numeric (above/below; "
            "room climate is device '@<room id>' with locator temperature/humidity/illuminance/pm25/pm10)"
        ),
    )
    conditions: list[Condition] = Field(
        default_factory=list,
        description=(
            "all must hold when triggered: state, numeric, or time window (after/before HH:MM, weekdays 0=Mon)"
        ),
    )
    actions: list[Action] = Field(min_length=1, description="device calls to run")


class AutomationIdArgs(_Args):
    automation_id: str = Field(description="id returned by create_automation")


class AskUserArgs(_Args):
    question: str = Field(description="one clarification question for the user")


class FinishArgs(_Args):
    answer: str = Field(
        description="final reply to the user: what was done, the answer, or why not"
    )


class _Listed:
    """The two reads :func:`resolve_devices` makes, already awaited."""

    def __init__(self, rooms: list[dict[str, Any]], devices: list[dict[str, Any]]) -> None:
        self.rooms, self.devices = rooms, devices

    def list_rooms(self) -> list[dict[str, Any]]:
        return self.rooms

    def list_devices(
        self, room: str | None = None, category: str | None = None, tags: list[str] | None = None
    ) -> list[dict[str, Any]]:
        return self.devices


async def _find_devices(b: AsyncHomeBackend, a: FindArgs) -> list[dict[str, Any]]:
    listed = _Listed(await b.list_rooms(), await b.list_devices())
    return [
        {**c.device, "score": c.score, "matched": c.matched}
        for c in resolve_devices(listed, a.description)
    ]


async def _now(b: AsyncHomeBackend, a: NoArgs) -> dict[str, str]:
    return {"now": await b.now()}


@dataclass(frozen=True)
class Tool[T]:
    """A tool the model can call; ``run`` acts on a ``T`` (the home's :class:`HomeBackend`, or
    the memory tools' :class:`~.memory_tools.UserMemory`) with the parsed arguments."""

    name: str
    description: str
    args: type[_Args]
    run: Callable[[T, Any], Any] | None  # None: handled by the loop

    def schema(self) -> dict[str, Any]:
        params = self.args.model_json_schema()
        params.pop("title", None)
        for prop in params.get("properties", {}).values():
            prop.pop("title", None)
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": params},
        }


TOOLS: dict[str, Tool[AsyncHomeBackend]] = {
    t.name: t
    for t in [
        Tool(
            "list_rooms",
            "List the home's rooms (id, name, type, floor, parent room).",
            NoArgs,
            lambda b, a: b.list_rooms(),
        ),
        Tool(
            "list_devices",
            "List devices, optionally filtered by room, category and tags.",
            ListDevicesArgs,
            lambda b, a: b.list_devices(room=a.room, category=a.category, tags=a.tags),
        ),
        Tool(
            "find_devices",
            "Rank devices matching a natural description (name, room, type, tags); ties mean "
            "the description is ambiguous.",
            FindArgs,
            _find_devices,
        ),
        Tool(
            "get_device_status",
            "Current attribute values of one device.",
            DeviceArgs,
            lambda b, a: b.device_status(a.did),
        ),
        Tool(
            "get_device_spec",
            "Attributes with their constraints and services with argument schemas.",
            DeviceArgs,
            lambda b, a: b.device_spec(a.did),
        ),
        Tool(
            "control_device",
            "Call a device service; invalid calls change nothing and explain why.",
            ControlArgs,
            lambda b, a: b.execute(a.did, a.locator, a.arguments),
        ),
        Tool(
            "get_room_environment",
            "A room's temperature (°C), humidity (%RH), illuminance (lux), PM2.5 and "
            "PM10 (µg/m³) and air-quality class.",
            RoomArgs,
            lambda b, a: b.room_environment(a.room),
        ),
        Tool(
            "get_current_time",
            "The current local date and time.",
            NoArgs,
            _now,
        ),
        Tool(
            "schedule_actions",
            "Run device calls once at a future local time; the calls are checked when "
            "they run, so check the device's spec first.",
            ScheduleArgs,
            lambda b, a: b.schedule(a.at, [x.model_dump() for x in a.actions]),
        ),
        Tool(
            "cancel_schedule",
            "Cancel a pending scheduled action.",
            ScheduleIdArgs,
            lambda b, a: b.cancel_schedule(a.schedule_id),
        ),
        Tool(
            "list_schedules", "Pending scheduled actions.", NoArgs, lambda b, a: b.list_schedules()
        ),
        Tool(
            "create_automation",
            "Store a rule that runs device calls whenever its trigger fires and its "
            "conditions hold (for recurring or event-driven requests).",
            AutomationArgs,
            lambda b, a: b.create_automation(
                a.model_dump(mode="json", by_alias=True, exclude_none=True)
            ),
        ),
        Tool(
            "list_automations",
            "Stored automation rules.",
            NoArgs,
            lambda b, a: b.list_automations(),
        ),
        Tool(
            "delete_automation",
            "Remove a stored automation rule.",
            AutomationIdArgs,
            lambda b, a: b.delete_automation(a.automation_id),
        ),
        Tool(
            "ask_user",
            "Ask the user one clarification question and wait for the reply.",
            AskUserArgs,
            None,
        ),
        Tool("finish", "End the turn with the final reply to the user.", FinishArgs, None),
    ]
}


def tool_schemas(names: list[str] | None = None) -> list[dict[str, Any]]:
    return [TOOLS[n].schema() for n in (names or list(TOOLS))]


def validate_args(name: str, arguments: dict[str, Any]) -> _Args | dict[str, Any]:
    """Parsed arguments, or an error payload naming the tool, field and problem."""
    tool = TOOLS.get(name)
    if tool is None:
        return {
            "ok": False,
            "error": {
                "code": "unknown_tool",
                "message": f"unknown tool {name!r}",
                "allowed": sorted(TOOLS),
            },
        }
    try:
        return tool.args.model_validate(arguments)
    except ValidationError as e:
        first = e.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or "(arguments)"
        return {
            "ok": False,
            "error": {
                "code": "invalid_tool_arguments",
                "tool": name,
                "field": field,
                "message": f"{name}: {field}: {first['msg']}",
                "allowed": sorted(tool.args.model_fields),
            },
        }


async def dispatch_async(backend: AsyncHomeBackend, name: str, arguments: dict[str, Any]) -> Any:
    """Run a home-facing tool. Never raises for bad input: returns an error payload instead."""
    parsed = validate_args(name, arguments)
    if isinstance(parsed, dict):
        return parsed
    tool = TOOLS[name]
    if tool.run is None:
        return {
            "ok": False,
            "error": {"code": "loop_tool", "message": f"{name} is handled by the agent loop"},
        }
    return await tool.run(backend, parsed)


def dispatch(backend: HomeBackend, name: str, arguments: dict[str, Any]) -> Any:
    """:func:`dispatch_async` for a sync caller with a sync backend (the same table, over
    :class:`~.backend.AsyncAdapter`, whose calls never wait)."""
    return run_sync(dispatch_async(AsyncAdapter(backend), name, arguments))


def failed_call_note(result: Any) -> str | None:
    """What an agent that did not write the tool must hear with a failed call's result (issue
    38): the complaint HA users repeat most is a reply saying a thing happened when the call
    failed. ``None`` for a result that is no failure (anything but ``{"ok": False, ...}``); a
    guard's question keeps its own instruction (ask it, then call again)."""
    if not isinstance(result, dict) or result.get("ok") is not False:
        return None
    error = result.get("error")
    code = str(error.get("code", "")) if isinstance(error, dict) else ""
    if code == "needs_confirmation":
        return (
            "Not done: nothing was changed. Ask the user the question in this error and wait "
            "for their reply; do not say it was done."
        )
    return (
        "This call failed and changed nothing. Do not tell the user it was done: say that it "
        "did not happen, and why, in your own words."
    )
