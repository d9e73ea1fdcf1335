"""Voice: speech in and out for SMH's agent through Home Assistant's Assist pipeline.

``espeak``/``audio`` make deterministic test speech, ``vocabulary`` turns a home into the
language model the recognizer uses, ``recognizer`` wraps pocketsphinx, ``wyoming_stt`` and
``wyoming_tts`` serve them over the Wyoming protocol HA's ``wyoming`` integration speaks, and
``wer`` scores transcripts against the words that were spoken.
"""
