"""A player for scripted sessions: it answers the companion's offers as a player would type.

Choices are greedy (``rules.greedy``'s value of each legal play, the first best on a tie);
with an own deck the cards are dealt from the draw pile by a seeded random generator, as a
shuffled deck would. The lines it returns are what a person types: the blind shorthands the
companion offered for a challenge deck (``draw``, ``bomb 7H``), whole statements with the
cards for an own deck. Used by the tests and ``bench/bench_companion.py``.
"""

from __future__ import annotations

import random

from ..rules.actions import EnterColumn
from ..rules.board import COLUMN_LETTERS
from ..rules.engine import apply, chance_outcomes, reveal
from ..players.greedy import best_of, valued_actions
from ..rules.state import CardPurpose, Phase
from .session import Offer, Session


def next_line(session: Session, rng: random.Random) -> str:
    """The line the scripted player types next (the session must not be over)."""
    s = session.state
    if session.pending_entry is not None:
        probe = s.copy()
        reveal(probe, session.pending_entry)
        best = best_of(valued_actions(probe))[0]
        assert isinstance(best, EnterColumn)
        return COLUMN_LETTERS[best.column]
    offers = session.offers()
    if s.is_over:  # the statement that writes 'none' (R36) is still to come
        return offers[0].text
    purpose = s.card_purpose
    if purpose is not None:  # entry, draw, or the Automa card after the phase ended by itself
        offer = offers[0]
        if offer.full is not None:
            return offer.text
        pile = list(s.draw_pile)
        if purpose is not CardPurpose.DRAW:
            return f"{offer.text} {rng.choice(pile)}"
        room = s.ruleset.hand_size - len(s.hand)
        return "draw " + " ".join(map(str, rng.sample(pile, min(room, len(pile)))))
    assert s.phase is Phase.ACTIONS
    best = best_of(valued_actions(s))[0]
    offer = next(o for o in offers if o.action == best)
    return _typed(offer, session, rng)


def _typed(offer: Offer, session: Session, rng: random.Random) -> str:
    if offer.full is not None:
        return offer.text
    assert offer.action is not None  # a play that takes a card
    probe = session.state.copy()
    apply(probe, offer.action)
    return f"{offer.text} {rng.choice(chance_outcomes(probe))}"


def play_mission(session: Session, seed: int, most: int = 2000) -> list[str]:
    """Play ``session`` to its end; the lines typed, in order."""
    rng = random.Random(seed)
    typed: list[str] = []
    while not session.is_over and len(typed) < most:
        line = next_line(session, rng)
        reply = session.submit(line)
        if reply.error is not None:
            raise AssertionError(f"the companion refused its own offer {line!r}: {reply.one_line()}")
        typed.append(line)
    return typed
