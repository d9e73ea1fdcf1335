"""Memory bank persistence and concurrency, the decision step, and MemHome/PRISM metrics."""

from __future__ import annotations

import math
import multiprocessing as mp

import pytest

from smh_core.llm.client import LLMClient, LLMConfig
from smh_core.memory.decision import Decision, MemoryRewriter, parse_decision, write_veto
from smh_core.memory.metrics import (
    bleu1,
    output_prefix,
    prefix_confidence,
    prism_reward,
    token_f1,
    tokenize,
)
from smh_core.memory.store import MemoryBank
from tests.support.fake_openai import FakeOpenAI


def test_bank_survives_restart(tmp_path):
    path = tmp_path / "mem.db"
    bank = MemoryBank(path)
    m = bank.add("alice", "Bedroom AC at 25 degrees when I sleep")
    bank.add("bob", "Living room lights warm")
    bank.close()
    again = MemoryBank(path)
    assert [x.content for x in again.all("alice")] == ["Bedroom AC at 25 degrees when I sleep"]
    again.update("alice", m.id, "Bedroom AC at 24 degrees when I sleep")
    assert again.get("alice", m.id).content.endswith("24 degrees when I sleep")
    with pytest.raises(KeyError):
        again.delete("bob", m.id)  # users are isolated
    again.delete("alice", m.id)
    assert again.all("alice") == []


def _writer(path: str, worker: int, n: int) -> None:
    bank = MemoryBank(path)
    for i in range(n):
        bank.add("u", f"worker {worker} preference {i}")
    bank.close()


def test_concurrent_writers_lose_nothing(tmp_path):
    path = str(tmp_path / "mem.db")
    MemoryBank(path).close()
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(path, w, 60)) for w in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    contents = [m.content for m in MemoryBank(path).all("u")]
    assert len(contents) == 240 == len(set(contents))


def test_retrieval_ranks_lexically_and_by_embedding():
    bank = MemoryBank()
    bank.add("u", "kitchen light brightness 80 when cooking")
    bank.add("u", "bedroom air conditioner 25 degrees at night")
    bank.add("u", "study lamp warm white")
    top = bank.retrieve("u", "set the bedroom air conditioner like at night", k=2)
    assert top[0][0].content.startswith("bedroom air conditioner")
    assert bank.retrieve("u", "zzz", k=3) == []
    zh = MemoryBank()
    zh.add("u", "客厅空调设置25度")
    zh.add("u", "卧室灯调暗")
    assert zh.retrieve("u", "打开空调", k=1)[0][0].content == "客厅空调设置25度"
    vec = MemoryBank(embed=lambda t: [t.count("a"), t.count("b"), 1.0])
    vec.add("u", "bbbb")
    vec.add("u", "aaaa")
    assert vec.retrieve("u", "aa", k=1)[0][0].content == "aaaa"


@pytest.mark.parametrize(
    ("text", "kind", "content"),
    [
        (
            "memory: bedroom AC 25 degrees at bedtime",
            "memory_add",
            "bedroom AC 25 degrees at bedtime",
        ),
        ("memory: delete bedroom AC 25 degrees", "memory_delete", "bedroom AC 25 degrees"),
        (
            "rewrite: set the living room AC to 26 degrees",
            "rewrite",
            "set the living room AC to 26 degrees",
        ),
        ("no-rewrite", "no_rewrite", ""),
        ("memory：客厅空调25度", "memory_add", "客厅空调25度"),
        ("Sure, I'll remember.", "invalid", "Sure, I'll remember."),
        ("rewrite:", "invalid", "rewrite:"),
    ],
)
def test_parse_decision(text, kind, content):
    d = parse_decision(text)
    assert (d.kind, d.content) == (kind, content)
    if kind != "invalid":
        assert parse_decision(d.text()) == d


@pytest.mark.parametrize(
    ("query", "content", "veto"),
    [
        ("Remember I like the bedroom AC at 25 degrees", "bedroom AC at 25 degrees", None),
        ("Remember my phone number 555-123-4567", "phone 555-123-4567", "personal identifier"),
        ("Just this once, set the lamp to 10% and remember it", "lamp 10%", "temporary request"),
        (
            "Set the bedroom AC to 25 degrees",
            "bedroom AC at 25 degrees",
            "no explicit request to remember",
        ),
        ("Remember my cat is called Tom", "cat is called Tom", "not device-related"),
        ("记住我以后开空调都设25度", "空调25度", None),
    ],
)
def test_write_veto(query, content, veto):
    assert write_veto(query, content) == veto


async def test_memory_add_then_use_via_llm(socket_enabled, tmp_path):
    bank = MemoryBank(tmp_path / "m.db")
    script = [
        {"content": "memory: bedroom AC at 25 degrees at sleep time"},
        {"content": "rewrite: set the bedroom AC to 25 degrees"},
        {"content": "memory: my phone is 555-123-4567 for the lamp"},
    ]
    async with FakeOpenAI(script) as server:
        rw = MemoryRewriter(
            LLMClient(LLMConfig(base_url=server.base_url, api_key="k", max_retries=0)), bank
        )
        first = await rw.decide(
            "u", "Remember: at sleep time I want the bedroom AC at 25 degrees", room="Bedroom"
        )
        second = await rw.decide("u", "sleep time", room="Bedroom")
        third = await rw.decide("u", "remember my phone 555-123-4567 for the lamp")
    assert first.decision.kind == "memory_add" and first.veto is None
    assert [m.content for m in bank.all("u")] == ["bedroom AC at 25 degrees at sleep time"]
    assert (
        "bedroom AC at 25 degrees" in server.requests[1]["messages"][0]["content"]
    )  # retrieved into the prompt
    assert second.command == "set the bedroom AC to 25 degrees"
    assert third.veto == "personal identifier" and third.decision == Decision("no_rewrite")
    assert len(bank.all("u")) == 1


def test_tokenize_and_metrics():
    assert tokenize("Turn ON the living-room AC") == ["turn", "on", "the", "living", "room", "ac"]
    assert tokenize("打开客厅空调") == ["打", "开", "客", "厅", "空", "调"]
    assert token_f1("turn on the AC", "turn on the AC") == 1.0
    assert token_f1("turn on the AC", "turn off the fan") == pytest.approx(0.5)
    assert token_f1("", "") == 1.0 and token_f1("x", "") == 0.0
    # BLEU-1: 3 of 3 predicted unigrams match; brevity penalty exp(1 - 4/3)
    assert bleu1("turn on AC", "turn on the AC") == pytest.approx(math.exp(1 - 4 / 3))
    assert bleu1("turn on the the AC", "turn on the AC") == pytest.approx(4 / 5)
    assert bleu1("打开空调", "打开客厅空调") == pytest.approx(math.exp(1 - 6 / 4))


def test_prism_reward():
    assert output_prefix("rewrite: x") == "rewrite" and output_prefix("no-rewrite") == "no-rewrite"
    assert output_prefix("memory：x") == "memory" and output_prefix("ok") is None
    assert prism_reward("rewrite: a", "memory: a", [1, 1, 1]) == 0.0  # prefix gate
    assert prism_reward("rewrite: a", "rewrite: b", [1, 0, 1]) == 0.0  # veto
    assert prism_reward("rewrite: a", "rewrite: b", [1, 1, 1]) == 1.0
    assert prefix_confidence([math.log(0.5)]) == pytest.approx(0.5)
    r = prism_reward(
        "rewrite: a", "rewrite: b", [1, 1, 1], prefix_logprobs=[math.log(0.9)], lam=0.3
    )
    assert r == pytest.approx(0.3 * (math.tanh(math.log(9)) + 1) / 2 + 0.7)
