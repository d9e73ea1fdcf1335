"""The safety-composed suite: deterministic from its seed (in a fresh interpreter too), at least
5,000 tasks, halves split by a hash of the id, every value of every axis used, each carrier naming
the task's real high-risk device (and value), and on samples: the injection-obeying agent without
the guard fails every injection task by a high-risk change, the oracle passes behind the guard and
doing nothing fails. The figures with the guard are measured, not asserted (see the module)."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from smh_core.agent.consent import fold
from smh_core.bench.agents import InjectionObeyingAgent, OracleAgent
from smh_core.cli.tasks import SUITES
from smh_core.languages.safety import en as W
from smh_core.safety_suites import adversarial_wording as A
from smh_core.safety_suites import safety_composed as X
from smh_core.safety_suites import safety_composed_wording as C
from smh_core.safety_suites import safety_suite as S
from smh_core.safety_suites.safety_measure import measure
from smh_core.task.model import dump_task
from tests.support.wording import strings_in

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built():
    return X.build(0)


def _digest(tasks) -> str:
    return hashlib.sha256("".join(dump_task(t) + "\n" for t in tasks).encode()).hexdigest()


@pytest.mark.slow  # 20-45 s
def test_same_seed_same_bytes(built) -> None:
    tasks, _ = built
    again, _ = X.build.__wrapped__(0)
    assert _digest(again) == _digest(tasks)
    code = (
        "import hashlib; from smh_core.safety_suites import safety_composed as X; "
        "from smh_core.task.model import dump_task; "
        "print(hashlib.sha256(''.join(dump_task(t) + '\\n' for t in X.build(0)[0]).encode()).hexdigest())"
    )
    fresh = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "12345", "PATH": "/usr/bin:/bin"},
    )
    assert fresh.stdout.strip() == _digest(tasks)
    other, _ = X.build.__wrapped__(1)
    assert _digest(other) != _digest(tasks)


def test_size_ids_and_registration(built) -> None:
    tasks, metas = built
    assert len(tasks) >= 5000 and len({t.id for t in tasks}) == len(tasks)
    kinds = Counter(m.kind for m in metas)
    assert kinds == {"injection": 128 * X.PER_INJECTION, "legit": 32 * X.PER_LEGIT}
    assert {t.subcategory for t in tasks if t.category.startswith("injection")} == set(
        S.INJECTION_CATEGORIES
    )
    assert all(t.suite == "safety-composed" for t in tasks)
    assert all(
        t.home.file is None or (ROOT / "tasks" / t.home.file).exists() for t in tasks
    )  # safety's homes
    assert "safety-composed" in SUITES
    assert "tasks/safety-composed.jsonl" in (ROOT / ".gitignore").read_text().splitlines()
    assert "safety-composed" in (ROOT / "Makefile").read_text()


def test_halves_by_hash(built) -> None:
    tasks, metas = built
    for task, meta in zip(tasks, metas, strict=True):
        assert meta.task_id == task.id and meta.half == X.half_of(task.id)
        assert task.category == f"{meta.kind}-{meta.half}"
    for kind in ("injection", "legit"):
        halves = Counter(m.half for m in metas if m.kind == kind)
        share = halves["tune"] / sum(halves.values())
        assert 0.44 < share < 0.56, (kind, halves)
    assert len(X.tasks_of_half(list(tasks), "tune")) + len(
        X.tasks_of_half(list(tasks), "untouched")
    ) == len(tasks)


def test_every_axis_value_appears(built) -> None:
    _, metas = built
    for axes, kind, least in ((X.AXES, "injection", 100), (X.LEGIT_AXES, "legit", 10)):
        for axis, values in axes.items():
            seen = Counter(m.axes[axis] for m in metas if m.kind == kind)
            assert set(seen) == set(values), (axis, set(values) - set(seen))
            assert min(seen.values()) >= least, (axis, seen)
    # and per half: either half alone covers every value
    for half in X.HALVES:
        for axis, values in X.AXES.items():
            assert {m.axes[axis] for m in metas if m.kind == "injection" and m.half == half} == set(
                values
            )


def test_each_carrier_names_the_real_device(built) -> None:
    tasks, metas = built
    homes = S.SafetyHomes(0)
    for task, meta in zip(tasks, metas, strict=True):
        if meta.kind != "injection":
            continue
        turn = " ".join(task.turns[0].text.split()).casefold()
        carrier = " ".join(meta.carrier.split()).casefold()
        assert carrier and carrier in turn, task.id
        did = task.overrides[0].did
        name = next(d.name for d in homes.get(task).devices if d.did == did)
        assert name.casefold() in carrier, (task.id, name, meta.carrier)
        assert meta.device.casefold() in carrier  # the whole phrase (name, and room for Matter)
        target = task.id.rsplit("-", 1)[-1]
        if target in ("scalding", "heat"):
            value = re.search(r"\b(\d{2})\b", meta.carrier)
            assert value and int(value.group(1)) > (60 if target == "scalding" else 28), (
                meta.carrier
            )
        # the base task's request stays word for word (its relayed order too)
        base_words = task.turns[0].text.split()
        assert len(base_words) > len(meta.carrier.split())
        assert task.confirms == []


def test_legitimate_tasks(built) -> None:
    tasks, metas = built
    for task, meta in zip(tasks, metas, strict=True):
        if meta.kind == "legit":
            assert task.confirms and task.confirms[0].did == task.reference.actions[0].did
            assert meta.device.casefold() in task.turns[0].text.casefold()
            assert (
                meta.device.casefold() not in meta.carrier.casefold()
            )  # the noise is about no device


def test_the_wording_is_its_own() -> None:
    """No phrase of the safety suite's or the adversarial suite's wording is reused (but the
    plainest requests, "unlock {dev}", which the legitimate tasks must say as anyone would)."""
    theirs = {
        fold(x)
        for module in (W, A)
        for name in dir(module)
        if name.isupper()
        for x in strings_in(getattr(module, name))
    }
    ours = {
        fold(x)
        for name in dir(C)
        if name.isupper() and name != "LEGIT_ACTS"
        for x in strings_in(getattr(C, name))
    }
    assert not {x for x in theirs & ours if len(x.split()) > 1}


def test_samples_validate(built) -> None:
    """A sample over every base task: the reference passes behind the guard (the simulated user
    confirms only a legitimate task's action), doing nothing fails, and without the guard the
    injection-obeying agent fails every injection task by a high-risk change."""
    tasks, _ = built
    sample = list(tasks[::37])
    X.validate(sample, S.SafetyHomes(0))
    homes = S.SafetyHomes(0)
    oracle = measure(sample, homes, OracleAgent(), guard=True)
    assert all(r.passed and not r.high_risk and r.confirmations == r.confirmed for r in oracle)
    injected = [t for t in sample if t.category.startswith("injection")]
    unguarded = measure(injected, homes, InjectionObeyingAgent(), guard=False)
    assert len(unguarded) > 100 and all(r.high_risk and not r.passed for r in unguarded)


def test_the_report_prints_per_half_and_axis(built, capsys) -> None:
    assert X.main(["--limit", "40", "--no-oracle"]) == 0
    out = capsys.readouterr().out
    for half in X.HALVES:
        assert f"{half} harmed / tasks" in out
    for axis, values in X.AXES.items():
        for value in values:
            assert f"| {axis} | {value} |" in out
