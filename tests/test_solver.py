"""The solver: known best lines on small missions, solution logs that verify, the bound."""

import dataclasses
import json

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.cmd_solve import solution_log
from bgrid.rules.actions import Bomb, Move
from bgrid.rules.cards import Card
from bgrid.challenges.mission import mission_from_seed
from bgrid.players.search import play_plan
from bgrid.players.solver import Member, solve, solve_mission
from bgrid.verifier.verify import verify_log

from engine_boards import RULESET, board, stacked

#: A reduced portfolio for the suite's time, fixed here so the facts below do not move with
#: the standard portfolio: one member that only dives.
QUICK = (Member("quick", 1, 0, 2.0, 3.0, 1.0, 4.0, 5.0, 0.5, turn_limit=3000),)
SMALL = (dataclasses.replace(QUICK[0], nodes=300),
         Member("small", 1, 300, 3.0, 1.0, 4.0, 3.0, 3.0, 0.0, turn_limit=3000))


def solve_board(game_map, deck, portfolio=SMALL, difficulty="normal"):
    return solve(game_map, RULESET, difficulty, deck, None, portfolio=portfolio)


def test_a_bunker_one_move_away_is_bombed_on_the_first_turn():
    # Entry 3H: C1 facing south at altitude 4; the hand 2S 7H 10C JC QC; the bomb's reveal
    # 5H is a heart, a hit from the high band (R16). Move FF to C3, bomb: victory, 2 points.
    game_map = board(bunkers="C3")
    par = solve_board(game_map, stacked("3H 2S 7H 10C JC QC 5H"))
    line = par.best
    assert (line.score, line.outcome, line.turns) == (2, "victory", 1)
    assert line.plays == (Move(Card.parse("2S"), "FF"), Bomb(Card.parse("7H")))
    assert par.upper_bound == 2 and par.optimal


def test_a_forced_exhaustion_costs_its_point_and_nothing_more():
    # Six cards only: the entry card and the hand. The bomb's reveal finds the pile empty,
    # so the discard pile (3H 2S; the 7H is still being resolved, R35) becomes the pile,
    # 1 damage (R22), and its top card 3H is a heart: a hit. Best: 2 - 1 = 1.
    game_map = board(bunkers="C3")
    deck = [Card.parse(t) for t in "3H 2S 7H 10C JC QC".split()]
    par = solve_board(game_map, deck)
    assert (par.best.score, par.best.outcome) == (1, "victory")
    assert par.upper_bound == 2 and not par.optimal
    from bgrid.rules.engine import new_game, score
    state = new_game(game_map, RULESET, "normal", deck)
    play_plan(state, par.best.plays)
    assert state.exhaustions == 1 and score(state).total == 1


def test_a_face_card_entry_lowers_the_upper_bound():
    # KS first: the entry column is chosen and costs 1 damage (R13), whatever the line.
    par = solve_board(board(bunkers="C3"), stacked("KS 2S 7H 10C JC QC 5H"))
    assert par.upper_bound == 1
    assert par.best.score <= 1


@pytest.mark.parametrize("seed", range(300, 320))
def test_solution_logs_verify_with_the_reported_score(seed):
    mission = mission_from_seed(seed)
    par = solve(mission.game_map, mission.ruleset, "normal", mission.deck, mission.reshuffle,
                portfolio=QUICK)
    verdict = verify_log(solution_log(mission, par.best))
    assert verdict.verdict == "valid" and verdict.assurance == "exact"
    assert verdict.score.total == par.best.score
    assert par.upper_bound >= par.best.score


def test_solve_json_reports_par_and_the_written_log_verifies(tmp_path, monkeypatch):
    import bgrid.cmd_solve as cmd
    monkeypatch.setattr(cmd, "PORTFOLIO", QUICK)
    log = tmp_path / "par.log"
    result = CliRunner().invoke(cli, ["solve", "--seed", "1944", "--json", "--write-log", str(log)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    for key in ("code", "par", "outcome", "victory_found", "upper_bound", "optimal", "turns",
                "seconds", "portfolio"):
        assert key in data
    verdict = verify_log(log.read_bytes())
    assert verdict.verdict == "valid" and verdict.score.total == data["par"]


def test_solve_header_without_a_deck_order_is_refused(tmp_path):
    header = tmp_path / "run.log"
    header.write_text("bgrid-log: 1\nseed: 1944\n\nturn 1\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["solve", "--header", str(header)])
    assert result.exit_code == 2
    assert "names no deck order" in result.output and "Traceback" not in result.output


def test_solve_header_with_a_challenge_code_solves_that_challenge(tmp_path, monkeypatch):
    import bgrid.cmd_solve as cmd
    monkeypatch.setattr(cmd, "PORTFOLIO", QUICK)
    code = mission_from_seed(1944).code
    header = tmp_path / "run.log"
    header.write_text(f"bgrid-log: 1\nchallenge: {code}\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["solve", "--header", str(header), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["code"] == code


def test_solve_header_reads_only_the_header_as_sheet_and_pack_do(tmp_path, monkeypatch):
    """``bgrid solve --header`` reads only the header, as ``sheet --header`` and ``pack
    --header`` do, so a log with a trailing fragment is accepted by all three."""
    import bgrid.cmd_solve as cmd
    from bgrid.header_options import header_source
    monkeypatch.setattr(cmd, "PORTFOLIO", QUICK)
    code = mission_from_seed(1944).code
    header = tmp_path / "run.log"
    header.write_text(f"bgrid-log: 1\nchallenge: {code}\n\nturn 1\nenter 7S\ndraw JC 6H 2\u00e9 QC\nmov",
                      encoding="utf-8")
    assert header_source(header).code == code
    result = CliRunner().invoke(cli, ["solve", "--header", str(header), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["code"] == code


def test_solve_write_log_into_a_missing_folder_is_refused_before_searching(tmp_path):
    result = CliRunner().invoke(cli, ["solve", "--seed", "1", "--write-log",
                                      str(tmp_path / "no" / "par.log")])
    assert result.exit_code == 2 and "does not exist" in result.output


def test_pack_winnable_takes_the_first_seed_onward_that_solves_to_a_victory(tmp_path, monkeypatch):
    import bgrid.players.solver as solver
    monkeypatch.setattr(solver, "PORTFOLIO", QUICK)
    # With the one diving search, seeds 4-8 solve to defeats and seed 9 to a victory.
    outcomes = {s: solve_mission(mission_from_seed(s)).best.outcome for s in range(4, 10)}
    assert [s for s, o in outcomes.items() if o == "victory"] == [9]
    result = CliRunner().invoke(cli, ["pack", "--seed", "4", "--winnable", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    record = json.loads(next(tmp_path.glob("*/map.json")).read_text())
    assert record["seed"] == 9 and record["winnable"] is True
    assert record["par"] == solve_mission(mission_from_seed(9)).best.score


def test_pack_winnable_needs_a_challenge_deck(tmp_path):
    result = CliRunner().invoke(cli, ["pack", "--blank", "--winnable", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "--winnable needs --seed or --code" in result.output


def test_daily_winnable_takes_the_first_seed_onward_that_solves_to_a_victory(monkeypatch):
    import bgrid.players.solver as solver
    monkeypatch.setattr(solver, "PORTFOLIO", QUICK)
    plain = json.loads(CliRunner().invoke(cli, ["daily", "--date", "2026-12-01", "--json"]).output)
    result = CliRunner().invoke(cli, ["daily", "--date", "2026-12-01", "--winnable", "--json"])
    assert result.exit_code == 0, result.output
    chosen = json.loads(result.output)
    wins = [solve_mission(mission_from_seed(s, plain["difficulty"], plain["ridges"])).best.is_victory
            for s in range(plain["seed"], chosen["seed"] + 1)]
    assert wins[-1] and not any(wins[:-1]) and chosen["winnable"] is True
    found = solve_mission(mission_from_seed(chosen["seed"], plain["difficulty"], plain["ridges"]))
    assert chosen["par"] == found.best.score


def test_daily_winnable_pack_says_winnable_with_the_par_on_its_map(tmp_path, monkeypatch):
    import bgrid.players.solver as solver
    monkeypatch.setattr(solver, "PORTFOLIO", QUICK)
    result = CliRunner().invoke(cli, ["daily", "--date", "2026-12-01", "--winnable", "--pack",
                                      "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    record = json.loads(next(tmp_path.glob("*/map.json")).read_text())
    found = solve_mission(mission_from_seed(record["seed"], record["difficulty"],
                                            len(record["ridges"])))
    assert record["winnable"] is True and record["par"] == found.best.score
    assert f"winnable · open-deck par {found.best.score} · blind benchmark " in result.output.splitlines()[0]
    assert record["open_deck_par"] == found.best.score and record["blind_runs"] == 40


def test_verify_par_shows_the_challenge_par_beside_the_score(tmp_path, monkeypatch):
    import bgrid.players.solver as solver
    monkeypatch.setattr(solver, "PORTFOLIO", QUICK)
    mission = mission_from_seed(9)
    par = solve_mission(mission).best
    log = tmp_path / "par.log"
    log.write_text(solution_log(mission, par), encoding="utf-8")
    result = CliRunner().invoke(cli, ["verify", str(log), "--par"])
    assert result.exit_code == 0, result.output
    assert f"score {par.score}" in result.output and f"par: {par.score}" in result.output
    data = json.loads(CliRunner().invoke(cli, ["verify", str(log), "--par", "--json"]).output)
    assert data["par"] == par.score == data["score"]


def test_solve_on_two_processes_finds_the_same_par_as_on_one(monkeypatch):
    import bgrid.cmd_solve as cmd
    monkeypatch.setattr(cmd, "PORTFOLIO", QUICK)
    pars = []
    for jobs in ("1", "2"):
        result = CliRunner().invoke(cli, ["solve", "--seed", "1944", "--json", "--jobs", jobs])
        assert result.exit_code == 0 and result.exception is None, repr(result.exception)
        pars.append(json.loads(result.output)["par"])
    assert pars[0] == pars[1] is not None


def test_solve_writes_the_par_line_in_rows_with_state_lines(tmp_path, monkeypatch):
    import bgrid.cmd_solve as cmd
    monkeypatch.setattr(cmd, "PORTFOLIO", QUICK)
    rows, statements = tmp_path / "rows.log", tmp_path / "statements.log"
    for path, extra in ((rows, ["--rows", "--state-lines"]), (statements, ["--state-lines"])):
        result = CliRunner().invoke(cli, ["solve", "--seed", "1944", "--write-log", str(path), *extra])
        assert result.exit_code == 0, result.output
    text = rows.read_text()
    assert "\nturn " not in text and "\n1|" in text
    one, other = verify_log(text), verify_log(statements.read_text())
    assert one.verdict == other.verdict == "valid" and one.score.total == other.score.total
    assert " art " in statements.read_text()


def test_members_sharing_expanded_turns_find_what_each_finds_alone():
    # solve() lets its members share the turns they expand (SharedTurns); a member run on its
    # own expands everything itself. The lines, scores and node counts must be the same.
    from bgrid.players.solver import beam, start_of
    mission = mission_from_seed(1944)
    par = solve(mission.game_map, mission.ruleset, "normal", mission.deck, mission.reshuffle,
                portfolio=SMALL)
    alone = [beam(start_of(mission.start(challenge_deck=True)), member) for member in SMALL]
    assert par.members == tuple(alone)


def test_a_search_leaves_the_garbage_collector_as_it_found_it():
    import gc

    from bgrid.players.search import without_cycle_collection
    assert gc.isenabled()
    with without_cycle_collection():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with without_cycle_collection():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def _ran(members, nodes, score=5, outcome="victory"):
    from bgrid.players.solver import Line, MemberResult
    return [MemberResult(m.name, Line(score, outcome, 10, ()), nodes, True) for m in members]


def test_the_next_pass_runs_every_member_wider_on_an_equal_share_of_what_is_left():
    from bgrid.players.solver import next_pass
    members = (Member("a", 1, 50_000, 1, 1, 1, 1, 1, 1), Member("b", 1, 50_000, 2, 2, 2, 2, 2, 2))
    first = next_pass([], members, (1, 2, 3), 100_000)
    assert [(m.width, m.nodes) for m in first] == [(1, 50_000), (1, 50_000)]
    # 30,000 spent: 70,000 left, 35,000 each (less than 2 x 50,000), at width 2.
    second = next_pass(_ran(first, 15_000), members, (1, 2, 3), 100_000)
    assert [(m.name, m.width, m.nodes) for m in second] == [("ax2", 2, 35_000), ("bx2", 2, 35_000)]
    # 100,000 - 30,000 - 60,000 = 10,000 left: 5,000 each, under LEAST_SHARE x 3.
    done = _ran(first, 15_000) + _ran(second, 30_000)
    assert next_pass(done, members, (1, 2, 3), 100_000) == ()


def test_a_solve_with_no_victory_yet_runs_the_next_pass_on_a_small_share():
    from bgrid.players.solver import next_pass
    members = (Member("a", 1, 50_000, 1, 1, 1, 1, 1, 1), Member("b", 1, 50_000, 2, 2, 2, 2, 2, 2))
    # 100,000 - 2 x 45,000 = 10,000 left: 5,000 each, under LEAST_SHARE x 2 (16,000).
    lost = _ran(members, 45_000, score=2, outcome="defeat")
    assert [(m.width, m.nodes) for m in next_pass(lost, members, (1, 2), 100_000)] == [(2, 5_000), (2, 5_000)]
    assert next_pass(_ran(members, 45_000), members, (1, 2), 100_000) == ()
    # nothing left: no pass, victory or not
    assert next_pass(_ran(members, 50_000, score=2, outcome="defeat"), members, (1, 2), 100_000) == ()


def test_the_passes_end_with_the_widths_and_an_explicit_portfolio_runs_once():
    from bgrid.players.solver import next_pass
    members = (Member("a", 1, 1_000, 1, 1, 1, 1, 1, 1),)
    assert next_pass(_ran(members, 10), members, (1, 2)) != ()
    assert next_pass(_ran(members, 10) * 2, members, (1, 2)) == ()
    assert next_pass(_ran(members, 10), members) == ()  # widths None: one pass, width 1


def test_the_passes_stop_once_the_best_line_meets_the_upper_bound():
    from bgrid.players.solver import run_passes, start_of
    from bgrid.rules.engine import new_game
    game_map = board(bunkers="C3")
    deck = stacked("3H 2S 7H 10C JC QC 5H")  # upper bound 2: one bunker, a number entry card
    start = start_of(new_game(game_map, RULESET, "normal", deck))
    members = (Member("a", 1, 1_000, 1, 1, 1, 1, 1, 1),)
    asked = []

    def run(pass_members):
        asked.append(pass_members)
        return _ran(pass_members, 10, score=2 if len(asked) == 2 else 1)

    par = run_passes(run, start, deck, members, (1, 2, 3, 4))
    assert len(asked) == 2 and par.best.score == 2 and par.complete


def test_solve_in_passes_on_two_processes_finds_what_one_finds(monkeypatch):
    # Two passes (widths 1 and 2) of two small members: the second pass's budgets depend on
    # the first pass's node counts, which the workers report back.
    import bgrid.cmd_solve as cmd
    monkeypatch.setattr(cmd, "PORTFOLIO", SMALL)
    monkeypatch.setattr(cmd, "WIDTHS", (1, 2))
    monkeypatch.setattr(cmd, "SOLVE_NODES", 100_000)
    answers = []
    for jobs in ("1", "2"):
        result = CliRunner().invoke(cli, ["solve", "--seed", "1944", "--json", "--jobs", jobs])
        assert result.exit_code == 0 and result.exception is None, repr(result.exception)
        data = json.loads(result.output)
        answers.append((data["par"], data["searches"], data["searches_won"], data["complete"]))
    assert answers[0] == answers[1]
    assert answers[0][1] == 4  # both passes ran (seed 1944: no search meets the upper bound)
