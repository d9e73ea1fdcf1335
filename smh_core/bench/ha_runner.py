"""Run benchmark tasks inside a Home Assistant instance, through its public HTTP API.

Per task: ``smh.load_task`` puts the entry's home in the task's initial state, each user turn
goes to a conversation agent through ``/api/conversation/process`` (HA's built-in Assist,
or any agent: OpenAI, Ollama, SMH's own), and ``smh.verify`` scores the result with the same
verifier the embedded runner uses. Results go to the same append-only log, so ``smh bench
report`` and resuming work as for embedded runs.

Only tasks the HA entry can host run: the entry simulates one home (level + seed or file),
and goals that need simulated time are judged by the embedded runner (they are skipped here
and counted).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from tqdm import tqdm

from .results import ResultsLog
from .task import Task

HA_GOALS = ("execute", "query", "clarify", "infeasible")
"""Goal kinds HA-backed runs judge (timed and automation goals need the simulator's futures)."""


class HaError(RuntimeError):
    """An HA API call failed; the message carries HA's own explanation."""

    def __init__(self, path: str, status: int, text: str) -> None:
        super().__init__(f"{path}: HTTP {status}: {text}")
        self.status, self.text = status, text


@dataclass
class HaClient:
    url: str
    token: str
    session: aiohttp.ClientSession

    @property
    def _headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    async def _post(self, path: str, body: dict[str, Any]) -> Any:
        async with self.session.post(f"{self.url}{path}", json=body, headers=self._headers) as r:
            if r.status >= 400:
                raise HaError(path, r.status, await r.text())
            return await r.json()

    async def service(self, domain: str, name: str, data: dict[str, Any]) -> dict[str, Any]:
        """Call a service and return its response."""
        out = await self._post(f"/api/services/{domain}/{name}?return_response", data)
        return out.get("service_response", {}) if isinstance(out, dict) else {}

    async def converse(self, text: str, agent_id: str, conversation_id: str | None) -> tuple[str, str | None]:
        body: dict[str, Any] = {"text": text, "language": "en", "agent_id": agent_id}
        if conversation_id:
            body["conversation_id"] = conversation_id
        out = await self._post("/api/conversation/process", body)
        speech = out.get("response", {}).get("speech", {}).get("plain", {}).get("speech", "")
        return speech, out.get("conversation_id")


@dataclass
class HaRun:
    log: ResultsLog
    skipped: dict[str, int] = field(default_factory=dict)


async def run_via_ha(tasks: Sequence[Task], url: str, token: str, agent_id: str, out_dir: Path,
                     config_entry_id: str | None = None, progress: bool = True) -> HaRun:
    out_dir.mkdir(parents=True, exist_ok=True)
    log = ResultsLog(out_dir / "results.jsonl")
    run = HaRun(log)
    entry = {"config_entry_id": config_entry_id} if config_entry_id else {}
    todo = [t for t in tasks if not log.done(t.id)]
    async with aiohttp.ClientSession() as session:
        client = HaClient(url.rstrip("/"), token, session)
        for task in tqdm(todo, disable=not progress, unit="task", desc=f"ha:{agent_id}"):
            if task.goal.kind not in HA_GOALS:
                run.skipped["needs simulated time"] = run.skipped.get("needs simulated time", 0) + 1
                continue
            try:
                await client.service("smh", "load_task", {**entry, "task": task.model_dump(mode="json")})
            except HaError as e:
                if "other_home" in e.text or "runs in home" in e.text:
                    run.skipped["other home"] = run.skipped.get("other home", 0) + 1
                    continue
                raise
            response, conversation, speeches = "", None, []
            for turn in task.turns:
                response, conversation = await client.converse(turn.text, agent_id, conversation)
                speeches.append(response)
            verdict = await client.service("smh", "verify", {**entry, "response": response})
            state = await client.service("smh", "snapshot", entry)
            log.append({
                "task_id": task.id, "suite": task.suite, "category": task.category,
                "subcategory": task.subcategory, "difficulty": task.difficulty, "agent": f"ha:{agent_id}",
                "backend": "ha", "passed": bool(verdict.get("passed")),
                "verdict": {k: verdict.get(k) for k in ("passed", "reason", "error_class", "decided_by", "details")},
                "response": response, "speeches": speeches, "final_state": state.get("devices", {}),
                "usage": {},
            })
    return run
