"""Optional LLM judge for answers the deterministic checks cannot decide.

As in SimuHome, the judge is asked three times and the majority verdict is kept; the rubric
depends on the goal kind. It runs only when a judge endpoint is configured.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from smh_core.llm.prompts import load_prompt
from smh_core.llm.usage import Usage

if TYPE_CHECKING:  # the client pulls in openai (0.5 s); a run without a judge never needs it
    from smh_core.llm.client import LLMClient

RUBRICS = {
    "query": "PASS only if every expected fact is stated correctly; extra correct detail is fine.",
    "clarify": "PASS only if the reply asks the user a question that targets the missing information.",
    "infeasible": "PASS only if the reply says the request cannot be done and gives the real reason.",
    "memory": "PASS only if the decision has the expected prefix (memory:, rewrite: or no-rewrite) and "
    "means the same as the expected one: the same preference stored or deleted, or a rewritten "
    "command that does the same thing in the same room.",
}


@dataclass
class JudgeVerdict:
    passed: bool
    votes: list[bool]
    usage: Usage


class Judge:
    def __init__(self, llm: LLMClient, votes: int = 3, *, claims: bool = False) -> None:
        self.llm = llm
        self.votes = votes
        self.claims = claims
        """Whether the judge also decides each claim of a reply (said versus did, issue 38)
        instead of the deterministic reader (:mod:`.claims_judge`)."""

    async def choose(self, prompt: str, choices: tuple[str, ...]) -> tuple[str, list[str], Usage]:
        """The majority of ``votes`` one-word answers among ``choices`` (an answer that is none
        of them counts for the last choice, the undecided one); ties go to the last choice."""
        votes: list[str] = []
        usage = Usage()
        for _ in range(self.votes):
            result = await self.llm.chat([{"role": "user", "content": prompt}])
            usage.add(result.usage)
            words = (result.message.get("content") or "").strip().upper().split()
            first = words[0].strip(".,:;!*\"'") if words else ""
            votes.append(first if first in choices else choices[-1])
        best = max(choices, key=lambda c: (votes.count(c), c == choices[-1]))
        if votes.count(best) * 2 <= len(votes):
            best = choices[-1]
        return best, votes, usage

    async def grade(
        self, kind: str, request: str, expected: str, answer: str, rubric: str | None = None
    ) -> JudgeVerdict:
        """The majority of ``votes`` verdicts; ``rubric`` replaces the goal kind's own (a
        source's rubric for its infeasible requests)."""
        prompt = load_prompt("judge").substitute(
            kind=kind,
            request=request,
            expected=expected,
            rubric=rubric or RUBRICS.get(kind, RUBRICS["query"]),
            answer=answer,
        )
        votes: list[bool] = []
        usage = Usage()
        for _ in range(self.votes):
            result = await self.llm.chat([{"role": "user", "content": prompt}])
            usage.add(result.usage)
            text = (result.message.get("content") or "").strip().upper()
            votes.append(text.startswith("PASS"))
        return JudgeVerdict(sum(votes) * 2 > len(votes), votes, usage)
