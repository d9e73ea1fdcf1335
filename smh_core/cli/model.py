"""``smh model serve|info``: the bundled local model as an OpenAI-compatible endpoint."""

from __future__ import annotations

import argparse
import signal
import time
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "model", help="the bundled local model (no key, no download): serve it, check it"
    )
    ms = p.add_subparsers(dest="model_command", metavar="ACTION", required=True)
    s = ms.add_parser(
        "serve",
        help="serve a GGUF model on 127.0.0.1 through llama-cpp-python's "
        "OpenAI-compatible server (default: SmolLM2-135M-Instruct)",
    )
    s.add_argument(
        "--model", type=Path, help="GGUF file (default: the bundled SmolLM2-135M-Instruct Q4_1)"
    )
    s.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (default: 8000)")
    s.add_argument(
        "--n-ctx", type=int, default=8192, help="context window in tokens (default: 8192)"
    )
    s.add_argument("--threads", type=int, help="CPU threads (default: every core)")
    s.set_defaults(func=_serve)
    i = ms.add_parser(
        "info", help="is the local model installed and checked on this machine, and where"
    )
    i.set_defaults(func=_info)
    c = ms.add_parser(
        "check",
        help="start the local model and get one real multi-token chat completion "
        "from it; 'ready' only after this passed on this machine",
    )
    c.add_argument(
        "--model", type=Path, help="GGUF file (default: the bundled SmolLM2-135M-Instruct Q4_1)"
    )
    c.set_defaults(func=_check)


def _serve(args: argparse.Namespace) -> int:
    from smh_core.llm.local import LocalModelServer

    try:
        server = LocalModelServer(
            args.model, port=args.port, n_ctx=args.n_ctx, threads=args.threads
        )
        server.start()
    except RuntimeError as e:
        raise ValueError(str(e)) from None
    print(
        f"serving {server.model_path.name} as model {server.model!r} at {server.base_url} "
        f"(log: {server.log_path}); Ctrl-C to stop",
        flush=True,
    )
    print(
        f"  try: smh bench run --suite sample --agent openai --base-url {server.base_url} "
        f"--model {server.model} --out runs/local",
        flush=True,
    )
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    try:
        while not stopping and server.process is not None and server.process.poll() is None:
            time.sleep(0.2)
    finally:
        server.stop()
    if (
        server.process is not None
        and server.process.returncode not in (0, -15, None)
        and not stopping
    ):
        print(server.log_tail())
        return 1
    return 0


def _info(args: argparse.Namespace) -> int:
    from smh_core.llm.local import cache_dir, check_status, default_model_path

    ready, status = check_status()
    print(f"model file: {default_model_path() or '(none)'}")
    print(f"cache: {cache_dir()}")
    print(
        f"status: {status}"
        + (" (smh model serve; smh bench run --agent local ...)" if ready else "")
    )
    return 0 if ready else 1


def _check(args: argparse.Namespace) -> int:
    """Start the server, ask for a real completion, stop it; record the pass for this machine
    (``smh model info``). A server that dies is named with its signal and log."""
    from smh_core.llm.local import LocalModelServer, record_check

    try:
        server = LocalModelServer(args.model)
    except RuntimeError as e:
        raise ValueError(str(e)) from None
    try:
        server.start()
        result = server.check()
        result.update(server.speed())
    except RuntimeError as e:
        print(f"local model check FAILED: {e}", flush=True)
        return 1
    finally:
        server.stop()
    path = record_check(result)
    print(
        f"local model check passed: {result['completion_tokens']} tokens in {result['seconds']} s "
        f"({server.model_path.name}; recorded in {path})"
    )
    print(
        f"speed on this machine now: prompt {result['prompt_tokens_per_s']} tokens/s "
        f"({int(result['prompt_tokens'])} tokens read), generation "
        f"{result['generation_tokens_per_s']} tokens/s ({int(result['generated_tokens'])} "
        f"tokens written), {server.threads} threads"
    )
    return 0
