"""The repository as HACS and hassfest read it: manifest metadata pointing at the repository
named once in pyproject.toml, a licence, brand images, and workflows that validate and release."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
INTEGRATION = REPO / "custom_components" / "smh"
sys.path.insert(0, str(REPO / "scripts"))
import set_repo_url  # noqa: E402


def test_manifest_points_at_the_repository_named_in_pyproject():
    manifest = json.loads((INTEGRATION / "manifest.json").read_text(encoding="utf-8"))
    expected = set_repo_url.manifest_fields(set_repo_url.repository_url())
    assert {k: manifest[k] for k in expected} == expected
    assert list(manifest)[:2] == ["domain", "name"] and list(manifest)[2:] == sorted(
        list(manifest)[2:]
    )  # hassfest order


def test_hacs_steps_name_the_repository_to_paste():
    """Issue 42: the HACS steps gave no address to paste into *Custom repositories*."""
    url = set_repo_url.repository_url()
    for page in set_repo_url.HACS_STEPS:
        text = page.read_text(encoding="utf-8")
        assert "Custom repositories" in text and f"`{url}`" in text, page.name


def test_set_repo_url_rewrites_the_hacs_steps_for_a_fork(tmp_path):
    page = tmp_path / "README.md"
    page.write_text(
        "*Custom repositories* -> `https://github.com/smh-bench/smh`\n", encoding="utf-8"
    )
    set_repo_url.rewrite_pages(
        "https://github.com/smh-bench/smh/", "https://github.com/x/y", (page,)
    )
    assert page.read_text(encoding="utf-8") == "*Custom repositories* -> `https://github.com/x/y`\n"


def test_set_repo_url_rewrites_the_manifest_for_a_fork(tmp_path):
    fields = set_repo_url.manifest_fields("https://github.com/someone/smh-fork")
    assert fields == {
        "codeowners": ["@someone"],
        "documentation": "https://github.com/someone/smh-fork",
        "issue_tracker": "https://github.com/someone/smh-fork/issues",
    }


def test_licence_matches_pyproject():
    text = (REPO / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert 'license = { text = "Apache-2.0" }' in (REPO / "pyproject.toml").read_text(
        encoding="utf-8"
    )


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", data[16:24])


def test_brand_images_have_the_sizes_home_assistant_expects():
    brand = INTEGRATION / "brand"
    assert _png_size(brand / "icon.png") == (256, 256) and _png_size(brand / "icon@2x.png") == (
        512,
        512,
    )
    assert _png_size(brand / "logo.png") == (256, 128) and _png_size(brand / "logo@2x.png") == (
        512,
        256,
    )


def test_brand_images_are_what_the_script_draws(tmp_path, monkeypatch):
    import render_brand

    monkeypatch.setattr(render_brand, "BRAND", tmp_path)
    assert render_brand.main() == 0
    for png in (INTEGRATION / "brand").glob("*.png"):
        from PIL import Image

        assert Image.open(png).tobytes() == Image.open(tmp_path / png.name).tobytes(), png.name


def test_workflows_validate_and_release_the_hacs_package():
    validate = yaml.safe_load(
        (REPO / ".github" / "workflows" / "validate.yml").read_text(encoding="utf-8")
    )
    uses = [s.get("uses", "") for job in validate["jobs"].values() for s in job["steps"]]
    assert any(u.startswith("home-assistant/actions/hassfest") for u in uses)
    assert any(u.startswith("hacs/action") for u in uses)
    assert any(s.get("run") == "make test" for s in validate["jobs"]["tests"]["steps"])
    release = yaml.safe_load(
        (REPO / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8")
    )
    runs = [s.get("run", "") for s in release["jobs"]["package"]["steps"]]
    assert "python scripts/build_hacs.py" in runs and any("dist/smh.zip" in r for r in runs)
    hacs = json.loads((REPO / "hacs.json").read_text(encoding="utf-8"))
    assert hacs["zip_release"] is True and hacs["filename"] == "smh.zip"


def test_the_hacs_package_carries_the_brand_images():
    run = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "build_hacs.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "brand/icon.png" in run.stdout and "brand/logo@2x.png" in run.stdout
