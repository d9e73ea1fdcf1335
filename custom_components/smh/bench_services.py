"""Benchmark services: ``smh.load_task`` puts the home in a task's initial state,
``smh.advance_time`` lets simulated time pass (schedules, rules, appliances, room physics) and
``smh.verify`` scores what happened since, with the same verifier as the embedded runner.

A task names its home (generated level + seed, a Matter seed, or a file); it must be the entry's
home, so a benchmark driver groups tasks by home and reconfigures the entry between groups. A
file home is matched by file name (:meth:`smh_core.bench.task.HomeRef.ha_key`): the task's
``homes/sage-0.json`` runs in an entry whose file is e.g. ``smh_homes/sage-0.json``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import voluptuous as vol
from homeassistant.core import HomeAssistant, ServiceCall, ServiceResponse, SupportsResponse
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import config_validation as cv
from pydantic import ValidationError

from smh_core.bench.task import Task
from smh_core.bench.verifier import Outcome, verify

from .const import DOMAIN

ATTR_ENTRY = "config_entry_id"
LOAD_TASK_SCHEMA = vol.Schema({vol.Optional(ATTR_ENTRY): cv.string, vol.Required("task"): dict})
ADVANCE_SCHEMA = vol.Schema({
    vol.Optional(ATTR_ENTRY): cv.string,
    vol.Required("seconds"): vol.All(vol.Coerce(float), vol.Range(min=0, max=366 * 86400)),
})
VERIFY_SCHEMA = vol.Schema({
    vol.Optional(ATTR_ENTRY): cv.string,
    vol.Optional("response", default=""): cv.string,
    vol.Optional("questions", default=[]): [cv.string],
    vol.Optional("tool_calls", default=[]): [dict],
})


def _error(key: str, **placeholders: str) -> ServiceValidationError:
    return ServiceValidationError(translation_domain=DOMAIN, translation_key=key,
                                  translation_placeholders=placeholders)


def register(hass: HomeAssistant, runtime_for: Callable[[ServiceCall], Any]) -> None:
    async def load_task(call: ServiceCall) -> ServiceResponse:
        runtime = runtime_for(call)
        try:
            task = Task.model_validate(call.data["task"])
        except ValidationError as err:
            first = err.errors()[0]
            raise _error("bad_task", field=".".join(str(p) for p in first["loc"]), message=first["msg"]) from err
        if task.home.ha_key() != runtime.home_key:
            raise _error("other_home", task=task.home.ha_key(), home=runtime.home_key)
        engine = runtime.engine
        engine.restore(runtime.initial)
        for override in task.overrides:
            result = engine.set_values(override.did, override.values)
            if not result.ok:
                engine.restore(runtime.initial)
                raise _error("engine_error", message=str(result.error))
        runtime.task = task
        runtime.task_before = engine.snapshot()
        return {"task_id": task.id, "turns": [t.text for t in task.turns]}

    async def verify_task(call: ServiceCall) -> ServiceResponse:
        runtime = runtime_for(call)
        if runtime.task is None:
            raise _error("no_task")
        outcome = Outcome(response=call.data["response"], questions=list(call.data["questions"]),
                          tool_calls=list(call.data["tool_calls"]))
        verdict = await verify(runtime.task, runtime.task_before, runtime.engine.snapshot(), outcome)
        return {"task_id": runtime.task.id, **verdict.to_dict()}

    async def advance_time(call: ServiceCall) -> ServiceResponse:
        clock = runtime_for(call).clock
        if clock is None:
            raise _error("no_clock")
        return clock.advance(float(call.data["seconds"]))

    hass.services.async_register(DOMAIN, "advance_time", advance_time, schema=ADVANCE_SCHEMA,
                                 supports_response=SupportsResponse.OPTIONAL)
    hass.services.async_register(DOMAIN, "load_task", load_task, schema=LOAD_TASK_SCHEMA,
                                 supports_response=SupportsResponse.OPTIONAL)
    hass.services.async_register(DOMAIN, "verify", verify_task, schema=VERIFY_SCHEMA,
                                 supports_response=SupportsResponse.ONLY)
