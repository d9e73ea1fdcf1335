"""``smh tasks generate|validate``: write and check task suites."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

SUITES = ["smh", "simuhome", "memhome", "sage", "safety", "safety-adversarial", "safety-composed"]
"""The suites ``smh tasks generate`` writes when no ``--suite`` is given."""
INTENTS = "intents"
"""HA's sentence templates per language: asked for by name only (all languages take minutes)."""
LANGUAGE_SUITES = {
    "safety": "smh_core.safety_suites.safety_languages",
    "sage": "smh_core.suites.sage_languages",
    "simuhome": "smh_core.suites.simuhome_languages",
    "smh": "smh_core.suites.smh_languages",
    "memhome": "smh_core.suites.memhome_languages",
}
"""The suites written in other languages than English, each by a module with ``LANGUAGES``,
``resolve_languages(asked)``, ``generate(seed, language)``, ``write_homes(out, seed, language)``
and ``task_file(language)``."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tasks", help="generate and validate task suites")
    ts = p.add_subparsers(dest="tasks_command", metavar="ACTION", required=True)
    g = ts.add_parser(
        "generate", help="generate suites (same seed, same bytes); every task is validated"
    )
    g.add_argument(
        "--suite",
        choices=[*SUITES, "all", INTENTS],
        action="append",
        help="suite(s) to generate (default and all: every suite but intents; intents writes "
        "OUT/intents/; with --home: smh by default, all = every suite written for a home)",
    )
    g.add_argument(
        "--language",
        action="append",
        help="with --suite intents: a language code of home-assistant-intents (en, de, zh-CN, ...) "
        "or all (the default); with one suite of "
        + ", ".join(LANGUAGE_SUITES)
        + ": en (the default), de, es, fr, zh or all, writing OUT/<suite>.<lang>.jsonl (en: "
        "OUT/<suite>.jsonl) and its homes; may be repeated",
    )
    g.add_argument(
        "--count",
        type=int,
        default=300,
        help="with --suite intents: tasks per language where HA's templates allow (default: 300)",
    )
    g.add_argument("--seed", type=int, default=0, help="generation seed (default: 0)")
    g.add_argument(
        "--out", type=Path, default=Path("tasks"), help="output folder (default: tasks/)"
    )
    g.add_argument(
        "--home",
        type=Path,
        help="write the suite's tasks for this home file instead (your HA home's twin from "
        "`smh home from-ha`, or any home): its devices, rooms and names; OUT gets homes/<name>.json, "
        "<name>.<suite>.jsonl and a report of the subcategories the home cannot support, with why "
        "(suites: smh, memhome, safety, simuhome; all: each)",
    )
    g.add_argument(
        "--per-subcategory",
        type=int,
        default=10,
        help="with --home: tasks per subcategory (safety: per category) where the home allows "
        "(default: 10)",
    )
    g.set_defaults(func=_generate)
    v = ts.add_parser(
        "validate", help="check task files: schema, reference passes, doing nothing fails"
    )
    v.add_argument("files", type=Path, nargs="+")
    v.set_defaults(func=_validate)
    i = ts.add_parser(
        "import",
        help="import another benchmark's tasks from a local copy of it",
        description="Read a local copy of another benchmark in its published format and write "
        "homes, a task file and an import report (imported / approximated / skipped, "
        "with reasons) under --out. Every imported task is validated.",
    )
    i.add_argument(
        "--from",
        dest="source",
        required=True,
        choices=["ha-datasets", "simuhome", "homebench"],
        help="the source format: ha-datasets = allenporter/home-assistant-datasets' assist format "
        "(a checkout, its datasets/ folder or one dataset such as datasets/assist-mini); "
        "simuhome = SimuHome's episodes (its data/benchmark/ folder or one episode file); "
        "homebench = HomeBench's dataset/ folder (home_status_method.jsonl and test_data.jsonl) "
        "or one instruction file next to home_status_method.jsonl",
    )
    i.add_argument("path", type=Path, help="the local copy to read")
    i.add_argument(
        "--out",
        type=Path,
        default=Path("tasks/imported"),
        help="folder for homes/, <suite>.jsonl and the report (default: tasks/imported, where "
        "`smh bench run --suite <suite>` looks; not committed)",
    )
    i.add_argument(
        "--report",
        action="store_true",
        help="after importing, print the fidelity report: per category and device kind, imported and "
        "skipped (by reason), the reference and doing nothing replayed, HomeBench's gold calls "
        "replayed, and every request the source labels impossible replayed (it must be refused)",
    )
    i.set_defaults(func=_import)


def _requested(args: argparse.Namespace, default: list[str], known: tuple[str, ...]) -> list[str]:
    """The suites ``--suite`` names (``all``: every one of ``known``), in order, once each."""
    asked = args.suite or default
    return list(dict.fromkeys(s for a in asked for s in (known if a == "all" else (a,))))


def _generate_for_home(args: argparse.Namespace) -> int:
    from smh_core.homeenv.engine import load_home
    from smh_core.safety_suites.for_home import generate_safety
    from smh_core.suites.for_home import GENERATORS as SUITE_GENERATORS

    generators = {**SUITE_GENERATORS, "safety": generate_safety}
    FOR_HOME = tuple(generators)  # noqa: N806 - the suites a home can be given, as a constant
    from smh_core.task.model import dump_task

    suites = _requested(args, ["smh"], FOR_HOME)
    unsupported = [s for s in suites if s not in FOR_HOME]
    if unsupported:
        raise ValueError(
            f"--home: tasks for a given home are written for the {', '.join(FOR_HOME)} suites "
            f"only so far, not {', '.join(unsupported)}"
        )
    if args.per_subcategory < 1:
        raise ValueError("--per-subcategory must be at least 1")
    home = load_home(args.home)
    stem = args.home.stem
    from smh_core.ha.twin_runnable import real_check

    real = real_check(home)  # a twin: what its Home Assistant can run
    args.out.mkdir(parents=True, exist_ok=True)
    written = 0
    for suite in suites:
        made = generators[suite](home, args.out, stem, args.seed, args.per_subcategory, real=real)
        if real is not None:
            made.notes[:0] = real.notes(made.tasks, made.unit)
        path = args.out / f"{stem}.{suite}.jsonl"
        path.write_text("".join(dump_task(t) + "\n" for t in made.tasks), encoding="utf-8")
        report = args.out / f"{stem}.{suite}.md"
        report.write_text(made.markdown(home.name), encoding="utf-8")
        counts = ", ".join(f"{c} {n}" for c, n in sorted(made.counts().items()))
        print(
            f"wrote {path}: {len(made.tasks)} tasks on {args.out / 'homes' / (stem + '.json')}, "
            f"each validated ({counts or 'none'})"
        )
        for note in made.notes:
            print(f"  {note}")
        for row, why in made.short.items():
            print(f"  {row}: fewer than {made.wanted}: {why}")
        print(f"report: {report}; run them: smh bench run --tasks {path}")
        written += len(made.tasks)
    return 0 if written else 1


def _generate_intents(args: argparse.Namespace) -> int:
    """Write OUT/intents/<lang>.jsonl, its home and a summary per language; every task validated."""
    from smh_core.homeenv.engine import dump_home
    from smh_core.suites.common import validate
    from smh_core.suites.intents.suite import IntentHomes, generate_language, home_file
    from smh_core.suites.intents.summary import markdown, resolve_languages
    from smh_core.task.model import dump_task

    if args.count < 1:
        raise ValueError("--count must be at least 1")
    languages = resolve_languages(args.language or ["all"])
    out = args.out / INTENTS
    results = []
    for lang in languages:
        r = generate_language(lang, args.seed, args.count)
        results.append(r)
        if r.home is None or not r.tasks:
            print(f"{r.language}: no tasks: {r.skipped.get('*', 'no intent could be written')}")
            continue
        validate(r.tasks, IntentHomes({r.language: r.home}))
        home = out / home_file(r.language)
        home.parent.mkdir(parents=True, exist_ok=True)
        home.write_text(dump_home(r.home), encoding="utf-8")
        path = out / f"{r.language}.jsonl"
        path.write_text("".join(dump_task(t) + "\n" for t in r.tasks), encoding="utf-8")
        print(f"wrote {path}: {len(r.tasks)} tasks in {len(r.per_intent)} intents, each validated")
    summary = out / "summary.md"
    out.mkdir(parents=True, exist_ok=True)
    summary.write_text(markdown(results, args.seed, args.count), encoding="utf-8")
    print(f"summary: {summary}; run one: smh bench run --tasks {out}/<lang>.jsonl --agent oracle")
    return 0 if any(r.tasks for r in results) else 1


def _generate_in_languages(args: argparse.Namespace, suite: str) -> int:
    """Write ``suite`` in each language asked for (OUT/<suite>.<lang>.jsonl, its homes); every
    task validated as the English suite's are."""
    import importlib

    from smh_core.task.model import dump_task

    module = importlib.import_module(LANGUAGE_SUITES[suite])
    args.out.mkdir(parents=True, exist_ok=True)
    for lang in module.resolve_languages(args.language):
        tasks = module.generate(args.seed, lang)
        homes = module.write_homes(args.out, args.seed, lang)
        path = args.out / module.task_file(lang)
        path.write_text("".join(dump_task(t) + "\n" for t in tasks), encoding="utf-8")
        print(
            f"wrote {path}: {len(tasks)} tasks in {lang} on {len(homes)} home files, each "
            f"validated as the English {suite} suite's are"
        )
    return 0


def _generate(args: argparse.Namespace) -> int:
    if args.home is not None:
        return _generate_for_home(args)
    wants_intents = INTENTS in (args.suite or [])
    if args.language and not wants_intents:
        if args.suite and len(args.suite) == 1 and args.suite[0] in LANGUAGE_SUITES:
            return _generate_in_languages(args, args.suite[0])
        raise ValueError(
            "--language is for --suite intents or one suite of " + ", ".join(LANGUAGE_SUITES)
        )
    if wants_intents:
        code = _generate_intents(args)
        args.suite = [s for s in args.suite if s != INTENTS]
        if not args.suite:
            return code
    from smh_core.safety_suites import safety_adversarial, safety_composed, safety_suite
    from smh_core.suites import memhome_suite, sage_suite, simuhome_suite, smh_suite
    from smh_core.task.model import dump_task

    generators = {
        "smh": smh_suite.generate,
        "simuhome": simuhome_suite.generate,
        "memhome": memhome_suite.generate,
        "sage": sage_suite.generate,
        "safety": safety_suite.generate,
        "safety-adversarial": safety_adversarial.generate,
        "safety-composed": safety_composed.generate,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    for suite in _requested(args, SUITES, tuple(SUITES)):
        if suite == "sage":  # its tasks name home files (rooms and descriptions written by hand)
            for path in sage_suite.write_homes(args.out):
                print(f"wrote {path}")
        if suite in (
            "safety",
            "safety-adversarial",
            "safety-composed",
        ):  # injected/renamed devices: home files
            module = {
                "safety": safety_suite,
                "safety-adversarial": safety_adversarial,
                "safety-composed": safety_composed,
            }[suite]
            for path in module.write_homes(args.out, args.seed):
                print(f"wrote {path}")
        tasks = generators[suite](args.seed)
        path = args.out / f"{suite}.jsonl"
        path.write_text("".join(dump_task(t) + "\n" for t in tasks), encoding="utf-8")
        print(
            f"wrote {path}: {len(tasks)} tasks, each validated (reference passes; doing nothing fails unless it is correct)"
        )
    return 0


def _validate(args: argparse.Namespace) -> int:
    from smh_core.suites.smh_suite import validate
    from smh_core.task.home import HomeCache
    from smh_core.task.model import load_tasks

    tasks = load_tasks(args.files)
    validate(tasks, HomeCache(args.files[0].parent))
    print(f"{len(tasks)} tasks valid")
    return 0


def _import(args: argparse.Namespace) -> int:
    from smh_core.importers.registry import IMPORTERS

    module, run = IMPORTERS[args.source]
    tasks, report = run(args.path, args.out)
    print(f"wrote {args.out / (module.SUITE + '.jsonl')}: {report.summary()}")
    print(f"report: {args.out / (module.SUITE + '.import.md')}")
    if args.source == "ha-datasets":
        from smh_core.importers import ha_traces

        if ha_traces.reports_folder(args.path) is not None:  # a checkout: its published traces too
            traced = ha_traces.import_traces(args.path, tasks, report, args.out)
            print(f"wrote {args.out / ha_traces.TRACES_FILE}: {traced.summary()}")
    if not tasks:
        print("smh: error: nothing could be imported (see the report)", file=sys.stderr)
        return 1
    if args.report:
        from smh_core.importers.fidelity import markdown, measure

        figures = measure(tasks, report, args.out, args.source, args.path)
        print()
        print(markdown(figures), end="")
        return 1 if figures.failures else 0
    return 0
