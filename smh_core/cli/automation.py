"""``smh automation synthesize``: natural language -> a validated rule for a home (and, with
``--save``, the home file with the rule stored, so the simulator and the HA integration run it)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from .endpoint import require_endpoint


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("automation", help="synthesize automation rules from natural language")
    aus = p.add_subparsers(dest="automation_command", metavar="ACTION", required=True)
    s = aus.add_parser(
        "synthesize", help="draft, validate and correct a rule with a model; prints the rule JSON"
    )
    s.add_argument(
        "request",
        help='what the rule should do, e.g. "when the TV turns off, turn on the bed light"',
    )
    s.add_argument(
        "--home", type=Path, required=True, help="HomeEnv JSON file the rule is grounded in"
    )
    s.add_argument(
        "--base-url",
        default=os.environ.get("OPENAI_BASE_URL"),
        help="OpenAI-compatible endpoint (env OPENAI_BASE_URL)",
    )
    s.add_argument(
        "--model",
        default=os.environ.get("SMH_MODEL"),
        help="model name at --base-url (env SMH_MODEL)",
    )
    s.add_argument(
        "--local",
        action="store_true",
        help="use the bundled local model, served on loopback for this command (smh model info)",
    )
    s.add_argument("--tries", type=int, default=3, help="drafts before giving up (default: 3)")
    s.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        help="seconds per model call (default: 120; a busy CPU serving --local may need more)",
    )
    s.add_argument(
        "--max-tokens", type=int, help="completion tokens per draft (default: 1024, --local: 512)"
    )
    s.add_argument("--save", type=Path, help="write the home with the rule stored to this file")
    s.add_argument(
        "--language",
        default="en",
        help="the language of the request (de, es, fr, zh; default en): the action guard asks "
        "its question in it and reads the answer in it",
    )
    s.set_defaults(func=_synthesize)


HELD = 4
"""Exit status of a rule held for a consent the user did not give (not printed, not stored)."""


def _consented(guard: Any, backend: Any, rule: Any, question: str) -> bool:
    """Whether the user, asked ``question`` on a terminal, confirms every high-risk action of
    ``rule`` the request did not ask for; read by the action guard as an agent's confirmation
    is (only a plain yes, fail closed). Without a terminal nobody can answer: not confirmed."""
    from smh_core.agent.safety import GuardedBackend

    guarded = GuardedBackend(backend, guard)
    actions = [a.model_dump(mode="json") for a in rule.actions]
    for _ in actions:  # one question per high-risk action at most
        if not sys.stdin.isatty():
            return False
        print(question, file=sys.stderr)
        try:
            reply = input("> ")
        except EOFError:
            return False
        if not guard.answer(reply):
            return False
        refusal = guarded.first_refusal(actions, "create_automation")
        if refusal is None:
            return True
        question = refusal["error"].get("prompt") or refusal["error"]["message"]
    return False


def _synthesize(args: argparse.Namespace) -> int:
    import asyncio

    from smh_core.agent.safety import ActionGuard
    from smh_core.agent.synthesizer import AutomationSynthesizer
    from smh_core.backends.embedded import EmbeddedBackend
    from smh_core.homeenv.engine import HomeEngine, dump_home
    from smh_core.llm.client import DEFAULT_MAX_TOKENS, LOCAL_MAX_TOKENS, LLMClient, LLMConfig
    from smh_core.llm.errors import InfraError
    from smh_core.sim.simulator import Simulator

    if not args.local:
        require_endpoint("smh automation synthesize", args.base_url, args.model)
    if not args.home.exists():
        raise FileNotFoundError(f"no home file {args.home}")
    engine = HomeEngine.from_file(args.home)
    sim = Simulator(engine)
    backend = EmbeddedBackend(engine, sim=sim)
    guard = ActionGuard([args.request], language=args.language)

    async def synthesize(base_url: str | None, model: str) -> Any:
        llm = LLMClient(
            LLMConfig(
                base_url=base_url,
                model=model,
                timeout=args.timeout,
                max_tokens=args.max_tokens
                or (LOCAL_MAX_TOKENS if args.local else DEFAULT_MAX_TOKENS),
            )
        )
        try:
            # a rule with a high-risk action the request does not ask for comes back with "consent"
            return await AutomationSynthesizer(llm, max_tries=args.tries).synthesize(
                args.request, backend, guard=guard
            )
        finally:
            await llm.aclose()

    try:
        if args.local:
            from smh_core.llm.local import LocalModelServer

            try:
                server = LocalModelServer().start()
            except RuntimeError as e:
                raise ValueError(str(e)) from None
            try:
                result = asyncio.run(synthesize(server.base_url, server.model))
            finally:
                server.stop()
        else:
            result = asyncio.run(synthesize(args.base_url, args.model))
    except InfraError as e:
        print(f"smh: error: the model endpoint failed ({e}); nothing was stored", file=sys.stderr)
        return 3
    for i, attempt in enumerate(result.attempts, 1):
        for error in attempt.errors:
            print(f"try {i}: {error}", file=sys.stderr)
    if result.rule is None:
        print(f"smh: no valid rule after {len(result.attempts)} tries", file=sys.stderr)
        return 1
    if result.consent is not None:  # a high-risk action the request did not ask for
        error = result.consent["error"]
        if not _consented(guard, backend, result.rule, error.get("prompt") or error["message"]):
            print(
                "smh: the rule was not stored or printed: it makes a high-risk change the "
                f"request does not ask for ({error['message']}); answer the question with a "
                "plain yes in a terminal to keep it",
                file=sys.stderr,
            )
            return HELD
    print(
        json.dumps(
            result.rule.model_dump(mode="json", exclude_none=True), indent=2, ensure_ascii=False
        )
    )
    print(
        f"valid after {len(result.attempts)} tries; {result.usage.total_tokens} tokens",
        file=sys.stderr,
    )
    if args.save is not None:
        stored = backend.create_automation(
            result.rule.model_dump(mode="json", by_alias=True, exclude_none=True)
        )
        if not stored.get("ok"):
            print(f"smh: the simulator refused the rule: {stored}", file=sys.stderr)
            return 1
        args.save.write_text(dump_home(sim.to_home()), encoding="utf-8")
        print(f"wrote {args.save}", file=sys.stderr)
    return 0
