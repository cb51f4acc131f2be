"""The random player: a floor that almost never wins.

It picks uniformly among the *kinds* of legal decision first (move, altitude, guns, bomb,
throttle, resupply, end), then uniformly within the kind, so that the many distinct movement
ends do not drown out the rest. It only ever plays actions the rules allow
(``legality.legal_plays_by_kind``, the same plays as ``engine.legal_actions_by_kind``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..challenges.seeding import SeededStream
from ..rules.actions import Action
from ..rules.legality import legal_plays_by_kind
from ..rules.state import GameState

if TYPE_CHECKING:  # the playout's batched dice; the playout imports this player
    from .playout import Dice


def random_action(state: GameState, rng: SeededStream | Dice) -> Action:
    """A uniformly random kind of legal decision, then a uniform one of that kind. Only the
    play chosen is built (``legality.legal_plays_by_kind``): the same play as from
    ``legal_actions_by_kind``."""
    kinds = list(legal_plays_by_kind(state).values())
    group = kinds[rng.below(len(kinds))]
    return group[rng.below(len(group))]
