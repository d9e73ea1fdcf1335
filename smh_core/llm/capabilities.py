"""What an endpoint has shown it can do, remembered per (endpoint, model) for the process.

Benchmark agents build a new client per task and the HA agent one per turn; probing the
server's structured-output and tool support again each time would cost a failed request per
task. The memory holds only what a server answered, never a guess, and is keyed by the
endpoint's address (no key or secret in it).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Literal

from .usage import Usage

type StructuredMode = Literal["json_schema", "json_object", "text"]
type ToolProtocolName = Literal["native", "prompted"]

STRUCTURED_LADDER: tuple[StructuredMode, ...] = ("json_schema", "json_object", "text")
"""From the strongest response format to none; a refusal moves one step down."""


class StructuredCaller:
    """What asks one endpoint for structured output through its ``llm`` client (the DR agent,
    the synthesizer): ``mode`` is the format it asks for (True json_schema or fail, False plain
    text only, None ``auto``: the strongest the endpoint takes), :attr:`structured` the one in use."""

    llm: Any  # the LLMClient (not imported here: the client imports this module)
    mode: str

    def __init__(self, structured: bool | None) -> None:
        self.mode = "auto" if structured is None else ("json_schema" if structured else "text")

    @property
    def structured(self) -> str | None:
        """The response format this endpoint has accepted (``None`` until known)."""
        return self.mode if self.mode != "auto" else self.llm.caps.structured


@dataclass
class EndpointCapabilities:
    structured: StructuredMode | None = None  # the strongest response format accepted
    tools: ToolProtocolName | None = None  # native tool calls, or the prompted protocol
    schema_index: dict[str, int] = field(
        default_factory=dict
    )  # per schema name: which variant worked
    probe_usage: Usage = field(default_factory=Usage)  # tokens the tool probe spent
    completion_tokens_param: bool = (
        False  # the cap goes as max_completion_tokens (OpenAI reasoning models)
    )
    _locks: dict[int, asyncio.Lock] = field(default_factory=dict, repr=False)

    def discovery_lock(self) -> asyncio.Lock:
        """Held while a capability is being found out, so concurrent tasks wait for the first
        answer instead of each probing (one lock per event loop: locks belong to a loop)."""
        loop = id(asyncio.get_running_loop())
        lock = self._locks.get(loop)
        if lock is None:
            self._locks.clear()  # a finished loop's lock is of no use
            lock = self._locks[loop] = asyncio.Lock()
        return lock

    def to_dict(self) -> dict[str, Any]:
        return {"structured": self.structured, "tools": self.tools}


_KNOWN: dict[tuple[str, str], EndpointCapabilities] = {}


def capabilities_for(endpoint: str, model: str) -> EndpointCapabilities:
    """The shared record of one endpoint + model (created empty on first use)."""
    return _KNOWN.setdefault((endpoint, model), EndpointCapabilities())


def forget_capabilities(endpoint: str | None = None, model: str | None = None) -> None:
    """Drop what was learned about one endpoint + model (its settings changed: another server
    may answer there now), or about every endpoint."""
    if endpoint is None:
        _KNOWN.clear()
    else:
        _KNOWN.pop((endpoint, model or ""), None)
