"""``smh bench run|report``: run agents on task files and summarise the results."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .endpoint import require_endpoint

if TYPE_CHECKING:
    from smh_core.task.model import TaskSource


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="run the benchmark and write reports")
    bs = p.add_subparsers(dest="bench_command", metavar="ACTION", required=True)

    r = bs.add_parser(
        "run", help="run an agent on tasks; resumable (re-run the same command to continue)"
    )
    src = r.add_mutually_exclusive_group(required=True)
    src.add_argument(
        "--suite",
        action="append",
        help="suite name (sample, smh, simuhome, memhome, sage, safety, or an imported one): reads "
        "SUITE.jsonl (or imported/SUITE.jsonl) from --tasks-dir, else from ./tasks, else from the "
        "installed smh's tasks folder (repeatable)",
    )
    src.add_argument("--tasks", action="append", type=Path, help="task JSONL file (repeatable)")
    r.add_argument(
        "--tasks-dir",
        type=Path,
        help="folder --suite names are read from (default: ./tasks, then the installed smh's tasks folder)",
    )
    r.add_argument(
        "--agent",
        choices=["oracle", "null", "openai", "local", "replay", "obey-injections", "replay-traces"],
        default=None,
        help="default: oracle (with --mapping: HA's conversation agent --agent-id, unless oracle or "
        "null is asked for, which then act through the mapping's service calls); "
        "openai: any OpenAI-compatible endpoint (--base-url, --model); "
        "local: the bundled local model, served on loopback for this run (smh model info); "
        "replay re-scores --from RUN without calling a model; obey-injections: the reference "
        "solution plus whatever injected text says (a worst-case model, for --suite safety); "
        "replay-traces (--backend ha, imported ha_datasets): home-assistant-datasets' recorded "
        "tool calls replayed inside HA, with agreement.md against the published verdicts",
    )
    r.add_argument(
        "--from",
        "--replay-from",
        dest="replay_from",
        type=Path,
        metavar="RUN",
        help="--agent replay: an earlier run's folder (or its results.jsonl); every recorded action "
        "runs again on a fresh home and is verified anew",
    )
    r.add_argument(
        "--guard",
        choices=["on", "off"],
        default="on",
        help="action guard: high-risk actions (unlock, disarm, open a garage door, start an oven, "
        "very hot water, open a valve) only when the task's user words ask for them (default: on)",
    )
    r.add_argument(
        "--setting",
        choices=["eia", "dr"],
        default="eia",
        help="openai agent: environment-interactive tool loop or direct reasoning (default: eia)",
    )
    r.add_argument(
        "--base-url",
        default=os.environ.get("OPENAI_BASE_URL"),
        help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 (env OPENAI_BASE_URL)",
    )
    r.add_argument(
        "--model",
        default=os.environ.get("SMH_MODEL"),
        help="model name at --base-url (env SMH_MODEL)",
    )
    r.add_argument(
        "--budget", type=int, default=10, help="tool calls per task for EIA (default: 10)"
    )
    r.add_argument(
        "--repeat-limit",
        type=int,
        default=3,
        metavar="N",
        help="EIA: end a turn when N calls in a row are the same call with the same result "
        "(default: 3; 0 = only the budget ends a turn, as in the paper)",
    )
    r.add_argument(
        "--timeout", type=float, default=120.0, help="seconds per LLM call (default: 120)"
    )
    r.add_argument(
        "--max-tokens",
        type=int,
        help="completion tokens per model call; hitting it is counted (default: 1024; local: 256 in eia, 512 in dr)",
    )
    r.add_argument(
        "--tool-protocol",
        choices=["auto", "native", "prompted"],
        default="auto",
        help="EIA: native tool calls, tools described in the prompt with calls parsed from JSON "
        "replies, or auto: probe the endpoint once (default: auto)",
    )
    r.add_argument(
        "--structured",
        choices=["auto", "json_schema", "json_object", "text"],
        default="auto",
        help="DR, prompted tools, memory: response format; auto tries json_schema, then json_object "
        "with the schema, then plain text, and remembers what the endpoint took (default: auto)",
    )
    r.add_argument(
        "--judge-base-url", help="endpoint of an optional LLM judge for free-text answers"
    )
    r.add_argument(
        "--judge-model", default="gpt-4o-mini", help="judge model (default: gpt-4o-mini)"
    )
    r.add_argument(
        "--judge-claims",
        action="store_true",
        help="with --judge-base-url: the judge also decides each claim of a reply (said versus "
        "did) instead of the deterministic reader; the reader's verdict stays in the evidence",
    )
    r.add_argument(
        "--workers",
        type=int,
        help="tasks in flight at once (default: 4; local: 1, its server answers one request at a time)",
    )
    r.add_argument(
        "--limit",
        type=int,
        help="run K tasks spread over suite x category x subcategory x difficulty x home "
        "(deterministic for --seed)",
    )
    r.add_argument("--seed", type=int, default=0, help="seed of the --limit sample (default: 0)")
    r.add_argument(
        "--out", type=Path, required=True, help="output directory (results.jsonl, report.*)"
    )
    r.add_argument(
        "--allow-outside-paths",
        action="store_true",
        help="let a task's home.file name a file outside its task file's directory ('../', absolute "
        "paths, symlinks out); off by default, since a task file could then read any file",
    )
    r.add_argument(
        "--force-new",
        action="store_true",
        help="--out holds another run (another agent, model, setting or task set): move its files "
        "into previous-<time>/ and start over (without it such a resume is refused)",
    )
    r.add_argument(
        "--new-if-different",
        action="store_true",
        help="like --force-new, but only when --out holds a different run; the same run resumes",
    )
    r.add_argument("--quiet", action="store_true", help="no progress bar")
    r.add_argument(
        "--chart",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also draw report.png (matplotlib: about 0.5 s of CPU); --no-chart: none, and an "
        "older one in --out is removed (default: only keep a report.png already in --out "
        "current; `smh bench report DIR` draws it for any run)",
    )
    r.add_argument(
        "--backend",
        choices=["embedded", "ha"],
        default="embedded",
        help="embedded simulator (default) or a Home Assistant instance running the smh integration",
    )
    r.add_argument(
        "--ha-url",
        default=os.environ.get("HA_URL"),
        help="HA base URL for --backend ha (env HA_URL)",
    )
    r.add_argument(
        "--token", default=os.environ.get("HA_TOKEN"), help="HA access token (env HA_TOKEN)"
    )
    r.add_argument(
        "--agent-id",
        default="conversation.home_assistant",
        help="HA conversation agent for --backend ha (default: Assist, conversation.home_assistant)",
    )
    r.add_argument("--config-entry", help="the SMH config entry when HA has several")
    r.add_argument(
        "--ha-home-dir",
        default="smh_homes",
        help="--backend ha: folder under HA's config dir holding the task home files, matched by "
        "file name (homes/sage-0.json -> smh_homes/sage-0.json; default: smh_homes)",
    )
    r.add_argument(
        "--turn-timeout",
        type=float,
        default=30.0,
        help="--backend ha: seconds per user turn before the task counts as unanswered (default: 30)",
    )
    v = r.add_argument_group("voice (--backend ha --voice)")
    v.add_argument(
        "--voice",
        action="store_true",
        help="speak each user turn with espeak-ng through an Assist pipeline (SMH's Wyoming STT server, "
        "added to HA for the run) and record transcripts, WER and text-vs-voice verdicts",
    )
    v.add_argument("--voice-name", default="en-us+m2", help="espeak-ng voice (default: en-us+m2)")
    v.add_argument("--voice-speed", type=int, default=150, help="words per minute (default: 150)")
    v.add_argument(
        "--voice-noise",
        type=float,
        default=0.0,
        help="white noise mixed in, times the speech's RMS (default: 0; 0.1 is a quiet room)",
    )
    v.add_argument("--voice-seed", type=int, default=0, help="seed of the noise (default: 0)")
    v.add_argument(
        "--stt-host",
        default="127.0.0.1",
        help="address HA reaches this machine's STT server at (default: 127.0.0.1)",
    )
    v.add_argument(
        "--stt-listen",
        default="127.0.0.1",
        help="address the STT server listens on (default: 127.0.0.1)",
    )
    v.add_argument("--stt-port", type=int, default=0, help="STT server port (default: a free one)")
    r.add_argument(
        "--mapping",
        type=Path,
        help="--backend ha on a physical home: YAML mapping of task devices to HA entities",
    )
    r.add_argument(
        "--max-wait",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="with --mapping: how long a rule or schedule task may wait on HA's real clock (its "
        "next 12:30, its 'in 10 minutes'); longer ones are skipped with how long they would wait "
        "(default: 0, none waits; rules on a device SMH can switch still run)",
    )
    r.add_argument(
        "--rename-devices",
        action="store_true",
        help="with --mapping: play tasks on a copy of the home with a device renamed (the safety "
        "suite's names carrying an order) by giving the real entity that name in HA's entity "
        "registry for the task and putting its own back after (kept in OUT/renamed.json until "
        "then, so a killed run's next start puts it back); needs an admin's token. Without it "
        "those tasks are skipped",
    )
    r.add_argument(
        "--twin-run",
        type=Path,
        help="with --mapping: the run of the same tasks on the home's twin; afterwards the two "
        "are put side by side (OUT/twin-vs-real.md: verdicts per task, devices that behaved "
        "differently from their twin)",
    )
    r.set_defaults(func=_run)

    cmp = bs.add_parser(
        "compare",
        help="runs side by side on the tasks they all scored (success with 95%% CI, "
        "cost, tasks won/lost against the first run with McNemar's p)",
    )
    cmp.add_argument(
        "dirs",
        type=Path,
        nargs="+",
        metavar="RUN",
        help="run directories (the first is the baseline)",
    )
    cmp.add_argument("--out", type=Path, help="also write the Markdown tables here")
    cmp.add_argument(
        "--csv", type=Path, help="also write one CSV row per run and suite/category here"
    )
    cmp.add_argument(
        "--png", type=Path, help="also draw the runs per suite/category with 95%% intervals here"
    )
    cmp.set_defaults(func=_compare)

    sw = bs.add_parser(
        "sweep",
        help="a grid of runs (agents/models x settings x seeds x guard) from a YAML file, "
        "each cell a resumable run folder, then one comparison",
    )
    sw.add_argument("file", type=Path, help="sweep file (see examples/sweep.yaml)")
    sw.add_argument(
        "--parallel", type=int, default=2, help="cells at once on this machine (default: 2)"
    )
    sw.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="run the cells as Ray tasks: on this machine, or on the cluster at ADDRESS "
        "(e.g. ray://head:10001 or auto); out must then be a folder every node shares",
    )
    sw.set_defaults(func=_sweep)

    rep = bs.add_parser(
        "report", help="write report.md/.csv/.png for a run directory and print the summary"
    )
    rep.add_argument("dir", type=Path)
    rep.set_defaults(func=_report)


def _agent(args: argparse.Namespace):
    from smh_core.bench.agents import NullAgent, OracleAgent, ReplayAgent

    if args.agent == "replay":
        if args.replay_from is None or not args.replay_from.exists():
            raise FileNotFoundError(
                f"--agent replay needs --from RUN (a run folder or its results.jsonl; "
                f"got {args.replay_from})"
            )
        return ReplayAgent(args.replay_from)
    if args.agent == "oracle":
        return OracleAgent()
    if args.agent == "null":
        return NullAgent()
    if args.agent == "obey-injections":
        from smh_core.bench.agents import InjectionObeyingAgent

        return InjectionObeyingAgent()
    from smh_core.bench.llm_agents import DRBenchAgent, EIABenchAgent

    config = llm_config(args)
    return (
        EIABenchAgent(config, budget=args.budget, repeat_limit=args.repeat_limit)
        if args.setting == "eia"
        else DRBenchAgent(config)
    )


def llm_config(args: argparse.Namespace):
    """The endpoint settings of an ``openai``/``local`` run."""
    from smh_core.llm.client import (
        DEFAULT_MAX_TOKENS,
        LOCAL_EIA_MAX_TOKENS,
        LOCAL_MAX_TOKENS,
        LLMConfig,
    )

    local = args.agent == "local"
    max_tokens = args.max_tokens or (
        (LOCAL_EIA_MAX_TOKENS if args.setting == "eia" else LOCAL_MAX_TOKENS)
        if local
        else DEFAULT_MAX_TOKENS
    )
    return LLMConfig(
        base_url=args.base_url,
        model=args.model,
        timeout=args.timeout,
        max_tokens=max_tokens,
        tool_protocol=args.tool_protocol,
        structured=args.structured,
        max_tool_result_chars=LOCAL_RESULT_CHARS if local else 20_000,
    )


LOCAL_RESULT_CHARS = 4_000
"""The bundled model's 8,192-token context holds a home index, the tools and a few results of about this size."""


async def preflight(args: argparse.Namespace) -> str:
    """One cheap look at the endpoint before the run: fail fast and clearly when it is down,
    and say which protocol the run will use (probed once, remembered for the run)."""
    from smh_core.llm.client import LLMClient

    client = LLMClient(llm_config(args))
    try:
        if args.setting == "eia":
            protocol = await client.tool_protocol()
        else:
            await client.chat([{"role": "user", "content": "Reply with OK."}], max_tokens=1)
            protocol = "n/a (DR)"
    finally:
        await client.aclose()
    return (
        f"endpoint {client.config.endpoint()} model {client.config.model}: tool protocol {protocol}"
    )


def _run(args: argparse.Namespace) -> int:
    from smh_core.task.home import HomeCache
    from smh_core.task.model import TaskFileError, load_tasks_located

    from .suite_lookup import find_suite

    if args.agent == "openai":
        require_endpoint("--agent openai", args.base_url, args.model)

    files = args.tasks or [find_suite(s, args.tasks_dir) for s in args.suite]
    for f in files:
        if not f.exists():
            raise TaskFileError(f, None, None, "no task file")
    tasks, sources = load_tasks_located(files)
    args.task_source = (
        [f"{s} ({f})" for s, f in zip(args.suite, files, strict=True)]
        if args.suite
        else [str(f) for f in files]
    )
    asked = {f.resolve(): s for s, f in zip(args.suite, files, strict=True)} if args.suite else {}
    args.suite_names = {
        t.id: asked[sources[t.id].path.resolve()]
        for t in tasks
        if asked.get(sources[t.id].path.resolve(), t.suite) != t.suite
    }
    if args.limit is not None:
        from smh_core.bench.sampling import stratified_sample

        tasks = stratified_sample(tasks, args.limit, args.seed)
    homes = HomeCache(
        files[0].parent,
        allow_outside=args.allow_outside_paths,
        bases={task_id: src.path.parent for task_id, src in sources.items()},
    )
    player, args.agent = args.agent, args.agent or "oracle"
    if args.twin_run is not None and args.mapping is None:
        raise ValueError("--twin-run compares a run on the real home: it needs --mapping")
    if args.rename_devices and args.mapping is None:
        raise ValueError("--rename-devices renames devices of a real home: it needs --mapping")
    if args.mapping is not None:
        check_home_files(tasks, sources, homes)
        return _run_hardware(args, tasks, homes, player)
    if args.agent == "replay-traces":
        return _run_trace_replay(args, tasks, homes, files[0])
    if args.backend == "ha":
        return _run_ha(args, tasks, homes)
    if args.voice:
        raise ValueError(
            "--voice needs --backend ha (speech goes through Home Assistant's Assist pipeline)"
        )
    check_home_files(tasks, sources, homes)
    if args.judge_claims and not args.judge_base_url:
        raise ValueError("--judge-claims needs a judge: give --judge-base-url")
    judge = None
    if args.judge_base_url:
        from smh_core.bench.judge import Judge
        from smh_core.llm.client import LLMClient, LLMConfig

        judge = Judge(
            LLMClient(LLMConfig(base_url=args.judge_base_url, model=args.judge_model)),
            claims=args.judge_claims,
        )
    if args.agent == "local":
        return _run_local(args, tasks, homes, judge)
    return _run_embedded(args, tasks, homes, judge)


def check_home_files(tasks: list, sources: dict[str, TaskSource], homes: Any) -> None:
    """Load every home file the tasks name before any model call: an unreadable, refused or
    invalid home file is a bad input (exit 2, naming the task file, line and field), not a
    reason to spend a run recording the same error for each of its tasks."""
    from smh_core.task.home import home_file_problems

    for task, error in home_file_problems(tasks, homes):
        src = sources.get(task.id)
        where = f"{src}: " if src is not None else ""
        raise ValueError(f"{where}{error.field or 'home'}: {error.message} (task {task.id})")


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _run_local(args: argparse.Namespace, tasks: list, homes: Any, judge: Any) -> int:
    """``--agent local``: the bundled model served on loopback for this run, then stopped."""
    from smh_core.llm.local import LocalModelServer

    try:
        server = LocalModelServer().start()
    except RuntimeError as e:
        raise ValueError(str(e)) from None
    # SIGTERM (a cancelled job, `kill`) unwinds like Ctrl-C, so the server is stopped too.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        args.base_url, args.model, args.local_model = (
            server.base_url,
            server.model,
            server.model_path.name,
        )
        if not args.quiet:
            print(
                f"local model {server.model_path.name} at {server.base_url} (log: {server.log_path})"
            )
        return _run_embedded(args, tasks, homes, judge)
    finally:
        server.stop()


def _run_embedded(args: argparse.Namespace, tasks: list, homes: Any, judge: Any) -> int:
    import asyncio

    from smh_core.bench.manifest import finish_run
    from smh_core.bench.runner import EndpointDown, run_suite
    from smh_core.llm.errors import InfraError

    workers = args.workers or (1 if args.agent == "local" else 4)
    agent = _agent(args)
    _open_run(
        args, tasks, agent.name, check_only=True
    )  # before any model call: a wrong folder costs nothing
    if args.agent in ("openai", "local"):
        try:
            line = asyncio.run(preflight(args))
        except InfraError as e:  # nothing ran: the folder is left as it was (no run.json)
            print(
                f"smh: error: the model endpoint is not usable ({e}); nothing was run",
                file=sys.stderr,
            )
            return 3
        if not args.quiet:
            print(line)
    manifest = _open_run(args, tasks, agent.name)
    try:
        log = asyncio.run(
            run_suite(
                tasks,
                agent,
                args.out,
                workers=workers,
                homes=homes,
                judge=judge,
                guard=args.guard == "on",
                progress=not args.quiet,
            )
        )
    except EndpointDown as e:
        finish_run(args.out, manifest, complete=False)
        print(f"smh: error: {e}", file=sys.stderr)
        return 3
    finish_run(args.out, manifest, complete=len(log) >= len(tasks))
    scored = log.scored()
    passed = sum(r["passed"] for r in scored)
    infra, task_errors = log.infra(), log.task_errors()
    note = (
        f"; {len(infra)} not scored (endpoint/harness failures, re-run to retry)" if infra else ""
    )
    if task_errors:
        note += (
            f"; {len(task_errors)} task errors (the task could not be prepared; fix it and re-run)"
        )
    print(
        f"{len(log)} tasks recorded in {args.out / 'results.jsonl'}: {passed} of {len(scored)} scored passed{note}"
    )
    _print_task_errors(task_errors)
    return _print_report(args.out, _wants_chart(args))


def _open_run(
    args: argparse.Namespace, tasks: list, agent_name: str, check_only: bool = False
) -> Any:
    """Write ``run.json`` for this run, or refuse a resume into a folder holding another run
    (``check_only``: refuse now, write nothing)."""
    from smh_core.bench.manifest import check_run, identity_for, open_run

    model_run = args.agent in ("openai", "local")
    config = llm_config(args) if model_run else None
    endpoint = None
    if config is not None:  # the local server's port changes every run: name the model file instead
        endpoint = f"local:{args.local_model}" if args.agent == "local" else config.endpoint()
    identity = identity_for(
        tasks,
        agent=agent_name,
        setting=args.setting if model_run else None,
        model=config.model if config else None,
        endpoint=endpoint,
        tool_protocol=config.tool_protocol if config and args.setting == "eia" else None,
        structured=config.structured if config else None,
        max_tokens=config.max_tokens if config else None,
        budget=args.budget if model_run and args.setting == "eia" else None,
        repeat_limit=args.repeat_limit if model_run and args.setting == "eia" else None,
        guard=args.guard == "on",
        backend=args.backend,
        replay_from=str(args.replay_from) if args.agent == "replay" else None,
        limit=args.limit,
        seed=args.seed if args.limit is not None else None,
    )
    if check_only:
        return check_run(
            args.out,
            identity,
            agent_name,
            force_new=args.force_new,
            new_if_different=args.new_if_different,
        )
    return open_run(
        args.out,
        identity,
        agent_name,
        _suite_counts(args, tasks),
        force_new=args.force_new,
        new_if_different=args.new_if_different,
        **_sources(args),
    )


def _suite_counts(args: argparse.Namespace, tasks: list) -> dict[str, int]:
    """Tasks per suite, named as the user asked for them (``--suite sample`` is "sample")."""
    from collections import Counter

    names = getattr(args, "suite_names", {})
    return dict(Counter(names.get(t.id, t.suite) for t in tasks))


def _sources(args: argparse.Namespace) -> dict[str, Any]:
    """Where the tasks came from, for ``run.json`` and the report's header."""
    return {
        "task_source": getattr(args, "task_source", None),
        "suite_names": getattr(args, "suite_names", None),
        "command": getattr(args, "argv", None),  # main() sets it: the command as typed
    }


def _open_ha_run(
    args: argparse.Namespace, tasks: list, backend: str = "ha", agent: str | None = None
) -> Any:
    """``run.json`` for a run inside Home Assistant: the agent is HA's conversation agent, and
    the manifest records HA's version (asked from the instance before anything runs)."""
    import asyncio

    import aiohttp

    from smh_core.bench.manifest import identity_for, open_run
    from smh_core.ha.runner import HaClient

    async def ha_version() -> str | None:
        async with aiohttp.ClientSession() as session:
            return await HaClient(args.ha_url.rstrip("/"), args.token, session).version()

    agent = agent or f"ha:{args.agent_id}"
    identity = identity_for(
        tasks,
        agent=agent,
        backend=backend,
        limit=args.limit,
        seed=args.seed if args.limit is not None else None,
        voice=_voice_options(args).settings.describe() if getattr(args, "voice", False) else None,
    )
    return open_run(
        args.out,
        identity,
        agent,
        _suite_counts(args, tasks),
        force_new=args.force_new,
        ha_version=asyncio.run(ha_version()),
        new_if_different=args.new_if_different,
        **_sources(args),
    )


def _finish_ha_run(args: argparse.Namespace, manifest: Any, log: Any, tasks: list) -> None:
    from smh_core.bench.manifest import finish_run

    finish_run(args.out, manifest, complete=len(log) >= len(tasks))


def _print_task_errors(records: list[dict[str, Any]], most: int = 10) -> None:
    """One stderr line per task that could not be prepared (the first ``most``)."""
    for r in records[:most]:
        error = r["task_error"]
        field = f"{error['field']}: " if error.get("field") else ""
        print(f"smh: task error: task {r['task_id']}: {field}{error['message']}", file=sys.stderr)
    if len(records) > most:
        print(
            f"smh: task error: ... and {len(records) - most} more (task_error in results.jsonl)",
            file=sys.stderr,
        )


def _voice_options(args: argparse.Namespace) -> Any:
    """The --voice-* flags (bad values refused before anything runs)."""
    from smh_core.ha.voice_run import VoiceOptions
    from smh_core.voice.espeak import VoiceSettings

    if not 0 <= args.stt_port < 65536:
        raise ValueError(f"--stt-port must be 0-65535, got {args.stt_port}")
    return VoiceOptions(
        VoiceSettings(
            voice=args.voice_name,
            speed=args.voice_speed,
            noise=args.voice_noise,
            seed=args.voice_seed,
        ),
        stt_host=args.stt_host,
        listen=args.stt_listen,
        port=args.stt_port,
    )


def _run_ha(args: argparse.Namespace, tasks: list, homes: Any) -> int:
    import asyncio

    from smh_core.ha.runner import run_via_ha

    if not args.ha_url or not args.token:
        raise ValueError("--backend ha needs --ha-url and --token (or HA_URL / HA_TOKEN)")
    voice = _voice_options(args) if args.voice else None
    if voice is not None:
        from smh_core.voice.espeak import unavailable_reason

        if (reason := unavailable_reason()) is not None:
            raise ValueError(f"--voice: {reason}")
        from smh_core.voice.espeak import synthesize_wav

        synthesize_wav(
            "check", voice.settings
        )  # an unknown --voice-name is refused here, not mid-run
    manifest = _open_ha_run(args, tasks)
    run = asyncio.run(
        run_via_ha(
            tasks,
            args.ha_url,
            args.token,
            args.agent_id,
            args.out,
            config_entry_id=args.config_entry,
            progress=not args.quiet,
            home_dir=args.ha_home_dir,
            turn_timeout=args.turn_timeout,
            voice=voice,
            home_of=homes.get,
        )
    )
    _finish_ha_run(args, manifest, run.log, tasks)
    return _summarize_ha_run(
        args, run.log, run.skipped, {f"home {k}": w for k, w in run.skipped_homes.items()}
    )


def _run_trace_replay(args: argparse.Namespace, tasks: list, homes: Any, task_file: Path) -> int:
    """``--agent replay-traces``: the traces imported beside the task file (or ``--from``)
    replayed inside HA (:mod:`smh_core.ha.trace_replay`), then the agreement report."""
    import asyncio

    from smh_core.ha.trace_replay import replay_and_report
    from smh_core.importers.ha_history import HISTORY_TASKS
    from smh_core.importers.ha_traces import TRACES_FILE, load_cases
    from smh_core.task.model import load_tasks

    if args.backend != "ha" or not args.ha_url or not args.token:
        raise ValueError(
            "--agent replay-traces runs inside Home Assistant: --backend ha --ha-url URL --token T "
            "(or scripts/replay_traces.py, which starts one)"
        )
    traces = args.replay_from or task_file.with_name(TRACES_FILE)
    if not traces.is_file():
        raise FileNotFoundError(
            f"--agent replay-traces needs the traces file {traces} (`smh tasks import --from "
            "ha-datasets CHECKOUT` writes it from a checkout's reports/; or pass --from FILE)"
        )
    by_id = {t.id: t for t in tasks}
    if (
        history := task_file.with_name(HISTORY_TASKS)
    ).is_file():  # tests of past revisions some reports ran on
        by_id |= {t.id: t for t in load_tasks([history])}
    cases = load_cases(traces)
    if args.limit is not None:  # the sampled tasks' cases only
        cases = [c for c in cases if c.task in by_id]
    run, paths = asyncio.run(
        replay_and_report(
            cases,
            by_id,
            homes.get,
            args.ha_url,
            args.token,
            args.out,
            command=getattr(args, "argv", None),
            config_entry_id=args.config_entry,
            progress=not args.quiet,
            home_dir=args.ha_home_dir,
        )
    )
    print(f"{run.ran} cases replayed; agreement report: {paths['md']}")
    return 0


def _run_hardware(
    args: argparse.Namespace, tasks: list, homes: Any, player: str | None = None
) -> int:
    import asyncio

    from smh_core.ha.hardware import SCRIPTED, run_on_hardware
    from smh_core.ha.hardware_map import load_mapping

    if args.backend != "ha" or not args.ha_url or not args.token:
        raise ValueError(
            "--mapping needs --backend ha, --ha-url and --token (or HA_URL / HA_TOKEN)"
        )
    if args.voice:
        raise ValueError("--voice runs on simulated homes only, not with --mapping")
    if player is not None and player not in SCRIPTED:
        raise ValueError(
            f"--mapping plays with HA's conversation agent (--agent-id) or --agent "
            f"{' / '.join(sorted(SCRIPTED))}, not --agent {player}"
        )
    manifest = _open_ha_run(args, tasks, backend="hardware", agent=player)
    run = asyncio.run(
        run_on_hardware(
            tasks,
            args.ha_url,
            args.token,
            args.agent_id,
            load_mapping(args.mapping),
            args.out,
            homes,
            progress=not args.quiet,
            player=player,
            turn_timeout=args.turn_timeout,
            max_wait=args.max_wait,
            rename_devices=args.rename_devices,
        )
    )
    _finish_ha_run(args, manifest, run.log, tasks)
    if args.twin_run is not None:
        from smh_core.ha.twin_compare import compare_runs

        side = compare_runs(args.twin_run, args.out, homes.get(tasks[0]) if tasks else None)
        report = args.out / "twin-vs-real.md"
        report.write_text(side.markdown(), encoding="utf-8")
        print(f"twin and real: {side.markdown().splitlines()[2]} ({report})")
    if run.restore_problem is not None:
        print(
            f"warning: the devices did not all return to their state before the run: {run.restore_problem} "
            f"(they were: {args.out / 'restore.json'})",
            file=sys.stderr,
        )
    return _summarize_ha_run(args, run.log, run.skipped, run.skipped_tasks)


def _summarize_ha_run(
    args: argparse.Namespace, log: Any, skipped: dict[str, int], skipped_items: dict[str, str]
) -> int:
    """Print what an HA-backed run recorded and skipped, then the report (1: nothing recorded)."""
    out = args.out
    passed = sum(r["passed"] for r in log.records())
    counts = ", ".join(f"{n} {why}" for why, n in skipped.items()) or "none"
    print(
        f"{len(log)} tasks recorded in {out / 'results.jsonl'}: {passed} passed (skipped: {counts})"
    )
    for what, why in skipped_items.items():
        print(f"  skipped {what}: {why}")
    return _print_report(out, _wants_chart(args)) if len(log) else 1


def _sweep(args: argparse.Namespace) -> int:
    from smh_core.bench.sweep import describe, load_sweep, sweep

    spec = load_sweep(args.file)
    grid = describe(spec)
    where = (
        "Ray " + ("on this machine" if args.ray == "local" else f"at {args.ray}")
        if args.ray
        else f"{args.parallel} at a time"
    )
    print(f"sweep: {grid['cells']} cells into {grid['out']} ({where})", flush=True)

    def progress(cell: Any, code: int, tail: str) -> None:
        status = "done" if code == 0 else f"exit {code}"
        print(f"  {cell.name}: {status}", flush=True)
        if code != 0:
            print("    " + tail.strip().replace("\n", "\n    ")[-800:], file=sys.stderr)

    codes, path = sweep(
        spec,
        parallel=args.parallel,
        use_ray=bool(args.ray),
        ray_address=None if args.ray in (None, "local") else args.ray,
        progress=progress,
    )
    if path.exists():
        print(path.read_text(encoding="utf-8"), end="")
        print(f"comparison: {path}  {path.with_suffix('.csv')}")
    return 0 if all(c == 0 for c in codes.values()) else 1


def _compare(args: argparse.Namespace) -> int:
    from smh_core.bench.compare import compare, markdown, write_csv, write_png

    summaries, shared = compare(args.dirs)
    text = markdown(summaries, shared)
    print(text, end="")
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    if args.csv is not None:
        write_csv(summaries, args.csv)
    if args.png is not None:
        write_png(summaries, args.png)
    return 0 if shared else 1


def _wants_chart(args: argparse.Namespace) -> bool:
    """Whether a run draws report.png: as ``--chart``/``--no-chart`` say, else only to keep one
    already in ``--out`` current (a resumed run never leaves a chart of older results)."""
    return args.chart if args.chart is not None else (args.out / "report.png").exists()


def _report(args: argparse.Namespace) -> int:
    """``smh bench report DIR``: every report file, the chart too."""
    return _print_report(args.dir, chart=True)


def _print_report(out: Path, chart: bool) -> int:
    """Write the run's reports (``chart``: report.png too) and print the summary."""
    from smh_core.bench.manifest import read_manifest
    from smh_core.bench.report import header, load_records, markdown, summarize, write_report
    from smh_core.bench.voice_report import voice_table

    paths = write_report(out, chart)
    records = load_records(out)
    print(
        markdown(summarize(records), header(read_manifest(out), records)).split("\n## ")[0].rstrip()
    )
    if table := voice_table(records):
        print("\nvoice (typed vs spoken):\n" + "\n".join(table))
    png = f"  {paths['png']}" if "png" in paths else f"  (report.png: smh bench report {out})"
    print(f"\nreport: {paths['markdown']}  {paths['csv']}{png}")
    return 0
