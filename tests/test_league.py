"""The league database: submitting, duplicates, attempts, standings and their tie-breaks,
unranked entries, the schema version and the command line."""

from __future__ import annotations

import csv
import dataclasses
import io
import itertools
import json
import sqlite3

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.league import LeagueError, compute_standings, create_league, open_league, submit_logs
from bgrid.league.store import SCHEMA_VERSION, place_of
from league_logs import CODE, OTHER_CODE, games, write_logs


def seconds_clock():
    """Submission times a microsecond apart, in call order."""
    counter = itertools.count()
    return lambda: f"2026-12-01T10:00:00.{next(counter):06d}Z"


@pytest.fixture
def league(tmp_path):
    path = tmp_path / "league.db"
    create_league(path)
    conn = open_league(path)
    yield conn
    conn.close()


def submit(conn, logs, clock=None, **kw):
    return list(submit_logs(conn, logs, clock=clock or seconds_clock(), **kw))


def test_a_submitted_log_is_recorded_with_its_verdict_and_bytes(league):
    game = games(10)[0]
    data = game.by("Ada")
    [sub] = submit(league, [("ada.log", data)])
    row = league.execute("SELECT * FROM entries JOIN logs ON logs.entry_id = entries.id WHERE id = ?",
                         (sub.entry_id,)).fetchone()
    assert sub.is_new and row["log"] == data
    assert (row["player"], row["challenge"], row["verdict"], row["score"], row["turns"]) == \
        ("Ada", CODE, "valid", game.score, game.turns)
    assert row["ruleset"] == "standard-1" and row["player_from_file"] == 0
    assert row["claim_score"] == game.score and row["submitted_at"].endswith("Z")
    assert row["bunkers"] * 2 + row["artillery"] - row["damage"] == game.score  # R24


def test_the_same_log_twice_is_recorded_once_and_reported_as_a_duplicate(league):
    data = games(10)[1].by("Ada")
    first, again = submit(league, [("a.log", data), ("copy.log", data)])
    assert first.is_new and not again.is_new and again.entry_id == first.entry_id
    assert "duplicate of entry" in again.summary
    assert league.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == 1


def test_a_reformatted_copy_has_the_same_id_and_is_a_duplicate(league):
    data = games(10)[1].by("Ada")
    reformatted = data.replace(b"\n", b"  \n\n").replace(b"turn 1", b"turn   1")
    first, again = submit(league, [("a.log", data), ("b.log", reformatted)])
    assert not again.is_new and again.verification_id == first.verification_id


def test_an_edited_log_by_the_same_player_is_a_second_attempt(league):
    game = games(10)[2]
    first, edited = submit(league, [("a.log", game.by("Ada")),
                                    ("a2.log", game.by("Ada", "date: 2026-12-01"))])
    assert edited.is_new and edited.verification_id != first.verification_id
    table = compute_standings(league)
    [row] = table.standings
    assert (row.player, row.attempts) == ("Ada", 2)


def test_a_log_without_a_player_line_is_recorded_under_its_file_name_and_flagged(league):
    [sub] = submit(league, [("inbox/anon-7.log", games(10)[3].by(None))])
    assert sub.player == f"anon-7.log ({sub.verification_id[:8]})" and sub.player_from_file
    [row] = compute_standings(league).standings
    assert row.player == sub.player and row.player_from_file


def test_two_players_logs_without_a_player_line_and_one_file_name_stay_two_players(league, tmp_path):
    """Two players' ``mission.log`` from two folders stay two players (the folder tells them
    apart), not one player with two attempts of which the ranking keeps one."""
    first, second = games(10)[3], games(10)[4]
    submit(league, [("ada/mission.log", first.by(None)), ("bo/mission.log", second.by(None))])
    table = compute_standings(league)
    assert len(table.standings) == 2 and [s.attempts for s in table.standings] == [1, 1]
    assert all(s.player.startswith("mission.log (") for s in table.standings)
    db = tmp_path / "cli.db"
    write_logs(tmp_path / "ada", {"mission.log": first.by(None)})
    write_logs(tmp_path / "bo", {"mission.log": second.by(None)})
    run("league", "init", db)
    run("league", "submit", db, tmp_path / "ada", tmp_path / "bo")
    text = run("league", "standings", db).output
    assert text.count("(no player: line; named after its file)") == 2
    data = json.loads(run("league", "standings", db, "--json").output)
    assert [s["player_from_file"] for s in data["standings"]] == [True, True]
    rows = list(csv.DictReader(io.StringIO(run("league", "standings", db, "--csv").output)))
    assert [r["player_from_file"] for r in rows] == ["1", "1"]


def test_ranking_is_by_score_then_fewer_turns_then_earlier_submission(league):
    pool = games(120)
    # two games with one score and different turn counts, and one game sent by two players
    by_score = {}
    for g in pool:
        by_score.setdefault(g.score, []).append(g)
    score, same = next((s, gs) for s, gs in sorted(by_score.items(), reverse=True)
                       if len({g.turns for g in gs}) > 1)
    short, long_ = min(same, key=lambda g: g.turns), max(same, key=lambda g: g.turns)
    top = max(pool, key=lambda g: (g.score, -g.turns))
    assert top.score > score
    logs = [("p1", long_.by("Long")), ("p2", short.by("Short")), ("p3", top.by("Top")),
            ("p4", short.by("Later twin"))]
    submit(league, logs, clock=seconds_clock())
    table = compute_standings(league)
    assert [(s.rank, s.player) for s in table.standings] == [
        (1, "Top"), (2, "Short"), (3, "Later twin"), (4, "Long")]
    assert [s.score for s in table.standings] == [top.score, score, score, score]
    assert [s.turns for s in table.standings] == [top.turns, short.turns, short.turns, long_.turns]
    # a receipt's place, counted in SQL without the table, in the same order
    places = {name: place_of(league, CODE, name) for name in ("Top", "Short", "Later twin", "Long")}
    assert {name: (p["rank"], p["of"]) for name, p in places.items()} == {
        "Top": (1, 4), "Short": (2, 4), "Later twin": (3, 4), "Long": (4, 4)}
    assert [places[s.player]["entry"] for s in table.standings] == [s.entry_id for s in table.standings]
    assert place_of(league, CODE, "Nobody") is None


def test_the_best_kept_as_entries_arrive_is_the_best_rebuilt_from_them(league):
    # one order (store.RANK_ORDER) for the row kept at each submission and the row worked
    # out again from the entries (a withdrawal or a policy change): fewer turns beat more on
    # one score; on equal score and turns the earlier submission stays
    from bgrid.league.store import rebuild_result, transaction

    by_score = {}
    for g in games(120):
        by_score.setdefault(g.score, []).append(g)
    same = next(gs for gs in by_score.values() if len({g.turns for g in gs}) > 1)
    short, long_ = min(same, key=lambda g: g.turns), max(same, key=lambda g: g.turns)
    logs = [("1", long_.by("Ada")), ("2", short.by("Ada")), ("3", short.by("Ada", "date: 2026-12-01"))]
    entries = submit(league, logs, clock=seconds_clock())
    assert all(e.is_new for e in entries)
    query = "SELECT entry_id, score, turns, attempts FROM results WHERE player = 'Ada'"
    kept = tuple(league.execute(query).fetchone())
    assert kept == (entries[1].entry_id, short.score, short.turns, 3)
    with transaction(league):
        rebuild_result(league, CODE, "Ada")
    assert tuple(league.execute(query).fetchone()) == kept


def test_a_players_best_attempt_counts_and_every_attempt_is_counted(league):
    pool = sorted(games(40), key=lambda g: (-g.score, g.turns))
    best, worse = pool[0], pool[-1]
    broken = best.by("Ada").replace(b"claim:", b"claim: victory 99\n#", 1)  # a wrong claim
    submit(league, [("1", worse.by("Ada")), ("2", best.by("Ada")), ("3", broken)])
    table = compute_standings(league)
    [row] = table.standings
    assert (row.player, row.score, row.turns, row.attempts) == ("Ada", best.score, best.turns, 3)
    assert [u.player for u in table.unranked] == ["Ada"]


def test_invalid_and_incomplete_entries_are_listed_apart_with_their_first_error(league):
    game = games(10)[4]
    lines = game.by("Bo").decode().split("\n")
    truncated = "\n".join(line for line in lines if not line.startswith("claim"))
    truncated = truncated[: truncated.rindex("turn ")].encode()
    wrong_card = game.by("Cy").decode().replace("enter 7S", "enter 8S", 1).encode()
    submit(league, [("v", game.by("Ada")), ("i", truncated), ("w", wrong_card)])
    table = compute_standings(league)
    assert [s.player for s in table.standings] == ["Ada"]
    unranked = {u.player: u for u in table.unranked}
    assert unranked["Bo"].verdict == "incomplete"
    assert unranked["Cy"].verdict == "invalid" and unranked["Cy"].error.startswith("E206 wrong-card, line ")


def test_standings_are_per_challenge_and_the_season_adds_up_best_results(league):
    here, there = games(30), games(30, OTHER_CODE)
    a1, a2 = max(here, key=lambda g: g.score), max(there, key=lambda g: g.score)
    b1, b2 = min(here, key=lambda g: g.score), min(there, key=lambda g: g.score)
    submit(league, [("1", a1.by("Ada")), ("2", b1.by("Bo")), ("3", a2.by("Bo")), ("4", b2.by("Ada"))])
    table = compute_standings(league)
    assert {s.challenge for s in table.standings} == {CODE, OTHER_CODE}
    total = {r.player: r.points for r in table.season}
    assert total == {"Ada": a1.score + b2.score, "Bo": b1.score + a2.score}
    best_one = {r.player: r.points for r in compute_standings(league, best=1).season}
    assert best_one == {"Ada": a1.score, "Bo": a2.score}
    only = compute_standings(league, [OTHER_CODE])
    assert [s.player for s in only.standings] == ["Bo", "Ada"]


def test_one_transaction_per_batch_records_the_same_as_one_per_log(tmp_path):
    logs = [(f"g{k}", g.by(f"P{k % 7}")) for k, g in enumerate(games(30))]
    tables = []
    for batch in (1, 8):
        path = tmp_path / f"b{batch}.db"
        create_league(path)
        conn = open_league(path)
        subs = submit(conn, logs + logs[:5], batch=batch)
        assert sum(s.is_new for s in subs) == 30
        tables.append(compute_standings(conn).as_dict())
        conn.close()
    assert tables[0] == tables[1]


def test_a_database_from_a_newer_schema_is_refused(tmp_path):
    path = tmp_path / "new.db"
    create_league(path)
    with sqlite3.connect(path) as raw:
        raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(LeagueError, match="newer bgrid"):
        open_league(path)


def test_another_programs_sqlite_file_is_not_taken_for_a_league(tmp_path):
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE t (x)")
    with pytest.raises(LeagueError, match="not a league"):
        open_league(path)


def test_a_new_league_is_at_the_current_schema_in_wal_mode(tmp_path):
    path = tmp_path / "l.db"
    assert create_league(path) is True and create_league(path) is False
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


# -- the command line ----------------------------------------------------------------------


def run(*args, input=None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=input)


@pytest.fixture
def inbox(tmp_path):
    pool = games(10)
    write_logs(tmp_path / "inbox", {"ada.log": pool[0].by("Ada"), "bo.log": pool[1].by("Bo"),
                                    "anon.log": pool[2].by(None)})
    return tmp_path / "inbox"


def test_cli_submit_then_resubmit_reports_duplicates(tmp_path, inbox):
    db = tmp_path / "l.db"
    assert run("league", "init", db).exit_code == 0
    first = run("league", "submit", db, inbox)
    assert first.exit_code == 0 and "recorded 3, duplicates 0" in first.output
    assert "no player: line; recorded as 'anon.log (" in first.output
    again = run("league", "submit", db, inbox)
    assert again.exit_code == 0 and "recorded 0, duplicates 3" in again.output


def test_cli_standings_json_has_the_documented_shape(tmp_path, inbox):
    db = tmp_path / "l.db"
    run("league", "init", db)
    run("league", "submit", db, inbox)
    result = run("league", "standings", db, "--json")
    data = json.loads(result.output)
    assert set(data["standings"][0]) == {"rank", "player", "challenge", "outcome", "score", "turns", "damage",
                                         "attempts", "verification_id", "player_from_file"}
    assert [s["rank"] for s in data["standings"]] == [1, 2, 3] and data["unranked"] == []


def test_cli_csv_keeps_a_hostile_name_from_becoming_a_formula(tmp_path):
    db = tmp_path / "l.db"
    write_logs(tmp_path / "in", {"x.log": games(10)[0].by("=HYPERLINK(\"http://x\")")})
    run("league", "init", db)
    run("league", "submit", db, tmp_path / "in")
    rows = list(csv.DictReader(io.StringIO(run("league", "standings", db, "--csv").output)))
    assert rows[0]["player"] == "'=HYPERLINK(\"http://x\")"


def test_cli_list_filters_by_challenge_in_any_spelling_and_by_player(tmp_path, inbox):
    db = tmp_path / "l.db"
    run("league", "init", db)
    run("league", "submit", db, inbox)
    out = run("league", "list", db, "--challenge", CODE.lower().replace("-", " "), "--player", "Bo").output
    assert out.count("\n") == 1 and " Bo " in out
    assert run("league", "list", db, "--challenge", OTHER_CODE).output == ""


def test_cli_show_replays_the_stored_log(tmp_path, inbox):
    db = tmp_path / "l.db"
    run("league", "init", db)
    run("league", "submit", db, inbox)
    result = run("league", "show", db, "1")
    assert result.exit_code == 0 and "valid" in result.output and "player" in result.output
    assert run("league", "show", db, "99").exit_code == 2


def test_cli_submit_to_a_missing_league_says_how_to_create_it(tmp_path, inbox):
    result = run("league", "submit", tmp_path / "none.db", inbox)
    assert result.exit_code == 2 and "bgrid league init" in result.output
    assert not (tmp_path / "none.db").exists()


def test_cli_terminal_output_escapes_format_characters_in_names(tmp_path):
    # a right-to-left override would reorder the rest of the terminal line
    db = tmp_path / "l.db"
    write_logs(tmp_path / "in", {"x.log": games(10)[0].by("Eve\u202elive")})
    run("league", "init", db)
    run("league", "submit", db, tmp_path / "in")
    for command in ("standings", "list"):
        out = run("league", command, db).output
        assert "\u202e" not in out and "Eve\\u202elive" in out


def test_a_league_from_the_first_schema_is_migrated_and_its_results_filled_in(tmp_path):
    from bgrid.league.store import APPLICATION_ID, COLUMNS, MIGRATIONS
    from bgrid.league.submit import entry_row
    from bgrid.verifier.verify import verify_log

    pool = games(20)
    logs = [(f"{k}", g.by(f"P{k % 3}")) for k, g in enumerate(pool)]
    broken = pool[0].by("P0").replace(b"claim:", b"claim: victory 99\n#", 1)
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as raw:  # a league as schema version 1 wrote it
        raw.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        raw.executescript(MIGRATIONS[0])
        raw.execute("PRAGMA user_version = 1")
        for k, (name, data) in enumerate(logs + [("bad", broken)]):
            row = entry_row(data, name, verify_log(data, source=name), f"2026-12-01T10:00:00.{k:06d}Z", "old")
            insert = f"INSERT INTO entries ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
            entry = raw.execute(insert, [row[c] for c in COLUMNS]).lastrowid
            raw.execute("INSERT INTO logs VALUES (?, ?)", (entry, data))
    conn = open_league(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    migrated = compute_standings(conn).as_dict()
    conn.close()
    fresh_path = tmp_path / "new.db"
    create_league(fresh_path)
    fresh = open_league(fresh_path)
    submit(fresh, logs + [("bad", broken)])
    assert migrated == compute_standings(fresh).as_dict()
    fresh.close()
    best = {p: max((g for k, g in enumerate(pool) if k % 3 == int(p[1])), key=lambda g: (g.score, -g.turns))
            for p in ("P0", "P1", "P2")}
    assert {s["player"]: s["score"] for s in migrated["standings"]} == {p: g.score for p, g in best.items()}
    assert {s["player"]: s["attempts"] for s in migrated["standings"]} == {"P0": 8, "P1": 7, "P2": 6}


def test_cli_a_failing_database_is_one_line_not_a_traceback(tmp_path, monkeypatch, inbox):
    import bgrid.cmd_league

    db = tmp_path / "l.db"
    run("league", "init", db)

    def broken(*args, **kwargs):
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(bgrid.cmd_league, "submit_logs", broken)
    result = run("league", "submit", db, inbox)
    assert result.exit_code == 2
    assert result.output.strip().endswith("failed: attempt to write a readonly database")
    assert "Traceback" not in result.output


# -- par -------------------------------------------------------------------------------------


def test_a_given_par_shows_each_score_against_it_in_text_json_and_csv(tmp_path, inbox):
    db = tmp_path / "l.db"
    run("league", "init", db)
    run("league", "submit", db, inbox)
    assert run("league", "par", db, CODE, "--par", "15").output == f"{CODE}: open-deck par 15, given\n"
    scores = {"Ada": games(10)[0].score, "Bo": games(10)[1].score}
    text = run("league", "standings", db).output
    assert f"{CODE} (open-deck par 15, given): 3 ranked" in text
    assert f"Ada  {scores['Ada']:+d} (open-deck par 15, {scores['Ada'] - 15:+d}) " in text
    rows = {s["player"]: s for s in json.loads(run("league", "standings", db, "--json").output)["standings"]}
    assert rows["Bo"]["par"] == 15 and rows["Bo"]["to_par"] == scores["Bo"] - 15
    assert json.loads(run("league", "standings", db, "--json").output)["pars"] == {
        CODE: {"par": 15, "portfolio": None}}
    table = list(csv.DictReader(io.StringIO(run("league", "standings", db, "--csv").output)))
    assert {r["player"].split(" (")[0]: int(r["to_par"]) for r in table} == {
        "Ada": scores["Ada"] - 15, "Bo": scores["Bo"] - 15, "anon.log": games(10)[2].score - 15}


def test_a_league_without_pars_prints_no_par_anywhere(tmp_path, inbox):
    db = tmp_path / "l.db"
    run("league", "init", db)
    run("league", "submit", db, inbox)
    run("league", "par", db, OTHER_CODE, "--par", "9")  # a par for a challenge nobody played
    assert "par" not in run("league", "standings", db).output
    assert "par" not in run("league", "standings", db, "--csv").output.splitlines()[0]
    assert "par" not in json.loads(run("league", "standings", db, "--challenge", CODE, "--json").output)
    run("league", "standings", db, "--challenge", CODE, "--html", tmp_path / "page.html")
    assert "par" not in (tmp_path / "page.html").read_text(encoding="utf-8").replace("-reports", "")


def test_the_page_shows_the_par_and_a_to_par_column(tmp_path, inbox):
    db = tmp_path / "l.db"
    run("league", "init", db)
    run("league", "submit", db, inbox)
    run("league", "par", db, CODE, "--par", "12")
    run("league", "standings", db, "--html", tmp_path / "page.html")
    page = (tmp_path / "page.html").read_text(encoding="utf-8")
    assert '<span class="par">(open-deck par 12, given)</span>' in page
    assert "<th class=\"num\">to par</th>" in page
    assert f'<td class="num to-par">{games(10)[0].score - 12:+d}</td>' in page


def test_standings_show_each_score_against_the_open_deck_par_and_the_blind_benchmark(tmp_path, inbox):
    # Two yardsticks (R42): the par given as 15, the blind benchmark measured over 3 runs of
    # the strong player on the challenge deck; each score is shown against both, and the
    # standings JSON keeps its keys and adds the blind ones.
    from bgrid.players.blind import blind_benchmark
    from bgrid.challenges.mission import mission_from_code

    blind = blind_benchmark(mission_from_code(CODE), 3)
    db = tmp_path / "l.db"
    run("league", "init", db)
    run("league", "submit", db, inbox)
    recorded = run("league", "par", db, CODE, "--par", "15", "--blind", "3")
    assert recorded.exit_code == 0, recorded.output
    assert f"blind benchmark {blind.as_dict()['blind_median']} (3 runs" in recorded.output
    ada = games(10)[0].score
    text = run("league", "standings", db).output
    to_blind = ada - blind.median
    assert f"(open-deck par 15, {ada - 15:+d} · blind benchmark " in text and f", {to_blind:+g}) " in text
    data = json.loads(run("league", "standings", db, "--json").output)
    row = next(s for s in data["standings"] if s["player"] == "Ada")
    assert (row["par"], row["to_par"], row["to_blind"]) == (15, ada - 15, to_blind)
    assert data["pars"][CODE] == {"par": 15, "portfolio": None,
                                  "blind_median": blind.as_dict()["blind_median"],
                                  "blind_runs": 3, "blind_interval": list(blind.interval)}
    table = list(csv.DictReader(io.StringIO(run("league", "standings", db, "--csv").output)))
    assert float(next(r for r in table if r["player"] == "Ada")["to_blind"]) == to_blind


def test_the_solvers_par_is_stored_with_its_portfolio_and_kept_on_a_second_run(tmp_path, monkeypatch):
    import bgrid.players.solver as solver
    from bgrid.challenges.mission import mission_from_code

    quick = (dataclasses.replace(solver.PORTFOLIO[0], nodes=0),)
    monkeypatch.setattr(solver, "PORTFOLIO", quick)
    expected = solver.solve_mission(mission_from_code(CODE)).best.score
    db = tmp_path / "l.db"
    run("league", "init", db)
    first = run("league", "par", db, CODE.lower())
    assert first.exit_code == 0
    assert first.output == f"{CODE}: open-deck par {expected}, solver v{solver.PORTFOLIO_VERSION}\n"

    def no_second_solve(*args, **kwargs):
        raise AssertionError("solved again")
    monkeypatch.setattr(solver, "solve_mission", no_second_solve)
    again = run("league", "par", db, CODE)
    assert again.exit_code == 0 and again.output.endswith("(kept)\n")
    from bgrid.league.store import challenge_pars

    conn = open_league(db)
    assert challenge_pars(conn)[CODE].par == expected
    conn.close()


def test_league_par_misuse_is_one_line_and_exit_2(tmp_path):
    db = tmp_path / "l.db"
    run("league", "init", db)
    two = run("league", "par", db, CODE, OTHER_CODE, "--par", "3")
    assert two.exit_code == 2 and "name one CODE" in two.output
    bad = run("league", "par", db, "0M00-0001-WR4")
    assert bad.exit_code == 2 and "Traceback" not in bad.output and "0M00-0001-WR4" in bad.output
    missing = run("league", "par", tmp_path / "none.db", CODE, "--par", "3")
    assert missing.exit_code == 2 and "bgrid league init" in missing.output


def test_a_league_of_the_previous_schema_is_migrated_to_an_empty_par_table(tmp_path, inbox):
    from bgrid.league.store import APPLICATION_ID, MIGRATIONS

    path = tmp_path / "v3.db"
    with sqlite3.connect(path) as raw:  # a league as schema version 3 wrote it
        raw.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        for step in MIGRATIONS[:3]:
            raw.executescript(step)
        raw.execute("PRAGMA user_version = 3")
    conn = open_league(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == len(MIGRATIONS)
    assert conn.execute("SELECT COUNT(*) FROM pars").fetchone()[0] == 0
    conn.close()
    run("league", "submit", path, inbox)
    assert run("league", "par", path, CODE, "--par", "10").exit_code == 0
    assert json.loads(run("league", "standings", path, "--json").output)["standings"][0]["par"] == 10


def test_a_league_with_pars_is_migrated_to_pars_without_a_blind_benchmark(tmp_path, inbox):
    from bgrid.league.store import APPLICATION_ID, MIGRATIONS

    path = tmp_path / "v4.db"
    with sqlite3.connect(path) as raw:  # a league as schema version 4 wrote it, with a par
        raw.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        for step in MIGRATIONS[:4]:
            raw.executescript(step)
        raw.execute("INSERT INTO pars VALUES (?, 12, NULL, '2026-12-01T10:00:00Z')", (CODE,))
        raw.execute("PRAGMA user_version = 4")
    run("league", "submit", path, inbox)
    data = json.loads(run("league", "standings", path, "--json").output)
    assert data["pars"] == {CODE: {"par": 12, "portfolio": None}}
    assert "blind_median" not in data["standings"][0] and data["standings"][0]["par"] == 12


def test_a_row_form_log_is_recorded_and_its_statement_form_is_its_duplicate(league):
    # the row form reads into the same statements: the same verdict and verification id
    from bgrid.verifier.verify import row_form

    game = games(10)[2]
    rows = row_form(game.by("Ada")).encode("utf-8")
    assert b"\nturn " not in rows
    first, again = submit(league, [("rows.log", rows), ("statements.log", game.by("Ada"))])
    assert first.is_new and not again.is_new and again.verification_id == first.verification_id
    row = league.execute("SELECT verdict, score, turns FROM entries WHERE id = ?",
                         (first.entry_id,)).fetchone()
    assert tuple(row) == ("valid", game.score, game.turns)


def test_cli_standings_publish_a_report_of_a_row_form_log(tmp_path):
    from bgrid.verifier.verify import row_form

    db, out = tmp_path / "l.db", tmp_path / "site" / "standings.html"
    out.parent.mkdir()
    write_logs(tmp_path / "in", {"ada.log": row_form(games(10)[0].by("Ada")).encode("utf-8")})
    run("league", "init", db)
    assert run("league", "submit", db, tmp_path / "in").exit_code == 0
    result = run("league", "standings", db, "--html", out)
    assert result.exit_code == 0, result.output
    reports = [p for p in out.parent.rglob("*.html") if p != out]
    assert reports and "valid" in reports[0].read_text(encoding="utf-8")


class _CommitRefused:
    """A league connection whose COMMIT fails (busy, or a disk full at the last moment)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, *args):
        if sql == "COMMIT":
            raise sqlite3.OperationalError("database is locked")
        return self.conn.execute(sql, *args)

    @property
    def in_transaction(self) -> bool:
        return self.conn.in_transaction


def test_a_refused_commit_rolls_the_write_back_and_leaves_no_transaction_open(league):
    # set_par, record and migrate write through store.transaction(): a COMMIT that fails
    # must not leave the write lock held for the next request on this connection
    from bgrid.league.store import ChallengePar, challenge_pars, set_par

    with pytest.raises(sqlite3.OperationalError, match="locked"):
        set_par(_CommitRefused(league), CODE, ChallengePar(12, None), "2026-12-04T20:00:00Z")
    assert not league.in_transaction and challenge_pars(league) == {}
    set_par(league, CODE, ChallengePar(12, None), "2026-12-04T20:00:00Z")  # the lock is free
    assert challenge_pars(league)[CODE].par == 12
