"""Rulesets: the tunable values of the rules, loaded from a data file and validated.

A variant is a new file in ``rulesets/``, not a code change. The standard ruleset is
``standard-1``; its ``code_version`` is the number a challenge code carries (R25).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from types import MappingProxyType
from typing import Any, TypeVar

from .cards import JOKER_RANK, RANK_LETTERS, RANK_WORDS, SUIT_LETTERS, Card
from .errors import RulesetError

T = TypeVar("T")

AUTOMA_MOVES = ("toward-bomber", "hold", "toward-bunker")
DEFAULT_RULESET = "standard-1"


class Play(enum.StrEnum):
    """What a card does when played (rulebook: Card Actions). Members equal their strings."""

    MOVE = "move"          # R9
    ALTITUDE = "altitude"  # R7
    GUNS = "guns"          # R15
    BOMB = "bomb"          # R16
    THROTTLE = "throttle"  # R11
    RESUPPLY = "resupply"  # R29
    WILD = "wild"          # R12: the Joker, played as the card it declares


#: How messages name a card of each play: "a movement card 2-5".
_PLAY_NOUNS = {Play.MOVE: "a movement card", Play.ALTITUDE: "an altitude card", Play.GUNS: "a guns card",
               Play.BOMB: "a bomb card", Play.THROTTLE: "a throttle card",
               Play.RESUPPLY: "a resupply card", Play.WILD: "a Joker"}


@dataclass(frozen=True, slots=True)
class CardKind:
    """One row of the card table (the ruleset's ``cards``): what a rank plays.

    ``points``: a movement card's movement points (R9) or an altitude card's change (R7), else
    0. ``precise``: a bomb card that hits by colour at any altitude, not only in the low band
    (the Ace, R16). ``label`` and ``effect``: the deck face's role and effect lines, with the
    ruleset's values filled in; an altitude label keeps ``{climb}`` and ``{sign}`` for the
    card's colour (:meth:`Ruleset.face_lines`).
    """

    rank: int
    play: Play
    points: int
    precise: bool
    label: str
    effect: str


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
    actions_per_turn: int  # R6: actions in a player phase (Kings are no action, R29)
    start_altitude: int
    max_altitude: int
    mountain_clearance: int
    guns_range: int
    guns_max_altitude: int
    guns_suppress_altitude: int
    artillery_reach_base: int
    artillery_reach_minimum: int
    throttle_bonus: int
    low_bombing_altitude: int  # R16: at or below it, any bomb card hits by colour
    artillery_damage: int  # R18: the damage of one Automa fire step
    automa_suits: MappingProxyType  # suit letter -> one of AUTOMA_MOVES (R19)
    revealed_joker_counts_as: str  # suit letter (R17)
    reshuffles_allowed: int
    reshuffle_damage: int
    face_entry_damage: int
    score_bunker: int
    score_artillery: int
    score_damage: int
    card_kinds: tuple[CardKind, ...]  # by rank: [0] the Joker, [1] the Ace … [13] the King

    def health(self, difficulty: str) -> int:
        return self.difficulties[difficulty]

    def artillery_reach(self, altitude: int) -> int:
        """How far the artillery fires at a bomber flying at ``altitude``: the base less the
        altitude, never below the minimum (R18; 4 - altitude, at least 1, in standard-1)."""
        return max(self.artillery_reach_minimum, self.artillery_reach_base - altitude)

    @cached_property
    def altitude_steps(self) -> tuple[int, ...]:
        """The altitude changes the altitude cards make, smallest first (1 and 2 in
        standard-1: 10/J and Q). Read on hot paths, so worked out once."""
        return tuple(sorted({k.points for k in self.card_kinds if k.play is Play.ALTITUDE}))

    def kind_of(self, card: Card) -> CardKind:
        """The card table's row for ``card`` as played (a declared Joker by its declaration)."""
        return self.card_kinds[card.acting.rank]

    def ranks_of(self, play: Play) -> tuple[int, ...]:
        """The ranks that make ``play``, in rank order with the Ace last (2 … K, A)."""
        return tuple(sorted((k.rank for k in self.card_kinds if k.play is play),
                            key=lambda r: r if r != 1 else 14))

    def play_words(self, play: Play) -> str:
        """How a message names the cards of ``play``: ``a movement card 2-5``, ``an altitude
        card 10, J or Q``, ``a bomb card 7, 8 or A``."""
        ranks = self.ranks_of(play)
        names = [RANK_LETTERS[r] for r in ranks]
        if play is Play.WILD:
            return _PLAY_NOUNS[play]
        if len(ranks) > 2 and ranks[-1] <= 10 and ranks == tuple(range(ranks[0], ranks[-1] + 1)):
            listed = f"{names[0]}-{names[-1]}"
        elif len(names) > 1:
            listed = f"{', '.join(names[:-1])} or {names[-1]}"
        else:
            listed = "".join(names)
        return f"{_PLAY_NOUNS[play]} {listed}".rstrip()

    def rank_names(self, *plays: Play) -> str:
        """How a sentence names the cards of ``plays`` by rank, in the order given: ``King or
        Joker`` for (resupply, wild) in standard-1, ``Queen, King or Joker`` if a variant's
        Queen resupplies too."""
        names = [RANK_WORDS[r] for play in plays for r in self.ranks_of(play)]
        if len(names) < 2:
            return "".join(names)
        return f"{', '.join(names[:-1])} or {names[-1]}"

    def aid_ranks(self, play: Play, *, points: int | None = None, precise: bool | None = None) -> str:
        """The ranks of ``play`` as the player aid prints them: ``2–5``, ``7 8``, ``10 J``;
        ``points`` and ``precise`` narrow the rows (the altitude cards of one change, the
        precise bomb cards)."""
        ranks = [r for r in self.ranks_of(play)
                 if (points is None or self.card_kinds[r].points == points)
                 and (precise is None or self.card_kinds[r].precise is precise)]
        names = [RANK_LETTERS[r] for r in ranks]
        if len(ranks) > 2 and ranks[-1] <= 10 and ranks == list(range(ranks[0], ranks[-1] + 1)):
            return f"{names[0]}–{names[-1]}"
        return " ".join(names)

    def face_lines(self, card: Card) -> tuple[str, str]:
        """(role line, effect line) for the face of ``card``: ``("6 · GUNS", "strafe
        artillery in line, range ≤ 3")``; the Joker's role starts ``JOKER``."""
        kind = self.card_kinds[card.rank]
        name = "JOKER" if card.is_joker else str(card)[:-1]
        label = kind.label.format(climb="CLIMB" if card.is_red else "DESCEND",
                                  sign="+" if card.is_red else "−")
        return f"{name} · {label}", kind.effect

    @property
    def difficulty_names(self) -> tuple[str, ...]:
        return tuple(self.difficulties)


def _get(data: dict, path: str, kind: type[T], where: str) -> T:
    node: Any = data
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            raise RulesetError(f"ruleset {where}: missing key '{path}'")
        node = node[key]
    if kind is int and (isinstance(node, bool) or not isinstance(node, int)):
        raise RulesetError(f"ruleset {where}: key '{path}' must be a whole number, not {node!r}")
    if kind is not int and not isinstance(node, kind):
        raise RulesetError(f"ruleset {where}: key '{path}' must be a {kind.__name__}, not {node!r}")
    return node


def parse_ruleset(data: object, where: str = "<data>") -> Ruleset:
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
        raise RulesetError(f"ruleset {where}: key 'difficulties' lists more than the 4 a challenge code "
                           "can carry")
    default = _get(data, "default_difficulty", str, where)
    if default not in difficulties:
        raise RulesetError(f"ruleset {where}: key 'default_difficulty' names '{default}', "
                           f"not one of {', '.join(difficulties)}")
    suits = _get(data, "automa_suits", dict, where)
    for letter in SUIT_LETTERS:
        move = _get(data, f"automa_suits.{letter}", str, where)
        if move not in AUTOMA_MOVES:
            raise RulesetError(f"ruleset {where}: key 'automa_suits.{letter}' must be one of "
                               f"{', '.join(AUTOMA_MOVES)}, not '{move}'")
    cards = _get(data, "cards", dict, where)
    joker = _get(data, "revealed_joker_counts_as", str, where)
    if joker not in SUIT_LETTERS:
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
        actions_per_turn=_get(data, "actions_per_turn", int, where),
        start_altitude=_get(data, "start_altitude", int, where),
        max_altitude=_get(data, "max_altitude", int, where),
        mountain_clearance=_get(data, "mountain_clearance", int, where),
        guns_range=_get(data, "guns.range", int, where),
        guns_max_altitude=_get(data, "guns.max_altitude", int, where),
        guns_suppress_altitude=_get(data, "guns.suppress_at_altitude", int, where),
        artillery_reach_base=_get(data, "artillery_reach.base", int, where),
        artillery_reach_minimum=_get(data, "artillery_reach.minimum", int, where),
        throttle_bonus=_get(data, "throttle_bonus", int, where),
        low_bombing_altitude=_get(data, "low_bombing_altitude", int, where),
        artillery_damage=_get(data, "artillery_damage", int, where),
        automa_suits=MappingProxyType(dict(suits)),
        revealed_joker_counts_as=joker,
        reshuffles_allowed=_get(data, "reshuffles_allowed", int, where),
        reshuffle_damage=_get(data, "reshuffle_damage", int, where),
        face_entry_damage=_get(data, "face_entry_damage", int, where),
        score_bunker=_get(data, "score.bunker", int, where),
        score_artillery=_get(data, "score.artillery", int, where),
        score_damage=_get(data, "score.damage", int, where),
        card_kinds=_card_kinds(data, cards, where),
    )
    if not 1 <= rs.ridges_min <= rs.ridges_default <= rs.ridges_max <= 4:
        raise RulesetError(f"ruleset {where}: keys 'ridges.*' must satisfy 1 <= min <= default <= max <= 4")
    if not 0 < rs.code_version < 64:
        raise RulesetError(f"ruleset {where}: key 'code_version' must be 1-63")
    if not 0 <= rs.start_altitude <= rs.max_altitude:
        raise RulesetError(f"ruleset {where}: key 'start_altitude' must be within 0..max_altitude")
    return rs


def _card_kinds(data: dict, cards: dict, where: str) -> tuple[CardKind, ...]:
    """The ``cards`` table, one row per rank A-K and JK, by rank; effect texts filled in with
    the ruleset's values (``{guns_range}``, ``{throttle_bonus}``)."""
    unknown = sorted(set(cards) - set(RANK_LETTERS))
    if unknown:
        raise RulesetError(f"ruleset {where}: key 'cards.{unknown[0]}' is not a rank A 2-10 J Q K or JK")
    values = {"guns_range": data["guns"]["range"], "throttle_bonus": data["throttle_bonus"]}
    plays = ", ".join(Play)
    kinds = []
    for rank, key in enumerate(RANK_LETTERS):
        path = f"cards.{key}"
        try:
            play = Play(_get(data, f"{path}.play", str, where))
        except ValueError:
            raise RulesetError(f"ruleset {where}: key '{path}.play' must be one of {plays}") from None
        if (play is Play.WILD) != (rank == JOKER_RANK):
            raise RulesetError(f"ruleset {where}: key '{path}.play': only the Joker is wild")
        points = 0
        if play in (Play.MOVE, Play.ALTITUDE):
            points = _get(data, f"{path}.points", int, where)
            if points < 1:
                raise RulesetError(f"ruleset {where}: key '{path}.points' must be at least 1")
        precise = cards[key].get("precise", False)
        if not isinstance(precise, bool):
            raise RulesetError(f"ruleset {where}: key '{path}.precise' must be true or false")
        try:
            effect = _get(data, f"{path}.effect", str, where).format(**values)
            label = _get(data, f"{path}.label", str, where)
            label.format(climb="", sign="")
        except (KeyError, IndexError, ValueError) as exc:
            raise RulesetError(f"ruleset {where}: key '{path}' names an unknown value {exc}") from None
        kinds.append(CardKind(rank, play, points, precise, label, effect))
    if not any(k.play is Play.MOVE for k in kinds):
        raise RulesetError(f"ruleset {where}: key 'cards' has no movement card")
    return tuple(kinds)


@cache
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


def find_ruleset(name: str, extra: Mapping[str, Ruleset] | None = None) -> Ruleset:
    """The ruleset ``name``: one of ``extra`` (rulesets the caller holds, such as a variant
    being tried), else the one shipped under that name. Raises :class:`RulesetError`."""
    if extra is not None and name in extra:
        return extra[name]
    return load_ruleset(name)


@cache
def ruleset_names() -> tuple[str, ...]:
    folder = resources.files(__package__).joinpath("rulesets")
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json")))


def ruleset_for_code_version(version: int) -> Ruleset | None:
    for name in ruleset_names():
        rs = load_ruleset(name)
        if rs.code_version == version:
            return rs
    return None
