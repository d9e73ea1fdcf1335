"""Hostile input: the engine answers any JSON value with a result, never an exception.

Agents send whatever their model produced, so ``did``, ``locator``, ``arguments`` and the items
of ``execute_many`` may be any JSON value (and Python callers can go further: integers past
CPython's 4,300-digit str limit, NaN, infinities). The contract: ``execute`` returns ``ok`` or a
:class:`ServiceError` naming the field, a rejected call leaves the home byte-identical, and
what the engine hands out or takes in is never shared with the caller.
Home files get the same treatment: any bad file is one ``ValueError`` naming the file.
"""

from __future__ import annotations

import json
import math
import random
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from smh_core.homeenv import model, shapes
from smh_core.homeenv.engine import HomeEngine, load_home, register_behavior
from smh_core.homeenv.errors import ErrorCode, ExecResult, ServiceError
from smh_core.homeenv.model import Home, ValueSpec
from smh_core.homeenv.samples import valid_value
from smh_core.homeenv.validation import compile_checker
from smh_core.homes.generator import generate_home
from smh_core.homes.simulated import generate_matter_home

HOMES = {"medium-0": generate_home("medium", 0), "matter-0": generate_matter_home(0)}
"""The brief's generated home, and a Matter home (writable attributes, behaviours, 64-bit ints)."""
HOME = HOMES["medium-0"]


@register_behavior("test_hostile_boom")
def _boom(state: Any, args: dict[str, Any], changes: dict[str, Any], ns: str) -> str | None:
    """A behaviour that writes a change and then fails on its argument (plug-in code's bug)."""
    changes["count"] = 1
    return f"n is {args['n'] // 0}"


LAB = {
    "rooms": [{"id": "r1", "type": "living_room", "name": "Living room"}],
    "devices": [
        {
            "name": "Lab device",
            "userdata": {
                "did": "lab",
                "spid": "test.lab",
                "category": "test",
                "subcategory": "lab",
                "room": "r1",
            },
            "attributes": [
                {"name": "state", "type": "str", "options": ["on", "off"], "value": "off"},
                {
                    "name": "target_temperature",
                    "type": "float",
                    "range": [16, 30],
                    "precision": 0.5,
                    "value": 24.0,
                },
                {
                    "name": "level",
                    "type": "float",
                    "precision": 0.1,
                    "value": 0.3,
                    "writable": True,
                },
                {"name": "ratio", "type": "float", "value": 0.0, "writable": True},
                {"name": "count", "type": "int", "value": 0, "writable": True},
                {
                    "name": "color",
                    "type": "hex",
                    "range": [0, 16777215],
                    "value": "#FFFFFF",
                    "writable": True,
                },
                {
                    "name": "tags",
                    "type": "list",
                    "items": {"type": "str"},
                    "value": ["a"],
                    "writable": True,
                },
                {"name": "label", "type": "str", "value": "", "writable": True},
            ],
            "services": [
                {"name": "turn_on", "effects": [{"set": "state", "value": "on"}]},
                {
                    "name": "set_target_temperature",
                    "arguments": [
                        {
                            "name": "target_temperature",
                            "type": "float",
                            "range": [16, 30],
                            "precision": 0.5,
                        }
                    ],
                    "effects": [{"set": "target_temperature", "arg": "target_temperature"}],
                },
                {
                    "name": "set_count",
                    "arguments": [{"name": "count", "type": "int"}],
                    "effects": [{"set": "count", "arg": "count"}],
                },
                {
                    "name": "set_ratio",
                    "arguments": [{"name": "ratio", "type": "float"}],
                    "effects": [{"set": "ratio", "arg": "ratio"}],
                },
                {
                    "name": "set_color",
                    "arguments": [{"name": "color", "type": "hex", "range": [0, 16777215]}],
                    "effects": [{"set": "color", "arg": "color"}],
                },
                {
                    "name": "set_tags",
                    "arguments": [{"name": "tags", "type": "list", "items": {"type": "str"}}],
                    "effects": [{"set": "tags", "arg": "tags"}],
                },
                {
                    "name": "boom",
                    "arguments": [{"name": "n", "type": "int"}],
                    "behavior": "test_hostile_boom",
                },
            ],
        }
    ],
}


def _id(value: Any) -> str | None:
    """Short test ids: pytest would str() a 5,000-digit int (and fail) or print 100k characters."""
    if isinstance(value, int) and value.bit_length() > 64:
        return f"{'-' if value < 0 else ''}int{value.bit_length()}bits"
    if isinstance(value, str) and len(value) > 20:
        return f"str{len(value)}"
    return None


@pytest.fixture
def lab() -> HomeEngine:
    return HomeEngine(Home.model_validate(LAB))


def _frozen(engine: HomeEngine) -> str:
    """The whole state as exact text: types (1 vs 1.0 vs true) and order included."""
    return json.dumps(engine.snapshot().to_dict())


def _assert_rejected(
    engine: HomeEngine, result: ExecResult, before: str, *codes: ErrorCode
) -> ServiceError:
    """A well-formed rejection that changed nothing; returns the error for further checks."""
    assert isinstance(result, ExecResult) and not result.ok and not result.changes
    err = result.error
    assert isinstance(err, ServiceError) and isinstance(err.message, str) and err.message
    assert err.code in ErrorCode
    assert not codes or err.code in codes, err
    for name in ("did", "locator", "field"):
        assert getattr(err, name) is None or isinstance(getattr(err, name), str), (name, err)
    assert len(err.message) < 2000
    json.dumps(result.to_dict())  # an agent gets it back as JSON
    assert _frozen(engine) == before
    return err


# ------------------------------------------------------------------ strategies
# Huge ints here stay below CPython's 4,300-digit repr limit so that hypothesis can still print a
# failing example; the explicit tests below go past it.
_huge_ints = st.integers(min_value=63, max_value=4000).flatmap(
    lambda bits: st.sampled_from([2**bits, -(2**bits)])
)
_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | _huge_ints
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["\ud800", "FFFFFF\n", "#FFFFFF", "on", "off", "value", ""])
    | st.integers(min_value=300, max_value=5000).map(lambda n: "x" * n)
)
JSON = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.text(max_size=8) | st.sampled_from(["value", "did", "locator"]), inner, max_size=4
        )
    ),
    max_leaves=10,
)


def _arg_specs(engine: HomeEngine) -> dict[tuple[str, str], list[tuple[str, ValueSpec]]]:
    """(did, locator) -> the arguments it takes: a service's, or ``value`` for an attribute."""
    out: dict[tuple[str, str], list[tuple[str, ValueSpec]]] = {}
    for did in engine.device_ids():
        dev = engine.device(did)
        for loc, attr in dev.attributes_by_locator():
            out[(did, loc)] = [("value", attr)]
        for loc, svc in dev.services_by_locator():
            out[(did, loc)] = [(a.name, a) for a in svc.arguments]
    return out


ARG_SPECS = {name: _arg_specs(HomeEngine(home)) for name, home in HOMES.items()}
LOCATORS: dict[str, dict[str, list[str]]] = {name: {} for name in HOMES}
for _name, _specs in ARG_SPECS.items():
    for _did, _loc in _specs:
        LOCATORS[_name].setdefault(_did, []).append(_loc)


def _mostly(real: st.SearchStrategy, draw: st.DrawFn) -> Any:
    """A draw from ``real`` four times in five, else any JSON value."""
    return draw(real) if draw(st.integers(0, 4)) else draw(JSON)


@st.composite
def calls(draw: st.DrawFn, home: str = "medium-0") -> tuple[Any, Any, Any]:
    """(did, locator, arguments), each mostly a real name of this home (and arguments mostly
    the right names with a valid or arbitrary value each), so that draws reach every stage of
    validation and some succeed, instead of all stopping at "no such device"."""
    did = _mostly(st.sampled_from(sorted(LOCATORS[home])), draw)
    locs = LOCATORS[home].get(did) if isinstance(did, str) else None
    locator = _mostly(st.sampled_from(locs), draw) if locs else draw(JSON)
    known = isinstance(did, str) and isinstance(locator, str)
    specs = ARG_SPECS[home].get((did, locator), []) if known else []
    if not draw(st.integers(0, 4)):
        return did, locator, draw(JSON)
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    arguments: dict[str, Any] = {}
    for name, spec in specs:
        pick = draw(st.integers(0, 9))
        if pick < 5:
            arguments[name] = valid_value(spec, rng)
        elif pick < 9:
            arguments[name] = draw(JSON)
    if not draw(st.integers(0, 9)):
        arguments[draw(st.text(max_size=8))] = draw(JSON)
    return did, locator, arguments


def _assert_state_valid(engine: HomeEngine) -> None:
    """Every attribute passes its own checker and the state is plain JSON (no NaN)."""
    for did in engine.device_ids():
        state = engine.status(did)
        for loc, a in engine.device(did).attributes_by_locator():
            assert compile_checker(a, loc)(state[loc]) is None, (did, loc, state[loc])
    json.dumps(engine.snapshot().to_dict(), allow_nan=False)


def _scramble(value: Any) -> None:
    """Edit every list and dict inside ``value`` in place (what a careless caller might do)."""
    if isinstance(value, list):
        for item in value:
            _scramble(item)
        value.append("scrambled")
    elif isinstance(value, dict):
        for item in list(value.values()):
            _scramble(item)
        value["scrambled"] = True


# ------------------------------------------------------------------ properties
@pytest.mark.parametrize("home", sorted(HOMES))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_json_call_gives_a_result_and_a_rejection_changes_nothing(home, data):
    engine = HomeEngine(HOMES[home])
    did, locator, arguments = data.draw(calls(home), label="call")
    before = _frozen(engine)
    result = engine.execute(did, locator, arguments)
    if not result.ok:
        _assert_rejected(engine, result, before)
        return
    _assert_state_valid(engine)
    after = _frozen(engine)
    _scramble(arguments)  # the caller's objects are not the home's
    assert _frozen(engine) == after


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    items=st.lists(
        calls().map(lambda c: {"did": c[0], "locator": c[1], "arguments": c[2]}) | JSON, max_size=4
    ),
    atomic=st.booleans(),
)
def test_any_json_batch_gives_one_result_per_item(items, atomic):
    engine = HomeEngine(HOME)
    before = _frozen(engine)
    results = engine.execute_many(items, atomic=atomic)
    assert len(results) == len(items)
    assert all(isinstance(r, ExecResult) for r in results)
    for r in results:
        if not r.ok:
            assert isinstance(r.error, ServiceError)
            json.dumps(r.to_dict())
    if atomic and not all(r.ok for r in results):
        assert _frozen(engine) == before
    _assert_state_valid(engine)


@settings(max_examples=100, deadline=None)
@given(actions=JSON.filter(lambda v: not isinstance(v, list)))
def test_a_batch_that_is_not_a_list_is_one_error(actions):
    engine = HomeEngine(HOME)
    before = _frozen(engine)
    for atomic in (True, False):
        [result] = engine.execute_many(actions, atomic=atomic)
        _assert_rejected(engine, result, before, ErrorCode.BAD_ARGUMENTS)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    values=st.dictionaries(
        st.sampled_from(["target_temperature", "level", "count", "color", "tags", "label", "nope"]),
        JSON,
        max_size=3,
    )
    | JSON,
    did=st.sampled_from(["lab", "@r1"]) | JSON,
)
def test_set_values_takes_any_json_too(values, did):
    engine = HomeEngine(Home.model_validate(LAB))
    before = _frozen(engine)
    result = engine.set_values(did, values)
    if not result.ok:
        _assert_rejected(engine, result, before)
    else:
        _assert_state_valid(engine)
    before = _frozen(engine)
    result = engine.set_many({"lab": values} if isinstance(did, str) else values)
    if not result.ok:
        _assert_rejected(engine, result, before)


# ------------------------------------------------------------------ regressions, one per finding
@pytest.mark.parametrize(
    "locator", [["turn_on"], {"turn_on": {}}, None, 7, 1.5, True, 10**5000], ids=_id
)
def test_a_locator_that_is_not_a_string_is_a_service_error(lab, locator):
    before = _frozen(lab)
    err = _assert_rejected(
        lab, lab.execute("lab", locator, {}), before, ErrorCode.SERVICE_NOT_FOUND
    )
    assert "locator must be a string" in err.message and "turn_on" in err.allowed


@pytest.mark.parametrize(
    "did", [["lab"], {"did": "lab"}, None, 7, 1.5, 10**5000, "x" * 100_000], ids=_id
)
def test_a_did_that_is_not_a_device_is_reported_briefly(lab, did):
    before = _frozen(lab)
    err = _assert_rejected(lab, lab.execute(did, "turn_on", {}), before, ErrorCode.DEVICE_NOT_FOUND)
    assert len(err.did) < 1000


@pytest.mark.parametrize(
    "value", [10**400, -(10**400), 2**1030, math.inf, -math.inf, math.nan], ids=_id
)
def test_huge_or_non_finite_floats_are_rejected(lab, value):
    before = _frozen(lab)
    for locator, args in [
        ("set_target_temperature", {"target_temperature": value}),
        ("set_ratio", {"ratio": value}),
        ("ratio", {"value": value}),
        ("level", {"value": value}),
    ]:
        err = _assert_rejected(
            lab,
            lab.execute("lab", locator, args),
            before,
            ErrorCode.OUT_OF_RANGE,
            ErrorCode.TYPE_ERROR,
        )
        assert err.field in ("target_temperature", "ratio", "value")
    _assert_rejected(lab, lab.set_values("lab", {"ratio": value}), before)


@pytest.mark.parametrize("value", [2**63, -(2**63) - 1, 10**400, 10**4301, -(10**5000)], ids=_id)
def test_integers_beyond_64_bits_are_rejected_with_a_short_message(lab, value):
    """An int past 4,300 digits cannot even be repr()'d; the message must still be built."""
    before = _frozen(lab)
    for locator, args in [
        ("set_count", {"count": value}),
        ("count", {"value": value}),
        ("boom", {"n": value}),
    ]:
        err = _assert_rejected(
            lab, lab.execute("lab", locator, args), before, ErrorCode.OUT_OF_RANGE
        )
        assert "64-bit" in err.message and len(err.message) < 400


def test_64_bit_integers_are_still_accepted(lab):
    assert lab.execute("lab", "set_count", {"count": 2**63 - 1}).ok
    assert lab.execute("lab", "count", {"value": -(2**63)}).ok
    assert lab.value("lab", "count") == -(2**63)


def test_a_failing_behaviour_is_a_rejection_not_an_exception(lab):
    before = _frozen(lab)
    err = _assert_rejected(
        lab, lab.execute("lab", "boom", {"n": 5}), before, ErrorCode.PRECONDITION_FAILED
    )
    assert "ZeroDivisionError" in err.message


@pytest.mark.parametrize(
    "items", [[None], [1, "x"], [[]], [{"did": "lab", "locator": "turn_on"}, None]]
)
@pytest.mark.parametrize("atomic", [True, False])
def test_batch_items_that_are_not_objects_are_errors(lab, items, atomic):
    before = _frozen(lab)
    results = lab.execute_many(items, atomic=atomic)
    assert len(results) == len(items)
    bad = next(i for i, a in enumerate(items) if not isinstance(a, dict))
    assert results[bad].error.code == ErrorCode.BAD_ARGUMENTS
    assert results[bad].error.field == f"actions[{bad}]"
    if atomic:
        assert _frozen(lab) == before
    else:
        assert lab.value("lab", "state") == (
            "on" if items[0] == {"did": "lab", "locator": "turn_on"} else "off"
        )


@pytest.mark.parametrize("actions", [None, 5, "abc", {"did": "lab", "locator": "turn_on"}])
def test_a_batch_that_is_not_a_list_is_rejected(lab, actions):
    before = _frozen(lab)
    [result] = lab.execute_many(actions)
    err = _assert_rejected(lab, result, before, ErrorCode.BAD_ARGUMENTS)
    assert err.field == "actions"


@pytest.mark.parametrize(
    "color",
    [
        "FFFFFF\n",
        "#FFFFFF\n",
        " FFFFFF",
        "#FFFFFF ",
        "#FF FF",
        "\u0661\u0662",
        "##FFFFFF",
        "0x",
        "#",
        "",
        "FFFFFF\r\n",
    ],
)
def test_hex_must_match_exactly(lab, color):
    before = _frozen(lab)
    for locator, args in [("set_color", {"color": color}), ("color", {"value": color})]:
        err = _assert_rejected(lab, lab.execute("lab", locator, args), before, ErrorCode.TYPE_ERROR)
        assert "hex" in err.message


@pytest.mark.parametrize("color", ["#FFAA00", "ffaa00", "0xFFAA00", "0X00ff00", "#000000"])
def test_hex_in_the_allowed_forms_is_accepted(lab, color):
    assert lab.execute("lab", "set_color", {"color": color}).ok
    assert lab.value("lab", "color") == color


@pytest.mark.parametrize(
    ("locator", "args", "field"),
    [
        ("set_target_temperature", {"target_temperature": 24.0000001}, "target_temperature"),
        ("set_target_temperature", {"target_temperature": 24.25}, "target_temperature"),
        ("set_target_temperature", {"target_temperature": 23.9999999}, "target_temperature"),
        ("level", {"value": 0.30000001}, "value"),
        ("level", {"value": 1e-9}, "value"),
    ],
)
def test_off_grid_values_are_rejected_naming_field_and_step(lab, locator, args, field):
    """Off-grid values used to pass when within 1e-6 of a step and were stored as given."""
    before = _frozen(lab)
    err = _assert_rejected(
        lab, lab.execute("lab", locator, args), before, ErrorCode.PRECISION_ERROR
    )
    assert err.field == field
    assert "not a multiple of" in err.message
    assert err.allowed["precision"] in (0.5, 0.1)


@pytest.mark.parametrize("value", [0.1 * 3, 0.3, 23.3, -20 + 433 * 0.1, 1e6 + 0.1, 0.0, 5])
def test_values_on_the_grid_up_to_float_noise_are_accepted(lab, value):
    assert lab.execute("lab", "level", {"value": value}).ok
    assert lab.value("lab", "level") == value  # stored as given, not rounded


def test_status_and_value_return_copies(lab):
    before = _frozen(lab)
    status = lab.status("lab")
    status["tags"].append("b")
    status["state"] = "on"
    lab.value("lab", "tags").append("c")
    lab.snapshot().to_dict()["lab"]["tags"].append("d")
    assert _frozen(lab) == before
    assert lab.status("lab")["tags"] == ["a"]


def test_status_copies_do_not_leak_into_other_engines():
    """Initial values are the shared device model's own lists: editing one must not reach them."""
    a = HomeEngine(Home.model_validate(LAB))
    a.status("lab")["tags"].append("x")
    b = HomeEngine(a.home)
    assert b.status("lab")["tags"] == ["a"]


def test_arguments_are_copied_on_the_way_in(lab):
    tags = ["x", "y"]
    assert lab.execute("lab", "set_tags", {"tags": tags}).ok
    tags.append("z")
    values = ["p"]
    assert lab.execute("lab", "tags", {"value": values}).ok
    values.append("q")
    assert lab.value("lab", "tags") == ["p"]
    more = {"tags": ["m"]}
    assert lab.set_values("lab", more).ok
    more["tags"].append("n")
    assert lab.value("lab", "tags") == ["m"]


@pytest.mark.parametrize("text", ["\ud800", "ok\udfff"])
def test_lone_surrogates_are_rejected(lab, text):
    """JSON can carry them, but a home holding one could never be saved again."""
    before = _frozen(lab)
    _assert_rejected(
        lab, lab.execute("lab", "label", {"value": text}), before, ErrorCode.TYPE_ERROR
    )
    _assert_rejected(
        lab, lab.execute("lab", "set_tags", {"tags": [text]}), before, ErrorCode.TYPE_ERROR
    )


def test_unexpected_argument_names_are_quoted_briefly(lab):
    before = _frozen(lab)
    err = _assert_rejected(
        lab,
        lab.execute("lab", "set_count", {"n" * 100_000: 1}),
        before,
        ErrorCode.UNEXPECTED_ARGUMENT,
    )
    assert len(err.message) < 1000


# ------------------------------------------------------------------ loading
def _rooms(n: int, parent_of=lambda i: f"r{i - 1}" if i else None) -> dict[str, Any]:
    return {
        "rooms": [
            {"id": f"r{i}", "type": "room", "name": f"Room {i}", "parent": parent_of(i)}
            for i in range(n)
        ],
        "devices": [],
    }


BAD_FILES: dict[str, tuple[str | bytes, str]] = {  # file name -> (content, expected message)
    "deep.json": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    "nan.json": ('{"rooms": [], "devices": [], "name": NaN}', "NaN is not a JSON value"),
    "inf.json": ('{"rooms": [], "devices": [], "x": -Infinity}', "Infinity is not a JSON value"),
    "bigint.json": ('{"rooms": [], "devices": [], "x": ' + "9" * 5000 + "}", "invalid JSON"),
    "latin1.json": (b"\xff\xfe{}", "not UTF-8"),
    "list.json": ("[]", "invalid home"),
    "rooms1000.json": (json.dumps(_rooms(1000)), "nested 65 rooms deep"),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_home_files_give_one_error_naming_the_file(tmp_path, name):
    content, message = BAD_FILES[name]
    path = tmp_path / name
    (path.write_bytes if isinstance(content, bytes) else path.write_text)(content)
    with pytest.raises(ValueError, match=message) as info:
        load_home(path)
    assert str(info.value).startswith(str(path))
    with pytest.raises(ValueError, match=message):
        HomeEngine.from_file(path)


def test_a_directory_or_missing_path_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="is a directory") as info:
        load_home(tmp_path)
    assert str(info.value).startswith(str(tmp_path))
    with pytest.raises(ValueError, match="cannot read home file") as info:
        load_home(tmp_path / "missing.json")
    assert str(info.value).startswith(str(tmp_path / "missing.json"))


def test_from_file_names_the_file_when_the_home_does_not_compile(tmp_path):
    data = json.loads(json.dumps(LAB))
    data["devices"][0]["attributes"][1]["value"] = 24.0000001  # off the 0.5 grid
    path = tmp_path / "offgrid.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match="initial value invalid.*not a multiple of 0.5") as info:
        HomeEngine.from_file(path)
    assert str(info.value).startswith(str(path))


def test_rooms_may_nest_up_to_the_limit(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(_rooms(model.MAX_ROOM_DEPTH)))
    engine = HomeEngine.from_file(path)
    assert engine.subrooms("r0") == {f"r{i}" for i in range(model.MAX_ROOM_DEPTH)}


def test_room_nesting_check_is_linear(monkeypatch):
    """20,000 chained rooms took tens of seconds (each room walked its chain to the top)."""
    monkeypatch.setattr(shapes, "MAX_ROOM_DEPTH", 10**9)  # where the check reads it
    data = _rooms(20_000)
    t0 = time.process_time()
    home = Home.model_validate(data)
    engine = HomeEngine(home)
    deepest = engine.subrooms("r19990")
    assert len(engine.subrooms("r0")) == 20_000
    assert time.process_time() - t0 < 5.0
    assert deepest == {f"r{i}" for i in range(19_990, 20_000)}
    data["rooms"][0]["parent"] = "r19999"
    t0 = time.process_time()
    with pytest.raises(ValueError, match="room parent cycle through 'r0'"):
        Home.model_validate(data)
    assert time.process_time() - t0 < 5.0


def test_cycle_message_names_the_first_room_whose_chain_loops():
    data = _rooms(5, parent_of=lambda i: {0: None, 1: "r0", 2: "r4", 3: "r2", 4: "r3"}[i])
    with pytest.raises(ValueError, match="room parent cycle through 'r2'"):
        Home.model_validate(data)


def test_duplicate_ids_are_named():
    data = _rooms(3, parent_of=lambda i: None)
    data["rooms"][2]["id"] = "r0"
    with pytest.raises(ValueError, match=r"duplicate room ids: \['r0'\]"):
        Home.model_validate(data)
