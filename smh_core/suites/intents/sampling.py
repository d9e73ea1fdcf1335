"""Seeded sampling of one sentence from one of Home Assistant's sentence templates, keeping the
slot values it chose.

hassil's own ``sample_expression`` enumerates every reading of a template in order (millions for
some templates, and always the first ones first), and it does not say which list value went
where. Here a template is walked once with a seeded ``random.Random``: each alternative and
optional part is chosen at random, permutations are shuffled, and each ``{list}`` reference
takes a value that fits the task being built (the target device's name and area, a domain or
device class that matches it, a number in the range the simulated device accepts). The chosen
values are returned with the text, so the task's goal is derived from what the sentence says,
not from re-reading it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hassil.expression import (
    Alternative,
    Expression,
    ListReference,
    Permutation,
    RuleReference,
    Sentence,
    Sequence,
    TextChunk,
)
from hassil.intents import RangeSlotList, SlotList, TextSlotList
from hassil.util import normalize_whitespace


class Unfit(Exception):
    """This template cannot say this task (no list value fits, a number list has no digits)."""


@dataclass
class Sampled:
    """One sampled sentence and the slot values it carries (slot name -> value out)."""

    text: str
    slots: dict[str, Any] = field(default_factory=dict)


@dataclass
class Walker:
    """Walks templates of one language: its lists and expansion rules, and what the task
    wants: ``fixed`` slot values given by their text (``name``, ``area``), ``wanted`` values a
    text list must produce (``domain``, ``device_class``), and ``bounds`` per numeric slot."""

    rng: random.Random
    slot_lists: Mapping[str, SlotList]
    rules: Mapping[str, Sentence]
    fixed: Mapping[str, str] = field(default_factory=dict)
    wanted: Mapping[str, Any] = field(default_factory=dict)
    bounds: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    number: Callable[[str, int, int], int] | None = None
    """Chooses a number for a slot in an inclusive range (default: uniform)."""
    slots: dict[str, Any] = field(default_factory=dict)

    def sample(self, sentence: Sentence) -> Sampled:
        """One reading of ``sentence`` (raises :class:`Unfit` if the task cannot be said)."""
        self.slots = {}
        text = normalize_whitespace(self._walk(sentence.expression)).strip()
        return Sampled(text, dict(self.slots))

    def _walk(self, expr: Expression) -> str:
        if isinstance(expr, TextChunk):
            return expr.original_text
        if isinstance(expr, Alternative):
            return self._walk(self.rng.choice(expr.items))
        if isinstance(expr, Permutation):
            items = list(expr.items)
            self.rng.shuffle(items)
            return normalize_whitespace("".join(self._walk(i) for i in items))
        if isinstance(expr, Sequence):
            return "".join(self._walk(i) for i in expr.items)
        if isinstance(expr, ListReference):
            return self._list(expr)
        if isinstance(expr, RuleReference):
            rule = self.rules.get(expr.rule_name)
            if rule is None:
                raise Unfit(f"no expansion rule <{expr.rule_name}>")
            return self._walk(rule.expression)
        raise Unfit(f"unexpected template part {type(expr).__name__}")

    def _list(self, ref: ListReference) -> str:
        slot = ref.slot_name
        if ref.list_name in self.fixed:
            self.slots[slot] = self.fixed[ref.list_name]
            return self.fixed[ref.list_name]
        slot_list = self.slot_lists.get(ref.list_name)
        if isinstance(slot_list, TextSlotList):
            values = slot_list.values
            if slot in self.wanted:
                values = [v for v in values if v.value_out == self.wanted[slot]]
            elif slot in self.slots:  # the same slot twice: say the same value
                values = [v for v in values if v.value_out == self.slots[slot]]
            if not values:
                raise Unfit(f"no value of {{{ref.list_name}}} fits")
            value = self.rng.choice(values)
            text = self._walk(value.text_in)
            self.slots[slot] = text.strip() if value.value_out is None else value.value_out
            return text
        if isinstance(slot_list, RangeSlotList):
            if not slot_list.digits:
                raise Unfit(f"{{{ref.list_name}}} is said in words only")
            low, high = self.bounds.get(slot, (slot_list.start, slot_list.stop))
            low, high = max(low, slot_list.start), min(high, slot_list.stop)
            if low > high:
                raise Unfit(f"{{{ref.list_name}}} cannot say a value the device accepts")
            if slot in self.slots:
                n = int(self.slots[slot])
            else:
                choose = self.number or (lambda _s, a, b: self.rng.randint(a, b))
                n = choose(slot, low, high)
                n -= (n - slot_list.start) % slot_list.step
                if n < low:
                    raise Unfit(f"{{{ref.list_name}}}: no step in range")
            self.slots[slot] = n
            return str(n)
        raise Unfit(f"list {{{ref.list_name}}} is not one SMH can fill")
