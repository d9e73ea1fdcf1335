"""``smh perf sim --peer-simuhome PATH``: the comparison's arithmetic, its episode choice and its
errors (always), and one short run against a real SimuHome checkout when
``SMH_SIMUHOME_CHECKOUT`` names one (skipped otherwise: SimuHome is not on PyPI and is never
downloaded by the tests)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from smh_core.cli.main import main
from smh_core.perf.peer import (
    PEER_DEVICES,
    PeerResult,
    PeerRound,
    PeerUnavailable,
    device_count,
    measure_peer,
    pick_episode,
    simuhome_modules,
)

CHECKOUT = os.environ.get("SMH_SIMUHOME_CHECKOUT")


@pytest.fixture(autouse=True)
def _forget_simuhome() -> Iterator[None]:
    """SimuHome's package is called ``src``: drop whatever a test imported under that name."""
    yield
    for name in [n for n in sys.modules if n == "src" or n.startswith("src.")]:
        del sys.modules[name]


def _result(*rounds: PeerRound) -> PeerResult:
    return PeerResult("e.json", 27, 27, 5, 100, rounds, ())


def test_a_round_s_ratio_is_simuhome_s_time_over_smh_s() -> None:
    r = PeerRound(simuhome_us=60.0, simuhome_step_us=45.0, smh_us=15.0, smh_listened_us=20.0)
    assert (r.ratio, r.step_ratio, r.listened_ratio) == (4.0, 3.0, 3.0)


def test_the_result_is_the_median_of_the_rounds_ratios_not_the_ratio_of_medians() -> None:
    result = _result(
        PeerRound(50.0, 50.0, 10.0, 20.0),  # 5x
        PeerRound(90.0, 90.0, 30.0, 30.0),  # 3x
        PeerRound(40.0, 40.0, 20.0, 20.0),  # 2x
    )
    assert result.ratio == 3.0
    assert result.simuhome_us == 50.0 and result.smh_us == 20.0  # 50 / 20 = 2.5, not the ratio
    assert result.listened_ratio == 2.5 and result.smh_listened_us == 20.0


def _episode(folder: Path, name: str, devices: int) -> None:
    rooms = {
        "kitchen": {
            "devices": [{"device_id": f"d{i}", "device_type": "fan"} for i in range(devices)]
        }
    }
    data = {"initial_home_config": {"base_time": "2025-08-23 00:00:00", "rooms": rooms}}
    (folder / name).write_text(json.dumps(data), encoding="utf-8")


def test_the_default_episode_is_the_first_with_27_devices(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "benchmark"
    folder.mkdir(parents=True)
    _episode(folder, "qt1_feasible_seed_1.json", 31)
    _episode(folder, "qt2_feasible_seed_9.json", PEER_DEVICES)
    _episode(folder, "qt1_feasible_seed_5.json", PEER_DEVICES)
    assert pick_episode(tmp_path).name == "qt1_feasible_seed_5.json"
    assert pick_episode(tmp_path, Path("qt1_feasible_seed_1.json")).name == (
        "qt1_feasible_seed_1.json"
    )
    with pytest.raises(PeerUnavailable, match="no episode file"):
        pick_episode(tmp_path, Path("nope.json"))
    assert (
        device_count(
            json.loads((folder / "qt1_feasible_seed_1.json").read_text())["initial_home_config"]
        )
        == 31
    )


def test_no_27_device_episode_is_an_error(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "benchmark"
    folder.mkdir(parents=True)
    _episode(folder, "qt1_feasible_seed_1.json", 30)
    with pytest.raises(PeerUnavailable, match="no episode with 27 devices"):
        pick_episode(tmp_path)


def test_a_folder_that_is_not_a_checkout_says_how_to_get_one(tmp_path: Path) -> None:
    how = "git clone https://github.com/standardwish/SimuHome"
    with pytest.raises(PeerUnavailable, match=how), simuhome_modules(tmp_path):
        pass


def test_a_missing_dependency_of_simuhome_is_named(tmp_path: Path) -> None:
    app = tmp_path / "src" / "simulator" / "application"
    app.mkdir(parents=True)
    (tmp_path / "src" / "__init__.py").write_text("")
    (app / "home_initializer.py").write_text("import simuhome_dependency_not_here\n")
    domain = tmp_path / "src" / "simulator" / "domain"
    domain.mkdir()
    (domain / "home.py").write_text("class Home: ...\n")
    before = list(sys.path)
    with (
        pytest.raises(PeerUnavailable, match="simuhome_dependency_not_here"),
        simuhome_modules(tmp_path),
    ):
        pass
    assert sys.path == before  # the checkout is on the path only while it is used


def test_bad_arguments_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for argv in (["--ticks", "0"], ["--rounds", "x"]):
        with pytest.raises(SystemExit) as exc:
            main(["perf", "sim", "--peer-simuhome", str(tmp_path), *argv])
        assert exc.value.code == 2
    assert main(["perf", "sim", "--peer-simuhome", str(tmp_path)]) == 2
    assert "git clone" in capsys.readouterr().err
    assert main(["perf", "sim", "--peer-simuhome", str(tmp_path), "--scale"]) == 2
    with pytest.raises(ValueError, match="rounds"):
        measure_peer(tmp_path, rounds=0)


@pytest.mark.skipif(CHECKOUT is None, reason="set SMH_SIMUHOME_CHECKOUT to a SimuHome checkout")
def test_both_simulators_tick_the_same_27_device_episode(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert CHECKOUT is not None
    result = measure_peer(Path(CHECKOUT), ticks=50, rounds=2)
    assert result.simuhome_devices == result.smh_devices == PEER_DEVICES
    assert result.rooms >= 4 and len(result.rounds) == 2
    for r in result.rounds:
        assert min(r.simuhome_us, r.simuhome_step_us, r.smh_us, r.smh_listened_us) > 0
    assert main(["perf", "sim", "--peer-simuhome", CHECKOUT, "--ticks", "20", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert f"{PEER_DEVICES} devices" in out and "target >= 3x" in out
