"""Transitions the device catalog's declarative effects cannot express, by name.

Requirements compare with ``equals``/``in``/``not_in`` only, so a numeric threshold needs code.
Everything else about devices lives in ``sim_devices/catalog/<kind>/*.yaml``; keep this module
small. The behaviours live beside the engine, not in the catalog, because a home file names them
(``behavior``/``on_write``) and must run with no catalog loaded: the engine imports this module,
the catalog only refers to its names, so the imports point one way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

type Behavior = Callable[[Mapping[str, Any], dict[str, Any], dict[str, Any], str], str | None]
"""A named transition the data cannot express: ``(state, args, changes, ns) -> error or None``.
It reads the pre-call ``state``, may add entries to ``changes`` (absolute locators) and returns a
precondition message to reject the call."""

_BEHAVIORS: dict[str, Behavior] = {}


def register_behavior(name: str) -> Callable[[Behavior], Behavior]:
    """Register a named behaviour for services whose ``behavior`` (or attributes whose
    ``on_write``) field names it; the built-in ones below, extensions (and tests) through this."""

    def deco(fn: Behavior) -> Behavior:
        _BEHAVIORS[name] = fn
        return fn

    return deco


def behavior(name: str) -> Behavior | None:
    """The behaviour registered under ``name``, or None (the engine refuses such a home)."""
    return _BEHAVIORS.get(name)


MIN_CLEANING_BATTERY = 15
"""Percent of charge below which robot cleaners refuse to start (they would strand mid-run)."""


@register_behavior("require_cleaning_battery")
def require_cleaning_battery(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """Reject starting a clean when ``battery_level`` (same namespace) is below the threshold."""
    loc = f"{ns}.battery_level" if ns else "battery_level"
    level = state.get(loc)
    if isinstance(level, (int, float)) and level < MIN_CLEANING_BATTERY:
        return f"battery at {level}% is below the {MIN_CLEANING_BATTERY}% needed to clean; charge first"
    return None


@register_behavior("brightness_zero_is_off")
def brightness_zero_is_off(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """``set_brightness`` with 0 switches the light off and keeps its last brightness, as Home
    Assistant's ``light.turn_on`` with brightness 0 does: benchmarks such as HomeBench dim to 0
    to mean off, and a light off at 0 % would come back on dark."""
    if args.get("brightness") == 0:
        loc = f"{ns}.brightness" if ns else "brightness"
        changes.pop(loc, None)
        changes[f"{ns}.state" if ns else "state"] = "off"
    return None


# ---------------------------------------------------------------------------------- to-do lists
# A list's ``items`` ([{summary, status}]) cannot be appended to by a declarative effect; these
# keep ``open_items`` (what Home Assistant shows as a to-do list's state) in step with them.


def _todo(state: Mapping[str, Any], ns: str) -> tuple[str, list[dict[str, Any]]]:
    loc = f"{ns}.items" if ns else "items"
    return loc, [dict(i) for i in state.get(loc) or []]


def _todo_write(items: list[dict[str, Any]], changes: dict[str, Any], loc: str, ns: str) -> None:
    changes[loc] = items
    changes[f"{ns}.open_items" if ns else "open_items"] = sum(
        i.get("status") == "needs_action" for i in items
    )


def _todo_find(items: list[dict[str, Any]], text: str) -> int | None:
    """The first item whose text is exactly ``text``, as Home Assistant's ``todo.update_item``
    and ``todo.remove_item`` find one (and its ListCompleteItem intent): no case folding, no
    stripping. A twin more lenient than HA would pass an agent that names "Milk" for "milk",
    which fails on the real list; it would also act on another item than HA where two differ
    only in case (SMH's own lists in HA are handed the exact text HA matched)."""
    return next((n for n, i in enumerate(items) if str(i.get("summary", "")) == text), None)


@register_behavior("todo_add_item")
def todo_add_item(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """Append an item that is not done yet, its text stripped (as HA's ``todo.add_item``)."""
    text = str(args["item"]).strip()
    if not text:
        return "the item has no text"
    loc, items = _todo(state, ns)
    _todo_write([*items, {"summary": text, "status": "needs_action"}], changes, loc, ns)
    return None


def _todo_change(
    state: Mapping[str, Any],
    args: dict[str, Any],
    changes: dict[str, Any],
    ns: str,
    change: Callable[[list[dict[str, Any]], int], list[dict[str, Any]]],
) -> str | None:
    """Apply ``change`` to the list and the index of the item with the request's text
    (exactly, :func:`_todo_find`); refused when the list has none."""
    loc, items = _todo(state, ns)
    n = _todo_find(items, args["item"])
    if n is None:
        return f"the list has no item {args['item']!r}"
    _todo_write(change(items, n), changes, loc, ns)
    return None


@register_behavior("todo_complete_item")
def todo_complete_item(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """Mark the item with this text done."""
    return _todo_change(
        state,
        args,
        changes,
        ns,
        lambda items, n: [
            {**i, "status": "completed"} if k == n else i for k, i in enumerate(items)
        ],
    )


@register_behavior("todo_remove_item")
def todo_remove_item(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """Remove the item with this text."""
    return _todo_change(state, args, changes, ns, lambda items, n: items[:n] + items[n + 1 :])


@register_behavior("todo_update_item")
def todo_update_item(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """Rename the item with this text and/or set whether it is done (HA's ``todo.update_item``:
    at least one of ``rename`` and ``status``)."""
    rename, status = args.get("rename"), args.get("status")
    if rename is None and status is None:
        return "say the item's new text (rename) or whether it is done (status)"
    if rename is not None and not str(rename).strip():
        return "the new text is empty"
    update = {
        k: v
        for k, v in (("summary", str(rename).strip() if rename else None), ("status", status))
        if v
    }
    return _todo_change(
        state,
        args,
        changes,
        ns,
        lambda items, n: [{**i, **update} if k == n else i for k, i in enumerate(items)],
    )


@register_behavior("todo_remove_completed_items")
def todo_remove_completed_items(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """Remove every item that is done (nothing to remove is no error, as in HA)."""
    loc, items = _todo(state, ns)
    kept = [i for i in items if i.get("status") != "completed"]
    if len(kept) != len(items):
        _todo_write(kept, changes, loc, ns)
    return None


# ---------------------------------------------------------------------------------- Matter
# Behaviours of the Matter catalog (``catalog/matter``). Components there are Matter clusters
# named ``<endpoint>.<Cluster>``, so a behaviour finds the other clusters of its endpoint from
# the namespace it runs in (``1.LevelControl`` -> ``1.OnOff.OnOff``).

FAN_STEP_PERCENT = 10
"""Percentage points one FanControl Step moves (Matter leaves the step size to the maker)."""

RVC_IDLE, RVC_CLEANING, RVC_MAPPING = 0, 1, 2
"""RvcRunMode mode values used by the catalog's robot vacuum (tags Idle, Cleaning, Mapping)."""

OPSTATE_STOPPED, OPSTATE_RUNNING, OPSTATE_PAUSED = 0, 1, 2
"""OperationalStateEnum values shared by OperationalState and RvcOperationalState."""


def _endpoint(ns: str) -> str:
    return ns.split(".", 1)[0]


FAN_MODE_PERCENT = {0: 0, 1: 33, 2: 66, 3: 100}
"""PercentSetting a FanMode write sets (Off, Low, Medium, High), SimuHome's values for the
Off/Low/Medium/High(/Auto) sequences; a percent maps back to the lowest mode at or above it."""
FAN_MODE_AUTO = 5


def _fan_mode_for(percent: int) -> int:
    """FanModeEnum matching a percent setting: Matter keeps FanMode consistent with it."""
    if percent <= 0:
        return 0  # Off
    if percent <= 33:
        return 1  # Low
    if percent <= 66:
        return 2  # Medium
    return 3  # High


def _set_speed(state: Mapping[str, Any], changes: dict[str, Any], ns: str, percent: int) -> None:
    """Matter keeps FanControl's three speed attributes in step: PercentSetting, the FanMode
    covering it, and PercentCurrent (the running speed, while the unit is on)."""
    changes[f"{ns}.PercentSetting"] = percent
    changes[f"{ns}.FanMode"] = _fan_mode_for(percent)
    if state.get(f"{_endpoint(ns)}.OnOff.OnOff", True):
        changes[f"{ns}.PercentCurrent"] = percent


@register_behavior("fan_percent_setting_write")
def fan_percent_setting_write(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """A write of FanControl.PercentSetting: the fan runs at that speed (PercentCurrent, while
    the unit is on) and FanMode moves to the mode covering it (0 % is Off), as the Matter
    FanControl cluster requires; without it a unit left at FanMode 0 would not blow at all."""
    _set_speed(state, changes, ns, int(args["value"]))
    return None


@register_behavior("fan_mode_write")
def fan_mode_write(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """A write of FanControl.FanMode: Off, Low, Medium and High set PercentSetting (and the
    running speed) to the mode's percent; Auto leaves the speed to the unit (kept as it is)."""
    mode = int(args["value"])
    if mode == FAN_MODE_AUTO:
        return None
    percent = FAN_MODE_PERCENT.get(mode)
    if percent is None:
        return f"fan mode {mode} has no speed on this unit (0 Off, 1 Low, 2 Medium, 3 High, 5 Auto)"
    _set_speed(state, changes, ns, percent)  # FAN_MODE_PERCENT maps back to the written mode
    return None


@register_behavior("fan_control_step")
def fan_control_step(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """FanControl Step: move PercentSetting by one step, honouring ``wrap`` and ``lowestOff``.

    A percentage needs arithmetic the declarative effects lack; FanMode and PercentCurrent are
    updated too, because the service requires the fan on and Matter keeps FanMode in step.
    """
    cur = int(state[f"{ns}.PercentSetting"])
    lowest = 0 if args.get("lowestOff", True) is not False else FAN_STEP_PERCENT
    if args["direction"] == 0:  # Increase
        new = lowest if cur >= 100 and args.get("wrap") else min(100, cur + FAN_STEP_PERCENT)
    else:  # Decrease
        new = 100 if cur <= lowest and args.get("wrap") else max(lowest, cur - FAN_STEP_PERCENT)
    _set_speed(state, changes, ns, new)  # Step requires the unit on: PercentCurrent follows
    return None


@register_behavior("thermostat_setpoint_raise_lower")
def thermostat_setpoint_raise_lower(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """Thermostat SetpointRaiseLower: ``amount`` is in 0.1 °C, setpoints in 0.01 °C.

    Like Matter servers, the result is clamped to the absolute limits instead of rejected, so
    "two degrees warmer" near a limit still does what it can.
    """
    mode, delta = args["mode"], int(args["amount"]) * 10
    targets = {0: ("Heat",), 1: ("Cool",), 2: ("Heat", "Cool")}[mode]
    for kind in targets:
        loc = f"{ns}.Occupied{'Heating' if kind == 'Heat' else 'Cooling'}Setpoint"
        if loc not in state:
            return f"this thermostat has no {kind.lower()}ing setpoint"
        lo = state.get(f"{ns}.AbsMin{kind}SetpointLimit", -27315)
        hi = state.get(f"{ns}.AbsMax{kind}SetpointLimit", 32767)
        changes[loc] = min(max(int(state[loc]) + delta, lo), hi)
    return None


def _level_bounds(state: Mapping[str, Any], ns: str) -> tuple[int, int]:
    return int(state.get(f"{ns}.MinLevel", 1)), int(state.get(f"{ns}.MaxLevel", 254))


@register_behavior("level_move_to_level_with_on_off")
def level_move_to_level_with_on_off(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """LevelControl MoveToLevelWithOnOff: set the level and switch OnOff with it.

    A level above MinLevel turns the light on; MinLevel or below (0 is allowed in the command)
    leaves it at MinLevel and off, which is how Matter controllers dim a light out.
    Transitions are instantaneous in the simulation.
    """
    lo, hi = _level_bounds(state, ns)
    level = min(max(int(args["level"]), lo), hi)
    changes[f"{ns}.CurrentLevel"] = level
    changes[f"{_endpoint(ns)}.OnOff.OnOff"] = level > lo
    return None


def _step_level(state: Mapping[str, Any], args: dict[str, Any], ns: str) -> tuple[int, int, int]:
    lo, hi = _level_bounds(state, ns)
    size = int(args["stepSize"])
    cur = int(state[f"{ns}.CurrentLevel"])
    new = cur + size if args["stepMode"] == 0 else cur - size
    return min(max(new, lo), hi), lo, hi


@register_behavior("level_step")
def level_step(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """LevelControl Step: ``stepMode`` 0 up, 1 down, by ``stepSize``, clamped to the limits."""
    changes[f"{ns}.CurrentLevel"] = _step_level(state, args, ns)[0]
    return None


@register_behavior("level_step_with_on_off")
def level_step_with_on_off(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """LevelControl StepWithOnOff: as Step, turning on when stepping up and off at MinLevel."""
    new, lo, _ = _step_level(state, args, ns)
    changes[f"{ns}.CurrentLevel"] = new
    changes[f"{_endpoint(ns)}.OnOff.OnOff"] = new > lo
    return None


RVC_IDLE_TAG = 0x4000
"""The Matter ModeTag of an idle run mode: a robot's run modes are numbered by its maker (the
catalog's Idle is 0, SimuHome's 1), their tags say which one is idle."""
OPSTATE_SEEKING_CHARGER = 64
"""RvcOperationalState SeekingCharger: the robot drives back to its dock."""


def _idle_mode(state: Mapping[str, Any], ns: str) -> Any:
    """The run mode tagged Idle in the robot's SupportedModes (the catalog's 0 by default)."""
    for option in state.get(f"{ns}.SupportedModes") or ():
        tags = [t.get("value") if isinstance(t, dict) else t for t in option.get("modeTags") or ()]
        if RVC_IDLE_TAG in tags:
            return option.get("mode")
    return RVC_IDLE


def _change_run_mode(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str, ending: int
) -> str | None:
    ep = _endpoint(ns)
    cur, new, idle = state[f"{ns}.CurrentMode"], args["newMode"], _idle_mode(state, ns)
    op_loc = f"{ep}.RvcOperationalState.OperationalState"
    if new == cur:
        return None
    if cur != idle and new != idle:
        return (
            f"the robot is in run mode {cur}; end the session first (1.RvcRunMode.ChangeToMode "
            f"newMode {idle}, Idle), then change to {new}; Matter does not switch between two "
            "active run modes"
        )
    if new == idle:
        if state.get(op_loc) in (OPSTATE_RUNNING, OPSTATE_PAUSED):
            changes[op_loc] = ending
        return None
    battery = state.get(f"{ep}.PowerSource.BatPercentRemaining")
    if isinstance(battery, int) and battery < 2 * MIN_CLEANING_BATTERY:
        return (
            f"battery at {battery / 2:g}% is below the {MIN_CLEANING_BATTERY}% needed to clean;"
            f" send it to its dock first ({ep}.RvcOperationalState.GoHome)"
        )
    changes[op_loc] = OPSTATE_RUNNING
    return None


@register_behavior("rvc_change_run_mode")
def rvc_change_run_mode(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """RvcRunMode ChangeToMode: the robot starts or ends a session with its run mode.

    Matter forbids moving between two non-Idle modes directly (InvalidInMode); Cleaning and
    Mapping set RvcOperationalState to Running (so the simulator starts the programme), Idle
    stops a running or paused session. Which mode is idle the modes' tags say. A nearly empty
    battery refuses to start (as the HomeEnv cleaners do); BatPercentRemaining counts half
    percents.
    """
    return _change_run_mode(state, args, changes, ns, OPSTATE_STOPPED)


@register_behavior("rvc_change_run_mode_then_dock")
def rvc_change_run_mode_then_dock(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """As ``rvc_change_run_mode``, but ending a running or paused session sends the robot back
    to its dock (SeekingCharger), as SimuHome's robot does."""
    return _change_run_mode(state, args, changes, ns, OPSTATE_SEEKING_CHARGER)


def _channels(state: Mapping[str, Any], ns: str) -> list[dict[str, Any]]:
    return list(state.get(f"{ns}.ChannelList") or [])


def _channel_label(ch: Mapping[str, Any]) -> str:
    return f"{ch['majorNumber']}.{ch['minorNumber']} {ch.get('name', '')}".strip()


@register_behavior("channel_change_by_number")
def channel_change_by_number(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """Channel ChangeChannelByNumber: tune to the ChannelList entry with these numbers."""
    for ch in _channels(state, ns):
        if ch["majorNumber"] == args["majorNumber"] and ch["minorNumber"] == args["minorNumber"]:
            changes[f"{ns}.CurrentChannel"] = dict(ch)
            return None
    known = ", ".join(_channel_label(c) for c in _channels(state, ns))
    return f"no channel {args['majorNumber']}.{args['minorNumber']}; channels: {known}"


@register_behavior("channel_change")
def channel_change(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """Channel ChangeChannel: ``match`` is a channel name, call sign or number ("7", "7.1").

    Matter answers NoMatches / MultipleMatches; here both reject the call with the channel list.
    """
    want = str(args["match"]).strip().casefold()
    hits = []
    for ch in _channels(state, ns):
        keys = {str(ch.get(k, "")).casefold() for k in ("name", "callSign", "affiliateCallSign")}
        keys |= {f"{ch['majorNumber']}.{ch['minorNumber']}"}
        if ch["minorNumber"] == 0:
            keys.add(str(ch["majorNumber"]))
        if want in keys - {""}:
            hits.append(ch)
    known = ", ".join(_channel_label(c) for c in _channels(state, ns))
    if not hits:
        return f"no channel matches {args['match']!r}; channels: {known}"
    if len(hits) > 1:
        return f"{args['match']!r} matches several channels; use ChangeChannelByNumber ({known})"
    changes[f"{ns}.CurrentChannel"] = dict(hits[0])
    return None


def _skip(state: Mapping[str, Any], ns: str, count: int) -> dict[str, Any] | None:
    chans = _channels(state, ns)
    if not chans:
        return None
    cur = state.get(f"{ns}.CurrentChannel")
    idx = next((i for i, c in enumerate(chans) if c == cur), 0)
    return dict(chans[(idx + count) % len(chans)])


@register_behavior("channel_skip")
def channel_skip(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """Channel SkipChannel: move ``count`` entries through ChannelList, wrapping around."""
    ch = _skip(state, ns, int(args["count"]))
    if ch is None:
        return "this player has no channel list"
    changes[f"{ns}.CurrentChannel"] = ch
    return None


KEY_PLAY, KEY_STOP, KEY_PAUSE, KEY_CHANNEL_UP, KEY_CHANNEL_DOWN = 68, 69, 70, 48, 49
"""CECKeyCodeEnum values whose effect the simulation models (other keys only navigate)."""


@register_behavior("keypad_send_key")
def keypad_send_key(
    state: Mapping[str, Any], args: dict[str, Any], changes: dict[str, Any], ns: str
) -> str | None:
    """KeypadInput SendKey: playback and channel keys act on MediaPlayback and Channel."""
    ep, key = _endpoint(ns), args["keyCode"]
    playback = f"{ep}.MediaPlayback.CurrentState"
    if key in (KEY_PLAY, KEY_PAUSE, KEY_STOP) and playback in state:
        changes[playback] = {KEY_PLAY: 0, KEY_PAUSE: 1, KEY_STOP: 2}[key]
    elif key in (KEY_CHANNEL_UP, KEY_CHANNEL_DOWN):
        ch = _skip(state, f"{ep}.Channel", 1 if key == KEY_CHANNEL_UP else -1)
        if ch is not None:
            changes[f"{ep}.Channel.CurrentChannel"] = ch
    return None
