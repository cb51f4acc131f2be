"""A variant is a new ruleset file: change the values and the card table, and the engine, the
verifier (parser, replay, messages, ledger, --explain), the score, the solver, the mission
sheet's aid and the deck faces all follow (docs/rules.md).

The variant: health 7 at normal, a hand of 6, three actions a turn, guns reaching 4 cells,
artillery reach 5 minus the altitude, a low bombing band of 0-1, artillery hitting for 2, the
Queen changing the altitude by 1 (like 10 and J) and the 6 reading "strafe …" on its face.
"""

from __future__ import annotations

import dataclasses
import json
from importlib import resources

import pytest

from bgrid.generator.deck_pdf import card_role
from bgrid.generator.sheet import aid_context, render_sheet_html
from bgrid.rules import engine
from bgrid.rules.actions import Altitude, EndPhase, Guns, Move
from bgrid.rules.board import Cell
from bgrid.rules.combat import HIT, MISS, bomb_band
from bgrid.rules.errors import IllegalActionError
from bgrid.rules.events import Damage
from bgrid.challenges.mission import mission_from_seed
from bgrid.rules.ruleset import Play, load_ruleset, parse_ruleset
from bgrid.rules.state import CardPurpose, Phase
from bgrid.log.reader import parse_log, read_statement
from bgrid.challenges.mission import MapOrigin, Mission
from bgrid.challenges.seeding import stream
from bgrid.players.search import play_plan
from bgrid.players.playout import play_out, replay
from bgrid.players.solver import Member, hand_tables, solve_mission
from bgrid.log.writer import mission_lines, write_log
from bgrid.verifier.ledger import damage_entries
from bgrid.verifier.message_context import card_noun
from bgrid.log.messages import LogError
from bgrid.verifier.narrative import explain
from bgrid.verifier.replay import Replay
from bgrid.verifier.verify import Verifier
from bgrid.companion.session import Session

from engine_boards import board, card, placed


def _variant():
    data = json.loads(resources.files("bgrid.rules").joinpath("rulesets", "standard-1.json")
                      .read_text(encoding="utf-8"))
    data["name"] = "variant-7"
    data["difficulties"]["normal"] = 7
    data["hand_size"] = 6
    data["actions_per_turn"] = 3
    data["guns"]["range"] = 4
    data["artillery_reach"]["base"] = 5
    data["low_bombing_altitude"] = 1
    data["artillery_damage"] = 2
    data["cards"]["Q"] = {"play": "altitude", "points": 1, "label": "{climb} {sign}1",
                          "effect": "altitude: red climbs, black descends"}
    data["cards"]["6"]["effect"] = "strafe artillery, range {guns_range}"
    return parse_ruleset(data, "variant-7.json")


VARIANT = _variant()


def variant_state(*args, **kwargs):
    state = placed(*args, **kwargs)
    state.ruleset = VARIANT
    state.health = VARIANT.health("normal")
    return state


def test_the_engine_draws_a_hand_of_six_and_starts_at_health_seven():
    state = engine.new_game(board(), VARIANT, "normal", [card(c) for c in "7H 2S 3S 4S 5S 6S 8S 9S".split()])
    assert state.health == 7
    engine.reveal(state, card("7H"))  # enters at G1 (R13)
    for c in "2S 3S 4S 5S 6S".split():
        engine.reveal(state, card(c))
    assert state.phase is Phase.DRAW  # five cards are not a full hand of six
    engine.reveal(state, card("8S"))
    assert state.phase is Phase.ACTIONS and len(state.hand) == 6


def test_the_engine_allows_three_actions():
    state = variant_state(board(), "C3", hand="2H 3H 4H 5H KS")  # the King keeps the phase open
    for c in ("2H", "3H", "4H"):
        engine.apply(state, Move(card(c), "F"))
    assert state.actions == 3
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Move(card("5H"), "F"))
    assert err.value.code == "no-actions-left" and "three actions" in str(err.value)


def test_the_engine_reads_the_queen_and_the_guns_range_from_the_table():
    state = variant_state(board(artillery="C7"), "C3", altitude=4, hand="QH QS 6H")
    # The Queen changes the altitude by 1 here: QH from 4 reaches 5, QS from 4 reaches 3.
    assert Altitude(card("QH")) in engine.legal_actions(state)
    engine.apply(state, Altitude(card("QS")))
    assert state.altitude == 3
    # C7 is four cells south of C3: out of the standard range 3, in range 4.
    assert Guns(card("6H"), Cell.parse("C7")) in engine.legal_actions(state)


def test_artillery_hits_for_the_variant_damage():
    # Reach at altitude 4 is 5 - 4 = 1: the piece next to the bomber fires (R18), for 2.
    state = variant_state(board(artillery="C4"), "C3", altitude=4, hand="2H", top="5H")
    engine.apply(state, EndPhase())
    events = engine.reveal(state, card("5H"))
    assert [e.amount for e in events if isinstance(e, Damage)] == [2]
    assert state.damage == 2


def test_the_low_bombing_band_and_the_precise_ace_follow_the_table():
    state = variant_state(board(), "C3", altitude=2, hand="7H")
    # Altitude 2 is above the variant's band 0-1: a black 7 misses, the Ace still hits by colour.
    assert bomb_band(state, card("7S"), "S") == MISS
    assert bomb_band(state, card("AS"), "H") == HIT
    state.altitude = 1
    assert bomb_band(state, card("7S"), "H") == HIT


def test_the_verifier_names_the_variant_hand_size():
    log = parse_log("bgrid-log: 1\nmap mountains: E1 E2\nmap bunkers: A5 C3 G7 H2 I9 J4\n"
                    "map artillery: B9 F8 J1 D10\nruleset: variant-7\nturn 1\nenter 3H\n"
                    "draw 2S 3S 4S 5S 6S 7S 8S\n")
    m = board("E1 E2", "A5 C3 G7 H2 I9 J4", "B9 F8 J1 D10")
    with pytest.raises(LogError) as err:
        Replay(log, Mission(MapOrigin(), VARIANT, "normal", m)).run()
    assert err.value.code == "E207"
    assert "the hand holds 6 at most, so 6 cards are drawn" in str(err.value)
    assert "dmg 0/7" in err.value.state


def test_the_sheet_aid_prints_the_variant_values():
    mission = dataclasses.replace(mission_from_seed(1944), ruleset=VARIANT)
    aid = aid_context(VARIANT)
    assert aid["reach"] == [5, 4, 3, 2, 1, 1]  # max(1, 5 - altitude) for altitudes 0-5 (R18)
    assert aid["ranks"]["alt1"] == "10 J Q" and aid["ranks"]["alt2"] == ""
    html = render_sheet_html(mission)
    assert "play up to 3 a turn" in html and "range ≤ 4" in html
    assert "<td>0–1</td>" in html and "<td>2–5</td>" in html  # the bombing bands


def test_the_deck_faces_read_the_card_table():
    assert card_role(card("6H"), VARIANT) == ("6 · GUNS", "strafe artillery, range 4")
    assert card_role(card("QS"), VARIANT) == ("Q · DESCEND −1", "altitude: red climbs, black descends")
    standard = load_ruleset()
    assert card_role(card("QS"), standard) == ("Q · DESCEND −2", "altitude: red climbs, black descends")
    assert VARIANT.play_words(Play.ALTITUDE) == "an altitude card 10, J or Q"


# -- the verifier, the ledger, --explain, the parser and the solver follow the variant --------

SEEDED = mission_from_seed(1944)


def variant_mission() -> Mission:
    """Seed 1944's map as an explicit map, played under the variant ruleset (a seed names
    another map under another ruleset: the seeded streams are the ruleset's own)."""
    return Mission(MapOrigin(), VARIANT, "normal", SEEDED.game_map, SEEDED.deck, SEEDED.reshuffle)


def variant_logs(count: int, ruleset=VARIANT):
    """Random games of the variant on the player's own deck, written as logs: (log text,
    the engine's final state)."""
    mission = dataclasses.replace(variant_mission(), ruleset=ruleset)
    for k in range(count):
        rng = stream("standard-1", f"variant-{k}", 1)
        trace: list = []
        start = mission.start(challenge_deck=False)
        play_out(start.copy(), rng, trace)
        events = [ev for step in replay(start, trace) for ev in step]
        claim = (str(start.outcome), engine.score(start).total)
        yield write_log(events, mission_lines(mission), claim=claim), start


def test_a_variant_log_names_its_ruleset_in_the_header():
    text, _ = next(variant_logs(1))
    assert "ruleset: variant-7" in text.splitlines()[1:6]


def test_whole_variant_logs_verify_with_the_engines_outcome_and_score():
    verifier = Verifier(rulesets={"variant-7": VARIANT})
    for text, final in variant_logs(6):
        verdict = verifier.verify(text)
        assert verdict.verdict == "valid", verdict.errors
        assert verdict.ruleset == "variant-7" and verdict.difficulty == "normal"
        assert verdict.score.total == engine.score(final).total
        assert verdict.score.damage == final.damage


def test_a_variant_log_with_a_slip_is_refused():
    text, final = next(variant_logs(1))
    claimed = f"claim: {final.outcome} {engine.score(final).total}"
    slipped = text.replace(claimed, f"claim: {final.outcome} {engine.score(final).total + 1}")
    verdict = Verifier(rulesets={"variant-7": VARIANT}).verify(slipped)
    assert verdict.verdict == "invalid" and verdict.errors[0].code == "E214"


def test_an_unknown_ruleset_is_named_before_any_card_of_its_table_is_judged():
    # A 6 does not bomb in standard-1; in a ruleset the verifier does not know it may. The
    # header's ruleset is the error (E127), not the card (E112).
    text = ("bgrid-log: 1\nmap mountains: E1 E2\nmap bunkers: A5 C3 G7 H2 I9 J4\n"
            "map artillery: B9 F8 J1 D10\nruleset: nowhere-1\nturn 1\nenter 7H\nbomb 6H -> 2D\n")
    verdict = Verifier().verify(text)
    assert [e.code for e in verdict.errors] == ["E127"]


def test_the_parser_judges_card_kinds_by_the_logs_own_table():
    bombing_six = dataclasses.replace(VARIANT, name="six-bombs-1", card_kinds=tuple(
        dataclasses.replace(k, play=Play.BOMB) if k.rank == 6 else k for k in VARIANT.card_kinds))
    head = ("bgrid-log: 1\nmap mountains: E1 E2\nmap bunkers: A5 C3 G7 H2 I9 J4\n"
            "map artillery: B9 F8 J1 D10\n")
    body = "turn 1\nenter 7H\ndraw 2S 3S 4S 5S 6S 8S\nbomb 6S -> 2D\n"
    with pytest.raises(LogError) as err:
        parse_log(head + body)
    assert err.value.code == "E112" and "'bomb' plays a bomb card 7, 8 or A" in str(err.value)
    log = parse_log(head + "ruleset: six-bombs-1\n" + body, rulesets={"six-bombs-1": bombing_six})
    assert log.statements[-1].kind == "bomb"


def test_the_ledger_and_the_explanation_count_the_variant_artillery_damage():
    # Two pieces next to the bomber at altitude 4 (reach 5 - 4 = 1) fire together: one
    # fire step, the variant's 2 damage (R18), however many pieces fire.
    state = variant_state(board(artillery="C4 D3"), "C3", altitude=4, hand="2H", top="5H")
    engine.apply(state, EndPhase())
    events = engine.reveal(state, card("5H"))
    index = next(i for i, e in enumerate(events) if isinstance(e, Damage))
    entries = damage_entries(1, 9, events, index, state)
    assert len(entries) == 2  # one entry a point of damage
    assert entries[0].message.endswith("2 pieces fired, 2 damage at most an Automa phase")


def test_explain_tells_the_variant_damage_and_actions():
    verifier = Verifier(rulesets={"variant-7": VARIANT})
    told = []
    for text, _ in variant_logs(6):
        told += explain(verifier.verify(text, history=True))
    fired = [line for line in told if " fire" in line and "damage at most" in line]
    assert fired and all("(2 damage at most, R18)" in line for line in fired)
    ended = [line for line in told if "actions and no King or Joker left" in line]
    assert ended and all("three actions" in line for line in ended)


# The variant with the Queen and the King swapped: the Queen resupplies (R29), the King
# changes the altitude by 2.
QUEEN_RESUPPLIES = dataclasses.replace(VARIANT, name="queen-resupply-1", card_kinds=tuple(
    dataclasses.replace(VARIANT.card_kinds[25 - k.rank], rank=k.rank) if k.rank in (12, 13) else k
    for k in VARIANT.card_kinds))


def test_messages_name_the_ranks_of_the_variants_card_table():
    assert load_ruleset().rank_names(Play.RESUPPLY, Play.WILD) == "King or Joker"
    assert QUEEN_RESUPPLIES.rank_names(Play.RESUPPLY, Play.WILD) == "Queen or Joker"
    verifier = Verifier(rulesets={"queen-resupply-1": QUEEN_RESUPPLIES})
    told, refused = [], []
    for text, _ in variant_logs(6, QUEEN_RESUPPLIES):
        verdict = verifier.verify(text, history=True)
        assert verdict.verdict == "valid", verdict.errors
        told += explain(verdict)
        # a card drawn where the Automa card is due: the replay says why the phase ended
        lines = text.splitlines()
        automa = [i for i, line in enumerate(lines) if line.startswith("automa ")]
        for i in automa:
            slipped = verifier.verify("\n".join(lines[:i] + ["draw 2H"] + lines[i:]) + "\n")
            refused += [e.message for e in slipped.errors if e.code == "E202"]
    ended = [line for line in told if "three actions and no" in line]
    assert ended and all("no Queen or Joker left" in line for line in ended)
    assert any("three actions were played and no Queen or Joker is left to play (R6)" in m
               for m in refused)
    assert not any("King" in line for line in told + refused)


def test_the_resupply_card_is_named_by_its_rank_in_the_ruleset():
    assert card_noun(CardPurpose.RESUPPLY, load_ruleset()) == "King's replacement card"
    assert card_noun(CardPurpose.RESUPPLY, QUEEN_RESUPPLIES) == "Queen's replacement card"


def test_the_score_values_come_from_the_ruleset():
    richer = dataclasses.replace(VARIANT, score_bunker=5, score_artillery=3, score_damage=-2)
    state = variant_state(board(), "C3", damage=2)
    state.ruleset = richer
    state.bunkers_destroyed, state.artillery_destroyed = 1, 1
    assert engine.score(state).total == 5 + 3 - 2 * 2
    assert engine.score(state).breakdown() == "1 bunker × +5, 1 artillery × +3, 2 damage × -2 = 4"


def test_the_solvers_hand_heuristic_reads_the_card_table():
    bombs, moves = hand_tables(load_ruleset())
    assert [r for r in range(14) if bombs[r]] == [0, 1, 7, 8]  # the Joker, the Ace, 7, 8 (R17)
    assert [r for r in range(14) if moves[r]] == [0, 2, 3, 4, 5]
    six_bombs = dataclasses.replace(VARIANT, card_kinds=tuple(
        dataclasses.replace(k, play=Play.BOMB) if k.rank == 6 else k for k in VARIANT.card_kinds))
    assert hand_tables(six_bombs)[0][6]


def test_a_variant_challenge_solves_to_a_line_the_variant_verifier_accepts():
    quick = (Member("quick", 1, 400, 2.0, 3.0, 1.0, 4.0, 5.0, 0.5),)
    mission = variant_mission()
    par = solve_mission(mission, portfolio=quick)
    assert par.best is not None
    state = mission.start(challenge_deck=True)
    events = play_plan(state, par.best.plays)
    # its line, played on the variant's deck order, is a game a player's own deck may give
    text = write_log(events, mission_lines(mission), claim=(str(state.outcome), engine.score(state).total))
    verdict = Verifier(rulesets={"variant-7": VARIANT}).verify(text)
    assert verdict.verdict == "valid" and verdict.score.total == par.best.score


BOMBING_SIX = dataclasses.replace(VARIANT, name="six-bombs-1", card_kinds=tuple(
    dataclasses.replace(k, play=Play.BOMB) if k.rank == 6 else k for k in VARIANT.card_kinds))


def test_the_companion_takes_the_bombing_six_it_offers_under_a_variant():
    # Under six-bombs-1 a 6 bombs: the companion's offers come from the engine, and the line
    # the player types must be read with the same card table (standard-1's says E112).
    rulesets = {"six-bombs-1": BOMBING_SIX}
    logs = (text for text, _ in variant_logs(40, BOMBING_SIX)
            if any(line.startswith("bomb 6") for line in text.splitlines()))
    text = next(logs)
    header_text, body = text.split("\n\n", 1)
    session = Session.start(header_text + "\n", rulesets=rulesets)
    assert session.mission.ruleset is BOMBING_SIX
    bombs = 0
    for line in body.splitlines():
        if line.startswith("bomb 6"):
            stem = line.split(" -> ")[0] + " ->"
            assert stem in [offer.text for offer in session.offers()]
            bombs += 1
        reply = session.submit(line)
        assert reply.ok, (line, reply.one_line())
    assert bombs and session.is_over


def test_a_typed_line_is_read_with_the_card_table_it_is_given_and_placed_at_its_line():
    st = read_statement("bomb 6S -> 2D  # low pass", BOMBING_SIX, 14)
    assert (st.kind, st.line, str(st.action.card), str(st.cards[0])) == ("bomb", 14, "6S", "2D")
    with pytest.raises(LogError) as err:
        read_statement("bomb 6S -> 2D", load_ruleset(), 14)
    assert (err.value.code, err.value.line, err.value.column) == ("E112", 14, 6)
    assert read_statement("  # a comment", BOMBING_SIX, 3) is None
    with pytest.raises(LogError) as err:
        read_statement("seed: 12", BOMBING_SIX, 9)
    assert (err.value.code, err.value.line) == ("E124", 9)
