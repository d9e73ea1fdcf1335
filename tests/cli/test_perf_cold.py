"""``smh perf cold``: the CPU figure counts the children a process starts (a chart drawer on the
other core is paid for too), and the target holds for CPU as well as wall time."""

from __future__ import annotations

import subprocess
import sys

from smh_core.perf.cold import ColdStart, Timing, children_cpu, median_timing

# a child that starts a grandchild (sharing its stdout), which spins, then prints its CPU seconds
GRANDCHILD = (
    "import time\nt = time.process_time()\n"
    "while time.process_time() - t < 0.2: pass\nprint(time.process_time())"
)
CHILD = (
    f"import subprocess, sys\nsubprocess.run([sys.executable, '-c', {GRANDCHILD!r}], check=True)"
)


def test_children_cpu_counts_a_grandchild_waited_for() -> None:
    before = children_cpu()
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        capture_output=True,
        text=True,
        check=True,
    )
    used = children_cpu() - before
    assert used >= float(done.stdout.strip()) >= 0.2


def test_the_target_holds_for_cpu_time_too() -> None:
    quick = Timing(wall=0.3, cpu=0.3)
    assert ColdStart([quick] * 3, [quick] * 3, bytecode_cached=True).met
    busy_child = Timing(wall=0.6, cpu=0.9)  # the wall time met, a child's CPU not
    assert not ColdStart([quick] * 3, [busy_child] * 3, bytecode_cached=True).met


def test_medians_are_taken_per_figure() -> None:
    runs = [Timing(1.0, 0.1), Timing(2.0, 0.3), Timing(3.0, 0.2)]
    assert median_timing(runs) == Timing(2.0, 0.2)
