"""Keep the whole simulation across Home Assistant restarts.

One HA storage file per entry (``.storage/smh.<entry id>.state``, JSON, version 1)::

    {"home": "<home name>",
     "devices": {"<did>": {"<locator>": value}, "@<room id>": {"temperature": 24.1, ...}},
     "simulation": {"now": "2025-06-27T13:00:00.500000",
                    "schedules": [<ScheduledAction>, ...], "automations": [<Rule>, ...]},
     "advance": {"from": "2025-06-27T12:00:00", "target": "2025-07-04T12:00:00"}}

- ``devices`` is the engine's snapshot: every device value, and each simulated room's climate
  (temperature, humidity, illuminance, PM2.5/PM10, air quality) under ``@<room id>``. Values go
  back through ``engine.set_values``, so one that no longer fits the device's schema (a changed
  device type file) is dropped with a warning instead of corrupting the home.
- ``simulation`` is what :meth:`Simulator.to_home` writes into a home file's ``simulation.now``,
  ``schedules`` and ``automations`` (the same models, the same JSON): the clock to the tick,
  every schedule with its status (done ones too, so they do not run again), every stored rule.
- ``advance`` is there while an ``smh.advance_time`` jump runs (:class:`.clock.Jump`, written
  before its first slice): a restart resumes it from ``simulation.now`` (see :mod:`.clock`).
- A running (or paused) appliance programme needs nothing more: its state, countdown, phase and
  mode are device values, and the simulator resumes a programme from them (to the countdown's
  second, the unit the device reports).

Not kept: the simulator's event log and the "for" timer of a rule whose condition is being held
(it starts again with the next change).

When: an engine change, or a change of the clock, a schedule or a rule (checked every second),
schedules one write ``SAVE_DELAY`` later that takes the state at write time, so one write covers
a burst; unload writes at once. A ``kill -9`` therefore loses at most the last second. While a
slice of ``smh.advance_time`` runs in the executor the engine is that thread's: a write falling
then takes the state at the end of the previous slice (a checkpoint taken on the loop).

Stored state is used only if it is of the same home (by name); a schedule or rule that no longer
fits the home (a device gone) is dropped with a warning.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.event import async_track_time_interval
from homeassistant.helpers.storage import Store

from smh_core.homeenv.engine import ENV_PREFIX, HomeEngine
from smh_core.homeenv.plain import same_form
from smh_core.sim.simulator import Simulator

from .const import DOMAIN

if TYPE_CHECKING:
    from smh_core.homeenv.model import Home
    from smh_core.homeenv.rules import Rule

    from .clock import SimClock

_LOGGER = logging.getLogger(__name__)
STORAGE_VERSION = 1
SAVE_DELAY = 1.0
POLL = timedelta(seconds=1)
"""How often the clock, schedules and rules are checked for a change (they change the engine
only sometimes: a rule stored by the agent with the clock stopped changes nothing there)."""


def dump_model(model: Any) -> dict[str, Any]:
    """A schedule or rule as a home file writes it (:func:`smh_core.homeenv.engine.dump_home`)."""
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


def simulation_state(sim: Simulator) -> dict[str, Any]:
    """The simulator's own state: clock, schedules (with their history) and rules."""
    return {
        "now": sim.now.isoformat(),
        "schedules": [dump_model(s) for s in sim.schedules(include_done=True)],
        "automations": [dump_model(r) for r in sim.rules()],
    }


def _fingerprint(sim: Simulator) -> tuple[Any, ...]:
    """Cheap to compare each second: changes whenever :func:`simulation_state` would (rules are
    replaced, never edited, when the agent changes one; a schedule changes only its status)."""
    return (
        sim.tick,
        tuple((s.id, s.status) for s in sim.schedules(include_done=True)),
        tuple(id(r) for r in sim.rules()),
    )


def _valid(home: Home, kind: str, items: Any, what: str) -> list[Any]:
    """The stored items that still validate as model ``kind`` (in ``home``'s form: the plain one
    for a home file, :mod:`smh_core.homeenv.plain`); the others dropped with a warning."""
    out = []
    for item in items if isinstance(items, list) else ():
        try:
            out.append(same_form(home, kind, item))
        except ValueError as err:
            _LOGGER.warning("not restoring a stored %s: %s", what, err)
    return out


class StatePersistence:
    """Loads the stored state before the engine exists, puts it back, then keeps it written."""

    def __init__(self, hass: HomeAssistant, entry_id: str) -> None:
        self.hass = hass
        self.store: Store[dict[str, Any]] = Store(
            hass, STORAGE_VERSION, f"{DOMAIN}.{entry_id}.state"
        )
        self.engine: HomeEngine | None = None
        self.clock: SimClock | None = None
        self.stored_now: datetime | None = None
        """The simulated time the stored state was taken at (None: no stored simulation)."""
        self.stored_jump: Any = None
        """The ``smh.advance_time`` jump that was running when the state was stored, as stored."""
        self._devices: dict[str, Any] = {}
        self._rules: list[Rule] | None = None
        self._checkpoint: dict[str, Any] | None = None
        self._seen: tuple[Any, ...] | None = None
        self._pending = False
        self._unsubs: list[Callable[[], None]] = []

    # ------------------------------------------------------------------ restoring
    async def async_load(self, home: Home) -> Home:
        """Read the stored state; returns ``home`` with the stored schedules (the simulator
        starts from a home's schedules), or ``home`` itself if nothing of it is stored."""
        stored = await self.store.async_load()
        if not stored or stored.get("home") != home.name:
            return home
        self._devices = stored.get("devices") or {}
        self.stored_jump = stored.get("advance")
        sim = stored.get("simulation")
        if not isinstance(sim, dict):
            return home  # written before the simulation was kept: the devices only
        try:
            self.stored_now = datetime.fromisoformat(sim["now"]).replace(tzinfo=None)
        except (KeyError, TypeError, ValueError) as err:
            _LOGGER.warning("not restoring the simulated clock: %r", err)
        self._rules = _valid(home, "Rule", sim.get("automations"), "automation")
        schedules = _valid(home, "ScheduledAction", sim.get("schedules"), "schedule")
        return home.model_copy(update={"schedules": schedules or None})

    def restore_values(self, engine: HomeEngine) -> int:
        """Put the stored device values and room climates back (before the simulator starts,
        so a programme resumes from its stored countdown); returns how many were restored."""
        known = set(engine.device_ids()) | {ENV_PREFIX + room for room in engine.simulated_rooms()}
        restored = 0
        for did, values in self._devices.items():
            if did not in known or not isinstance(values, dict):
                continue
            current = engine.state_view(did)
            changed = {k: v for k, v in values.items() if k in current and current[k] != v}
            if not changed:
                continue
            result = engine.set_values(did, changed)
            if result.ok:
                restored += 1
            else:
                _LOGGER.warning("not restoring %s: %s", did, result.error)
        return restored

    def restore_rules(self, sim: Simulator) -> None:
        """Replace the home file's rules by the stored ones (a rule deleted since stays deleted)."""
        if self._rules is None:
            return
        for rule in sim.rules():
            sim.remove_rule(rule.id)
        for rule in self._rules:
            try:
                sim.add_rule(rule)
            except ValueError as err:
                _LOGGER.warning("not restoring automation %s: %s", rule.id, err)

    # ------------------------------------------------------------------ saving
    @callback
    def start(self, engine: HomeEngine, clock: SimClock) -> None:
        self.engine, self.clock = engine, clock
        self._checkpoint = self._capture()
        self._unsubs = [
            engine.add_listener(self._changed),
            clock.add_listener(self._after_slice),
            async_track_time_interval(
                self.hass, self._poll, POLL, name="smh state save", cancel_on_shutdown=True
            ),
        ]

    def _capture(self) -> dict[str, Any]:
        assert self.engine is not None and self.clock is not None
        self._seen = _fingerprint(self.clock.sim)
        data = {
            "home": self.engine.home.name,
            "devices": self.engine.snapshot().to_dict(),
            "simulation": simulation_state(self.clock.sim),
        }
        if self.clock.jump is not None:
            data["advance"] = self.clock.jump.to_dict()
        return data

    def _data(self) -> dict[str, Any]:
        """The state to write, taken now (a slice in the executor: its last checkpoint)."""
        self._pending = False
        if self.clock is not None and self.clock.in_slice and self._checkpoint is not None:
            return self._checkpoint
        return self._capture()

    @callback
    def _schedule(self, delay: float = SAVE_DELAY) -> None:
        # One scheduled save covers a burst of changes: the state is taken at write time.
        if not self._pending:
            self._pending = True
            self.store.async_delay_save(self._data, delay)

    def _changed(self, _changes: Any) -> None:
        if self._pending:  # a save is scheduled already and takes the state when it writes
            return
        if threading.get_ident() != self.hass.loop_thread_id:
            return  # a slice in the executor: _after_slice saves on the loop
        self._schedule()

    @callback
    def _after_slice(self) -> None:
        self._checkpoint = self._capture()
        self._schedule()

    @callback
    def _poll(self, _now: datetime) -> None:
        """Save a change of the clock, a schedule or a rule that changed no device (within the
        second it happened: the write follows at once)."""
        if self.clock is None or self.clock.in_slice:
            return
        if _fingerprint(self.clock.sim) != self._seen:
            self._schedule(0)

    async def async_save_now(self) -> None:
        """Write the state at once (a jump starting or ending, HA stopping)."""
        if self.engine is not None:
            await self.store.async_save(self._data())

    async def async_stop(self) -> None:
        """Stop watching and write the state now (unload, shutdown; the clock is stopped)."""
        for unsub in self._unsubs:
            unsub()
        self._unsubs = []
        if self.engine is not None:
            await self.store.async_save(self._data())
