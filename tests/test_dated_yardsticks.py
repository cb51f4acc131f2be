"""Both yardsticks (R42) on every dated sheet: ``bgrid daily --pack`` (and ``--weekly``) puts
the open-deck par and the blind benchmark on the sheet's header and in ``map.json`` unless
``--no-yardsticks``; ``bgrid pack --code`` leaves them out and prints the command that gives
them (``pack --yardsticks``). They are computed as ``--winnable`` computes them
(``players.blind_beside.yardsticks``: the solve here, the blind games in a worker beside it).

On a4de785 (before this), ``bgrid daily --date 2027-02-17 --pack`` printed
``daily 2027-02-17: 0MC1-D2K7-30Y (normal, 1 ridge, seed 413829536864)`` and wrote a
``map.json`` without ``open_deck_par`` or ``blind_median`` and a sheet whose header had
neither.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import bgrid.players.blind_beside as beside_module
from bgrid.challenges.mission import mission_from_code
from bgrid.cli import cli
from bgrid.players.blind import blind_benchmark
from bgrid.players.solver import solve_mission

from pdf_probe import reader
from test_solver import QUICK

DAY = "2027-02-17"
DAILY_CODE = "0MC1-D2K7-30Y"  # bgrid daily --date 2027-02-17 (tests/test_daily.py's procedure)
WEEKLY_CODE = "0SEE-FG3E-FZ6"  # bgrid daily --date 2027-02-17 --weekly
RUNS = 4  # blind games in the quick tests: enough to tell a benchmark, few enough for the suite


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def header_text(sheet) -> str:
    """Page 1's text on one line: the header with its yardsticks line."""
    return " ".join(reader(sheet.read_bytes()).pages[0].extract_text().split())


@pytest.fixture
def quick(monkeypatch):
    """The one quick search of tests/test_solver.py and 4 blind games: the same code path as
    the standard portfolio and 40 games, in a fraction of a second."""
    import bgrid.players.blind as blind
    import bgrid.players.solver as solver
    monkeypatch.setattr(solver, "PORTFOLIO", QUICK)
    monkeypatch.setattr(blind, "BLIND_RUNS", RUNS)


@pytest.mark.parametrize(("period", "code"), [((), DAILY_CODE), (("--weekly",), WEEKLY_CODE)])
def test_a_dated_pack_puts_both_yardsticks_on_the_sheet_and_in_map_json(tmp_path, quick, period, code):
    result = run("daily", "--date", DAY, *period, "--pack", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    mission = mission_from_code(code)
    best = solve_mission(mission).best  # the same portfolio (QUICK), solved apart from the pack
    blind = blind_benchmark(mission, RUNS)
    record = json.loads((tmp_path / code / "map.json").read_text())
    assert record["open_deck_par"] == best.score
    assert record.get("winnable", False) is best.is_victory
    assert {k: v for k, v in record.items() if k.startswith("blind_")} == blind.as_dict()
    head = header_text(tmp_path / code / "sheet-a4.pdf")
    assert f"open-deck par {best.score} (every card known" in head
    assert f"blind benchmark {blind.as_dict()['blind_median']} (strong player drawing blind, median of " \
           f"{RUNS} runs" in head
    assert f"open-deck par {best.score}" in result.output and "blind benchmark" in result.output


def test_no_yardsticks_packs_at_once_without_them(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("--no-yardsticks ran a solve")

    monkeypatch.setattr(beside_module, "yardsticks", refuse)
    result = run("daily", "--date", DAY, "--pack", "--no-yardsticks", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    record = json.loads((tmp_path / DAILY_CODE / "map.json").read_text())
    assert not {"open_deck_par", "par", "winnable", "blind_median"} & set(record)
    assert "open-deck par" not in header_text(tmp_path / DAILY_CODE / "sheet-a4.pdf")


def test_a_plain_daily_code_runs_no_solve(monkeypatch):
    monkeypatch.setattr(beside_module, "yardsticks", lambda *a, **k: pytest.fail("a solve ran"))
    result = run("daily", "--date", DAY)
    assert result.exit_code == 0
    assert result.output == f"daily {DAY}: {DAILY_CODE} (normal, 1 ridge, seed 413829536864)\n"


def test_winnable_with_no_yardsticks_is_misuse(tmp_path):
    result = run("daily", "--date", DAY, "--winnable", "--pack", "--no-yardsticks", "--out", tmp_path)
    assert result.exit_code == 2 and "leave out --no-yardsticks" in result.output
    assert not any(tmp_path.iterdir())


def test_a_plain_pack_prints_the_command_that_gives_the_yardsticks(tmp_path, quick):
    result = run("pack", "--code", DAILY_CODE, "--paper", "letter", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    assert "open_deck_par" not in (tmp_path / DAILY_CODE / "map.json").read_text()
    command = f"bgrid pack --code {DAILY_CODE} --yardsticks --paper letter --out {tmp_path}"
    assert f"for the open-deck par and the blind benchmark: {command}" in result.output
    again = run(*command.split()[1:])
    assert again.exit_code == 0, again.output
    record = json.loads((tmp_path / DAILY_CODE / "map.json").read_text())
    assert record["open_deck_par"] == solve_mission(mission_from_code(DAILY_CODE)).best.score
    assert record["blind_runs"] == RUNS and "no yardsticks" not in again.output


def test_yardsticks_need_a_challenge_deck(tmp_path):
    result = run("pack", "--blank", "--yardsticks", "--out", tmp_path)
    assert result.exit_code == 2 and "--yardsticks needs --seed or --code" in result.output
    assert not any(tmp_path.iterdir())


def test_the_daily_of_2027_02_17_carries_its_real_yardsticks(tmp_path):
    """The issue's mission, with the standard portfolio and 40 blind games (about 12 s of CPU,
    two cores when free). Expected values from a separate run on a4de785, before this change:
    ``bgrid solve --code 0MC1-D2K7-30Y --blind --json`` gave par 14, outcome victory,
    blind_median 2, blind_interval [1, 7], 40 runs; the issue's blind player scored 2, "exactly
    the blind median (95% 1-7)"."""
    result = run("daily", "--date", DAY, "--pack", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    folder = tmp_path / DAILY_CODE
    record = json.loads((folder / "map.json").read_text())
    assert (record["winnable"], record["par"], record["open_deck_par"]) == (True, 14, 14)
    assert (record["blind_median"], record["blind_interval"], record["blind_runs"]) == (2, [1, 7], 40)
    assert "deck" not in record and "reshuffle" not in json.dumps(record)  # the order is deck-order.json's
    head = header_text(folder / "sheet-a4.pdf")
    assert "open-deck par 14 (every card known: the stacking list is public, R42) · blind benchmark 2 " \
           "(strong player drawing blind, median of 40 runs, 95% 1–7)" in head
    assert "· winnable" in head
