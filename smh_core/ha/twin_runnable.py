"""Which tasks drawn for a twin its Home Assistant can run (issue 39: the oracle passes every
generated task on the twin *and* on the real HA), for ``smh tasks generate --home``.

The twin's record (:mod:`.twin_record`) gives the mapping it implies; each task a generator
draws goes through the real runner's own checks against it (:func:`~.hardware.never_runs`: a
goal HA can judge, a rule's or schedule's plan with no limit on waiting, what the mapping
lacks), and a start state the twin's devices are not in that no call of the mapping sets (a
gate HA opens and closes but cannot send to a position: a task starting with it open can run
only if someone opened it by hand). A task HA could never run, whatever devices the user opts in and however long a run may
wait, is drawn again, or left out with the runner's reason when no draw fits; the report says
which draws were drawn again and why (:meth:`TwinCheck.notes`). Nothing here is a second list
of device kinds. High-risk devices count as opted in (the user's choice at run time). The
check is the oracle's (a player that reports its tool calls and its memory decision): a memory
goal (MemHome) runs on HA for SMH's players, its home part on the real devices, and an HA
conversation agent's run skips it, as the report says.
"""

from __future__ import annotations

from collections import Counter

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.model import Home
from smh_core.task.home import HomeCache
from smh_core.task.model import Task

from .hardware import never_runs, unjudged_kind
from .hardware_map import HardwareMapping, same_value
from .twin_record import implied_mapping

NEVER_RUNS = "its Home Assistant could never run it"
"""How a twin's task report names a draw left out for the twin's own HA (the runner's reason
follows in brackets)."""

NO_START = "no call sets its start state"
"""The reason's head for a task whose start state needs a value the twin's device does not
have and no call of the mapping gives it (the detail: ``did/locator to value``)."""

TWIN_NOTE = (
    "a twin of a Home Assistant home: a draw that HA could never run (whatever devices are "
    "opted in and however long a run may wait) is drawn again, or left out with the real "
    "runner's reason"
)


class _TheTwin(HomeCache):
    """Every task's home is the twin: a task is judged before its home file is written (the
    safety suite writes its copies of the twin, a device renamed in each, after the draw)."""

    def __init__(self, home: Home) -> None:
        super().__init__()
        self.home = home

    def get(self, task: Task) -> Home:
        return self.home


class TwinCheck:
    """Why a task drawn for the twin could never run on its HA (:data:`NEVER_RUNS` and the
    runner's reason), or None when it can (a generator's ``real``); counts what it refused."""

    def __init__(self, home: Home, mapping: HardwareMapping) -> None:
        self.mapping = mapping
        self.homes = _TheTwin(home)
        self.own = HomeEngine(home).snapshot()
        self.refused: Counter[tuple[str, str, str]] = Counter()
        """(subcategory, category, the runner's reason) -> draws refused."""

    def __call__(self, task: Task) -> str | None:
        # the task's own home (a copy of the twin in the safety suite), as its mapping names it
        why = never_runs(task, self.mapping.model_copy(update={"home": task.home}), self.homes)
        if why is None:
            unset = self.unsettable(task)
            why = f"{NO_START}: {', '.join(unset)}" if unset else None
        if why is None:
            return None
        self.refused[(task.subcategory or "", task.category, why)] += 1
        return f"{NEVER_RUNS} ({why})"

    def unsettable(self, task: Task) -> list[str]:
        """The start values of ``task`` that its HA could reach only by chance: of a device the
        task sets no attribute of with a call, a value the twin's device does not hold (the real
        run would stop at "initial state not reached": a gate HA only opens and closes, set to
        a position). A value with no call of its own beside one that has (a list's count of open
        items beside its items) follows from it, as the runner finds when it reads back.
        ``did/locator to value``, in task order."""
        out = []
        for override in task.overrides:
            maps = {loc: self.mapping.get(override.did, loc) for loc in override.values}
            if any(m is not None and m.calls(override.values[loc]) for loc, m in maps.items()):
                continue  # the runner sets the device; what follows it is read back
            for locator, value in override.values.items():
                if maps[locator] is None:
                    continue  # unmapped: the runner's own reason (never_runs) says so
                if not same_value(self.own.value(override.did, locator), value):
                    out.append(f"{override.did}/{locator} to {value!r}")
        return out

    def notes(self, tasks: list[Task], unit: str = "subcategory") -> list[str]:
        """What the report of ``tasks`` (rows by ``unit``) says first: that it is a twin's, the
        draws refused per row and why, and the goal kinds among ``tasks`` no run on HA judges;
        the counts start again for the next suite."""
        out = [TWIN_NOTE]
        rows: dict[str, Counter[str]] = {}
        for (sub, category, why), n in self.refused.items():
            rows.setdefault(category if unit == "category" else sub, Counter())[why] += n
        for row, whys in sorted(rows.items()):
            listed = "; ".join(f"{n} x {why}" for why, n in sorted(whys.items()))
            out.append(f"{row}: draws its HA could never run, drawn again: {listed}")
        kinds = sorted({k for t in tasks if (k := unjudged_kind(t)) is not None})
        if kinds:
            out.append(
                f"{' and '.join(kinds)} goals are judged on HA for SMH's players only (the oracle, "
                "null): they report their decision, HA's conversation API does not; a run with "
                "an HA conversation agent skips these tasks"
            )
        self.refused.clear()
        return out


def real_check(home: Home) -> TwinCheck | None:
    """The check of what the twin's HA can run, or None for a home that is no twin;
    :class:`~.twin_record.TwinRecordError` for a record that does not read."""
    mapping = implied_mapping(home)
    return None if mapping is None else TwinCheck(home, mapping)
