"""HA's event loop stays free while the simulated home does heavy work.

``smh.advance_time`` runs the simulator in the executor, an hour at a time, so a day with a rule
firing every second (about 10 s of work here) leaves HA serving other coroutines at once, and
ends in exactly the state of the same plain simulator run. A jump is capped at 31 days. The
conversation agent's first turn reads no file and imports no module on the loop (HA's
"Detected blocking call" detector, armed in full, stays silent).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from homeassistant import block_async_io
from homeassistant.components import conversation
from homeassistant.const import EVENT_STATE_CHANGED
from homeassistant.core import Context, Event, HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.setup import async_setup_component
from homeassistant.util import loop as loop_util
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.smh.const import DOMAIN
from smh_core.agent.safety import load_policy
from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home
from smh_core.llm.prompts import load_prompt
from smh_core.sim.simulator import Simulator
from tests.ha.conftest import setup_agent_entry, setup_home_entry
from tests.support import sim_home as sh
from tests.support.fake_openai import FakeOpenAI

DAY = 86400


def busy_home() -> Home:
    """An AC cooling the living room, a lamp switched every second (1 Hz of changes), a washer."""
    return sh.busy_home(period=1)


async def setup(hass: HomeAssistant, home: Home) -> MockConfigEntry:
    return await setup_home_entry(hass, home, time_scale=0.0)


class LoopLag:
    """A coroutine that asks to wake every ``period`` s and records how late each wake was.

    What tells a free loop from a blocked one is how many wakes are late, not the single worst:
    hour slices run on the loop (0.4 s each here, back to back) make nearly every wake late,
    while on a busy machine a free loop still has the odd late wake (0.52 s once, at load 6.6,
    beside a full test run)."""

    def __init__(self, period: float = 0.02) -> None:
        self.period = period
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    @property
    def wakes(self) -> int:
        return len(self.lags)

    @property
    def worst(self) -> float:
        return max(self.lags, default=0.0)

    def share_late(self, seconds: float) -> float:
        """The share of wakes more than ``seconds`` late."""
        return sum(lag > seconds for lag in self.lags) / max(1, len(self.lags))

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time()
            await asyncio.sleep(self.period)
            self.lags.append(loop.time() - asked - self.period)

    def __enter__(self) -> LoopLag:
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *_: Any) -> None:
        assert self._task is not None
        self._task.cancel()


@pytest.mark.slow  # 20-45 s
async def test_a_day_with_a_1hz_rule_leaves_the_loop_free(hass: HomeAssistant) -> None:
    home = busy_home()
    entry = await setup(hass, home)
    runtime = entry.runtime_data
    await hass.services.async_call(
        DOMAIN, "execute", {"did": "3", "locator": "start"}, blocking=True
    )
    pushed: list[Event] = []  # entity states written while the advance is under way
    unlisten = hass.bus.async_listen(EVENT_STATE_CHANGED, pushed.append)

    with LoopLag() as lag:
        advance = hass.async_create_task(
            hass.services.async_call(
                DOMAIN, "advance_time", {"seconds": DAY}, blocking=True, return_response=True
            )
        )
        pushed_while_running = 0
        while not advance.done():
            await asyncio.sleep(0.05)
            pushed_while_running = max(
                pushed_while_running, len(pushed) if not advance.done() else 0
            )
        reply = await advance
    unlisten()

    assert lag.wakes > 20, "the advance should take a while: the property is only meaningful then"
    late = lag.share_late(0.25)
    assert late < 0.1, f"{late:.0%} of the loop's wakes were over 0.25 s late: it was blocked"
    assert lag.worst < 2.0, f"the loop stalled for {lag.worst:.2f} s"
    assert (
        pushed_while_running > 0
    )  # states went out after each slice, from the loop (no thread errors)
    assert reply["now"] == "2025-06-28T12:00:00"
    events = [(e["kind"], e["ref"], e["time"]) for e in reply["events"]]

    plain = HomeEngine(home)  # the same day, one plain advance outside HA
    sim = Simulator(plain)
    plain.execute("3", "start")
    sim.advance(DAY)
    assert events == [(e.kind, e.ref, e.time.isoformat()) for e in sim.log]
    assert len(events) > DAY  # every second a rule, and the washer's end
    assert runtime.clock.sim.now == sim.now
    assert runtime.engine.snapshot().to_dict() == plain.snapshot().to_dict()
    assert hass.states.get(_entity(hass, entry, "1", "local_temperature")).state == str(
        plain.value("1", "local_temperature")
    )


def _entity(hass: HomeAssistant, entry: MockConfigEntry, did: str, locator: str) -> str:
    for state in hass.states.async_all():
        if state.attributes.get("did") == did and state.attributes.get("locator") == locator:
            return state.entity_id
    raise AssertionError(f"no entity for {did}/{locator}")


async def test_services_wait_for_the_running_slice(hass: HomeAssistant) -> None:
    """A call made during an advance lands between two slices, at a whole simulated hour,
    never while the executor holds the engine."""
    entry = await setup(hass, busy_home())
    runtime = entry.runtime_data
    advance = hass.async_create_task(
        hass.services.async_call(
            DOMAIN, "advance_time", {"seconds": 3 * 3600}, blocking=True, return_response=True
        )
    )
    while not runtime.clock.in_slice:
        await asyncio.sleep(0.001)
    await hass.services.async_call(
        DOMAIN, "execute", {"did": "3", "locator": "start"}, blocking=True
    )
    reply = await advance
    done = [e["time"] for e in reply["events"] if e["kind"] == "cycle_complete"]
    assert len(done) == 1 and done[0].endswith(
        ":59:00"
    )  # a 59-minute programme started on the hour


async def test_an_entity_call_during_a_slice_is_refused_not_raced(hass: HomeAssistant) -> None:
    """A platform entity's service writes the engine from the loop: while a slice runs in the
    executor that call is refused with a clear message (never two threads on one engine), and
    the same call works once the advance is done."""
    from homeassistant.helpers import entity_registry as er

    entry = await setup(hass, busy_home())
    runtime = entry.runtime_data
    entities = er.async_entries_for_config_entry(er.async_get(hass), entry.entry_id)
    lamp = next(e.entity_id for e in entities if e.unique_id.endswith("_2_on"))
    advance = hass.async_create_task(
        hass.services.async_call(
            DOMAIN, "advance_time", {"seconds": 3 * 3600}, blocking=True, return_response=True
        )
    )
    while not runtime.clock.in_slice:
        await asyncio.sleep(0.001)
    with pytest.raises(ServiceValidationError, match="being fast-forwarded"):
        await hass.services.async_call("switch", "turn_on", {"entity_id": lamp}, blocking=True)
    await advance
    await hass.services.async_call("switch", "turn_off", {"entity_id": lamp}, blocking=True)
    assert hass.states.get(lamp).state == "off"


async def test_two_advances_at_once_add_up(hass: HomeAssistant) -> None:
    entry = await setup(hass, busy_home())
    first, second = await asyncio.gather(
        *(
            hass.services.async_call(
                DOMAIN, "advance_time", {"seconds": 1800}, blocking=True, return_response=True
            )
            for _ in range(2)
        )
    )
    assert sorted([first["now"], second["now"]]) == ["2025-06-27T12:30:00", "2025-06-27T13:00:00"]
    assert entry.runtime_data.clock.sim.now.isoformat() == "2025-06-27T13:00:00"


async def test_more_than_31_days_is_refused(hass: HomeAssistant) -> None:
    entry = await setup(hass, sh.home(sh.lamp("2", "living")))
    before = entry.runtime_data.clock.sim.now
    with pytest.raises(ServiceValidationError) as exc:
        await hass.services.async_call(
            DOMAIN, "advance_time", {"seconds": 31 * DAY + 1}, blocking=True
        )
    assert exc.value.translation_key == "advance_too_long"
    assert exc.value.translation_placeholders["max_days"] == "31"
    assert entry.runtime_data.clock.sim.now == before
    reply = await hass.services.async_call(
        DOMAIN, "advance_time", {"seconds": 31 * DAY}, blocking=True, return_response=True
    )
    assert reply["now"] == "2025-07-28T12:00:00"


# ---------------------------------------------------------------------------- blocking calls
@pytest.fixture
def blocking_detector(
    monkeypatch: pytest.MonkeyPatch, disable_block_async_io: None
) -> Iterator[None]:
    """HA's blocking-call detector as a real HA runs it: in tests HA skips file reads and
    ``importlib`` imports; here they count too."""
    monkeypatch.setattr(block_async_io, "_IN_TESTS", False)
    yield


def _arm() -> None:
    load_prompt.cache_clear()  # as in a fresh HA: an earlier test may have read the files
    load_policy.cache_clear()
    loop_util._PREVIOUSLY_REPORTED.clear()  # an earlier report would be logged at debug only
    block_async_io.enable()


@pytest.mark.parametrize("tools", ["home", "ha"])
async def test_first_conversation_turn_makes_no_blocking_call(
    hass: HomeAssistant,
    tiny_home_file: str,
    server: FakeOpenAI,
    blocking_detector: None,
    caplog: pytest.LogCaptureFixture,
    tools: str,
) -> None:
    assert await async_setup_component(hass, "homeassistant", {})
    _arm()  # from setup on: the platform may read files, but in the executor
    await setup_agent_entry(
        hass,
        tiny_home_file,
        {
            "base_url": server.base_url,
            "model": "fake-model",
            "api_key": "k",
            "tool_budget": 5,
            "tools": tools,
        },
    )
    server.script = [{"tool_calls": [("get_current_time", "{}")]}, {"content": "It is noon."}]
    result = await conversation.async_converse(
        hass, "What time is it?", None, Context(), agent_id="conversation.tiny"
    )
    assert result.response.speech["plain"]["speech"] == "It is noon."
    blocking = [
        r.getMessage()[:300] for r in caplog.records if "Detected blocking call" in r.getMessage()
    ]
    assert blocking == []
