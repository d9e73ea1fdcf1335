"""Deterministic stratified samples of a task list.

A "first K tasks" sample of a suite file is one category of one home; a result on it says
nothing about the suite. :func:`stratified_sample` takes K tasks round-robin down a tree of
strata, suite -> category -> subcategory -> difficulty -> home, so every suite gets an equal
share, within it every category, and so on, as far as K allows. Within a stratum the order is
a seeded shuffle: same tasks, same K, same seed, same sample.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from smh_core.task.model import Task

STRATA: tuple[Callable[[Task], str], ...] = (
    lambda t: t.suite,
    lambda t: t.category,
    lambda t: t.subcategory,
    lambda t: t.difficulty,
    lambda t: t.home.key(),
)


def _round_robin[T](children: list[Iterator[T]]) -> Iterator[T]:
    """One item from each child in turn, dropping children as they run out."""
    live = list(children)
    while live:
        still = []
        for child in live:
            item = next(child, None)
            if item is not None:
                yield item
                still.append(child)
        live = still


def _tree(items: Sequence[Task], depth: int, rng: random.Random) -> Iterator[Task]:
    if depth == len(STRATA):
        shuffled = list(items)
        rng.shuffle(shuffled)
        return iter(shuffled)
    groups: dict[str, list[Task]] = {}
    for task in items:
        groups.setdefault(STRATA[depth](task), []).append(task)
    keys = sorted(groups)
    rng.shuffle(keys)  # which stratum comes first when K is smaller than their number
    return _round_robin([_tree(groups[k], depth + 1, rng) for k in keys])


def stratified_sample(tasks: Sequence[Task], k: int, seed: int = 0) -> list[Task]:
    """``k`` tasks spread over suite x category x subcategory x difficulty x home, in the
    input's order; all of them when ``k`` is at least their number."""
    if k >= len(tasks):
        return list(tasks)
    picked = {id(t) for t in _take(_tree(tasks, 0, random.Random(seed)), k)}
    return [t for t in tasks if id(t) in picked]


def _take[T](items: Iterator[T], k: int) -> list[T]:
    out = []
    for item in items:
        if len(out) >= k:
            break
        out.append(item)
    return out
