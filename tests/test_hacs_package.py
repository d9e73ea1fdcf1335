"""The HACS release zip works on its own: built by ``scripts/build_hacs.py``, unpacked as
``config/custom_components/smh/``, the integration loads with the bundled ``_vendor`` copies of
what it imports of smh_core and sim_devices (every module it imports, transitively, and no
other) in a Python that cannot see this repository (the venv's interpreter with ``-I -S``: no
``.pth`` files, so no editable install of smh; no PYTHONPATH; cwd outside the repo). Once as plain imports plus an engine call, once in a real ``hass`` process set up
through the config flow. Also: the zip is deterministic, hacs.json names it, and the
manifest requires exactly the third-party packages the vendored code imports beyond HA core's.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import re
import subprocess
import sys
import sysconfig
import zipfile
from importlib.metadata import requires
from pathlib import Path
from types import ModuleType
from typing import Any

import aiohttp
import pytest

from custom_components.smh.compat import HA_CORE_MODULES
from smh_core.llm.local import free_port

ROOT = Path(__file__).resolve().parents[1]
INTEGRATION = ROOT / "custom_components" / "smh"
PYTHON = sys.executable
SITE_DIRS = sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
ISOLATED = [PYTHON, "-I", "-S"]  # -I: no PYTHONPATH, no user site, no script dir; -S: no .pth


def _load_script(name: str) -> ModuleType:
    """A module from scripts/ by file path (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


build_hacs = _load_script("build_hacs")


def _norm(name: str) -> str:
    """A distribution name in PEP 503 normal form."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirement_name(requirement: str) -> str:
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
    assert match, requirement
    return _norm(match.group(0))


def ha_core_distributions() -> set[str]:
    """What installing homeassistant itself guarantees (its unconditional Requires-Dist)."""
    return {_requirement_name(r) for r in requires("homeassistant") or [] if "extra ==" not in r}


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Build the zip twice and unpack it into a fresh HA config dir."""
    tmp = tmp_path_factory.mktemp("hacs")
    first, second = tmp / "a" / "smh.zip", tmp / "b" / "smh.zip"
    build_hacs.build(first)
    build_hacs.build(second)
    config = tmp / "config"
    target = config / "custom_components" / "smh"
    with zipfile.ZipFile(first) as zf:
        zf.extractall(target)
    return {"zip": first, "again": second, "config": config, "integration": target}


def test_zip_is_deterministic_and_holds_the_integration_and_the_vendored_packages(package):
    assert package["zip"].read_bytes() == package["again"].read_bytes()
    with zipfile.ZipFile(package["zip"]) as zf:
        names = zf.namelist()
        assert {i.date_time for i in zf.infolist()} == {build_hacs.ZIP_DATE}
    assert names == sorted(names)
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    # the root is the integration, every file of it (except caches) ...
    own = {
        p.relative_to(INTEGRATION).as_posix()
        for p in INTEGRATION.rglob("*")
        if p.suffix in (".py", ".json", ".yaml") and "__pycache__" not in p.parts
    }
    assert own <= set(names)
    assert {"manifest.json", "__init__.py", "vendor.py", "translations/en.json"} <= own
    vendored = [n for n in names if n.startswith("_vendor/")]
    assert all((INTEGRATION / n).is_file() for n in names if n not in vendored)
    # ... plus every module the integration imports, transitively, and no other ...
    modules = {n.removeprefix("_vendor/") for n in vendored if n.endswith(".py")}
    assert modules == {p.relative_to(ROOT).as_posix() for p in _integration_imports()}
    assert {m.replace(".", "/") for m in build_hacs.imported_modules()} == {
        m.removesuffix(".py").removesuffix("/__init__") for m in modules
    }
    assert (
        "_vendor/smh_core/task/model.py" in vendored
        and "_vendor/smh_core/bench/verifier.py" in vendored
    )
    for unused in (
        "smh_core/importers/",
        "smh_core/suites/",
        "smh_core/cli/",
        "smh_core/bench/runner.py",
        "sim_devices/matter_bridge/",
    ):
        assert (ROOT / unused).exists() and not [
            n for n in vendored if n.startswith(f"_vendor/{unused}")
        ]
    # ... with the data files of their packages (catalog YAML, agent prompts, the guard's policy)
    assert any(
        n.startswith("_vendor/sim_devices/catalog/") and n.endswith(".yaml") for n in vendored
    )
    assert {
        "_vendor/smh_core/llm/prompts/eia_system.md",
        "_vendor/smh_core/agent/safety_policy.yaml",
        "_vendor/smh_core/agent/consent_grammar.yaml",
    } <= set(vendored)
    assert "_vendor/smh_core/voice/phrases.yaml" not in vendored  # smh_core.voice is not imported


def _integration_imports() -> set[Path]:
    """The vendored packages' files the integration imports, transitively, by tests/test_layers.py's
    reader of the import graph (a second reader beside the build script's): each module, and the
    packages above it (their ``__init__`` runs first)."""
    from tests.test_layers import GRAPH, MODULES

    seen = {m for m in MODULES if m.startswith("custom_components.smh")}
    todo = list(seen)
    while todo:
        for target in GRAPH.get(todo.pop(), ()):
            parts = target.removesuffix(".__init__").split(".")
            for name in {".".join(parts[:i]) for i in range(1, len(parts))} | {target}:
                name = "smh_core.__init__" if name == "smh_core" else name
                if name in MODULES and name not in seen:
                    seen.add(name)
                    todo.append(name)
    return {MODULES[m] for m in seen if m.split(".")[0] in build_hacs.VENDORED}


def test_hacs_json_names_the_zip_the_script_builds():
    hacs = json.loads((ROOT / "hacs.json").read_text(encoding="utf-8"))
    assert hacs["zip_release"] is True
    assert hacs["filename"] == _default_out().name == "smh.zip"
    assert (
        hacs["render_readme"] is True
    )  # its "homeassistant" (oldest release): tests/test_ha_compat.py


def _default_out() -> Path:
    """The --out default of build_hacs (read from its --help, so the test follows the script)."""
    run = subprocess.run(
        [PYTHON, str(ROOT / "scripts" / "build_hacs.py"), "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    match = re.search(r"default: (\S+?)\)", run.stdout)
    assert match, run.stdout
    return Path(match.group(1))


# Runs in the isolated interpreter: argv = config dir, JSON list of site-packages dirs.
IMPORT_PROBE = r"""
import ast, importlib, importlib.util, json, sys
from importlib.metadata import packages_distributions
from pathlib import Path

config_dir, site_dirs = sys.argv[1], json.loads(sys.argv[2])
sys.path.extend(site_dirs)
visible_before = importlib.util.find_spec("smh_core") is not None
sys.path.insert(0, config_dir)  # what HA does to import custom_components

import custom_components.smh as smh
from homeassistant.const import Platform

here = Path(smh.__file__).parent
modules = sorted(p.stem for p in here.glob("*.py") if p.stem != "__init__")
for name in modules:
    importlib.import_module(f"custom_components.smh.{name}")
platforms = sorted(p.value for p in smh.PLATFORMS)

from custom_components.smh.home_source import build_home
from smh_core.homeenv.engine import HomeEngine

engine = HomeEngine(build_home(config_dir, {"source": "generated", "level": "simple", "seed": 0}))
did = next(d for d in engine.device_ids() if "toggle" in engine.services(d))
result = engine.execute(did, "toggle", {})

# third-party top-level names imported (at any depth) by the modules that got loaded
own = {"smh_core", "sim_devices", "custom_components", "homeassistant"}
names = set()
for name, module in list(sys.modules.items()):
    file = getattr(module, "__file__", None)
    if name.split(".")[0] in own - {"homeassistant"} and file and file.endswith(".py"):
        for node in ast.walk(ast.parse(Path(file).read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
names -= set(sys.stdlib_module_names) | own
dists = packages_distributions()
vendor = Path(config_dir) / "custom_components" / "smh" / "_vendor"
unimportable = {}
for path in sorted(vendor.rglob("*.py")):
    parts = path.relative_to(vendor).with_suffix("").parts
    name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    try:
        importlib.import_module(name)
    except Exception as err:
        unimportable[name] = repr(err)
print(json.dumps({
    "unimportable": unimportable,
    "visible_before": visible_before,
    "smh_core": sys.modules["smh_core"].__file__,
    "sim_devices": sys.modules["sim_devices"].__file__,
    "integration": smh.__file__,
    "modules": modules,
    "platforms": platforms,
    "changes": [c.locator for c in result.changes] if result.ok else None,
    "third_party": {n: dists.get(n, [n]) for n in sorted(names)},
    "heavy": sorted(m for m in ("tqdm", "matplotlib", "hypothesis") if m in sys.modules),
}))
"""


def test_unpacked_zip_imports_without_the_repository(package, tmp_path):
    run = subprocess.run(
        [*ISOLATED, "-c", IMPORT_PROBE, str(package["config"]), json.dumps(SITE_DIRS)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert run.returncode == 0, run.stderr
    probe = json.loads(run.stdout.strip().splitlines()[-1])
    vendor = package["integration"] / "_vendor"
    assert probe["visible_before"] is False, (
        "the isolated interpreter still sees the repo's smh_core"
    )
    assert Path(probe["integration"]).is_relative_to(package["integration"])
    assert Path(probe["smh_core"]).is_relative_to(vendor)
    assert Path(probe["sim_devices"]).is_relative_to(vendor)
    assert set(probe["platforms"]) <= set(probe["modules"])  # every platform module was imported
    assert probe["changes"] == ["state"]
    assert probe["unimportable"] == {}  # every vendored module's own imports are in the zip
    assert not {"matplotlib", "hypothesis"} & set(probe["heavy"]), probe["heavy"]
    # the manifest pins exactly what the vendored code imports and HA core does not install
    imported = {
        _norm(d)
        for module, ds in probe["third_party"].items()
        for d in ds
        if module not in HA_CORE_MODULES
    }  # compat.py's version-gated imports of HA core's own
    needed = imported - ha_core_distributions()
    manifest = json.loads((INTEGRATION / "manifest.json").read_text(encoding="utf-8"))
    pinned = {_requirement_name(r) for r in manifest["requirements"]}
    assert pinned == needed, f"imported third-party packages: {probe['third_party']}"


# Runs `hass` in the isolated interpreter: argv = config dir, JSON site dirs, file for the
# smh_core path it ends up using (written at exit).
HASS_BOOT = r"""
import atexit, importlib.util, json, runpy, sys
from pathlib import Path

config_dir, site_dirs, report = sys.argv[1], json.loads(sys.argv[2]), Path(sys.argv[3])
sys.path.extend(site_dirs)
if importlib.util.find_spec("smh_core") is not None:
    sys.exit("the repo's smh_core is visible")
atexit.register(lambda: report.write_text(getattr(sys.modules.get("smh_core"), "__file__", "") or "none"))
sys.argv = ["hass", "-c", config_dir, "--skip-pip"]
runpy.run_module("homeassistant", run_name="__main__", alter_sys=True)
"""


def _hass_config(port: int) -> str:
    """The project's hass config without the frontend and Assist: only loading the zip matters here."""
    return _load_script("ha_instance").config_text(port).replace("conversation:\nfrontend:\n", "")


async def _ws_entities(session: aiohttp.ClientSession, url: str, token: str) -> list[dict]:
    async with session.ws_connect(f"{url.replace('http', 'ws', 1)}/api/websocket") as ws:
        await ws.receive_json()
        await ws.send_json({"type": "auth", "access_token": token})
        assert (await ws.receive_json())["type"] == "auth_ok"
        await ws.send_json({"id": 1, "type": "config/entity_registry/list"})
        msg = await ws.receive_json()
    assert msg["success"], msg
    return msg["result"]


async def _drive_hass(url: str, process: subprocess.Popen) -> dict[str, Any]:
    ha_instance = _load_script("ha_instance")  # onboarding + config flow over HTTP
    async with aiohttp.ClientSession() as session:
        await ha_instance._wait(session, url, process, 90.0, onboarded=False)
        token = await ha_instance.onboard(session, url)
        entry_id = await ha_instance.add_home(session, url, token, "simple", 0, 0.0)
        headers = {"Authorization": f"Bearer {token}"}
        async with session.get(
            f"{url}/api/config/config_entries/entry?domain=smh", headers=headers
        ) as r:
            entries = await r.json()
        entities = [e for e in await _ws_entities(session, url, token) if e["platform"] == "smh"]
        async with session.get(f"{url}/api/states", headers=headers) as r:
            states = {s["entity_id"]: s["state"] for s in await r.json()}
        async with session.post(
            f"{url}/api/services/smh/snapshot?return_response", json={}, headers=headers
        ) as r:
            snapshot = await r.json()
    return {
        "entry_id": entry_id,
        "entries": entries,
        "entities": entities,
        "states": states,
        "snapshot": snapshot,
    }


@pytest.mark.slow
def test_real_hass_loads_the_unpacked_zip(package, tmp_path, socket_enabled):
    config = package["config"]
    port = free_port()
    (config / "configuration.yaml").write_text(_hass_config(port), encoding="utf-8")
    report = tmp_path / "smh_core_path.txt"
    log = tmp_path / "hass.log"
    ha_instance = _load_script("ha_instance")
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*ISOLATED, "-c", HASS_BOOT, str(config), json.dumps(SITE_DIRS), str(report)],
            cwd=config,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        )
    loop = asyncio.new_event_loop()
    try:
        result = loop.run_until_complete(_drive_hass(f"http://127.0.0.1:{port}", process))
    except BaseException as err:
        ha_instance.stop_process(process)
        raise AssertionError(
            f"{err}\n--- hass log ---\n{log.read_text(errors='replace')[-6000:]}"
        ) from err
    finally:
        loop.close()
    ha_instance.stop_process(process)
    text = log.read_text(errors="replace")
    [entry] = result["entries"]
    assert entry["entry_id"] == result["entry_id"] and entry["state"] == "loaded", text[-4000:]
    entities = result["entities"]
    assert len(entities) >= 10
    live = [
        e["entity_id"]
        for e in entities
        if result["states"].get(e["entity_id"]) not in (None, "unavailable")
    ]
    assert len(live) >= 0.9 * len(entities)
    domains = {e["entity_id"].split(".")[0] for e in entities}
    assert {"light", "sensor"} <= domains, domains
    snapshot = result["snapshot"]["service_response"]
    assert snapshot["home_key"] == "simple:0" and snapshot["devices"]
    errors = [line for line in text.splitlines() if " ERROR " in line and "smh" in line]
    assert not errors, errors
    assert Path(report.read_text()).is_relative_to(package["integration"] / "_vendor"), (
        report.read_text()
    )
