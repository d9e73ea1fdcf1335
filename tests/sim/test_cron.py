"""Cron: SMH-Bench's Quartz forms and Unix forms give the same instants."""

from __future__ import annotations

from datetime import datetime

import pytest

from smh_core.homeenv.cron import CronError, parse_cron

START = datetime(2024, 6, 1, 12, 0, 0)  # a Saturday


def fires(expr: str, n: int = 3, start: datetime = START) -> list[datetime | None]:
    c, t, out = parse_cron(expr), start, []
    for _ in range(n):
        t = c.next_after(t)
        out.append(t)
        if t is None:
            break
    return out


def test_one_shot_quartz_with_year():
    assert fires("0 0 22 27 6 ? 2024") == [datetime(2024, 6, 27, 22), None]


def test_daily_quartz():
    assert fires("0 0 14 * * ? *") == [datetime(2024, 6, d, 14) for d in (1, 2, 3)]


def test_quartz_weekdays_are_sunday_based_from_one():
    # Quartz 2-6 = Monday..Friday; Unix 1-5 = Monday..Friday
    assert fires("0 30 7 ? * 2-6 *", 5) == fires("30 7 * * 1-5", 5)
    assert all(t.weekday() < 5 for t in fires("0 30 7 ? * 2-6 *", 10))
    assert fires("0 0 9 ? * 1 *", 2) == [
        datetime(2024, 6, 2, 9),
        datetime(2024, 6, 9, 9),
    ]  # Sundays
    assert fires("0 0 9 ? * MON *", 1) == [datetime(2024, 6, 3, 9)]


def test_day_of_month_is_not_ored_with_weekday():
    assert fires("0 0 8 15 * ? *", 2) == [datetime(2024, 6, 15, 8), datetime(2024, 7, 15, 8)]


def test_seconds_field():
    assert fires("30 * * * * ?", 2) == [
        datetime(2024, 6, 1, 12, 0, 30),
        datetime(2024, 6, 1, 12, 1, 30),
    ]


def test_matches():
    assert parse_cron("0 0 14 * * ? *").matches(datetime(2024, 6, 3, 14))
    assert not parse_cron("0 0 14 * * ? *").matches(datetime(2024, 6, 3, 14, 0, 1))


@pytest.mark.parametrize("expr", ["0 0 25 * * ? *", "* * *", "0 0 9 ? * 8 *", "a b c d e"])
def test_bad_expressions_name_themselves(expr):
    with pytest.raises(CronError, match="cron"):
        parse_cron(expr)
