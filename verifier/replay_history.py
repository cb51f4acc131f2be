"""What a replay keeps for those who tell it afterwards: the history of engine calls, a
statement at a time, for ``--explain``, the HTML report and the companion, and the board
where the replay stopped. The replay (:mod:`verifier.replay`) fills them in; nothing here
runs the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..rules.board import Cell, Facing
from ..rules.cards import Card
from ..rules.events import Event
from ..rules.ruleset import Ruleset
from ..rules.state import GameState
from ..log.notation import Statement


class After(NamedTuple):
    """The bomber and the hand just after an engine call."""

    cell: Cell | None
    facing: Facing | None
    altitude: int
    damage: int
    health: int
    hand: tuple[Card, ...]
    ruleset: Ruleset


class HistoryEntry(NamedTuple):
    """One engine call a statement made: the statement, the turn before the call, the
    events it returned and the state after it."""

    statement: Statement
    turn: int
    events: list[Event]
    after: After


@dataclass
class ReplayBoard:
    """The board where the replay stopped, for the HTML report (which draws the mission
    itself from the replay's history)."""

    error_cell: Cell | None = None
    # the board where the replay stopped
    mountains: frozenset = frozenset()
    bunkers: tuple = ()  # the map's bunkers, all of them
    artillery_start: tuple = ()
    artillery: tuple = ()  # surviving pieces where they stand
    destroyed: tuple = ()
    craters: tuple = ()
    bomber: Cell | None = None

    def snapshot(self, state: GameState) -> None:
        m = state.game_map
        self.mountains = m.mountains
        self.bunkers = tuple(m.bunkers)
        self.artillery_start = tuple(m.artillery)
        self.artillery = tuple(sorted(state.artillery))
        self.destroyed = tuple(sorted(state.destroyed))
        self.craters = tuple(sorted(state.craters))
        self.bomber = state.cell
