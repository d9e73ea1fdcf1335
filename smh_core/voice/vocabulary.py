"""A home's language model for the recognizer: its own names in the sentence shapes of
``phrases.yaml``, as a trigram ARPA model pocketsphinx loads.

Why a home-specific model: pocketsphinx's general English model hears "turn on the kitchen
light" spoken by espeak-ng as "the" or worse; restricting the search to what people say to
*this* home (its device and room names, settings, option values, numbers, the benchmark's
verbs) makes home commands recognizable. Words the acoustic model's dictionary lacks are left
out (their sentences are kept without them). Deterministic: the same home gives the same bytes.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable
from functools import cache
from importlib.resources import files

import yaml

from smh_core.homeenv.model import Device, Home

from .words import number_words, spoken_words

NUMBERS = [*range(0, 101), *range(110, 1000, 10), *range(1000, 10001, 100)]
"""The numbers whose words the model learns (percentages, degrees, kelvins, minutes)."""
DISCOUNT = 0.5
"""Absolute discount of seen n-gram counts; the freed mass goes to shorter histories."""


@cache
def phrases() -> dict[str, list[str]]:
    """The sentence shapes (``phrases.yaml``)."""
    return yaml.safe_load(files(__package__).joinpath("phrases.yaml").read_text(encoding="utf-8"))


def _words(text: str) -> str:
    return " ".join(spoken_words(text))


def _settings(device: Device) -> list[tuple[str, list[str]]]:
    """A device's settings as words ("fan speed", "alarm volume"), each with its named values."""
    out = []
    for locator, attribute in device.attributes_by_locator():
        name = locator.rsplit(".", 1)[-1]
        for suffix in ("_enabled", "_level"):  # how people say them: "oscillation", "fan speed"
            name = name.removesuffix(suffix) if name != "volume_level" else name
        options = [_words(str(o)) for o in attribute.options or [] if isinstance(o, str)]
        out.append((_words(name), options))
    return out


def corpus(home: Home) -> list[str]:
    """Training sentences for ``home``: every shape filled with its names, numbers cycled
    through :data:`NUMBERS` (so each number appears in context), plus the numbers alone."""
    shapes = phrases()
    numbers = itertools.cycle([" ".join(number_words(n)) for n in NUMBERS])
    # a room is also called by its last word ("the bedroom" for the Master Bedroom)
    rooms = sorted(
        {_words(r.name) for r in home.rooms}
        | {_words(r.name).split()[-1] for r in home.rooms if _words(r.name)}
    )
    kinds = sorted(
        {_words(d.userdata.subcategory) for d in home.devices}
        | {_words(d.userdata.category) for d in home.devices}
    )
    prefixes = itertools.cycle(shapes["prefixes"])
    out: list[str] = []

    def add(shape: str, **slots: str) -> None:
        text = shape.format(number=next(numbers), **slots)
        out.append(_words(f"{next(prefixes)} {text}"))

    for device in home.devices:
        name = _words(device.name)
        for shape in shapes["device"]:
            add(shape, device=name)
        for i, (setting, options) in enumerate(_settings(device)):
            for j, shape in enumerate(shapes["setting"]):
                add(
                    shape,
                    device=name,
                    attribute=setting,
                    option=options[(i + j) % len(options)] if options else "on",
                )
    for room in rooms:
        for i, shape in enumerate(shapes["room"]):
            add(shape, room=room, kind=kinds[i % len(kinds)])
    options = itertools.cycle(
        sorted({o for d in home.devices for _, opts in _settings(d) for o in opts}) or ["on"]
    )
    for i, (kind, shape) in enumerate(itertools.product(kinds, shapes["general"])):
        add(
            shape.replace("{option}", next(options), 1),
            kind=kind,
            room=rooms[i % len(rooms)] if rooms else "house",
            option=next(options),
        )
    out += [" ".join(number_words(n)) for n in NUMBERS]
    return out


@cache
def dictionary_words() -> frozenset[str]:
    """Every word pocketsphinx's bundled US-English dictionary can pronounce."""
    from pocketsphinx import get_model_path

    words = set()
    with open(f"{get_model_path()}/en-us/cmudict-en-us.dict", encoding="utf-8") as f:
        for line in f:
            word = line.split(" ", 1)[0]
            words.add(word.split("(", 1)[0])
    return frozenset(words)


def known(sentences: Iterable[str]) -> list[list[str]]:
    """The sentences as word lists, words outside the dictionary left out."""
    vocab = dictionary_words()
    return [kept for s in sentences if (kept := [w for w in s.split() if w in vocab])]


def arpa(sentences: list[list[str]], order: int = 3) -> str:
    """A back-off n-gram model of ``sentences`` in ARPA format: absolute discounting on seen
    n-grams, the freed mass spread over the next-shorter history (Katz-style back-off weights),
    add-one unigrams. Lines are sorted, so equal input gives equal text."""
    counts: list[Counter[tuple[str, ...]]] = [Counter() for _ in range(order + 1)]
    for words in sentences:
        padded = ["<s>", *words, "</s>"]
        for n in range(1, order + 1):
            for i in range(len(padded) - n + 1):
                counts[n][tuple(padded[i : i + n])] += 1
    vocab = sorted(w for (w,) in counts[1])
    total = sum(c for (w,), c in counts[1].items() if w != "<s>")
    words = [w for w in vocab if w != "<s>"]  # <s> only starts sentences: it gets no probability
    prob: dict[tuple[str, ...], float] = {
        (w,): (counts[1][(w,)] + 1) / (total + len(words)) for w in words
    }
    history_total: list[Counter[tuple[str, ...]]] = [Counter() for _ in range(order + 1)]
    history_types: list[Counter[tuple[str, ...]]] = [Counter() for _ in range(order + 1)]
    for n in range(2, order + 1):
        for gram, c in counts[n].items():
            history_total[n][gram[:-1]] += c
            history_types[n][gram[:-1]] += 1
        for gram, c in counts[n].items():
            prob[gram] = (c - DISCOUNT) / history_total[n][gram[:-1]]
    backoff: dict[tuple[str, ...], float] = {}
    for n in range(2, order + 1):
        seen_lower: dict[tuple[str, ...], float] = Counter()
        for gram in counts[n]:
            seen_lower[gram[:-1]] += _lower(prob, gram[1:])
        for history, c in history_total[n].items():
            freed = DISCOUNT * history_types[n][history] / c
            backoff[history] = freed / max(1e-9, 1.0 - seen_lower[history])
    lines = ["\\data\\"] + [
        f"ngram {n}={len(counts[n]) if n > 1 else len(vocab)}" for n in range(1, order + 1)
    ]
    for n in range(1, order + 1):
        lines += ["", f"\\{n}-grams:"]
        grams = [(w,) for w in vocab] if n == 1 else sorted(counts[n])
        for gram in grams:
            p = -99.0 if gram == ("<s>",) else math.log10(prob[gram])
            line = f"{p:.6f} {' '.join(gram)}"
            if n < order and gram in backoff:
                line += f" {math.log10(backoff[gram]):.6f}"
            elif n < order and gram != ("</s>",):
                line += " 0.000000"
            lines.append(line)
    return "\n".join(lines + ["", "\\end\\", ""])


def _lower(prob: dict[tuple[str, ...], float], gram: tuple[str, ...]) -> float:
    """P(gram) as the shorter-history model gives it (seen, or backed off further)."""
    if gram in prob or len(gram) == 1:
        return prob.get(gram, 0.0)
    return _lower(prob, gram[1:])  # back-off weight of unseen lower histories is ~1 here


def home_language_model(home: Home, order: int = 3) -> str:
    """The ARPA text of ``home``'s language model."""
    return arpa(known(corpus(home)), order)
