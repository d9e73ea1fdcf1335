"""HA sets up config entries through the domain's flow handler; ``smh perf ha`` adds the
entries itself, so the flow has no steps."""

from homeassistant.config_entries import ConfigFlow

from . import DOMAIN


class PlainHomeFlow(ConfigFlow, domain=DOMAIN):
    VERSION = 1
