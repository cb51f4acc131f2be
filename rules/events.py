"""What happened: the events ``engine.apply`` and ``engine.reveal`` return, in order.

Small frozen values, enough that a log, a report and an animation can be written from them
without looking at the rules again. Card purposes (the ``purpose`` of :class:`Revealed` and
:class:`Drew`, and ``engine.chance_pending``) are :class:`~rules.state.CardPurpose` members.

Each event writes its own ``__init__`` (``object.__setattr__`` per field, as a frozen dataclass
must): mypyc compiles that to one slot write a field, where the ``__init__`` the dataclass
decorator makes at import runs interpreted even in the compiled build. The interpreted build
swaps it for a faster interpreted one (:func:`_fast_init`). An event holds values only, never
a reference cycle, so the compiled classes are ``acyclic``: the cycle collector never tracks them.
"""

from __future__ import annotations

import enum
from types import FunctionType
from typing import Any
from dataclasses import MISSING, dataclass, field, fields

from mypy_extensions import mypyc_attr

from .actions import Action
from .board import Cell, Facing
from .cards import Card
from .state import CardPurpose, DefeatCause

#: Why a card is drawn or revealed.
PURPOSES = tuple(CardPurpose)


class PhaseEndReason(enum.StrEnum):
    """Why a player phase ended (:class:`PlayerPhaseEnded`). Members equal their strings."""

    END = "end"            # the player stopped (R30)
    ACTIONS = "actions"    # two actions and no King or Joker left to play (R6, R29)
    THROTTLE = "throttle"  # a Throttle ends the player phase (R11)
    EXIT = "exit"          # the bomber left the map (R6)


class DamageCause(enum.Enum):
    ENTRY = "entry"            # a face card or Joker entry (R13)
    ARTILLERY = "artillery"    # Automa step 2 (R18)
    EXHAUSTION = "exhaustion"  # the first exhaustion (R22)

    def __str__(self) -> str:
        return self.value


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class TurnStarted:
    """Turn ``turn`` begins (not emitted for turn 1: ``new_game`` starts there)."""
    turn: int

    def __init__(self, turn: int) -> None:
        object.__setattr__(self, "turn", turn)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Revealed:
    """A card turned over for ``purpose`` entry, guns, bomb or automa."""
    card: Card
    purpose: CardPurpose

    def __init__(self, card: Card, purpose: CardPurpose) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "purpose", purpose)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Drew:
    """A card taken into the hand: ``purpose`` draw (refill, R6b) or resupply (a King)."""
    card: Card
    purpose: CardPurpose

    def __init__(self, card: Card, purpose: CardPurpose) -> None:
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "purpose", purpose)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Played:
    """The player's action, as given (``rules.actions``); an EnterColumn is not a play."""
    action: Action

    def __init__(self, action: Action) -> None:
        object.__setattr__(self, "action", action)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Entered:
    """The bomber is placed in row 1 facing south (R13). ``chosen``: the column was the
    player's choice (face card or Joker). ``shifted_from``: the cell the card or choice
    named when the mountain check moved the bomber, else None."""
    cell: Cell
    facing: Facing
    altitude: int
    chosen: bool
    shifted_from: Cell | None = None

    def __init__(self, cell: Cell, facing: Facing, altitude: int, chosen: bool,
                 shifted_from: Cell | None = None) -> None:
        object.__setattr__(self, "cell", cell)
        object.__setattr__(self, "facing", facing)
        object.__setattr__(self, "altitude", altitude)
        object.__setattr__(self, "chosen", chosen)
        object.__setattr__(self, "shifted_from", shifted_from)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Moved:
    """A movement (R9, R31). ``path``: the cells entered, in order (turns do not appear).
    ``exited``: the last step left the board (the bomber is off the map). ``blocked``: the
    last forward step ran into a mountain below altitude 4 and did not happen."""
    start: Cell
    path: tuple[Cell, ...]
    facing: Facing
    exited: bool
    blocked: bool

    def __init__(self, start: Cell, path: tuple[Cell, ...], facing: Facing, exited: bool,
                 blocked: bool) -> None:
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "facing", facing)
        object.__setattr__(self, "exited", exited)
        object.__setattr__(self, "blocked", blocked)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class AltitudeChanged:
    old: int
    new: int

    def __init__(self, old: int, new: int) -> None:
        object.__setattr__(self, "old", old)
        object.__setattr__(self, "new", new)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Bonus:
    """A bombing reveal improved by one band (R16): ``reason`` "chain" or "crater"."""
    cell: Cell
    reason: str

    def __init__(self, cell: Cell, reason: str) -> None:
        object.__setattr__(self, "cell", cell)
        object.__setattr__(self, "reason", reason)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Destroyed:
    """A target destroyed: ``kind`` "bunker" or "artillery", ``by`` "guns" or "bomb"."""
    cell: Cell
    kind: str
    by: str

    def __init__(self, cell: Cell, kind: str, by: str) -> None:
        object.__setattr__(self, "cell", cell)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "by", by)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Crater:
    """A near miss marks the cell with a crater (R16); the target survives."""
    cell: Cell

    def __init__(self, cell: Cell) -> None:
        object.__setattr__(self, "cell", cell)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Suppressed:
    """Guns at altitude 4 with a red reveal (R15); ``already``: it was suppressed (R39)."""
    cell: Cell
    already: bool = False

    def __init__(self, cell: Cell, already: bool = False) -> None:
        object.__setattr__(self, "cell", cell)
        object.__setattr__(self, "already", already)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Missed:
    """A guns or bomb reveal with no effect on the target in ``cell``."""
    cell: Cell
    by: str

    def __init__(self, cell: Cell, by: str) -> None:
        object.__setattr__(self, "cell", cell)
        object.__setattr__(self, "by", by)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class PlayerPhaseEnded:
    """Why the player phase ended."""
    reason: PhaseEndReason

    def __init__(self, reason: PhaseEndReason) -> None:
        object.__setattr__(self, "reason", reason)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class AutomaSkipped:
    """The bomber is off the map: no Automa phase this turn (rulebook, Enemy Phase; R21)."""

    def __init__(self) -> None:
        pass


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class ArtilleryFired:
    """Automa step 2: the ready pieces with line of sight and range (R18); 1 damage follows."""
    cells: tuple[Cell, ...]

    def __init__(self, cells: tuple[Cell, ...]) -> None:
        object.__setattr__(self, "cells", cells)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class ArtilleryMoved:
    """Automa step 3: one piece moves one cell (R19, R20)."""
    start: Cell
    end: Cell

    def __init__(self, start: Cell, end: Cell) -> None:
        object.__setattr__(self, "start", start)
        object.__setattr__(self, "end", end)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class ArtilleryHeld:
    """Automa step 3: a piece that could move stays. ``reason``: "hold" (the suit says
    hold: Clubs in standard-1), "no-bunker" (Spades with no bunker left) or "blocked" (mountain,
    bunker, artillery or edge in the way, R20). ``into``: for "blocked", the cell the step would
    have entered (a detail for notes: it takes no part in equality)."""
    cell: Cell
    reason: str
    into: Cell | None = field(default=None, compare=False)

    def __init__(self, cell: Cell, reason: str, into: Cell | None = None) -> None:
        object.__setattr__(self, "cell", cell)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "into", into)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Recovered:
    """Automa step 4: a suppressed piece is ready again (R21)."""
    cell: Cell

    def __init__(self, cell: Cell) -> None:
        object.__setattr__(self, "cell", cell)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Discarded:
    """Cards put on the discard pile (R8), physical cards (a played Joker is ``JK``)."""
    cards: tuple[Card, ...]

    def __init__(self, cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "cards", cards)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Reshuffled:
    """The draw pile ran out when a card was needed for ``purpose``: the discard pile (of
    ``count`` cards) became the draw pile (R22, R26, R35). The Damage event follows."""
    count: int
    purpose: CardPurpose

    def __init__(self, count: int, purpose: CardPurpose) -> None:
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "purpose", purpose)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Damage:
    """``amount`` damage taken; ``total`` is the damage after it."""
    amount: int
    cause: DamageCause
    total: int

    def __init__(self, amount: int, cause: DamageCause, total: int) -> None:
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "cause", cause)
        object.__setattr__(self, "total", total)


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Victory:
    """The last bunker is destroyed (R23)."""

    def __init__(self) -> None:
        pass


@mypyc_attr(acyclic=True)
@dataclass(frozen=True, slots=True, init=False)
class Defeat:
    """The mission is lost (R23). ``purpose``: for a defeat at an exhaustion, the card that
    was needed (R36), else None."""
    cause: DefeatCause
    purpose: CardPurpose | None = None

    def __init__(self, cause: DefeatCause, purpose: CardPurpose | None = None) -> None:
        object.__setattr__(self, "cause", cause)
        object.__setattr__(self, "purpose", purpose)


def _fast_init(cls: type[Any]) -> None:
    """Give a frozen slots dataclass an ``__init__`` that fills its slots through their
    descriptors: the same signature and values, about two thirds the cost of an interpreted
    ``object.__setattr__`` per field. The engine makes ~150 events a game. A compiled
    ``__init__`` (no Python function) is faster still and stays."""
    if not isinstance(cls.__dict__["__init__"], FunctionType):
        return
    params, body, names = [], [], {}
    for i, f in enumerate(fields(cls)):
        if f.default is MISSING:
            params.append(f.name)
        else:
            names[f"_d{i}"] = f.default
            params.append(f"{f.name}=_d{i}")
        names[f"_s{i}"] = getattr(cls, f.name).__set__
        body.append(f"    _s{i}(self, {f.name})")
    source = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) or "    pass") + "\n"
    exec(source, names)  # noqa: S102 - the source is built from the class's own field names
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init


Event = (TurnStarted | Revealed | Drew | Played | Entered | Moved | AltitudeChanged | Bonus
         | Destroyed | Crater | Suppressed | Missed | PlayerPhaseEnded | AutomaSkipped
         | ArtilleryFired | ArtilleryMoved | ArtilleryHeld | Recovered | Discarded | Reshuffled
         | Damage | Victory | Defeat)

for _cls in Event.__args__:
    _fast_init(_cls)
