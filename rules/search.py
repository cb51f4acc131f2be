"""The engine's search API: canonical state keys, whole-turn expansion, plans replayed.

A challenge deck (R25, R26) makes a mission a one-player game of perfect information: every
card that will come is known. A search over it needs three things the engine's step-by-step
calls do not give directly:

* :func:`state_key` — two states with equal keys play on identically (same legal plays, same
  cards to come, same score), so a search keeps one of them;
* :func:`turn_outcomes` — every distinct state at the next turn's first decision (or the
  end), each with the plays that reach it;
* :func:`play_plan` — a line of plays replayed on the checked path (:func:`engine.reveal`,
  :func:`engine.apply`), its events ready for :mod:`rules.log_writer`.

The cards-drawn counter is ``state.cards_drawn`` (kept by the engine); "reveal the top card"
of a known deck is :func:`reveal_top`.
"""

from __future__ import annotations

from collections import deque

from .actions import Action
from .cards import FULL_DECK, JOKER_RANK
from .engine import apply, apply_legal, reveal, reveal_drawn, score
from .legality import legal_actions
from .state import CHANCE_PHASES, GameState, Phase

# One bit per card; the two Jokers share bit 52, so a sum counts them (0, 1 << 52, 1 << 53)
# and stays a faithful multiset code.
_JOKER_BIT = 1 << 52
_CARD_BIT = {card: (_JOKER_BIT if card.rank == JOKER_RANK else 1 << i)
             for i, card in enumerate(FULL_DECK)}


def card_mask(cards) -> int:
    """The multiset of ``cards`` as one integer (order forgotten, Jokers counted)."""
    bit = _CARD_BIT
    return sum(bit[card] for card in cards)


def state_key(state: GameState) -> tuple:
    """A canonical key of everything the rest of the mission depends on.

    Included: phase, actions taken, the bomber (cell, facing, altitude, damage), exhaustions,
    the hand as a multiset, the draw pile (with a challenge deck before any exhaustion its
    size, which fixes it; else its cards as a multiset, since a challenge deck restacks by
    reshuffle number, R26, and an own deck is unordered), the surviving bunkers and
    artillery, suppression, craters, cells of destroyed targets (chain bonus, R32), the play
    awaiting its card, the entry card awaiting a column, and the outcome.

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
            frozenset(state.bunkers), frozenset(state.artillery), frozenset(state.suppressed),
            frozenset(state.craters), frozenset(state.destroyed),
            state.pending, state.entry_card, state.outcome, state.cause)


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
    seen = {state_key(state)}
    queue: deque[tuple[GameState, tuple[Action, ...]]] = deque([(state, ())])
    phases = CHANCE_PHASES
    over = Phase.OVER
    while queue:
        node, plays = queue.popleft()
        for action in legal_actions(node):
            child = node.copy()
            apply_legal(child, action)
            # Merged before the cards are revealed: with a known deck equal states meet
            # equal cards, and most plays that reach the Automa step are repeats.
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
                queue.append((child, plays + (action,)))
    return out


def play_plan(state: GameState, plays) -> list:
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


def best_possible(state: GameState) -> int:
    """The score plus everything still on the board (R24): no line from here scores more."""
    rs = state.ruleset
    return (score(state).total + rs.score_bunker * len(state.bunkers)
            + rs.score_artillery * len(state.artillery))
