"""Whether a reply declines, in the language of the task it answers.

The verifier passes an infeasible request whose reply declines (:data:`~.answers.REFUSAL`,
English words: "sorry", "cannot", "no such", "already at"). A task written in German,
Spanish, French or Chinese is answered in that language, so its reply is read with that
language's words for the same things (apologising, being unable, the thing not existing, a
limit reached, times that do not add up) as well as the English ones (an agent that answers
in English is read as an English reply is). A language with no list here is read in English
only: the reply then has to decline in English, which fails closed.
"""

from __future__ import annotations

import re

from .answers import REFUSAL

REFUSALS: dict[str, re.Pattern[str]] = {
    "de": re.compile(
        r"\b(?:leider|tut mir leid|entschuldig\w*|(?:kann|können) (?:ich |wir )?(?:\w+ ){0,4}?"
        r"nicht|nicht möglich|unmöglich|geht (?:das )?nicht|gibt es (?:\w+ ){0,3}?kein\w*|"
        r"existiert nicht|(?:stimmt|passt) (?:das )?nicht|widerspr\w*|schon auf voller)\b",
        re.I,
    ),
    "es": re.compile(
        r"\b(?:lo siento|lo lamento|perdona|disculpa|no (?:puedo|podemos|es posible|hay|existe|"
        r"cuadra|coincide|se puede)|imposible|ya (?:está|funciona|va) (?:al|a) (?:máxima|tope|"
        r"toda))\b",
        re.I,
    ),
    "fr": re.compile(
        r"(?:\bdésolée?\b|\bje (?:ne peux|n'arrive) pas\b|\bimpossible\b|\bpas possible\b|"
        r"\bil n'y a (?:pas|aucune?)\b|\bn'existe pas\b|\bne (?:colle|correspond|tombe) pas\b|"
        r"\bdéjà à (?:fond|pleine|plein|son maximum)\b)",
        re.I,
    ),
    "zh": re.compile(
        r"抱歉|对不起|不好意思|无法|没法|不能|做不到|没有|不存在|不对|对不上|冲突|已经.{0,8}(?:最大|满|全速|最高)"
    ),
}
"""Per language: the words of a reply that declines (Chinese has no word boundaries)."""


def declines(reply: str, language: str | None = None) -> bool:
    """Whether ``reply`` declines, in English or in ``language`` (``None``: English)."""
    if REFUSAL.search(reply):
        return True
    pattern = REFUSALS.get((language or "en").casefold())
    return bool(pattern and pattern.search(reply))
