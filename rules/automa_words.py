"""The Automa card and what it makes the artillery do, in words: one text for every place
that shows it (the companion's steps, ``bgrid verify --explain``, the HTML report's log and
so the league's replay page).

Read from the ruleset's Automa table (key ``automa_suits``), so a variant ruleset is told as
it plays. A Clubs card must say so plainly: the pieces stay where they are, and no trail or
step is shown for them anywhere else.

>>> from bgrid.rules.cards import Card
>>> from bgrid.rules.ruleset import load_ruleset
>>> automa_card_text(Card.parse("7C"), load_ruleset("standard-1"))
'Automa card 7C, Clubs: the artillery holds (R19)'
>>> automa_card_text(Card.parse("JK"), load_ruleset("standard-1"))
'Automa card JK, a Joker: no fire, no movement (R18)'
"""

from __future__ import annotations

from .cards import Card
from .ruleset import Ruleset


#: R19, the movement table: what the ready pieces that could not fire do, by the table's entry
#: (Clubs in standard-1: they hold; Spades with no bunker left hold too, told piece by piece).
MOVE_WORDS = {"toward-bomber": "the artillery steps toward the bomber",
              "toward-bunker": "the artillery steps toward the nearest bunker",
              "hold": "the artillery holds"}


def automa_card_text(card: Card, ruleset: Ruleset) -> str:
    """``Automa card 8H, Hearts: the artillery steps toward the bomber (R19)``; a Joker
    means no fire and no movement (rulebook, Step 1; R18)."""
    if card.is_joker or card.suit is None:
        return f"Automa card {card}, a Joker: no fire, no movement (R18)"
    suit = card.suit
    return f"Automa card {card}, {suit.noun}s: {MOVE_WORDS[ruleset.automa_suits[suit.value]]} (R19)"
