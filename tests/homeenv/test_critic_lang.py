"""The critic language: the paper's examples, implicit devices, coercion, errors, round trip."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from smh_core.homeenv import critic
from smh_core.homeenv.critic import (
    And,
    Compare,
    CriticSyntaxError,
    InSet,
    Lit,
    Not,
    Or,
    Ref,
    parse,
    unchanged_except,
)
from smh_core.homeenv.engine import HomeEngine


class Source(dict):
    """A minimal value source: {did: {locator: value}}."""

    def value(self, did, locator):
        if did not in self:
            raise LookupError(f"no device {did!r}")
        if locator not in self[did]:
            raise LookupError(f"device {did!r} has no attribute {locator!r}")
        return self[did][locator]


HOME = Source(
    {
        "9470": {"target_water_temperature": 45},
        "4267": {"state": "on", "preset_mode": "normal"},
        "3960": {"alias": "living-room sensor"},
        "5835": {"work_state": "playing", "volume_level": 40},
        "1144": {"brightness": 30},
        "5934": {"fan.state": "on", "fan.preset_mode": "natural"},
        "6681": {"work_state": "paused"},
        "5889": {"fan.state": "on", "fan.preset_mode": "sleep", "fan.oscillation_enabled": True},
        "9354": {"media_name": "light music", "volume_muted_enabled": False},
        "5267": {"no_move_duration": 901},
        "8666": {"current_temperature": 35.5},
        "4272": {
            "microwave_steam_oven.state": "cooking",
            "microwave_steam_oven.work_mode": "reheating",
            "microwave_steam_oven.target_cooking_time": 300,
            "microwave_steam_oven.remaining_running_time": 300,
        },
        "8817": {"player.volume_muted_enabled": False, "player.work_state": "playing"},
    }
)

PAPER_EXAMPLES = [
    "device(9470).target_water_temperature == 45",
    "device(4267).state == on and device(4267).preset_mode == normal",
    "device(3960).alias == living-room sensor",
    "device(5835).work_state == playing and volume_level == 40; device(1144).brightness == 30; "
    "device(5934).fan.state == on and fan.preset_mode == natural",
    "device(6681).work_state in {standby, paused}",
    "device(5889).fan.state == on and fan.preset_mode == sleep and fan.oscillation_enabled == True",
    "device(9354).media_name == light music and volume_muted_enabled == False",
    "device(5267).no_move_duration > 900",
    "device(8666).current_temperature > 35.0",
    "device(4272).microwave_steam_oven.state == cooking; work_mode == reheating; target_cooking_time == 300; "
    "remaining_running_time == 300",
    "device(8817).player.volume_muted_enabled == False and player.work_state == playing",
]


@pytest.mark.parametrize("text", PAPER_EXAMPLES)
def test_paper_examples_hold(text):
    c = parse(text)
    assert c.evaluate(HOME), c.explain(HOME)
    assert all(r.passed for r in c.explain(HOME))
    assert parse(c.to_text()) == c


@pytest.mark.parametrize(
    ("text", "failing"),
    [
        ("device(9470).target_water_temperature == 46", 1),
        ("device(3960).alias == bedroom sensor", 1),
        ("device(6681).work_state not in {standby, paused}", 1),
        (
            "device(5835).work_state == playing and volume_level == 41; device(1144).brightness == 31",
            2,
        ),
        ("device(5889).fan.oscillation_enabled == False", 1),
        ("device(5267).no_move_duration <= 900", 1),
        ("device(4272).microwave_steam_oven.state == cooking; work_mode == steam", 1),
    ],
)
def test_false_cases_say_which_comparison_failed(text, failing):
    c = parse(text)
    assert not c.evaluate(HOME)
    assert sum(not r.passed for r in c.explain(HOME)) == failing


def test_implicit_device_and_namespace():
    c = parse("device(4272).microwave_steam_oven.state == cooking; work_mode == reheating")
    second = c.explain(HOME)[1]
    assert (second.did, second.locator, second.actual) == (
        "4272",
        "microwave_steam_oven.work_mode",
        "reheating",
    )
    assert c.referenced_devices() == {"4272"}


def test_unique_component_attribute_resolves_on_snapshots():
    engine = HomeEngine.from_file(Path(__file__).parents[1] / "fixtures" / "tiny_home.json")
    # 'speed_level' exists only as fan.speed_level on device 1002
    assert parse("device(1002).light.state == off; speed_level == low").evaluate(engine.snapshot())


def test_coercion():
    src = Source({"1": {"n": 45, "f": 22.5, "b": True, "s": "45", "z": None}})
    assert parse("device(1).n == 45.0").evaluate(src)
    assert parse("device(1).f >= 22").evaluate(src)
    assert parse("device(1).b == true and b == True and b != False").evaluate(src)
    assert not parse("device(1).b == 1").evaluate(src)  # a boolean is not the number 1
    assert parse("device(1).s == 45").evaluate(src)
    assert parse("device(1).z == None").evaluate(src)
    assert parse("device(1).s == '45'").evaluate(src)
    assert not parse("device(1).s > x").evaluate(src)


def test_operators_and_precedence():
    src = Source({"1": {"a": 1, "b": 2}})
    assert parse("device(1).a == 2 or b == 2").evaluate(src)
    assert parse("not device(1).a == 2").evaluate(src)
    assert not parse("device(1).a == 1 and (b == 3 or a == 3)").evaluate(src)
    assert parse("device(1).a < device(1).b").evaluate(src)
    assert parse("device(1).a != 5; device(1).b > 1").evaluate(src)


def test_missing_things_are_false_with_reason():
    c = parse("device(42).state == on; device(9470).nope == 1")
    results = c.explain(HOME)
    assert not c.evaluate(HOME)
    assert "no device '42'" in results[0].reason and "no attribute 'nope'" in results[1].reason


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("device(1).a == 1 and (b == 2", "expected ')'", 28),
        ("device(1).a 1", "expected a comparison operator", 12),
        ("device(1).a == 1;; device(1).b == 2", "empty clause", 17),
        ("device().a == 1", "expected a device id", 7),
        ("device(1).a in {x, y", "expected ',' or '}'", 20),
        ("device(1).a == 1 and", "expected an attribute path", 20),
        ("state == on", "has no device", 0),
        ("device(1).a == 'open", "unterminated string", 15),
    ],
)
def test_syntax_errors_point_at_the_column(text, message, column):
    with pytest.raises(CriticSyntaxError) as exc:
        parse(text)
    assert message in exc.value.message
    assert exc.value.pos == column
    assert str(exc.value).splitlines()[-1] == " " + " " * column + "^"


def test_unchanged_except():
    engine = HomeEngine.from_file(Path(__file__).parents[1] / "fixtures" / "tiny_home.json")
    before = engine.snapshot()
    engine.execute("1001", "turn_on")
    engine.execute("1002", "fan.turn_on")
    stray = unchanged_except(before, engine.snapshot(), {"1001"})
    assert [(c.did, c.locator) for c in stray] == [("1002", "fan.state")]


def test_no_eval_in_the_module():
    source = Path(critic.__file__).read_text()
    assert not re.search(r"(?<![.\w])(eval|exec|compile)\(", source)  # re.compile is fine


_names = st.from_regex(r"[a-z][a-z_]{0,6}", fullmatch=True).filter(
    lambda s: s not in ("and", "or", "not", "in")
)
_lits = st.one_of(
    st.integers(-99, 999).map(str),
    _names,
    st.sampled_from(["True", "False", "living-room sensor"]),
    st.text(alphabet="ab ;)'", min_size=1, max_size=5).map(lambda s: s),
)


@st.composite
def _compare(draw, did):
    path = draw(st.one_of(_names, st.tuples(_names, _names).map(".".join)))
    left = Ref(did, path)
    if draw(st.booleans()):
        raw = draw(_lits)
        quoted = critic.needs_quotes(raw)
        return InSet(left, (Lit(raw, quoted),), draw(st.booleans()))
    raw = draw(_lits)
    return Compare(left, draw(st.sampled_from(critic._OPS)), Lit(raw, critic.needs_quotes(raw)))


@st.composite
def _node(draw, did, depth=0):
    if depth >= 2 or draw(st.booleans()):
        return draw(_compare(did))
    kind = draw(st.sampled_from(["and", "or", "not"]))
    if kind == "not":
        return Not(draw(_node(did, depth + 1)))
    items = tuple(draw(st.lists(_node(did, depth + 1), min_size=2, max_size=3)))
    return And(items) if kind == "and" else Or(items)


@given(st.lists(_node("7"), min_size=1, max_size=3))
def test_round_trip_property(clauses):
    text = "; ".join(c.to_text() for c in clauses)
    parsed = parse(text)
    assert parse(parsed.to_text()) == parsed
    assert parsed.to_text() == parse(parsed.to_text()).to_text()


# ---------------------------------------------------------------------- imported-home forms
IMPORTED = Source(
    {
        "living_room.light": {"state": "on", "brightness": 80},
        "it's odd": {"state": "off"},
        "tv1": {
            "1.Channel.CurrentChannel": {"majorNumber": 7, "minorNumber": 0, "name": "Sports"},
            "1.Channel.ChannelList": [{"majorNumber": 5}, {"majorNumber": 7}],
        },
    }
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("device('living_room.light').state == on", True),
        (
            'device("living_room.light").brightness >= 80; state == on',
            True,
        ),  # implicit device after a quoted id
        ("device('it\\'s odd').state == off", True),
        ("device( 'living_room.light' ).state == off", False),
    ],
)
def test_quoted_device_ids_reach_any_id(text, expected):
    c = parse(text)
    assert c.evaluate(IMPORTED) is expected
    assert (
        parse(c.to_text()).clauses == c.clauses
    )  # a dotted id is written back quoted, parses the same


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("device(tv1).1.Channel.CurrentChannel.majorNumber == 7", True),
        ("device(tv1).1.Channel.CurrentChannel.name == Sports", True),
        ("device(tv1).1.Channel.CurrentChannel.majorNumber == 5", False),
        ("device(tv1).1.Channel.ChannelList.1.majorNumber == 7", True),  # list items by index
    ],
)
def test_paths_reach_fields_of_object_attributes(text, expected):
    assert parse(text).evaluate(IMPORTED) is expected


@pytest.mark.parametrize(
    "text",
    [
        "device(tv1).1.Channel.CurrentChannel.callSign == KSPT",  # no such field
        "device(tv1).1.Channel.ChannelList.9.majorNumber == 7",  # no such item
        "device(tv1).1.Channel.CurrentChannel.majorNumber.x == 7",  # a number has no fields
    ],
)
def test_a_missing_field_fails_with_a_reason_not_an_exception(text):
    [result] = parse(text).explain(IMPORTED)
    assert result.passed is False and result.reason


@pytest.mark.parametrize("text", ["device('').state == on", "device('x.state == on"])
def test_bad_quoted_ids_are_syntax_errors(text):
    with pytest.raises(CriticSyntaxError):
        parse(text)


def test_bare_ids_are_still_written_bare():
    assert critic.device_id_text("9470") == "9470" and critic.device_id_text("@living") == "@living"
    assert critic.device_id_text("a.b") == "'a.b'"
