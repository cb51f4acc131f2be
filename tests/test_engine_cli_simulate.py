"""``bgrid simulate``: the summary, the JSON record, determinism and misuse (exit status 2)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.challenges.mission import mission_from_seed
from bgrid.players.playout import simulate


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_simulate_prints_win_rate_and_mean_score():
    result = run("simulate", "--seed", "1944", "--games", "30")
    assert result.exit_code == 0, result.output
    assert "0M00-0001-WR3" in result.output
    assert "Win rate" in result.output and "Mean score" in result.output
    assert "30 games by the random player" in result.output


def test_simulate_json_matches_the_library_and_is_deterministic():
    first = run("simulate", "--code", "0M00-0001-WR3", "--games", "25", "--json", "--sim-seed", "3")
    again = run("simulate", "--seed", "1944", "--games", "25", "--json", "--sim-seed", "3")
    assert first.exit_code == 0 and first.output == again.output
    data = json.loads(first.output)
    lib = simulate(mission_from_seed(1944), 25, 3)
    assert data["games"] == 25 and data["wins"] == lib.wins
    assert data["mean_score"] == round(lib.mean_score, 3)
    assert sum(data["score_counts"].values()) == 25
    assert sum(data["outcomes"].values()) == 25
    assert data["deck"] == "own"


def test_simulate_with_the_challenge_deck():
    data = json.loads(run("simulate", "--seed", "5", "--games", "10", "--challenge-deck", "--json").output)
    assert data["deck"] == "challenge" and data["games"] == 10


def test_simulate_misuse_is_one_line_with_status_two():
    for args in (["simulate"], ["simulate", "--seed", "1", "--games", "0"],
                 ["simulate", "--seed", "1", "--code", "0M00-0001-WR3"],
                 ["simulate", "--seed", "abc"]):
        result = run(*args)
        assert result.exit_code == 2, args
        assert result.output.startswith("Error: ") and "Traceback" not in result.output


def test_simulate_help_has_an_example():
    result = run("simulate", "--help")
    assert result.exit_code == 0 and "bgrid simulate --seed 1944" in result.output


def test_simulate_with_the_greedy_player():
    data = json.loads(run("simulate", "--seed", "4", "--games", "20", "--player", "greedy", "--json").output)
    assert data["player"] == "greedy" and data["games"] == 20
    lib = simulate(mission_from_seed(4), 20, 0, player="greedy")
    assert data["wins"] == lib.wins and data["mean_score"] == round(lib.mean_score, 3)
    assert run("simulate", "--seed", "4", "--player", "clever").exit_code == 2


def test_greedy_games_written_as_logs_verify(tmp_path):
    result = run("simulate", "--seed", "4", "--games", "6", "--player", "greedy",
                 "--write-logs", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert len(list(tmp_path.glob("game-*.log"))) == 6
    verified = run("verify", str(tmp_path))
    assert verified.exit_code == 0, verified.output  # every log valid
