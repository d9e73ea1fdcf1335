"""A persistent memory bank per user, in SQLite.

SQLite in WAL mode with a busy timeout lets several processes (benchmark workers, the HA
conversation agent) write the same file without losing entries; every operation is one short
transaction. Retrieval ranks memories lexically (BM25 over :func:`metrics.tokenize` tokens, so
Chinese works per character); an ``embed`` function can replace it with cosine similarity.
"""

from __future__ import annotations

import math
import sqlite3
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .metrics import tokenize

Embedder = Callable[[str], Sequence[float]]


@dataclass(frozen=True)
class Memory:
    id: int
    user: str
    content: str
    created: float
    updated: float


def open_db(path: str) -> sqlite3.Connection:
    """A SQLite connection in autocommit mode that tolerates concurrent users: WAL for a file
    (readers never block the writer), a 30 s busy timeout, usable from HA's executor threads."""
    db = sqlite3.connect(path, timeout=30.0, isolation_level=None, check_same_thread=False)
    if path != ":memory:":
        db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA busy_timeout=30000")
    return db


class MemoryBank:
    def __init__(self, path: str | Path = ":memory:", embed: Embedder | None = None) -> None:
        self.path = str(path)
        self.embed = embed
        self._db = open_db(self.path)
        self._db.execute("""CREATE TABLE IF NOT EXISTS memories (
            id INTEGER PRIMARY KEY AUTOINCREMENT, user TEXT NOT NULL, content TEXT NOT NULL,
            created REAL NOT NULL, updated REAL NOT NULL)""")
        self._db.execute("CREATE INDEX IF NOT EXISTS memories_user ON memories(user)")

    def close(self) -> None:
        self._db.close()

    def add(self, user: str, content: str) -> Memory:
        content = content.strip()
        if not content:
            raise ValueError("memory content is empty")
        now = time.time()
        with self._db:
            cur = self._db.execute(
                "INSERT INTO memories(user, content, created, updated) VALUES (?, ?, ?, ?)",
                (user, content, now, now),
            )
        assert cur.lastrowid is not None  # an INSERT always sets it
        return Memory(cur.lastrowid, user, content, now, now)

    def update(self, user: str, memory_id: int, content: str) -> Memory:
        now = time.time()
        with self._db:
            cur = self._db.execute(
                "UPDATE memories SET content = ?, updated = ? WHERE id = ? AND user = ?",
                (content.strip(), now, memory_id, user),
            )
        if cur.rowcount == 0:
            raise KeyError(f"user {user!r} has no memory {memory_id}")
        return self.get(user, memory_id)

    def delete(self, user: str, memory_id: int) -> None:
        with self._db:
            cur = self._db.execute(
                "DELETE FROM memories WHERE id = ? AND user = ?", (memory_id, user)
            )
        if cur.rowcount == 0:
            raise KeyError(f"user {user!r} has no memory {memory_id}")

    def get(self, user: str, memory_id: int) -> Memory:
        row = self._db.execute(
            "SELECT id, user, content, created, updated FROM memories WHERE id = ? AND user = ?",
            (memory_id, user),
        ).fetchone()
        if row is None:
            raise KeyError(f"user {user!r} has no memory {memory_id}")
        return Memory(*row)

    def all(self, user: str) -> list[Memory]:
        rows = self._db.execute(
            "SELECT id, user, content, created, updated FROM memories WHERE user = ? ORDER BY id",
            (user,),
        ).fetchall()
        return [Memory(*r) for r in rows]

    def retrieve(self, user: str, query: str, k: int = 5) -> list[tuple[Memory, float]]:
        """The ``k`` best-matching memories with scores, best first; ties keep insertion order."""
        memories = self.all(user)
        if not memories:
            return []
        if self.embed is not None:
            q = self.embed(query)
            scored = [(m, _cosine(q, self.embed(m.content))) for m in memories]
        else:
            scored = list(
                zip(
                    memories,
                    _bm25(tokenize(query), [tokenize(m.content) for m in memories]),
                    strict=True,
                )
            )
        ranked = sorted(enumerate(scored), key=lambda x: (-x[1][1], x[0]))
        return [(m, s) for _, (m, s) in ranked[:k] if s > 0]

    def find(self, user: str, content: str) -> Memory | None:
        """The stored memory most similar to ``content`` (for updates and deletions by text)."""
        best = self.retrieve(user, content, k=1)
        return best[0][0] if best else None


def _bm25(query: list[str], docs: list[list[str]], k1: float = 1.5, b: float = 0.75) -> list[float]:
    n = len(docs)
    avg = sum(len(d) for d in docs) / n or 1.0
    df = Counter(t for d in docs for t in set(d))
    scores = []
    for d in docs:
        tf = Counter(d)
        s = 0.0
        for t in set(query):
            if t not in tf:
                continue
            idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
            s += idf * tf[t] * (k1 + 1) / (tf[t] + k1 * (1 - b + b * len(d) / avg))
        scores.append(s)
    return scores


def _cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0
