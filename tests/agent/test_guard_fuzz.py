"""No value a model sends crashes the action guard: every call is judged or refused with a
reason. A crash there would be scored "not scored" (the model's failure hidden as infra) and in
Assist heard as "SMH's agent failed"; before this, 1e400 as an integer raised OverflowError."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from smh_core.agent.safety import ActionGuard, load_policy

DEVICES = [
    {"did": "w1", "name": "Water Heater", "category": "water_heater"},
    {"did": "t1", "name": "Thermostat", "category": "climate", "temperature_unit": "°F"},
    {"did": "m1", "name": "Heat Pump", "category": "ac", "subcategory": "heat_pump"},
    {"did": "l1", "name": "Front Door", "category": "lock"},
    {"did": "o1", "name": "Oven", "category": "oven"},
]
LOCATORS = sorted(
    {p.replace("*", "x") for rule in load_policy() for p in rule.locators}
    | {"set_temperature", "1.Thermostat.OccupiedHeatingSetpoint", "target_water_temperature"}
)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    # far beyond any float and 64-bit integer, yet printable: Python refuses to turn an int of
    # over 4,300 digits into text, and Hypothesis prints a failing example before it shrinks it
    st.integers(min_value=10**300, max_value=10**4000),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=50),
    st.sampled_from(
        ["1e400", "-1e400", "nan", "inf", "80", " 90 ", "0x50", "٨٠", "1_000", "", "hot"]
    ),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
argument_names = st.sampled_from(
    [
        "temperature",
        "value",
        "target_temp_high",
        "hvac_mode",
        "operation_mode",
        "code",
        "1.Thermostat.OccupiedHeatingSetpoint",
        "work_mode",
        "x",
    ]
)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(
    device=st.sampled_from(DEVICES),
    locator=st.sampled_from(LOCATORS),
    arguments=st.dictionaries(argument_names, values, max_size=3),
    status=st.dictionaries(
        st.sampled_from(["temperature", "hvac_mode", "code_format", "target_water_temperature"]),
        values,
        max_size=3,
    ),
    said=st.text(max_size=80),
)
def test_the_guard_judges_any_call_without_raising(
    device, locator, arguments, status, said
) -> None:
    guard = ActionGuard([said])
    verdict = guard.check(device, locator, arguments, status=status)
    assert (
        verdict is None
        or "run_with" in verdict
        or verdict["error"]["code"]
        in {"needs_confirmation", "value_not_understood", "declined_by_user"}
    )
    guard.answer(said)  # a reply of any shape is read or ignored, never raises


def test_values_it_cannot_judge_are_refused_with_the_reason() -> None:
    heater = DEVICES[0]
    for value in (10**400, float("nan"), float("inf"), "1e400", [90], {"v": 90}, "hot"):
        verdict = ActionGuard(["set the water heater to 90 degrees"]).check(
            heater, "set_temperature", {"temperature": value}
        )
        assert verdict is not None and verdict["error"]["code"] == "value_not_understood", value
        assert "finite number" in verdict["error"]["message"]
    # a plain number is judged as before: asked for in words, it runs
    assert (
        ActionGuard(["set the water heater to 90 degrees"]).check(
            heater, "set_temperature", {"temperature": 90}
        )
        is None
    )
