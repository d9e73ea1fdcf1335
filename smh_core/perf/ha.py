"""Home Assistant figures: config-entry setup time for the complex home (until every entity
exists) and service calls per second through HA with the engine's validation on the path.

Calls/s depends on the machine more than on SMH: most of a call is HA's own service and state
machinery. So the same loop also runs against HA's own ``input_boolean`` (no integration code
at all) in the same process, interleaved in rounds, and both medians are reported: the ratio
is SMH's share of the cost, comparable across machines.

Runs a real Home Assistant core (the version the test plugin pins) in-process, with this
repository's ``custom_components`` and the registries in memory. The first setup warms imports
and platform loading; the measured setups are the following ones (a fresh entry each time).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class HaPerf:
    entities: int
    setup_ms_median: float
    setup_ms_runs: list[float]
    calls: int
    calls_per_second: float
    baseline_per_second: float
    """HA's own ``input_boolean`` through the same loop, same process (HA alone)."""
    call_rounds: list[tuple[float, float]]
    """(SMH, baseline) calls/s per round."""


REPO = Path(__file__).resolve().parents[2]
CALL_ROUNDS = 5


async def _measure(rounds: int, calls: int) -> HaPerf:
    if not (REPO / "custom_components" / "smh").is_dir():
        raise FileNotFoundError(f"smh perf ha runs from a checkout: no custom_components/smh under {REPO}")
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    from homeassistant.helpers import entity_registry as er
    from pytest_homeassistant_custom_component.common import (
        MockConfigEntry,
        async_test_home_assistant,
    )

    import custom_components  # noqa: F401  (this repository's package, before HA's loader looks)
    from custom_components.smh.const import DOMAIN
    from smh_core.homeenv.engine import dump_home
    from smh_core.homeenv.generator import generate_home

    with tempfile.TemporaryDirectory() as cfg:
        (Path(cfg) / "complex.json").write_text(dump_home(generate_home("complex", 0)))
        (Path(cfg) / "custom_components").symlink_to(Path(custom_components.__file__).parent)
        async with async_test_home_assistant(config_dir=cfg) as hass:
            from homeassistant import loader

            hass.data.pop(loader.DATA_CUSTOM_COMPONENTS, None)
            runs: list[float] = []
            entities = 0
            for i in range(rounds + 1):
                entry = MockConfigEntry(domain=DOMAIN, data={"source": "file", "file": "complex.json",
                                                             "level": "complex", "seed": 0, "time_scale": 1.0})
                entry.add_to_hass(hass)
                t0 = time.perf_counter()
                assert await hass.config_entries.async_setup(entry.entry_id)
                await hass.async_block_till_done()
                elapsed = (time.perf_counter() - t0) * 1000
                entities = len(er.async_entries_for_config_entry(er.async_get(hass), entry.entry_id))
                if i > 0:
                    runs.append(elapsed)
                if i < rounds:
                    await hass.config_entries.async_remove(entry.entry_id)
                    await hass.async_block_till_done()
            # service calls through HA: toggle a switch entity's power back and forth, and the
            # same for a bare input_boolean (HA alone), alternating rounds so load hits both alike
            from homeassistant.setup import async_setup_component

            assert await async_setup_component(hass, "input_boolean", {"input_boolean": {"baseline": {}}})
            reg = er.async_get(hass)
            switch = next(e.entity_id for e in er.async_entries_for_config_entry(reg, entry.entry_id)
                          if e.domain == "switch" and e.unique_id.endswith("_state"))

            async def loop(domain: str, entity_id: str, n: int) -> float:
                t0 = time.perf_counter()
                for i in range(n):
                    await hass.services.async_call(domain, "turn_on" if i % 2 else "turn_off",
                                                   {"entity_id": entity_id}, blocking=True)
                return n / (time.perf_counter() - t0)

            await loop("switch", switch, 500)  # warm both paths
            await loop("input_boolean", "input_boolean.baseline", 500)
            call_rounds = []
            per_round = max(1, calls // CALL_ROUNDS)
            for _ in range(CALL_ROUNDS):
                call_rounds.append((await loop("switch", switch, per_round),
                                    await loop("input_boolean", "input_boolean.baseline", per_round)))
            await hass.async_stop(force=True)
    per_second = statistics.median(r[0] for r in call_rounds)
    baseline = statistics.median(r[1] for r in call_rounds)
    return HaPerf(entities, statistics.median(runs), runs, per_round * CALL_ROUNDS, per_second, baseline,
                  call_rounds)


def measure_ha(rounds: int = 5, calls: int = 5000) -> HaPerf:
    return asyncio.run(_measure(rounds, calls))
