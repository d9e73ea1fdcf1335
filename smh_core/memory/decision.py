"""The memory decision step of MemHome: ``memory:`` / ``memory: delete`` / ``rewrite:`` /
``no-rewrite``, with the paper's rules enforced in code as well as in the prompt.

A model may propose storing something it must not (a phone number, a lock code, an API key,
a one-off request, a fact with nothing about the home (:mod:`.home_topic`), or anything the
user did not explicitly ask to remember); the guard vetoes such writes, records why, and the request continues as
``no-rewrite``. Only then is the memory bank touched, and the (possibly rewritten) command goes
on to the agent. Secrets and identifiers are found by :mod:`smh_core.memory.sensitive`, which
fails closed on memories about getting in (:mod:`smh_core.memory.access`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from smh_core.llm.prompts import load_prompt
from smh_core.llm.usage import Usage

from .home_topic import about_home, one_slip
from .store import MemoryBank

if TYPE_CHECKING:  # the client pulls in openai (0.5 s); the runner only needs parse_decision
    from smh_core.llm.client import LLMClient

Kind = Literal["memory_add", "memory_delete", "rewrite", "no_rewrite", "invalid"]

SECRET = "secret or credential"
IDENTIFIER = "personal identifier"
TEMPORARY = "temporary request"
NOT_EXPLICIT = "no explicit request to remember"
NOT_DEVICE = "not device-related"
_TEMPORARY = re.compile(
    r"just this once|only this time|this time only|for now|for tonight|today only|"
    r"right now only|temporar|这次|这一次|暂时|今天先|临时",
    re.I,
)
_EXPLICIT = re.compile(
    r"remember|memori[sz]e|from now on|always|every time|keep in mind|note that|forget|"
    r"bear in mind|make a note|(?:note|jot|write) (?:this|that|it) down|save (?:this|that|it)\b|"
    r"going forward|in (?:the )?future|\bnote\s*:|"
    r"keep (?:this|that|it) in mind|remind me|don'?t forget|"
    # an English verb of keeping with what is kept ("store this", "hold on to this",
    # "keep track of this", "file this away", "here's ..., keep it", "learn ...'s rhyme")
    r"\b(?:store|keep|file|hold\s+on\s+to|hang\s+on\s+to|log|record|keep\s+track\s+of|retain|"
    r"learn|add)\s+(?:this|that|it|these)\b|\blearn\s+\w+['’]s\b|"
    r"\b(?:jot|write|note|put)\s+(?:it\s+|this\s+|that\s+)?down\b|\bfor\s+your\s+(?:memory|records|notes)\b|"
    # "note the ...", "kindly note", and corrections of what was remembered
    r"^\W*(?:kindly\s+|please\s+)?note\b|\b(?:kindly|please)\s+note\b|\bnote\s+(?:the|that|this|we|our|my)\b|"
    r"\b(?:actually\s+)?make\s+that\b|\b(?:update|amend|correct|change|fix)\s+(?:the|your|my|that)\s+"
    r"(?:memory|note|notes|entry)\b|\bcorrection\s+to\s+what\s+you\b|\byou\s+had\s+[^.]{1,60}\bwrong\b|"
    r"\bmemory\s+bank\b|\b(?:add|put)\s+(?:this|that|it)\s+"
    r"(?:to|in|into)\s+(?:your\s+)?(?:memory|notes)\b|"
    # "remember" in the languages the topic detector reads (data/device_words.txt)
    r"merk(?:e|t)? (?:dir|euch|ihnen)|denk (?:daran|dran)|vergiss (?:das )?nicht|"
    r"souviens[\s\-]toi|rappelle[\s\-]toi|retiens|n'?oublie pas|"
    r"acu[ée]rdate|recuerd[ae]|no (?:te )?olvides|ten en cuenta|"
    r"ricorda(?:ti|te)?|tieni a mente|non dimenticare|"
    r"lembr[ae](?:[\s\-](?:te|se))?|n[ãa]o (?:te )?esque[çc]as?|"
    r"onthoud|vergeet niet|denk eraan|\bhusk\b|kom ihåg|glöm inte|glem ikke|"
    r"zapami[ęe]taj|pami[ęe]taj|zapamatuj|pamatuj|nezapome[ňn]|"
    r"hat[ıi]rla|unutma|akl[ıi]nda tut|\bmuista\b|запомни|помни|запиши|не забудь|"
    r"θυμήσου|να θυμάσαι|μην ξεχάσεις|\bspeicher(?:n|e|t)?\b|notier(?:e|en)?\b|merk dir|"
    r"\banota\b|apunta|annota|noteer|\banote\b|"
    r"记住|记得|以后|每次|总是|忘掉|忘记|删除.*记忆",
    re.I,
)
_REMEMBER_SHORT = re.compile(r"\b(?:rm+b(?:e?r)?|rem+b(?:e?r|a)?|rememba)\b", re.I)
"""How "remember" is shortened in a text ("rmbr", "remba"): with one slip of the keyboard
("rember", "remeber"), still an explicit request."""
_SUBJECT = re.compile(
    r"light|lamp|ac\b|air ?con|conditioner|fan|heater|curtain|blind|tv|speaker|screen|"
    r"lock|vacuum|cleaner|washer|oven|humidif|purifier|temperature|brightness|volume|"
    r"degree|mode|灯|空调|风扇|热水器|窗帘|电视|音箱|门锁|扫地|洗衣|烤箱|加湿|净化|温度|亮度|音量|度|模式|"
    # German (the memhome suite's words for devices and settings, none of them a value's)
    r"leuchte|licht|strahler|einbau|klima|ventilator|lüfter|fernseher|lautsprecher|display|"
    r"schloss|sauger|roboter|vorhang|gardine|rollladen|jalousie|wasch|trockner|ofen|befeuchter|"
    r"reiniger|pumpe|warmwasser|würfel|helligkeit|lautstärke|temperatur|stufe|programm|"
    # Spanish
    r"lámpara|luz|foco|aplique|bombilla|tira|ventilador|aire|climatizador|tele|altavoz|pantalla|"
    r"cerradura|aspirador|friegasuelos|cortina|visillo|persiana|estor|lavadora|secadora|horno|"
    r"humidificador|purificador|termo|bomba|brillo|volumen|velocidad|apertura|nivel|modo|"
    # French
    r"lumière|plafonnier|projecteur|applique|ampoule|ruban|corniche|lampadaire|ventilateur|clim|"
    r"rafraîchisseur|télé|enceinte|écran|serrure|aspirateur|rideau|voilage|volet|lave-|sèche-|"
    r"four vapeur|humidificateur|purificateur|chauffe-eau|pompe|thermomètre|luminosité|vitesse|"
    r"ouverture|programme|niveau|températ|balayage|inclinaison|"
    # Chinese, beyond the words above
    r"机|器|帘|屏|泵|冰箱|冰柜|色温|风速|档|位置|湿度|水量|水温|角度|程序",
    re.I,
)
"""The device words that decide whether a new preference replaces a stored one (MemHome's
update), in English, Chinese and the languages the memhome suite is written in; no word of
a setting's value, so two preferences that differ in value only name the same subject. English
and Chinese words unchanged, so the English suite's banks stay as generated."""


@dataclass
class Decision:
    kind: Kind
    content: str = ""

    def text(self) -> str:
        return {
            "memory_add": f"memory: {self.content}",
            "memory_delete": f"memory: delete {self.content}",
            "rewrite": f"rewrite: {self.content}",
            "no_rewrite": "no-rewrite",
        }.get(self.kind, self.content)


def parse_decision(output: str) -> Decision:
    text = output.strip().splitlines()[0].strip() if output.strip() else ""
    low = text.lower()
    if low.startswith("no-rewrite") or low.startswith("no rewrite"):
        return Decision("no_rewrite")
    m = re.match(r"(memory|rewrite)\s*[:：]\s*(.*)$", text, re.I | re.S)
    if not m:
        return Decision("invalid", text)
    head, body = m.group(1).lower(), m.group(2).strip()
    if head == "rewrite":
        return Decision("rewrite", body) if body else Decision("invalid", text)
    d = re.match(r"(delete|remove|删除)\s*[:：]?\s*(.*)$", body, re.I | re.S)
    if d:
        return Decision("memory_delete", d.group(2).strip())
    return Decision("memory_add", body) if body else Decision("invalid", text)


@dataclass(frozen=True)
class Veto:
    """Why a memory write was refused: the rule broken and, for sensitive data, the kinds found
    (``phone_number``, ``access_code``...). Never the data itself: a veto goes back to the
    model and into traces, which must not end up holding the secret the memory refused."""

    rule: str
    kinds: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.rule} ({', '.join(self.kinds)})" if self.kinds else self.rule


def check_write(query: str, content: str) -> Veto | None:
    """The MemHome write rules, in order: no secret or personal identifier in the proposed
    memory or in the user's request (the model may have paraphrased it away from one but not
    the other), no one-off request, an explicit request to remember, and content about the home
    (:func:`~.home_topic.about_home`; the refusal keeps its name, ``NOT_DEVICE``).
    ``None`` if the memory may be stored."""
    # imported here: their patterns take 50 and 30 ms to compile, and most runs never write a
    # memory
    from .access import about_access
    from .sensitive import find_sensitive

    findings = find_sensitive(content) + find_sensitive(query)
    if findings:
        kinds = tuple(dict.fromkeys(f.kind for f in findings))
        return Veto(SECRET if any(f.category == "secret" for f in findings) else IDENTIFIER, kinds)
    if _TEMPORARY.search(query):
        return Veto(TEMPORARY)
    if not (
        _EXPLICIT.search(query)
        or _REMEMBER_SHORT.search(query)
        or any(one_slip(w.lower(), "remember") for w in re.findall(r"[A-Za-z]{7,9}", query))
    ):
        return Veto(NOT_EXPLICIT)
    if not about_home(content) and not about_access(
        content
    ):  # doors, keys and codes are the home's too
        return Veto(NOT_DEVICE)
    return None


def write_veto(query: str, content: str) -> str | None:
    """The rule a proposed memory write breaks (see :func:`check_write`), or ``None`` if it may
    be stored."""
    veto = check_write(query, content)
    return None if veto is None else veto.rule


@dataclass
class DecisionResult:
    decision: Decision
    command: str  # what goes on to the agent
    veto: str | None
    usage: Usage
    retrieved: list[str]


class MemoryRewriter:
    def __init__(self, llm: LLMClient, bank: MemoryBank, k: int = 5) -> None:
        self.llm = llm
        self.bank = bank
        self.k = k

    async def decide(
        self, user: str, query: str, room: str = "", devices: str = ""
    ) -> DecisionResult:
        retrieved = [m.content for m, _ in self.bank.retrieve(user, query, self.k)]
        memories = "\n".join(f"- {c}" for c in retrieved) or "(none)"
        system = load_prompt("memory_decision").substitute(
            room=room or "unknown", devices=devices or "(not given)", memories=memories
        )
        result = await self.llm.chat(
            [{"role": "system", "content": system}, {"role": "user", "content": query}]
        )
        decision = parse_decision(result.message.get("content") or "")
        veto = None
        command = query
        if decision.kind == "memory_add":
            veto = write_veto(query, decision.content)
            if veto is None:
                existing = self.bank.find(user, decision.content)
                if existing is not None and _same_subject(existing.content, decision.content):
                    self.bank.update(user, existing.id, decision.content)
                else:
                    self.bank.add(user, decision.content)
            else:
                decision = Decision("no_rewrite")
        elif decision.kind == "memory_delete":
            target = self.bank.find(user, decision.content)
            if target is not None:
                self.bank.delete(user, target.id)
        elif decision.kind == "rewrite":
            command = decision.content
        return DecisionResult(decision, command, veto, result.usage, retrieved)


def _same_subject(a: str, b: str) -> bool:
    """Two preferences about the same device words (an update rather than a new memory)."""
    da = {m.group(0).lower() for m in _SUBJECT.finditer(a)}
    db = {m.group(0).lower() for m in _SUBJECT.finditer(b)}
    return bool(da) and da == db


def bank_after(memory: Sequence[str], decision: str | None) -> list[str]:
    """The memory bank after a MemHome decision, as the paper's pipeline applies it: the bank
    (an in-memory SQLite :class:`MemoryBank` seeded with ``memory``) executes ``memory:`` outputs
    only, with :class:`MemoryRewriter`'s semantics (a write about the
    same devices as its closest entry replaces it, ``memory: delete`` removes the closest entry)
    but without its write veto: the benchmark scores what the model decided."""
    bank = MemoryBank()
    try:
        for entry in memory:
            bank.add("user", entry)
        parsed = parse_decision(decision or "")
        memory_op = parsed.kind in ("memory_add", "memory_delete") and parsed.content
        closest = bank.find("user", parsed.content) if memory_op else None
        if parsed.kind == "memory_add":
            if closest is not None and _same_subject(closest.content, parsed.content):
                bank.update("user", closest.id, parsed.content)
            else:
                bank.add("user", parsed.content)
        elif parsed.kind == "memory_delete" and closest is not None:
            bank.delete("user", closest.id)
        return [m.content for m in bank.all("user")]
    finally:
        bank.close()
