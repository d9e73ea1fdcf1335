"""Speech to text with pocketsphinx's bundled US-English acoustic model and a home's language
model (:mod:`.vocabulary`). Offline, CPU-only, deterministic: the same audio gives the same
transcript."""

from __future__ import annotations

import os
import tempfile
import threading

from smh_core.homeenv.model import Home

from .audio import RATE
from .vocabulary import home_language_model


class Recognizer:
    """One pocketsphinx decoder searching ``home``'s language model (or the general English
    model with ``home=None``). Decoding is serialized: a decoder holds one utterance at a time."""

    def __init__(self, home: Home | None = None) -> None:
        from pocketsphinx import Decoder  # imported here: the package is only needed for voice

        self._lock = threading.Lock()
        if home is None:
            self._decoder = Decoder(samprate=RATE, loglevel="FATAL")
            return
        text = home_language_model(home)
        fd, path = tempfile.mkstemp(suffix=".arpa", prefix="smh-lm-")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            self._decoder = Decoder(samprate=RATE, lm=path, loglevel="FATAL")
        finally:
            os.unlink(path)

    def transcribe(self, pcm: bytes) -> str:
        """The words heard in 16 kHz 16-bit mono PCM ("" for silence or nothing recognizable)."""
        if len(pcm) % 2:
            raise ValueError("16-bit PCM must have an even number of bytes")
        with self._lock:
            self._decoder.start_utt()
            self._decoder.process_raw(pcm, full_utt=True)
            self._decoder.end_utt()
            hyp = self._decoder.hyp()
        return " ".join(w for w in (hyp.hypstr.split() if hyp else []) if not w.startswith(("<", "[")))
