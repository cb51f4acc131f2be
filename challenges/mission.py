"""A mission: the ruleset, the difficulty, the map and (for a seeded mission) the deck order,
with where it came from.

A log header names its mission by a challenge code, a seed, the setup cards drawn by hand
(R1–R3, R27) or an explicit map (``docs/log-format.md``, Header); a blank sheet names none
yet. :class:`Mission` is the one value all of them give, built here once: by
:func:`mission_from_code`, :func:`mission_from_seed`, :func:`mission_from_setup`,
:func:`mission_from_map`, :func:`blank_mission`, or from a parsed header by
:func:`mission_from_header`. It makes the first state (:meth:`Mission.start`); the header
lines that name it are the log writer's (``log.writer.mission_lines``).

A seeded mission (a challenge or a seed) is the seeded setup of R1–R5 with the challenge
deck of R25/R26; a hand setup or an explicit map has no known deck order, and a blank one
has no map yet either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, ClassVar

from ..rules.cards import Card
from ..rules.engine import new_game
from ..rules.errors import BGridError, ChallengeCodeError
from ..rules.ruleset import DEFAULT_RULESET, Ruleset, find_ruleset, load_ruleset
from ..rules.board import Cell
from ..rules.setup import GameMap, SetupError, build_map, build_map_from_setup_lines
from ..rules.state import GameState
from .codes import ChallengeSpec, check_seed, decode_code, encode_code
from .seeding import jokers_adjacent, reshuffle_numbers, shuffled_deck

if TYPE_CHECKING:  # the log's header, read above this layer (log.reader)
    from ..log.notation import Header


# -- where a mission came from -----------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ChallengeOrigin:
    """A challenge code: map, difficulty and deck order (R25)."""

    spec: ChallengeSpec
    kind: ClassVar[str] = "challenge"

    @property
    def code(self) -> str:
        return encode_code(self.spec)


@dataclass(frozen=True, slots=True)
class SeedOrigin:
    """A seed, ridge count and difficulty: the seeded map, played with the player's own deck
    (the sheet also offers the seed's challenge deck order, R25)."""

    spec: ChallengeSpec
    kind: ClassVar[str] = "seed"


@dataclass(frozen=True, slots=True)
class SetupOrigin:
    """A map set up by hand from the cards drawn (R1–R3, R27): a card list a ridge, the
    bunkers' and the artillery's, as drawn."""

    ridges: tuple[tuple[Card, ...], ...]
    bunkers: tuple[Card, ...]
    artillery: tuple[Card, ...]
    kind: ClassVar[str] = "setup"


@dataclass(frozen=True, slots=True)
class MapOrigin:
    """An explicit map: mountains, bunkers and artillery by cell."""

    kind: ClassVar[str] = "map"


@dataclass(frozen=True, slots=True)
class BlankOrigin:
    """No map yet: the player draws the setup cards at the table (R1–R5)."""

    kind: ClassVar[str] = "blank"


Origin = ChallengeOrigin | SeedOrigin | SetupOrigin | MapOrigin | BlankOrigin


class MissionError(BGridError):
    """A header that names no mission that can be built. ``key`` is the header key at
    fault; ``problem`` what is wrong: ``ruleset`` (the ruleset, difficulty, seed or ridge
    count), ``code`` (the challenge code), ``setup`` (the setup cards) or ``map`` (the
    explicit map); ``index`` the token at fault within the key's line, when one is."""

    def __init__(self, message: str, key: str, problem: str, index: int | None = None) -> None:
        super().__init__(message)
        self.key, self.problem, self.index = key, problem, index


# -- the mission -------------------------------------------------------------------------

@dataclass(frozen=True)
class Mission:
    """``difficulty`` is None only for a blank mission on which the player picks it at the
    table; ``game_map`` is None only for a blank mission. ``given_deck`` and
    ``given_reshuffle``: a deck order the builder names outright (a hand-built challenge, a
    map played on a seed's deck); :attr:`deck` and :attr:`reshuffle` read them, or for a
    seeded mission without them the seed's own. ``setup``: a seeded mission's setup draws
    ``{"ridges": [[Card]], "bunkers": [Card], "artillery": [Card]}`` in draw order."""

    origin: Origin
    ruleset: Ruleset
    difficulty: str | None
    game_map: GameMap | None
    given_deck: tuple[Card, ...] | None = None
    given_reshuffle: tuple[int, ...] | None = None
    setup: dict | None = None

    @cached_property  # on first use: a verifier reading a seed log never deals its deck
    def _deck_order(self) -> tuple[tuple[Card, ...], tuple[int, ...]] | None:
        if self.given_deck is not None and self.given_reshuffle is not None:
            return self.given_deck, self.given_reshuffle
        origin = self.origin
        if not isinstance(origin, (ChallengeOrigin, SeedOrigin)):
            return None
        return seeded_deck_order(origin.spec)

    @property
    def deck(self) -> tuple[Card, ...] | None:
        """The challenge deck, top first (R25); None without a known deck order."""
        order = self._deck_order
        return None if order is None else order[0]

    @property
    def reshuffle(self) -> tuple[int, ...] | None:
        """Each deck position's reshuffle number (R26); None without a known deck order."""
        order = self._deck_order
        return None if order is None else order[1]

    @property
    def spec(self) -> ChallengeSpec:
        """The seeded mission's ruleset, difficulty, ridges and seed."""
        if not isinstance(self.origin, (ChallengeOrigin, SeedOrigin)):
            raise ValueError(f"a mission from {self.origin.kind} has no seed")
        return self.origin.spec

    @property
    def is_seeded(self) -> bool:
        return isinstance(self.origin, (ChallengeOrigin, SeedOrigin))

    @property
    def is_challenge(self) -> bool:
        """Named by a challenge code, so played with the challenge deck (R25)."""
        return isinstance(self.origin, ChallengeOrigin)

    @cached_property  # a verifier asks once a log, and a folder holds many runs of one mission
    def code(self) -> str | None:
        """The challenge code of a seeded mission (a seed has one too: R25), else None."""
        origin = self.origin
        return encode_code(origin.spec) if isinstance(origin, (ChallengeOrigin, SeedOrigin)) else None

    @property
    def health(self) -> int | None:
        return None if self.difficulty is None else self.ruleset.health(self.difficulty)

    @property
    def ridge_count(self) -> int | None:
        if isinstance(self.origin, (ChallengeOrigin, SeedOrigin)):
            return self.origin.spec.ridges
        if isinstance(self.origin, SetupOrigin):
            return len(self.origin.ridges)
        return None

    @property
    def map_line(self) -> str:
        """The map in one canonical line, ``M:<mountains, sorted>|B:<bunkers>|A:<artillery>``
        (the verification id hashes it)."""
        # kept in the instance's dict as cached_property keeps it, but without its lock, which
        # Python 3.11 takes on every first use: most of the cost for a mission read once (the
        # verifier builds an explicit map's mission afresh for each log)
        line: str | None = self.__dict__.get("_map_line")
        if line is None:
            m = self.game_map
            line = self.__dict__["_map_line"] = "M:|B:|A:" if m is None else m.line()
        return line

    def challenge_deck(self) -> tuple[tuple[Card, ...], tuple[int, ...]]:
        """The challenge deck, top first (R25), and each position's reshuffle number (R26).
        Raises :class:`BGridError` for a mission with no known deck order."""
        order = self._deck_order
        if order is None:
            raise BGridError(f"a mission from {self.origin.kind} has no challenge deck")
        return order

    def as_challenge(self) -> Mission:
        """A seeded mission named by its challenge code (a log of its challenge deck)."""
        return replace(self, origin=ChallengeOrigin(self.spec))

    def as_seed(self) -> Mission:
        """A seeded mission named by its seed (a log of the player's own deck)."""
        return replace(self, origin=SeedOrigin(self.spec))

    def start(self, challenge_deck: bool | None = None) -> GameState:
        """The first state: with the challenge deck (R25) or the player's own deck.
        ``challenge_deck`` defaults to what the origin plays: a challenge code its deck,
        anything else the player's own."""
        if self.game_map is None or self.difficulty is None:
            raise BGridError("a blank mission has no map or difficulty to start from")
        if self.is_challenge if challenge_deck is None else challenge_deck:
            deck, numbers = self.challenge_deck()
            return new_game(self.game_map, self.ruleset, self.difficulty, deck, numbers)
        return new_game(self.game_map, self.ruleset, self.difficulty)


# -- builders ----------------------------------------------------------------------------

def validate_spec(ruleset: Ruleset, difficulty: str | None, ridges: int | None, seed: int) -> ChallengeSpec:
    """Fill defaults and check ranges; raises a :class:`MissionError` naming the bad value."""
    difficulty = ruleset.default_difficulty if difficulty is None else difficulty.lower()
    if difficulty not in ruleset.difficulties:
        raise MissionError(f"unknown difficulty '{difficulty}': expected one of "
                           f"{', '.join(ruleset.difficulties)}", "difficulty", "ruleset")
    ridges = ruleset.ridges_default if ridges is None else ridges
    if not ruleset.ridges_min <= ridges <= ruleset.ridges_max:
        raise MissionError(f"ridge count {ridges} is out of range: expected "
                           f"{ruleset.ridges_min} to {ruleset.ridges_max}", "ridges", "ruleset")
    try:
        check_seed(seed)
    except BGridError as exc:
        raise MissionError(str(exc), "seed", "ruleset") from None
    return ChallengeSpec(ruleset.name, difficulty, ridges, seed)


def _seeded(spec: ChallengeSpec, origin: ChallengeOrigin | SeedOrigin, rs: Ruleset | None = None) -> Mission:
    """The seeded mission: two setup draws (R5) and the map (R1–R3), each from its own
    seeded stream (``challenges.seeding``); its deck order is dealt on first use
    (:func:`seeded_deck_order`). ``rs``: the ruleset ``spec`` names, when the caller holds
    it already."""
    rs = load_ruleset(spec.ruleset) if rs is None else rs
    ridge_draw = shuffled_deck(rs.name, "ridge-draw", spec.seed)
    target_draw = shuffled_deck(rs.name, "target-draw", spec.seed)
    game_map, record = build_map(ridge_draw, target_draw, spec.ridges)
    return Mission(origin, rs, spec.difficulty, game_map, setup=record)


def seeded_deck_order(spec: ChallengeSpec) -> tuple[tuple[Card, ...], tuple[int, ...]]:
    """The play deck of ``spec``'s seed, top first (R25), and each position's reshuffle
    number (R26), from their own seeded streams."""
    deck = tuple(shuffled_deck(spec.ruleset, "play-deck", spec.seed))
    return deck, tuple(jokers_adjacent(reshuffle_numbers(spec.ruleset, spec.seed), deck))


def mission_from_spec(spec: ChallengeSpec) -> Mission:
    """The challenge of ``spec`` (a decoded code, a dated challenge)."""
    return _seeded(spec, ChallengeOrigin(spec))


def mission_from_code(code: str) -> Mission:
    """The challenge a code names. Raises :class:`ChallengeCodeError`."""
    return mission_from_spec(decode_code(code))


def mission_from_seed(seed: int, difficulty: str | None = None, ridges: int | None = None,
                      ruleset: str = DEFAULT_RULESET) -> Mission:
    """The seeded map of ``seed``. Raises :class:`MissionError` for a value out of range."""
    spec = validate_spec(load_ruleset(ruleset), difficulty, ridges, seed)
    return _seeded(spec, SeedOrigin(spec))


def mission_from_setup(ruleset: Ruleset, difficulty: str, ridge_cards: Sequence[Sequence[Card]],
                       bunker_cards: Sequence[Card], artillery_cards: Sequence[Card]) -> Mission:
    """A map set up by hand from the cards drawn (R1–R3, R27); the deck order is the
    player's. Raises :class:`MissionError` (problem ``setup``) naming the line at fault."""
    try:
        game_map = build_map_from_setup_lines(ridge_cards, bunker_cards, artillery_cards)
    except SetupError as exc:
        text = str(exc)
        key = ("setup bunkers" if "bunker" in text or "target" in text else
               "setup artillery" if "artillery" in text else "setup ridge")
        raise MissionError(text, key, "setup") from None
    origin = SetupOrigin(tuple(tuple(r) for r in ridge_cards), tuple(bunker_cards), tuple(artillery_cards))
    return Mission(origin, ruleset, difficulty, game_map)


def mission_from_map(ruleset: Ruleset, difficulty: str, mountains: Sequence[Cell], bunkers: Sequence[Cell],
                     artillery: Sequence[Cell]) -> Mission:
    """An explicit map; the deck order is the player's. Raises :class:`MissionError`
    (problem ``map``) for a cell listed twice or a map setup could not give."""
    mountain_cells = frozenset(mountains)
    # the set is built anyway; only a repeat it reveals needs the walk that names it
    repeat = _first_repeat(mountains) if len(mountain_cells) != len(mountains) else None
    if repeat is not None:
        raise MissionError(f"mountain cell {mountains[repeat]} is listed twice", "map mountains", "map",
                           index=repeat)
    game_map = GameMap(mountain_cells, tuple(bunkers), tuple(artillery))
    problems = game_map.problems()
    if problems:
        key = "map artillery" if "artillery" in problems[0] and "bunker" not in problems[0] else "map bunkers"
        raise MissionError("; ".join(problems), key, "map")
    return Mission(MapOrigin(), ruleset, difficulty, game_map)


def blank_mission(ruleset: Ruleset, difficulty: str | None = None) -> Mission:
    """No map yet: the player draws the setup cards at the table (R1–R5)."""
    return Mission(BlankOrigin(), ruleset, difficulty, None)


def mission_from_header(h: Header, rulesets: Mapping[str, Ruleset] | None = None) -> Mission:
    """The mission a parsed log header names. Raises :class:`MissionError` with the header
    key at fault. ``rulesets``: rulesets the caller holds besides the shipped ones (a
    variant), by name."""
    if h.source == "challenge":
        assert h.challenge is not None  # the parser reads a challenge header's code
        try:
            mission = mission_from_code(h.challenge)
        except ChallengeCodeError as exc:
            raise MissionError(str(exc), "challenge", "code") from None
        if h.ruleset is not None and h.ruleset != mission.ruleset.name:
            raise MissionError(f"ruleset '{h.ruleset}' disagrees with the challenge code, which is "
                               f"for {mission.ruleset.name}", "ruleset", "ruleset")
        return mission
    try:
        ruleset = find_ruleset(h.ruleset or DEFAULT_RULESET, rulesets)
    except BGridError as exc:
        raise MissionError(str(exc), "ruleset", "ruleset") from None
    difficulty = ruleset.default_difficulty if h.difficulty is None else h.difficulty
    if difficulty not in ruleset.difficulties:
        raise MissionError(f"unknown difficulty '{difficulty}': expected one of "
                           f"{', '.join(ruleset.difficulties)}", "difficulty", "ruleset")
    if h.source == "seed":
        assert h.seed is not None  # the parser reads a seed header's seed
        spec = validate_spec(ruleset, difficulty, h.ridges, h.seed)
        return _seeded(spec, SeedOrigin(spec), ruleset)
    if h.source == "setup":
        assert h.setup_bunkers is not None and h.setup_artillery is not None  # E126 otherwise
        return mission_from_setup(ruleset, difficulty, h.setup_ridges, h.setup_bunkers, h.setup_artillery)
    # the parser accepts an explicit map only with all three of its lines (E126)
    assert h.map_mountains is not None and h.map_bunkers is not None and h.map_artillery is not None
    return mission_from_map(ruleset, difficulty, h.map_mountains, h.map_bunkers, h.map_artillery)


def _first_repeat(cells: Iterable[Cell]) -> int | None:
    """The index of the first cell written a second time, or None. One pass: a 1 MiB line
    holds some 350,000 cells."""
    seen = set()
    for index, cell in enumerate(cells):
        if cell in seen:
            return index
        seen.add(cell)
    return None
