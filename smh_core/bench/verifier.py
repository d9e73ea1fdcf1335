"""The verifier: one verdict per task, with a reason and an error class.

State goals are judged from snapshots (before/after), never from which tools were called:
the critic must hold on the final state, devices the goal does not name must be unchanged,
and doing nothing is caught explicitly. Answers are checked deterministically first and by
the optional LLM judge only when a fact is free text. Each verdict records which path decided.

Error classes come from the papers' taxonomies, SMH-Bench (SO, MS, AJ, AV, IE, FRF) and
SimuHome (EP, II, DC, AP, TR, CM, CB), chosen by what went wrong:
FRF/SO unusable agent output; MS wrong mode (asked, answered or acted when another mode was
due); IE tool budget spent; AV invalid tool calls on a failed goal; DC wrong device or command
(changed devices outside the goal, or no goal clause met); AP goal partly met; EP a query
answered wrongly or information-gathering calls missing; TR a timed goal missed; AJ an
automation whose trigger is wrong; CB an infeasible request acted on as if possible; CM an
infeasible request recognised but acted on anyway. MemHome goals add memory_prefix (wrong
decision type: memory / rewrite / no-rewrite) and memory_bank (wrong entries stored, kept or lost).
CTX: the conversation outgrew the model's context window (a limit of the model as configured;
scored, so a small-context model cannot look better by skipping what it cannot hold).
:data:`ERROR_CLASSES` says each in one line for reports.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from smh_core.homeenv import critic as critic_lang
from smh_core.homeenv.rules import Rule
from smh_core.homeenv.snapshot import Snapshot, diff
from smh_core.memory.metrics import bleu1, output_prefix, token_f1, tokenize
from smh_core.sim.equivalence import conditions_equivalent, triggers_equivalent
from smh_core.task.model import (
    AutomationGoal,
    ClarifyGoal,
    ExecuteGoal,
    Goal,
    InfeasibleGoal,
    MemoryGoal,
    QueryGoal,
    RequiredAction,
    Task,
    TimedGoal,
)

from . import infeasible
from .answers import check_fact, lexical_match
from .judge import Judge
from .refusals import declines
from .world import room_climate

if TYPE_CHECKING:
    from .world import World

Ignore = Callable[[str, str], bool]


ERROR_CLASSES: dict[str, str] = {
    "FRF": "format/runtime failure: the output could not be used at all (not JSON, cut off)",
    "SO": "structured-output error: JSON that misses the required schema",
    "CTX": "the conversation outgrew the model's context window",
    "MS": "wrong mode: asked, answered or acted when another mode was due",
    "IE": "tool budget spent (or the same call repeated) before the goal was reached",
    "AV": "invalid tool calls on a failed goal",
    "DC": "wrong device or command: devices outside the goal changed, or no goal clause met",
    "AP": "goal partly met",
    "EP": "a question answered wrongly, or information-gathering calls missing",
    "TR": "a timed goal missed",
    "AJ": "an automation whose trigger is wrong",
    "CB": "an infeasible request acted on as if possible",
    "CM": "an infeasible request recognised but acted on anyway",
    "memory_prefix": "MemHome: wrong decision type (memory / rewrite / no-rewrite)",
    "memory_bank": "MemHome: wrong memories stored, kept or lost",
    "STT": "voice: the spoken request was transcribed wrongly and the same task passed when typed",
    "INFRA": "not scored: the endpoint or the harness failed",
    "TASK": "not scored: the task could not be prepared",
    "FC": "the reply claims something the turn did not do (said versus did; counted beside the "
    "verdict, not instead of it)",
}
"""Every error class a verdict can carry, in one line each (the report's legend)."""


@dataclass
class Outcome:
    """What an agent did in a task, normalised across DR, EIA, HA agents and the oracle."""

    response: str = ""
    questions: list[str] = field(default_factory=list)
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    agent_error: str | None = (
        None  # FRF | SO when the agent's output was unusable, CTX when it outgrew the context
    )
    stop: str = ""
    invalid_calls: int = 0
    usage: dict[str, int] = field(default_factory=dict)
    memory_output: str | None = None  # MemHome decision text; None is the pass-through (no-rewrite)
    memory_after: list[str] | None = (
        None  # the user's memory bank after the turn (the runner fills it)
    )
    protocol: dict[str, Any] = field(
        default_factory=dict
    )  # how the model was talked to (tools, structured)
    acted_before_asking: list[dict[str, Any]] = field(default_factory=list)
    """What changed the home before the agent's first question: the state-changing calls the
    home ran (the embedded runner sees each reach it, :class:`~smh_core.bench.asking.AskOrder`),
    or the changes the home showed when the question came back (Home Assistant, where another
    agent's calls are not seen). Empty when the agent asked first, or never asked."""


@dataclass
class Verdict:
    passed: bool
    reason: str
    error_class: str | None = None
    decided_by: str = "state"  # state | deterministic | lexical | judge
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "reason": self.reason,
            "error_class": self.error_class,
            "decided_by": self.decided_by,
            "details": self.details,
        }


def _fail(reason: str, cls: str, decided_by: str = "state", **details: Any) -> Verdict:
    return Verdict(False, reason, cls, decided_by, details)


def required_actions_missing(
    required: list[RequiredAction], calls: list[dict[str, Any]]
) -> list[RequiredAction]:
    """Required tool calls not found in the trace (argument subsets must match)."""
    missing = []
    for req in required:
        if not any(
            c.get("tool") == req.tool
            and all(c.get("arguments", {}).get(k) == v for k, v in req.arguments.items())
            for c in calls
        ):
            missing.append(req)
    return missing


def check_state(
    critic_text: str,
    before: Snapshot,
    after: Snapshot,
    preserve: bool,
    may_change: list[str],
    ignore: Ignore | None = None,
) -> Verdict:
    """Critic on the final state + irrelevant-state preservation + no-op detection.

    ``ignore`` drops changes no agent makes directly (room climate, sensor readings)."""
    crit = critic_lang.parse(critic_text)
    changes = [c for c in diff(before, after) if ignore is None or not ignore(c.did, c.locator)]
    results = crit.explain(after)
    # The critic decides as a whole (an ``or`` holds when one side does); the clauses only
    # say what was missed when it does not.
    reached = crit.evaluate(after)
    failed = [] if reached else [r for r in results if not r.passed]
    if preserve:
        allowed = set(crit.referenced_devices()) | set(may_change)
        stray = [c for c in changes if c.did not in allowed]
        if stray:
            return _fail(
                f"changed devices outside the goal: {sorted({c.did for c in stray})}",
                "DC",
                stray=[c.to_dict() for c in stray],
            )
    if not failed:
        return Verdict(True, "goal state reached", details={"changes": len(changes)})
    if not changes:
        return _fail("nothing changed (no-op)", "DC", failed=[_clause(r) for r in failed])
    cls = "AP" if len(failed) < len(results) else "DC"
    return _fail(
        f"{len(failed)} of {len(results)} goal conditions not met",
        cls,
        failed=[_clause(r) for r in failed],
    )


def _clause(r: Any) -> dict[str, Any]:
    return {
        "did": r.did,
        "locator": r.locator,
        "actual": r.actual,
        "op": r.op,
        "expected": r.expected,
    }


async def verify(
    task: Task,
    before: Snapshot,
    after: Snapshot,
    outcome: Outcome,
    judge: Judge | None = None,
    world: World | None = None,
) -> Verdict:
    """Judge one task. ``world`` (the home in time) is needed for timed and automation goals."""
    if outcome.agent_error in ("FRF", "SO"):
        return _fail(
            f"agent output unusable ({outcome.agent_error})", outcome.agent_error, "deterministic"
        )
    if outcome.agent_error == "CTX":
        return _fail("the conversation outgrew the model's context window", "CTX", "deterministic")
    if task.goal is not None:
        verdict = await _verify_goal(task, task.goal, before, after, outcome, judge, world)
    else:
        verdict = await _verify_goals(task, before, after, outcome, judge, world)
    if verdict.passed and task.required_actions:
        missing = required_actions_missing(task.required_actions, outcome.tool_calls)
        if missing:
            return _fail(
                f"required tool calls missing: {[m.tool for m in missing]}",
                "EP",
                "deterministic",
                missing=[m.model_dump() for m in missing],
            )
    if (
        not verdict.passed
        and outcome.stop in ("budget", "repeating")
        and verdict.error_class not in ("MS",)
    ):
        verdict.error_class = "IE"
        verdict.reason += (
            " (tool budget exhausted)"
            if outcome.stop == "budget"
            else " (the same call and result repeated)"
        )
    elif not verdict.passed and outcome.invalid_calls and verdict.error_class in ("DC", "AP"):
        verdict.error_class = "AV"
        verdict.reason += f" ({outcome.invalid_calls} invalid tool calls)"
    return verdict


def goal_devices(goal: Goal) -> set[str]:
    """The devices a goal may change: its critics' devices and ``may_change`` (none for goals
    that change nothing)."""
    if isinstance(goal, ExecuteGoal):
        return set(critic_lang.parse(goal.critic).referenced_devices()) | set(goal.may_change)
    if isinstance(goal, TimedGoal):
        out = set(goal.may_change)
        for cp in goal.checkpoints:
            out |= set(critic_lang.parse(cp.critic).referenced_devices())
        return out
    return set()


async def _verify_goals(
    task: Task,
    before: Snapshot,
    after: Snapshot,
    outcome: Outcome,
    judge: Judge | None,
    world: World | None,
) -> Verdict:
    """All-of over ``task.goals``. Each goal is judged as if alone, except that what the other
    goals legitimately change is not held against it: an execute goal may leave the other
    goals' devices changed, an infeasible or query part only fails on changes outside them
    (and on schedules only when no part is timed). The per-goal verdicts go into the details."""
    verdicts: list[Verdict] = []
    for i, goal in enumerate(task.goals):
        others = set().union(*(goal_devices(g) for j, g in enumerate(task.goals) if j != i))
        plans_ok = any(isinstance(g, TimedGoal) for j, g in enumerate(task.goals) if j != i)
        verdicts.append(
            await _verify_goal(task, goal, before, after, outcome, judge, world, others, plans_ok)
        )
    details: dict[str, Any] = {
        "goals": [
            {"kind": g.kind, **v.to_dict()} for g, v in zip(task.goals, verdicts, strict=True)
        ]
    }
    failed = [(i, v) for i, v in enumerate(verdicts) if not v.passed]
    if not failed:
        decided = next(
            (d for d in ("judge", "lexical") if any(v.decided_by == d for v in verdicts)),
            verdicts[0].decided_by,
        )
        return Verdict(True, f"all {len(verdicts)} goals met", decided_by=decided, details=details)
    i, first = failed[0]
    reason = (
        f"{len(failed)} of {len(verdicts)} goals not met; goal {i + 1} ({task.goals[i].kind}): "
        f"{first.reason}"
    )
    return Verdict(False, reason, first.error_class, first.decided_by, details)


async def _verify_goal(
    task: Task,
    goal: Goal,
    before: Snapshot,
    after: Snapshot,
    outcome: Outcome,
    judge: Judge | None,
    world: World | None,
    others: set[str] | None = None,
    plans_ok: bool = False,
) -> Verdict:
    """One goal's verdict. ``others`` are devices other goals of the same task may change (not
    held against this one); ``plans_ok``: another goal schedules, so new plans are not stray."""
    others = others or set()
    # without the task's world (inside Home Assistant) the room climate is still no agent's doing:
    # a lamp switched on raises its room's light level in every home that simulates rooms
    ignore = world.ignored if world is not None else room_climate
    changed = [
        c for c in diff(before, after) if not ignore(c.did, c.locator) and c.did not in others
    ]
    if isinstance(goal, ExecuteGoal):
        if not changed and outcome.questions:
            return _fail("asked for clarification instead of acting", "MS")
        return check_state(
            goal.critic, before, after, goal.preserve, [*goal.may_change, *sorted(others)], ignore
        )
    if isinstance(goal, (TimedGoal, AutomationGoal)):
        if world is None:
            raise ValueError(
                f"task {task.id}: {goal.kind!r} goals need the task's world (simulated clock)"
            )
        if isinstance(goal, TimedGoal):
            if others:
                goal = goal.model_copy(update={"may_change": [*goal.may_change, *sorted(others)]})
            return check_timed(goal, world)
        return check_automation(goal, world, changed)
    if isinstance(goal, QueryGoal):
        if changed:
            return _fail("a query changed the home", "MS", changes=[c.to_dict() for c in changed])
        return await _check_answer(task, goal, outcome, judge)
    if isinstance(goal, ClarifyGoal):
        if not outcome.questions:
            if changed:
                return _fail("acted without asking for the missing information", "MS")
            return _fail("did not ask for clarification", "MS", "deterministic")
        if outcome.acted_before_asking:
            # the paper's ambiguous intent: clarify *before* acting; asking after is acting blind
            n = len(outcome.acted_before_asking)
            return _fail(
                f"acted before asking for the missing information ({n} state-changing "
                f"{'call' if n == 1 else 'calls'} before the question)",
                "MS",
                "deterministic",
                acted=outcome.acted_before_asking,
            )
        if goal.then is not None:
            return check_state(
                goal.then.critic, before, after, goal.then.preserve, goal.then.may_change, ignore
            )
        if changed:
            return _fail("changed the home while clarifying", "MS")
        return Verdict(True, "asked for clarification", decided_by="deterministic")
    if isinstance(goal, InfeasibleGoal):
        refused = declines(outcome.response or "", task.language)
        if changed:
            return _fail(
                "acted on an infeasible request",
                "CM" if refused else "CB",
                changes=[c.to_dict() for c in changed],
            )
        planned = [] if plans_ok else _new_plans(world)
        if planned:
            return _fail(
                f"scheduled an infeasible request for later ({', '.join(planned)})",
                "CM" if refused else "CB",
                "simulation",
            )
        if goal.rubric is not None:
            return await _check_rubric(task, goal, outcome, judge, bool(others))
        if refused:
            return Verdict(True, "declined and explained", decided_by="deterministic")
        if judge is not None and outcome.response:
            jv = await judge.grade("infeasible", task.turns[-1].text, goal.reason, outcome.response)
            return Verdict(
                jv.passed,
                "judge: " + ("explained" if jv.passed else "did not explain"),
                None if jv.passed else "CB",
                "judge",
                {"votes": jv.votes},
            )
        return _fail("did not say the request is impossible", "CB", "deterministic")
    if isinstance(goal, MemoryGoal):
        verdict = check_memory(task, goal, before, after, outcome, ignore)
        if judge is not None and task.reference.memory_output is not None:
            # MemHome's judge accuracy: a separate metric on the decision text; the verdict
            # stays the deterministic one
            output = "no-rewrite" if outcome.memory_output is None else outcome.memory_output
            jv = await judge.grade(
                "memory", task.turns[-1].text, task.reference.memory_output, output
            )
            verdict.details["judge_correct"] = jv.passed
            verdict.details["judge_votes"] = jv.votes
        return verdict
    raise ValueError(f"task {task.id}: unknown goal kind {goal.kind!r}")


async def _check_rubric(
    task: Task, goal: InfeasibleGoal, outcome: Outcome, judge: Judge | None, others_act: bool
) -> Verdict:
    """A reply to an infeasible request judged on its source's rubric: by the judge when one
    is configured, else by :func:`smh_core.bench.infeasible.check_reply`."""
    rubric = goal.rubric
    assert rubric is not None
    if judge is not None and (outcome.response or outcome.questions):
        jv = await judge.grade(
            "infeasible",
            task.turns[-1].text,
            infeasible.judge_expected(goal.reason, rubric),
            infeasible.judge_answer(outcome.response, outcome.questions, outcome.tool_calls),
            rubric=infeasible.judge_rubric(rubric),
        )
        return Verdict(
            jv.passed,
            f"judge ({rubric.source} rubric): " + ("met it" if jv.passed else "did not meet it"),
            None if jv.passed else "CB",
            "judge",
            {"votes": jv.votes},
        )
    passed, why = infeasible.check_reply(
        rubric, outcome.response, outcome.questions, outcome.tool_calls, others_act
    )
    if passed:
        return Verdict(True, f"{why} ({rubric.source} rubric)", decided_by="deterministic")
    return _fail(f"{why} ({rubric.source} rubric)", "CB", "deterministic")


def _norm(text: str) -> str:
    return " ".join(tokenize(text))


def bank_problems(
    initial: list[str], expected: list[str], actual: list[str], key_terms: list[str]
) -> dict[str, list[str]]:
    """How the bank after the turn differs from the expected one: ``missing`` expected entries,
    entries ``wrongly_kept`` (should have gone) and ``wrongly_added``. Entries that were in the
    bank before must survive verbatim (modulo case and punctuation); a new entry matches an
    expected new one when it holds every key term's words and shares half its tokens."""
    before = {_norm(m) for m in initial}
    left = list(actual)
    missing: list[str] = []
    for want in sorted(expected, key=lambda m: _norm(m) not in before):  # verbatim ones first
        exact = next((a for a in left if _norm(a) == _norm(want)), None)
        if exact is None and _norm(want) not in before:
            keys = {t for k in key_terms for t in tokenize(k)}
            exact = next(
                (
                    a
                    for a in left
                    if _norm(a) not in before
                    and keys <= set(tokenize(a))
                    and token_f1(a, want) >= 0.5
                ),
                None,
            )
        if exact is None:
            missing.append(want)
        else:
            left.remove(exact)
    return {
        "missing": missing,
        "wrongly_kept": [a for a in left if _norm(a) in before],
        "wrongly_added": [a for a in left if _norm(a) not in before],
    }


def check_memory(
    task: Task,
    goal: MemoryGoal,
    before: Snapshot,
    after: Snapshot,
    outcome: Outcome,
    ignore: Ignore | None,
) -> Verdict:
    """Decision prefix, then the memory bank, then the home (``then``, or unchanged). No decision
    output is the pipeline's pass-through, ``no-rewrite``. Token F1 and BLEU-1 of the decision
    against the reference go into the details whatever the verdict."""
    output = "no-rewrite" if outcome.memory_output is None else outcome.memory_output
    details: dict[str, Any] = {"prefix": output_prefix(output), "expected_prefix": goal.prefix}
    if task.reference.memory_output is not None:
        details["f1"] = round(token_f1(output, task.reference.memory_output), 4)
        details["bleu1"] = round(bleu1(output, task.reference.memory_output), 4)
    if details["prefix"] != goal.prefix:
        return _fail(
            f"decision {details['prefix'] or 'without a prefix'!s} where {goal.prefix} was due",
            "memory_prefix",
            "deterministic",
            **details,
        )
    actual = task.memory if outcome.memory_after is None else outcome.memory_after
    problems = bank_problems(task.memory, goal.bank_after, actual, goal.key_terms)
    if any(problems.values()):
        said = "; ".join(f"{k.replace('_', ' ')}: {v}" for k, v in problems.items() if v)
        return _fail(
            f"memory bank wrong ({said})", "memory_bank", "deterministic", **details, **problems
        )
    if goal.then is not None:
        verdict = check_state(
            goal.then.critic, before, after, goal.then.preserve, goal.then.may_change, ignore
        )
        verdict.details.update(details)
        return verdict
    changed = [c for c in diff(before, after) if ignore is None or not ignore(c.did, c.locator)]
    if changed:
        return _fail(
            "changed the home where only the memory decision was due",
            "MS",
            changes=[c.to_dict() for c in changed],
            **details,
        )
    return Verdict(
        True,
        f"{goal.prefix} decision and memory bank right",
        decided_by="deterministic",
        details=details,
    )


def _new_plans(world: World | None) -> list[str]:
    """Schedules and rules the agent added (acting later is acting too)."""
    if world is None:
        return []
    old = {r.id for r in world.initial_rules}
    return [
        f"schedule {s.id}" for s in world.sim.schedules() if s.id not in world.initial_schedules
    ] + [f"automation {r.id}" for r in world.sim.rules() if r.id not in old]


def check_timed(goal: TimedGoal, world: World) -> Verdict:
    """Run the agent's home forward; each checkpoint's critic must hold at some moment of its
    window ``[at - tolerance, at + tolerance]`` (at the window's edges or right after any state
    change inside it) and, with ``not_before``, not yet ``tolerance + 1`` s before it."""
    future = world.future()
    untouched = world.untouched_future()
    crits = [critic_lang.parse(cp.critic) for cp in goal.checkpoints]
    met = [False] * len(goal.checkpoints)

    def look(_changes: object = None) -> None:
        """Mark the checkpoints whose window is open now and whose critic holds now."""
        t = (future.now - world.start).total_seconds()
        snap = None
        for i, cp in enumerate(goal.checkpoints):
            if (
                not met[i]
                and cp.at_seconds - cp.tolerance_seconds
                <= t
                <= cp.at_seconds + cp.tolerance_seconds
            ):
                snap = snap if snap is not None else future.engine.snapshot()
                met[i] = crits[i].evaluate(snap)

    probes: list[
        tuple[float, int, int]
    ] = []  # (seconds, kind: 0 too early / 1 window opens / 2 closes, index)
    for i, cp in enumerate(goal.checkpoints):
        probes.append((max(0.0, cp.at_seconds - cp.tolerance_seconds), 1, i))
        probes.append((cp.at_seconds + cp.tolerance_seconds, 2, i))
        early = cp.at_seconds - cp.tolerance_seconds - 1
        if cp.not_before and early >= 0 and not crits[i].evaluate(world.initial):
            probes.append((early, 0, i))
    probes.sort()
    referenced: set[str] = set(goal.may_change)
    stop_looking = future.engine.add_listener(look)
    try:
        for seconds, kind, i in probes:
            cp = goal.checkpoints[i]
            future.run_until(world.start + timedelta(seconds=seconds))
            crit = crits[i]
            referenced |= set(crit.referenced_devices())
            if kind == 0:
                if crit.evaluate(future.engine.snapshot()):
                    return _fail(
                        f"checkpoint {i + 1} already met at +{seconds:g} s, before its time",
                        "TR",
                        "simulation",
                    )
                continue
            look()
            if kind == 2 and not met[i]:
                failed = [
                    _clause(r) for r in crit.explain(future.engine.snapshot()) if not r.passed
                ]
                return _fail(
                    f"checkpoint {i + 1} not met at +{cp.at_seconds:g} s",
                    "TR",
                    "simulation",
                    failed=failed,
                )
        stop_looking()
        if goal.preserve:
            untouched.run_until(future.now)
            stray = [
                c
                for c in diff(untouched.engine.snapshot(), future.engine.snapshot())
                if c.did not in referenced and not world.ignored(c.did, c.locator)
            ]
            if stray:
                return _fail(
                    f"changed devices outside the goal: {sorted({c.did for c in stray})}",
                    "DC",
                    "simulation",
                    stray=[c.to_dict() for c in stray],
                )
    finally:
        future.close()
        untouched.close()
    return Verdict(True, f"all {len(goal.checkpoints)} checkpoints met", decided_by="simulation")


def check_automation(goal: AutomationGoal, world: World, changed: list[Any]) -> Verdict:
    """Some rule the agent stored must be equivalent to the goal's trigger and conditions, and
    its actions, run on a copy of the final home, must satisfy the critic."""
    initial_ids = {r.id for r in world.initial_rules}
    new_rules = [r for r in world.sim.rules() if r.id not in initial_ids]
    if not new_rules:
        if changed:
            return _fail("acted now instead of creating an automation", "MS", "simulation")
        return _fail("no automation was created", "MS", "simulation")
    probe = Rule.model_validate(
        {
            "id": "goal",
            "triggers": goal.triggers,
            "conditions": goal.conditions,
            "actions": [{"did": "_", "locator": "_"}],
        }
    )
    engine, now = world.engine, world.sim.now
    reasons = []
    trigger_matched = False
    crit = critic_lang.parse(goal.critic)
    for rule in new_rules:
        trig = triggers_equivalent(rule.triggers, probe.triggers, engine, now)
        if not trig:
            reasons.append(f"{rule.id}: {trig.reason}")
            continue
        trigger_matched = True
        cond = conditions_equivalent(rule.conditions, probe.conditions, engine, now)
        if not cond:
            reasons.append(f"{rule.id}: {cond.reason}")
            continue
        twin = world.future()
        try:
            for act in rule.actions:
                twin.engine.execute(act.did, act.locator, act.arguments)
            results = crit.explain(twin.engine.snapshot())
        finally:
            twin.close()
        failed = [r for r in results if not r.passed]
        if failed:
            reasons.append(
                f"{rule.id}: actions leave {len(failed)} of {len(results)} goal conditions unmet"
            )
            continue
        if changed:
            return _fail(
                "the automation is right but the home was also changed now",
                "DC",
                "simulation",
                changes=[c.to_dict() for c in changed],
            )
        return Verdict(
            True, f"automation {rule.id} is equivalent to the goal", decided_by="simulation"
        )
    return _fail(
        "no stored automation matches: " + "; ".join(reasons),
        "DC" if trigger_matched else "AJ",
        "simulation",
    )


async def _check_answer(
    task: Task, goal: QueryGoal, outcome: Outcome, judge: Judge | None
) -> Verdict:
    answer = outcome.response or ""
    if not answer.strip():
        return _fail("no answer given", "EP", "deterministic")
    undecided = []
    for fact in goal.facts:
        ok = check_fact(fact, answer, task.language)
        if ok is None:
            undecided.append(fact)
        elif not ok:
            return _fail(
                f"answer misses the {fact.kind} fact {fact.value!r}", "EP", "deterministic"
            )
    if not undecided:
        return Verdict(True, "answer states every fact", decided_by="deterministic")
    expected = "; ".join(str(f.value) for f in undecided)
    if judge is not None:
        jv = await judge.grade("query", task.turns[-1].text, expected, answer)
        return Verdict(
            jv.passed,
            "judge: " + ("correct" if jv.passed else "incorrect"),
            None if jv.passed else "EP",
            "judge",
            {"votes": jv.votes},
        )
    if all(lexical_match(str(f.value), answer) for f in undecided):
        return Verdict(True, "answer matches the expected text", decided_by="lexical")
    return _fail("answer does not match the expected text", "EP", "lexical")
