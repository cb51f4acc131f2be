"""Player actions: small frozen values that print their log notation.

The engine (``rules.engine``) takes these; the verifier's parser reads them from log lines
(``parse_steps`` for a move's steps); the log writer prints them. Card draws and reveals are
not actions: they come from a card source. Each writes its own ``__init__``
(``object.__setattr__`` per field, as a frozen dataclass must), which mypyc compiles to a slot
write a field; the dataclass decorator's own ``__init__`` runs interpreted even when compiled.
An action holds values only, so its compiled class is ``acyclic`` (never tracked by the cycle
collector).

>>> str(Move(Card.parse("5C"), parse_steps(["ff", "lf"])))
'move 5C FFLF'
>>> str(Throttle(Card.parse("9H"), Altitude(Card.parse("QH"))))
'throttle 9H alt QH'
>>> str(Guns(Card.parse("JK=6H"), Cell.parse("C4")))
'guns JK=6H C4'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from .board import Cell, column_name
from .cards import Card
from .errors import NotationError
from .notation import ascii_upper

STEP_LETTERS = frozenset("FLR")


def parse_steps(words: Sequence[str]) -> str:
    """Step words (``FF RF`` or ``F F R F``) to one string of F, L, R."""
    steps = ascii_upper("".join(w.strip() for w in words))
    bad = next((ch for ch in steps if ch not in STEP_LETTERS), None)
    if bad is not None or not steps:
        token = " ".join(words)
        raise NotationError(f"'{token}' is not a step list: expected F (forward), L (turn left) "
                            "and R (turn right), e.g. FFRF", token)
    return steps


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class EnterColumn:
    """After a face card or Joker entry reveal: the column the player chooses (R13)."""

    column: int

    def __init__(self, column: int) -> None:
        object.__setattr__(self, "column", column)

    def __str__(self) -> str:
        return column_name(self.column)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Move:
    """A movement card (2–5) and the steps spent: F forward, L/R a 90° turn (R9)."""

    card: Card
    steps: str

    def __init__(self, card: Card, steps: str) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "steps", steps)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards this play puts down, as played (a Joker with its declaration)."""
        return (self.card,)

    def __str__(self) -> str:
        return f"move {self.card} {self.steps}"


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Altitude:
    """An altitude card: 10/J ±1, Q ±2; red climbs, black descends."""

    card: Card

    def __init__(self, card: Card) -> None:
        object.__setattr__(self, "card", card)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards this play puts down, as played (a Joker with its declaration)."""
        return (self.card,)

    def __str__(self) -> str:
        return f"alt {self.card}"


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Guns:
    """A 6 fired at the artillery piece in ``target`` (R15, R39)."""

    card: Card
    target: Cell

    def __init__(self, card: Card, target: Cell) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "target", target)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards this play puts down, as played (a Joker with its declaration)."""
        return (self.card,)

    def __str__(self) -> str:
        return f"guns {self.card} {self.target}"


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Bomb:
    """A 7, 8 or Ace dropped on the target in the bomber's cell (R16)."""

    card: Card

    def __init__(self, card: Card) -> None:
        object.__setattr__(self, "card", card)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards this play puts down, as played (a Joker with its declaration)."""
        return (self.card,)

    def __str__(self) -> str:
        return f"bomb {self.card}"


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Throttle:
    """A throttle card (a 9 in standard-1) paired with a movement or altitude card; both
    actions, ends the phase (R11)."""

    card: Card
    paired: Move | Altitude

    def __init__(self, card: Card, paired: Move | Altitude) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "paired", paired)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards this play puts down, as played (a Joker with its declaration)."""
        return (self.card, self.paired.card)

    def __str__(self) -> str:
        return f"throttle {self.card} {self.paired}"


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Resupply:
    """A resupply card (a King in standard-1): discard it and draw one card; not an action (R29)."""

    card: Card

    def __init__(self, card: Card) -> None:
        object.__setattr__(self, "card", card)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards this play puts down, as played (a Joker with its declaration)."""
        return (self.card,)

    def __str__(self) -> str:
        return f"resupply {self.card}"


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class EndPhase:
    """The player plays nothing more this player phase (R30)."""

    def __init__(self) -> None:
        pass

    def __str__(self) -> str:
        return "end"


Action = EnterColumn | Move | Altitude | Guns | Bomb | Throttle | Resupply | EndPhase

