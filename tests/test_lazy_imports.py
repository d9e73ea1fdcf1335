"""The CLI's start-up path and an oracle run never load the model client, matplotlib or the
sensitive-data patterns.

``openai`` costs about 0.5 s to import and matplotlib 0.4 s (only report.png needs it, drawn
when asked for); a run that calls no model and draws no chart should not pay for them. Each check runs
in a fresh interpreter, since this test process may already have imported both.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _loaded_after(code: str) -> set[str]:
    probe = code + "\nimport sys\nprint(' '.join(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(out.stdout.split())


def test_cli_help_path_loads_no_model_client_chart_task_model_or_event_loop() -> None:
    """``smh --help`` (every subcommand's parser) imports what the parsers need: not the model
    client, matplotlib, the task and home models (pydantic, 0.19 s) or asyncio (0.04 s), which
    the subcommands import when they run."""
    loaded = _loaded_after("import smh_core.cli.main as m\nm.build_parser().format_help()")
    assert "smh_core.cli.main" in loaded
    heavy = {"openai", "matplotlib", "pydantic", "asyncio"}
    assert not {m for m in loaded if m.split(".")[0] in heavy}


def test_oracle_run_path_loads_no_model_client() -> None:
    loaded = _loaded_after(
        "import smh_core.bench.runner, smh_core.bench.verifier, smh_core.memory.decision"
    )
    assert "smh_core.bench.runner" in loaded
    assert not {m for m in loaded if m.split(".")[0] == "openai" or m == "smh_core.llm.client"}
    # compiled on the first memory write
    assert not {"smh_core.memory.sensitive", "smh_core.memory.access"} & loaded


def test_oracle_run_loads_only_what_it_uses(tmp_path: Path) -> None:
    """A sample run with the oracle writes report.md and report.csv, not report.png (no
    --chart): matplotlib is never imported, here or in a child (the only child is
    ``git rev-parse``, run.json's commit stamp). Nor are the model client, the memory
    decision and its filters (no MemHome task), croniter (no time trigger) or multiprocessing
    (the progress bar's lock is a thread lock)."""
    code = (
        f"import subprocess\n"
        f"children = []\n"
        f"class Spy(subprocess.Popen):\n"
        f"    def __init__(self, args, *a, **k):\n"
        f"        children.append(args[0])\n"
        f"        super().__init__(args, *a, **k)\n"
        f"subprocess.Popen = Spy\n"
        f"from smh_core.cli.main import main\n"
        f"main(['bench', 'run', '--suite', 'sample', '--agent', 'oracle', '--out', {str(tmp_path)!r}, '--quiet'])\n"
        f"assert set(children) <= {{'git'}}, children"
    )
    loaded = _loaded_after(code)
    assert (tmp_path / "report.md").is_file() and not (tmp_path / "report.png").exists()
    unused = {"matplotlib", "openai", "croniter", "multiprocessing"}
    assert not {m for m in loaded if m.split(".")[0] in unused}
    assert not {"smh_core.memory.decision", "smh_core.memory.access"} & loaded


def test_integration_setup_path_leaves_benchmark_agent_and_llm_code_for_their_first_use() -> None:
    """Importing the integration and its platforms (what HA does before an entry's entities
    exist) loads neither the benchmark's task model and verifier, the synthesizer, the agent's
    tools nor HA's LLM helpers: the services that need them import them on their first call,
    the LLM API once HA's conversation integration is loaded (tests/ha/test_lazy_setup.py)."""
    platforms = ", ".join(
        f"custom_components.smh.{p}"
        for p in (
            "light",
            "climate",
            "sensor",
            "binary_sensor",
            "cover",
            "fan",
            "switch",
            "number",
            "select",
            "text",
            "lock",
            "vacuum",
            "humidifier",
            "water_heater",
            "media_player",
            "button",
        )
    )
    loaded = _loaded_after(f"import custom_components.smh, {platforms}")
    assert "custom_components.smh.light" in loaded
    deferred = {
        "smh_core.bench.verifier",
        "smh_core.memory.metrics",
        "smh_core.agent.synthesizer",
        "smh_core.agent.tools",
        "homeassistant.helpers.llm",
        "custom_components.smh.bench_services",
        "custom_components.smh.automation",
        "custom_components.smh.llm_api",
    }
    assert not deferred & loaded


def test_setting_up_an_entry_loads_nothing_of_the_benchmark() -> None:
    """Issue 37: what HA runs to set up an entry (the integration and its platforms imported,
    the entry's options turned into a home and its key) loads no module of the benchmark: not
    its task format, runner, verifier, suites, safety suites or importers."""
    loaded = _loaded_after(
        "import custom_components.smh, custom_components.smh.light, custom_components.smh.sensor\n"
        "from custom_components.smh.home_source import build_home, entry_home_key\n"
        "for data in ({'source': 'generated', 'level': 'simple', 'seed': 0},\n"
        "             {'source': 'matter', 'seed': 1}):\n"
        "    assert build_home('.', data).devices and entry_home_key(data)\n"
    )
    assert "custom_components.smh.home_source" in loaded
    benchmark = ("task", "bench", "suites", "safety_suites", "importers")
    assert not {
        m for m in loaded if m.split(".")[:2][-1] in benchmark and m.startswith("smh_core.")
    }


def test_an_entry_with_a_home_file_loads_no_generator_and_no_cron_parser() -> None:
    """Issue 37: an entry whose home is a file (without time triggers) is set up without the
    home generators and the device catalog (a generated home needs them, a file does not), and
    without croniter, which the first cron expression imports."""
    loaded = _loaded_after(
        "import custom_components.smh, custom_components.smh.light\n"
        "from custom_components.smh.home_source import build_home, entry_home_key\n"
        "from smh_core.homeenv.engine import HomeEngine\n"
        "from smh_core.sim.simulator import Simulator\n"
        "data = {'source': 'file', 'file': 'custom_components/smh/sample_homes/tiny.json'}\n"
        "home = build_home('.', data)\n"
        "assert home.devices and not home.automations and entry_home_key(data) == 'file:tiny.json'\n"
        "Simulator(HomeEngine(home))\n"
    )
    assert "smh_core.sim.simulator" in loaded
    assert (
        not {"smh_core.homes.generator", "smh_core.homes.simulated", "sim_devices.catalog"} & loaded
    )
    assert not {m for m in loaded if m.split(".")[0] == "croniter"}


def test_offering_the_llm_api_loads_no_agent_code() -> None:
    """Issue 37: the ``smh`` LLM API is offered when HA's conversation integration loads (in
    every HA with Assist, at start); its tools, consent grammar and policy wait for the first
    agent that uses it."""
    loaded = _loaded_after("import custom_components.smh, custom_components.smh.llm_api_offer")
    assert "custom_components.smh.llm_api_offer" in loaded
    assert not {m for m in loaded if m.startswith("smh_core.agent")}
    assert "custom_components.smh.llm_api" not in loaded
