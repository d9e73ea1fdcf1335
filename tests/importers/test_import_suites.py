"""`smh bench run --suite NAME` finds imported suites (ha_datasets, simuhome_import,
homebench_import) in the tasks folder or its imported/ sub-folder, and says which command
writes one that is missing; generated suites keep their place."""

from __future__ import annotations

from pathlib import Path

import pytest

from smh_core.importers.registry import IMPORTERS
from smh_core.importers.suites import IMPORTED, missing_hint, suite_file


def test_every_importer_writes_a_suite_bench_run_knows():
    assert {module.SUITE: source for source, (module, _) in IMPORTERS.items()} == IMPORTED


@pytest.mark.parametrize("name", sorted(IMPORTED))
def test_an_imported_suite_is_read_from_imported_unless_the_tasks_folder_has_it(tmp_path, name):
    assert suite_file(name, tmp_path) == tmp_path / "imported" / f"{name}.jsonl"
    assert (
        f"smh tasks import --from {IMPORTED[name]} PATH --out {tmp_path / 'imported'}"
        in missing_hint(name, tmp_path)
    )
    (tmp_path / f"{name}.jsonl").write_text("")
    assert suite_file(name, tmp_path) == tmp_path / f"{name}.jsonl"


def test_a_generated_suite_stays_in_the_tasks_folder():
    assert suite_file("smh", Path("tasks")) == Path("tasks/smh.jsonl")
    assert "smh tasks generate" in missing_hint("smh", Path("tasks"))
