"""A user profile as SAGE keeps one: a log of interactions, summarised per day and overall.

Explicit memories (:mod:`.store`) hold what the user asked to be remembered; the profile
holds what can be learned from use ("turns the bedroom AC to 24 °C most evenings"). The log
and the summaries live in SQLite next to the memory bank (same WAL settings, so the HA agent
and benchmark workers can share a file). Summaries are written by a model through
:class:`ProfileBuilder`; reading them needs no model.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from smh_core.llm.client import LLMClient, Usage
from smh_core.llm.prompts import load_prompt

from .sensitive import redact
from .store import open_db

OVERALL = "*"
"""The ``day`` key of the overall summary."""


class ProfileStore:
    def __init__(self, path: str | Path = ":memory:") -> None:
        self.path = str(path)
        self._db = open_db(self.path)
        self._db.execute("""CREATE TABLE IF NOT EXISTS interactions (
            id INTEGER PRIMARY KEY AUTOINCREMENT, user TEXT NOT NULL, day TEXT NOT NULL,
            at REAL NOT NULL, request TEXT NOT NULL, outcome TEXT NOT NULL)""")
        self._db.execute("""CREATE TABLE IF NOT EXISTS summaries (
            user TEXT NOT NULL, day TEXT NOT NULL, summary TEXT NOT NULL, updated REAL NOT NULL,
            PRIMARY KEY (user, day))""")

    def close(self) -> None:
        self._db.close()

    def log(self, user: str, day: date | str, request: str, outcome: str = "") -> None:
        """Record one request and what was done about it, with secrets and identifiers the
        user said redacted (:func:`~.sensitive.redact`): the log feeds summaries a model writes
        and reads back, so it must not keep a door code said once in passing."""
        with self._db:
            self._db.execute(
                "INSERT INTO interactions(user, day, at, request, outcome) VALUES (?, ?, ?, ?, ?)",
                (user, str(day), time.time(), redact(request.strip()), redact(outcome.strip())),
            )

    def interactions(self, user: str, day: date | str) -> list[tuple[str, str]]:
        rows = self._db.execute(
            "SELECT request, outcome FROM interactions WHERE user = ? AND day = ? ORDER BY id",
            (user, str(day)),
        ).fetchall()
        return [(r, o) for r, o in rows]

    def days_logged(self, user: str) -> list[str]:
        rows = self._db.execute(
            "SELECT DISTINCT day FROM interactions WHERE user = ? ORDER BY day", (user,)
        )
        return [r[0] for r in rows.fetchall()]

    def set_summary(self, user: str, day: date | str, summary: str) -> None:
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO summaries(user, day, summary, updated) VALUES (?, ?, ?, ?)",
                (user, str(day), summary.strip(), time.time()),
            )

    def summary(self, user: str) -> str:
        """The overall profile ('' if none yet)."""
        row = self._db.execute(
            "SELECT summary FROM summaries WHERE user = ? AND day = ?", (user, OVERALL)
        ).fetchone()
        return row[0] if row else ""

    def daily(self, user: str, last: int = 7) -> list[tuple[str, str]]:
        """The ``last`` most recent daily summaries, oldest first."""
        rows = self._db.execute(
            "SELECT day, summary FROM summaries WHERE user = ? AND day != ? "
            "ORDER BY day DESC LIMIT ?",
            (user, OVERALL, last),
        ).fetchall()
        return [(d, s) for d, s in reversed(rows)]


@dataclass
class ProfileUpdate:
    daily: str
    overall: str
    usage: Usage


class ProfileBuilder:
    """Summarises a day's interactions, then folds the day into the overall profile."""

    def __init__(self, llm: LLMClient, store: ProfileStore) -> None:
        self.llm = llm
        self.store = store

    async def summarize_day(self, user: str, day: date | str) -> ProfileUpdate:
        items = self.store.interactions(user, day)
        if not items:
            raise ValueError(f"no interactions of user {user!r} on {day}")
        usage = Usage()
        log = "\n".join(f"- {r}" + (f" -> {o}" if o else "") for r, o in items)
        daily = await self._ask(load_prompt("profile_day").substitute(day=str(day), log=log), usage)
        self.store.set_summary(user, day, daily)
        previous = self.store.summary(user) or "(no profile yet)"
        overall = await self._ask(
            load_prompt("profile_overall").substitute(previous=previous, day=str(day), daily=daily),
            usage,
        )
        self.store.set_summary(user, OVERALL, overall)
        return ProfileUpdate(daily, overall, usage)

    async def _ask(self, prompt: str, usage: Usage) -> str:
        result = await self.llm.chat([{"role": "user", "content": prompt}])
        usage.add(result.usage)
        text = (result.message.get("content") or "").strip()
        if not text:
            raise ValueError("the model returned an empty summary")
        return text
