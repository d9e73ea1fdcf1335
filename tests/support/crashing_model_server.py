"""A stand-in for llama-cpp-python's server as it failed on AVX-512/AMX Xeons: it lists its
models (so a health check that only asks for them passes) and dies of SIGSEGV on the first chat
completion. With ``--healthy`` it answers completions instead (five tokens each).

Run as a program: ``python -m tests.support.crashing_model_server --port P [--healthy]``, or
through :class:`StandIn`, the real :class:`LocalModelServer` process handling around it (from the
repository's root: the program runs as a module).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from smh_core.llm.local import LocalModelServer


class StandIn(LocalModelServer):
    """LocalModelServer running this program instead of llama.cpp (``model`` is any file: the
    caller makes the engine count as installed)."""

    def __init__(self, tmp: Path, healthy: bool = False) -> None:
        self.healthy = healthy
        super().__init__(model=tmp / "model.gguf", log_path=tmp / "server.log", startup_timeout=30)

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "tests.support.crashing_model_server",
            "--port",
            str(self.port),
            *(["--healthy"] if self.healthy else []),
        ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--healthy", action="store_true")
    args = parser.parse_args()

    class Handler(BaseHTTPRequestHandler):
        def _json(self, body: dict) -> None:
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            self._json({"object": "list", "data": [{"id": "stand-in", "object": "model"}]})

        def do_POST(self) -> None:  # noqa: N802
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if not args.healthy:
                print("crashing on the first real prompt", flush=True)
                os.kill(os.getpid(), signal.SIGSEGV)
                time.sleep(30)  # the signal may land a moment later: never answer meanwhile
                return
            self._json(
                {
                    "id": "x",
                    "object": "chat.completion",
                    "created": 0,
                    "model": "stand-in",
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": "stop",
                            "message": {"role": "assistant", "content": "one two three four five"},
                        }
                    ],
                    "usage": {"prompt_tokens": 9, "completion_tokens": 5, "total_tokens": 14},
                }
            )

        def log_message(self, *_: object) -> None:
            pass

    ThreadingHTTPServer(("127.0.0.1", args.port), Handler).serve_forever()


if __name__ == "__main__":
    main()
