"""The worked examples of docs/rules.md, played through the verifier on small explicit maps.

Each log is written by hand from the example's own words; the expected cells, altitudes and
damage are the ones the example states, not the engine's output.
"""

from __future__ import annotations

from bgrid.verifier.verify import verify_log


def mission(mountains: str, bunkers: str, artillery: str, body: str) -> str:
    return (f"bgrid-log: 1\nmap mountains: {mountains}\nmap bunkers: {bunkers}\n"
            f"map artillery: {artillery}\n{body}")


FAR_BUNKERS = "J6 J7 J8 J9 J10 I10"


def cells(values) -> set[str]:
    return {str(c) for c in values}


def test_movement_stops_before_a_mountain_and_a_blocked_only_step_is_illegal():
    # "You are at C2 facing south at altitude 3; C4 is a mountain. move 4H FF: ... you stop at
    # C3 ... Next turn, still facing the mountain, move 2C F is illegal ... move 2C LF is
    # fine: you turn east and step to D3."
    body = ("turn 1\nenter 3H\ndraw 2S 10S 4H 2C 5C\nmove 2S F\nalt 10S\nautoma 3C\n"   # C2, alt 3
            "state at C2 facing S alt 3\n"
            "turn 2\ndraw 6C 7C\nmove 4H FF\nautoma 4C\nstate at C3 facing S alt 3\n"
            "turn 3\ndraw 8C\n")
    base = mission("C4", FAR_BUNKERS, "A10 B10 D10 E10", body)
    assert verify_log(base).verdict == "incomplete", verify_log(base).render()
    blocked = verify_log(base + "move 2C F\n")
    assert (blocked.errors[0].code, blocked.errors[0].detail) == ("E203", "no-forward-step")
    east = verify_log(base + "move 2C LF\nstate at D3 facing E alt 3\n")
    assert east.verdict == "incomplete", east.render()


def test_three_steps_and_a_right_turn_from_a1_facing_south_face_west():
    # "move 3S FFR from A1 facing south is fine too: two steps to A3, then a turn to face west."
    body = "turn 1\nenter AH\ndraw 3S 4S 5S 6S 7S\nmove 3S FFR\nstate at A3 facing W alt 4\n"
    verdict = verify_log(mission("J1", FAR_BUNKERS, "D10 E10 F10 G10", body))
    assert verdict.verdict == "incomplete", verdict.render()


def test_reentry_below_4_on_a_mountain_column_shifts_left_on_a_tie():
    # "E1 is a mountain and you re-enter at altitude 3. The reveal is 5H ... you enter at D1."
    body = ("turn 1\nenter 2H\ndraw 10S 2S 3S 4S 6S\nalt 10S\nmove 3S LLF\n"   # B1 alt 3, exit north
            "turn 2\nenter 5H\nstate at D1 facing S alt 3\n")
    verdict = verify_log(mission("E1", FAR_BUNKERS, "A10 B10 C10 D10", body))
    assert verdict.verdict == "incomplete", verdict.render()


def test_throttle_with_an_altitude_card_moves_three_and_four_levels():
    # "At altitude 1, throttle 9S alt 10H climbs to 4. At altitude 2, throttle 9D alt QH is
    # illegal (2 + 4 > 5, R7)."
    # From 4, a black Queen and a black 10 take the bomber to 1; then the Throttle.
    up = verify_log(mission("J1", FAR_BUNKERS, "A10 B10 D10 E10",
                            "turn 1\nenter 3H\ndraw QS 10S JS 9S 10H\nalt QS\nalt 10S\nautoma 2C\n"
                            "state alt 1\nturn 2\ndraw 3C 4C\nthrottle 9S alt 10H\nstate alt 4\n"))
    assert up.verdict == "incomplete", up.render()
    high = verify_log(mission("J1", FAR_BUNKERS, "A10 B10 D10 E10",
                              "turn 1\nenter 3H\ndraw QS 9D QH 2S 3S\nalt QS\nautoma 2C\n"
                              "state alt 2\nturn 2\ndraw 4S\nthrottle 9D alt QH\n"))
    assert (high.errors[0].code, high.errors[0].detail) == ("E203", "altitude-limit")


def test_the_automa_example_fires_once_and_moves_in_column_then_row_order():
    # Bomber at C2, altitude 2; artillery E2, C6, C7, F5; Automa card 7D. E2 fires (1 damage);
    # C6 -> C5, C7 -> C6 (just left), F5 -> F4 (equal gaps: along its column).
    body = ("turn 1\nenter 3H\ndraw QS 2S 3S 4S 5S\nalt QS\nmove 2S F\n"   # C1 alt 2, then C2
            "automa 7D\nstate at C2 facing S alt 2 dmg 1\n")
    verdict = verify_log(mission("J1", FAR_BUNKERS, "E2 C6 C7 F5", body))
    assert verdict.verdict == "incomplete", verdict.render()
    assert cells(verdict.trace.artillery) == {"E2", "C5", "C6", "F4"}


def test_the_chain_bonus_turns_a_miss_into_a_near_miss_and_a_near_miss_into_a_hit():
    # Bunkers at H4 and I4; H4 destroyed; over I4 at altitude 4: bomb 8S -> 9C is a near miss
    # (chain), I4 gets a crater; then bomb 7D -> 4D: near miss + one bonus = hit.
    body = ("turn 1\nenter 8H\ndraw 3S 7S 8S 2S 7D\nmove 3S FFF\nbomb 7S -> 2H\n"   # H4: hearts hit
            "automa 2C\n"
            "turn 2\ndraw 3C 4C\nmove 2S LF\nbomb 8S -> 9C\nautoma 5C\n"         # I4: chain -> near miss
            "state at I4 facing E alt 4\n")
    first = verify_log(mission("A1", "H4 I4 A5 A6 A7 A8", "A10 B10 C10 D10", body))
    assert first.verdict == "incomplete", first.render()
    assert cells(first.trace.destroyed) == {"H4"} and cells(first.trace.craters) == {"I4"}
    second = verify_log(mission("A1", "H4 I4 A5 A6 A7 A8", "A10 B10 C10 D10",
                                body + "turn 3\ndraw 5D 6D\nbomb 7D -> 4D\n"))
    assert cells(second.trace.destroyed) == {"H4", "I4"}, second.render()
