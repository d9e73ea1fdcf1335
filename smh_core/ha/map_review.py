"""``smh ha map --interactive``: confirm or change each proposed match in the terminal.

For each device part not kept from an earlier file, the proposal and the next candidates are
shown with their scores; the answer keeps it (Enter), picks a candidate (its number), names any
entity (its HA device, or the entity alone, is taken), leaves the part unmapped this time
(``n``), skips the whole device for good (``s``: written under ``skip``, so re-runs leave it
alone) or keeps every remaining proposal (``a``, also on end of input). Input and output are
functions, so a test can play the user.
"""

from __future__ import annotations

from collections.abc import Callable

from .ha_inventory import Inventory, Unit
from .map_propose import PartChoice, Proposal, score_unit

PROMPT = (
    "Enter keeps it; a number picks a candidate; an entity id picks its device; n: none this time; "
    "s: skip this device for good; a: keep all the rest > "
)


def _unit_of(inventory: Inventory, entity_id: str) -> Unit | None:
    return next(
        (u for u in inventory.units() if any(e.entity_id == entity_id for e in u.entities)), None
    )


def _show(choice: PartChoice, say: Callable[[str], None]) -> list:
    part = choice.part
    say(f"\n{part.did} {part.label}" + (f" (room {part.room})" if part.room else ""))
    offers = ([choice.chosen] if choice.chosen is not None else []) + choice.others
    if choice.chosen is None:
        say(f"  not matched: {choice.unmatched}")
    for i, cand in enumerate(offers, 1):
        mark = "->" if cand is choice.chosen else "  "
        say(f"  {mark} {i}) {cand.unit.describe()} {cand.reason()}")
    return offers


def review(
    proposal: Proposal, inventory: Inventory, ask: Callable[[str], str], say: Callable[[str], None]
) -> Proposal:
    """``proposal`` with the user's answers applied (the same object, changed in place)."""
    for choice in proposal.choices:
        did = choice.part.did
        if did in proposal.kept or did in proposal.skipped:
            continue
        offers = _show(choice, say)
        while True:
            try:
                answer = ask(PROMPT).strip()
            except EOFError:
                answer = "a"
            if answer in ("", "a"):
                break
            if answer == "n":
                choice.chosen, choice.unmatched = None, "left unmapped by you"
                break
            if answer == "s":
                proposal.skipped.append(did)
                break
            if answer.isdigit() and 1 <= int(answer) <= len(offers):
                choice.chosen = offers[int(answer) - 1]
                break
            unit = _unit_of(inventory, answer)
            if unit is not None:
                cand = score_unit(choice.part, unit)
                if cand.bindings:
                    choice.chosen = cand
                    break
                say(
                    f"  {answer}'s device holds none of its attributes: {'; '.join(cand.misses.values())[:300]}"
                )
                continue
            say(f"  not understood: {answer!r}")
        if answer == "a":
            break
    return proposal
