"""The difficulty rating: Wilson intervals, the star mapping, and ``bgrid simulate``'s
rating output."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.players.rating import Rating, stars_for, wilson_interval


def test_wilson_interval_matches_hand_worked_values():
    # 5 of 10: centre 0.5, half-width 1.96/(1+0.38416) * sqrt(0.025 + 0.0096040) = 0.26340
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    # 0 of 10: [0, z²/(n+z²)] = [0, 3.8415/13.8415]
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)


def test_wilson_interval_narrows_with_more_games_and_holds_the_rate():
    for wins, games in ((3, 20), (30, 200), (300, 2000)):
        low, high = wilson_interval(wins, games)
        assert low < wins / games < high
    assert (wilson_interval(300, 2000)[1] - wilson_interval(300, 2000)[0]
            < wilson_interval(3, 20)[1] - wilson_interval(3, 20)[0])


def test_stars_go_up_as_the_win_rate_goes_down():
    assert [stars_for(p) for p in (0.9, 0.40, 0.39, 0.20, 0.15, 0.10, 0.05, 0.04, 0.03, 0.0)] == \
        [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]


def test_rating_record():
    # 3 wins of 20: 15% (3 stars); the interval 5.2%-36.0% spans 2 stars (>= 20%) to 4 (>= 4%).
    assert Rating(3, 20).as_dict() == {"stars": 3, "stars_ci95": [2, 4], "win_rate": 0.15,
                                       "ci95": [round(x, 4) for x in wilson_interval(3, 20)],
                                       "games": 20}


def test_simulate_rates_the_map_with_the_strong_player_and_own_deck_only():
    runner = CliRunner()
    data = json.loads(runner.invoke(cli, ["simulate", "--seed", "6", "--games", "4", "--player",
                                          "strong", "--json"]).output)
    assert data["rating"]["games"] == 4
    assert data["rating"]["stars"] == stars_for(data["wins"] / 4)
    assert data["win_rate_ci95"] == data["rating"]["ci95"]
    text = runner.invoke(cli, ["simulate", "--seed", "6", "--games", "4", "--player", "strong"]).output
    assert f"Rating      {data['rating']['stars']} of 5 stars" in text
    greedy = json.loads(runner.invoke(cli, ["simulate", "--seed", "6", "--games", "4", "--player",
                                            "greedy", "--json"]).output)
    assert "rating" not in greedy and len(greedy["win_rate_ci95"]) == 2


def test_star_text_is_filled_stars_then_hollow_ones_to_five():
    assert Rating(5, 64).star_text == "★★★★☆"  # 7.8%: between the 4% and 10% floors, 4 stars
    assert Rating(40, 64).star_text == "★☆☆☆☆"  # 62.5%: 1 star
    assert Rating(0, 64).star_text == "★★★★★"


def test_the_sheet_prints_the_stars_and_the_games_only_when_rated():
    from bgrid.generator.sheet import render_sheet_html
    from bgrid.challenges.mission import mission_from_seed

    mission = mission_from_seed(1944, "hard")
    rated = render_sheet_html(mission, rating=Rating(5, 64))
    # the interval's ends: 17% is 3 stars (10-20%), 3.4% is 5 (< 4%)
    assert "★★★★☆</b> hard (stars 3–5 within the interval) · rated over 64 games" in rated
    assert "strong player won 5, 95% interval 3–17%" in rated  # Wilson 5/64 by hand: 0.0338–0.1702
    assert "rated over" not in render_sheet_html(mission) and "★" not in render_sheet_html(mission)


def test_pack_rate_puts_the_stars_on_the_sheet_and_the_numbers_in_map_json(tmp_path):
    from pdf_probe import reader

    runner = CliRunner()
    out = tmp_path / "a"
    result = runner.invoke(cli, ["pack", "--seed", "6", "--difficulty", "easy", "--rate", "3",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    record = json.loads(next(out.glob("*/map.json")).read_text())
    rating = record["rating"]
    assert rating["games"] == 3 and rating["player"] == "strong" and rating["sim_seed"] == 0
    assert rating["stars"] == stars_for(rating["wins"] / 3)
    assert rating["win_rate"] == round(rating["wins"] / 3, 4)
    sheet = next(out.glob("*/sheet-a4.pdf")).read_bytes()
    text = reader(sheet).pages[0].extract_text()
    assert "rated over 3 games" in text and "★" * rating["stars"] in text
    again = tmp_path / "b"
    runner.invoke(cli, ["pack", "--seed", "6", "--difficulty", "easy", "--rate", "3", "--out", str(again)])
    assert next(again.glob("*/sheet-a4.pdf")).read_bytes() == sheet  # same seeds, same stars, same bytes


def test_a_rating_needs_a_generated_map_and_a_game_count(tmp_path):
    runner = CliRunner()
    blank = runner.invoke(cli, ["sheet", "--blank", "--rate", "--out", str(tmp_path)])
    assert blank.exit_code == 2 and "--rate needs --seed or --code" in blank.output
    zero = runner.invoke(cli, ["pack", "--seed", "6", "--rate", "0", "--out", str(tmp_path)])
    assert zero.exit_code == 2 and "0 is out of range" in zero.output
    assert list(tmp_path.iterdir()) == []


def test_a_rating_is_settled_when_its_interval_holds_one_star_or_is_narrow():
    from bgrid.players.rating import is_settled

    # 60/64: Wilson 85.0%-97.6%, all of it 1 star (>= 40%).
    assert is_settled(Rating(60, 64))
    # 0/32: 0%-10.7%, stars 3 to 5, and ±5.4 points: not yet.
    assert not is_settled(Rating(0, 32))
    # 5/256: 0.8%-4.5%, stars 4 to 5 but only ±1.8 points wide: settled.
    assert is_settled(Rating(5, 256))


def test_an_adaptive_rating_plays_the_same_games_as_a_fixed_one(monkeypatch):
    import bgrid.players.rating as rating
    from bgrid.challenges.mission import mission_from_seed
    from bgrid.players.simulation import simulate

    monkeypatch.setattr(rating, "RATING_BATCH", 2)
    monkeypatch.setattr(rating, "RATING_MOST", 4)
    monkeypatch.setattr(rating, "is_settled", lambda r: False)  # play to the most
    mission = mission_from_seed(21, "easy")
    adaptive = rating.rate_mission(mission, None)
    assert adaptive.games == 4 and adaptive.wins == simulate(mission, 4, 0, player="strong").wins
