"""``make matter-roundtrip``: SimuHome's tasks on a physical-home stand-in, over a real device
protocol, with nothing but the user-facing commands.

For each SimuHome home (``--seeds``): ``smh home generate --matter`` writes it, ``smh
matter-server`` serves it (simulated time frozen: these are the tasks that need none), HA's own
``matter`` config flow adds the server to a real ``hass`` (started without any SMH entry),
``smh matter-areas --username`` puts the devices in their rooms (HA's login flow, no
long-lived token), ``smh ha map`` proposes the mapping, and ``smh bench run --backend ha
--mapping`` runs the home's tasks with the oracle and a sample with HA's Assist: every action
goes HA service -> Matter command -> the bridge's device -> attribute report -> HA state ->
verifier. The bridge's trace (``--trace``) is each device's own state over time, so every
reading HA gave can be compared with what the device really was at that moment.

Beside it: the same tasks with the oracle on the embedded simulator, and the same Assist sample
in a second ``hass`` on SMH's own entities (the SMH integration hosting the same homes). Assist
reports no tool trace, so SimuHome's required look-ups (``list_devices`` ...) are not checked
for it on either path; state and answer goals are. ``report.md`` holds the figures.

    python scripts/matter_roundtrip.py --seeds 1,3 --assist 4 --out runs/matter-roundtrip
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "scripts"))
sys.path.insert(0, str(REPO))
import ha_instance  # noqa: E402

from sim_devices.matter_bridge.trace import disagreements  # noqa: E402
from smh_core.bench.report import load_records  # noqa: E402
from smh_core.bench.sampling import stratified_sample  # noqa: E402
from smh_core.ha.runner import HA_GOALS  # noqa: E402
from smh_core.llm.local import free_port  # noqa: E402
from smh_core.task.model import Task, dump_task, load_tasks  # noqa: E402

SUITE = REPO / "tasks" / "simuhome.jsonl"
DEVICES = 27  # a SimuHome home's devices


LOG: list[Path] = []
"""Where every command's output is appended (set by main)."""


def smh(*args: str, timeout: float = 1800) -> str:
    """One ``smh`` command as a user types it (HA's password in the environment); its output,
    also appended to the run's ``commands.log``."""
    env = {**os.environ, "HA_PASSWORD": ha_instance.PASSWORD}
    run = subprocess.run(
        [sys.executable, "-m", "smh_core.cli.main", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if LOG:
        with LOG[0].open("a", encoding="utf-8") as fh:
            fh.write(
                f"$ smh {' '.join(a if a != env.get('HA_TOKEN') else 'TOKEN' for a in args)}\n"
                f"{run.stdout}{run.stderr}\n"
            )
    if run.returncode not in (0, 1):
        raise RuntimeError(
            f"smh {' '.join(args[:3])} failed ({run.returncode}): {run.stderr[-2000:]}"
        )
    return run.stdout


def start_bridge(home: Path, port: int, trace: Path, log: Path) -> subprocess.Popen:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "smh_core.cli.main",
            "matter-server",
            "--home",
            str(home),
            "--port",
            str(port),
            "--speed",
            "0",
            "--trace",
            str(trace),
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=log.open("ab"),
        text=True,
    )
    line = process.stdout.readline() if process.stdout else ""
    if not line.startswith("serving"):
        ha_instance.stop_process(process)
        raise RuntimeError(f"smh matter-server did not start: {line!r} (see {log})")
    return process


async def add_matter(url: str, token: str, ws_url: str) -> str:
    """HA's own ``matter`` config flow, as the UI runs it without the Supervisor: the server's
    address. Returns the new entry's id."""
    headers = {"Authorization": f"Bearer {token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.post(
            f"{url}/api/config/config_entries/flow", json={"handler": "matter"}
        ) as r:
            flow = await r.json()
        async with session.post(
            f"{url}/api/config/config_entries/flow/{flow['flow_id']}", json={"url": ws_url}
        ) as r:
            result = await r.json()
    if result.get("type") != "create_entry":
        raise RuntimeError(f"matter config flow: {result}")
    return str(result["result"]["entry_id"])


async def remove_entry(url: str, token: str, entry_id: str) -> None:
    async with (
        aiohttp.ClientSession(headers={"Authorization": f"Bearer {token}"}) as session,
        session.delete(f"{url}/api/config/config_entries/entry/{entry_id}") as r,
    ):
        r.raise_for_status()


async def wait_for_devices(
    url: str, token: str, entry_id: str, count: int, timeout: float = 120
) -> None:
    """Until HA's matter entry has made ``count`` devices."""
    from smh_core.ha.websocket import ws_calls

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        (devices,) = await ws_calls(url, token, [{"type": "config/device_registry/list"}])
        if sum(entry_id in d.get("config_entries", []) for d in devices) >= count:
            return
        await asyncio.sleep(0.5)
    raise TimeoutError(
        f"HA's matter integration made fewer than {count} devices in {timeout:.0f} s"
    )


def home_tasks(seed: int) -> list[Task]:
    return [t for t in load_tasks([SUITE]) if t.home.generator == "matter" and t.home.seed == seed]


def no_time(tasks: list[Task]) -> list[Task]:
    return [t for t in tasks if set(t.goal_kinds) <= set(HA_GOALS) and t.climate is None]


def for_assist(tasks: list[Task]) -> list[Task]:
    """Assist reports no tool trace: the required look-ups are left out, on both paths alike."""
    return [t.model_copy(update={"required_actions": []}) for t in tasks]


def write_tasks(path: Path, tasks: list[Task]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(dump_task(t) + "\n" for t in tasks), encoding="utf-8")
    return path


async def one_home(inst: ha_instance.Instance, seed: int, out: Path, assist: int) -> dict[str, Any]:
    """The round trip for one home; returns its figures."""
    home = out / "homes" / f"matter-{seed}.json"
    smh("home", "generate", "--matter", "--seed", str(seed), "--out", str(home))
    tasks = home_tasks(seed)
    task_file = write_tasks(out / "tasks" / f"home-{seed}.jsonl", tasks)
    port = free_port()
    trace = out / "traces" / f"matter-{seed}.jsonl"
    trace.parent.mkdir(parents=True, exist_ok=True)
    trace.unlink(missing_ok=True)
    bridge = start_bridge(home, port, trace, out / "bridge.log")
    figures: dict[str, Any] = {"seed": seed, "tasks": len(tasks), "no_time": len(no_time(tasks))}
    entry = None
    try:
        started = time.monotonic()
        entry = await add_matter(inst.url, inst.token, f"ws://127.0.0.1:{port}/ws")
        await wait_for_devices(inst.url, inst.token, entry, DEVICES)
        figures["discovery_s"] = round(time.monotonic() - started, 1)
        smh(
            "matter-areas",
            "--home",
            str(home),
            "--url",
            inst.url,
            "--username",
            ha_instance.USERNAME,
        )
        mapping = out / "mappings" / f"matter-{seed}.yaml"
        figures["map_output"] = smh(
            "ha",
            "map",
            "--tasks",
            str(task_file),
            "--out",
            str(mapping),
            "--ha-url",
            inst.url,
            "--username",
            ha_instance.USERNAME,
        )
        common = [
            "--backend",
            "ha",
            "--mapping",
            str(mapping),
            "--ha-url",
            inst.url,
            "--token",
            inst.token,
            "--quiet",
            "--new-if-different",
        ]
        oracle_dir = out / "oracle" / f"home-{seed}"
        smh(
            "bench",
            "run",
            "--tasks",
            str(task_file),
            "--agent",
            "oracle",
            "--out",
            str(oracle_dir),
            *common,
        )
        oracle = load_records(oracle_dir)
        figures["oracle"] = oracle
        figures["oracle_skipped"] = (
            json.loads((oracle_dir / "skipped.json").read_text())
            if (oracle_dir / "skipped.json").exists()
            else {}
        )
        figures["disagree"] = disagreements(trace, oracle)
        runnable = [
            t for t in tasks if any(r["task_id"] == t.id and "infra" not in r for r in oracle)
        ]
        sample = stratified_sample(runnable, assist, seed) if assist else []
        figures["assist_ids"] = [t.id for t in sample]
        if sample:
            assist_file = write_tasks(out / "tasks" / f"assist-{seed}.jsonl", for_assist(sample))
            assist_dir = out / "assist-matter" / f"home-{seed}"
            smh("bench", "run", "--tasks", str(assist_file), "--out", str(assist_dir), *common)
            figures["assist"] = load_records(assist_dir)
            figures["disagree_assist"] = disagreements(trace, figures["assist"])
    finally:
        ha_instance.stop_process(bridge)
        if entry is not None:
            await remove_entry(inst.url, inst.token, entry)
    return figures


def embedded_oracle(out: Path, seeds: list[int]) -> list[dict[str, Any]]:
    files = [str(out / "tasks" / f"home-{s}.jsonl") for s in seeds]
    smh(
        "bench",
        "run",
        *[x for f in files for x in ("--tasks", f)],
        "--agent",
        "oracle",
        "--out",
        str(out / "embedded"),
        "--quiet",
        "--new-if-different",
    )
    return load_records(out / "embedded")


async def assist_on_smh_entities(out: Path, seeds: list[int]) -> list[dict[str, Any]]:
    """The same Assist sample in a hass that hosts the homes as SMH entities."""
    files = [
        out / "tasks" / f"assist-{s}.jsonl"
        for s in seeds
        if (out / "tasks" / f"assist-{s}.jsonl").exists()
    ]
    if not files:
        return []
    inst = await ha_instance.launch(out / "ha-smh", free_port(), "simple", 0, time_scale=0.0)
    try:
        smh(
            "bench",
            "run",
            "--backend",
            "ha",
            *[x for f in files for x in ("--tasks", str(f))],
            "--ha-url",
            inst.url,
            "--token",
            inst.token,
            "--out",
            str(out / "assist-smh"),
            "--quiet",
            "--new-if-different",
        )
    finally:
        inst.stop()
    return load_records(out / "assist-smh")


def _kind_of(reason: str) -> str:
    """A skip reason without the device: ``not mapped: 2002/1.OperationalState.CountdownTime`` ->
    ``not mapped: 1.OperationalState.CountdownTime``; a room's variable -> ``a room's humidity``."""
    match = re.match(r"not mapped: (@?)[^/]+/(.+)", reason)
    if match is None:
        return reason
    return (
        f"not mapped: a room's {match.group(2)}"
        if match.group(1)
        else f"not mapped: {match.group(2)}"
    )


def _rate(records: list[dict[str, Any]]) -> str:
    scored = [r for r in records if "infra" not in r and "task_error" not in r]
    return f"{sum(r['passed'] for r in scored)}/{len(scored)}" if scored else "0/0"


def _quantiles(values: list[float]) -> str:
    if not values:
        return "-"
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
    return f"{statistics.median(values):.2f} / {p90:.2f} / {values[-1]:.2f}"


def report(
    out: Path,
    homes: list[dict[str, Any]],
    embedded: list[dict[str, Any]],
    assist_smh: list[dict[str, Any]],
) -> str:
    oracle = [r for h in homes for r in h["oracle"]]
    ran = {r["task_id"] for r in oracle if "infra" not in r}
    no_time = sum(h["no_time"] for h in homes)
    no_time_ids = {t.id for h in homes for t in no_time_tasks(h)}
    skipped: Counter[str] = Counter()
    for h in homes:
        for why, n in h["oracle_skipped"].items():
            skipped[_kind_of(why)] += n
    lines = [
        "# SimuHome over the Matter path (oracle and HA's Assist)",
        "",
        f"Homes: {', '.join(str(h['seed']) for h in homes)}; tasks {sum(h['tasks'] for h in homes)}, "
        f"of which {no_time} need no simulated time.",
        "",
        "| path | tasks run | passed |",
        "|---|---:|---:|",
        f"| oracle, Matter path (HA -> matter -> bridge) | {len(ran)} | {_rate(oracle)} |",
        f"| oracle, embedded simulator, same tasks | {len(ran)} | "
        f"{_rate([r for r in embedded if r['task_id'] in ran])} |",
        f"| oracle, embedded simulator, all no-time tasks | {no_time} | "
        f"{_rate([r for r in embedded if r['task_id'] in no_time_ids])} |",
        "",
        "Tasks the Matter path cannot run (skipped, by reason):",
        "",
    ]
    lines += [f"- {n} x {why}" for why, n in skipped.most_common()]
    infra = [r for r in oracle if "infra" in r]
    lines += ["", f"Device failures (not scored): {len(infra)}"]
    lines += [f"- {r['task_id']}: {r['infra']['message'][:200]}" for r in infra[:10]]
    moved = [r for r in oracle if "infra" not in r and r["latency"]["commanded"]]
    lines += [
        "",
        "Round trip per task (median / p90 / max seconds):",
        "",
        f"- initial state reached: {_quantiles([r['latency']['initial_state_s'] for r in oracle if 'latency' in r])}",
        f"- oracle's commands reported back ({len(moved)} tasks that move devices): "
        f"{_quantiles([r['latency']['reports_s'] for r in moved])}",
    ]
    differ = {tid: d for h in homes for tid, d in h["disagree"].items()}
    lines += [
        "",
        f"States HA showed that differed from the device's own at that moment: {len(differ)} tasks",
    ]
    lines += [f"- {tid}: {d}" for tid, d in list(differ.items())[:10]]
    assist = [r for h in homes for r in h.get("assist", [])]
    if assist:
        lines += [
            "",
            "HA's Assist on the same sample (required look-ups not checked on either path):",
            "",
            "| path | tasks | passed | timed out |",
            "|---|---:|---:|---:|",
            f"| Matter devices (HA's matter integration) | {len(assist)} | {_rate(assist)} | "
            f"{sum(bool(r.get('timed_out')) for r in assist)} |",
            f"| SMH entities (the SMH integration) | {len(assist_smh)} | {_rate(assist_smh)} | "
            f"{sum(bool(r.get('timed_out')) for r in assist_smh)} |",
        ]
        turns = [r["latency"]["agent_s"] for r in assist if "latency" in r]
        lines += [
            "",
            f"Assist's turn on the Matter path (median / p90 / max s): {_quantiles(turns)}",
        ]
    text = "\n".join(lines) + "\n"
    (out / "report.md").write_text(text, encoding="utf-8")
    return text


def no_time_tasks(home: dict[str, Any]) -> list[Task]:
    return no_time(home_tasks(home["seed"]))


async def main_async(args: argparse.Namespace) -> str:
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    LOG[:] = [out / "commands.log"]
    inst = await ha_instance.launch(
        out / "ha-matter", free_port(), "simple", 0, time_scale=0.0, with_home=False
    )
    homes = []
    try:
        for seed in args.seeds:
            started = time.monotonic()
            homes.append(await one_home(inst, seed, out, args.assist))
            print(
                f"home {seed}: oracle {_rate(homes[-1]['oracle'])}, {time.monotonic() - started:.0f} s",
                flush=True,
            )
    finally:
        inst.stop()
    embedded = embedded_oracle(out, args.seeds)
    assist_smh = await assist_on_smh_entities(out, args.seeds) if args.assist else []
    (out / "figures.json").write_text(
        json.dumps({"homes": homes}, indent=1, default=str), encoding="utf-8"
    )
    return report(out, homes, embedded, assist_smh)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--seeds",
        default="1",
        type=lambda s: [int(x) for x in s.split(",")],
        help="SimuHome home seeds, comma-separated (default: 1; the suite's: 1,3,...,39)",
    )
    p.add_argument(
        "--assist", type=int, default=4, help="tasks per home for HA's Assist (0: none; default 4)"
    )
    p.add_argument("--out", type=Path, default=REPO / "runs" / "matter-roundtrip")
    p.add_argument(
        "--report-only", action="store_true", help="write report.md again from --out's figures.json"
    )
    args = p.parse_args(argv)
    if args.report_only:
        out = args.out.resolve()
        homes = json.loads((out / "figures.json").read_text(encoding="utf-8"))["homes"]
        assist_smh = load_records(out / "assist-smh") if (out / "assist-smh").exists() else []
        print(report(out, homes, load_records(out / "embedded"), assist_smh), end="")
        return 0
    print(asyncio.run(main_async(args)), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
