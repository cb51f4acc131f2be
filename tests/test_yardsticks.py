"""The two yardsticks of a challenge (R42): the open-deck par (the solver, knowing every card)
and the blind benchmark (the strong player's median drawing blind, over runs with distinct
sampling seeds); and the distinct games a challenge-deck simulation counts."""

import json
import statistics

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.players.blind import BlindBenchmark, blind_benchmark, median_interval_ranks
from bgrid.challenges.codes import ChallengeSpec
from bgrid.players.simulated_logs import simulated_logs
from bgrid.challenges.mission import ChallengeOrigin, Mission, mission_from_code
from bgrid.players.simulation import PLAYERS, simulate
from bgrid.players.solver import solve

from engine_boards import RULESET, board, stacked
from test_solver import SMALL

WEEKLY = "0GDR-FC73-W4T"  # easy, 1 ridge: strong once repeated one lost game on its deck


def hand_built(game_map, deck) -> Mission:
    """A challenge on an explicit map with an explicit deck, top first."""
    return Mission(ChallengeOrigin(ChallengeSpec("standard-1", "normal", 1, 0)), RULESET, "normal", game_map,
                   tuple(deck), tuple(range(1, len(deck) + 1)), {})


def test_both_yardsticks_are_two_when_the_bunker_is_one_move_away_and_the_hit_is_sure():
    # Entry 3H: C1 facing south at altitude 4; the hand 2S 7H 10C JC QC; the bomb's reveal
    # 5H is a heart, a hit from the high band (R16). Knowing the deck or not, the one good
    # line is move FF to C3 and bomb: victory, 2 points, in every run.
    mission = hand_built(board(bunkers="C3"), stacked("3H 2S 7H 10C JC QC 5H"))
    par = solve(mission.game_map, RULESET, "normal", mission.deck, mission.reshuffle, portfolio=SMALL)
    assert par.best.score == 2
    blind = blind_benchmark(mission, 7)
    assert blind.scores == (2,) * 7 and blind.median == 2 and blind.interval == (2, 2)
    assert blind.runs == 7 and blind.distinct == 1  # the same game seven times: nothing to guess


def test_the_blind_benchmark_is_the_median_of_the_runs_and_its_order_statistic_interval():
    # Ten runs scoring 0..9 (in any order): median 4.5; with ten runs the 95% interval of a
    # median is the 2nd to the 9th lowest (P(Bin(10, 1/2) <= 1) = 11/1024 <= 2.5% and
    # P(<= 2) = 56/1024 > 2.5%), here 1 to 8.
    blind = BlindBenchmark((5, 3, 9, 0, 7, 1, 8, 2, 6, 4), distinct=10)
    assert blind.median == 4.5 and blind.interval == (1, 8)
    record = blind.as_dict()
    assert (record["blind_median"], record["blind_runs"], record["blind_interval"]) == (4.5, 10, [1, 8])


@pytest.mark.parametrize(("runs", "ranks"), [(5, (1, 5)), (6, (1, 6)), (10, (2, 9)), (20, (6, 15)),
                                             (40, (14, 27)), (100, (40, 61))])
def test_median_interval_ranks_match_the_binomial_tables(runs, ranks):
    # Rank j is the largest with P(Bin(runs, 1/2) < j) <= 0.025 (tables of the sign test);
    # below six runs even the extremes cover less than 95%, and the interval is min to max.
    assert median_interval_ranks(runs) == ranks


def test_strong_games_on_a_challenge_deck_each_draw_their_own_samples():
    # The cards are fixed; only the strong player's sampled shuffles differ, game k from its
    # own stream sim-k. Counted independently: the logs of the same games, as text.
    mission = mission_from_code(WEEKLY)
    result = simulate(mission, 6, 3, challenge_deck=True, player="strong")
    logs = {text for _, text in simulated_logs(mission, 6, 3, challenge_deck=True,
                                               player=PLAYERS["strong"])}
    assert result.distinct == len(logs) > 1


def test_simulate_reports_how_many_games_differ():
    out = CliRunner().invoke(cli, ["simulate", "--code", WEEKLY, "--challenge-deck", "--player", "strong",
                                   "--games", "4", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["games"] == 4 and 1 <= data["distinct_games"] <= 4
    text = CliRunner().invoke(cli, ["simulate", "--code", WEEKLY, "--challenge-deck", "--player", "greedy",
                                    "--games", "3"]).output
    assert "Games       3, " in text and " different " in text


def test_solve_blind_adds_the_blind_benchmark_beside_the_open_deck_par(monkeypatch):
    import bgrid.players.solver as solver
    from test_solver import QUICK

    monkeypatch.setattr(solver, "PORTFOLIO", QUICK)
    out = CliRunner().invoke(cli, ["solve", "--code", WEEKLY, "--blind", "5", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    scores = simulate(mission_from_code(WEEKLY), 5, 0, challenge_deck=True, player="strong").scores
    assert data["blind_runs"] == 5 and data["blind_median"] == statistics.median(scores)
    assert data["blind_interval"] == [min(scores), max(scores)]  # five runs: min to max
    text = CliRunner().invoke(cli, ["solve", "--code", WEEKLY, "--blind", "5"]).output
    assert "Open-deck par  " in text and "Blind benchmark  " in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_sheet_header_names_both_yardsticks_and_keeps_the_page_count(paper):
    from bgrid.challenges.mission import mission_from_seed
    from bgrid.generator.sheet import render_sheet, render_sheet_html
    from bgrid.players.rating import Rating
    from pdf_probe import reader

    mission = mission_from_seed(1944)
    blind = BlindBenchmark((-3,) * 20 + (12,) * 20, 40)  # median 4.5, interval -3 to 12
    html = render_sheet_html(mission, paper, None, 15, Rating((2, 3) * 128, 0), blind)
    assert "open-deck par <b>15</b> (every card known: the stacking list is public, R42)" in html
    assert "blind benchmark <b>4.5</b> (strong player drawing blind, median of 40 runs, 95% -3–12)" in html
    plain = len(reader(render_sheet(mission, paper)).pages)
    assert len(reader(render_sheet(mission, paper, None, 15, Rating((2, 3) * 128, 0), blind)).pages) == plain
