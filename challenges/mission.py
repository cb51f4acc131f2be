"""A mission: the map, the starting health and (for a challenge) the deck order.

``mission_from_seed`` is the seeded setup of R1–R5 with the challenge deck of R25/R26.
The verifier rebuilds the same mission from a seed or a challenge code, so this lives in
the game model, not in the generator.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.cards import Card
from ..rules.errors import BGridError
from ..rules.ruleset import DEFAULT_RULESET, Ruleset, load_ruleset
from ..rules.setup import GameMap, build_map
from .codes import ChallengeSpec, check_seed, decode_code, encode_code
from .seeding import jokers_adjacent, reshuffle_numbers, shuffled_deck


@dataclass(frozen=True)
class Mission:
    spec: ChallengeSpec
    ruleset: Ruleset
    game_map: GameMap
    setup: dict  # {"ridges": [[Card]], "bunkers": [Card], "artillery": [Card]} in draw order
    deck: tuple[Card, ...]  # the challenge deck, top first (R25)
    reshuffle: tuple[int, ...]  # reshuffle number of the card at each deck position (R26)

    @property
    def code(self) -> str:
        return encode_code(self.spec)

    @property
    def health(self) -> int:
        return self.ruleset.health(self.spec.difficulty)


def validate_spec(ruleset: Ruleset, difficulty: str | None, ridges: int | None, seed: int) -> ChallengeSpec:
    """Fill defaults and check ranges; raises a :class:`BGridError` naming the bad value."""
    difficulty = ruleset.default_difficulty if difficulty is None else difficulty.lower()
    if difficulty not in ruleset.difficulties:
        raise BGridError(f"unknown difficulty '{difficulty}': expected one of "
                         f"{', '.join(ruleset.difficulties)}")
    ridges = ruleset.ridges_default if ridges is None else ridges
    if not ruleset.ridges_min <= ridges <= ruleset.ridges_max:
        raise BGridError(f"ridge count {ridges} is out of range: expected "
                         f"{ruleset.ridges_min} to {ruleset.ridges_max}")
    check_seed(seed)
    return ChallengeSpec(ruleset.name, difficulty, ridges, seed)


def map_from_spec(spec: ChallengeSpec) -> tuple[GameMap, dict]:
    """The seeded map alone and its setup record: the two setup draws (R5), then R1–R3.
    A seed log plays the player's own deck, so the verifier needs no more than this."""
    ridge_draw = shuffled_deck(spec.ruleset, "ridge-draw", spec.seed)
    target_draw = shuffled_deck(spec.ruleset, "target-draw", spec.seed)
    return build_map(ridge_draw, target_draw, spec.ridges)


def mission_from_spec(spec: ChallengeSpec) -> Mission:
    """The seeded mission: two setup draws (R5), the map (R1–R3), the play deck (R25) and
    the reshuffle numbers (R26), each from its own seeded stream (``challenges.seeding``)."""
    rs = load_ruleset(spec.ruleset)
    game_map, record = map_from_spec(spec)
    deck = tuple(shuffled_deck(rs.name, "play-deck", spec.seed))
    numbers = jokers_adjacent(reshuffle_numbers(rs.name, spec.seed), deck)
    return Mission(spec, rs, game_map, record, deck, tuple(numbers))


def mission_from_seed(seed: int, difficulty: str | None = None, ridges: int | None = None,
                      ruleset: str = DEFAULT_RULESET) -> Mission:
    return mission_from_spec(validate_spec(load_ruleset(ruleset), difficulty, ridges, seed))


def mission_from_code(code: str) -> Mission:
    return mission_from_spec(decode_code(code))
