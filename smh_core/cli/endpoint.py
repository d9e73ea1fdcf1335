"""What a command that talks to a model needs before it starts: an endpoint and a model name.

Defaults used to fill the gaps silently (OpenAI's own API, ``gpt-4o-mini``), so a newcomer
without a key got a connection error naming neither flag. A model command now says which of
``--base-url`` / ``--model`` is missing and which environment variables stand in for them.
"""

from __future__ import annotations


def require_endpoint(what: str, base_url: str | None, model: str | None) -> None:
    """Raise ``ValueError`` (a usage error: exit 2) naming the missing flags and their variables."""
    missing = [
        flag
        for flag, value in (("--base-url", base_url), ("--model", model))
        if not (value or "").strip()
    ]
    if missing:
        raise ValueError(
            f"{what} needs --base-url URL and --model NAME (missing: {', '.join(missing)}); "
            "or set OPENAI_BASE_URL and SMH_MODEL (the key is read from OPENAI_API_KEY; "
            "OpenAI itself: --base-url https://api.openai.com/v1)"
        )
