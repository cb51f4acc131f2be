"""Dated challenge codes (``challenges.daily``), checked against the procedure re-implemented
from its docstring alone, and a few codes pinned for good."""

from __future__ import annotations

import hashlib
import json
from datetime import date

import pytest

from bgrid.challenges.codes import ChallengeSpec, decode_code, encode_code
from bgrid.challenges.daily import DAILY, WEEKLY, dated_code, dated_spec

DATES = [date(2026, 1, 1), date(2026, 12, 1), date(2027, 1, 1), date(2028, 2, 29), date(1999, 12, 31)]
STANDARD_DIFFICULTIES = ["easy", "normal", "hard", "ace"]  # standard-1.json, in file order


def reference_seed(label: str) -> int:
    first = int.from_bytes(hashlib.shake_256(label.encode("ascii")).digest(8), "big")
    return first >> 24


def reference_iso_week(day: date) -> tuple[int, int]:
    """ISO 8601: weeks start on Monday; week 1 holds the year's first Thursday."""
    thursday = date.fromordinal(day.toordinal() - (day.weekday()) + 3)
    return thursday.year, (thursday.timetuple().tm_yday - 1) // 7 + 1


def reference_spec(day: date, period: str) -> ChallengeSpec:
    if period == DAILY:
        seed = reference_seed(f"bgrid/standard-1/daily/{day.isoformat()}")
        return ChallengeSpec("standard-1", "normal", 1, seed)
    year, week = reference_iso_week(day)
    seed = reference_seed(f"bgrid/standard-1/weekly/{year}-W{week:02d}")
    return ChallengeSpec("standard-1", STANDARD_DIFFICULTIES[(week - 1) % 4], 1 + ((week - 1) // 4) % 4, seed)


@pytest.mark.parametrize("day", DATES)
@pytest.mark.parametrize("period", [DAILY, WEEKLY])
def test_dated_spec_matches_the_documented_procedure(day, period):
    assert dated_spec(day, "standard-1", period) == reference_spec(day, period)


# Pinned: these codes are promised never to change for standard-1.
GOLDEN = [
    (date(2026, 12, 1), DAILY, "0MM6-T2CN-V1W"),
    (date(2027, 1, 1), DAILY, "0M5W-S2C3-NSF"),
    (date(2026, 12, 1), WEEKLY, "0GDR-FC73-W4T"),
    (date(2027, 1, 1), WEEKLY, "0HM1-KFV9-CG2"),
]


@pytest.mark.parametrize("day, period, code", GOLDEN)
def test_golden_dated_codes_never_change(day, period, code):
    assert dated_code(day, "standard-1", period) == code
    assert encode_code(reference_spec(day, period)) == code


def test_every_day_of_a_week_shares_the_weekly_code_and_the_next_week_differs():
    monday = date(2026, 11, 30)
    week = {dated_code(date.fromordinal(monday.toordinal() + k), period=WEEKLY) for k in range(7)}
    assert len(week) == 1
    assert dated_code(date(2026, 12, 7), period=WEEKLY) not in week


def test_consecutive_days_get_different_codes():
    codes = {dated_code(date.fromordinal(date(2026, 1, 1).toordinal() + k)) for k in range(60)}
    assert len(codes) == 60


def test_weekly_rotation_walks_through_every_difficulty_and_ridge_pairing_in_sixteen_weeks():
    mondays = [date.fromordinal(date(2024, 1, 1).toordinal() + 7 * k) for k in range(16)]  # weeks 1-16
    pairs = [(s.difficulty, s.ridges) for s in (dated_spec(d, period=WEEKLY) for d in mondays)]
    assert pairs[:5] == [("easy", 1), ("normal", 1), ("hard", 1), ("ace", 1), ("easy", 2)]
    assert len(set(pairs)) == 16


def test_an_accept_test_picks_the_first_accepted_seed_from_the_dates_seed_upward():
    day = date(2026, 12, 1)
    base = dated_spec(day).seed
    seen = []

    def accept(spec):
        seen.append(spec.seed)
        return spec.seed % 3 == 0

    spec = dated_spec(day, accept=accept)
    assert spec.seed % 3 == 0 and base <= spec.seed < base + 3
    assert seen == list(range(base, spec.seed + 1))
    assert decode_code(dated_code(day, accept=lambda s: s.seed % 3 == 0)) == spec


def test_an_accept_test_that_refuses_everything_stops_with_a_clear_error():
    from bgrid.rules.errors import BGridError

    with pytest.raises(BGridError, match="2026-12-01"):
        dated_spec(date(2026, 12, 1), accept=lambda spec: False, tries=5)


# -- bgrid daily -----------------------------------------------------------------------------


def run(*args):
    from click.testing import CliRunner

    from bgrid.cli import cli

    return CliRunner().invoke(cli, ["daily", *map(str, args)])


def test_cli_prints_the_code_of_the_day_and_of_its_week():
    assert run("--date", "2026-12-01", "-q").output == "0MM6-T2CN-V1W\n"
    assert run("--date", "2026-12-03", "--weekly", "-q").output == "0GDR-FC73-W4T\n"
    data = json.loads(run("--date", "2027-01-01", "--weekly", "--json").output)
    assert (data["key"], data["code"], data["difficulty"], data["ridges"]) == \
        ("2026-W53", "0HM1-KFV9-CG2", "easy", 2)


@pytest.mark.parametrize("bad", ["2026-13-01", "2026-2-1", "yesterday", "2026-02-30", ""])
def test_cli_refuses_a_date_that_is_not_a_calendar_day(bad):
    result = run("--date", bad)
    assert result.exit_code == 2 and "--date" in result.output and result.output.count("\n") == 1


def test_cli_pack_writes_the_challenge_pack_of_the_day(tmp_path):
    result = run("--date", "2026-12-01", "--pack", "--no-yardsticks", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    folder = tmp_path / "0MM6-T2CN-V1W"
    assert sorted(p.name for p in folder.iterdir()) == ["deck-a4.pdf", "deck-order.json", "map.json",
                                                         "sheet-a4.pdf"]
    assert json.loads((folder / "map.json").read_text())["code"] == "0MM6-T2CN-V1W"
