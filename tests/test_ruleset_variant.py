"""A variant is a new ruleset file: change the values and the card table, and the engine, the
verifier's messages, the mission sheet's aid and the deck faces all follow (docs/rules.md).

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
from bgrid.rules.state import Phase
from bgrid.verifier.log_parser import parse_log
from bgrid.verifier.map_source import MissionSource
from bgrid.verifier.messages import LogError
from bgrid.verifier.replay import Replay

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
        Replay(log, MissionSource(m, VARIANT, "normal", None, None)).run()
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
