"""What happened: the events ``engine.apply`` and ``engine.reveal`` return, in order.

Small frozen values, enough that a log, a report and an animation can be written from them
without looking at the rules again. Card purposes (the ``purpose`` of :class:`Revealed` and
:class:`Drew`, and ``engine.chance_pending``) are :class:`~rules.state.CardPurpose` members.
"""

from __future__ import annotations

import enum
from typing import Any
from dataclasses import MISSING, dataclass, field, fields

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


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """Turn ``turn`` begins (not emitted for turn 1: ``new_game`` starts there)."""
    turn: int


@dataclass(frozen=True, slots=True)
class Revealed:
    """A card turned over for ``purpose`` entry, guns, bomb or automa."""
    card: Card
    purpose: CardPurpose


@dataclass(frozen=True, slots=True)
class Drew:
    """A card taken into the hand: ``purpose`` draw (refill, R6b) or resupply (a King)."""
    card: Card
    purpose: CardPurpose


@dataclass(frozen=True, slots=True)
class Played:
    """The player's action, as given (``rules.actions``); an EnterColumn is not a play."""
    action: Action


@dataclass(frozen=True, slots=True)
class Entered:
    """The bomber is placed in row 1 facing south (R13). ``chosen``: the column was the
    player's choice (face card or Joker). ``shifted_from``: the cell the card or choice
    named when the mountain check moved the bomber, else None."""
    cell: Cell
    facing: Facing
    altitude: int
    chosen: bool
    shifted_from: Cell | None = None


@dataclass(frozen=True, slots=True)
class Moved:
    """A movement (R9, R31). ``path``: the cells entered, in order (turns do not appear).
    ``exited``: the last step left the board (the bomber is off the map). ``blocked``: the
    last forward step ran into a mountain below altitude 4 and did not happen."""
    start: Cell
    path: tuple[Cell, ...]
    facing: Facing
    exited: bool
    blocked: bool


@dataclass(frozen=True, slots=True)
class AltitudeChanged:
    old: int
    new: int


@dataclass(frozen=True, slots=True)
class Bonus:
    """A bombing reveal improved by one band (R16): ``reason`` "chain" or "crater"."""
    cell: Cell
    reason: str


@dataclass(frozen=True, slots=True)
class Destroyed:
    """A target destroyed: ``kind`` "bunker" or "artillery", ``by`` "guns" or "bomb"."""
    cell: Cell
    kind: str
    by: str


@dataclass(frozen=True, slots=True)
class Crater:
    """A near miss marks the cell with a crater (R16); the target survives."""
    cell: Cell


@dataclass(frozen=True, slots=True)
class Suppressed:
    """Guns at altitude 4 with a red reveal (R15); ``already``: it was suppressed (R39)."""
    cell: Cell
    already: bool = False


@dataclass(frozen=True, slots=True)
class Missed:
    """A guns or bomb reveal with no effect on the target in ``cell``."""
    cell: Cell
    by: str


@dataclass(frozen=True, slots=True)
class PlayerPhaseEnded:
    """Why the player phase ended."""
    reason: PhaseEndReason


@dataclass(frozen=True, slots=True)
class AutomaSkipped:
    """The bomber is off the map: no Automa phase this turn (rulebook, Enemy Phase; R21)."""


@dataclass(frozen=True, slots=True)
class ArtilleryFired:
    """Automa step 2: the ready pieces with line of sight and range (R18); 1 damage follows."""
    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class ArtilleryMoved:
    """Automa step 3: one piece moves one cell (R19, R20)."""
    start: Cell
    end: Cell


@dataclass(frozen=True, slots=True)
class ArtilleryHeld:
    """Automa step 3: a piece that could move stays. ``reason``: "hold" (the suit says
    hold: Clubs in standard-1), "no-bunker" (Spades with no bunker left) or "blocked" (mountain,
    bunker, artillery or edge in the way, R20). ``into``: for "blocked", the cell the step would
    have entered (a detail for notes: it takes no part in equality)."""
    cell: Cell
    reason: str
    into: Cell | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Recovered:
    """Automa step 4: a suppressed piece is ready again (R21)."""
    cell: Cell


@dataclass(frozen=True, slots=True)
class Discarded:
    """Cards put on the discard pile (R8), physical cards (a played Joker is ``JK``)."""
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """The draw pile ran out when a card was needed for ``purpose``: the discard pile (of
    ``count`` cards) became the draw pile (R22, R26, R35). The Damage event follows."""
    count: int
    purpose: CardPurpose


@dataclass(frozen=True, slots=True)
class Damage:
    """``amount`` damage taken; ``total`` is the damage after it."""
    amount: int
    cause: DamageCause
    total: int


@dataclass(frozen=True, slots=True)
class Victory:
    """The last bunker is destroyed (R23)."""


@dataclass(frozen=True, slots=True)
class Defeat:
    """The mission is lost (R23). ``purpose``: for a defeat at an exhaustion, the card that
    was needed (R36), else None."""
    cause: DefeatCause
    purpose: CardPurpose | None = None


def _fast_init(cls: type[Any]) -> None:
    """Give a frozen slots dataclass an ``__init__`` that fills its slots through their
    descriptors: the same signature and values, about half the cost of the generated one
    (which looks ``object.__setattr__`` up per field). The engine makes ~150 events a game."""
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
