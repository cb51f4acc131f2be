"""Dead hands: a full hand none of whose cards can be played again before the mission ends.

A fact about the rules, not a ruling. Only a play changes the hand, the bomber's cell and its
altitude: a turn that starts with a full hand draws nothing (R30), and an Automa phase moves
only the artillery (R19, R20) and deals damage. So when the hand is full and no card of it is
playable, it stays that way unless the artillery can walk to where a card becomes playable:
a piece in line of sight within the guns' reach (a 6, R15) or under the bomber (a bomb,
R16). A hand is **dead** when no sequence of Automa cards (each suit's move of the
ruleset's table and the Joker's none) over as many Automa phases as the fuel allows (the
draw pile, then the reshuffles left, R22) brings a position where the engine's own target
checks find one (``guns_targets``, ``bomb_target``: of the legal plays, only the guns' and
the bomb's depend on where the artillery stands): the mission can then only end by damage
or fuel, every turn a pass and an Automa card.

Both checks ask only whether some piece stands on a given cell (the other pieces never block
the guns' line of sight, R14), so the search follows cells, not positions: each piece as if
alone, over the moving entries of the table (:func:`_can_come_into_play`), with the same
answer. Another piece, a piece's fire or its suppression only ever make it stay (R18-R21,
R34), so in every position a piece stands on a cell it reaches alone: no such cell passes,
no position does. Conversely, when a piece alone reaches a cell that passes along cells
c0, c1, ... cn, play in each phase the move that takes the piece furthest ahead of that
path's schedule (cell ci after i phases) on to its next cell. It does not fire there (alone
it stepped on), and a piece already standing on the next cell would be further ahead, so it
can only be blocked by one that stepped there earlier in the same phase (R34), which is then
as far ahead: some piece stands on cn within n phases. Every piece is taken as ready from
the first phase (a suppressed one skips a move, R21): a phase early, which can only find more.

The search is on the safe side: it ignores damage (a branch the fire would end early still
counts), so a hand it calls dead is dead.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from .automa import artillery_after_each
from .board import Cell
from .cards import Card
from .combat import bomb_target, can_fire_guns, guns_targets
from .legality import altitude_delta, has_play
from .ruleset import Play
from .state import GameState, Phase

_ACTIONS: Final = Phase.ACTIONS
_TABLE_ORDER: Final = {play: i for i, play in enumerate(Play)}  # as list(Play) orders them


@dataclass(frozen=True, slots=True)
class DeadHand:
    """A dead hand: the ``turn`` it was found in (at its action step), the ``hand`` and, per
    group of cards, why they cannot be played (``reasons``: (cards, rules, sentence))."""

    turn: int
    hand: tuple[Card, ...]
    reasons: tuple[tuple[tuple[Card, ...], str, str], ...]

    @property
    def rules(self) -> str:
        """The rules the reasons cite, once each, in order (and R30: a full hand draws nothing)."""
        cited = ["R30"] + [r for _, rules, _ in self.reasons for r in rules.split(", ")]
        return ", ".join(dict.fromkeys(cited))

    def why(self) -> str:
        """``7S 8S AS: no target below the bomber at C5, and none can come there; 9S: …``"""
        return "; ".join(f"{' '.join(map(str, cards))}: {sentence}" for cards, _, sentence in self.reasons)

    def __str__(self) -> str:
        return (f"dead hand from turn {self.turn}: no card in hand can be played again ({self.why()}); "
                "the mission can only end by damage or fuel")


def dead_hand(state: GameState) -> DeadHand | None:
    """The dead hand of ``state`` (see the module), or None: not at an action step, off the
    map, the hand not full (the next turn draws), or some card can still be played, now or
    after some Automa phases the fuel allows."""
    rs = state.ruleset
    if state.phase is not _ACTIONS or state.cell is None or len(state.hand) < rs.hand_size:
        return None
    probe = state
    if state.actions:  # every later turn's action step: the same hand, no action taken yet
        probe = state.copy()
        probe.actions = 0
    if has_play(probe):
        return None
    # Nothing is playable here; of the plays legal_plays_by_kind finds, only the guns' targets
    # and the bomb's target depend on the artillery (a hand with a Joker always resupplies),
    # so the search only asks whether a moved piece gives the guns or a bomb a target.
    plays = [rs.kind_of(c).play for c in state.hand]
    guns = Play.GUNS in plays and can_fire_guns(state)
    bomb = Play.BOMB in plays
    if guns or bomb:
        if probe is state:
            probe = state.copy()
        if _can_come_into_play(probe, guns, bomb):
            return None
    return DeadHand(state.turn, tuple(state.hand), tuple(_reasons(state)))


def automa_phases_left(state: GameState) -> int:
    """How many Automa phases the fuel allows at most while the hand stays full: the draw
    pile, then each reshuffle left a new pile of every card not in the hand (R22, R35)."""
    left = state.ruleset.reshuffles_allowed - state.exhaustions
    return len(state.draw_pile) + max(0, left) * (state.card_count() - len(state.hand))


def _can_come_into_play(probe: GameState, guns: bool, bomb: bool) -> bool:
    """Whether some cell an artillery piece can reach alone within :func:`automa_phases_left`
    phases passes the guns' or the bomb's check (see the module: so does some position).
    ``probe``: the state, whose artillery and suppression are the search's scratch."""
    moves = sorted(set(probe.ruleset.automa_suits.values()) - {"hold"})
    seen = set(probe.artillery)  # none passes: has_play checked them
    probe.suppressed = set()  # every piece ready (R21, a phase early: see the module)
    for _ in range(automa_phases_left(probe)):
        # The cells found last (probe's artillery), moved as one position: a step another
        # piece blocks is into a cell seen already or found by this same move, none lost.
        new: set[Cell] = set()
        for after in artillery_after_each(probe, moves):
            new |= after
        new -= seen
        if not new:
            return False
        seen |= new
        probe.artillery = new
        if (guns and guns_targets(probe)) or (bomb and bomb_target(probe) is not None):
            return True
    return False


def _reasons(state: GameState) -> Iterator[tuple[tuple[Card, ...], str, str]]:
    """Why each group of the hand's cards cannot be played, in the order of the card table."""
    rs, cell = state.ruleset, state.cell
    by_play: dict[Play, list[Card]] = {}
    for card in state.hand:
        by_play.setdefault(rs.kind_of(card).play, []).append(card)
    for play, cards in sorted(by_play.items(), key=lambda kv: _TABLE_ORDER[kv[0]]):
        group = tuple(cards)
        if play is Play.MOVE:
            yield group, "R9, R31", f"no forward step from {cell} facing {state.facing}"
        elif play is Play.ALTITUDE:
            top = rs.max_altitude
            words = []
            for card in cards:
                delta = altitude_delta(rs, card)
                words.append(f"{card} {'+' if delta > 0 else '-'}{abs(delta)}")
            yield group, "R7", (f"the bomber flies at altitude {state.altitude}, and "
                                f"{', '.join(words)} would leave 0-{top}")
        elif play is Play.GUNS:
            if can_fire_guns(state):
                yield group, "R15, R19, R20", (f"no artillery piece can come into the guns' line of sight "
                                               f"within {rs.guns_range}")
            else:
                yield group, "R15", (f"guns need altitude 0-{rs.guns_max_altitude}, and the bomber "
                                     f"stays at {state.altitude}")
        elif play is Play.BOMB:
            yield group, "R16", f"no target below the bomber at {cell}, and none can come there"
        elif play is Play.THROTTLE:
            yield group, "R7, R11", "a Throttle is never played alone, and no card can pair with it"
