"""The engine's search API: canonical state keys, whole-turn expansion, plans replayed.

A challenge deck (R25, R26) makes a mission a one-player game of perfect information: every
card that will come is known. A search over it needs three things the engine's step-by-step
calls do not give directly:

* :func:`state_key` — two states with equal keys play on identically (same legal plays, same
  cards to come, same score), so a search keeps one of them;
* :func:`turn_outcomes` — every distinct state at the next turn's first decision (or the
  end), each with the plays that reach it;
* :func:`play_plan` — a line of plays replayed on the checked path (:func:`engine.reveal`,
  :func:`engine.apply`), its events ready for :mod:`log.writer`.

The cards-drawn counter is ``state.cards_drawn`` (kept by the engine); "reveal the top card"
of a known deck is :func:`reveal_top`.
"""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Final

from ..rules.actions import Action, Move
from ..rules.board import SIZE, Cell, Facing
from ..rules.cards import FULL_DECK, JOKER_RANK, Card
from ..rules.engine import apply, apply_legal, reveal, reveal_drawn, score
from ..rules.legality import legal_actions
from ..rules.movement import trace_steps
from ..rules.events import Event
from ..rules.ruleset import Play, Ruleset
from ..rules.state import CHANCE_PHASES, GameState, Phase

# One bit per card; the two Jokers share bit 52, so a sum counts them (0, 1 << 52, 1 << 53)
# and stays a faithful multiset code.
_JOKER_BIT: Final = 1 << 52
_CARD_BIT: Final = {card: (_JOKER_BIT if card.rank == JOKER_RANK else 1 << i)
             for i, card in enumerate(FULL_DECK)}


# The same bits by object identity: cards are interned (FULL_DECK, Card.parse), and looking
# them up by ``id`` runs in C where the dataclass hash of every card ran in Python.
_BIT_BY_ID: Final = {id(card): bit for card, bit in _CARD_BIT.items()}


def card_mask(cards: list[Card]) -> int:
    """The multiset of ``cards`` as one integer (order forgotten, Jokers counted)."""
    by_id = _BIT_BY_ID
    total = 0
    for card in cards:  # a loop over a typed list: mypyc compiles it, sum(map(...)) stays generic
        bit = by_id.get(id(card))
        total += card_bit(card) if bit is None else bit  # None: a card built outside the deck
    return total


def card_bit(card: Card) -> int:
    """The bit of one card in :func:`card_mask`."""
    bit = _BIT_BY_ID.get(id(card))
    return _CARD_BIT[card] if bit is None else bit  # None: a card built outside the deck


def state_key(state: GameState) -> tuple:
    """A canonical key of everything the rest of the mission depends on.

    Included: phase, actions taken, the bomber (cell, facing, altitude, damage), exhaustions,
    the hand as a multiset, the draw pile (with a challenge deck before any exhaustion its
    size, which fixes it; else its cards as a multiset, since a challenge deck restacks by
    reshuffle number, R26, and an own deck is unordered), the surviving bunkers and
    artillery, suppression, craters, cells of destroyed targets (chain bonus, R32; each set of
    cells as one integer, :func:`cell_mask`), the play awaiting its card, the entry card
    awaiting a column, and the outcome.

    Left out, because no rule reads them: the turn number, the order of the discard pile
    (R26 restacks it by reshuffle number), the marker flag ``fresh_reshuffle``. The discard
    pile's cards are the 54 minus the others, and the destroyed counts follow from the
    surviving pieces, so neither needs its own entry.
    """
    pile = state.draw_pile
    if state.challenge and not state.exhaustions:
        pile_key = len(pile)
    else:
        pile_key = card_mask(pile)
    return (state.phase, state.actions, state.cell, state.facing, state.altitude, state.damage,
            state.exhaustions, card_mask(state.hand), pile_key,
            cell_mask(state.bunkers), cell_mask(state.artillery), cell_mask(state.suppressed),
            cell_mask(state.craters), cell_mask(state.destroyed),
            state.pending, state.entry_card, state.outcome, state.cause)


def cell_mask(cells: set[Cell]) -> int:
    """A set of cells as one integer, bit ``i`` for cell ``i``: a key entry the cycle collector
    never tracks (a search keeps thousands of keys; frozensets were five tracked objects each)."""
    if not cells:  # most states have no suppression and no crater
        return 0
    total = 0
    for cell in cells:
        total |= _CELL_BIT[cell]
    return total


_CELL_BIT: Final = tuple(1 << i for i in range(SIZE * SIZE))


def reveal_top(state: GameState) -> list:
    """The top card of a known deck arrives for the awaited purpose (unchecked)."""
    return reveal_drawn(state, 0)


def run_chance(state: GameState) -> None:
    """Reveal the top card of a known deck until the game waits for a decision or is over."""
    phases = CHANCE_PHASES
    while state.phase in phases:
        reveal_drawn(state, 0)


def turn_outcomes(state: GameState, limit: int | None = None) -> dict:
    """Every distinct outcome of the player's turn from ``state`` (a decision of a challenge
    deck mission): ``{state_key: (state, plays)}`` where each state is at the first decision
    of a later turn or over, and ``plays`` is a tuple of actions that gets there from
    ``state`` (the cards between them are the deck's). Breadth-first over the turn's plays (a
    limit keeps every first play), with repeats merged on :func:`state_key` at every decision of
    the turn; the order is that of :func:`legal_actions`, so the result is the same on every run.

    ``limit`` caps the distinct states met within the turn: a turn with Kings and Jokers can
    hold tens of thousands, and a heuristic search would rather see a deterministic part of
    them than wait. With a limit the result may miss outcomes.
    """
    turn = state.turn
    out: dict = {}
    start_key = state_key(state)
    seen = {start_key}
    queue: deque[tuple[GameState, tuple, tuple[Action, ...]]] = deque([(state, start_key, ())])
    phases = CHANCE_PHASES
    over = Phase.OVER
    while queue:
        node, node_key, plays = queue.popleft()
        for action in legal_actions(node):
            # Merged before the cards are revealed: with a known deck equal states meet
            # equal cards, and most plays that reach the Automa step are repeats. A move's
            # key is known without playing it, so a repeated move costs no copy.
            key = move_key(node, node_key, action) if type(action) is Move else None
            if key is not None and key in seen:
                continue
            child = node.copy()
            apply_legal(child, action)
            if key is None:
                key = state_key(child)
                if key in seen:
                    continue
            seen.add(key)
            if limit is not None and len(seen) > limit:
                return out
            if child.phase in phases:
                while child.phase in phases:
                    reveal_drawn(child, 0)
                key = state_key(child)
            if child.turn != turn or child.phase is over:
                if key not in out:
                    out[key] = (child, plays + (action,))
            else:
                queue.append((child, key, plays + (action,)))
    return out


# Where state_key keeps what a move changes.
_HAND: Final = 7
_NOT_ACTIONS: Final = (Play.RESUPPLY, Play.WILD)


def move_key(state: GameState, key: tuple, move: Move) -> tuple | None:
    """The :func:`state_key` of the state ``move`` leads to, without playing it: ``state`` is
    at a decision, ``key`` its :func:`state_key`, ``move`` one of its :func:`legal_actions`.
    None when only playing it tells (the draw pile is empty, so the next card awaited
    exhausts the deck, R22).

    A move changes the bomber's cell and facing (the engine's own trace, as
    :func:`legality.trace_move` takes it), takes the card from the hand and counts an action
    (R6, R9). An exit ends the player phase with no Automa phase (R6, R34): the next turn
    starts with its entry reveal, no action taken. Else the phase goes to the Automa once the
    turn's actions are taken, unless a King or Joker is left to play (R29), as
    ``engine.apply`` does.
    """
    pile_left = bool(state.draw_pile)
    rs = state.ruleset
    card = move.card.physical
    assert state.cell is not None and state.facing is not None  # a move is played on the map (R6)
    end, facing, exited = _move_end(state.cell, state.facing, move.steps,
                                    rs.card_kinds[move.card.acting.rank].points, state.mountains,
                                    state.altitude >= rs.mountain_clearance)
    hand = key[_HAND] - card_bit(card)
    if exited:
        if not pile_left:
            return None
        return (Phase.ENTRY_REVEAL, 0, None, None) + key[4:_HAND] + (hand,) + key[_HAND + 1:]
    actions = state.actions + 1
    phase = Phase.ACTIONS
    if actions >= rs.actions_per_turn and not hand & _not_actions_mask(rs):
        if not pile_left:
            return None
        phase = Phase.AUTOMA_REVEAL
    return (phase, actions, end, facing) + key[4:_HAND] + (hand,) + key[_HAND + 1:]


_NOT_ACTIONS_MASKS: Final[dict[int, tuple]] = {}


def _not_actions_mask(rs: Ruleset) -> int:
    """The bits (:func:`card_mask`) of the cards that may be played after the turn's actions."""
    known = _NOT_ACTIONS_MASKS.get(id(rs))
    if known is None or known[0] is not rs:
        kinds = rs.card_kinds
        mask = 0
        for card, bit in _CARD_BIT.items():
            if kinds[card.rank].play in _NOT_ACTIONS:
                mask |= bit | (bit << 1 if card.rank == JOKER_RANK else 0)  # one or two Jokers
        known = _NOT_ACTIONS_MASKS[id(rs)] = (rs, mask)
    return known[1]


def _move_end(cell: Cell, facing: Facing, steps: str, points: int, mountains: frozenset,
              clear: bool) -> tuple[Cell | None, Facing, bool]:
    """Where a move ends (``legality.trace_move``'s trace, remembered: a search meets the same
    move from the same place thousands of times). A dict, emptied when full, rather than
    ``lru_cache``, whose call costs about twice the dict's lookup once compiled."""
    key = (cell, facing, steps, points, mountains, clear)
    end = _MOVE_ENDS.get(key)
    if end is None:
        if len(_MOVE_ENDS) >= 1 << 16:
            _MOVE_ENDS.clear()
        trace = trace_steps(cell, facing, steps, points, mountains, clear)
        end = _MOVE_ENDS[key] = (trace.end, trace.facing, trace.exited)
    return end


_MOVE_ENDS: Final[dict[tuple, tuple[Cell | None, Facing, bool]]] = {}


def play_plan(state: GameState, plays: Iterable[Action]) -> list[Event]:
    """Replay ``plays`` from ``state`` on the checked path: the top card of the deck at every
    chance node (:func:`engine.reveal`), each play checked (:func:`engine.apply`). Returns
    the events in order; ``state`` ends where the plan does (chance nodes after the last
    play are revealed too).

    Raises :class:`~rules.errors.IllegalActionError` if a play is not legal where it falls.
    """
    events: list = []
    phases = CHANCE_PHASES
    for action in plays:
        while state.phase in phases:
            events.extend(reveal(state, state.draw_pile[0]))
        events.extend(apply(state, action))
    while state.phase in phases:
        events.extend(reveal(state, state.draw_pile[0]))
    return events


@contextmanager
def without_cycle_collection() -> Iterator[None]:
    """Run a search with Python's cyclic garbage collector paused (restored after, as it was).

    A search allocates millions of short-lived tuples, lists and states and keeps tens of
    thousands alive (its layers and seen keys); each allocation burst makes the collector walk
    everything alive, about a third of a beam's time, to find nothing: states, keys and the
    search tree hold no reference cycles, so reference counting frees them all. Pausing it
    changes no result.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def best_possible(state: GameState) -> int:
    """The score plus everything still on the board (R24): no line from here scores more."""
    rs = state.ruleset
    return (score(state).total + rs.score_bunker * len(state.bunkers)
            + rs.score_artillery * len(state.artillery))
