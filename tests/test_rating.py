"""The difficulty rating: the mean bunkers destroyed with its interval, Wilson intervals, the
star bands, the adaptive stopping rule, and the rating on ``bgrid simulate``, the sheet and
``map.json``."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.players.rating import (RATING_PLAYER, STAR_FLOORS, Rating, is_settled, mean_interval,
                                  star_band, stars_for, wilson_interval)


def test_wilson_interval_matches_hand_worked_values():
    # 5 of 10: centre 0.5, half-width 1.96/(1+0.38416) * sqrt(0.025 + 0.0096040) = 0.26340
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    # 0 of 10: [0, z²/(n+z²)] = [0, 3.8415/13.8415]
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)


def test_mean_interval_matches_hand_worked_values():
    # 2, 3, 4, 3: mean 3, s² = (1 + 0 + 1 + 0)/3, s = 0.81650, half = 1.95996 * 0.81650 / 2 = 0.80015
    low, high = mean_interval([2, 3, 4, 3])
    assert low == pytest.approx(2.19985, abs=1e-4) and high == pytest.approx(3.80015, abs=1e-4)
    # 0 and 6: s = 4.2426, half = 5.88 > 3: kept inside the 0-6 bunkers a game can destroy
    assert mean_interval([0, 6]) == (0.0, 6.0)
    assert mean_interval([4]) == (0.0, 6.0)  # one game says nothing of the spread


def test_the_floors_fall_from_one_star_to_four():
    assert list(STAR_FLOORS) == sorted(STAR_FLOORS, reverse=True) and len(STAR_FLOORS) == 4


def test_stars_go_up_as_the_bunkers_destroyed_go_down():
    # floors 2.65, 2.35, 1.95, 1.6 bunkers a game for 1, 2, 3, 4 stars
    assert [stars_for(x) for x in (6.0, 2.65, 2.64, 2.35, 2.34, 1.95, 1.94, 1.6, 1.59, 0.0)] == \
        [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]


def test_a_star_band_runs_from_its_floor_to_the_floor_of_one_star_fewer():
    assert star_band(1) == (2.65, 6.0)
    assert star_band(3) == (1.95, 2.35)
    assert star_band(5) == (0.0, 1.6)


def _games(hundredths: int, games: int) -> tuple[int, ...]:
    """``games`` games of two neighbouring counts whose bunkers destroyed add up to
    ``hundredths`` · ``games`` / 100, rounded down."""
    low, extra = divmod(hundredths * games // 100, games)
    return (low + 1,) * extra + (low,) * (games - extra)


def test_rating_record_has_the_mean_its_interval_the_stars_their_band_and_the_wins():
    # 2, 3, 4, 3 bunkers: mean 3.0 (1 star: ≥ 2.65), interval 2.19985-3.80015: 1 star at the
    # top, 3 at the bottom (1.95-2.35)
    rating = Rating((2, 3, 4, 3), 0)
    assert rating.as_dict() == {
        "stars": 1, "stars_ci95": [1, 3], "stars_band": [2.65, 6.0], "mean_bunkers": 3.0,
        "ci95": [2.2, 3.8], "bunkers": 6, "games": 4, "wins": 0, "win_rate": 0.0,
        "win_rate_ci95": [0.0, round(wilson_interval(0, 4)[1], 4)], "player": RATING_PLAYER}


def test_star_text_is_filled_stars_then_hollow_ones_to_five():
    assert Rating(_games(220, 100), 0).star_text == "★★★☆☆"  # 2.2: between 1.95 and 2.35
    assert Rating((6,) * 10, 10).star_text == "★☆☆☆☆"
    assert Rating((0,) * 10, 0).star_text == "★★★★★"


def test_a_rating_is_settled_when_its_interval_lies_within_one_band():
    # 512 games, 102 threes and 410 twos: mean 2.199, s = 0.400, half = 1.96 · 0.400 / √512
    # = 0.035: 2.164-2.234, all of it 3 stars (1.95-2.35).
    assert is_settled(Rating(_games(220, 512), 0))
    # 16 games, 3 threes: mean 2.1875, s = 0.403, half = 0.197: 1.990-2.385, stars 2 and 3.
    assert not is_settled(Rating(_games(220, 16), 0))
    # 1,203 bunkers over 512 games: mean 2.3496, just under the 2-star floor, which the
    # interval straddles.
    assert not is_settled(Rating(_games(235, 512), 0))


def test_simulate_rates_the_map_with_the_rating_player_and_own_deck_only():
    runner = CliRunner()
    data = json.loads(runner.invoke(cli, ["simulate", "--seed", "6", "--games", "20", "--player",
                                          RATING_PLAYER, "--json"]).output)
    assert data["rating"]["games"] == 20 and data["rating"]["player"] == RATING_PLAYER
    assert data["rating"]["stars"] == stars_for(data["rating"]["mean_bunkers"])
    assert data["win_rate_ci95"] == data["rating"]["win_rate_ci95"]
    text = runner.invoke(cli, ["simulate", "--seed", "6", "--games", "20", "--player", RATING_PLAYER]).output
    assert f"Rating      {data['rating']['stars']} of 5 stars: " in text
    other = "strong" if RATING_PLAYER != "strong" else "greedy"
    played = json.loads(runner.invoke(cli, ["simulate", "--seed", "6", "--games", "2", "--player",
                                            other, "--json"]).output)
    assert "rating" not in played and len(played["win_rate_ci95"]) == 2
    challenge = json.loads(runner.invoke(cli, ["simulate", "--seed", "6", "--games", "2", "--player",
                                               RATING_PLAYER, "--challenge-deck", "--json"]).output)
    assert "rating" not in challenge


def test_the_sheet_prints_the_stars_their_interval_and_band_only_when_rated():
    from bgrid.challenges.mission import mission_from_seed
    from bgrid.generator.sheet import render_sheet_html

    mission = mission_from_seed(1944, "hard")
    # 2, 3, 4, 3: mean 3.00, interval 2.20-3.80, stars 1-3; 1 star: 2.65 bunkers or more
    rated = " ".join(render_sheet_html(mission, rating=Rating((2, 3, 4, 3), 1)).split())
    assert f"★☆☆☆☆</b> 1 star: a {RATING_PLAYER} player destroys 2.65–6.00 of 6 bunkers a game; " \
           "here <b>3.00</b> (95% 2.20–3.80, stars 1–3, 4 games)" in rated
    assert "bunkers a game" not in render_sheet_html(mission) and "★" not in render_sheet_html(mission)


def test_pack_rate_puts_the_stars_on_the_sheet_and_the_numbers_in_map_json(tmp_path):
    from pdf_probe import reader

    runner = CliRunner()
    out = tmp_path / "a"
    result = runner.invoke(cli, ["pack", "--seed", "6", "--difficulty", "easy", "--rate", "12",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    rating = json.loads(next(out.glob("*/map.json")).read_text())["rating"]
    assert set(rating) == {"stars", "stars_ci95", "stars_band", "mean_bunkers", "ci95", "bunkers", "games",
                           "wins", "win_rate", "win_rate_ci95", "player", "deck", "sim_seed"}
    assert rating["games"] == 12 and rating["player"] == RATING_PLAYER and rating["sim_seed"] == 0
    assert rating["deck"] == "own" and rating["bunkers"] == 6
    assert rating["stars"] == stars_for(rating["mean_bunkers"])
    assert rating["stars_band"] == list(star_band(rating["stars"]))
    assert rating["ci95"][0] <= rating["mean_bunkers"] <= rating["ci95"][1]
    sheet = next(out.glob("*/sheet-a4.pdf")).read_bytes()
    text = " ".join(reader(sheet).pages[0].extract_text().split())
    assert "12 games)" in text and "★" * rating["stars"] in text
    assert f"of 6 bunkers a game; here {rating['mean_bunkers']:.2f} (95% " in text
    again = tmp_path / "b"
    runner.invoke(cli, ["pack", "--seed", "6", "--difficulty", "easy", "--rate", "12", "--out", str(again)])
    assert next(again.glob("*/sheet-a4.pdf")).read_bytes() == sheet  # same seeds, same stars, same bytes


def test_a_rating_needs_a_generated_map_and_a_game_count(tmp_path):
    runner = CliRunner()
    blank = runner.invoke(cli, ["sheet", "--blank", "--rate", "--out", str(tmp_path)])
    assert blank.exit_code == 2 and "--rate needs --seed or --code" in blank.output
    zero = runner.invoke(cli, ["pack", "--seed", "6", "--rate", "0", "--out", str(tmp_path)])
    assert zero.exit_code == 2 and "0 is out of range" in zero.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.pure_python_only("patches the rating's module globals, which mypyc binds when it compiles")
def test_an_adaptive_rating_plays_the_same_games_as_a_fixed_one(monkeypatch):
    import bgrid.players.rating as rating
    from bgrid.challenges.mission import mission_from_seed
    from bgrid.players.simulation import simulate

    monkeypatch.setattr(rating, "RATING_BATCH", 2)
    monkeypatch.setattr(rating, "RATING_MOST", 6)
    monkeypatch.setattr(rating, "is_settled", lambda r: False)  # play to the most
    mission = mission_from_seed(21, "easy")
    adaptive = rating.rate_mission(mission, None)
    played = simulate(mission, 6, 0, player=RATING_PLAYER)
    assert adaptive == Rating(played.bunkers, played.wins)


@pytest.mark.pure_python_only("patches the rating's module globals, which mypyc binds when it compiles")
def test_an_adaptive_rating_stops_at_the_first_batch_that_settles(monkeypatch):
    import bgrid.players.rating as rating
    from bgrid.challenges.mission import mission_from_seed

    monkeypatch.setattr(rating, "RATING_BATCH", 3)
    monkeypatch.setattr(rating, "is_settled", lambda r: r.games >= 6)
    assert rating.rate_mission(mission_from_seed(21, "easy"), None).games == 6
