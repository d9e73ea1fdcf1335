"""An access token from a user's name and password, through Home Assistant's own login flow.

Commands that change HA's registries (``smh matter-areas``) or read them (``smh ha map``) need an
access token. A long-lived one must be made by hand in the user's profile; this module gets a
short-lived one (HA's default: 30 minutes, plenty for one command) the way HA's frontend does:
``/auth/login_flow`` with the ``homeassistant`` auth provider, then ``/auth/token`` with the
authorization code. The password is never stored or printed.
"""

from __future__ import annotations

import getpass
import os
from typing import Any

import aiohttp

PASSWORD_ENV = "HA_PASSWORD"


class LoginError(ValueError):
    """HA refused the name and password (or is not an HA), with HA's own reason."""


async def _json(r: aiohttp.ClientResponse, step: str) -> Any:
    if r.status >= 400:
        raise LoginError(f"{step}: HTTP {r.status}: {(await r.text())[:200]}")
    return await r.json()


async def password_token(
    url: str, username: str, password: str, session: aiohttp.ClientSession | None = None
) -> str:
    """A short-lived access token for ``username`` on the HA at ``url`` (``http://host:port``)."""
    url = url.rstrip("/")
    client_id = f"{url}/"
    own = session is None
    session = session or aiohttp.ClientSession()
    try:
        async with session.post(
            f"{url}/auth/login_flow",
            json={
                "client_id": client_id,
                "handler": ["homeassistant", None],
                "redirect_uri": client_id,
            },
        ) as r:
            flow = await _json(r, "login flow")
        async with session.post(
            f"{url}/auth/login_flow/{flow['flow_id']}",
            json={"client_id": client_id, "username": username, "password": password},
        ) as r:
            step = await _json(r, "login")
        if step.get("type") != "create_entry":
            errors = ", ".join(
                f"{k}: {v}" for k, v in (step.get("errors") or {}).items()
            ) or step.get("type")
            raise LoginError(f"HA at {url} refused the login of {username!r} ({errors})")
        async with session.post(
            f"{url}/auth/token",
            data={
                "grant_type": "authorization_code",
                "code": step["result"],
                "client_id": client_id,
            },
        ) as r:
            return str((await _json(r, "token"))["access_token"])
    finally:
        if own:
            await session.close()


def password_for(username: str) -> str:
    """The password: ``$HA_PASSWORD`` if set, else asked on the terminal (not echoed)."""
    return os.environ.get(PASSWORD_ENV) or getpass.getpass(
        f"Home Assistant password for {username}: "
    )


async def access_token(url: str, token: str | None, username: str | None) -> str:
    """``token`` if given, else one from logging ``username`` in (password per :func:`password_for`)."""
    if token:
        return token
    if not username:
        raise ValueError(
            "give --token (a long-lived access token) or --username (log in with your HA password)"
        )
    return await password_token(url, username, password_for(username))
