"""Importers: other benchmarks' published formats turned into SMH homes and task files.

Each importer reads a user's local copy of a source (nothing is downloaded or shipped), writes
homes and a task JSONL in this project's format, validates every task like a generated suite
(the reference passes, doing nothing fails unless it is correct) and says, item by item, what
it imported, what it approximated and what it skipped, with the reason.
"""
