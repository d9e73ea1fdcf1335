"""The embedded verifier's verdict on a final state read from Home Assistant.

End-to-end tests score tasks inside a real ``hass`` (``smh.verify``) and check the verdict
equals what the embedded runner's verifier says about the same final state and reply.
"""

from __future__ import annotations

from pathlib import Path

from smh_core.bench.claims import said_versus_did
from smh_core.bench.verifier import Outcome, verify
from smh_core.bench.world import not_the_agents
from smh_core.task.home import HomeCache, prepare_engine
from smh_core.task.model import Task

TASKS = Path(__file__).resolve().parents[2] / "tasks"


async def embedded_verdict(
    task: Task, final_state: dict, response: str, root: Path = TASKS
) -> dict:
    """Apply HA's final device values to the task's embedded initial state, then verify
    (``root``: the folder task home files are relative to)."""
    engine = prepare_engine(task, HomeCache(root))
    before = engine.snapshot()
    for did, values in final_state.items():
        if did in engine.device_ids():
            changed = {k: v for k, v in values.items() if engine.value(did, k) != v}
            if changed:
                assert engine.set_values(did, changed).ok
    after, outcome = engine.snapshot(), Outcome(response=response)
    verdict = (await verify(task, before, after, outcome)).to_dict()
    claims = said_versus_did(
        outcome,
        engine,
        not_the_agents(engine),
        before,
        after,
        traced=False,  # Assist, HA's own agent: its calls are not known
    )
    return {**verdict, "false_claims": sum(c.truth == "false" for c in claims)}


async def embedded_verdicts(
    tasks: list[Task], records: list[dict], root: Path = TASKS
) -> dict[str, dict]:
    """The embedded verdict of every HA record, by task id."""
    by_id = {t.id: t for t in tasks}
    return {
        r["task_id"]: await embedded_verdict(
            by_id[r["task_id"]], r["final_state"], r["response"], root
        )
        for r in records
    }
