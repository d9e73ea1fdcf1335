"""The ``smh`` command line: help, home generation and summaries, engine perf."""

from __future__ import annotations

import pytest

from smh_core.cli.main import main


def test_help_lists_every_subcommand(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for command in ("bench", "home", "perf"):
        assert command in out


def test_generate_is_deterministic_and_show_summarises(tmp_path, capsys):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["home", "generate", "--level", "medium", "--seed", "5", "--out", str(a)]) == 0
    assert main(["home", "generate", "--level", "medium", "--seed", "5", "--out", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()
    capsys.readouterr()
    assert main(["home", "show", str(a)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("medium-home-seed-5: ")
    assert "Rooms:" in out and "Devices by type" in out


def test_show_of_a_broken_file_is_a_clear_error(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert main(["home", "show", str(bad)]) == 2
    assert "bad.json:1:2: invalid JSON" in capsys.readouterr().err


def test_perf_engine_reports_figures(capsys):
    assert main(["perf", "engine", "--calls", "2000"]) == 0
    out = capsys.readouterr().out
    assert "135 devices" in out and "service calls/s" in out and "snapshot + diff" in out


def test_output_cut_short_by_the_reader_is_not_a_crash(tmp_path):
    """`smh ... | head -1`: the reader closes the pipe; smh stops quietly (no traceback)."""
    import subprocess
    import sys

    home = tmp_path / "h.json"
    assert main(["home", "generate", "--level", "complex", "--seed", "1", "--out", str(home)]) == 0
    proc = subprocess.Popen(
        [sys.executable, "-m", "smh_core.cli.main", "home", "show", str(home)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    proc.stdout.close()  # the reader is gone before smh writes anything
    _, err = proc.communicate(timeout=60)
    assert b"Traceback" not in err and b"BrokenPipe" not in err, err.decode()
    assert proc.returncode == 0
