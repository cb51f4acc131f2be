"""The game model of B-Grid: Fortress Run: cards, board, ruleset, state and the rules engine.

The package is the API: everything a caller needs to play a mission once it is set up is
here. Which mission (seeds, challenge codes) is :mod:`bgrid.challenges`; who plays it (the
bots, the searches, the solver) is :mod:`bgrid.players`.

>>> from bgrid import rules
>>> from bgrid.challenges import mission_from_seed
>>> m = mission_from_seed(1944)
>>> state = rules.new_game(m.game_map, m.ruleset, m.spec.difficulty, m.deck, m.reshuffle)
>>> rules.chance_pending(state), rules.chance_outcomes(state)
(<CardPurpose.ENTRY: 'entry'>, [Card.parse('7S')])
>>> events = rules.reveal(state, rules.chance_outcomes(state)[0])
>>> str(state.cell), rules.score(state).total  # a 7 enters in column G, row 1 (R13)
('G1', 0)
"""

from .actions import (Action, Altitude, Bomb, EndPhase, EnterColumn, Guns, Move, Resupply, Throttle,
                      parse_steps)
from .board import Cell, Facing
from .cards import FULL_DECK, JOKER, Card, parse_cards
from .engine import (ERROR_CODES, Score, apply, apply_legal, chance_outcomes, chance_pending,
                     check_action, is_entry_damage_fatal, legal_actions, legal_actions_by_kind,
                     new_game, reveal, reveal_drawn, score)
from .errors import BGridError, IllegalActionError, NotationError, RulesetError
from .events import Event, PhaseEndReason
from .ruleset import CardKind, Play, Ruleset, load_ruleset, parse_ruleset
from .setup import GameMap
from .state import CardPurpose, DefeatCause, GameState, Outcome, Phase

__all__ = [
    "ERROR_CODES", "FULL_DECK", "JOKER", "Action", "Altitude", "BGridError", "Bomb", "Card", "CardKind",
    "CardPurpose", "Cell", "DefeatCause", "EndPhase", "EnterColumn", "Event", "Facing", "GameMap",
    "GameState", "Guns", "IllegalActionError", "Move", "NotationError", "Outcome", "Phase",
    "PhaseEndReason", "Play", "Resupply", "Ruleset", "RulesetError", "Score", "Throttle", "apply",
    "apply_legal", "chance_outcomes", "chance_pending", "check_action", "is_entry_damage_fatal",
    "legal_actions", "legal_actions_by_kind", "load_ruleset", "new_game", "parse_cards",
    "parse_ruleset", "parse_steps", "reveal", "reveal_drawn", "score",
]
