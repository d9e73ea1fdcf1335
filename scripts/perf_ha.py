"""``smh perf ha``: SMH's Home Assistant figures as ratios against plain entities.

Absolute HA figures say more about the machine than about SMH (most of a service call is HA's
own service and state machinery). So every figure is measured twice, in the same process and in
interleaved rounds: once for SMH's integration with the complex home, once for ``plain_home``
(``scripts/perf_ha_plain/``), entities written the way home-assistant-synthetic-home writes
them, with the same platforms, entity counts per platform and device count. The ratio is what
SMH costs on top of HA itself:

- light calls/s: ``light.turn_on`` with a brightness, alternating two values (SMH: validated by
  the engine, then the simulator's reaction and one state write), SMH / plain, target >= 0.8
  (issue 37);
- cold setup: the first config-entry setup in a fresh process (the integration's imports and
  HA's platform imports included; Python's bytecode cache on, as in HA), SMH / plain, target <= 1.0
  (issue 37);
- warm setup per entity: a further setup of a fresh entry, per entity, SMH / plain, target <= 1.0.

Runs a real Home Assistant core (the version pytest-homeassistant-custom-component pins)
in-process with the registries in memory; it needs a checkout (this script and
``custom_components/``), which is why it lives in ``scripts/`` and not in ``smh_core``.

    python scripts/perf_ha.py [--rounds 5] [--calls 5000] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PLAIN_DIR = Path(__file__).resolve().parent / "perf_ha_plain"
HOME_FILE = "complex.json"
TARGETS = {
    "light_calls_ratio": (">=", 0.8),
    "cold_setup_ratio": ("<=", 1.0),
    "warm_setup_per_entity_ratio": ("<=", 1.0),
}


@dataclass
class HaPerf:
    entities: int
    devices: int
    counts: dict[str, int]
    """Entities per HA platform (the plain baseline gets the same)."""
    smh_light_calls_per_second: float
    plain_light_calls_per_second: float
    light_calls_ratio: float
    smh_cold_setup_ms: float
    plain_cold_setup_ms: float
    cold_setup_ratio: float
    smh_warm_setup_ms: float
    plain_warm_setup_ms: float
    warm_setup_per_entity_ratio: float
    rounds: int
    calls: int

    def met(self) -> dict[str, bool]:
        return {
            name: (getattr(self, name) >= bound if op == ">=" else getattr(self, name) <= bound)
            for name, (op, bound) in TARGETS.items()
        }


def _custom_components() -> None:
    """This checkout's ``custom_components`` (before HA's loader looks), with the plain
    baseline's folder added to the package path so HA finds ``plain_home`` beside ``smh``."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    import custom_components

    if str(PLAIN_DIR) not in custom_components.__path__:
        custom_components.__path__.append(str(PLAIN_DIR))


def complex_home_json() -> str:
    from smh_core.homeenv.engine import dump_home
    from smh_core.homes.generator import generate_home

    return dump_home(generate_home("complex", 0))


@asynccontextmanager
async def _hass(home_json: str) -> AsyncIterator[Any]:
    """A real HA core on a temporary config dir holding the home's file (its text is made by
    the caller: a cold-setup process must not have imported any of SMH before it measures)."""
    _custom_components()
    from homeassistant import loader
    from pytest_homeassistant_custom_component.common import async_test_home_assistant

    with tempfile.TemporaryDirectory() as cfg:
        (Path(cfg) / HOME_FILE).write_text(home_json, encoding="utf-8")
        async with async_test_home_assistant(config_dir=cfg) as hass:
            hass.data.pop(loader.DATA_CUSTOM_COMPONENTS, None)
            try:
                yield hass
            finally:
                await hass.async_stop(force=True)


def _entry_data(kind: str, counts: dict[str, int]) -> tuple[str, dict[str, Any]]:
    if kind == "smh":
        return "smh", {
            "source": "file",
            "file": HOME_FILE,
            "level": "complex",
            "seed": 0,
            "time_scale": 1.0,
        }
    return "plain_home", {"file": HOME_FILE, "counts": counts}


async def _setup(hass: Any, kind: str, counts: dict[str, int]) -> tuple[Any, float]:
    """Set up a fresh entry of ``kind``; its id and the wall milliseconds until every entity exists."""
    from pytest_homeassistant_custom_component.common import MockConfigEntry

    domain, data = _entry_data(kind, counts)
    entry = MockConfigEntry(domain=domain, data=data)
    entry.add_to_hass(hass)
    t0 = time.perf_counter()
    assert await hass.config_entries.async_setup(entry.entry_id), f"{kind} entry did not set up"
    await hass.async_block_till_done()
    return entry, (time.perf_counter() - t0) * 1000


def _layout(hass: Any, entry: Any) -> tuple[dict[str, int], int]:
    """Entities per platform and devices of an entry (what the plain baseline copies)."""
    from homeassistant.helpers import device_registry as dr
    from homeassistant.helpers import entity_registry as er

    entities = er.async_entries_for_config_entry(er.async_get(hass), entry.entry_id)
    counts = Counter(e.domain for e in entities if e.domain != "conversation")
    return dict(sorted(counts.items())), len(
        dr.async_entries_for_config_entry(dr.async_get(hass), entry.entry_id)
    )


async def _remove(hass: Any, entry: Any) -> None:
    await hass.config_entries.async_remove(entry.entry_id)
    await hass.async_block_till_done()


async def _light_rate(hass: Any, entity_id: str, n: int) -> float:
    t0 = time.perf_counter()
    for i in range(n):
        await hass.services.async_call(
            "light",
            "turn_on",
            {"entity_id": entity_id, "brightness": 96 if i % 2 else 192},
            blocking=True,
        )
    return n / (time.perf_counter() - t0)


def _first_light(hass: Any, entry: Any) -> str:
    from homeassistant.helpers import entity_registry as er

    return min(
        e.entity_id
        for e in er.async_entries_for_config_entry(er.async_get(hass), entry.entry_id)
        if e.domain == "light"
    )


async def _warm(home_json: str, rounds: int, calls: int) -> dict[str, Any]:
    """Layout, warm setups per entity and light calls/s, interleaved SMH/plain in one process."""
    async with _hass(home_json) as hass:
        entry, _ = await _setup(hass, "smh", {})  # warm-up, and the layout to copy
        counts, devices = _layout(hass, entry)
        await _remove(hass, entry)
        entry, _ = await _setup(hass, "plain", counts)
        await _remove(hass, entry)
        setups: dict[str, list[float]] = {"smh": [], "plain": []}
        for _ in range(rounds):
            for kind in setups:
                entry, ms = await _setup(hass, kind, counts)
                setups[kind].append(ms)
                await _remove(hass, entry)
        smh_entry, _ = await _setup(hass, "smh", counts)
        plain_entry, _ = await _setup(hass, "plain", counts)
        lights = {"smh": _first_light(hass, smh_entry), "plain": _first_light(hass, plain_entry)}
        for entity_id in lights.values():
            await _light_rate(hass, entity_id, 300)  # warm both paths
        rates: dict[str, list[float]] = {"smh": [], "plain": []}
        per_round = max(1, calls // rounds)
        for _ in range(rounds):
            for kind, entity_id in lights.items():
                rates[kind].append(await _light_rate(hass, entity_id, per_round))
    return {
        "counts": counts,
        "devices": devices,
        "setups": setups,
        "rates": rates,
        "calls": per_round * rounds,
    }


async def _cold(kind: str, counts: dict[str, int], home_file: Path) -> float:
    async with _hass(home_file.read_text(encoding="utf-8")) as hass:
        entry, ms = await _setup(hass, kind, counts)
        await _remove(hass, entry)
    return ms


def _bytecode_env(pycache: Path) -> dict[str, str]:
    """The environment of a cold process: Python's bytecode cache on, in ``pycache``.

    Home Assistant runs with the bytecode cache (its images even precompile it), so a cold
    start there reads ``__pycache__`` for SMH's modules as for HA's. Without this, a shell
    with ``PYTHONDONTWRITEBYTECODE`` set would recompile SMH's ~90 modules from source on
    every start (~0.2 s on this machine) while HA's own, precompiled at install, are read:
    a cost no HA user pays, charged to SMH only. One unmeasured start per side fills the
    cache first (HA's first start after an install does the same)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def _cold_in_fresh_process(
    kind: str, counts: dict[str, int], home_file: Path, env: dict[str, str]
) -> float:
    """One cold setup in a new interpreter (nothing of the integration imported yet)."""
    out = subprocess.run(
        [
            sys.executable,
            __file__,
            "--cold",
            kind,
            "--counts",
            json.dumps(counts),
            "--home-file",
            str(home_file),
        ],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    if out.returncode != 0:
        raise RuntimeError(f"cold {kind} setup failed:\n{out.stderr[-2000:]}")
    return float(out.stdout.strip().splitlines()[-1])


def measure(rounds: int = 5, calls: int = 5000) -> HaPerf:
    home_json = complex_home_json()
    warm = asyncio.run(_warm(home_json, rounds, calls))
    counts, devices = warm["counts"], warm["devices"]
    cold: dict[str, list[float]] = {"smh": [], "plain": []}
    with tempfile.TemporaryDirectory() as tmp:
        home_file = Path(tmp) / HOME_FILE
        home_file.write_text(home_json, encoding="utf-8")
        env = _bytecode_env(Path(tmp) / "pycache")
        for kind in cold:  # unmeasured: fills the bytecode cache
            _cold_in_fresh_process(kind, counts, home_file, env)
        for _ in range(rounds):
            for kind in cold:
                cold[kind].append(_cold_in_fresh_process(kind, counts, home_file, env))
    med = {
        f"{kind}_{what}": statistics.median(values[kind])
        for what, values in (("setup", warm["setups"]), ("rate", warm["rates"]), ("cold", cold))
        for kind in ("smh", "plain")
    }
    entities = sum(counts.values())
    return HaPerf(
        entities=entities,
        devices=devices,
        counts=counts,
        smh_light_calls_per_second=med["smh_rate"],
        plain_light_calls_per_second=med["plain_rate"],
        light_calls_ratio=med["smh_rate"] / med["plain_rate"],
        smh_cold_setup_ms=med["smh_cold"],
        plain_cold_setup_ms=med["plain_cold"],
        cold_setup_ratio=med["smh_cold"] / med["plain_cold"],
        smh_warm_setup_ms=med["smh_setup"],
        plain_warm_setup_ms=med["plain_setup"],
        # same entity count on both sides, so per-entity and whole-entry ratios agree
        warm_setup_per_entity_ratio=med["smh_setup"] / med["plain_setup"],
        rounds=rounds,
        calls=warm["calls"],
    )


def render(r: HaPerf) -> str:
    met = r.met()
    mark = {True: "met", False: "MISSED"}
    per_entity = 1000 / r.entities
    return "\n".join(
        [
            f"complex home in Home Assistant: {r.entities} entities on {r.devices} devices "
            f"(plain baseline: the same per platform: {', '.join(f'{p} {n}' for p, n in r.counts.items())})",
            f"  light calls/s (turn_on with brightness, median of {r.rounds} interleaved rounds, {r.calls} calls each side): "
            f"SMH {r.smh_light_calls_per_second:,.0f}, plain {r.plain_light_calls_per_second:,.0f} -> "
            f"{r.light_calls_ratio:.2f}x   target >= 0.8x: {mark[met['light_calls_ratio']]}",
            f"  cold setup in a fresh process (median of {r.rounds}): SMH {r.smh_cold_setup_ms:.0f} ms, "
            f"plain {r.plain_cold_setup_ms:.0f} ms -> {r.cold_setup_ratio:.2f}x   target <= 1.0x: "
            f"{mark[met['cold_setup_ratio']]}",
            f"  warm setup (median of {r.rounds}): SMH {r.smh_warm_setup_ms:.0f} ms "
            f"({r.smh_warm_setup_ms * per_entity:.0f} us/entity), plain {r.plain_warm_setup_ms:.0f} ms "
            f"({r.plain_warm_setup_ms * per_entity:.0f} us/entity) -> {r.warm_setup_per_entity_ratio:.2f}x per entity   "
            f"target <= 1.0x: {mark[met['warm_setup_per_entity_ratio']]}",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--rounds", type=int, default=5, help="interleaved rounds per figure (default: 5)"
    )
    p.add_argument(
        "--calls",
        type=int,
        default=5000,
        help="light calls per side, over all rounds (default: 5000)",
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.add_argument("--cold", choices=["smh", "plain"], help=argparse.SUPPRESS)
    p.add_argument("--counts", default="{}", help=argparse.SUPPRESS)
    p.add_argument("--home-file", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.rounds < 1 or args.calls < 1:
        p.error("--rounds and --calls must be at least 1")
    if args.cold:
        print(asyncio.run(_cold(args.cold, json.loads(args.counts), args.home_file)))
        return 0
    r = measure(args.rounds, args.calls)
    print(json.dumps({**asdict(r), "met": r.met()}, indent=2) if args.json else render(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
