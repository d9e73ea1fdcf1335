"""A Wyoming speech-to-text server over :class:`.recognizer.Recognizer`, so Home Assistant's
own ``wyoming`` integration (host + port in its config flow) offers the home-tuned recognizer
as an STT engine for any Assist pipeline.

Protocol, as HA's ``wyoming`` STT entity speaks it: ``describe`` -> ``info``; then
``transcribe`` (language), ``audio-start``, ``audio-chunk``... (16 kHz 16-bit mono),
``audio-stop`` -> ``transcript``. Audio in another format is refused with an ``error`` event.
"""

from __future__ import annotations

import asyncio
import logging

from wyoming.asr import Transcribe, Transcript
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.error import Error
from wyoming.event import Event
from wyoming.info import AsrModel, AsrProgram, Attribution, Describe, Info
from wyoming.server import AsyncEventHandler

from .audio import CHANNELS, RATE, WIDTH
from .recognizer import Recognizer

_LOGGER = logging.getLogger(__name__)

POCKETSPHINX = Attribution(name="CMU Sphinx", url="https://github.com/cmusphinx/pocketsphinx")
LANGUAGES = ["en", "en-US"]


def stt_info(home_name: str) -> Info:
    """What the server offers: one English model tuned to ``home_name``."""
    model = AsrModel(
        name=f"pocketsphinx-en-us-{home_name}",
        attribution=POCKETSPHINX,
        installed=True,
        description=f"pocketsphinx US English with the language model of home {home_name!r}",
        version="5.1.1",
        languages=LANGUAGES,
    )
    return Info(
        asr=[
            AsrProgram(
                name="smh-stt",
                attribution=POCKETSPHINX,
                installed=True,
                description="SMH speech to text (pocketsphinx, home vocabulary)",
                version="1",
                models=[model],
            )
        ]
    )


class SttHandler(AsyncEventHandler):
    """One client connection: collects one utterance's audio, answers with its transcript."""

    def __init__(self, recognizer: Recognizer, info: Info, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.recognizer = recognizer
        self.info = info
        self.audio = bytearray()
        self.accepting = False

    async def handle_event(self, event: Event) -> bool:
        if Describe.is_type(event.type):
            await self.write_event(self.info.event())
        elif Transcribe.is_type(event.type):
            self.audio.clear()
        elif AudioStart.is_type(event.type):
            start = AudioStart.from_event(event)
            if (start.rate, start.width, start.channels) != (RATE, WIDTH, CHANNELS):
                await self.write_event(
                    Error(
                        text=f"audio must be {RATE} Hz, {8 * WIDTH}-bit, mono; got {start.rate} Hz, "
                        f"{8 * start.width}-bit, {start.channels} channels",
                        code="audio-format",
                    ).event()
                )
                return False
            self.audio.clear()
            self.accepting = True
        elif AudioChunk.is_type(event.type) and self.accepting:
            self.audio.extend(AudioChunk.from_event(event).audio)
        elif AudioStop.is_type(event.type) and self.accepting:
            self.accepting = False
            pcm = bytes(self.audio)
            text = await asyncio.get_running_loop().run_in_executor(
                None, self.recognizer.transcribe, pcm
            )
            _LOGGER.info("transcript of %.1f s: %r", len(pcm) / (RATE * WIDTH), text)
            await self.write_event(Transcript(text=text).event())
            return False  # one utterance per connection, as HA opens a connection per request
        return True
