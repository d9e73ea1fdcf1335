"""Buttons: commands people press on a Matter device (a washer's Start or Stop, a TV's Play).

A press runs the command through the engine, which refuses it as it would any call (a washer
already running cannot start again) with its own message."""

from __future__ import annotations

from homeassistant.components.button import ButtonEntity

from .entity import SmhRichEntity, rich_setup


class SmhButton(SmhRichEntity, ButtonEntity):
    async def async_press(self) -> None:
        self.run(self.rich.call("press"))


async_setup_entry = rich_setup("button", SmhButton)
