"""``smh perf ha``: SMH's Home Assistant figures as ratios against plain entities.

Absolute HA figures say more about the machine than about SMH (most of a service call is HA's
own service and state machinery). So every figure is measured twice, in the same process and in
interleaved rounds: once for SMH's integration with the complex home, once for ``plain_home``
(``scripts/perf_ha_plain/``), entities written the way home-assistant-synthetic-home writes
them, with the same platforms, entity counts per platform and device count. The ratio is what
SMH costs on top of HA itself (CPU time of the process, :data:`CLOCK`):

- light calls/s: ``light.turn_on`` with a brightness, alternating two values (SMH: validated by
  the engine, then the simulator's reaction and one state write), SMH / plain, target >= 0.8
  (issue 37);
- cold setup: the first config-entry setup in a fresh process (the integration's imports and
  HA's platform imports included; Python's bytecode cache on, as in HA), SMH / plain, target <= 1.0
  (issue 37); also measured in a bare HA (below), not the target;
- warm setup per entity: a further setup of a fresh entry, per entity, SMH / plain, target <= 1.0.

With ``--peer-synthetic-home PATH`` (a checkout of allenporter's home-assistant-synthetic-home)
and ``--peer-lib DIR`` (its ``synthetic-home`` library, ``pip install --no-deps --target DIR
synthetic-home==<the version its manifest pins>``), the real peer is measured too, in the same
processes and rounds, on the complex home written as its YAML inventory
(``scripts/perf_ha_peer.py`` says how, and what differs), and every figure gets a second ratio,
SMH / synthetic-home: the issue's targets are against that peer; the plain baseline needs
nothing downloaded.

Every figure is measured in an HA with Assist: HA's ``homeassistant`` and ``conversation``
integrations set up first, as ``default_config`` (every new HA) does and as both SMH (an agent
and an LLM API for Assist) and synthetic-home (made to evaluate Assist agents) are used. The
cold setup is measured a second time in a bare HA (only ``homeassistant``), where a first
integration that imports HA's ``conversation`` pays for loading it (synthetic-home does, for
one constant: about 50 ms that an HA with Assist has paid already).

Runs a real Home Assistant core (the version pytest-homeassistant-custom-component pins)
in-process with the registries in memory; it needs a checkout (this script and
``custom_components/``), which is why it lives in ``scripts/`` and not in ``smh_core``.

    python scripts/perf_ha.py [--rounds 5] [--calls 5000] [--json]
        [--peer-synthetic-home PATH [--peer-lib DIR]]
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

import perf_ha_peer as peer

REPO = Path(__file__).resolve().parents[1]
PLAIN_DIR = Path(__file__).resolve().parent / "perf_ha_plain"
HOME_FILE = "complex.json"
CLOCK = time.process_time
"""Every figure is this process's CPU time (all its threads: HA's executor jobs count), not wall
time: the machine is shared, and another job's burst would land on whichever side ran then
(as ``smh perf sim --peer-simuhome`` times its sides)."""
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
    smh_cold_setup_bare_ms: float
    """The cold setup in a bare HA (no ``conversation``): not the target, shown beside it."""
    plain_cold_setup_bare_ms: float
    smh_warm_setup_ms: float
    plain_warm_setup_ms: float
    warm_setup_per_entity_ratio: float
    rounds: int
    calls: int
    synthetic: SyntheticPerf | None = None
    """The real peer's figures, with ``--peer-synthetic-home``."""

    def met(self) -> dict[str, bool]:
        return _met(self)


@dataclass
class SyntheticPerf:
    """home-assistant-synthetic-home's figures, measured beside SMH's in the same rounds."""

    version: str
    """Of its ``synthetic-home`` library (what its manifest pins)."""
    entities: int
    devices: int
    counts: dict[str, int]
    """Its entities per platform, as HA's registry has them."""
    substituted: dict[str, int]
    """SMH platforms it has no platform for -> entities given the nearest platform it has."""
    light_calls_per_second: float
    cold_setup_ms: float
    cold_setup_bare_ms: float
    warm_setup_ms: float
    light_calls_ratio: float
    """SMH / synthetic-home (the issue's targets are against these)."""
    cold_setup_ratio: float
    cold_setup_bare_ratio: float
    warm_setup_per_entity_ratio: float

    def met(self) -> dict[str, bool]:
        return _met(self)


def _met(r: HaPerf | SyntheticPerf) -> dict[str, bool]:
    return {
        name: (getattr(r, name) >= bound if op == ">=" else getattr(r, name) <= bound)
        for name, (op, bound) in TARGETS.items()
    }


@dataclass(frozen=True)
class Peer:
    """Where the synthetic-home checkout and its library are (``--peer-synthetic-home``)."""

    checkout: Path
    lib: Path | None
    version: str


def _custom_components(synthetic: Peer | None) -> None:
    """This checkout's ``custom_components`` (before HA's loader looks), with the plain
    baseline's folder added to the package path so HA finds ``plain_home`` beside ``smh``, and
    the peer's (and its library) when it is measured."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    import custom_components

    if str(PLAIN_DIR) not in custom_components.__path__:
        custom_components.__path__.append(str(PLAIN_DIR))
    if synthetic is not None:
        peer.activate(synthetic.checkout, synthetic.lib)


def complex_home_json() -> str:
    from smh_core.homeenv.engine import dump_home
    from smh_core.homes.generator import generate_home

    return dump_home(generate_home("complex", 0))


@asynccontextmanager
async def _hass(
    files: dict[str, str], synthetic: Peer | None = None, assist: bool = True
) -> AsyncIterator[Any]:
    """A real HA core on a temporary config dir holding the home's files (their text is made by
    the caller: a cold-setup process must not have imported any of SMH before it measures), with
    HA's ``homeassistant`` integration set up, as in every real HA (synthetic-home's entities
    expose themselves to Assist through it), and with ``assist`` its ``conversation``
    integration too, as ``default_config`` sets it up."""
    _custom_components(synthetic)
    from homeassistant import loader
    from homeassistant.setup import async_setup_component
    from pytest_homeassistant_custom_component.common import async_test_home_assistant

    with tempfile.TemporaryDirectory() as cfg:
        for name, text in files.items():
            (Path(cfg) / name).write_text(text, encoding="utf-8")
        async with async_test_home_assistant(config_dir=cfg) as hass:
            hass.data.pop(loader.DATA_CUSTOM_COMPONENTS, None)
            assert await async_setup_component(hass, "homeassistant", {})
            if assist:
                assert await async_setup_component(hass, "conversation", {})
                await hass.async_block_till_done()
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
    if kind == "synthetic":  # what its config flow stores
        return peer.DOMAIN, {"config_filename": peer.INVENTORY_FILE}
    return "plain_home", {"file": HOME_FILE, "counts": counts}


async def _setup(hass: Any, kind: str, counts: dict[str, int]) -> tuple[Any, float]:
    """Set up a fresh entry of ``kind``; its id and the CPU milliseconds until every entity
    exists (:data:`CLOCK`)."""
    from pytest_homeassistant_custom_component.common import MockConfigEntry

    domain, data = _entry_data(kind, counts)
    title = {"title": data["config_filename"]} if kind == "synthetic" else {}
    entry = MockConfigEntry(domain=domain, data=data, **title)
    entry.add_to_hass(hass)
    t0 = CLOCK()
    assert await hass.config_entries.async_setup(entry.entry_id), f"{kind} entry did not set up"
    await hass.async_block_till_done()
    return entry, (CLOCK() - t0) * 1000


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
    t0 = CLOCK()
    for i in range(n):
        await hass.services.async_call(
            "light",
            "turn_on",
            {"entity_id": entity_id, "brightness": 96 if i % 2 else 192},
            blocking=True,
        )
    return n / (CLOCK() - t0)


def _first_light(hass: Any, entry: Any) -> str:
    from homeassistant.helpers import entity_registry as er

    return min(
        e.entity_id
        for e in er.async_entries_for_config_entry(er.async_get(hass), entry.entry_id)
        if e.domain == "light"
    )


async def _synthetic_by_its_flow(hass: Any) -> Any:
    """A synthetic-home entry made by its own config flow (the user's step, the file's name)."""
    result = await hass.config_entries.flow.async_init(peer.DOMAIN, context={"source": "user"})
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"config_filename": peer.INVENTORY_FILE}
    )
    assert result["type"] == "create_entry", f"synthetic-home's config flow: {result}"
    await hass.async_block_till_done()
    return result["result"]


async def _warm(home_json: str, rounds: int, calls: int, synthetic: Peer | None) -> dict[str, Any]:
    """Layout, warm setups per entity and light calls/s, interleaved SMH/plain(/synthetic-home)
    in one process."""
    kinds = ["smh", "plain"] + (["synthetic"] if synthetic else [])
    async with _hass({HOME_FILE: home_json}, synthetic) as hass:
        entry, _ = await _setup(hass, "smh", {})  # warm-up, and the layout to copy
        counts, devices = _layout(hass, entry)
        await _remove(hass, entry)
        entry, _ = await _setup(hass, "plain", counts)
        await _remove(hass, entry)
        layouts = {}
        if synthetic:
            inventory = peer.inventory_yaml(home_json, counts)
            Path(hass.config.path(peer.INVENTORY_FILE)).write_text(inventory, encoding="utf-8")
            entry = await _synthetic_by_its_flow(hass)
            layouts["synthetic"] = _layout(hass, entry)
            await _remove(hass, entry)
        setups: dict[str, list[float]] = {kind: [] for kind in kinds}
        for _ in range(rounds):
            for kind in setups:
                entry, ms = await _setup(hass, kind, counts)
                setups[kind].append(ms)
                await _remove(hass, entry)
        lights = {}
        for kind in kinds:
            entry, _ = await _setup(hass, kind, counts)
            lights[kind] = _first_light(hass, entry)
        for entity_id in lights.values():
            await _light_rate(hass, entity_id, 300)  # warm every path
        rates: dict[str, list[float]] = {kind: [] for kind in kinds}
        per_round = max(1, calls // rounds)
        for _ in range(rounds):
            for kind, entity_id in lights.items():
                rates[kind].append(await _light_rate(hass, entity_id, per_round))
    return {
        "counts": counts,
        "devices": devices,
        "layouts": layouts,
        "setups": setups,
        "rates": rates,
        "calls": per_round * rounds,
    }


async def _cold(
    kind: str, counts: dict[str, int], home_file: Path, synthetic: Peer | None, assist: bool = True
) -> float:
    files = {HOME_FILE: home_file.read_text(encoding="utf-8")}
    if kind == "synthetic":
        files[peer.INVENTORY_FILE] = (home_file.parent / peer.INVENTORY_FILE).read_text(
            encoding="utf-8"
        )
    async with _hass(files, synthetic if kind == "synthetic" else None, assist) as hass:
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
    kind: str,
    counts: dict[str, int],
    home_file: Path,
    env: dict[str, str],
    synthetic: Peer | None = None,
    assist: bool = True,
    prepaid: bool = False,
) -> float:
    """One cold setup in a new interpreter (nothing of the integration imported yet; the peer's
    checkout and library only in the peer's processes), in an HA with Assist or a bare one
    (``prepaid``: SMH's home model layer paid before the clock, :func:`_prepay_model_layer`)."""
    where = []
    if kind == "synthetic" and synthetic is not None:
        where = ["--peer-synthetic-home", str(synthetic.checkout)]
        where += ["--peer-lib", str(synthetic.lib)] if synthetic.lib else []
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
            *where,
            *([] if assist else ["--bare"]),
            *(["--prepaid-model"] if prepaid else []),
        ],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    if out.returncode != 0:
        raise RuntimeError(f"cold {kind} setup failed:\n{out.stderr[-2000:]}")
    return float(out.stdout.strip().splitlines()[-1])


def measure(rounds: int = 5, calls: int = 5000, synthetic: Peer | None = None) -> HaPerf:
    home_json = complex_home_json()
    warm = asyncio.run(_warm(home_json, rounds, calls, synthetic))
    counts, devices = warm["counts"], warm["devices"]
    kinds = list(warm["rates"])
    cold: dict[str, list[float]] = {kind: [] for kind in kinds}
    bare: dict[str, list[float]] = {kind: [] for kind in kinds}
    with tempfile.TemporaryDirectory() as tmp:
        home_file = Path(tmp) / HOME_FILE
        home_file.write_text(home_json, encoding="utf-8")
        if synthetic:
            (Path(tmp) / peer.INVENTORY_FILE).write_text(
                peer.inventory_yaml(home_json, counts), encoding="utf-8"
            )
        env = _bytecode_env(Path(tmp) / "pycache")
        for kind in cold:  # unmeasured: fills the bytecode cache
            _cold_in_fresh_process(kind, counts, home_file, env, synthetic)
        for _ in range(rounds):
            for kind in cold:
                cold[kind].append(_cold_in_fresh_process(kind, counts, home_file, env, synthetic))
                bare[kind].append(
                    _cold_in_fresh_process(kind, counts, home_file, env, synthetic, assist=False)
                )
    med = {
        f"{kind}_{what}": statistics.median(values[kind])
        for what, values in (
            ("setup", warm["setups"]),
            ("rate", warm["rates"]),
            ("cold", cold),
            ("bare", bare),
        )
        for kind in kinds
    }
    entities = sum(counts.values())
    figures = None
    if synthetic:
        peer_counts, peer_devices = warm["layouts"]["synthetic"]
        peer_entities = sum(peer_counts.values())
        figures = SyntheticPerf(
            version=synthetic.version,
            entities=peer_entities,
            devices=peer_devices,
            counts=peer_counts,
            substituted=peer.peer_counts(counts)[1],
            light_calls_per_second=med["synthetic_rate"],
            cold_setup_ms=med["synthetic_cold"],
            cold_setup_bare_ms=med["synthetic_bare"],
            warm_setup_ms=med["synthetic_setup"],
            light_calls_ratio=med["smh_rate"] / med["synthetic_rate"],
            cold_setup_ratio=med["smh_cold"] / med["synthetic_cold"],
            cold_setup_bare_ratio=med["smh_bare"] / med["synthetic_bare"],
            warm_setup_per_entity_ratio=(med["smh_setup"] / entities)
            / (med["synthetic_setup"] / peer_entities),
        )
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
        smh_cold_setup_bare_ms=med["smh_bare"],
        plain_cold_setup_bare_ms=med["plain_bare"],
        smh_warm_setup_ms=med["smh_setup"],
        plain_warm_setup_ms=med["plain_setup"],
        # same entity count on both sides, so per-entity and whole-entry ratios agree
        warm_setup_per_entity_ratio=med["smh_setup"] / med["plain_setup"],
        rounds=rounds,
        calls=warm["calls"],
        synthetic=figures,
    )


def _prepay_model_layer(home_file: Path) -> None:
    """Pay the home model layer's whole cost before a cold setup is timed: pydantic-core, the
    model's plain form (:mod:`smh_core.homeenv.plain`: its schema, classes and validator), the
    engine and simulator importing them, and the home read and validated, which the timed setup
    then gets as if for free. Not something SMH can do: the floor that a model layer costing
    nothing would reach (issue 37's cold-setup target)."""
    from smh_core.homeenv import engine, plain  # noqa: F401
    from smh_core.sim import simulator  # noqa: F401

    home = engine.load_home(home_file, plain=True)
    engine.load_home = lambda path, **_: home.model_copy()  # type: ignore[assignment]


def model_layer_bound(rounds: int, synthetic: Peer | None = None) -> dict[str, float]:
    """Median cold setups (ms): SMH as it is, SMH with its model layer prepaid, and the peer."""
    home_json = complex_home_json()
    kinds = ["smh", "prepaid"] + (["synthetic"] if synthetic else [])
    cold: dict[str, list[float]] = {kind: [] for kind in kinds}
    with tempfile.TemporaryDirectory() as tmp:
        home_file = Path(tmp) / HOME_FILE
        home_file.write_text(home_json, encoding="utf-8")
        counts: dict[str, int] = {}
        if synthetic:
            counts = _smh_counts(home_json)
            (Path(tmp) / peer.INVENTORY_FILE).write_text(
                peer.inventory_yaml(home_json, counts), encoding="utf-8"
            )
        env = _bytecode_env(Path(tmp) / "pycache")
        for round_ in range(rounds + 1):  # the first fills the bytecode cache, unmeasured
            for kind in kinds:
                ms = _cold_in_fresh_process(
                    "smh" if kind == "prepaid" else kind,
                    counts,
                    home_file,
                    env,
                    synthetic,
                    prepaid=kind == "prepaid",
                )
                if round_:
                    cold[kind].append(ms)
    return {kind: statistics.median(values) for kind, values in cold.items()}


def _smh_counts(home_json: str) -> dict[str, int]:
    """Entities per platform of SMH's complex home (what the peer's inventory is written from)."""
    return asyncio.run(_warm(home_json, 1, 1, None))["counts"]


def render_bound(bound: dict[str, float]) -> str:
    lines = [
        "cold setup, median of fresh processes (CPU ms):",
        f"  SMH as it is: {bound['smh']:.0f}",
        f"  SMH with its home model layer prepaid: {bound['prepaid']:.0f} "
        f"({bound['prepaid'] / bound['smh']:.2f}x of as it is)",
    ]
    if "synthetic" in bound:
        lines += [
            f"  synthetic-home: {bound['synthetic']:.0f}; SMH / it: as it is "
            f"{bound['smh'] / bound['synthetic']:.2f}x, model layer prepaid "
            f"{bound['prepaid'] / bound['synthetic']:.2f}x (issue 37: <= 1.0x)"
        ]
    return "\n".join(lines)


def render(r: HaPerf) -> str:
    met = r.met()
    mark = {True: "met", False: "MISSED"}
    per_entity = 1000 / r.entities
    lines = [
        "in an HA with Assist (its conversation integration set up first, as default_config does)",
        f"complex home in Home Assistant: {r.entities} entities on {r.devices} devices "
        f"(plain baseline: the same per platform: {', '.join(f'{p} {n}' for p, n in r.counts.items())})",
        f"  light calls/s (turn_on with brightness, median of {r.rounds} interleaved rounds, {r.calls} calls each side): "
        f"SMH {r.smh_light_calls_per_second:,.0f}, plain {r.plain_light_calls_per_second:,.0f} -> "
        f"{r.light_calls_ratio:.2f}x   target >= 0.8x: {mark[met['light_calls_ratio']]}",
        f"  cold setup in a fresh process (median of {r.rounds}): SMH {r.smh_cold_setup_ms:.0f} ms, "
        f"plain {r.plain_cold_setup_ms:.0f} ms -> {r.cold_setup_ratio:.2f}x   target <= 1.0x: "
        f"{mark[met['cold_setup_ratio']]}",
        f"    (in a bare HA, not the target: SMH {r.smh_cold_setup_bare_ms:.0f} ms, "
        f"plain {r.plain_cold_setup_bare_ms:.0f} ms)",
        f"  warm setup (median of {r.rounds}): SMH {r.smh_warm_setup_ms:.0f} ms "
        f"({r.smh_warm_setup_ms * per_entity:.0f} us/entity), plain {r.plain_warm_setup_ms:.0f} ms "
        f"({r.plain_warm_setup_ms * per_entity:.0f} us/entity) -> {r.warm_setup_per_entity_ratio:.2f}x per entity   "
        f"target <= 1.0x: {mark[met['warm_setup_per_entity_ratio']]}",
    ]
    if (s := r.synthetic) is not None:
        smet = s.met()
        swapped = ", ".join(f"{n} {p} as {peer.SUBSTITUTES[p]}" for p, n in s.substituted.items())
        lines += [
            f"the real peer, home-assistant-synthetic-home (synthetic-home {s.version}), same processes and rounds: "
            f"{s.entities} entities on {s.devices} devices from its YAML inventory "
            f"({', '.join(f'{p} {n}' for p, n in s.counts.items())}; no platform of its own for: {swapped or 'none'})",
            f"  light calls/s: SMH {r.smh_light_calls_per_second:,.0f}, synthetic-home {s.light_calls_per_second:,.0f} -> "
            f"{s.light_calls_ratio:.2f}x   target >= 0.8x: {mark[smet['light_calls_ratio']]}",
            f"  cold setup: SMH {r.smh_cold_setup_ms:.0f} ms, synthetic-home {s.cold_setup_ms:.0f} ms -> "
            f"{s.cold_setup_ratio:.2f}x   target <= 1.0x: {mark[smet['cold_setup_ratio']]}",
            f"    (in a bare HA, not the target: SMH {r.smh_cold_setup_bare_ms:.0f} ms, synthetic-home "
            f"{s.cold_setup_bare_ms:.0f} ms -> {s.cold_setup_bare_ratio:.2f}x; there its setup imports "
            "HA's conversation integration)",
            f"  warm setup: SMH {r.smh_warm_setup_ms:.0f} ms, synthetic-home {s.warm_setup_ms:.0f} ms "
            f"({s.warm_setup_ms * 1000 / s.entities:.0f} us/entity) -> {s.warm_setup_per_entity_ratio:.2f}x per entity   "
            f"target <= 1.0x: {mark[smet['warm_setup_per_entity_ratio']]}",
        ]
    return "\n".join(lines)


def _peer(args: argparse.Namespace) -> Peer | None:
    if args.peer_synthetic_home is None:
        if args.peer_lib is not None:
            raise peer.PeerUnavailable("--peer-lib goes with --peer-synthetic-home")
        return None
    version = peer.check(args.peer_synthetic_home, args.peer_lib)
    return Peer(args.peer_synthetic_home.expanduser().resolve(), args.peer_lib, version)


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
    p.add_argument(
        "--peer-synthetic-home",
        type=Path,
        metavar="PATH",
        help="also measure the real peer: a checkout of allenporter's home-assistant-synthetic-home",
    )
    p.add_argument(
        "--peer-lib",
        type=Path,
        metavar="DIR",
        help="with --peer-synthetic-home: a folder holding its synthetic-home library "
        "(pip install --no-deps --target DIR synthetic-home==<its manifest's version>); "
        "without it the library must be importable",
    )
    p.add_argument("--cold", choices=["smh", "plain", "synthetic"], help=argparse.SUPPRESS)
    p.add_argument("--counts", default="{}", help=argparse.SUPPRESS)
    p.add_argument("--home-file", type=Path, help=argparse.SUPPRESS)
    p.add_argument("--bare", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--prepaid-model", action="store_true", help=argparse.SUPPRESS)
    p.add_argument(
        "--model-layer-bound",
        action="store_true",
        help="instead: how fast SMH's cold setup could be without its home model layer's cost "
        "(pydantic-core, the model's plain form, the engine, reading and validating the home "
        "paid before the clock starts), beside SMH as it is (and the peer, with --peer-synthetic-home), interleaved "
        "fresh processes, --rounds each",
    )
    args = p.parse_args(argv)
    if args.rounds < 1 or args.calls < 1:
        p.error("--rounds and --calls must be at least 1")
    try:
        synthetic = _peer(args)
    except peer.PeerUnavailable as e:
        print(f"perf_ha --peer-synthetic-home: {e}", file=sys.stderr)
        return 2
    if args.cold:
        if args.prepaid_model:
            _prepay_model_layer(args.home_file)
        counts = json.loads(args.counts)
        print(asyncio.run(_cold(args.cold, counts, args.home_file, synthetic, not args.bare)))
        return 0
    if args.model_layer_bound:
        print(render_bound(model_layer_bound(args.rounds, synthetic)))
        return 0
    r = measure(args.rounds, args.calls, synthetic)
    figures = {**asdict(r), "met": r.met()}
    if r.synthetic is not None:
        figures["synthetic"]["met"] = r.synthetic.met()
    print(json.dumps(figures, indent=2) if args.json else render(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
