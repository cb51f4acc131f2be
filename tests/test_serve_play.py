"""The table companion's phone face (``/play/CODE``) through Flask's test client: the key,
a whole mission played by forms, the game kept under the player and found again from another
device, the last button submitting a valid entry."""

from __future__ import annotations

import html
import random
import re

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.companion import Session
from bgrid.companion.autoplay import next_line
from bgrid.league import open_league
from bgrid.league.windows import open_challenge
from bgrid.web import create_app
from league_logs import CODE

NOW = "2026-12-01T10:00:00Z"


@pytest.fixture
def app(tmp_path):
    path = tmp_path / "league.db"
    assert CliRunner().invoke(cli, ["league", "init", str(path), "--admin-key-file",
                                    str(tmp_path / "org.key")]).exit_code == 0
    conn = open_league(path)
    open_challenge(conn, CODE, "2000-01-01", "2100-01-01", now=NOW)
    conn.close()
    return create_app(path, testing=True, submit_limit="1000/minute", register_limit="1000/minute")


def token(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def register(client, name: str) -> str:
    page = client.get("/register").get_data(as_text=True)
    answer = client.post("/register", data={"name": name, "csrf_token": token(page)})
    return re.search(r'<code class="key" id="key">([^<]+)</code>', answer.get_data(as_text=True)).group(1)


def sign_in(client, key: str):
    page = client.get(f"/play/{CODE}").get_data(as_text=True)
    assert "Your key" in page
    return client.post(f"/play/{CODE}/key", data={"key": key, "csrf_token": token(page)})


def say(client, text: str):
    page = client.get(f"/play/{CODE}").get_data(as_text=True)
    return client.post(f"/play/{CODE}", data={"statement": text, "csrf_token": token(page)})


@pytest.mark.parametrize("name", ["Ada", "Ada: the Red", "Аda No. 1"])
def test_a_whole_mission_played_by_forms_ends_in_a_valid_entry(app, name):
    client = app.test_client()
    key = register(client, name)
    assert sign_in(client, key).status_code == 303
    mirror = Session.start(f"bgrid-log: 1\nchallenge: {CODE}\nplayer: {name}\n")
    rng = random.Random(5)
    while not mirror.is_over:
        line = next_line(mirror, rng)
        assert mirror.submit(line).ok
        answer = say(client, line)
        assert answer.status_code == 303
    page = client.get(f"/play/{CODE}").get_data(as_text=True)
    assert "Mission over" in page and "<svg" in page
    answer = client.post(f"/play/{CODE}/submit", data={"csrf_token": token(page)})
    assert answer.status_code == 303 and "/entries/" in answer.headers["Location"]
    entry = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert "valid" in entry and f"<td>{mirror.score} (" in entry


def test_a_refusal_is_the_verifiers_and_the_game_goes_on(app):
    client = app.test_client()
    sign_in(client, register(client, "Bo"))
    say(client, "enter")
    say(client, "draw")
    page = client.get(f"/play/{CODE}").get_data(as_text=True)
    answer = client.post(f"/play/{CODE}", data={"statement": "alt 2C", "csrf_token": token(page)})
    page = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert re.search(r"E\d{3} [a-z-]+: ", page) and 'role="alert"' in page
    assert "turn 1 · ALT" in page


def test_the_game_is_found_again_from_another_device_with_the_key(app):
    phone = app.test_client()
    key = register(phone, "Cy")
    sign_in(phone, key)
    say(phone, "enter")
    laptop = app.test_client()
    sign_in(laptop, key)
    page = laptop.get(f"/play/{CODE}").get_data(as_text=True)
    assert "turn 1\nenter " in page  # the log so far, as the phone left it


def test_a_stored_game_that_no_longer_replays_starts_again_and_says_why(app):
    from bgrid.league.companion_games import save_game
    from bgrid.web.db import connection

    client = app.test_client()
    sign_in(client, register(client, "Di"))
    say(client, "enter")
    with app.app_context():
        save_game(connection(), 1, CODE, f"bgrid-log: 1\nchallenge: {CODE}\n\nturn 1\nenter 2C\n", {}, NOW)
    page = client.get(f"/play/{CODE}").get_data(as_text=True)
    assert "could not be replayed (E206" in page  # 2C is not the deck's entry card


def test_the_challenge_page_links_to_the_companion(app):
    page = app.test_client().get(f"/challenges/{CODE}").get_data(as_text=True)
    assert f'href="/play/{CODE}"' in page


def test_without_a_key_the_page_asks_for_one_and_a_wrong_key_is_refused(app):
    client = app.test_client()
    page = client.get(f"/play/{CODE}").get_data(as_text=True)
    answer = client.post(f"/play/{CODE}/key", data={"key": "nope", "csrf_token": token(page)})
    assert answer.status_code == 403 and "no player holds this key" in answer.get_data(as_text=True)
    assert client.get("/play/0M00-0001-WR4").status_code == 404


@pytest.mark.parametrize("name, said", [("Ada #1", "'#'"), ("Ada seed: 12", "'seed:'")])
def test_a_name_the_logs_cannot_carry_is_refused_at_registration_on_the_page_and_the_api(app, name, said):
    # the name would go on the log's 'player:' line: 'Ada #1' reads back as 'Ada' (a comment),
    # 'Ada seed: 12' as a second header key
    client = app.test_client()
    page = client.get("/register").get_data(as_text=True)
    answer = client.post("/register", data={"name": name, "csrf_token": token(page)})
    assert answer.status_code == 422 and said in html.unescape(answer.get_data(as_text=True))
    answer = client.post("/api/players", json={"name": name})
    assert answer.status_code == 422 and said in answer.get_json()["error"]


def test_a_name_stored_before_the_rule_gets_a_clear_refusal_not_a_server_error(app, tmp_path):
    client = app.test_client()
    key = register(client, "Ada")
    conn = open_league(tmp_path / "league.db")
    with conn:
        conn.execute("UPDATE players SET name = 'Ada seed: 12'")
    conn.close()
    sign_in(client, key)
    answer = client.get(f"/play/{CODE}")
    assert answer.status_code == 422
    said = html.unescape(answer.get_data(as_text=True))
    assert "'seed:'" in said and "rename" in said


def test_a_game_finished_after_the_window_closed_is_refused_in_plain_words(app, tmp_path):
    """On main the play page said the API's words: "challenge 0M00-0001-WR3 is open from
    2026-11-23T00:00:00Z until 2026-11-30T00:00:00Z (UTC); it is now 2026-…", never the
    word closed and no way on."""
    client = app.test_client()
    name = "Ada"
    assert sign_in(client, register(client, name)).status_code == 303
    mirror = Session.start(f"bgrid-log: 1\nchallenge: {CODE}\nplayer: {name}\n")
    rng = random.Random(5)
    while not mirror.is_over:
        line = next_line(mirror, rng)
        assert mirror.submit(line).ok
        assert say(client, line).status_code == 303
    conn = open_league(tmp_path / "league.db")  # the fixture's league
    open_challenge(conn, CODE, "2026-11-23", "2026-11-30", now=NOW)
    conn.close()
    page = client.get(f"/play/{CODE}").get_data(as_text=True)
    answer = client.post(f"/play/{CODE}/submit", data={"csrf_token": token(page)})
    assert answer.status_code == 403
    page = answer.get_data(as_text=True)
    said = re.search(r'<p class="error-box" role="alert" id="said">(.*?)</p>', page, re.S)
    assert said.group(1) == (f'challenge {CODE} closed on 30 Nov 2026 (UTC): '
                             '<a href="/">see the challenges open now</a>')
