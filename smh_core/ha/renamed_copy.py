"""A task on a copy of the mapped home whose only change is devices' names (the safety suite's
text inside a device name that tries to instruct the model), played on the real home.

The copy's names are given to the real entities in HA's entity registry for the task and put
back after it, so HA's conversation agent (and anything else that reads names) sees what the
task's home says. The user's registry is theirs: nothing is renamed unless the run is told it
may (``smh bench run --rename-devices``), each entity's own registry name is written to a
journal (``renamed.json`` in the run's folder) *before* it is changed, and a run that finds a
journal (one killed between the two) puts those names back before anything else. A copy that
differs in anything HA cannot show for the task (a device's description: HA keeps none; any
other field) is not played here, with why.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from smh_core.homeenv.model import Device, Home

from .hardware_map import HardwareMapping
from .websocket import WsCall

JOURNAL = "renamed.json"
"""The run folder's journal of registry names changed and not yet put back."""

OPT_IN = "--rename-devices"
NEEDS_RENAMING = "a device renamed for the task"
"""The skip reason's head for a renamed copy the run may not rename (the detail says how)."""
DESCRIPTION = "a device's description changed (HA keeps no description to show it)"
OTHER_HOME = "other home"


class JournalError(ValueError):
    """A journal that does not read (names the file and what is wrong)."""


@dataclass(frozen=True)
class Renaming:
    """What makes the real home the task's copy: entity id -> the copy's name."""

    names: dict[str, str]

    def detail(self) -> str:
        return ", ".join(f"{eid} as {name!r}" for eid, name in sorted(self.names.items()))


def _rest(model: Home | Device, *fields: str) -> dict[str, Any]:
    return model.model_dump(mode="json", exclude=set(fields))


def renaming(home: Home, copy: Home, mapping: HardwareMapping) -> Renaming | str:
    """The renames that make ``home``'s real devices ``copy`` for a task, or why there are none
    (:data:`OTHER_HOME`, :data:`DESCRIPTION`, a renamed device that is not one entity)."""
    if _rest(home, "name", "devices") != _rest(copy, "name", "devices"):
        return OTHER_HOME
    if [d.did for d in home.devices] != [d.did for d in copy.devices]:
        return OTHER_HOME
    names: dict[str, str] = {}
    for mine, theirs in zip(home.devices, copy.devices, strict=True):
        if mine == theirs:
            continue
        if _rest(mine, "name", "description") != _rest(theirs, "name", "description"):
            return OTHER_HOME
        if mine.description != theirs.description:
            return DESCRIPTION
        entities = sorted({amap.entity for amap in mapping.devices.get(mine.did, {}).values()})
        if not entities:  # a high-risk device left out, or one no rule maps
            return f"{NEEDS_RENAMING}: {mine.did} is not in the mapping (left out, or not mapped)"
        if len(entities) != 1:  # a name for one entity only: several would all carry it
            return f"{NEEDS_RENAMING}: {mine.did} is on {len(entities)} entities of HA, not one"
        names[entities[0]] = theirs.name
    if not names:
        return OTHER_HOME  # the home's own name alone: nothing of it is in HA
    return Renaming(names)


def read_journal(path: Path) -> dict[str, str | None]:
    """Entity id -> its registry name before the run changed it (``None``: HA's own name)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise JournalError(f"{path}: not a journal of renamed entities ({e})") from e
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and (v is None or isinstance(v, str)) for k, v in data.items()
    ):
        raise JournalError(f"{path}: expected an object of entity id -> name or null")
    return data


def _write_journal(path: Path, prior: dict[str, str | None]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(prior, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(tmp, path)  # whole or not at all: a kill never leaves half a journal


async def put_back(call: WsCall, journal: Path) -> str | None:
    """Give every entity in ``journal`` its name again; the journal goes once all are back.
    What could not be put back, or None. An entity that has its name already (the journal is
    written before the first rename, which may then have been refused) is left alone."""
    if not journal.exists():
        return None
    problems = []
    for eid, name in read_journal(journal).items():
        try:
            entry = await call({"type": "config/entity_registry/get", "entity_id": eid})
            if entry.get("name") != name:
                message = {"type": "config/entity_registry/update", "entity_id": eid, "name": name}
                await call(message)
        except RuntimeError as e:
            problems.append(f"{eid} (was {name!r}): {e}")
    if problems:
        return "; ".join(problems)
    journal.unlink()
    return None


async def rename(call: WsCall, names: Renaming, journal: Path) -> None:
    """Give each entity its name for the task, its own written to ``journal`` first (raises
    ``RuntimeError`` with HA's message, e.g. for a user who is no admin or an entity HA's
    registry does not have; what was renamed before the error stays in the journal)."""
    prior: dict[str, str | None] = read_journal(journal) if journal.exists() else {}
    for eid in names.names:
        if eid not in prior:
            entry = await call({"type": "config/entity_registry/get", "entity_id": eid})
            prior[eid] = entry.get("name")
    _write_journal(journal, prior)
    for eid, name in names.names.items():
        await call({"type": "config/entity_registry/update", "entity_id": eid, "name": name})


async def shown(states: Any, names: Renaming, timeout: float, interval: float = 0.1) -> str | None:
    """Wait until HA's states carry the new names (``states``: an awaitable of entity id ->
    state); what still shows another name after ``timeout`` seconds, or None."""
    end = time.monotonic() + timeout
    while True:
        now = await states()
        wrong = [
            eid
            for eid, name in names.names.items()
            if (now.get(eid) or {}).get("attributes", {}).get("friendly_name") != name
        ]
        if not wrong or time.monotonic() >= end:
            return None if not wrong else f"HA still shows another name for {', '.join(wrong)}"
        await asyncio.sleep(interval)


class NamesNotPutBack(ValueError):
    """The user's names could not all be given back (the journal stays for the next run, and
    names the entities and their names; a ValueError so the CLI says it in one line)."""


@asynccontextmanager
async def given_names(
    call: WsCall,
    names: Renaming,
    journal: Path,
    states: Callable[[], Awaitable[dict[str, Any]]],
    timeout: float,
) -> AsyncIterator[str | None]:
    """The copy's names in HA for the body (it gets None, or why HA does not show them: nothing
    is then played); the user's names back after it, also when it fails or is cancelled
    (:class:`NamesNotPutBack` when HA does not take them: the run must stop renaming)."""
    try:
        try:
            await rename(call, names, journal)
            problem = await shown(states, names, timeout)
        except RuntimeError as e:  # not an admin, no registry entry: in HA's words
            problem = f"HA did not rename them: {e}"
        yield problem
    finally:
        left = await put_back(call, journal)
        if left is not None:
            raise NamesNotPutBack(f"{journal}: the names were not all put back: {left}")


def socket_call(url: str, token: str, session: Any) -> WsCall:
    """A ``call`` that sends each command on a websocket of its own: a task may wait for hours
    between renaming and putting back, longer than one idle socket should be trusted to last."""
    from .websocket import HaSocket

    async def call(message: dict[str, Any]) -> Any:
        async with HaSocket(url, token, session) as socket:
            return await socket.call(message)

    return call
