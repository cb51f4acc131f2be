"""The one error family of the game model.

Every error the toolkit raises on purpose derives from :class:`BGridError`, so the
CLI can turn any of them into a clear one-line message and exit status instead of a
traceback. Each message names the offending token or rule and says what was expected.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the cards module imports this one
    from .cards import Card


class BGridError(Exception):
    """Base of every error the toolkit raises on purpose."""


class NotationError(BGridError, ValueError):
    """A card, cell, facing, step list or code could not be read.

    The message names the token and what was expected there.
    """

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


class IllegalActionError(BGridError):
    """A play or card the rules forbid in the current state.

    The message says why in a sentence a player understands; the fields say it for a program,
    so a caller (the verifier) never re-runs the engine or reads the sentence to learn them:

    * ``rule``: the ruling number (``"R9"``) or the rulebook section that forbids it;
    * ``code``: a stable identifier (``rules.legality.ERROR_CODES``);
    * ``step``: for a movement, the 0-based index of the step letter at fault (the first one
      over the card's points, or the first one after an exit or a blocked step), else None;
    * ``card``: the card at fault (a card not in the hand, a card that cannot come now), as
      the physical card (a played Joker is ``JK``), else None;
    * ``pile``: where that card is instead (:data:`PILES`), else None;
    * ``expected``: the card that comes instead (the top of a challenge deck), else None.
    """

    def __init__(self, message: str, rule: str, code: str = "illegal", *, step: int | None = None,
                 card: Card | None = None, pile: str | None = None,
                 expected: Card | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.code = code
        self.step = step
        self.card = card
        self.pile = pile
        self.expected = expected


#: Where a card can be, as ``IllegalActionError.pile`` names it (``GameState``'s piles).
PILES = ("hand", "draw pile", "discard pile", "in play")


class RulesetError(BGridError):
    """A ruleset data file is missing a key or holds a value of the wrong kind."""


class ChallengeCodeError(NotationError):
    """A challenge code that does not decode: bad character, wrong length or failed check."""
