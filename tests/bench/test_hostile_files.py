"""Benchmark runs survive bad input and damaged files: a corrupt results log keeps every good
record, task files cannot read files outside their directory or leak their contents, and bad
input is one clear ``smh: error:`` line with exit code 2, never a traceback."""

from __future__ import annotations

import json
import logging
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from smh_core.bench.agents import OracleAgent
from smh_core.bench.report import markdown, summarize
from smh_core.bench.results import QUARANTINE_NAME, ResultsLog, bench_record_problem, read_records
from smh_core.bench.runner import prepare_world, run_suite
from smh_core.task.home import HomeCache, TaskError
from smh_core.task.model import TaskFileError, iter_tasks, load_tasks, parse_task_line

FIXTURES = Path(__file__).parents[1] / "fixtures"
TASK_FILE = FIXTURES / "tasks_tiny.jsonl"
HOME_FILE = FIXTURES / "tiny_home.json"
LINES = TASK_FILE.read_text(encoding="utf-8").splitlines()
SECRET = "TOPSECRET-7f3a9c"


def smh(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "smh_core.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def run_cli(tasks: list[Path], out: Path, *extra: str) -> subprocess.CompletedProcess:
    args = [a for t in tasks for a in ("--tasks", str(t))]
    return smh("bench", "run", *args, "--agent", "oracle", "--out", str(out), "--quiet", *extra)


def assert_one_line_error(run: subprocess.CompletedProcess, *needles: str) -> str:
    """Exit 2 and exactly one ``smh: error:`` line on stderr containing every needle."""
    assert run.returncode == 2, (run.returncode, run.stdout, run.stderr)
    assert "Traceback" not in run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("smh: error: "), run.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


def task_line(n: int = 0, **changes) -> str:
    return json.dumps({**json.loads(LINES[n]), **changes})


def write_tasks(
    directory: Path, lines: list[str], name: str = "tasks.jsonl", home: bool = True
) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    if home:
        shutil.copy(HOME_FILE, directory / HOME_FILE.name)
    path = directory / name
    path.write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    return path


def bench_record(task_id: str, passed: bool = True) -> dict:
    return {
        "task_id": task_id,
        "suite": "smh",
        "category": "c",
        "subcategory": "s",
        "difficulty": "simple",
        "agent": "oracle",
        "passed": passed,
        "seconds": 0.1,
        "verdict": {
            "passed": passed,
            "reason": "",
            "error_class": None if passed else "CM",
            "decided_by": "state",
            "details": {},
        },
    }


def write_log(path: Path, records: list[dict]) -> list[bytes]:
    lines = [(json.dumps(r, sort_keys=True) + "\n").encode() for r in records]
    path.write_bytes(b"".join(lines))
    return lines


# ----------------------------------------------------------------------------- results log
def test_a_corrupt_byte_mid_file_costs_only_its_own_line(tmp_path, caplog):
    path = tmp_path / "results.jsonl"
    lines = write_log(path, [bench_record(f"t{i}") for i in range(10)])
    lines[4] = lines[4][:10] + b"\xff" + lines[4][11:]  # line 5: one flipped byte
    path.write_bytes(b"".join(lines))

    with caplog.at_level(logging.WARNING, logger="smh_core.bench.results"):
        log = ResultsLog(path, check=bench_record_problem)
    assert sorted(r["task_id"] for r in log.records()) == sorted(
        f"t{i}" for i in range(10) if i != 4
    )
    assert not log.done("t4")
    assert any(":5:" in m and "results.jsonl" in m for m in caplog.messages), caplog.messages
    # the log keeps every other line byte for byte; the bad one moved to the side file
    assert path.read_bytes() == b"".join(lines[:4] + lines[5:])
    (moved,) = [json.loads(x) for x in (tmp_path / QUARANTINE_NAME).read_text().splitlines()]
    assert moved["line"] == 5 and "UTF-8" in moved["reason"] and "\\xff" in moved["text"]

    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="smh_core.bench.results"):
        again = ResultsLog(path, check=bench_record_problem)
    assert len(again) == 9 and caplog.messages == []  # clean now: no warning on the next resume


def test_invalid_json_mid_file_is_skipped_and_the_torn_tail_still_cut(tmp_path, caplog):
    path = tmp_path / "results.jsonl"
    lines = write_log(path, [bench_record(f"t{i}") for i in range(5)])
    path.write_bytes(
        b"".join(lines[:2])
        + b'{"task_id": "t2", "pas\n'
        + b"".join(lines[3:])
        + b'{"task_id": "t9"'
    )
    with caplog.at_level(logging.WARNING, logger="smh_core.bench.results"):
        log = ResultsLog(path)
    assert sorted(r["task_id"] for r in log.records()) == ["t0", "t1", "t3", "t4"]
    assert any(":3:" in m and "invalid JSON" in m for m in caplog.messages)
    assert path.read_bytes() == b"".join(lines[:2] + lines[3:])


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("{}", "no task_id"),
        ("[]", "not a JSON object (a list)"),
        ('"x"', "not a JSON object (a string)"),
        ('{"task_id": 5, "passed": true}', "task_id is not a non-empty string"),
        ('{"task_id": "a", "passed": "yes"}', "passed is not true or false"),
    ],
)
def test_non_records_are_quarantined_with_their_reason(tmp_path, line, reason):
    path = tmp_path / "results.jsonl"
    good = [bench_record("t0"), bench_record("t1")]
    lines = write_log(path, good)
    path.write_bytes(lines[0] + line.encode() + b"\n" + lines[1])
    log = ResultsLog(path)
    assert [r["task_id"] for r in log.records()] == ["t0", "t1"]
    (moved,) = [json.loads(x) for x in (tmp_path / QUARANTINE_NAME).read_text().splitlines()]
    assert moved == {"line": 2, "reason": reason, "source": "results.jsonl", "text": line}
    log.append(bench_record("t2"))
    assert len(ResultsLog(path)) == 3


def test_a_bench_record_missing_fields_is_quarantined_not_a_crash(tmp_path):
    path = tmp_path / "results.jsonl"
    broken = {k: v for k, v in bench_record("t1").items() if k != "passed"}
    write_log(path, [bench_record("t0"), broken, {**bench_record("t2"), "difficulty": "insane"}])
    log = ResultsLog(path, check=bench_record_problem)
    assert [r["task_id"] for r in log.records()] == ["t0"]
    reasons = [
        json.loads(x)["reason"] for x in (tmp_path / QUARANTINE_NAME).read_text().splitlines()
    ]
    assert reasons == ["missing passed", "difficulty is not one of simple, medium, complex"]


def test_read_records_follows_the_same_rules_and_never_writes(tmp_path, caplog):
    path = tmp_path / "results.jsonl"
    lines = write_log(path, [bench_record("t0"), bench_record("t1", passed=False)])
    data = (
        lines[0]
        + b"{}\n"
        + b"[]\n"
        + b"\xff\xfe\n"
        + b'{"task_id": "t3"}\n'
        + lines[1]
        + b'{"task_id": "t4", "pa'
    )
    path.write_bytes(data)
    with caplog.at_level(logging.WARNING, logger="smh_core.bench.results"), path.open("rb") as fh:
        records = read_records(fh, source=str(path))
    assert [r["task_id"] for r in records] == ["t0", "t1"]
    assert path.read_bytes() == data and not (tmp_path / QUARANTINE_NAME).exists()
    assert [m.split(": ")[0].rsplit(":", 1)[1] for m in caplog.messages] == ["2", "3", "4", "5"]
    # the report reads the same records, so a damaged log still gives a report
    assert summarize(records)["smh"]["n"] == 2


async def test_resume_over_a_log_with_junk_lines_runs_only_what_is_missing(tmp_path):
    tasks = list(iter_tasks(TASK_FILE))
    homes = HomeCache(FIXTURES)
    await run_suite(tasks[:3], OracleAgent(), tmp_path, homes=homes, progress=False)
    results = tmp_path / "results.jsonl"
    first = results.read_bytes().splitlines(keepends=True)
    results.write_bytes(
        first[0] + b'{}\n[]\n"x"\n' + b"".join(first[1:]) + b'{"task_id": "exec-9"}\n'
    )
    log = await run_suite(tasks, OracleAgent(), tmp_path, homes=homes, progress=False)
    assert len(log.scored()) == len(tasks) and all(r["passed"] for r in log.scored())
    ids = [json.loads(x)["task_id"] for x in results.read_text().splitlines()]
    assert sorted(ids) == sorted(t.id for t in tasks) and len(ids) == len(set(ids))
    assert len((tmp_path / QUARANTINE_NAME).read_text().splitlines()) == 4


# ----------------------------------------------------------------------------- task format
def test_start_time_must_be_an_iso_local_date_time():
    for bad in ("yesterday", "2024-06-27", "2024-06-27T09:00:00+02:00", "2024-02-30T09:00:00"):
        with pytest.raises(TaskFileError) as exc:
            parse_task_line(task_line(start_time=bad), "t.jsonl", 4)
        assert exc.value.field == "start_time" and str(exc.value).startswith(
            "t.jsonl:4: start_time: "
        )
    assert (
        parse_task_line(task_line(start_time="2024-06-27T21:30")).start_time == "2024-06-27T21:30"
    )


def test_a_task_id_in_two_files_names_both_places(tmp_path):
    a = write_tasks(tmp_path / "a", LINES[:3])
    b = write_tasks(tmp_path / "b", [LINES[3], LINES[1]])
    with pytest.raises(TaskFileError) as exc:
        load_tasks([a, b])
    assert str(exc.value) == f"{b}:2: id: duplicate task id 'exec-2' (first at {a}:2)"


def test_deeply_nested_task_line_is_a_task_file_error():
    deep = task_line(
        overrides=[{"did": "1001", "values": {"x": json.loads("[" * 200 + "]" * 200)}}]
    )
    with pytest.raises(TaskFileError, match=r"t\.jsonl:1: \(task\): nested more than"):
        parse_task_line(deep, "t.jsonl", 1)
    with pytest.raises(TaskFileError, match="nested too deeply"):
        parse_task_line("[" * 100_000 + "]" * 100_000, "t.jsonl", 1)


# ----------------------------------------------------------------------------- home files
def test_home_paths_must_stay_inside_the_task_directory(tmp_path):
    inside = tmp_path / "tasks"
    write_tasks(inside, [])
    shutil.copy(HOME_FILE, tmp_path / "outside.json")
    (inside / "link.json").symlink_to(tmp_path / "outside.json")
    for name in ("../outside.json", str(tmp_path / "outside.json"), "link.json"):
        task = parse_task_line(task_line(home={"file": name}))
        with pytest.raises(TaskError) as exc:
            HomeCache(inside).get(task)
        assert (
            exc.value.field == "home.file"
            and "outside" in exc.value.message
            and "exec-1" in str(exc.value)
        )
        assert HomeCache(inside, allow_outside=True).get(task).devices


def test_cli_refuses_outside_home_files_without_echoing_them(tmp_path):
    (tmp_path / "leak.json").write_text(
        json.dumps({"rooms": SECRET, "devices": [SECRET]}), encoding="utf-8"
    )
    for ref in ("../leak.json", str(tmp_path / "leak.json")):
        tasks = write_tasks(tmp_path / "t", [task_line(home={"file": ref})])
        run = run_cli([tasks], tmp_path / "out")
        assert_one_line_error(
            run, f"{tasks}:1: home.file: ", "outside", "--allow-outside-paths", "exec-1"
        )
        assert SECRET not in run.stderr + run.stdout
        # allowed, the file is read, and found invalid without quoting it either
        run = run_cli([tasks], tmp_path / "out", "--allow-outside-paths")
        assert_one_line_error(run, f"{tasks}:1: home.file: ", "invalid home: rooms")
        assert SECRET not in run.stderr + run.stdout


def test_cli_allow_flag_lets_an_outside_home_through(tmp_path):
    shutil.copy(HOME_FILE, tmp_path / "shared_home.json")
    tasks = write_tasks(
        tmp_path / "t",
        [task_line(n, home={"file": "../shared_home.json"}) for n in range(3)],
        home=False,
    )
    assert run_cli([tasks], tmp_path / "refused").returncode == 2
    run = run_cli([tasks], tmp_path / "out", "--allow-outside-paths")
    assert run.returncode == 0, run.stderr
    assert "3 tasks recorded" in run.stdout and "3 of 3 scored passed" in run.stdout


def test_each_task_file_resolves_homes_against_its_own_directory(tmp_path):
    a = write_tasks(tmp_path / "a", LINES[:2])
    b = write_tasks(
        tmp_path / "b", [task_line(n, home={"file": "homes/h.json"}) for n in (2, 3)], home=False
    )
    (tmp_path / "b" / "homes").mkdir()
    shutil.copy(HOME_FILE, tmp_path / "b" / "homes" / "h.json")
    run = run_cli([a, b], tmp_path / "out")
    assert run.returncode == 0, run.stderr
    assert "4 of 4 scored passed" in run.stdout


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (f'{{"rooms": [], "name": "{SECRET}",\n  oops}}', "home.json: line 2: invalid JSON"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (
            json.dumps({"rooms": [{"x": json.loads("[" * 100 + "]" * 100)}]}),
            "nested more than 64 levels",
        ),
        (b"\x89PNG\r\n" + SECRET.encode(), "not UTF-8 text (byte 1)"),
        (json.dumps([SECRET]), "invalid home: (home): Input should be"),
    ],
    ids=["invalid-json", "recursion", "too-deep", "binary", "not-a-home"],
)
def test_cli_a_bad_home_file_is_one_line_naming_task_line_and_field(tmp_path, content, needle):
    tasks = write_tasks(tmp_path, [LINES[0], task_line(1, home={"file": "home.json"})])
    home = tmp_path / "home.json"
    home.write_bytes(content if isinstance(content, bytes) else content.encode())
    run = run_cli([tasks], tmp_path / "out")
    assert_one_line_error(run, f"{tasks}:2: home.file: {home}", needle, "(task exec-2)")
    assert SECRET not in run.stderr


def test_cli_a_directory_as_home_file(tmp_path):
    tasks = write_tasks(tmp_path, [task_line(home={"file": "homes"})])
    (tmp_path / "homes").mkdir()
    assert_one_line_error(
        run_cli([tasks], tmp_path / "out"), f"{tasks}:1: home.file: ", "not a regular file"
    )


# ----------------------------------------------------------------------------- CLI input errors
def test_cli_malformed_task_line_names_file_line_and_field(tmp_path):
    tasks = write_tasks(tmp_path, [LINES[0], task_line(1, turns=[]), LINES[2]])
    assert_one_line_error(run_cli([tasks], tmp_path / "out"), f"{tasks}:2: turns: ")
    tasks.write_text(LINES[0] + "\n{not json\n", encoding="utf-8")
    assert_one_line_error(run_cli([tasks], tmp_path / "out"), f"{tasks}:2: column 2: invalid JSON")


def test_cli_bad_start_time_names_the_field(tmp_path):
    tasks = write_tasks(tmp_path, [LINES[0], task_line(1, start_time="yesterday")])
    assert_one_line_error(
        run_cli([tasks], tmp_path / "out"), f"{tasks}:2: start_time: ", "ISO 8601"
    )


def test_cli_duplicate_id_across_files_names_both(tmp_path):
    a = write_tasks(tmp_path / "a", LINES[:2])
    b = write_tasks(tmp_path / "b", [LINES[2], LINES[0]])
    run = run_cli([a, b], tmp_path / "out")
    assert_one_line_error(run, f"{b}:2: id: duplicate task id 'exec-1'", f"first at {a}:1")
    assert not (tmp_path / "out" / "results.jsonl").exists()


def test_cli_directory_missing_and_binary_task_files(tmp_path):
    assert_one_line_error(run_cli([tmp_path], tmp_path / "out"), f"{tmp_path}: is a directory")
    assert_one_line_error(
        run_cli([tmp_path / "nope.jsonl"], tmp_path / "out"), "nope.jsonl: no task file"
    )
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(LINES[0].encode() + b"\n\xff\xfe\x00\n")
    assert_one_line_error(
        run_cli([binary], tmp_path / "out"), f"{binary}:2: byte 1: not UTF-8 text"
    )


# ----------------------------------------------------------------------------- task errors
def _bad_override_line() -> str:
    return task_line(1, overrides=[{"did": "1001", "values": {"brightness": 500}}])


async def test_a_task_that_cannot_be_prepared_is_recorded_and_the_run_goes_on(tmp_path):
    tasks = [parse_task_line(x) for x in (LINES[0], _bad_override_line(), LINES[2])]
    bad_critic = parse_task_line(
        task_line(3, id="bad-critic", goal={"kind": "execute", "critic": "device(( x"})
    )
    log = await run_suite(
        [*tasks, bad_critic], OracleAgent(), tmp_path, homes=HomeCache(FIXTURES), progress=False
    )
    assert sorted(r["task_id"] for r in log.scored()) == ["exec-1", "query-1"]
    errors = {r["task_id"]: r for r in log.task_errors()}
    assert (
        errors["exec-2"]["task_error"]["kind"] == "override"
        and "1001" in errors["exec-2"]["task_error"]["message"]
    )
    assert errors["bad-critic"]["task_error"]["kind"] == "goal"
    assert errors["exec-2"]["verdict"]["error_class"] == "TASK" and log.infra() == []

    summary = summarize(list(log.records()))["smh"]
    assert (summary["n"], summary["passed"], summary["task_errors"]) == (
        2,
        2,
        {"override": 1, "goal": 1},
    )
    text = markdown({"smh": summary})
    assert "| 2 | 2 | 100.0 |" in text and "| 2 |\n" in text  # 2 not scored
    assert (
        "Task errors: 2 tasks could not be prepared (" in text
        and "override 1" in text
        and "goal 1" in text
    )


async def test_a_broken_task_is_not_rerun_until_fixed(tmp_path):
    homes = HomeCache(FIXTURES)
    broken = [parse_task_line(LINES[0]), parse_task_line(_bad_override_line())]
    await run_suite(broken, OracleAgent(), tmp_path, homes=homes, progress=False)
    results = tmp_path / "results.jsonl"
    before = results.read_bytes()
    log = await run_suite(broken, OracleAgent(), tmp_path, homes=homes, progress=False)
    assert results.read_bytes() == before  # still broken: prepared again, nothing appended
    assert [r["task_id"] for r in log.task_errors()] == ["exec-2"]

    fixed = [parse_task_line(LINES[0]), parse_task_line(LINES[1])]
    log = await run_suite(fixed, OracleAgent(), tmp_path, homes=homes, progress=False)
    assert log.task_errors() == [] and sorted(r["task_id"] for r in log.scored()) == [
        "exec-1",
        "exec-2",
    ]
    assert ResultsLog(results).done("exec-2")


def test_prepare_world_raises_a_task_error_for_a_bad_override():
    with pytest.raises(TaskError) as exc:
        prepare_world(parse_task_line(_bad_override_line()), HomeCache(FIXTURES))
    assert exc.value.kind == "override" and exc.value.task_id == "exec-2"


def test_cli_records_a_task_error_and_runs_the_rest(tmp_path):
    tasks = write_tasks(tmp_path, [LINES[0], _bad_override_line(), LINES[2]])
    run = run_cli([tasks], tmp_path / "out")
    assert run.returncode == 0, run.stderr
    assert "3 tasks recorded" in run.stdout and "2 of 2 scored passed" in run.stdout
    assert (
        "1 task errors" in run.stdout and "Task errors: 1 tasks could not be prepared" in run.stdout
    )
    assert "smh: task error: task exec-2: override of 1001 is invalid" in run.stderr
    records = {
        json.loads(x)["task_id"]: json.loads(x) for x in (tmp_path / "out" / "results.jsonl").open()
    }
    assert records["exec-2"]["task_error"]["kind"] == "override" and records["exec-1"]["passed"]


def test_cli_resume_over_a_corrupt_log_warns_and_keeps_the_good_records(tmp_path):
    out = tmp_path / "out"
    assert run_cli([TASK_FILE], out).returncode == 0
    results = out / "results.jsonl"
    lines = results.read_bytes().splitlines(keepends=True)
    lines[3] = b"\x00" * 20 + b"\n"
    results.write_bytes(b"".join(lines))
    run = run_cli([TASK_FILE], out)
    assert run.returncode == 0, run.stderr
    assert (
        f"{results}:4: moved to {QUARANTINE_NAME}" in run.stderr and "Traceback" not in run.stderr
    )
    assert "8 tasks recorded" in run.stdout and "8 of 8 scored passed" in run.stdout
    assert len(results.read_bytes().splitlines()) == 8  # 7 kept + 1 re-run
