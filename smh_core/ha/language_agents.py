"""Which Home Assistant and which conversation agent ``make bench-languages`` runs, and what of
their failures is ours rather than the agent's (issue 41, item 2).

The per-language benchmark (``scripts/bench_ha_languages.py``) runs HA's built-in Assist by
default; ``--agent smh`` runs SMH's own agent inside the same HA instead (the SMH entry's
agent section pointed at an OpenAI-compatible endpoint, the bundled local model by default),
and ``--ha newest`` the newest HA instead of 2026.2.3. Each pair gets its own output folder:
results resume per folder, and an HA's config dir cannot go back to an older HA.

SMH's agent answers a model that failed or could not be reached with an error reply (never an
HTTP 500; ``custom_components/smh/conversation.py``); on a shared 2-core machine a small local
model may also miss the turn timeout. Neither says anything about the model's understanding of
the language, so both are infra failures (not scored), each with its reason, never failures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

AGENTS = ("assist", "smh")
"""``assist``: HA's built-in agent; ``smh``: SMH's agent (the SMH entry's conversation entity)."""

ASSIST_AGENT = "conversation.home_assistant"
"""HA's built-in conversation agent."""

AGENT_LABELS = {"assist": "HA Assist", "smh": "SMH agent"}
"""How a table names the agent."""

MODEL_FAILED = "The language model could not be reached or failed"
"""How SMH's conversation agent begins its reply when the model endpoint failed (its
``InfraError`` handler in ``custom_components/smh/conversation.py``)."""

BENCH_HOME = {"source": "generated", "level": "simple", "seed": 0, "time_scale": 0.0}
"""The SMH entry's home as the benchmark creates it (the options form asks for it again when
the agent section is set; each language's home replaces it before any task)."""


def default_out(runs: Path, ha: str, agent: str) -> Path:
    """The output folder for ``ha`` (oldest or newest) and ``agent``: ``runs/bench-languages``
    for HA 2026.2.3's Assist (as documented before), ``bench-languages-<ha>[-<agent>]`` else."""
    if ha == "oldest" and agent == "assist":
        return runs / "bench-languages"
    return runs / ("bench-languages-" + ha + ("" if agent == "assist" else f"-{agent}"))


def infra_reason(record: dict[str, Any], agent: str) -> str | None:
    """Why a record of ``agent`` is the harness's failure, not the agent's, or None (scored).

    HA's Assist answers in a tenth of a second: a timeout is its own (the table's ``timeout``).
    For SMH's agent a timeout is the model server's speed on a busy machine, and an error reply
    that says the model failed is the endpoint's; both are infra."""
    if agent != "smh" or record.get("passed"):
        return None
    if record.get("timed_out"):
        return "turn timeout (the model server did not answer in time)"
    if str(record.get("response") or "").startswith(MODEL_FAILED):
        return "model endpoint failed"
    return None
