"""Guns, bombs, the end and the score (rulebook: Guns, Bombs, Precision Bomb, Winning and
Losing, Scoring; R14–R17, R23, R24, R32, R39)."""

import pytest

from bgrid.rules import engine
from bgrid.rules.actions import Bomb, Guns, Move
from bgrid.rules.board import Cell
from bgrid.rules.errors import IllegalActionError
from bgrid.rules.events import Bonus, Crater, Destroyed, Discarded, Missed, Revealed, Suppressed
from bgrid.rules.state import CardPurpose, Outcome, Phase

from engine_boards import board, card, kinds, of, placed

C = Cell.parse
BUNKERS = "A10 B10 C10 D10 E10 F10"


def guns(state, target, revealed, six="6H"):
    engine.apply(state, Guns(card(six), C(target)))
    assert engine.chance_pending(state) == "guns"
    return engine.reveal(state, card(revealed))


def bomb(state, revealed, played="7H"):
    engine.apply(state, Bomb(card(played)))
    assert engine.chance_pending(state) == "bomb"
    return engine.reveal(state, card(revealed))


# -- guns -------------------------------------------------------------------------------

def test_guns_reach_three_steps_along_a_row_or_column():
    state = placed(board(artillery="C6 F3 C7 D4"), "C3", altitude=3, hand="6H")
    assert {a.target for a in engine.legal_actions(state) if isinstance(a, Guns)} == {C("C6"), C("F3")}
    for target, why in (("C7", "4 steps"), ("D4", "not in the bomber's row or column"),
                        ("E5", "no artillery piece")):
        with pytest.raises(IllegalActionError) as err:
            engine.apply(state, Guns(card("6H"), C(target)))
        assert err.value.rule == "R15" and why in str(err.value)


def test_a_mountain_between_blocks_the_guns():
    state = placed(board("C5", artillery="C6"), "C3", altitude=3, hand="6H")
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Guns(card("6H"), C("C6")))
    assert "mountain" in str(err.value)


def test_a_mountain_under_the_target_or_bomber_does_not_block():
    # R14: only cells strictly between count. The bomber over a mountain at altitude 4.
    state = placed(board("C3", artillery="C5"), "C3", altitude=4, hand="6H")
    assert Guns(card("6H"), C("C5")) in engine.legal_actions(state)


def test_guns_may_target_the_piece_in_the_bomber_s_own_cell():
    state = placed(board(artillery="C3"), "C3", altitude=3, hand="6H", top="2D")
    events = guns(state, "C3", "2D")
    assert of(events, Destroyed) == [Destroyed(C("C3"), "artillery", "guns")]  # R39


def test_guns_need_altitude_four_or_lower():
    state = placed(board(artillery="C4"), "C3", altitude=5, hand="6H")
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Guns(card("6H"), C("C4")))
    assert err.value.code == "guns-altitude"
    assert not any(isinstance(a, Guns) for a in engine.legal_actions(state))


def test_guns_never_target_a_bunker():
    state = placed(board(bunkers="C4 " + BUNKERS[4:]), "C3", altitude=3, hand="6H")
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Guns(card("6H"), C("C4")))
    assert "no effect on bunkers" in str(err.value)


def test_red_guns_destroy_at_altitude_three_and_the_cards_are_discarded_after():
    state = placed(board(artillery="C5"), "C3", altitude=3, hand="6S 2H", top="4D")
    events = guns(state, "C5", "4D", six="6S")
    assert kinds(events)[:3] == ["Revealed", "Destroyed", "Discarded"]
    assert of(events, Discarded) == [Discarded((card("4D"), card("6S")))]  # R8
    assert state.artillery == set() and state.destroyed == {C("C5")}
    assert state.artillery_destroyed == 1
    assert state.phase is Phase.ACTIONS and state.actions == 1


def test_red_guns_at_altitude_four_suppress():
    state = placed(board(artillery="C5"), "C3", altitude=4, hand="6S", top="4H")
    events = guns(state, "C5", "4H", six="6S")
    assert of(events, Suppressed) == [Suppressed(C("C5"), False)]
    assert state.suppressed == {C("C5")} and state.artillery == {C("C5")}


def test_suppressing_a_suppressed_piece_leaves_it_suppressed():
    state = placed(board(artillery="C5"), "C3", altitude=4, hand="6S 6D", top="4H 5H")
    guns(state, "C5", "4H", six="6S")
    events = guns(state, "C5", "5H", six="6D")
    assert of(events, Suppressed) == [Suppressed(C("C5"), True)]  # R39
    assert state.suppressed == {C("C5")}


def test_black_guns_miss():
    state = placed(board(artillery="C5"), "C3", altitude=2, hand="6H", top="QC")
    events = guns(state, "C5", "QC")
    assert of(events, Missed) == [Missed(C("C5"), "guns")]
    assert state.artillery == {C("C5")}


def test_a_revealed_joker_counts_as_a_heart_for_guns():
    state = placed(board(artillery="C5"), "C3", altitude=0, hand="6C", top="JK")
    events = guns(state, "C5", "JK", six="6C")
    assert of(events, Destroyed)  # R17


# -- bombs ------------------------------------------------------------------------------

ONE_BUNKER_HERE = "C3 " + BUNKERS[4:]  # C3 and five more along row 10


@pytest.mark.parametrize("altitude,revealed,result", [
    (0, "2H", "hit"), (2, "2D", "hit"), (1, "2C", "near"), (2, "2S", "near"),
    (3, "2H", "hit"), (5, "2H", "hit"), (3, "2D", "near"), (4, "2D", "near"),
    (3, "2C", "miss"), (5, "2S", "miss")])
def test_bomb_bands(altitude, revealed, result):
    state = placed(board(bunkers=ONE_BUNKER_HERE), "C3", altitude=altitude, hand="8C", top=revealed)
    events = bomb(state, revealed, played="8C")
    got = ("hit" if of(events, Destroyed) else "near" if of(events, Crater) else
           "miss" if of(events, Missed) else None)
    assert got == result
    assert (C("C3") in state.craters) == (result == "near")
    assert (C("C3") in state.bunkers) == (result != "hit")


@pytest.mark.parametrize("revealed,result", [("2H", "hit"), ("2D", "hit"), ("2C", "near"), ("2S", "near")])
def test_ace_bombs_at_any_altitude_red_hit_black_near_miss(revealed, result):
    state = placed(board(bunkers=ONE_BUNKER_HERE), "C3", altitude=5, hand="AS", top=revealed)
    events = bomb(state, revealed, played="AS")
    assert bool(of(events, Destroyed)) == (result == "hit")
    assert bool(of(events, Crater)) == (result == "near")


def test_bomb_needs_a_target_in_the_bomber_s_cell():
    state = placed(board(), "C3", altitude=3, hand="7H")
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Bomb(card("7H")))
    assert err.value.rule == "R16" and err.value.code == "bomb-target"
    assert not any(isinstance(a, Bomb) for a in engine.legal_actions(state))


def test_bombing_artillery_destroys_it_and_counts():
    state = placed(board(artillery="C3"), "C3", altitude=0, hand="7H", top="3H")
    events = bomb(state, "3H")
    assert of(events, Destroyed) == [Destroyed(C("C3"), "artillery", "bomb")]
    assert state.artillery_destroyed == 1 and state.bunkers_destroyed == 0


@pytest.mark.parametrize("destroyed,crater,revealed,result,reason", [
    ("C4", False, "2S", "near", "chain"),   # miss -> near miss
    ("B3", False, "2D", "hit", "chain"),    # near miss -> hit
    ("", True, "2C", "near", "crater"),
    ("", True, "2D", "hit", "crater"),
    ("C2", True, "2S", "near", "chain"),    # chain and crater do not stack
    ("D4", False, "2S", "miss", None),      # a diagonal neighbour is no chain
    ("C3", False, "2S", "miss", None),      # R32: the target cell itself is no chain
    ("C4", False, "2H", "hit", None),       # a hit cannot improve
])
def test_chain_and_crater_bonus(destroyed, crater, revealed, result, reason):
    state = placed(board(bunkers=ONE_BUNKER_HERE), "C3", altitude=3, hand="8C", top=revealed)
    state.destroyed = set(map(C, destroyed.split()))
    if crater:
        state.craters = {C("C3")}
    events = bomb(state, revealed, played="8C")
    assert [b.reason for b in of(events, Bonus)] == ([reason] if reason else [])
    got = ("hit" if of(events, Destroyed) else "near" if of(events, Crater) else "miss")
    assert got == result


def test_a_guns_kill_next_door_gives_the_chain_bonus():
    state = placed(board(bunkers=ONE_BUNKER_HERE, artillery="C4"), "C3", altitude=3,
                   hand="6H 8C", top="5D 7S")
    guns(state, "C4", "5D")
    events = bomb(state, "7S", played="8C")  # a miss at altitude 3, improved by the chain
    assert of(events, Bonus) == [Bonus(C("C3"), "chain")]
    assert of(events, Crater) == [Crater(C("C3"))]


def test_a_revealed_joker_counts_as_a_heart_for_bombs():
    state = placed(board(bunkers=ONE_BUNKER_HERE), "C3", altitude=5, hand="7D", top="JK")
    events = bomb(state, "JK", played="7D")
    assert of(events, Revealed) == [Revealed(card("JK"), CardPurpose.BOMB)]
    assert of(events, Destroyed)


def test_victory_the_moment_the_last_bunker_is_destroyed():
    state = placed(board(bunkers="C3", artillery="C4"), "C3", altitude=0, hand="7H 2H", top="3H")
    events = bomb(state, "3H")
    assert kinds(events) == ["Revealed", "Destroyed", "Victory"]  # nothing after it (R23)
    assert state.outcome is Outcome.VICTORY and state.is_over
    assert engine.legal_actions(state) == [] and engine.chance_pending(state) is None
    with pytest.raises(IllegalActionError) as err:
        engine.apply(state, Move(card("2H"), "F"))
    assert err.value.code == "game-over"
    assert state.card_count() == 54


def test_score_counts_bunkers_artillery_and_damage():
    state = placed(board(), "C3", damage=3)
    state.bunkers_destroyed, state.artillery_destroyed = 2, 1
    assert engine.score(state) == engine.Score(bunkers=2, artillery=1, damage=3, bunker_points=2,
                                               artillery_points=1, damage_points=-1)
    assert engine.score(state).total == 2 * 2 + 1 * 1 - 3
    state.bunkers_destroyed = state.artillery_destroyed = 0
    assert engine.score(state).total == -3  # it can be negative
