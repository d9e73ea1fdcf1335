"""``smh voice stt|tts|say|transcribe``: local speech services for Home Assistant's Assist
pipeline (Wyoming protocol) and the speech tools behind ``smh bench run --voice``."""

from __future__ import annotations

import argparse
import contextlib
import sys
from functools import partial
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "voice", help="speech: Wyoming STT/TTS servers for HA's Assist pipeline, say, transcribe"
    )
    vs = p.add_subparsers(dest="voice_command", metavar="ACTION", required=True)
    s = vs.add_parser(
        "stt",
        help="Wyoming speech-to-text server (pocketsphinx, the home's vocabulary); "
        "add it in HA with the Wyoming Protocol integration (host, port)",
    )
    _server_args(s, 10300)
    _home_args(s)
    s.set_defaults(func=_stt)
    t = vs.add_parser("tts", help="Wyoming text-to-speech server (espeak-ng)")
    _server_args(t, 10200)
    _voice_args(t)
    t.set_defaults(func=_tts)
    y = vs.add_parser("say", help="speak a text into a 16 kHz mono WAV file (what --voice sends)")
    y.add_argument("text")
    y.add_argument("--out", type=Path, required=True, help="WAV file to write")
    _voice_args(y)
    y.set_defaults(func=_say)
    r = vs.add_parser(
        "transcribe", help="a WAV file (16-bit) as the STT server would transcribe it"
    )
    r.add_argument("wav", type=Path)
    _home_args(r)
    r.set_defaults(func=_transcribe)


def _server_args(p: argparse.ArgumentParser, port: int) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    p.add_argument("--port", type=int, default=port, help=f"TCP port (default: {port})")


def _home_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--home", type=Path, help="home JSON file whose names the recognizer learns")
    p.add_argument(
        "--level",
        choices=["simple", "medium", "complex"],
        default="medium",
        help="without --home: a generated home of this size (default: medium, the demo's)",
    )
    p.add_argument(
        "--seed", type=int, default=0, help="without --home: the generated home's seed (default: 0)"
    )


def _voice_args(p: argparse.ArgumentParser) -> None:
    from smh_core.voice.espeak import VoiceSettings

    d = VoiceSettings()
    p.add_argument("--voice", default=d.voice, help=f"espeak-ng voice (default: {d.voice})")
    p.add_argument(
        "--speed", type=int, default=d.speed, help=f"words per minute (default: {d.speed})"
    )
    p.add_argument(
        "--noise",
        type=float,
        default=d.noise,
        help="white noise, times the speech's RMS (default: 0)",
    )
    p.add_argument("--noise-seed", type=int, default=d.seed, help="seed of the noise (default: 0)")


def _settings(args: argparse.Namespace):
    from smh_core.voice.espeak import VoiceSettings

    return VoiceSettings(voice=args.voice, speed=args.speed, noise=args.noise, seed=args.noise_seed)


def _home(args: argparse.Namespace):
    from smh_core.homeenv.engine import load_home
    from smh_core.homes.generator import generate_home

    return load_home(args.home) if args.home else generate_home(args.level, args.seed)


def _recognizer(args: argparse.Namespace):
    from smh_core.voice.recognizer import Recognizer

    return Recognizer(_home(args))


def _espeak():
    from smh_core.voice.espeak import find_espeak, unavailable_reason

    reason = unavailable_reason()
    if reason:
        raise ValueError(reason)
    return find_espeak()


def _run_server(factory, args: argparse.Namespace, what: str) -> int:
    import asyncio

    from smh_core.voice.server import serve

    async def main() -> None:
        ready = asyncio.Event()
        task = asyncio.create_task(serve(factory, args.host, args.port, ready))
        await ready.wait()
        print(f"{what} listening on tcp://{args.host}:{args.port}", flush=True)
        await task

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main())
    return 0


def _stt(args: argparse.Namespace) -> int:
    from smh_core.voice.recognizer import Recognizer
    from smh_core.voice.wyoming_stt import SttHandler, stt_info

    home = _home(args)
    return _run_server(
        partial(SttHandler, Recognizer(home), stt_info(home.name)), args, "Wyoming STT"
    )


def _tts(args: argparse.Namespace) -> int:
    from smh_core.voice.wyoming_tts import TtsHandler, tts_info

    settings = _settings(args)
    return _run_server(
        partial(TtsHandler, _espeak(), settings, tts_info(settings)), args, "Wyoming TTS"
    )


def _say(args: argparse.Namespace) -> int:
    from smh_core.voice.audio import to_wav
    from smh_core.voice.espeak import synthesize

    pcm = synthesize(args.text, _settings(args), _espeak())
    args.out.write_bytes(to_wav(pcm))
    print(f"{args.out}: {len(pcm) / 32000:.2f} s")
    return 0


def _transcribe(args: argparse.Namespace) -> int:
    from smh_core.voice.audio import read_wav, resample

    samples, rate = read_wav(args.wav.read_bytes())
    sys.stdout.write(_recognizer(args).transcribe(resample(samples, rate).tobytes()) + "\n")
    return 0
