"""A Wyoming text-to-speech server over espeak-ng, so a full Assist pipeline can answer aloud
with nothing but local packages (HA's ``wyoming`` integration, host + port).

Protocol: ``describe`` -> ``info``; ``synthesize`` (text, optional voice name) ->
``audio-start``, ``audio-chunk``..., ``audio-stop`` (16 kHz 16-bit mono). Streaming synthesis
is not offered, so HA sends whole messages.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.error import Error
from wyoming.event import Event
from wyoming.info import Attribution, Describe, Info, TtsProgram, TtsVoice
from wyoming.server import AsyncEventHandler
from wyoming.tts import Synthesize

from .audio import CHANNELS, RATE, WIDTH, chunks
from .espeak import Espeak, VoiceSettings, synthesize

ESPEAK = Attribution(name="eSpeak NG", url="https://github.com/espeak-ng/espeak-ng")


def tts_info(settings: VoiceSettings) -> Info:
    """One English voice: the settings' espeak-ng voice."""
    voice = TtsVoice(
        name=settings.voice,
        attribution=ESPEAK,
        installed=True,
        version=None,
        description=f"espeak-ng {settings.voice} at {settings.speed} words per minute",
        languages=["en", "en-US"],
    )
    return Info(
        tts=[
            TtsProgram(
                name="smh-tts",
                attribution=ESPEAK,
                installed=True,
                version="1",
                description="SMH text to speech (espeak-ng)",
                voices=[voice],
            )
        ]
    )


class TtsHandler(AsyncEventHandler):
    """One client connection: speaks each ``synthesize`` request back as audio events."""

    def __init__(
        self, espeak: Espeak, settings: VoiceSettings, info: Info, *args, **kwargs
    ) -> None:
        super().__init__(*args, **kwargs)
        self.espeak, self.settings, self.info = espeak, settings, info

    async def handle_event(self, event: Event) -> bool:
        if Describe.is_type(event.type):
            await self.write_event(self.info.event())
            return True
        if not Synthesize.is_type(event.type):
            return True
        request = Synthesize.from_event(event)
        settings = (
            replace(self.settings, voice=request.voice.name)
            if request.voice and request.voice.name
            else self.settings
        )
        try:
            pcm = await asyncio.get_running_loop().run_in_executor(
                None, synthesize, request.text, settings, self.espeak
            )
        except (ValueError, RuntimeError) as err:
            await self.write_event(Error(text=str(err), code="synthesis-failed").event())
            return True
        await self.write_event(AudioStart(rate=RATE, width=WIDTH, channels=CHANNELS).event())
        for piece in chunks(pcm):
            await self.write_event(
                AudioChunk(rate=RATE, width=WIDTH, channels=CHANNELS, audio=piece).event()
            )
        await self.write_event(AudioStop().event())
        return True
