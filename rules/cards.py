"""Cards of the standard 54-card deck and their notation.

Notation (``docs/log-format.md``): a rank ``A 2 … 10 J Q K`` (``T`` for 10) and a suit
``H D C S`` (or ``♥ ♦ ♣ ♠``), any case; ``JK`` for a Joker. A played Joker carries the card
it stands for: ``JK=7H`` (R12).

>>> Card.parse("10h")
Card.parse('10H')
>>> str(Card.parse("t♠"))
'10S'
>>> Card.parse("JK=7H").acting
Card.parse('7H')
>>> Card.parse("7H").column, Card.parse("7H").row
(6, 7)
"""

from __future__ import annotations

from typing import Final

import enum
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from .errors import NotationError
from .notation import ascii_upper


class Suit(enum.Enum):
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"
    SPADES = "S"

    # Members are singletons, so identity hashing is exact; Enum's own __hash__ is Python
    # code that hashes the name, and cards (hashed by their suit) sit in the engine's hot path.
    __hash__ = object.__hash__

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]

    @property
    def noun(self) -> str:
        """``Heart``, ``Spade``: the suit in a sentence (a plural adds an s)."""
        return _SUIT_NOUN[self]

    def __str__(self) -> str:
        return SUIT_LETTER[self]


#: Each suit's letter (``suit.value``) by a dict lookup: Enum's .value is a property written in
#: Python, about five times slower, and hot paths read it (the Automa table, the guns' check).
SUIT_LETTER: Final = {suit: suit.value for suit in Suit}
_SUIT_SYMBOL: Final = {Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣", Suit.SPADES: "♠"}
_SUIT_NOUN: Final = {Suit.HEARTS: "Heart", Suit.DIAMONDS: "Diamond", Suit.CLUBS: "Club", Suit.SPADES: "Spade"}

JOKER_RANK: Final = 0
ACE: Final = 1
JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13
#: Each rank as the notation writes it and as a sentence names it, by rank (0: the Joker).
RANK_LETTERS: Final = ("JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_WORDS: Final = ("Joker", "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King")
_RANK_FROM_NAME: Final = {"A": 1, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13}
_RANK_FROM_NAME.update({str(n): n for n in range(2, 10)})
_SUIT_FROM_NAME: Final = {"H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS, "S": Suit.SPADES,
                   "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS, "♠": Suit.SPADES,
                   "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS, "♤": Suit.SPADES}
_VARIATION_SELECTORS: Final = "\ufe0e\ufe0f"
_SELECTOR_ENDINGS: Final = tuple(_VARIATION_SELECTORS)
_EXPECTED: Final = ("a rank A 2-10 J Q K (T for 10) then suit H D C S, e.g. 10H, QS, AD; "
             "JK for a Joker")


@mypyc_attr(acyclic=True)  # a value (a declared Joker holds a card): no cycle to collect
@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. ``rank`` is 1 (Ace) … 13 (King), 0 for a Joker (``suit`` None).

    A Joker that has been played carries ``declared``, the card it stands for (R12);
    ``acting`` is the card whose effect applies, ``physical`` the card that moves
    between piles.
    """

    rank: int
    suit: Suit | None
    declared: Card | None = None

    # -- notation -------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card token. Raises :class:`NotationError` naming the token."""
        # A variation selector may only follow the suit symbol; case folds in ASCII only
        # (str.upper would read the long s 'ſ' as S).
        token = text.strip()
        if token.endswith(_SELECTOR_ENDINGS) and not token[:-1].endswith(_SELECTOR_ENDINGS):
            token = token[:-1]  # one selector, the grammar's [vs]; two or more stay and fail
        upper = ascii_upper(token)
        if upper.startswith("JK"):
            if upper == "JK":
                return JOKER
            if upper[2:3] == "=":
                try:
                    declared = cls.parse(token[3:]) if token[3:] else None
                except NotationError:
                    # Name the whole token, not just the part after '='.
                    raise NotationError(
                        f"'{text}' declares '{token[3:]}', which is not a card: expected JK= then "
                        "a rank A 2-10 J Q K and a suit H D C S, e.g. JK=7H", text) from None
                if declared is None:
                    raise NotationError(
                        f"'{text}' declares nothing: write the card the Joker stands for, "
                        "e.g. JK=7H", text)
                if declared.is_joker:
                    raise NotationError(
                        f"'{text}': a Joker cannot be declared a Joker (R12)", text)
                return cls(JOKER_RANK, None, declared)
            raise NotationError(f"'{text}' is not a card: expected {_EXPECTED}", text)
        if len(upper) < 2:
            raise NotationError(f"'{text}' is not a card: expected {_EXPECTED}", text)
        rank = _RANK_FROM_NAME.get(upper[:-1])
        suit = _SUIT_FROM_NAME.get(upper[-1])
        if rank is None or suit is None:
            if "=" in upper:
                raise NotationError(
                    f"'{text}': only a Joker carries a declaration (JK=7H)", text)
            raise NotationError(f"'{text}' is not a card: expected {_EXPECTED}", text)
        return _CARDS[(rank, suit)]

    def __eq__(self, other: object) -> bool:
        # The generated __eq__ builds two tuples per comparison. Cards are interned
        # (Card.parse, FULL_DECK), so most comparisons meet the very object; otherwise the
        # values decide, as the generated one does (a directly built Card(7, Suit.HEARTS)
        # equals Card.parse("7H")).
        if self is other:
            return True
        if type(other) is not type(self):  # compiled, type() is read directly, .__class__ looked up
            return NotImplemented
        return (self.rank == other.rank and self.suit is other.suit
                and self.declared == other.declared)

    def __hash__(self) -> int:
        # The dataclass's own hash (of the same three values), written out: mypyc leaves a
        # class that defines __eq__ without __hash__ unhashable.
        return hash((self.rank, self.suit, self.declared))

    def __str__(self) -> str:
        if self.suit is None:  # a Joker
            return "JK" if self.declared is None else f"JK={self.declared}"
        return f"{RANK_LETTERS[self.rank]}{SUIT_LETTER[self.suit]}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def pretty(self) -> str:
        """The card with a suit symbol, for printed matter: ``10♥``, ``JK``."""
        if self.suit is None:  # a Joker
            return "JK" if self.declared is None else f"JK={self.declared.pretty}"
        return f"{RANK_LETTERS[self.rank]}{self.suit.symbol}"

    # -- properties -----------------------------------------------------------------
    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def is_face(self) -> bool:
        """Jack, Queen or King."""
        return self.rank >= JACK

    @property
    def is_number(self) -> bool:
        """Ace to 10: the cards that map to a column and a row (R1)."""
        return 1 <= self.rank <= 10

    @property
    def is_red(self) -> bool:
        """Hearts or Diamonds. A Joker has no colour unless declared."""
        if self.declared is not None:
            return self.declared.is_red
        return self.suit is not None and self.suit.is_red

    @property
    def is_black(self) -> bool:
        if self.declared is not None:
            return self.declared.is_black
        return self.suit is not None and not self.suit.is_red

    @property
    def acting(self) -> Card:
        """The card whose effect applies: the declaration of a played Joker, else itself."""
        return self.declared if self.declared is not None else self

    @property
    def physical(self) -> Card:
        """The card as it sits in a pile: a declared Joker is plain ``JK`` again."""
        return JOKER if self.rank == JOKER_RANK else self

    @property
    def column(self) -> int | None:
        """Column index 0–9 (A–J) of an Ace–10, None for a face card or Joker (R1)."""
        return self.rank - 1 if 1 <= self.rank <= 10 else None

    @property
    def row(self) -> int | None:
        """Row 1–10 of an Ace–10, None for a face card or Joker (R1)."""
        return self.rank if 1 <= self.rank <= 10 else None

    def declare(self, card: Card | str) -> Card:
        """This Joker played as ``card`` (R12)."""
        if not self.is_joker:
            raise NotationError(f"'{self}' is not a Joker: only a Joker can be declared", str(self))
        return Card.parse(f"JK={card}")


SUITS: Final[tuple[Suit, ...]] = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES)
SUIT_LETTERS: Final[tuple[str, ...]] = tuple(suit.value for suit in SUITS)  # H D C S, as a ruleset keys them
_CARDS: Final[dict[tuple[int, Suit], Card]] = {
    (rank, suit): Card(rank, suit) for suit in SUITS for rank in range(1, 14)
}
JOKER: Final = Card(JOKER_RANK, None)

#: The standard 54-card deck in a fixed reference order: A–K of H, D, C, S, then two Jokers.
#: Seeded shuffles (``challenges.seeding``) permute this order, so it must never change.
FULL_DECK: Final[tuple[Card, ...]] = (tuple(_CARDS[(r, s)] for s in SUITS for r in range(1, 14))
                                      + (JOKER, JOKER))


def parse_cards(text: str) -> list[Card]:
    """Read a space-separated list of cards: ``"7H 2S JK"``."""
    return [Card.parse(tok) for tok in text.split()]

