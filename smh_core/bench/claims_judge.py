"""Said versus did with an LLM judge (issue 38): the same claims as the deterministic reader
(:mod:`.claims`) finds, each decided by the judge from what the turn did.

The reader finds the claims (what a reply says was done or is so, and about which devices);
the judge decides each one TRUE, FALSE or UNVERIFIABLE by majority vote, from the turn's calls
and their results, the changes and the named devices' states after the turn. Where the judge
does not reach a majority the claim is unverifiable: a judge's doubt never becomes a false
claim held against the model.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from smh_core.homeenv.errors import Change
from smh_core.llm.prompts import load_prompt, quoted

from .claims import Claim
from .judge import Judge

CHOICES = ("TRUE", "FALSE", "UNVERIFIABLE")
MAX_FACT_CHARS = 6000
"""The facts a judge reads per claim, at most (a turn that changed a whole home is cut)."""


def turn_facts(
    tool_calls: Iterable[Mapping[str, Any]],
    changes: Sequence[Change],
    after: Mapping[str, Mapping[str, Any]],
    devices: Iterable[str],
) -> str:
    """What the turn did, as the judge reads it: its calls with their results, the changes,
    and the state after the turn of the devices the claims name."""
    lines = ["Calls:"]
    for call in tool_calls:
        result = call.get("result")
        ok = (
            "no result recorded"
            if result is None
            else (
                "ok"
                if not isinstance(result, dict) or result.get("ok", True)
                else f"FAILED: {json.dumps(result.get('error'), ensure_ascii=False)[:300]}"
            )
        )
        args = json.dumps(call.get("arguments", {}), ensure_ascii=False, sort_keys=True)[:300]
        lines.append(f"- {call.get('tool')} {args} -> {ok}")
    if len(lines) == 1:
        lines.append("- none")
    lines.append("Changes:")
    lines += [f"- {c.did} {c.locator}: {c.before!r} -> {c.after!r}" for c in changes] or ["- none"]
    lines.append("State after the turn:")
    for did in sorted(set(devices)):
        state = json.dumps(after.get(did, {}), ensure_ascii=False, sort_keys=True, default=str)
        lines.append(f"- {did}: {state[:600]}")
    text = "\n".join(lines)
    return text if len(text) <= MAX_FACT_CHARS else text[:MAX_FACT_CHARS] + "\n(cut)"


async def judge_claims(
    reply: str, claims: Sequence[Claim], facts_for: Any, judge: Judge
) -> list[Claim]:
    """Each claim with the judge's truth; ``facts_for(claim)`` gives the turn's facts for it.
    The reader's verdict stays in the evidence, beside the judge's votes."""
    out: list[Claim] = []
    template = load_prompt("claim_judge")
    for claim in claims:
        prompt = template.substitute(
            reply=quoted(reply), span=quoted(claim.span), facts=facts_for(claim)
        )
        answer, votes, _usage = await judge.choose(prompt, CHOICES)
        tally = ", ".join(f"{c.lower()} {votes.count(c)}" for c in CHOICES if votes.count(c))
        out.append(
            replace(
                claim,
                truth=answer.lower(),  # type: ignore[arg-type]
                evidence=f"judge ({tally}); reader: {claim.truth}, {claim.evidence}",
            )
        )
    return out
