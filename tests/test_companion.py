"""The table companion's core (``bgrid.companion.Session``): statements in, log lines and
paper steps out, the verifier's refusals, undo, resume.

The hand-played mission in ``tests/logs/hand/daily-statements.log`` was played from the
printed sheet of challenge 0MER-60SV-GHE; its pencilled artillery columns (R43) are the
expected piece cells below, copied from the player's sheet, not from the code.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bgrid.companion import Session
from bgrid.companion.autoplay import next_line, play_mission
from bgrid.companion.keystrokes import keys_for
from bgrid.challenges import mission_from_seed
from bgrid.players.simulated_logs import simulated_log
from bgrid.challenges.seeding import stream
from bgrid.verifier.verify import verify_log

from explicit_maps import ALL_BLOCKED, ALL_BLOCKED_TEXT, CLUBS_AUTOMA, CLUBS_AUTOMA_TEXT

HERE = Path(__file__).parent
HAND = HERE / "logs" / "hand" / "daily-statements.log"
CODE = "0MER-60SV-GHE"


def _body(text: str) -> list[str]:
    lines = text.splitlines()
    first = next(i for i, ln in enumerate(lines) if ln.startswith("turn"))
    return lines[first:]


def _challenge(seed: int, open_deck: bool = False) -> Session:
    return Session.start(f"bgrid-log: 1\nchallenge: {mission_from_seed(seed).code}\n", open_deck=open_deck)


def test_the_hand_played_log_piped_in_reproduces_its_game():
    session = Session.start(f"bgrid-log: 1\nchallenge: {CODE}\n")
    replies = [session.submit(line) for line in _body(HAND.read_text(encoding="utf-8"))]
    assert all(r.ok for r in replies), [r.one_line() for r in replies if not r.ok]
    verdict = verify_log(session.log_text())
    assert (verdict.verdict, verdict.outcome, verdict.score.total) == ("valid", "defeat", 4)
    assert "claim: defeat 4" in session.log_text().split("\n\n")[0]


# The sheet's art 1-4 columns after each turn's Automa phase (the player's pencil rows).
PENCILLED_ARTILLERY = {1: "F9 H2 C5 G3", 2: "F8 G2 D5 x", 3: "E8 F2 C5 x", 8: "C8 C4 B6 x",
                       11: "C9 C6 B8 x"}


def test_artillery_keeps_the_numbers_of_its_placement_in_the_players_rows():
    session = Session.start(f"bgrid-log: 1\nchallenge: {CODE}\n")
    seen = {}
    for line in _body(HAND.read_text(encoding="utf-8")):
        session.submit(line)
        if line.startswith("automa"):
            cells = session.art.cells
            seen[session.replay.turn_logged] = " ".join("x" if c is None else str(c) for c in cells)
    assert {t: seen[t] for t in PENCILLED_ARTILLERY} == PENCILLED_ARTILLERY


def test_the_paper_steps_name_artillery_moves_and_the_restack():
    session = Session.start(f"bgrid-log: 1\nchallenge: {CODE}\n", open_deck=True)
    said = []
    for line in _body(HAND.read_text(encoding="utf-8")):
        said += session.submit(line).said
    assert "artillery 2 moves I2 → H2" in said  # turn 1's Automa card 9D (R19, R20)
    restack = next(s for s in said if s.startswith("reshuffle now"))
    assert "6H stays out (R35)" in restack  # the guns card awaiting its reveal
    assert restack.endswith("KH 5S 5C")  # the highest reshuffle numbers at the bottom


def test_a_blind_restack_says_how_to_restack_and_never_the_order():
    """Was, blind (no --open): "restack the 49 discards in this order, top first (R26): 10C
    8C 7S …", every card of the second pass: the rest of the game told to a player who draws
    blind. The restack is told by reshuffle number, as the sheet's deck page does it (R26)."""
    session = Session.start(f"bgrid-log: 1\nchallenge: {CODE}\n")
    said = []
    for line in _body(HAND.read_text(encoding="utf-8")):
        said += session.submit(line).said
    restack = next(s for s in said if s.startswith("reshuffle now"))
    assert restack == ("reshuffle now, the deck ran out at the guns card (R22): 6H stays out (R35); "
                       "restack the 49 discards by reshuffle number, lowest on top, as the sheet's "
                       "deck page shows (R26)")
    # nothing said at the exhaustion names a card of the new deck but the guns' reveal 10C,
    # which the log itself writes
    new_deck = {str(c) for c in session.state.draw_pile}
    at = said.index(restack)
    assert not new_deck & set(" ".join(said[at:]).replace(",", " ").replace(":", " ").split())


def test_the_restack_order_is_the_discard_pile_sorted_by_reshuffle_number():
    """R26, worked independently: the discards at the exhaustion, ordered by the numbers the
    mission printed for each deck position, lowest on top."""
    mission = mission_from_seed(2)
    number = {}
    for card, n in zip(mission.deck, mission.reshuffle, strict=True):
        number.setdefault(card, []).append(n)
    session = _challenge(2, open_deck=True)
    rng = random.Random(2)
    while not session.is_over:
        before = session.state.copy()
        reply = session.submit(next_line(session, rng))
        restack = next((s for s in reply.said if s.startswith("reshuffle now")), None)
        if restack is not None:
            break
    else:
        pytest.fail("no exhaustion in this mission")
    discards = sorted(before.discard, key=lambda c: min(number[c]))
    if before.in_play:  # a played card being resolved was still in play: not in the new pile
        discards = [c for c in discards if c not in before.in_play]
    listed = restack.split("top first (R26): ")[1].split()
    assert listed[: len(discards)] == [str(c) for c in discards][: len(listed)]


@pytest.mark.parametrize("seed", [3, 4])
@pytest.mark.parametrize("own", [False, True])
def test_greedy_missions_end_with_a_log_the_verifier_calls_valid(seed, own):
    session = Session.start(f"bgrid-log: 1\nseed: {seed}\n") if own else _challenge(seed)
    play_mission(session, seed)
    verdict = verify_log(session.log_text())
    assert verdict.verdict == "valid", verdict.render()
    assert (verdict.outcome, verdict.score.total) == (str(session.state.outcome), session.score)


def test_a_simulated_log_piped_in_as_it_stands_reproduces_the_game():
    mission = mission_from_seed(7)
    text, final = simulated_log(mission, stream(mission.ruleset.name, "sim-0", 7), challenge_deck=False)
    session = Session.start("\n".join(text.split("\n\n")[0].splitlines()[:2]) + "\n")
    for line in _body(text):
        assert session.submit(line).ok, line
    assert session.state == final
    assert verify_log(session.log_text()).verdict == "valid"


def test_undo_gives_back_the_state_before_each_statement_draws_reshuffles_and_automa_included():
    session = _challenge(2)  # this mission meets the exhaustion and the end for want of a card
    rng = random.Random(2)
    kinds = set()
    while not session.is_over:
        line = next_line(session, rng)
        before, art, body = session.state.copy(), session.art.cells, list(session.body)
        reply = session.submit(line)
        kinds.update(w.split()[0] for w in reply.written)
        after = session.state.copy()
        session.undo()
        assert session.state == before and session.art.cells == art and session.body == body, line
        assert session.submit(line).ok
        assert session.state == after
    assert {"draw", "reshuffle", "automa"} <= kinds


def test_undo_right_after_the_end_takes_the_claim_back():
    session = _challenge(3)
    play_mission(session, 3)
    assert "claim:" in session.log_text()
    session.undo()
    assert "claim:" not in session.log_text() and not session.is_over


def test_a_face_card_entry_waits_for_its_column():
    session = Session.start("bgrid-log: 1\nmap mountains: E1 E2\nmap bunkers: A5 C3 G7 H2 I9 J4\n"
                            "map artillery: B9 F8 J1 D10\n")
    reply = session.submit("enter QS")
    assert reply.ok and reply.written == ["turn 1"] and "choose the entry column" in reply.said[0]
    assert [o.text for o in session.offers()][:2] == ["enter QS A", "enter QS B"]
    reply = session.submit("c")
    assert reply.written == ["enter QS C"]
    assert "1 damage for a face-card entry (R13); DMG 1/5" in reply.said


def test_a_lone_card_not_in_the_hand_is_the_automa_card():
    """Was: ``error E107 missing-token: 'throttle' needs more: expected e.g. 'throttle 9H move
    4C FFFFRF'`` for ``9D`` typed after turn 1's two actions of the hand-played daily: a 9
    alone is never a play (R7, R11), and a card not in the hand is no play at all; the one
    card the turn can take there is its Automa card."""
    session = Session.start(f"bgrid-log: 1\nchallenge: {CODE}\n")
    for line in _body(HAND.read_text(encoding="utf-8"))[:7]:  # turn 1 up to its Automa card
        assert session.submit(line).ok, line
    reply = session.submit("9d")
    assert reply.ok and reply.written[0] == "automa 9D"
    assert reply.note == "'9d' read as the Automa card: automa 9D"
    assert reply.said[0].startswith("Automa card 9D, Diamonds")
    session.undo()
    # a card the challenge deck does not give there is refused as an Automa card (R25)
    reply = session.submit("9C")
    assert reply.error.code == "E206" and "gives 9D as the Automa card here, not 9C" in reply.error.message


def test_a_lone_card_of_an_own_deck_is_the_automa_card_and_a_hand_card_stays_a_play():
    session = Session.start("bgrid-log: 1\nmap mountains: E1 E2\nmap bunkers: A5 C3 G7 H2 I9 J4\n"
                            "map artillery: B9 F8 J1 D10\n")
    for line in ("enter 3H", "draw 2S 3S 4S QS 6S"):
        assert session.submit(line).ok
    reply = session.submit("QS")  # in the hand: the Queen's play, altitude 4 - 2 (R7)
    assert reply.written == ["alt QS"]
    reply = session.submit("9C")  # not in the hand, not drawn yet: the Automa card (a Club holds)
    assert reply.ok
    assert reply.written[:2] == ["automa 9C", "state at C1 facing S alt 2 dmg 0 art B9 F8 J1 D10"]


def test_a_face_card_the_challenge_deck_does_not_give_is_refused_before_any_column():
    # the column is asked for only when the replay would stop there (E113): a card the deck
    # does not give now is the verifier's refusal at once, not a question first
    session = _challenge(1)
    top = str(session.state.draw_pile[0])
    wrong = next(c for c in ("QS", "KH", "JD") if c != top)
    reply = session.submit(f"enter {wrong}")
    assert not reply.ok and reply.error.code == "E206" and top in reply.error.message
    assert session.pending_entry is None and session.body == []


def test_a_play_typed_as_the_sheet_writes_it_without_its_verb_is_taken():
    # the sheet teaches 'A play is its cards: 5C FFLF'; typed so, it was E106 "'5D' is not a
    # statement". Own deck on the small map: enter 3H puts the bomber on C1 facing S, alt 4
    session = Session.start("bgrid-log: 1\nmap mountains: E1 E2\nmap bunkers: A5 C3 G7 H2 I9 J4\n"
                            "map artillery: B9 F8 J1 D10\n")
    for line in ("enter 3H", "draw 2S 3S 4S QS 6S"):
        assert session.submit(line).ok
    reply = session.submit("2S FF")  # C1 -> C2 -> C3, over the bunker
    assert reply.ok and reply.written == ["move 2S FF"]
    reply = session.submit("QS")  # a black Queen: altitude 4 - 2
    assert reply.ok and reply.written == ["alt QS"]
    assert (session.state.altitude, str(session.state.cell)) == (2, "C3")


@pytest.mark.parametrize("typed", ["guns JK = 6S G3 -> JD", "JK = 6S G3 -> JD", "JK= 6S G3"])
def test_a_joker_declared_with_spaces_is_taken_as_a_row_cell_takes_it(typed):
    # turn 2 of the hand-played log: 'guns JK=6S G3 -> JD'; a declaration spaced out around '='
    # is read closed up (else E111), and a play without its verb by its card (else E106)
    text = HAND.read_text(encoding="utf-8")
    session, _ = Session.resume(text[:text.index("guns JK=6S")])
    reply = session.submit(typed)
    assert reply.ok and reply.written[0] == "guns JK=6S G3 -> JD"


def test_an_own_deck_refuses_a_card_already_drawn_with_the_verifiers_message():
    session = Session.start("bgrid-log: 1\nseed: 5\n")
    assert session.submit("enter 7H").ok
    reply = session.submit("draw 2S 7H")
    assert reply.error is not None and reply.error.code == "E205"
    assert "7H cannot be the draw card: it is already drawn" in reply.error.message
    assert session.body == ["turn 1", "enter 7H"]  # nothing of the refused line stays


def test_a_resumed_log_is_the_same_game_and_a_torn_last_line_is_dropped():
    session = _challenge(4)
    rng = random.Random(4)
    for _ in range(25):
        session.submit(next_line(session, rng))
    text = session.log_text()
    again, dropped = Session.resume(text + "move 5")
    assert dropped == 1
    assert again.state == session.state and again.art.cells == session.art.cells
    assert again.log_text() == text


def test_a_resumed_log_recalls_the_players_statements_oldest_first_without_the_bookkeeping():
    # the hand-played log's first turn and the start of its second, as the player wrote them;
    # its 'turn' and 'state' lines are the ones the companion writes itself
    text = HAND.read_text(encoding="utf-8")
    resumed, _ = Session.resume(text[:text.index("guns JK=6S")])
    assert resumed.recalled_lines() == [
        "enter 4H", "draw 5S JK 8S KH KC", "resupply KH -> 10D", "resupply KC -> 8D",
        "move 5S FFLFF", "bomb 8S -> AS", "automa 9D", "draw JK 7H", "alt JK=QS"]
    assert Session.start(f"bgrid-log: 1\nchallenge: {CODE}\n").recalled_lines() == []


def test_a_clubs_automa_card_says_the_artillery_holds_and_moves_no_piece():
    before, _ = Session.resume(CLUBS_AUTOMA[:CLUBS_AUTOMA.index("automa 2C")])
    reply = before.submit("automa 2C")
    assert reply.said == [CLUBS_AUTOMA_TEXT, "artillery 1 (D2) fires (R18)",
                          "1 damage from artillery fire (R18); DMG 1/5"]
    assert reply.written == ["automa 2C", "state at D1 facing S alt 4 dmg 1 art D2 H5 J9 A1"]


def test_completion_offers_whole_statements_and_own_deck_cards():
    session = _challenge(1)
    assert session.completions("e") == ["enter"]
    own = Session.start("bgrid-log: 1\nseed: 1\n")
    own.submit("enter 7H")
    assert "draw 2S" in own.completions("draw 2")
    assert all(c.startswith("draw 2S 3") for c in own.completions("draw 2S 3"))


def test_a_blind_draw_costs_a_few_keys():
    session = _challenge(1)
    session.submit("enter")
    assert keys_for(session, "draw") == 2  # Tab (the only offer comes first), Enter


LOG_MESSAGES = pytest.importorskip("test_verify_messages")


def _normalised(message: str) -> str:
    import re

    return re.sub(r"line \d+", "line N", message)


@pytest.mark.parametrize("code", sorted(set(LOG_MESSAGES.CASES) - {"E001", "E002", "E125", "E214"}))
def test_every_refusal_of_the_verifier_comes_as_typed_with_its_code_and_message(code):
    """The verifier's message cases typed line by line: the refused line gets the same code and
    message (line numbers aside: the companion's log has its own layout). Not here: E001 and
    E002 are about a file's bytes (E002 through ``bgrid play``'s standard input is in
    test_cmd_play); the companion writes ``turn 1`` (E125) and the claim (E214) itself."""
    log = LOG_MESSAGES.CASES[code][0]
    text = log.read_text(encoding="utf-8") if isinstance(log, Path) else log
    expected = verify_log(text).errors[0]
    lines = text.splitlines()
    first = next((i for i, ln in enumerate(lines) if ln.split("#")[0].split()[:1] and
                  ln.split()[0].lower() in ("turn", "enter", "draw")), len(lines))
    try:
        session = Session.start("\n".join(lines[:first]) + "\n")
    except Exception as exc:  # a header error: the session refuses to start, with the same error
        assert (exc.code, exc.message) == (expected.code, expected.message)
        return
    for line in lines[first:]:
        reply = session.submit(line)
        if not reply.ok:
            assert (reply.error.code, _normalised(reply.error.message)) == (
                expected.code, _normalised(expected.message))
            return
    pytest.fail(f"no refusal; the verifier says {expected}")


def test_the_board_svg_shows_pieces_by_number_and_the_bomber_facing():
    import xml.dom.minidom

    from bgrid.companion.board_svg import board_svg

    session = Session.start(f"bgrid-log: 1\nchallenge: {CODE}\n")
    for line in _body(HAND.read_text(encoding="utf-8"))[:40]:  # to turn 5: bomber A4 facing S
        session.submit(line)
    svg = board_svg(session.state, session.art)
    xml.dom.minidom.parseString(svg)
    assert "<title>bomber at A4 facing S</title>" in svg
    marks = [t.firstChild.data for t in xml.dom.minidom.parseString(svg).getElementsByTagName("text")
             if t.getAttribute("class") != "l"]  # not the row and column labels
    assert sorted(m for m in marks if m != "B") == ["1", "2", "3"]  # piece 4 was shot down in turn 2


def test_an_exhaustion_at_the_automa_card_says_its_damage_is_beside_the_fire_cap():
    """R40: the deck of challenge seed 2 runs out as greedy's 53rd statement, the Automa card,
    reveals it: the restack comes first (R26), then the exhaustion's own damage."""
    session = _challenge(2)
    rng = random.Random(2)
    for _ in range(52):
        session.submit(next_line(session, rng))
    line = next_line(session, rng)
    reply = session.submit(line)
    at = reply.written.index("reshuffle")  # the marker stands before the statement that met it
    assert line == "automa" and reply.written[at + 1].startswith("automa ")
    assert reply.said[0].startswith("reshuffle now, the deck ran out at the automa card (R22); restack")
    assert "1 damage: the deck ran out at the automa card (R40); DMG 2/5" in reply.said


def test_an_open_deck_offers_the_cards_to_come_and_a_blind_one_does_not():
    blind, shown = _challenge(1), Session.start(
        f"bgrid-log: 1\nchallenge: {mission_from_seed(1).code}\n", open_deck=True)
    for session in (blind, shown):
        session.submit("enter")
    coming = " ".join(map(str, shown.state.draw_pile[:5]))
    assert [o.text for o in shown.offers()] == [f"draw {coming}"]
    assert [o.text for o in blind.offers()] == ["draw"]


def test_the_replay_steps_one_typed_statement_and_quotes_it_in_a_refusal():
    # the companion's door into the referee: no log lines to rewrite, no history to reset
    from bgrid.challenges.mission import mission_from_seed
    from bgrid.log.messages import LogError
    from bgrid.log.notation import ParsedLog
    from bgrid.log.reader import read_header, read_statement
    from bgrid.rules.events import Entered
    from bgrid.verifier.map_source import mission_source
    from bgrid.verifier.replay import Replay

    code = mission_from_seed(4).code
    header, _ = read_header(f"bgrid-log: 1\nchallenge: {code}\n")
    mission = mission_source(ParsedLog(header, [], []))
    replay = Replay(ParsedLog(header, [], []), mission)
    top = mission.start().draw_pile[0]
    replay.step(read_statement("turn 1", mission.ruleset, 4), "turn 1")
    events = replay.step(read_statement(f"enter {top}", mission.ruleset, 5), f"enter {top}")
    assert any(isinstance(ev, Entered) for ev in events) and replay.history is None
    typed = "automa 2S   # too soon"
    with pytest.raises(LogError) as err:
        replay.step(read_statement(typed, mission.ruleset, 6), typed)
    assert err.value.line == 6 and err.value.text == typed and err.value.code.startswith("E2")


def test_an_automa_card_that_moves_no_piece_says_why_each_one_stayed():
    """Was: "Automa card 8H, Hearts: the artillery steps toward the bomber (R19)" and then no
    step at all, 25 times in one hand-played mission: the player looked for a move to pencil."""
    session = Session.start(ALL_BLOCKED)
    for line in ("enter 3H", "draw 2S 3S 4S 5S 6S"):
        assert session.submit(line).ok
    said = session.submit("automa 8H").said
    assert said[0] == "Automa card 8H, Hearts: the artillery steps toward the bomber (R19)"
    assert said[-1] == ALL_BLOCKED_TEXT
    assert not any("moves" in s and "→" in s for s in said)


def test_an_automa_card_that_moves_a_piece_or_holds_adds_no_such_line():
    session = Session.start(ALL_BLOCKED)
    for line in ("enter 3H", "draw 2S 3S 4S 5S 6S"):
        assert session.submit(line).ok
    # Spades: toward the nearest bunker (R19). Piece 4 on H8 heads for G9 (2 away; the other bunkers 4 or
    # more): equal gaps, so along the column, to H9 (R20); 1 and 2 head for B1, blocked as before
    said = session.submit("automa 8S").said
    assert "artillery 4 moves H8 → H9" in said
    assert not any(s.startswith("no artillery piece moves") for s in said)
    session.undo()
    said = session.submit("automa 8C").said  # Clubs: the card's own text says they hold
    assert said[0] == "Automa card 8C, Clubs: the artillery holds (R19)"
    assert not any(s.startswith("no artillery piece moves") for s in said)
