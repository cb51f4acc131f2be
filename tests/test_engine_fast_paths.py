"""The simulator's fast paths give exactly what the checked calls give: ``reveal_drawn``
against ``reveal``, ``legal_plays_by_kind`` (plays built when read) against
``legal_actions_by_kind``, and the events' own ``__init__`` against the dataclass fields."""

import dataclasses
import inspect

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgrid.rules import engine, events
from bgrid.rules.board import Cell
from bgrid.rules.cards import JOKER, parse_cards
from bgrid.rules.legality import has_play, legal_plays_by_kind
from bgrid.challenges.mission import mission_from_seed
from bgrid.players.playout import random_card_index
from bgrid.players.random_player import random_action
from bgrid.challenges.seeding import stream

from engine_boards import board, card, decisions, new, placed, snapshot

C = Cell.parse


def test_reveal_drawn_takes_the_first_joker_as_reveal_does():
    # Both Jokers are the one value JK: reveal takes the first in the pile, and the pile
    # order (which a later random index reads) must come out the same.
    game_map = board()
    by_index, by_card = new(game_map, own_deck=True), new(game_map, own_deck=True)
    for state in (by_index, by_card):
        state.draw_pile[:] = [JOKER, card("5H"), JOKER, card("9C")]
    engine.reveal_drawn(by_index, 2)
    engine.reveal(by_card, JOKER)
    assert by_index.draw_pile == [card("5H"), JOKER, card("9C")]
    assert snapshot(by_index) == snapshot(by_card)


def test_reveal_drawn_takes_the_card_at_its_index():
    state = new(board(), own_deck=True)
    state.draw_pile[:] = parse_cards("2H 5S 9C")
    got = engine.reveal_drawn(state, 1)
    assert state.draw_pile == parse_cards("2H 9C")
    assert isinstance(got[0], events.Revealed) and got[0].card == card("5S")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 400), st.booleans(), st.integers(0, 10**6))
def test_reveal_drawn_and_reveal_play_the_same_mission(map_seed, challenge, seed):
    start = mission_from_seed(map_seed).start(challenge)
    fast, checked = start.copy(), start.copy()
    rng = stream("standard-1", "fast", seed)
    while not fast.is_over:
        if engine.chance_pending(fast):
            index = random_card_index(fast, rng)
            c = fast.draw_pile[index]
            assert engine.reveal_drawn(fast, index) == engine.reveal(checked, c)
        else:
            action = random_action(fast, rng)
            assert engine.apply_legal(fast, action) == engine.apply(checked, action)
        assert snapshot(fast) == snapshot(checked)


def _every_play(plays) -> list:
    """Read a lazy kind one play at a time, by index (the random player's way)."""
    return [plays[i] for i in range(len(plays))]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 400), st.integers(0, 10**6))
def test_plays_read_by_index_are_the_legal_actions(map_seed, seed):
    start = mission_from_seed(map_seed).start(False)
    rng = stream("standard-1", "lazy", seed)
    seen = 0
    for state in decisions(start, rng):
        lazy = legal_plays_by_kind(state)
        full = engine.legal_actions_by_kind(state)
        assert list(lazy) == list(full)
        for kind, plays in lazy.items():
            assert _every_play(plays) == full[kind], kind
            with pytest.raises(IndexError):
                plays[len(plays)]
        seen += 1
    assert seen > 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 400), st.integers(0, 10**6), st.booleans())
def test_has_play_is_whether_any_play_but_the_end_is_legal(map_seed, seed, challenge):
    # at every decision of a random mission, and at every action count of its action steps
    start = mission_from_seed(map_seed).start(challenge)
    rng = stream("standard-1", "has-play", seed)
    for state in decisions(start, rng):
        for actions in {state.actions, 0, 1, 2, 3}:
            probe = state.copy()
            probe.actions = actions
            assert has_play(probe) == any(kind != "end" for kind in legal_plays_by_kind(probe)), actions


@pytest.mark.parametrize("where,altitude,hand,mountains,expected", [
    ("C5", 5, "7S 6S AS 8S 9S", "", False),  # the dead hand of test_dead_hand
    ("C5", 5, "7S 6S AS 8S 10S", "", True),  # 10S descends
    ("C5", 5, "7S 6S AS 8S JK", "", True),  # a Joker resupplies
    # facing S from E5 at altitude 2 (below the clearance), E6, D5 and F5 mountains: 2 points
    # cannot turn and step, 3 turn twice to E4, and a Throttle gives 2 more (R9, R11, R31)
    ("E5", 2, "2H 6S 7S 8S AS", "E6 D5 F5", False),
    ("E5", 2, "3H 6S 7S 8S AS", "E6 D5 F5", True),
    ("E5", 2, "2H 6S 7S 8S 9H", "E6 D5 F5", True),
    ("E5", 2, "2H 6S 7S 8S 9H", "E6 D5 F5 E4", False),
])
def test_has_play_by_hand(where, altitude, hand, mountains, expected):
    state = placed(board(mountains=mountains), where, altitude=altitude, hand=hand)
    assert has_play(state) == expected
    assert any(kind != "end" for kind in legal_plays_by_kind(state)) == expected


def test_plays_by_index_cover_throttle_moves_and_altitudes_in_hand_order():
    # 9H with 3S (moves with 3+2 points), QH (one altitude pair: 1 -> 5) and 4D (4+2 points).
    state = placed(board(), "E5", "S", altitude=1, hand="9H 3S QH 4D")
    listed = _every_play(legal_plays_by_kind(state)["throttle"])
    assert listed == engine.legal_actions_by_kind(state)["throttle"]
    partners = [str(t.paired.card) for t in listed]
    threes, fours = partners.count("3S"), partners.count("4D")
    assert threes and fours and partners == ["3S"] * threes + ["QH"] + ["4D"] * fours
    assert all(len(t.paired.steps) <= 5 for t in listed[:threes])
    assert fours > threes  # one more point reaches more places


def test_the_lists_from_legal_actions_by_kind_belong_to_the_caller():
    state = placed(board(), "E5", "S", altitude=2, hand="2H")
    first = engine.legal_actions_by_kind(state)
    first["end"].clear()
    first["move"].clear()
    again = engine.legal_actions_by_kind(state)
    assert again["end"] == [engine.legal_actions(state)[-1]] and again["move"]


@pytest.mark.pure_python_only("builds each event from ints, which the compiled classes' type checks refuse")
@pytest.mark.parametrize("cls", events.Event.__args__, ids=lambda c: c.__name__)
def test_every_event_keeps_its_dataclass_signature_and_stays_frozen(cls):
    fields = dataclasses.fields(cls)
    params = list(inspect.signature(cls).parameters.values())
    assert [p.name for p in params] == [f.name for f in fields]
    assert [p.default for p in params] == [inspect.Parameter.empty if f.default is dataclasses.MISSING
                                           else f.default for f in fields]
    values = {f.name: i for i, f in enumerate(fields)}
    event = cls(**values)
    assert [getattr(event, f.name) for f in fields] == list(range(len(fields)))
    assert event == cls(*range(len(fields))) and hash(event) == hash(cls(*range(len(fields))))
    if fields:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(event, fields[0].name, 99)
        with pytest.raises(TypeError):
            cls(*range(len(fields) + 1))


def test_cards_compare_by_value_whatever_object_they_are():
    from bgrid.rules.cards import Card, Suit
    built = Card(7, Suit.HEARTS)  # not the interned object Card.parse returns
    assert built is not card("7H") and built == card("7H") and hash(built) == hash(card("7H"))
    assert {card("7H"): 1}[built] == 1 and built in [card("2S"), card("7H")]
    assert card("7H") != card("7D") and card("7H") != card("8H") and card("7H") != "7H"
    assert card("JK=7H") == card("JK=7H") and card("JK=7H") is not card("JK=7H")
    assert card("JK=7H") != card("JK=7S") and card("JK=7H") != JOKER and JOKER == Card(0, None)
    assert card("7H").__eq__("7H") is NotImplemented


@pytest.mark.parametrize("bounds", [[54, 5, 1, 13], [2**64 - 1, 3 * 2**62, 7], [255, 256, 1000]])
def test_dice_give_the_numbers_of_the_stream_itself(bounds):
    # Dice read the stream 256 integers at a time; SeededStream.below reads one at a time
    # (the reference). Huge bounds force rejections, 700 draws cross batch boundaries.
    from bgrid.players.playout import Dice
    dice, reference = Dice(stream("standard-1", "dice", 7)), stream("standard-1", "dice", 7)
    ns = [bounds[i % len(bounds)] for i in range(700)]
    assert [dice.below(n) for n in ns] == [reference.below(n) for n in ns]
    with pytest.raises(ZeroDivisionError):
        dice.below(0)
