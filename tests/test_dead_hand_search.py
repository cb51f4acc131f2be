"""rules.dead_hand's cell search against the definition: follow every position.

A hand is dead when no sequence of Automa cards within the fuel (R22) brings an artillery
piece where a guns card (R15) or a bomb card (R16) of the hand has a target. The reference
below follows exactly that, position by position, with every entry of the Automa table and
the Joker (``artillery_after``), and is compared with ``dead_hand`` on the action steps of
simulated missions and on small random boards with little fuel left, where blocking pieces,
suppressed pieces and the fuel's end matter most.
"""

from __future__ import annotations

import random

import pytest
from engine_boards import board, decisions, placed

from bgrid.challenges.mission import mission_from_seed
from bgrid.challenges.seeding import stream
from bgrid.players.greedy import greedy_action
from bgrid.players.random_player import random_action
from bgrid.rules.automa import artillery_after
from bgrid.rules.board import CELL_NAMES
from bgrid.rules.combat import bomb_target, guns_targets
from bgrid.rules.dead_hand import automa_phases_left, dead_hand
from bgrid.rules.legality import has_play
from bgrid.rules.ruleset import Play
from bgrid.rules.state import GameState, Phase


def some_position_gives_a_target(state: GameState) -> bool:
    """Whether some sequence of Automa cards, one a phase for as many phases as the fuel
    allows, brings a position where a guns or a bomb card of the hand has a target. The first
    phase starts from the pieces as they are and, as rules.dead_hand does (a phase early, on
    the safe side), with every suppression already ended (R21)."""
    rs = state.ruleset
    plays = {rs.kind_of(c).play for c in state.hand}
    entries: list[str | None] = sorted(set(rs.automa_suits.values()))
    entries.append(None)  # the Joker: no fire, no movement
    scratch = state.copy()
    start = frozenset(state.artillery)
    frontier = {(start, frozenset(state.suppressed)), (start, frozenset())}
    reached = {start}
    for _ in range(automa_phases_left(state)):
        following = set()
        for position, suppressed in frontier:
            scratch.artillery, scratch.suppressed = set(position), set(suppressed)
            for entry in entries:
                after = frozenset(artillery_after(scratch, entry))
                if after not in reached:
                    reached.add(after)
                    following.add((after, frozenset()))
        frontier = following
    for position in reached - {start}:
        scratch.artillery, scratch.suppressed = set(position), set()
        if (Play.GUNS in plays and guns_targets(scratch)) or \
                (Play.BOMB in plays and bomb_target(scratch) is not None):
            return True
    return False


def is_searched(state: GameState) -> bool:
    """An action step with a full hand and nothing to play now: where the search decides."""
    probe = state.copy()
    probe.actions = 0
    return (state.phase is Phase.ACTIONS and state.cell is not None
            and len(state.hand) >= state.ruleset.hand_size and not has_play(probe))


def simulated_states() -> list[GameState]:
    """Every searched action step of 60 random and 60 greedy missions."""
    found = []
    for player in (random_action, greedy_action):
        for map_seed in range(60):
            start = mission_from_seed(map_seed).start(False)
            rng = stream("standard-1", "dead-hand", map_seed)
            found += [state.copy() for state in decisions(start, rng, player) if is_searched(state)]
    return found


def random_board_states(count: int, seed: int) -> list[GameState]:
    """Searched states on random boards: the bomber at altitude 4 holding guns, bombs, a
    Throttle and a Queen it cannot climb with (as in test_dead_hand), one to four pieces,
    some suppressed, mountains and bunkers anywhere, and 0-8 Automa phases of fuel left."""
    rng = random.Random(seed)
    found: list[GameState] = []
    while len(found) < count:
        names = rng.sample(CELL_NAMES, 17)
        pieces = rng.randint(1, 4)
        mountains = names[5:5 + rng.randint(0, 8)]
        bunkers = names[13:13 + rng.randint(1, 4)]
        state = placed(board(mountains=" ".join(mountains), bunkers=" ".join(bunkers),
                             artillery=" ".join(names[:pieces])),
                       names[4], altitude=4, hand="6H 7S 8S 9S QH")
        state.suppressed = {c for c in state.artillery if rng.random() < 0.3}
        state.exhaustions = 1  # the reshuffle spent: the fuel is the draw pile
        del state.draw_pile[rng.randint(0, 8):]
        if is_searched(state):
            found.append(state)
    return found


def agree(states: list[GameState]) -> tuple[int, int]:
    """Assert dead_hand and the reference agree on every state; (dead, alive) counted."""
    dead = alive = 0
    for state in states:
        expected_dead = not some_position_gives_a_target(state)
        assert (dead_hand(state) is not None) == expected_dead, state.serialize()
        dead += expected_dead
        alive += not expected_dead
    return dead, alive


def test_the_cell_search_agrees_with_every_position_on_simulated_missions():
    dead, alive = agree(simulated_states())
    # both answers are exercised (1,376 and 37 when this test was written)
    assert dead > 100 and alive > 10


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_cell_search_agrees_with_every_position_on_random_boards(seed):
    dead, alive = agree(random_board_states(400, seed))
    assert dead > 50 and alive > 50
