"""A python-matter-server compatible WebSocket server backed by the simulator.

Home Assistant's ``matter`` integration (and any ``MatterClient``) connects to ``ws://HOST:PORT/ws``
and sees every Matter-style device of the home as a commissioned node. Commands and attribute
writes go through the engine, so the catalog's validation and Matter dependency rules apply
(an error comes back as the protocol's error result with the engine's message); every change
from any source (commands, physics, appliance programmes, schedules, rules, the ``smh``
integration sharing the engine) is pushed to listening clients as ``attribute_updated``.

Protocol: schema version 11. On connect the server sends its ``ServerInfoMessage``; a client's
``start_listening`` gets the full node dump as its result *before* any event reaches it.
Faults a physical device has (unavailable, dropped, late or altered reports) can be injected
per device (:mod:`.faults`). This module lives with the simulated devices it serves; it sits
above the engine and the simulator and below nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from smh_core.homeenv.engine import HomeEngine
from smh_core.homeenv.errors import Change, ErrorCode
from smh_core.sim.simulator import Simulator

from .faults import DeviceFault
from .nodes import NodeMap, build_map, compressed_fabric_id, is_matter_device, node_data

LOGGER = logging.getLogger(__name__)
SCHEMA_VERSION = 11
MIN_SCHEMA_VERSION = 9

# python-matter-server error codes (matter_server.common.errors)
(
    UNKNOWN_ERROR,
    NODE_NOT_READY,
    SDK_STACK_ERROR,
    NODE_NOT_EXISTS,
    INVALID_ARGUMENTS,
    INVALID_COMMAND,
) = 0, 3, 7, 5, 8, 9
NODE_COMMANDS = (
    "device_command",
    "write_attribute",
    "read_attribute",
    "interview_node",
    "ping_node",
)
"""Commands addressed to one node: refused while it is unavailable, answered late while it is slow."""
CLOSE_WAIT = 0.25
"""Seconds a client gets to answer the close frame when the server stops (HA answers in ms)."""


class CommandError(Exception):
    def __init__(self, code: int, details: str) -> None:
        super().__init__(details)
        self.code, self.details = code, details


@dataclass(eq=False)
class _Client:
    ws: web.WebSocketResponse
    listening: bool = False
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)


class MatterBridge:
    """Serves the Matter devices of one engine; the engine may be shared with others."""

    def __init__(self, engine: HomeEngine, sim: Simulator | None = None) -> None:
        self.engine = engine
        self.sim = sim
        self.nodes: dict[int, NodeMap] = {}
        for did in engine.device_ids():
            if is_matter_device(engine, did):
                node = build_map(engine, did)
                if node.node_id in self.nodes:
                    raise ValueError(
                        f"devices {self.nodes[node.node_id].did} and {did} share node id {node.node_id}"
                    )
                self.nodes[node.node_id] = node
        self._by_did = {n.did: n for n in self.nodes.values()}
        self._clients: set[_Client] = set()
        self.faults: dict[str, DeviceFault] = {}
        self._stopping = False
        self._late: set[asyncio.Task[None]] = set()
        self.fabric_id = compressed_fabric_id(engine.home.name)
        self._unsubscribe = engine.add_listener(self._on_changes)
        self._handlers: dict[str, Callable[[dict[str, Any]], Awaitable[Any] | Any]] = {
            "server_info": lambda a: self.server_info(),
            "get_nodes": lambda a: self.dump(),
            "get_node": self._get_node,
            "device_command": self._device_command,
            "write_attribute": self._write_attribute,
            "read_attribute": self._read_attribute,
            "diagnostics": lambda a: {
                "info": self.server_info(),
                "events": [],
                "nodes": self.dump(),
            },
            "set_default_fabric_label": lambda a: None,
            "interview_node": lambda a: self._node(a) and None,
            "ping_node": lambda a: self._node(a) and {"127.0.0.1": True},
            "get_node_ip_addresses": lambda a: self._node(a) and ["127.0.0.1"],
            "get_vendor_names": lambda a: {},
            "check_node_update": lambda a: None,
            "smh_set_fault": self._set_fault_command,
        }

    # ------------------------------------------------------------------ protocol
    def server_info(self) -> dict[str, Any]:
        return {
            "fabric_id": 1,
            "compressed_fabric_id": self.fabric_id,
            "schema_version": SCHEMA_VERSION,
            "min_supported_schema_version": MIN_SCHEMA_VERSION,
            "sdk_version": "smh-simulator",
            "wifi_credentials_set": False,
            "thread_credentials_set": False,
            "bluetooth_enabled": False,
        }

    def _node(self, args: dict[str, Any]) -> NodeMap:
        node = self.nodes.get(args.get("node_id"))  # type: ignore[arg-type]
        if node is None:
            raise CommandError(NODE_NOT_EXISTS, f"node {args.get('node_id')} does not exist")
        return node

    def _live_node(self, args: dict[str, Any]) -> NodeMap:
        """The addressed node, which must be reachable (not made unavailable by a fault)."""
        node = self._node(args)
        if self._fault(node.did).unavailable:
            raise CommandError(NODE_NOT_READY, f"node {node.node_id} is unavailable")
        return node

    def _get_node(self, args: dict[str, Any]) -> dict[str, Any]:
        return self.node_dump(self._node(args))

    def node_dump(self, node: NodeMap) -> dict[str, Any]:
        """One node as the controller sees it: availability and altered values from its fault."""
        data = node_data(self.engine, node)
        fault = self._fault(node.did)
        if not fault.healthy:
            data["available"] = not fault.unavailable
            state = self.engine.state_view(node.did)
            for locator in fault.alter:
                for path in node.paths_showing(locator):
                    data["attributes"][path] = fault.reported(locator, state[locator])
        return data

    def dump(self) -> list[dict[str, Any]]:
        return [self.node_dump(n) for n in self.nodes.values()]

    # ------------------------------------------------------------------ faults
    def _fault(self, did: str) -> DeviceFault:
        return self.faults.get(did) or _HEALTHY

    def set_fault(self, did: str, fault: DeviceFault) -> None:
        """Give device ``did`` a fault (a healthy ``DeviceFault`` clears it). A change of
        availability is announced to listeners as ``node_updated`` with the node's whole state."""
        node = self._by_did.get(did)
        if node is None:
            raise ValueError(
                f"device {did!r} is not served by this bridge (served: {sorted(self._by_did)})"
            )
        was = self._fault(did)
        if fault.healthy:
            self.faults.pop(did, None)
        else:
            self.faults[did] = fault
        if (
            was.unavailable != fault.unavailable
            or was.alter != fault.alter
            or (was.drop and not fault.drop)
        ):
            self._broadcast({"event": "node_updated", "data": self.node_dump(node)})

    def _set_fault_command(self, args: dict[str, Any]) -> dict[str, Any]:
        did = str(args.get("did", ""))
        try:
            fault = DeviceFault.model_validate({k: v for k, v in args.items() if k != "did"})
            self.set_fault(did, fault)
        except ValueError as e:
            raise CommandError(INVALID_ARGUMENTS, str(e)) from None
        return {"did": did, **fault.model_dump()}

    def _device_command(self, args: dict[str, Any]) -> Any:
        node = self._live_node(args)
        key = (args.get("endpoint_id"), args.get("cluster_id"), args.get("command_name"))
        locator = node.command_of.get(key)  # type: ignore[arg-type]
        if locator is None:
            known = sorted(name for (ep, cl, name) in node.command_of if (ep, cl) == key[:2])
            raise CommandError(
                INVALID_COMMAND,
                f"node {node.node_id} endpoint {key[0]} cluster {key[1]} has no "
                f"command {key[2]!r}; accepted: {known}",
            )
        service = next(
            s for loc, s in self.engine.device(node.did).services_by_locator() if loc == locator
        )
        declared = {a.name for a in service.arguments}
        payload = args.get("payload") or {}
        arguments = {k: v for k, v in payload.items() if k in declared and v is not None}
        result = self.engine.execute(node.did, locator, arguments)
        if not result.ok:
            raise CommandError(_error_code(result.error.code), result.error.message)
        return None

    def _write_attribute(self, args: dict[str, Any]) -> Any:
        node = self._live_node(args)
        path = str(args.get("attribute_path"))
        locator = node.locator_of.get(path)
        if locator is None:
            raise CommandError(INVALID_ARGUMENTS, f"node {node.node_id} has no attribute {path}")
        result = self.engine.execute(node.did, locator, {"value": args.get("value")})
        if not result.ok:
            raise CommandError(_error_code(result.error.code), result.error.message)
        ep, cl, at = (int(x) for x in path.split("/"))
        return [{"Path": {"EndpointId": ep, "ClusterId": cl, "AttributeId": at}, "Status": 0}]

    def _read_attribute(self, args: dict[str, Any]) -> dict[str, Any]:
        node = self._live_node(args)
        paths = args.get("attribute_path")
        wanted = [paths] if isinstance(paths, str) else list(paths or [])
        data = self.node_dump(node)["attributes"]
        out = {}
        for path in wanted:
            if path not in data:
                raise CommandError(
                    INVALID_ARGUMENTS, f"node {node.node_id} has no attribute {path}"
                )
            out[path] = data[path]
        return out

    # ------------------------------------------------------------------ events
    def _on_changes(self, changes: list[Change]) -> None:
        for ch in changes:
            node = self._by_did.get(ch.did)
            if node is None:
                continue
            fault = self._fault(node.did)
            if fault.unavailable or fault.drop:
                continue
            value = fault.reported(ch.locator, ch.after)
            for path in node.paths_showing(ch.locator):
                self._broadcast(
                    {"event": "attribute_updated", "data": [node.node_id, path, value]}, fault.delay
                )

    def _broadcast(self, event: dict[str, Any], delay: float = 0.0) -> None:
        """Queue ``event`` for every listening client, now or ``delay`` seconds from now."""
        if delay > 0:
            with contextlib.suppress(
                RuntimeError
            ):  # no running loop: a change made outside the server
                asyncio.get_running_loop().call_later(delay, self._broadcast, event)
                return
        for client in self._clients:
            if client.listening:
                client.queue.put_nowait(event)

    # ------------------------------------------------------------------ serving
    async def handle(self, request: web.Request) -> web.StreamResponse:
        if self._stopping:  # a controller reconnecting while the server stops
            return web.Response(status=503, text="the server is stopping")
        ws = web.WebSocketResponse(heartbeat=55, max_msg_size=0)
        await ws.prepare(request)
        client = _Client(ws)
        self._clients.add(client)
        writer = asyncio.create_task(self._writer(client))
        try:
            await ws.send_json(self.server_info())
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                await self._dispatch(client, msg.data)
        finally:
            self._clients.discard(client)
            writer.cancel()
        return ws

    async def _writer(self, client: _Client) -> None:
        while True:
            message = await client.queue.get()
            if client.ws.closed:
                return
            await client.ws.send_str(json.dumps(message))

    async def _dispatch(self, client: _Client, raw: str) -> None:
        try:
            msg = json.loads(raw)
            message_id, command, args = msg["message_id"], msg["command"], msg.get("args") or {}
            if not isinstance(args, dict):
                raise TypeError("args is not an object")
        except (ValueError, KeyError, TypeError):
            LOGGER.warning("ignoring a malformed message: %.200s", raw)
            return
        if command == "start_listening":
            client.queue.put_nowait({"message_id": message_id, "result": self.dump()})
            client.listening = True  # events queue behind the dump
            return
        node = self.nodes.get(args.get("node_id")) if command in NODE_COMMANDS else None  # type: ignore[arg-type]
        delay = self._fault(node.did).delay if node is not None else 0.0
        if delay > 0:  # a slow device: its answer comes late, other commands go on meanwhile
            task = asyncio.create_task(self._answer(client, message_id, command, args, delay))
            self._late.add(task)
            task.add_done_callback(self._late.discard)
            return
        await self._answer(client, message_id, command, args)

    async def _answer(
        self,
        client: _Client,
        message_id: Any,
        command: str,
        args: dict[str, Any],
        delay: float = 0.0,
    ) -> None:
        if delay:
            await asyncio.sleep(delay)
        try:
            handler = self._handlers.get(command)
            if handler is None:
                raise CommandError(
                    INVALID_COMMAND, f"command {command!r} is not supported by the simulator"
                )
            result = handler(args)
            if asyncio.iscoroutine(result):
                result = await result
            client.queue.put_nowait({"message_id": message_id, "result": result})
        except CommandError as e:
            client.queue.put_nowait(
                {"message_id": message_id, "error_code": e.code, "details": e.details}
            )
        except Exception as e:  # a bug must not drop the connection; report it as the protocol does
            LOGGER.exception("command %s failed", command)
            client.queue.put_nowait(
                {"message_id": message_id, "error_code": UNKNOWN_ERROR, "details": str(e)}
            )

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/ws", self.handle)
        app.on_shutdown.append(self._close_clients)
        return app

    async def _close_clients(self, _app: web.Application) -> None:
        """Close every client's socket when the server stops: aiohttp otherwise waits for each
        handler to end on its own (a connected HA held Ctrl-C for ~50-80 s). A client that does
        not answer the close within :data:`CLOSE_WAIT` is dropped, and one that reconnects
        meanwhile is turned away (HA's matter client reconnects at once)."""
        self._stopping = True
        for task in list(self._late):
            task.cancel()

        async def close(client: _Client) -> None:
            with contextlib.suppress(TimeoutError, ConnectionError):
                await asyncio.wait_for(
                    client.ws.close(code=WSCloseCode.GOING_AWAY, message=b"server stopping"),
                    CLOSE_WAIT,
                )

        await asyncio.gather(*(close(c) for c in list(self._clients)))

    async def run_clock(self, speed: float = 1.0, interval: float = 1.0) -> None:
        """Advance the simulator ``speed`` simulated seconds per real second, forever."""
        if self.sim is None:
            return
        loop = asyncio.get_running_loop()
        last = loop.time()
        while True:
            await asyncio.sleep(interval)
            now = loop.time()
            self.sim.advance((now - last) * speed)
            last = now

    def close(self) -> None:
        self._unsubscribe()


_HEALTHY = DeviceFault()


def _error_code(code: ErrorCode) -> int:
    if code in (ErrorCode.SERVICE_NOT_FOUND,):
        return INVALID_COMMAND
    if code in (ErrorCode.PRECONDITION_FAILED, ErrorCode.NOT_WRITABLE, ErrorCode.INVALID_RESULT):
        return SDK_STACK_ERROR  # a Matter status failure (InvalidInState, UnsupportedWrite)
    return INVALID_ARGUMENTS
