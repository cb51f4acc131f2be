"""The league server's JSON API, driven in process (Flask's test client): every endpoint of
docs/league.md's table and every refusal, with its status and {"error"} body."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.league import open_league
from bgrid.league.store import MIGRATIONS, APPLICATION_ID
from bgrid.league.windows import open_challenge
from bgrid.web import create_app
from league_server import NOW, league_client
from league_logs import CODE, OTHER_CODE, games



@pytest.fixture
def organiser(league_db):
    return (league_db.parent / "org.key").read_text().strip()


def register(client, name):
    answer = client.post("/api/players", json={"name": name})
    assert answer.status_code == 201, answer.json
    return answer.json["key"]


def send(client, key, data, **headers):
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    return client.post("/api/submissions", data=data, headers=headers, content_type="text/plain")


def low_and_high():
    """Two games of the challenge with different scores: the lower, then the higher."""
    by_score = {g.score: g for g in games(12)}
    return by_score[min(by_score)], by_score[max(by_score)]


def count(path, table="entries"):
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
    finally:
        conn.close()


# -- players -----------------------------------------------------------------------------


def test_registering_gives_the_name_and_a_key_stored_only_as_a_hash(client, league_db):
    answer = client.post("/api/players", json={"name": "  Ada  "})
    assert answer.status_code == 201
    assert answer.json["name"] == "Ada" and len(answer.json["key"]) >= 32
    raw = league_db.read_bytes()
    assert answer.json["key"].encode() not in raw


@pytest.mark.parametrize("other", ["ada", "ADA", "\u0410da", "Ad\u0430", "\uff21da"])
def test_a_name_equal_under_case_or_confusables_is_taken(client, other):
    register(client, "Ada")
    answer = client.post("/api/players", json={"name": other})
    assert answer.status_code == 409 and "taken" in answer.json["error"]


@pytest.mark.parametrize(
    "name, why",
    [
        ("A\u202eda", "bidi"),
        ("A\u2067da", "bidi"),
        ("A\u200bda", "invisible"),
        ("Ada\u200d", "invisible"),
        ("", "visible"),
        ("   ", "visible"),
        ("x" * 33, "at most 32"),
        ("A\u00a0da", "space"),
        ("a\nb", "control"),
    ],
)
def test_a_name_with_bidi_invisible_or_no_characters_is_refused(client, name, why):
    answer = client.post("/api/players", json={"name": name})
    assert answer.status_code == 422 and why in answer.json["error"]


@pytest.mark.parametrize("body", [b"", b"not json", b'{"nom": "x"}', b'{"name": 3}', b"[1]"])
def test_a_registration_that_is_not_a_name_object_is_422(client, body):
    answer = client.post("/api/players", data=body, content_type="application/json")
    assert answer.status_code == 422 and "error" in answer.json


# -- submissions --------------------------------------------------------------------------


def test_a_valid_log_is_stored_and_answered_with_its_receipt(client, league_db):
    key = register(client, "Ada")
    game = games(4)[0]
    answer = send(client, key, game.by("Ada"))
    assert answer.status_code == 201
    body = answer.json
    assert list(body) == [
        "entry",
        "challenge",
        "player",
        "verdict",
        "score",
        "verification_id",
        "duplicate",
        "ranked",
        "flags",
    ]
    assert (body["challenge"], body["player"], body["verdict"], body["score"]) == (
        CODE,
        "Ada",
        "valid",
        game.score,
    )
    assert body["duplicate"] is False and body["ranked"] is True and body["flags"] == []
    assert count(league_db) == 1


def test_a_log_without_a_player_line_is_the_keys_player(client):
    key = register(client, "Ada")
    answer = send(client, key, games(4)[0].by(None))
    assert answer.status_code == 201 and answer.json["player"] == "Ada"


def test_a_player_line_in_another_case_is_the_same_player(client):
    key = register(client, "Ada")
    answer = send(client, key, games(4)[0].by("ADA"))
    assert answer.status_code == 201 and answer.json["player"] == "Ada"


def test_the_same_log_again_answers_200_duplicate_and_stores_nothing(client, league_db):
    key = register(client, "Ada")
    data = games(4)[0].by("Ada")
    first = send(client, key, data)
    again = send(client, key, data.replace(b"\n", b"\n\n"))  # reformatted: the same verification id
    assert again.status_code == 200 and again.json["duplicate"] is True
    assert again.json["entry"] == first.json["entry"] and count(league_db) == 1


@pytest.mark.parametrize("key", [None, "", "wrong-key"])
def test_a_submission_without_the_right_key_is_401_and_stores_nothing(client, league_db, key):
    register(client, "Ada")
    headers = {"Authorization": "Bearer " + key} if key is not None else {}
    answer = client.post("/api/submissions", data=games(4)[0].by("Ada"), headers=headers)
    assert answer.status_code == 401 and "key" in answer.json["error"]
    assert count(league_db) == 0


def test_a_player_line_naming_someone_else_is_422(client, league_db):
    key = register(client, "Ada")
    register(client, "Bo")
    answer = send(client, key, games(4)[0].by("Bo"))
    assert answer.status_code == 422 and "'Bo'" in answer.json["error"] and "Ada" in answer.json["error"]
    assert count(league_db) == 0


@pytest.mark.parametrize(
    "data, said",
    [
        (b"\xff\xfe not text", "not UTF-8"),
        (b"hello world\n", "not a mission log"),
        (b"", "not a mission log"),
    ],
)
def test_bytes_that_are_not_a_utf8_log_are_422(client, league_db, data, said):
    key = register(client, "Ada")
    answer = send(client, key, data)
    assert answer.status_code == 422 and said in answer.json["error"]
    assert count(league_db) == 0


def test_a_log_over_256_kib_is_413(client, league_db):
    key = register(client, "Ada")
    data = games(4)[0].by("Ada") + b"# " + b"x" * (256 * 1024) + b"\n"
    answer = send(client, key, data)
    assert answer.status_code == 413 and "256 KiB" in answer.json["error"]
    assert count(league_db) == 0


def test_a_body_over_the_servers_limit_is_413_json(client):
    answer = client.post("/api/submissions", data=b"x" * (600 * 1024), content_type="text/plain")
    assert answer.status_code == 413 and "error" in answer.json


def test_a_challenge_the_league_does_not_run_is_403_and_not_stored(client, league_db):
    key = register(client, "Ada")
    answer = send(client, key, games(2, OTHER_CODE)[0].by("Ada"))
    assert answer.status_code == 403 and OTHER_CODE in answer.json["error"]
    assert count(league_db) == 0


def send_in_window(client, league_db, opens: str, closes: str):
    """Ada's game sent once the challenge's window is moved to [opens, closes)."""
    key = register(client, "Ada")
    conn = open_league(league_db)
    open_challenge(conn, CODE, opens, closes, now=NOW)
    conn.close()
    return send(client, key, games(4)[0].by("Ada"))


def test_a_submission_outside_the_window_is_403_naming_the_window(client, league_db):
    answer = send_in_window(client, league_db, "2001-01-01T00:00Z", "2001-01-08T00:00Z")
    assert answer.status_code == 403
    assert "2001-01-01T00:00:00Z" in answer.json["error"] and "2001-01-08T00:00:00Z" in answer.json["error"]
    assert count(league_db) == 0


def test_a_window_not_yet_open_is_403(client, league_db):
    assert send_in_window(client, league_db, "2099-01-01", "2099-01-08").status_code == 403


def test_an_invalid_log_is_stored_unranked_with_its_first_error(client):
    key = register(client, "Ada")
    game = games(4)[0]
    text = game.text.replace("claim: ", "claim: ", 1)
    bad = re.sub(
        r"^claim: (\w+) (-?\d+)$", lambda m: f"claim: {m.group(1)} {int(m.group(2)) + 1}", text, flags=re.M
    )
    data = "\n".join(bad.split("\n")[:2] + ["player: Ada"] + bad.split("\n")[2:]).encode()
    answer = send(client, key, data)
    assert (
        answer.status_code == 201 and answer.json["verdict"] == "invalid" and answer.json["ranked"] is False
    )
    record = client.get(f"/api/entries/{answer.json['entry']}").json
    assert record["error"]["code"] == "E214"


# -- challenges, standings, entries ---------------------------------------------------------


def test_the_challenges_list_has_window_open_par_and_attempts(client, league_db):
    answer = client.get("/api/challenges")
    assert answer.status_code == 200
    assert answer.json == {
        "challenges": [
            {
                "code": CODE,
                "opens": "2000-01-01T00:00:00Z",
                "closes": "2100-01-01T00:00:00Z",
                "open": True,
                "par": None,
                "attempts": "best",
            }
        ]
    }


def test_standings_are_the_json_of_league_standings(client, league_db):
    logs = games(6)
    for k, name in enumerate(["Ada", "Bo", "Cy"]):
        key = register(client, name)
        for game in logs[2 * k : 2 * k + 2]:
            assert send(client, key, game.by(name)).status_code == 201
    answer = client.get(f"/api/standings/{CODE}")
    printed = CliRunner().invoke(cli, ["league", "standings", str(league_db), "--challenge", CODE, "--json"])
    assert answer.status_code == 200 and printed.exit_code == 0
    assert answer.json == json.loads(printed.output)
    assert [row["player"] for row in answer.json["standings"]] and len(answer.json["standings"]) == 3
    assert client.get(f"/api/standings/{CODE.lower()}").json == answer.json  # the code in any case


@pytest.mark.parametrize("code", [OTHER_CODE, "nonsense", "0M00-0001-WR4"])
def test_standings_of_a_code_the_league_does_not_run_are_404(client, code):
    answer = client.get(f"/api/standings/{code}")
    assert answer.status_code == 404 and "error" in answer.json


def test_an_entry_and_its_log_byte_for_byte(client):
    key = register(client, "Ada")
    data = games(4)[1].by("Ada").replace(b"\n", b"\r\n")
    entry = send(client, key, data).json["entry"]
    record = client.get(f"/api/entries/{entry}")
    assert record.status_code == 200 and record.json["verdict"] in ("valid", "invalid")
    assert record.json["entry"] == entry and record.json["flags"] == []
    stored = client.get(f"/api/entries/{entry}/log")
    assert stored.status_code == 200 and stored.data == data


@pytest.mark.parametrize("path", ["/api/entries/999", "/api/entries/999/log", "/api/entries/x"])
def test_an_entry_that_does_not_exist_is_404(client, path):
    answer = client.get(path)
    assert answer.status_code == 404 and "error" in answer.json


# -- the organiser ---------------------------------------------------------------------------


def test_withdraw_and_restore_change_the_standings_and_are_audited(client, organiser, league_db):
    key = register(client, "Ada")
    other, best = low_and_high()
    top = send(client, key, best.by("Ada")).json["entry"]
    send(client, key, other.by("Ada"))
    auth = {"Authorization": f"Bearer {organiser}"}
    answer = client.post(f"/api/admin/entries/{top}/withdraw", json={"reason": "copied"}, headers=auth)
    assert answer.status_code == 200 and answer.json["withdrawn"] == "copied"
    [row] = client.get(f"/api/standings/{CODE}").json["standings"]
    assert row["score"] == other.score and row["attempts"] == 1
    assert (
        client.post(
            f"/api/admin/entries/{top}/restore", json={"reason": "appeal upheld"}, headers=auth
        ).status_code
        == 200
    )
    [row] = client.get(f"/api/standings/{CODE}").json["standings"]
    assert row["score"] == best.score and row["attempts"] == 2
    conn = open_league(league_db)
    actions = [
        (r["action"], r["target"], r["reason"]) for r in conn.execute("SELECT * FROM audit ORDER BY id")
    ]
    conn.close()
    assert actions[-2:] == [
        ("withdraw", f"entry #{top}", "copied"),
        ("restore", f"entry #{top}", "appeal upheld"),
    ]


def test_admin_calls_need_the_organiser_key_a_reason_and_an_entry(client, organiser):
    key = register(client, "Ada")
    entry = send(client, key, games(4)[0].by("Ada")).json["entry"]
    for auth in ({}, {"Authorization": f"Bearer {key}"}, {"Authorization": "Bearer nope"}):
        answer = client.post(f"/api/admin/entries/{entry}/withdraw", json={"reason": "x"}, headers=auth)
        assert answer.status_code == 401 and "organiser" in answer.json["error"]
    auth = {"Authorization": f"Bearer {organiser}"}
    assert (
        client.post("/api/admin/entries/999/withdraw", json={"reason": "x"}, headers=auth).status_code == 404
    )
    answer = client.post(f"/api/admin/entries/{entry}/withdraw", json={}, headers=auth)
    assert answer.status_code == 422 and "reason" in answer.json["error"]


def test_the_audit_log_refuses_changes(league_db):
    conn = open_league(league_db)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("UPDATE audit SET reason = 'nothing happened'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        conn.execute("DELETE FROM audit")
    conn.close()


# -- policy and flags --------------------------------------------------------------------------


def _policy(league_db, attempts):
    conn = open_league(league_db)
    open_challenge(conn, CODE, "2000-01-01", "2100-01-01", attempts, now=NOW)
    conn.close()


def test_attempts_first_ranks_the_first_valid_entry_only(client, league_db):
    _policy(league_db, "first")
    key = register(client, "Ada")
    low, high = low_and_high()
    send(client, key, low.by("Ada"))
    later = send(client, key, high.by("Ada")).json
    assert later["ranked"] is False
    [row] = client.get(f"/api/standings/{CODE}").json["standings"]
    assert row["score"] == low.score and row["attempts"] == 2


def test_attempts_n_counts_the_first_n_entries(client, league_db):
    _policy(league_db, "1")
    key = register(client, "Ada")
    low, high = low_and_high()
    send(client, key, low.by("Ada"))
    send(client, key, high.by("Ada"))
    [row] = client.get(f"/api/standings/{CODE}").json["standings"]
    assert row["score"] == low.score
    _policy(league_db, "best")  # the organiser changes the policy: results are worked out again
    [row] = client.get(f"/api/standings/{CODE}").json["standings"]
    assert row["score"] == high.score


def test_the_same_plays_as_another_players_entry_are_flagged_with_evidence(client):
    game = games(4)[0]
    first = send(client, register(client, "Ada"), game.by("Ada")).json["entry"]
    copied = game.by("Bo").replace(b"\nturn 1\n", b"\n# my own game!\nturn 1\n")
    answer = send(client, register(client, "Bo"), copied)
    assert answer.status_code == 201
    [flag] = answer.json["flags"]
    assert flag["kind"] == "identical_play" and f"#{first}" in flag["evidence"] and "Ada" in flag["evidence"]
    assert answer.json["ranked"] is True  # a flag is evidence, never a disqualification
    # the receipt's flags are the stored ones, time included
    assert client.get(f"/api/entries/{answer.json['entry']}").json["flags"] == answer.json["flags"]


def test_the_solvers_par_line_is_flagged(client, league_db):
    from bgrid.league.integrity import play_digest

    game = games(4)[2]
    conn = open_league(league_db)  # as 'bgrid league par' stores the par line's digest
    conn.execute(
        "INSERT INTO pars (challenge, par, portfolio, set_at, play_sha256) VALUES (?, ?, 1, ?, ?)",
        (CODE, game.score, NOW, play_digest(game.by(None))),
    )
    conn.close()
    answer = send(client, register(client, "Zed"), game.by("Zed"))
    assert [f["kind"] for f in answer.json["flags"]] == ["par_line"]


def test_more_than_ten_attempts_are_flagged(client):
    key = register(client, "Ada")
    answers = [send(client, key, g.by("Ada")).json for g in games(11)]
    assert all(not a["flags"] for a in answers[:10])
    assert [f["kind"] for f in answers[10]["flags"]] == ["many_attempts"]


def test_a_disqualified_player_is_refused_and_unranked(client, league_db):
    from bgrid.league.admin import disqualify

    key = register(client, "Ada")
    send(client, key, games(4)[0].by("Ada"))
    conn = open_league(league_db)
    disqualify(conn, "ada", "shared their key", NOW)
    conn.close()
    assert client.get(f"/api/standings/{CODE}").json["standings"] == []
    answer = send(client, key, games(4)[1].by("Ada"))
    assert answer.status_code == 403 and "disqualified" in answer.json["error"]


# -- safety --------------------------------------------------------------------------------------


def test_every_answer_carries_a_csp_without_inline_or_foreign_script(client):
    for path in ("/", "/api/challenges", f"/challenges/{CODE}", "/register", "/nothing"):
        csp = client.get(path).headers["Content-Security-Policy"]
        script = re.search(r"script-src ([^;]*)", csp).group(1)
        assert script.strip() == "'self'"


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("POST", "/api/players", b"\x00\xff" * 50),
        ("POST", "/api/submissions", b"\x00\xff" * 50),
        ("GET", "/api/standings/%00", b""),
        ("GET", "/api/entries/99999999999999999999999", b""),
        ("PUT", "/api/players", b"{}"),
        ("DELETE", "/api/submissions", b""),
        ("GET", "/api/admin/entries/1/withdraw", b""),
        ("POST", "/api/admin/entries/1/explode", b"{}"),
        ("GET", "/challenges/%ff%fe", b""),
        ("GET", f"/challenges/{CODE}/..%2fleague.db", b""),
        ("GET", "/league.db", b""),
        ("GET", "/static/../app.py", b""),
    ],
)
def test_nothing_a_client_sends_gives_a_500_or_a_file(client, method, path, body):
    answer = client.open(path, method=method, data=body, headers={"Authorization": "Bearer \u00e9\u0000"})
    assert 400 <= answer.status_code < 500
    assert b"SQLite format" not in answer.data and b"Traceback" not in answer.data


def test_registration_is_rate_limited_per_address(league_db):
    client = create_app(league_db, testing=True, register_limit="2 per minute").test_client()
    assert client.post("/api/players", json={"name": "a1"}).status_code == 201
    assert client.post("/api/players", json={"name": "a2"}).status_code == 201
    answer = client.post("/api/players", json={"name": "a3"})
    assert answer.status_code == 429 and "too many" in answer.json["error"]


def test_submissions_are_rate_limited_per_key(league_db):
    # each request from another address (a proxy in front says so): only the per-key limit applies
    app = create_app(league_db, testing=True, submit_limit="2 per minute", proxies=1)
    client = app.test_client()
    key = register(client, "Ada")
    statuses = [
        send(client, key, g.by("Ada"), **{"X-Forwarded-For": str(k)}).status_code
        for k, g in enumerate(games(3))
    ]
    assert statuses == [201, 201, 429]


def test_a_league_of_the_previous_schema_is_migrated_when_served(tmp_path):
    path = tmp_path / "v4.db"
    with sqlite3.connect(path) as raw:
        raw.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        for step in MIGRATIONS[:4]:
            raw.executescript(step)
        raw.execute("PRAGMA user_version = 4")
    client = create_app(path, testing=True).test_client()
    assert client.get("/api/challenges").json == {"challenges": []}
    assert count(path, "players") == 0 and count(path, "audit") == 0


def test_league_par_stores_the_par_line_and_its_plays_are_flagged(client, league_db, tmp_path):
    """The par line is written by `bgrid solve --write-log` independently of `league par`."""
    solved = CliRunner().invoke(cli, ["solve", "--code", CODE, "--write-log", str(tmp_path / "par.log")])
    assert solved.exit_code == 0, solved.output
    assert CliRunner().invoke(cli, ["league", "par", str(league_db), CODE]).exit_code == 0
    data = (tmp_path / "par.log").read_bytes()
    lines = data.decode().split("\n")
    mine = "\n".join(lines[:2] + ["player: Sly"] + lines[2:]).encode()
    answer = send(client, register(client, "Sly"), mine)
    assert answer.status_code == 201 and answer.json["verdict"] == "valid"
    assert [f["kind"] for f in answer.json["flags"]] == ["par_line"]
    assert "solver's par line" in answer.json["flags"][0]["evidence"]


def test_behind_a_proxy_the_limits_see_each_players_address(league_db):
    app = create_app(league_db, testing=True, register_limit="1 per minute", proxies=1)
    client = app.test_client()
    for k in range(3):  # three players behind the one proxy address
        forwarded = {"X-Forwarded-For": f"10.0.0.{k}"}
        answer = client.post("/api/players", json={"name": f"p{k}"}, headers=forwarded)
        assert answer.status_code == 201
    again = client.post("/api/players", json={"name": "p9"}, headers={"X-Forwarded-For": "10.0.0.1"})
    assert again.status_code == 429


def test_another_face_adds_its_pages_as_a_blueprint_under_the_same_safety(league_db):
    from flask import Blueprint

    extra = Blueprint("extra", __name__, url_prefix="/extra")
    extra.add_url_rule("/<code>", "table", lambda code: f"table of {code}")
    client = create_app(league_db, testing=True, blueprints=[extra]).test_client()
    answer = client.get(f"/extra/{CODE}")
    assert answer.status_code == 200 and answer.get_data(as_text=True) == f"table of {CODE}"
    assert "script-src 'self'" in answer.headers["Content-Security-Policy"]


def test_merging_a_player_with_a_game_in_progress_moves_the_game(league_db):
    from bgrid.league.admin import merge
    from bgrid.league.players import register as register_player

    conn = open_league(league_db)
    ada, _ = register_player(conn, "Ada", NOW)
    two, _ = register_player(conn, "Ada Two", NOW)
    for player, code in ((ada.id, CODE), (two.id, CODE), (two.id, "0GDR-FC73-W4T")):
        conn.execute("INSERT INTO companion_games (player, code, log, updated_at) VALUES (?, ?, 'x', ?)",
                     (player, code, NOW))
    merge(conn, "Ada Two", "Ada", "one person", NOW)
    held = conn.execute("SELECT player, code FROM companion_games ORDER BY code").fetchall()
    conn.close()
    assert [tuple(r) for r in held] == [(ada.id, "0GDR-FC73-W4T"), (ada.id, CODE)]


def test_random_bodies_and_names_never_give_a_500(league_db):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    client = league_client(league_db)
    key = register(client, "Fuzz")
    valid = games(4)[0].by(None)

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(cut=st.integers(0, len(valid)), junk=st.binary(max_size=64), name=st.text(max_size=40))
    def check(cut, junk, name):
        # a log cut anywhere and spliced with junk: refused or stored, never a failure
        answer = send(client, key, valid[:cut] + junk + valid[cut:])
        assert answer.status_code in (200, 201, 403, 413, 422), answer.json
        assert set(answer.json) == {"error"} or answer.json["player"] == "Fuzz"
        named = client.post("/api/players", json={"name": name})
        assert named.status_code in (201, 409, 422) and "error" in named.json or "key" in named.json

    check()


def test_an_open_challenge_without_entries_has_the_clis_empty_standings(client, league_db):
    answer = client.get(f"/api/standings/{CODE}")
    printed = CliRunner().invoke(cli, ["league", "standings", str(league_db), "--challenge", CODE, "--json"])
    assert answer.status_code == 200 and printed.exit_code == 0, printed.output
    assert answer.json == json.loads(printed.output) == {"standings": [], "unranked": [],
                                                         "season": {"best": None, "table": []}}


def test_a_submission_counts_each_of_its_two_rate_limits_once(league_db, monkeypatch):
    """Per address and per key: two counters, each counted once a submission (Flask-Limiter
    evaluated them in its before-request pass and again in the view's decorators)."""
    from bgrid.web.rate_limits import EXTENSION

    app = create_app(league_db, testing=True, submit_limit="50 per minute", register_limit="50 per minute")
    client = app.test_client()
    key = register(client, "Once")
    counters = app.extensions[EXTENSION]
    counted = []
    hit = counters.hit
    monkeypatch.setattr(counters, "hit", lambda item, *who: counted.append(who) or hit(item, *who))
    assert send(client, key, games(1)[0].by("Once")).status_code == 201
    assert len(counted) == 2 and len(set(counted)) == 2
    assert any(who[-1] == f"key:{key}" for who in counted)


def test_the_servers_threads_share_the_missions_warmed_before_serving(league_db):
    import threading

    from bgrid.web.db import verifier, warm_missions

    assert warm_missions(str(league_db)) == [CODE]  # the one challenge the league runs, open
    seen = []
    threads = [threading.Thread(target=lambda: seen.append(verifier())) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    first, second = seen
    assert first is not second and first.missions is second.missions and first.lines is second.lines
    assert CODE in {key[1] for key in first.missions}  # built before any submission


def test_one_waitress_process_behind_a_proxy_sees_each_players_address(league_db):
    """``--workers 1 --proxies 1``: waitress deleted X-Forwarded-For before the app saw it, so
    twelve players behind one proxy shared a bucket (ten 201s, then 429). A real server on
    127.0.0.1, stopped here."""
    import http.client
    import threading

    from bgrid.web import league_server, listen

    app = create_app(league_db, register_limit="1 per minute", proxies=1)
    server = league_server(app, listen("127.0.0.1", 0), 2, proxies=1)
    stop = threading.Event()

    def serve() -> None:  # the serving loop, bounded and ended by its own thread
        while not stop.is_set():
            server.serve_once(0.05)
        server.finish(1)

    serving = threading.Thread(target=serve, daemon=True)
    serving.start()
    try:
        statuses = []
        for k in range(4):  # three players, then the first again
            conn = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=10)
            conn.request("POST", "/api/players", body=json.dumps({"name": f"w{k}"}),
                         headers={"Content-Type": "application/json", "X-Forwarded-For": f"10.0.0.{k % 3}"})
            statuses.append(conn.getresponse().status)
            conn.close()
    finally:
        stop.set()
        serving.join(timeout=10)
    assert statuses == [201, 201, 201, 429]
    assert not serving.is_alive()
