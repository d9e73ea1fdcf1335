"""Build the HACS release zip: the SMH integration plus bundled copies of smh_core and sim_devices.

HACS installs only ``custom_components/smh/``, and ``smh_core``/``sim_devices`` are not on
PyPI, so the integration cannot get them through the manifest's ``requirements``. With
``"zip_release": true`` in hacs.json, HACS instead unpacks a release asset into
``config/custom_components/smh/``; this script builds that asset. Its root is the integration
(the files of ``custom_components/smh/``) and ``_vendor/`` holds the two packages, which
``custom_components/smh/vendor.py`` puts on ``sys.path`` when smh is not pip-installed.

Vendored are the ``.py`` files and the package data that pyproject.toml declares
(``*.yaml``, ``*.json``, ``*.md``, ``*.txt``): the same files a wheel of the project carries.
The whole packages go in (CLI and benchmark modules too): they are small and the integration
imports parts of ``smh_core.bench``, so trimming would only risk a missing module.

The zip is deterministic (sorted entries, fixed timestamps and permissions, fixed
compression), so the same sources always give the same bytes.

    python scripts/build_hacs.py                 # writes dist/smh.zip
    python scripts/build_hacs.py --check         # lists what would go in, writes nothing
"""

from __future__ import annotations

import argparse
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
INTEGRATION = REPO / "custom_components" / "smh"
VENDORED = ("smh_core", "sim_devices")
VENDOR_DIR = "_vendor"
# what setuptools puts in a wheel: modules plus [tool.setuptools.package-data] "*" patterns
VENDOR_SUFFIXES = frozenset({".py", ".yaml", ".json", ".md", ".txt"})
SKIP_DIRS = frozenset({"__pycache__"})
SKIP_SUFFIXES = frozenset({".pyc", ".pyo", ".orig", ".rej", ".swp"})
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest date a zip entry can hold


def _files(root: Path) -> Iterator[Path]:
    """Regular files under ``root``, skipping caches, hidden and editor files."""
    for path in root.rglob("*"):
        rel = path.relative_to(root)
        if any(p in SKIP_DIRS or p.startswith(".") for p in rel.parts):
            continue
        if path.is_file() and path.suffix not in SKIP_SUFFIXES and not path.name.endswith("~"):
            yield path


def collect(repo: Path = REPO) -> dict[str, Path]:
    """Archive name -> source file, for everything the release zip holds."""
    integration = repo / "custom_components" / "smh"
    if not (integration / "manifest.json").is_file():
        raise FileNotFoundError(f"no integration at {integration}")
    entries = {path.relative_to(integration).as_posix(): path for path in _files(integration)}
    if any(name.startswith(f"{VENDOR_DIR}/") for name in entries):
        raise ValueError(f"{integration / VENDOR_DIR} exists (an unpacked zip?); remove it first")
    for package in VENDORED:
        root = repo / package
        if not (root / "__init__.py").is_file():
            raise FileNotFoundError(f"no package {package} at {root}")
        for path in _files(root):
            if path.suffix in VENDOR_SUFFIXES:
                entries[f"{VENDOR_DIR}/{path.relative_to(repo).as_posix()}"] = path
    return dict(sorted(entries.items()))


def build(out: Path, repo: Path = REPO) -> dict[str, Path]:
    """Write the zip to ``out`` (parents created); returns its entries."""
    entries = collect(repo)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    with zipfile.ZipFile(tmp, "w") as zf:
        for name, path in entries.items():
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.create_system = 3  # Unix, so external_attr means rw-r--r-- everywhere
            info.external_attr = (0o100644 << 16)
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, path.read_bytes(), compresslevel=9)
    tmp.replace(out)
    return entries


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", type=Path, default=REPO / "dist" / "smh.zip",
                   help="zip to write (default: dist/smh.zip)")
    p.add_argument("--check", action="store_true", help="list the entries and sizes; write nothing")
    args = p.parse_args(argv)
    if args.check:
        entries = collect()
        total = 0
        for name, path in entries.items():
            size = path.stat().st_size
            total += size
            print(f"{size:9d}  {name}")
        print(f"{len(entries)} files, {total} bytes uncompressed")
        return 0
    entries = build(args.out)
    print(f"wrote {args.out} ({len(entries)} files, {args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
