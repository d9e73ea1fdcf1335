"""Direct Reasoning (SMH-Bench Appendix D): one call with the full serialized home.

The output is validated against :class:`DROutput`. It is asked for in the strongest form the
endpoint accepts (:meth:`~smh_core.llm.client.LLMClient.chat_json`: ``json_schema``, else
``json_object`` with the schema, else plain text), and parsed with repair either way. Output
that is not JSON at all is a format/runtime failure (FRF); JSON that misses the schema is a
structured-output error (SO). Both are the model's and are classified, never raised; an
endpoint that fails or refuses every format raises :class:`~smh_core.llm.errors.InfraError`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from smh_core.llm.capabilities import StructuredCaller
from smh_core.llm.client import LLMClient, Usage
from smh_core.llm.prompts import load_prompt, quoted
from smh_core.llm.repair import MalformedJSON, load_json, message_text

from .backend import NO_ROOM, AsyncAdapter, AsyncHomeBackend, HomeBackend, as_async, run_sync


class DRAction(BaseModel):
    model_config = ConfigDict(extra="forbid")
    did: str
    locator: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class DROutput(BaseModel):
    model_config = ConfigDict(extra="forbid")
    mode: Literal["execute", "clarify", "answer", "automation"]
    response: str = ""
    actions: list[DRAction] = Field(default_factory=list)
    automations: list[dict[str, Any]] = Field(default_factory=list)


@dataclass
class DRResult:
    output: DROutput | None
    error_class: str | None = None  # SO | FRF
    error: str = ""
    usage: Usage = field(default_factory=Usage)
    repairs: list[str] = field(default_factory=list)
    structured: str | None = None  # json_schema | json_object | text: the format that was used
    raw: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "output": self.output.model_dump() if self.output else None,
            "error_class": self.error_class,
            "error": self.error,
            "usage": self.usage.to_dict(),
            "repairs": self.repairs,
            "structured": self.structured,
        }


async def serialize_home(backend: AsyncHomeBackend, context: str = "") -> str:
    """The full DR context; identical device schemas are printed once (deduplicated)."""
    listed_rooms = await backend.list_rooms()
    rooms = "\n".join(
        f"- {r['id']}: {quoted(r['name'])} ({r['type']}, floor {r['floor']}"
        + (f", inside {r['parent']})" if r.get("parent") else ")")
        for r in listed_rooms
    )
    schema_ids: dict[str, str] = {}
    schema_lines: list[str] = []
    device_lines: list[str] = []
    for d in await backend.list_devices():
        spec = await backend.device_spec(d["did"])
        body = json.dumps(
            {"attributes": spec["attributes"], "services": spec["services"]},
            sort_keys=True,
            ensure_ascii=False,
        )
        sid = schema_ids.get(body)
        if sid is None:
            sid = schema_ids[body] = f"S{len(schema_ids) + 1}"
            schema_lines.append(f"{sid} ({d['subcategory']}): {body}")
        status = (await backend.device_status(d["did"]))["status"]
        device_lines.append(
            f"- {d['did']} | {quoted(d['name'])} | {d['room'] or NO_ROOM} | {sid} | "
            + json.dumps(status, ensure_ascii=False)
        )
    return load_prompt("dr_system").substitute(
        now=await backend.now(),
        context=context + "\n" if context else "",
        rooms=rooms,
        schemas="\n".join(schema_lines),
        devices="\n".join(device_lines),
    )


def parse_output(text: Any, repairs: list[str]) -> tuple[DROutput | None, str | None, str]:
    """Parse model text into :class:`DROutput`: (output, error class, error message). Any
    reply gives a result: JSON past the limits of :mod:`smh_core.llm.repair` is an FRF."""
    text = message_text(text)
    try:
        data = load_json(text, "the reply")
    except MalformedJSON as first:
        start, end = text.find("{"), text.rfind("}")  # not a regex: linear on any reply
        if not first.syntax:
            return None, "FRF", str(first)
        if start < 0 or end < start:
            return None, "FRF", "no JSON object in the reply"
        candidate = re.sub(r",\s*([}\]])", r"\1", text[start : end + 1])
        try:
            data = load_json(candidate, "the reply")
        except MalformedJSON as e:
            return None, "FRF", f"unparseable JSON: {e}"
        repairs.append("extracted_json")
    try:
        return DROutput.model_validate(data), None, ""
    except ValidationError as e:
        err = e.errors()[0]
        return None, "SO", f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}"


class DRAgent(StructuredCaller):
    def __init__(
        self,
        llm: LLMClient,
        backend: HomeBackend | AsyncHomeBackend,
        structured: bool | None = None,
    ) -> None:
        super().__init__(structured)
        self.llm = llm
        self.backend = as_async(backend)  # a sync home joins here; every call below is awaited

    async def run(
        self, user_text: str, history: list[dict[str, str]] | None = None, context: str = ""
    ) -> DRResult:
        messages = [
            {"role": "system", "content": await serialize_home(self.backend, context)},
            *(history or []),
            {"role": "user", "content": user_text},
        ]
        result = await self.llm.chat_json(
            messages, [DROutput.model_json_schema()], "smh_dr", mode=self.mode
        )
        text = result.message.get("content") or ""
        repairs = list(result.repairs)
        output, error_class, error = parse_output(text, repairs)
        return DRResult(output, error_class, error, result.usage, repairs, result.structured, text)

    def apply(self, output: DROutput) -> list[dict[str, Any]]:
        """Replay the predicted actions through a sync backend, in order; results per action.
        An agent over an async home refuses before anything runs: use :meth:`async_apply`."""
        if not isinstance(self.backend, AsyncAdapter):
            raise TypeError("the backend is async: use await DRAgent.async_apply(output)")
        return run_sync(self.async_apply(output))

    async def async_apply(self, output: DROutput) -> list[dict[str, Any]]:
        """:meth:`apply` for any backend: each call finishes before the next starts, so order
        is kept."""
        return [await self.backend.execute(a.did, a.locator, a.arguments) for a in output.actions]
