"""MemHome's text metrics and PRISM's reward, as scoring functions.

* Token F1 and BLEU-1 compare a predicted output with the reference over tokens: words for
  alphabetic text, single characters for CJK text (Chinese has no spaces, so the paper scores
  it per character).
* :func:`prism_reward` is PRISM's training reward: a prefix gate (wrong ``memory`` /
  ``rewrite`` / ``no-rewrite`` prefix gives 0), a veto product over per-dimension binary
  judgments (any failed dimension zeroes it), and an optional prefix-confidence term mapped to
  (0, 1) by ``(tanh(logit(p)) + 1) / 2`` and mixed with weight ``lam`` (0.3 in the paper).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]")
_TOKEN = re.compile(
    r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]|[^\W_]+(?:[.'][^\W_]+)*",
    re.UNICODE,
)

PREFIXES = ("memory", "rewrite", "no-rewrite")


def tokenize(text: str) -> list[str]:
    """Lower-cased word tokens; each CJK character is its own token."""
    return [t.lower() for t in _TOKEN.findall(text)]


def token_f1(prediction: str, reference: str) -> float:
    pred, ref = tokenize(prediction), tokenize(reference)
    if not pred and not ref:
        return 1.0
    common = sum((Counter(pred) & Counter(ref)).values())
    if common == 0:
        return 0.0
    precision, recall = common / len(pred), common / len(ref)
    return 2 * precision * recall / (precision + recall)


def bleu1(prediction: str, reference: str) -> float:
    """Clipped unigram precision times the brevity penalty ``exp(1 - |ref| / |pred|)``
    (1 when the prediction is longer than the reference)."""
    pred, ref = tokenize(prediction), tokenize(reference)
    if not pred:
        return 1.0 if not ref else 0.0
    clipped = sum((Counter(pred) & Counter(ref)).values())
    p1 = clipped / len(pred)
    bp = 1.0 if len(pred) > len(ref) else math.exp(1 - len(ref) / len(pred))
    return bp * p1


def output_prefix(output: str) -> str | None:
    """``memory``, ``rewrite`` or ``no-rewrite`` (the decision's prefix), else ``None``."""
    head = output.strip().lower()
    if head.startswith("no-rewrite"):
        return "no-rewrite"
    for p in ("memory", "rewrite"):
        if head.startswith(p + ":") or head.startswith(p + "："):
            return p
    return None


def prefix_confidence(prefix_logprobs: Sequence[float]) -> float:
    """Map the summed log-probabilities of the reference prefix tokens into (0, 1)."""
    p = math.exp(sum(prefix_logprobs))
    p = min(max(p, 1e-12), 1 - 1e-12)
    logit = math.log(p / (1 - p))
    return (math.tanh(logit) + 1) / 2


def prism_reward(
    prediction: str,
    reference: str,
    judgments: Sequence[int | bool],
    prefix_logprobs: Sequence[float] | None = None,
    lam: float = 0.3,
) -> float:
    """PRISM reward for one sample. ``judgments`` are the per-dimension binary consistency
    verdicts (key information, structure/intent, memory rejection)."""
    if output_prefix(prediction) is None or output_prefix(prediction) != output_prefix(reference):
        return 0.0
    dimension = 1.0
    for j in judgments:
        dimension *= 1.0 if j else 0.0
    if prefix_logprobs is None:
        return dimension
    return lam * prefix_confidence(prefix_logprobs) + (1 - lam) * dimension
