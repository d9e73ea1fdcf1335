"""Word error rate: how far a transcript is from the words that were meant.

WER = (substitutions + deletions + insertions) / words in the reference, from the edit distance
over :func:`~smh_core.voice.words.spoken_words` of both texts (so "22" and "twenty two" agree).
"""

from __future__ import annotations

from dataclasses import dataclass

from .words import spoken_words


@dataclass(frozen=True)
class WordErrors:
    """Edit operations between a reference and a hypothesis, and the reference's length."""

    substitutions: int
    deletions: int
    insertions: int
    reference_words: int

    @property
    def errors(self) -> int:
        return self.substitutions + self.deletions + self.insertions

    @property
    def rate(self) -> float:
        """Errors per reference word (0 for an empty reference heard as nothing, else can pass 1)."""
        if self.reference_words == 0:
            return 0.0 if self.errors == 0 else float(self.errors)
        return self.errors / self.reference_words


def word_errors(reference: str, hypothesis: str) -> WordErrors:
    """Minimum-edit alignment of the two texts' spoken words (Levenshtein over words; among
    equal-cost alignments, substitutions are preferred)."""
    ref, hyp = spoken_words(reference), spoken_words(hypothesis)
    # each cell: (cost, substitutions, deletions, insertions)
    prev = [(j, 0, 0, j) for j in range(len(hyp) + 1)]
    for i in range(1, len(ref) + 1):
        row = [(i, 0, i, 0)]
        for j in range(1, len(hyp) + 1):
            c, s, d, n = prev[j - 1]
            best = (c, s, d, n) if ref[i - 1] == hyp[j - 1] else (c + 1, s + 1, d, n)
            c, s, d, n = prev[j]
            best = min(best, (c + 1, s, d + 1, n))
            c, s, d, n = row[j - 1]
            best = min(best, (c + 1, s, d, n + 1))
            row.append(best)
        prev = row
    _, s, d, n = prev[-1]
    return WordErrors(s, d, n, len(ref))


def wer(reference: str, hypothesis: str) -> float:
    """The word error rate of ``hypothesis`` against ``reference``."""
    return word_errors(reference, hypothesis).rate


def corpus_wer(pairs: list[tuple[str, str]]) -> float:
    """Errors over all reference words of many (reference, hypothesis) pairs (not the mean of
    per-sentence rates, which would overweight short sentences)."""
    counts = [word_errors(r, h) for r, h in pairs]
    total = sum(c.reference_words for c in counts)
    return sum(c.errors for c in counts) / total if total else 0.0
