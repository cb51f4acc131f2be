"""The pages a player meets around a submission (Flask's test client): a refusal that keeps
what was typed and says why in plain words with a link, the key page a password manager can
save, the receipt's place in the standings, and the replay page's way back to the league."""

from __future__ import annotations

import html
import io
import re

from bgrid.league import open_league
from bgrid.league.windows import open_challenge
from league_logs import CODE, OTHER_CODE, games
from league_server import NOW, csrf_token as token, register_on_page as register


def submit(client, key, log, **fields):
    form = {"key": key, "log": log, "csrf_token": token(client, "/submit"), **fields}
    return client.post("/submit", data=form)


def refusal(page: str) -> str:
    """The refusal box's text, tags dropped."""
    box = re.search(r'<p class="error-box" role="alert" id="refusal">(.*?)</p>', page, re.S)
    assert box is not None, page
    return html.unescape(re.sub(r"<[^>]+>", "", box.group(1)))


def place(page: str) -> str:
    """The receipt's "in the standings" cell as text."""
    cell = re.search(r'<td id="place">(.*?)</td>', page, re.S).group(1)
    return " ".join(re.sub(r"<[^>]+>", "", cell).split())


def test_a_refused_paste_keeps_the_key_and_the_log_and_says_why_above_them(client):
    """Today the key field comes back empty (``<input type="password" id="key" name="key"
    required autocomplete="current-password">``): a player who pasted the wrong log types
    the 32-character key again."""
    key = register(client, "Ada")
    log = games(4)[0].by("Bo").decode()  # the log names another player: refused, 422
    answer = submit(client, key, log)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422
    assert f'value="{key}"' in page
    assert html.unescape(re.search(r"<textarea[^>]*>(.*?)</textarea>", page, re.S).group(1)) == log
    assert page.index('id="refusal"') < page.index("<form")
    assert "names 'Bo'" in refusal(page)
    assert answer.headers["Cache-Control"] == "no-store"  # the key is on the page


def test_a_refused_upload_comes_back_as_text_in_the_box(client):
    """Today an uploaded file that is refused is gone: the box is empty (``<textarea id="log"
    name="log" spellcheck="false"></textarea>``) and a browser never keeps the chosen file."""
    key = register(client, "Ada")
    log = games(4)[1].by("Bo")
    answer = client.post("/submit", content_type="multipart/form-data", data={
        "key": key, "log": "", "csrf_token": token(client, "/submit"), "file": (io.BytesIO(log), "bo.log")})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422
    assert html.unescape(re.search(r"<textarea[^>]*>(.*?)</textarea>", page, re.S).group(1)) == log.decode()


def test_a_wrong_key_is_said_in_plain_words_with_the_way_to_register(client):
    """Today: "a submission needs a player's key (Authorization: Bearer KEY); this one is
    missing or wrong" — an API header a player never sees."""
    answer = submit(client, "not-a-key-of-anyone-0000000000000", games(4)[0].by(None).decode())
    page = answer.get_data(as_text=True)
    assert answer.status_code == 401
    said = refusal(page)
    assert "Bearer" not in said and "Authorization" not in said
    assert said.startswith("no player holds this key") and "l, 1 and I" in said
    assert '<a href="/register">no key yet? register a name</a>' in page
    # the API keeps its own words
    api = client.post("/api/submissions", data=games(4)[0].by(None), headers={"Authorization": "Bearer nope"})
    assert api.status_code == 401 and "Authorization: Bearer KEY" in api.json["error"]


def test_a_log_of_another_challenge_links_to_the_challenges_open_now(client):
    """Today: "'0GDR-FC73-W4T' is not a challenge of this league; see GET /api/challenges"."""
    key = register(client, "Ada")
    page = submit(client, key, games(1, OTHER_CODE)[0].by("Ada").decode()).get_data(as_text=True)
    said = refusal(page)
    assert "GET /api" not in said
    assert said == (f"the log is for {OTHER_CODE}, which is not a challenge of this league: "
                    "see the challenges open now")
    assert '<a href="/">see the challenges open now</a>' in page


def test_a_closed_window_says_closed_on_its_day_with_a_link(client, league_db):
    """Today: "challenge 0M00-0001-WR3 is open from 2026-11-23T00:00:00Z until
    2026-11-30T00:00:00Z (UTC); it is now 2026-…" — raw stamps, never the word closed."""
    conn = open_league(league_db)
    open_challenge(conn, CODE, "2026-11-23", "2026-11-30", now=NOW)
    conn.close()
    key = register(client, "Ada")
    answer = submit(client, key, games(4)[0].by("Ada").decode())
    page = answer.get_data(as_text=True)
    assert answer.status_code == 403
    assert refusal(page) == f"challenge {CODE} closed on 30 Nov 2026 (UTC): see the challenges open now"
    assert '<a href="/">see the challenges open now</a>' in page


def test_a_window_not_open_yet_says_the_day_it_opens(client, league_db):
    conn = open_league(league_db)
    open_challenge(conn, CODE, "2100-01-04T18:00:00Z", "2100-01-11", now=NOW)
    conn.close()
    key = register(client, "Ada")
    said = refusal(submit(client, key, games(4)[0].by("Ada").decode()).get_data(as_text=True))
    assert said == f"challenge {CODE} opens on 4 Jan 2100 18:00 (UTC): see the challenges open now"


def test_the_key_page_is_a_form_a_password_manager_saves(client):
    """Today the key is only a ``<code class="key">`` box: nothing a password manager offers
    to keep."""
    answer = client.post("/register", data={"name": "Ada", "csrf_token": token(client, "/register")})
    page = answer.get_data(as_text=True)
    key = re.search(r'<code class="key" id="key">([^<]+)</code>', page).group(1)
    form = re.search(r'<form method="post" action="/key".*?</form>', page, re.S).group(0)
    assert re.search(r'<input type="text" id="kept-name" name="username" value="Ada" '
                     r'autocomplete="username"', form)
    assert (f'<input type="password" id="kept-key" name="password" value="{key}" '
            'autocomplete="new-password">') in form
    assert "password manager" in page and "<code>l</code>, <code>1</code> and <code>I</code>" in page
    sent = client.post("/key", data={"username": "Ada", "password": key,
                                     "csrf_token": token(client, "/register")})
    assert sent.status_code == 303 and sent.headers["Location"] == "/submit"


def test_saving_the_key_signs_the_browser_in_for_the_submit_page(client):
    """Before, "Save the key and go on" led to a submit page asking "Your key" again, empty,
    a moment after the key was given: the form of the key page now signs this browser in
    (the /play session), so /submit takes the entry as the player's. A key that is no one's
    signs nobody in and counts as a wrong key."""
    key = register(client, "Ada")
    client.post("/key", data={"username": "Ada", "password": key, "csrf_token": token(client, "/register")})
    page = client.get("/submit").get_data(as_text=True)
    assert "Signed in on this device as <bdi>Ada</bdi>" in page
    answer = client.post("/submit", data={"log": games(1)[0].by("Ada").decode(),
                                          "csrf_token": token(client, "/submit")})
    assert answer.status_code == 303 and "/entries/" in answer.headers["Location"]
    with client.application.test_client() as other:
        sent = other.post("/key", data={"username": "Ada", "password": "x" * 32,
                                        "csrf_token": token(other, "/register")})
        assert sent.status_code == 303
        assert "Signed in" not in other.get("/submit").get_data(as_text=True)


def test_the_receipt_gives_the_place_in_the_standings(client):
    """Today the receipt says "yes, your counted result" and nothing of where it stands."""
    best, other = sorted(games(4)[:2], key=lambda g: (-g.score, g.turns))
    assert (best.score, best.turns) != (other.score, other.turns)  # a strict order, by the rules of ranking
    first = submit(client, register(client, "Ada"), best.by("Ada").decode())
    second = submit(client, register(client, "Bo"), other.by("Bo").decode())
    bo = client.get(second.headers["Location"]).get_data(as_text=True)
    ada = client.get(first.headers["Location"]).get_data(as_text=True)
    assert place(bo) == "yes, your counted result: 2nd of 2 so far (the standings)"
    assert place(ada) == "yes, your counted result: 1st of 2 so far (the standings)"


def test_a_later_entry_that_does_not_count_points_to_the_one_that_does(client):
    key = register(client, "Ada")
    best, worse = sorted(games(4)[:2], key=lambda g: (-g.score, g.turns))
    kept = submit(client, key, best.by("Ada").decode()).headers["Location"]
    later = client.get(submit(client, key, worse.by("Ada").decode()).headers["Location"])
    counted = kept.rsplit("/", 1)[1]
    assert place(later.get_data(as_text=True)) == (
        f"no; your counted result, entry #{counted}, is 1st of 1 so far (the standings)")


def test_the_replay_page_has_the_league_bar_and_no_hover_only_words(client):
    """Today the replay is the bare report: no way back to the league, its legend says
    "hover for the cause" (no hover on a phone), and the entry page shows it in an iframe of
    fixed height that scrolls inside the page."""
    entry = submit(client, register(client, "Ada"), games(4)[0].by("Ada").decode()).headers["Location"]
    number = entry.rsplit("/", 1)[1]
    assert "<iframe" not in client.get(entry).get_data(as_text=True)
    page = client.get(f"{entry}/replay").get_data(as_text=True)
    bar = re.search(r'<nav class="site">(.*?)</nav>', page, re.S).group(1)
    assert re.findall(r'<a href="([^"]+)">([^<]+)</a>', bar) == [
        ("/", "B-Grid league"), (f"/entries/{number}", f"Entry #{number}"),
        (f"/challenges/{CODE}", f"Standings of {CODE}")]
    assert "hover" not in page.lower()
