"""The state of one mission in play: the board, the bomber, the cards, the phase.

A :class:`GameState` is mutable and copied cheaply (``state.copy()``) so bots and the
verifier can branch on it. Only ``rules.engine`` (and the modules it delegates to:
``rules.automa``, ``rules.combat``, ``rules.movement``) mutate a state; everyone else reads it.

Card piles: ``draw_pile`` (a challenge deck: top first; the player's own deck: unordered,
any card in it may come next), ``hand``, ``discard`` (in the order cards were discarded) and
``in_play`` (cards being resolved: a played 6/7/8/A or King awaiting its reveal or draw, the
revealed entry card awaiting a column choice; at the end of a mission, whatever was being
resolved at that moment stays here). Together they always hold the 54 cards (jokers as plain
``JK``).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable
from typing import Any, Final

from mypy_extensions import mypyc_attr

from .actions import Bomb, Guns, Resupply
from .board import SIZE, Cell, Facing
from .cards import Card, parse_cards
from .errors import NotationError
from .ruleset import Ruleset, load_ruleset
from .setup import GameMap


#: COLUMN_THEN_ROW[cell]: a sort key putting cells in column-letter, then row order (R20).
COLUMN_THEN_ROW: Final[tuple[int, ...]] = tuple((c % SIZE) * SIZE + c // SIZE for c in range(SIZE * SIZE))

# The enums of the game model. The hot paths (engine, legality, combat, automa, this module, the
# verifier's replay) bind the members they read to module globals (``_OVER: Final = Phase.OVER``):
# Python 3.11 finds an enum member through EnumType.__getattr__, about ten times slower than a
# global. The game model's module constants are ``Final``: mypyc keeps a Final global in a C
# static, where it reads any other global from the module's dict.


class Phase(enum.Enum):
    """Where a mission waits. The ``*_REVEAL`` phases and ``DRAW`` wait for a card (a chance
    outcome, ``engine.reveal``); ``ENTRY_COLUMN`` and ``ACTIONS`` wait for a player decision
    (``engine.apply``); ``OVER`` waits for nothing."""

    ENTRY_REVEAL = "entry-reveal"      # R6a/R13: the entry card
    ENTRY_COLUMN = "entry-column"      # R13: a face card or Joker was revealed; choose a column
    DRAW = "draw"                      # R6b: one card at a time until the hand holds 5
    ACTIONS = "actions"                # R6c: up to two actions, Kings at any point (R29)
    RESOLVE_REVEAL = "resolve-reveal"  # a played 6/7/8/A awaits its reveal, a King its draw
    AUTOMA_REVEAL = "automa-reveal"    # Automa step 1 (R34: every turn the bomber is on the map)
    OVER = "over"                      # R23

    # Identity hashing (members are singletons): a dict lookup by phase takes ~0.6 us, not the
    # ~0.8 us of Enum's Python-level __hash__, and the phase is looked up at every chance node.
    __hash__ = object.__hash__

    def __str__(self) -> str:
        return self.value


#: The phases that wait for a card (``GameState.card_purpose`` is not None).
CHANCE_PHASES: Final = frozenset({Phase.ENTRY_REVEAL, Phase.DRAW, Phase.RESOLVE_REVEAL, Phase.AUTOMA_REVEAL})


class Outcome(enum.Enum):
    VICTORY = "victory"
    DEFEAT = "defeat"

    def __str__(self) -> str:
        return self.value


class DefeatCause(enum.Enum):
    DAMAGE = "damage"            # damage >= health (R4)
    CRASH = "crash"              # R10, R28, R33
    OUT_OF_FUEL = "out-of-fuel"  # second exhaustion (R22)

    def __str__(self) -> str:
        return self.value


class CardPurpose(enum.StrEnum):
    """Why a card is drawn or revealed (``engine.chance_pending``, the events ``Revealed``,
    ``Drew``, ``Reshuffled`` and ``Defeat``). Members equal their strings (``"draw"``)."""

    ENTRY = "entry"        # R6a, R13
    DRAW = "draw"          # R6b
    RESUPPLY = "resupply"  # R29: a King's draw
    GUNS = "guns"          # R15
    BOMB = "bomb"          # R16
    AUTOMA = "automa"      # R34


_PENDING_PURPOSE: Final = {Guns: CardPurpose.GUNS, Bomb: CardPurpose.BOMB, Resupply: CardPurpose.RESUPPLY}
# read at every chance node: bound once (see above the enums)
_RESOLVE_REVEAL: Final = Phase.RESOLVE_REVEAL
_OVER: Final = Phase.OVER
_DRAW: Final = Phase.DRAW
_AUTOMA_REVEAL: Final = Phase.AUTOMA_REVEAL
_ENTRY_REVEAL: Final = Phase.ENTRY_REVEAL
_FOR_DRAW: Final = CardPurpose.DRAW
_FOR_AUTOMA: Final = CardPurpose.AUTOMA
_FOR_ENTRY: Final = CardPurpose.ENTRY


@mypyc_attr(acyclic=True)  # no state refers to itself: the compiled class stays out of the cycle GC
class GameState:
    """One mission in play. Read freely; mutate only through ``rules.engine``.

    Board: ``mountains`` (frozenset, never changes), ``bunkers`` (set of surviving bunker
    cells), ``artillery`` (set of surviving artillery cells), ``suppressed`` (the subset of
    ``artillery`` that is suppressed, R21), ``craters`` (R16, R32), ``destroyed`` (cells where
    a target was destroyed, for the chain bonus, R32).

    Bomber: ``cell`` (None while off the map), ``facing`` (None while off the map),
    ``altitude`` 0–5 (kept while off the map: re-entry uses it, R13), ``damage``, ``health``.

    Turn: ``turn`` (1, 2, …), ``phase`` (:class:`Phase`), ``actions`` (actions taken in this
    player phase, 0–2; Kings do not count, R29), ``pending`` (the Guns/Bomb/Resupply action
    awaiting its card in ``RESOLVE_REVEAL``), ``entry_card`` (the face card or Joker awaiting
    a column in ``ENTRY_COLUMN``).

    Deck: ``draw_pile``, ``hand``, ``discard``, ``in_play`` (see the module docstring),
    ``exhaustions`` (0, 1, 2; R22), ``cards_drawn`` (cards taken from the draw pile so far,
    every purpose: the fuel used, which layers the solver's search), ``challenge`` (True:
    ``draw_pile`` is ordered, R25),
    ``reshuffle_numbers`` (challenge only: card -> sorted tuple of its reshuffle numbers, R26),
    ``fresh_reshuffle`` (True from an exhaustion until the next card arrives: the draw pile
    was empty "at this point", so a log's ``reshuffle`` marker is right here, R36).

    End: ``outcome`` (:class:`Outcome` or None), ``cause`` (:class:`DefeatCause` or None),
    ``end_card_purpose`` (R36: when the mission ended at the moment a card was needed, the
    :class:`CardPurpose` of that card, so the
    log's statement that needed it writes ``none``; else None).

    Counts: ``bunkers_destroyed``, ``artillery_destroyed`` (R24).
    """

    __slots__ = (
        "game_map", "ruleset", "difficulty", "health", "mountains",
        "bunkers", "artillery", "suppressed", "craters", "destroyed",
        "bunkers_destroyed", "artillery_destroyed",
        "cell", "facing", "altitude", "damage",
        "hand", "draw_pile", "discard", "in_play", "exhaustions", "cards_drawn",
        "challenge", "reshuffle_numbers", "fresh_reshuffle",
        "turn", "phase", "actions", "pending", "entry_card",
        "outcome", "cause", "end_card_purpose",
    )

    def __init__(self, game_map: GameMap, ruleset: Ruleset, difficulty: str, health: int,
                 _copying: bool = False) -> None:
        self.game_map = game_map
        self.ruleset = ruleset
        self.difficulty = difficulty
        self.health = health
        if _copying:  # copy() sets every other field: a new game's sets and lists would be waste
            return
        self.mountains: frozenset[Cell] = game_map.mountains
        self.bunkers: set[Cell] = set(game_map.bunkers)
        self.artillery: set[Cell] = set(game_map.artillery)
        self.suppressed: set[Cell] = set()
        self.craters: set[Cell] = set()
        self.destroyed: set[Cell] = set()
        self.bunkers_destroyed = 0
        self.artillery_destroyed = 0
        self.cell: Cell | None = None
        self.facing: Facing | None = None
        self.altitude: int = ruleset.start_altitude
        self.damage = 0
        self.hand: list[Card] = []
        self.draw_pile: list[Card] = []
        self.discard: list[Card] = []
        self.in_play: list[Card] = []
        self.exhaustions = 0
        self.cards_drawn = 0
        self.challenge = False
        self.reshuffle_numbers: dict[Card, tuple[int, ...]] | None = None
        self.fresh_reshuffle = False
        self.turn = 1
        self.phase = Phase.ENTRY_REVEAL
        self.actions = 0
        self.pending: Guns | Bomb | Resupply | None = None
        self.entry_card: Card | None = None
        self.outcome: Outcome | None = None
        self.cause: DefeatCause | None = None
        self.end_card_purpose: CardPurpose | None = None

    # -- reading ------------------------------------------------------------------------
    @property
    def is_on_map(self) -> bool:
        return self.cell is not None

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def card_purpose(self) -> CardPurpose | None:
        """What the awaited card is for, None at a decision or the end
        (``engine.chance_pending``)."""
        # an `is` chain, not a table by phase: compiled, a dict lookup costs some 8 times as much
        phase = self.phase
        if phase is _DRAW:
            return _FOR_DRAW
        if phase is _AUTOMA_REVEAL:
            return _FOR_AUTOMA
        if phase is _RESOLVE_REVEAL:
            return _PENDING_PURPOSE[type(self.pending)]
        if phase is _ENTRY_REVEAL:
            return _FOR_ENTRY
        return None

    def card_count(self) -> int:
        """Cards in all piles; always 54 (a property test checks it)."""
        return len(self.draw_pile) + len(self.hand) + len(self.discard) + len(self.in_play)

    def copy(self) -> GameState:
        """An independent copy: every mutable container is copied, values are shared."""
        # Built through __init__, then every field set: mypyc's classes have no bare __new__.
        new = GameState(self.game_map, self.ruleset, self.difficulty, self.health, True)
        new.mountains = self.mountains
        new.bunkers = set(self.bunkers)
        new.artillery = set(self.artillery)
        new.suppressed = set(self.suppressed)
        new.craters = set(self.craters)
        new.destroyed = set(self.destroyed)
        new.bunkers_destroyed = self.bunkers_destroyed
        new.artillery_destroyed = self.artillery_destroyed
        new.cell = self.cell
        new.facing = self.facing
        new.altitude = self.altitude
        new.damage = self.damage
        new.hand = list(self.hand)
        new.draw_pile = list(self.draw_pile)
        new.discard = list(self.discard)
        new.in_play = list(self.in_play)
        new.exhaustions = self.exhaustions
        new.cards_drawn = self.cards_drawn
        new.challenge = self.challenge
        new.reshuffle_numbers = self.reshuffle_numbers  # never mutated
        new.fresh_reshuffle = self.fresh_reshuffle
        new.turn = self.turn
        new.phase = self.phase
        new.actions = self.actions
        new.pending = self.pending
        new.entry_card = self.entry_card
        new.outcome = self.outcome
        new.cause = self.cause
        new.end_card_purpose = self.end_card_purpose
        return new

    def describe_parts(self) -> dict[str, str]:
        """The parts of :meth:`describe`, in order, by name: "turn" (``turn 3``), "where"
        (``at C4 facing S`` or ``off the map``), "alt", "dmg" (``dmg 1/5``), "hand",
        "draw pile"; a caller may replace or add parts and join them with ", "."""
        where = f"at {self.cell} facing {self.facing}" if self.cell is not None else "off the map"
        hand = " ".join(str(c) for c in self.hand) or "empty"
        return {"turn": f"turn {self.turn}", "where": where, "alt": f"alt {self.altitude}",
                "dmg": f"dmg {self.damage}/{self.health}", "hand": f"hand {hand}",
                "draw pile": f"draw pile {len(self.draw_pile)}"}

    def describe(self) -> str:
        """One line for error messages: ``turn 3, at C4 facing S, alt 3, dmg 1/5, hand 7H 2S,
        draw pile 31``."""
        return ", ".join(self.describe_parts().values())

    def __repr__(self) -> str:
        return f"<GameState {self.phase}: {self.describe()}>"

    # -- serialised form and equality -----------------------------------------------------
    def serialize(self) -> str:
        """The whole state as one line of JSON, in the log's notation for cards and cells
        (OpenSpiel's ``serialize``, python-chess's ``fen()``): :meth:`from_serialized` reads it
        back to an equal state. The map's ridges (a drawing aid) and the ruleset's data are
        not kept: the ruleset by its name."""
        out: dict[str, Any] = {"ruleset": self.ruleset.name, "difficulty": self.difficulty,
                               "health": self.health}
        m = self.game_map
        out["map"] = {"mountains": _cells(sorted(m.mountains)), "bunkers": _cells(m.bunkers),
                      "artillery": _cells(m.artillery)}
        for name in _CELL_SETS:
            out[name] = _cells(sorted(getattr(self, name)))
        for name in _PILES:
            out[name] = " ".join(map(str, getattr(self, name)))
        for name in _PLAIN:
            out[name] = getattr(self, name)
        for name in _OPTIONAL:
            value = getattr(self, name)
            out[name] = None if value is None else str(value)
        out["pending"] = None if self.pending is None else _pending_text(self.pending)
        out["reshuffle_numbers"] = (None if self.reshuffle_numbers is None else
                                    {str(c): list(ns) for c, ns in self.reshuffle_numbers.items()})
        return json.dumps(out, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_serialized(cls, text: str, ruleset: Ruleset | None = None) -> GameState:
        """The state :meth:`serialize` printed. ``ruleset``: the ruleset to play under (a
        variant that is no shipped file), else the shipped one of the recorded name.

        Raises :class:`~rules.errors.NotationError` for text that is not such a state."""
        try:
            data = json.loads(text)
            rs = ruleset if ruleset is not None else load_ruleset(data["ruleset"])
            m = data["map"]
            game_map = GameMap(frozenset(_parse_cells(m["mountains"])), tuple(_parse_cells(m["bunkers"])),
                               tuple(_parse_cells(m["artillery"])))
            state = cls(game_map, rs, data["difficulty"], data["health"])
            for name in _CELL_SETS:
                setattr(state, name, set(_parse_cells(data[name])))
            for name in _PILES:
                setattr(state, name, parse_cards(data[name]))
            for name in _PLAIN:
                setattr(state, name, data[name])
            for name, parse in _OPTIONAL.items():
                value = data[name]
                setattr(state, name, None if value is None else parse(value))
            state.pending = None if data["pending"] is None else _parse_pending(data["pending"])
            numbers = data["reshuffle_numbers"]
            state.reshuffle_numbers = (None if numbers is None else
                                       {Card.parse(c): tuple(ns) for c, ns in numbers.items()})
        except NotationError:
            raise
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise NotationError(f"not a serialised game state: {exc}") from None
        return state

    def _key(self) -> tuple:
        m = self.game_map
        return ((m.mountains, m.bunkers, m.artillery), self.ruleset, self.difficulty, self.health,
                *(frozenset(getattr(self, n)) for n in _CELL_SETS),
                *(tuple(getattr(self, n)) for n in _PILES),
                *(getattr(self, n) for n in _PLAIN), *(getattr(self, n) for n in _OPTIONAL),
                self.pending, self.reshuffle_numbers)

    def __eq__(self, other: object) -> bool:
        """Two states are equal when every part of them is: the board, the bomber, the piles in
        their order, the phase and the counts (the map by its cells, the ruleset by value)."""
        if not isinstance(other, GameState):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # mutable: compare, never hash


_CELL_SETS: Final = ("bunkers", "artillery", "suppressed", "craters", "destroyed")
_PILES: Final = ("hand", "draw_pile", "discard", "in_play")
_PLAIN: Final = ("bunkers_destroyed", "artillery_destroyed", "altitude", "damage", "exhaustions", "challenge",
          "fresh_reshuffle", "turn", "actions")
_OPTIONAL: Final = {"cell": Cell.parse, "facing": Facing.parse, "entry_card": Card.parse, "phase": Phase,
             "outcome": Outcome, "cause": DefeatCause, "end_card_purpose": CardPurpose}


def _cells(cells: Iterable[Cell]) -> str:
    return " ".join(map(str, cells))


def _parse_cells(text: str) -> list[Cell]:
    return [Cell.parse(t) for t in text.split()]


def _pending_text(action: Guns | Bomb | Resupply) -> str:
    return str(action)  # "guns 6H C4", "bomb 7H", "resupply KS"


def _parse_pending(text: str) -> Guns | Bomb | Resupply:
    words = text.split()
    if words[0] == "guns" and len(words) == 3:
        return Guns(Card.parse(words[1]), Cell.parse(words[2]))
    if words[0] == "bomb" and len(words) == 2:
        return Bomb(Card.parse(words[1]))
    if words[0] == "resupply" and len(words) == 2:
        return Resupply(Card.parse(words[1]))
    raise NotationError(f"'{text}' is not a guns, bomb or resupply play awaiting its card", text)
