"""One code base for every supported Home Assistant: the manifest's requirements fit what each
HA pins, and each version gate in ``custom_components/smh/compat.py`` matches what the running
HA really has. Runs in both lanes (``make test``: HA 2026.2.3; ``make test-ha-current``: HA
2026.10.4 with the test plugin, 2026.11.0 alone).

HA installs an integration's requirements under its own ``package_constraints.txt``: a
requirement that the pinned version does not satisfy makes pip's resolution fail, and HA then
refuses the integration (no config flow; existing entries fail to start).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[1]
MANIFEST = json.loads(
    (REPO / "custom_components" / "smh" / "manifest.json").read_text(encoding="utf-8")
)
CONSTRAINTS = REPO / "tests" / "fixtures" / "ha_constraints"
"""HA's own package_constraints.txt of the oldest and the newest supported release (copied
from their wheels; refresh with the newest release)."""


def _pins(text: str) -> dict[str, str]:
    pins = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("-"):
            continue
        requirement = Requirement(line)
        exact = [s.version for s in requirement.specifier if s.operator == "=="]
        if exact:
            pins[canonicalize_name(requirement.name)] = exact[0]
    return pins


def _unmet(constraints: str) -> list[str]:
    """Each manifest requirement whose name HA pins to a version outside it."""
    pins = _pins(constraints)
    unmet = []
    for line in MANIFEST["requirements"]:
        requirement = Requirement(line)
        pinned = pins.get(canonicalize_name(requirement.name))
        if pinned is not None and not requirement.specifier.contains(pinned, prereleases=True):
            unmet.append(f"{line} (HA pins {requirement.name}=={pinned})")
    return unmet


@pytest.mark.parametrize("release", sorted(p.stem for p in CONSTRAINTS.glob("*.txt")))
def test_manifest_requirements_fit_each_supported_has_pins(release: str) -> None:
    assert _unmet((CONSTRAINTS / f"{release}.txt").read_text(encoding="utf-8")) == []


def test_the_check_catches_an_exact_pin_that_newer_ha_refuses() -> None:
    """The old manifest (openai==2.15.0, pydantic==2.12.2) against HA 2026.11.0's pins: the very
    failure users met."""
    newest = (CONSTRAINTS / "2026.11.0.txt").read_text(encoding="utf-8")
    saved = MANIFEST["requirements"]
    try:
        MANIFEST["requirements"] = ["croniter==7.0.0", "openai==2.15.0", "pydantic==2.12.2"]
        assert len(_unmet(newest)) == 2
    finally:
        MANIFEST["requirements"] = saved


def test_manifest_requirements_are_ranges_with_an_upper_bound() -> None:
    for line in MANIFEST["requirements"]:
        operators = {s.operator for s in Requirement(line).specifier}
        assert ">=" in operators and "<" in operators, line


def test_running_ha_would_not_reinstall_anything() -> None:
    """What HA does at start-up for a custom integration: every requirement already installed
    (as HA installed it, under its constraints) means nothing to install, nothing to refuse."""
    ha_package = pytest.importorskip("homeassistant.util.package")
    import homeassistant

    installed = Path(homeassistant.__file__).parent / "package_constraints.txt"
    assert _unmet(installed.read_text(encoding="utf-8")) == []
    assert [r for r in MANIFEST["requirements"] if not ha_package.is_installed(r)] == []


def test_hacs_and_compat_name_the_same_oldest_release() -> None:
    compat = pytest.importorskip("custom_components.smh.compat")
    hacs = json.loads((REPO / "hacs.json").read_text(encoding="utf-8"))
    assert hacs["homeassistant"] == str(compat.OLDEST_SUPPORTED)
    assert compat.RUNNING >= compat.OLDEST_SUPPORTED
    assert (CONSTRAINTS / f"{compat.OLDEST_SUPPORTED}.txt").is_file()


def test_each_version_gate_matches_what_the_running_ha_has() -> None:
    """The gates are written as release numbers (read off HA's wheels); here each is checked
    against the feature itself in whichever HA this lane runs."""
    compat = pytest.importorskip("custom_components.smh.compat")
    import homeassistant.const as ha_const
    from homeassistant.components.conversation import ToolResultContent
    from homeassistant.helpers import device_registry as dr
    from homeassistant.helpers import llm

    assert hasattr(ha_const, "UnitOfDensity") == compat.DENSITY_UNITS
    assert (
        hasattr(dr.DeviceRegistry, "async_get_device_by_identifier")
        == compat.DEVICE_LOOKUP_PER_ENTRY
    )
    assert hasattr(llm, "ToolResult") == compat.TOOL_RESULT_OBJECTS
    assert ("result" in ToolResultContent.__dataclass_fields__) == compat.TOOL_RESULT_OBJECTS
    assert (importlib.util.find_spec("probatio") is not None) == compat.PROBATIO_SCHEMAS
    from homeassistant.components.climate import ClimateEntity
    from homeassistant.components.water_heater import WaterHeaterEntity

    for entity in (ClimateEntity, WaterHeaterEntity):
        assert hasattr(entity, "native_current_temperature") == compat.NATIVE_TEMPERATURES, entity
    assert compat.MICROGRAMS_PER_CUBIC_METER == "μg/m³"


def test_tool_results_round_trip_in_the_running_release() -> None:
    compat = pytest.importorskip("custom_components.smh.compat")
    refused = {"ok": False, "error": {"code": "out_of_range"}}
    result = compat.tool_result(refused)
    assert compat.result_data(result) == refused
    if compat.TOOL_RESULT_OBJECTS:
        assert result.error is True and compat.tool_result({"ok": True}).error is False
    content = compat.tool_result_content(
        agent_id="conversation.x", tool_call_id="1", tool_name="t", data={"ok": True}
    )
    assert compat.result_data(content) == {"ok": True}
