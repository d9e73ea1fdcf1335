"""``smh model serve|info``: the bundled local model as an OpenAI-compatible endpoint."""

from __future__ import annotations

import argparse
import signal
import time
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("model", help="the bundled local model (no key, no download): serve it, check it")
    ms = p.add_subparsers(dest="model_command", metavar="ACTION", required=True)
    s = ms.add_parser("serve", help="serve a GGUF model on 127.0.0.1 through llama-cpp-python's "
                                    "OpenAI-compatible server (default: SmolLM2-135M-Instruct)")
    s.add_argument("--model", type=Path, help="GGUF file (default: the bundled SmolLM2-135M-Instruct Q4_1)")
    s.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (default: 8000)")
    s.add_argument("--n-ctx", type=int, default=8192, help="context window in tokens (default: 8192)")
    s.add_argument("--threads", type=int, help="CPU threads (default: every core)")
    s.set_defaults(func=_serve)
    i = ms.add_parser("info", help="is the local model installed, and where")
    i.set_defaults(func=_info)


def _serve(args: argparse.Namespace) -> int:
    from smh_core.llm.local import LocalModelServer

    try:
        server = LocalModelServer(args.model, port=args.port, n_ctx=args.n_ctx, threads=args.threads)
        server.start()
    except RuntimeError as e:
        raise ValueError(str(e)) from None
    print(f"serving {server.model_path.name} as model {server.model!r} at {server.base_url} "
          f"(log: {server.log_path}); Ctrl-C to stop", flush=True)
    print(f"  try: smh bench run --suite sample --agent openai --base-url {server.base_url} "
          f"--model {server.model} --out runs/local", flush=True)
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
    if server.process is not None and server.process.returncode not in (0, -15, None) and not stopping:
        print(server.log_tail())
        return 1
    return 0


def _info(args: argparse.Namespace) -> int:
    from smh_core.llm.local import cache_dir, default_model_path, unavailable_reason

    reason = unavailable_reason()
    print(f"model file: {default_model_path() or '(none)'}")
    print(f"cache: {cache_dir()}")
    print("status: ready (smh model serve; smh bench run --agent local ...)" if reason is None
          else f"status: not installed: {reason}")
    return 0 if reason is None else 1
