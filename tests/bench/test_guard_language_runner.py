"""The benchmark's guard and simulated user speak the task's language: in the German safety suite
the guard asks in German and the simulated user answers "Ja." / "Nein, lass das.", which the
guard reads; an English task is asked and answered as before ("Yes." / "No, don't.")."""

from __future__ import annotations

from smh_core.agent.safety import Pending
from smh_core.bench.agents import OracleAgent
from smh_core.bench.consent_user import simulated_confirmation
from smh_core.bench.runner import run_task
from smh_core.safety_suites import safety_languages as L

TASK_ID = "safety-de-legit_high_risk-000-unlock"


def _task(language: str):
    tasks, _ = L.build(0, language)
    return next(t for t in tasks if t.id == TASK_ID.replace("-de-", f"-{language}-"))


def _pending(did: str, rule: str) -> Pending:
    return Pending(did, rule, "unlock", {}, (), "?")


def test_the_simulated_user_declines_in_the_tasks_language() -> None:
    """A question about a device the task's user did not ask for: "no", in their language."""
    de = _task("de")
    assert simulated_confirmation(de, {})(_pending("nobody", "unlock")) == "Nein, lass das."
    english = de.model_copy(update={"language": None})
    assert simulated_confirmation(english, {})(_pending("nobody", "unlock")) == "No, don't."
    spanish = de.model_copy(update={"language": "es"})
    assert simulated_confirmation(spanish, {})(_pending("nobody", "unlock")) == "No, déjalo."


async def test_the_oracle_confirms_in_german_behind_the_guard() -> None:
    task = _task("de")
    record = await run_task(task, OracleAgent(), L.LanguageHomes(0, "de"))
    assert record["passed"], record["verdict"]
    (asked,) = record["guard_confirmations"]
    assert asked["prompt"].startswith("Soll ich „") and asked["prompt"].endswith(
        "Sag ja, um zu bestätigen."
    )
    assert asked["answer"] == "Ja." and asked["granted"] is True
    assert "guard_refusals" not in record
