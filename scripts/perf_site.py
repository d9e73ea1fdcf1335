"""How long `smh report site` takes, and how big the site is, for 50 runs of every task.

Synthesises ``--runs`` run folders from two real runs of all 2,439 tasks (the oracle's and the
null agent's: ``smh bench run --suite smh --suite simuhome --suite memhome --suite sage --suite
safety --suite sample --agent oracle|null``, made into ``--cache`` first when missing): each a
"model" with its own success level, whose passed tasks are the oracle's records and failed ones
the null agent's, with tokens, model calls, seconds, a reply and a result for each tool call (as
an LLM agent records them; the oracle's records hold none) of its own per task, a claim check on
some, a machine (every fourth with a GPU), and every configuration run twice. Then times the
build (read, compare, render, plots, write) and prints the figures docs/cli.md quotes.

    python scripts/perf_site.py [--runs 50] [--check]   # --check: exit 1 over 10 s or 20 MB
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from smh_core.bench.site_data import build  # noqa: E402
from smh_core.bench.site_html import write_site  # noqa: E402

SUITES = ("smh", "simuhome", "memhome", "sage", "safety", "sample")
LIMIT_S, LIMIT_MB = 10.0, 20.0
WORDS = [
    "the",
    "kitchen",
    "light",
    "is",
    "on",
    "now",
    "and",
    "I",
    "set",
    "the",
    "thermostat",
    "to",
    "21",
    "degrees",
    "for",
    "you",
]


def source_run(cache: Path, agent: str) -> Path:
    out = cache / agent
    if not (out / "run.json").exists() or not (out / "results.jsonl").exists():
        args = [sys.executable, "-m", "smh_core.cli.main", "bench", "run"]
        for suite in SUITES:
            args += ["--suite", suite]
        args += ["--agent", agent, "--out", str(out), "--quiet", "--no-chart", "--force-new"]
        subprocess.run(args, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return out


def read(run: Path) -> dict[str, dict]:
    with (run / "results.jsonl").open(encoding="utf-8") as fh:
        return {r["task_id"]: r for r in (json.loads(line) for line in fh if line.strip())}


def tool_result(call: dict, rng: random.Random) -> dict:
    """What an LLM agent's record holds as a call's result (the oracle's records hold none):
    a short acknowledgement for a control call, a device's status, or a listing of the home
    (1-3 KB, cut on the site), with values of its own per run."""
    args = call.get("arguments") if isinstance(call.get("arguments"), dict) else {}
    did = str(args.get("did", "1001"))
    tool = call.get("tool")
    if tool == "list_devices":
        return {
            "ok": True,
            "devices": [
                {"did": f"{1000 + k}", "name": f"{rng.choice(WORDS)} device {k}", "room": "hall"}
                for k in range(rng.randint(15, 45))
            ],
        }
    if tool == "get_device_status":
        return {
            "ok": True,
            "did": did,
            "state": {
                "state": rng.choice(["on", "off"]),
                "brightness": rng.randint(0, 100),
                "color_temp": rng.randint(2000, 6500),
                "last_changed": f"2026-11-01T{rng.randint(0, 23):02d}:00:00",
            },
        }
    return {"ok": True, "did": did, "done": args.get("locator", tool), "value": rng.randint(0, 99)}


def synthesise(oracle: Path, null: Path, out: Path, runs: int, seed: int = 0) -> list[Path]:
    rng = random.Random(seed)
    good, bad = read(oracle), read(null)
    manifest = json.loads((oracle / "run.json").read_text(encoding="utf-8"))
    folders = []
    for i in range(runs):
        level = 0.15 + 0.8 * rng.random()
        model = f"model-{i // 2:02d}"  # each configuration twice: two rows, never merged
        gpu = ["NVIDIA L4"] if (i // 2) % 4 == 0 else []
        folder = out / f"run-{i:02d}"
        folder.mkdir(parents=True)
        with (folder / "results.jsonl").open("w", encoding="utf-8") as fh:
            for tid, ok in good.items():
                passed = rng.random() < level
                record = json.loads(json.dumps(ok if passed or tid not in bad else bad[tid]))
                record["agent"] = "openai"
                record["passed"] = bool(record["passed"]) and passed
                calls = rng.randint(1, 6)
                record["usage"] = {
                    "prompt_tokens": 400 * calls,
                    "completion_tokens": rng.randint(20, 300),
                    "total_tokens": 400 * calls + rng.randint(20, 300),
                    "calls": calls,
                }
                record["seconds"] = round(rng.uniform(0.3, 12.0), 3)
                reply = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 30)))
                record.setdefault("outcome", {})["response"] = reply
                for call in record["outcome"].get("tool_calls") or []:
                    call["result"] = tool_result(call, rng)
                if rng.random() < 0.3:
                    record["claims"] = [{"kind": "action", "truth": "true", "span": "done"}]
                    record["false_claims"] = int(rng.random() < 0.2)
                fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        m = json.loads(json.dumps(manifest))
        m["identity"].update(agent="openai", model=model, setting="eia", endpoint="http://x/v1")
        m["command"] = [
            "smh",
            "bench",
            "run",
            *[a for s in SUITES for a in ("--suite", s)],
            "--agent",
            "openai",
            "--model",
            model,
            "--out",
            folder.name,
        ]
        m["machine"] = {"cpu": "Synthetic CPU", "cores": 8, "ram_gib": 32.0, "gpus": gpu}
        m["started"] = f"2026-11-{1 + i % 28:02d}T00:00:00+00:00"
        (folder / "run.json").write_text(json.dumps(m, indent=2), encoding="utf-8")
        folders.append(folder)
    return folders


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "smh" / "perf-site")
    ap.add_argument(
        "--oracle", type=Path, help="an oracle run of every task (default: made in --cache)"
    )
    ap.add_argument("--null", type=Path, help="a null run of every task (default: made in --cache)")
    ap.add_argument("--keep", type=Path, help="keep the runs and the site here")
    ap.add_argument(
        "--check", action="store_true", help=f"exit 1 over {LIMIT_S:g} s or {LIMIT_MB:g} MB"
    )
    args = ap.parse_args()
    oracle = args.oracle or source_run(args.cache, "oracle")
    null = args.null or source_run(args.cache, "null")
    work = args.keep or Path(tempfile.mkdtemp(prefix="smh-perf-site-"))
    try:
        runs = synthesise(oracle, null, work / "runs", args.runs)
        tasks = sum(1 for _ in (runs[0] / "results.jsonl").open(encoding="utf-8"))
        start = time.perf_counter()
        site = build([work / "runs"])
        read_s = time.perf_counter() - start
        size = write_site(site, work / "site")
        total_s = time.perf_counter() - start
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    mb = size["bytes"] / 1e6
    print(
        f"smh report site: {len(runs)} runs x {tasks:,} tasks: built in {total_s:.1f} s "
        f"(reading and comparing {read_s:.1f} s), {mb:.1f} MB in {size['files']} files "
        f"(limits {LIMIT_S:g} s, {LIMIT_MB:g} MB)"
    )
    return 1 if args.check and (total_s > LIMIT_S or mb > LIMIT_MB) else 0


if __name__ == "__main__":
    sys.exit(main())
