"""Rulesets: the tunable values of the rules, loaded from a data file and validated.

A variant is a new file in ``rulesets/``, not a code change. The standard ruleset is
``standard-1``; its ``code_version`` is the number a challenge code carries (R25).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from types import MappingProxyType

from .errors import RulesetError

AUTOMA_MOVES = ("toward-bomber", "hold", "toward-bunker")
DEFAULT_RULESET = "standard-1"


@dataclass(frozen=True)
class Ruleset:
    name: str
    code_version: int
    difficulties: MappingProxyType  # name -> starting health (R4)
    default_difficulty: str
    ridges_min: int
    ridges_max: int
    ridges_default: int
    hand_size: int
    start_altitude: int
    max_altitude: int
    mountain_clearance: int
    guns_range: int
    guns_max_altitude: int
    guns_suppress_altitude: int
    artillery_reach_base: int
    artillery_reach_minimum: int
    throttle_bonus: int
    automa_suits: MappingProxyType  # suit letter -> one of AUTOMA_MOVES (R19)
    revealed_joker_counts_as: str  # suit letter (R17)
    reshuffles_allowed: int
    reshuffle_damage: int
    face_entry_damage: int
    score_bunker: int
    score_artillery: int
    score_damage: int

    def health(self, difficulty: str) -> int:
        return self.difficulties[difficulty]

    @property
    def difficulty_names(self) -> tuple[str, ...]:
        return tuple(self.difficulties)


def _get(data: dict, path: str, kind, where: str):
    node = data
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            raise RulesetError(f"ruleset {where}: missing key '{path}'")
        node = node[key]
    if kind is int and (isinstance(node, bool) or not isinstance(node, int)):
        raise RulesetError(f"ruleset {where}: key '{path}' must be a whole number, not {node!r}")
    if kind is not int and not isinstance(node, kind):
        raise RulesetError(f"ruleset {where}: key '{path}' must be a {kind.__name__}, not {node!r}")
    return node


def parse_ruleset(data, where: str = "<data>") -> Ruleset:
    """Validate ruleset data (a dict as read from JSON). Raises :class:`RulesetError`
    naming the key that is missing or wrong."""
    if not isinstance(data, dict):
        raise RulesetError(f"ruleset {where}: expected a JSON object at the top")
    difficulties = _get(data, "difficulties", dict, where)
    if not difficulties:
        raise RulesetError(f"ruleset {where}: key 'difficulties' lists no difficulty")
    for name in difficulties:
        health = _get(data, f"difficulties.{name}", int, where)
        if health < 1:
            raise RulesetError(f"ruleset {where}: key 'difficulties.{name}' must be at least 1")
    if len(difficulties) > 4:
        raise RulesetError(f"ruleset {where}: key 'difficulties' lists more than the 4 a challenge code can carry")
    default = _get(data, "default_difficulty", str, where)
    if default not in difficulties:
        raise RulesetError(f"ruleset {where}: key 'default_difficulty' names '{default}', "
                           f"not one of {', '.join(difficulties)}")
    suits = _get(data, "automa_suits", dict, where)
    for letter in "HDCS":
        move = _get(data, f"automa_suits.{letter}", str, where)
        if move not in AUTOMA_MOVES:
            raise RulesetError(f"ruleset {where}: key 'automa_suits.{letter}' must be one of "
                               f"{', '.join(AUTOMA_MOVES)}, not '{move}'")
    joker = _get(data, "revealed_joker_counts_as", str, where)
    if joker not in ("H", "D", "C", "S"):
        raise RulesetError(f"ruleset {where}: key 'revealed_joker_counts_as' must be a suit letter H D C S")
    rs = Ruleset(
        name=_get(data, "name", str, where),
        code_version=_get(data, "code_version", int, where),
        difficulties=MappingProxyType(dict(difficulties)),
        default_difficulty=default,
        ridges_min=_get(data, "ridges.min", int, where),
        ridges_max=_get(data, "ridges.max", int, where),
        ridges_default=_get(data, "ridges.default", int, where),
        hand_size=_get(data, "hand_size", int, where),
        start_altitude=_get(data, "start_altitude", int, where),
        max_altitude=_get(data, "max_altitude", int, where),
        mountain_clearance=_get(data, "mountain_clearance", int, where),
        guns_range=_get(data, "guns.range", int, where),
        guns_max_altitude=_get(data, "guns.max_altitude", int, where),
        guns_suppress_altitude=_get(data, "guns.suppress_at_altitude", int, where),
        artillery_reach_base=_get(data, "artillery_reach.base", int, where),
        artillery_reach_minimum=_get(data, "artillery_reach.minimum", int, where),
        throttle_bonus=_get(data, "throttle_bonus", int, where),
        automa_suits=MappingProxyType(dict(suits)),
        revealed_joker_counts_as=joker,
        reshuffles_allowed=_get(data, "reshuffles_allowed", int, where),
        reshuffle_damage=_get(data, "reshuffle_damage", int, where),
        face_entry_damage=_get(data, "face_entry_damage", int, where),
        score_bunker=_get(data, "score.bunker", int, where),
        score_artillery=_get(data, "score.artillery", int, where),
        score_damage=_get(data, "score.damage", int, where),
    )
    if not 1 <= rs.ridges_min <= rs.ridges_default <= rs.ridges_max <= 4:
        raise RulesetError(f"ruleset {where}: keys 'ridges.*' must satisfy 1 <= min <= default <= max <= 4")
    if not 0 < rs.code_version < 64:
        raise RulesetError(f"ruleset {where}: key 'code_version' must be 1-63")
    if not 0 <= rs.start_altitude <= rs.max_altitude:
        raise RulesetError(f"ruleset {where}: key 'start_altitude' must be within 0..max_altitude")
    return rs


@lru_cache(maxsize=None)
def load_ruleset(name: str = DEFAULT_RULESET) -> Ruleset:
    """The ruleset shipped under ``name``. Raises :class:`RulesetError` for an unknown name
    or a broken file."""
    if name not in ruleset_names():
        raise RulesetError(f"unknown ruleset '{name}': known rulesets are {', '.join(ruleset_names())}")
    path = resources.files(__package__).joinpath("rulesets", f"{name}.json")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RulesetError(f"ruleset {name}.json: not valid JSON ({exc})") from None
    rs = parse_ruleset(data, f"{name}.json")
    if rs.name != name:
        raise RulesetError(f"ruleset {name}.json: key 'name' says '{rs.name}'")
    return rs


@lru_cache(maxsize=None)
def ruleset_names() -> tuple[str, ...]:
    folder = resources.files(__package__).joinpath("rulesets")
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json")))


def ruleset_for_code_version(version: int) -> Ruleset | None:
    for name in ruleset_names():
        rs = load_ruleset(name)
        if rs.code_version == version:
            return rs
    return None
