"""Build the HACS release zip: the SMH integration plus what it imports of smh_core and sim_devices.

HACS installs only ``custom_components/smh/``, and ``smh_core``/``sim_devices`` are not on
PyPI, so the integration cannot get them through the manifest's ``requirements``. With
``"zip_release": true`` in hacs.json, HACS instead unpacks a release asset into
``config/custom_components/smh/``; this script builds that asset. Its root is the integration
(the files of ``custom_components/smh/``) and ``_vendor/`` holds its part of the two packages, which
``custom_components/smh/vendor.py`` puts on ``sys.path`` when smh is not pip-installed.

Vendored are the modules the integration imports, transitively, and the package data of their
packages. The modules are read from the source (``ast``, like tests/test_layers.py): starting at
every module of ``custom_components/smh/``, each import counts wherever it is written (module
top, inside a function, under ``TYPE_CHECKING``), ``importlib.import_module`` with a literal name
too, and importing ``a.b.c`` brings ``a`` and ``a.b`` (their ``__init__`` runs). The data are
the files pyproject.toml declares as package data (``*.yaml``, ``*.json``, ``*.md``, ``*.txt``)
in the folder of a vendored module and in its data-only sub-folders (no ``.py``: the device
catalog's YAML, the memory corpora), since a module reads its data next to itself
(``importlib.resources.files(__package__)``). The CLI, the suite generators and the importers
stay out: the integration never imports them.

The zip is deterministic (sorted entries, fixed timestamps and permissions, fixed
compression), so the same sources always give the same bytes.

    python scripts/build_hacs.py                 # writes dist/smh.zip
    python scripts/build_hacs.py --check         # lists what would go in, writes nothing
"""

from __future__ import annotations

import argparse
import ast
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
DATA_SUFFIXES = VENDOR_SUFFIXES - {".py"}
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


def _modules(repo: Path) -> dict[str, Path]:
    """Dotted module name -> file, for the integration and the vendored packages (a package is
    its ``__init__.py``)."""
    found = {}
    for top in ("custom_components", *VENDORED):
        for path in _files(repo / top):
            if path.suffix == ".py":
                parts = path.relative_to(repo).with_suffix("").parts
                found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _imported_names(module: str, path: Path) -> set[str]:
    """Every dotted name ``module`` imports: ``import``, ``from ... import`` (relative ones
    resolved; ``from pkg import x`` names ``pkg`` and ``pkg.x``), and ``import_module`` with a
    literal, wherever they are written."""
    names: set[str] = set()
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - (node.level - 1)]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            names.add(base)
            names.update(f"{base}.{a.name}" for a in node.names if a.name != "*")
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            names.add(str(node.args[0].value))
    return names


def imported_modules(repo: Path = REPO) -> list[str]:
    """The modules of ``smh_core`` and ``sim_devices`` the integration imports, transitively
    (with the packages above each: importing ``a.b.c`` runs ``a`` and ``a.b``), sorted."""
    modules = _modules(repo)
    todo = [m for m in modules if m.split(".")[:2] == ["custom_components", "smh"]]
    seen = set(todo)
    while todo:
        module = todo.pop()
        for name in _imported_names(module, modules[module]):
            parts = name.split(".")
            # the name itself if it is a module (else a class or function of its module), and
            # every package on the way down to it
            found = [
                ".".join(parts[:i])
                for i in range(1, len(parts) + 1)
                if ".".join(parts[:i]) in modules
            ]
            for target in found:
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
    return sorted(m for m in seen if m.split(".")[0] in VENDORED)


def _data_files(folder: Path) -> Iterator[Path]:
    """Package data in ``folder`` and its data-only sub-folders (those without a ``.py``)."""
    for path in sorted(folder.iterdir()):
        if path.name in SKIP_DIRS or path.name.startswith("."):
            continue
        if path.is_file() and path.suffix in DATA_SUFFIXES:
            yield path
        elif path.is_dir() and not any(path.rglob("*.py")):
            yield from (p for p in _files(path) if p.suffix in DATA_SUFFIXES)


def vendored_files(repo: Path = REPO) -> list[Path]:
    """The files of ``_vendor/``: the imported modules and their packages' data."""
    modules = _modules(repo)
    files = {modules[m] for m in imported_modules(repo)}
    for folder in {path.parent for path in files}:
        files.update(_data_files(folder))
    return sorted(files)


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
    for path in vendored_files(repo):
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
            info.external_attr = 0o100644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, path.read_bytes(), compresslevel=9)
    tmp.replace(out)
    return entries


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument(
        "--out",
        type=Path,
        default=REPO / "dist" / "smh.zip",
        help="zip to write (default: dist/smh.zip)",
    )
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
