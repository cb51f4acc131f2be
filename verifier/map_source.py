"""The mission a log's header names: map, ruleset, difficulty and, for a challenge, the deck.

Four sources (``docs/log-format.md``, Header): a challenge code (map, difficulty and deck
order, R25/R26), a seed (map only; the player's own shuffled deck), hand setup cards
(R1–R3, R27) and an explicit map. Errors come back as :class:`LogError` at the header line
that caused them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..rules.cards import Card
from ..rules.errors import BGridError, ChallengeCodeError
from ..challenges.mission import map_from_spec, mission_from_code, validate_spec
from ..rules.ruleset import DEFAULT_RULESET, Ruleset, load_ruleset
from ..rules.setup import GameMap, SetupError, build_map_from_setup_lines
from .messages import LogError
from .statements import Header, ParsedLog


@dataclass(frozen=True)
class MissionSource:
    """What the replay starts from. ``deck`` is None for the player's own deck."""

    game_map: GameMap
    ruleset: Ruleset
    difficulty: str
    deck: tuple[Card, ...] | None
    reshuffle: tuple[int, ...] | None
    code: str | None = None

    @property
    def health(self) -> int:
        return self.ruleset.health(self.difficulty)

    @property
    def assurance(self) -> str:
        """"exact" when every card was fixed in advance (challenge deck), else "consistent"."""
        return "exact" if self.deck is not None else "consistent"

    def map_key(self) -> str:
        """The map in one canonical line, for the verification id."""
        return self._map_key

    @cached_property  # a remembered source (see mission_source) prints its map once
    def _map_key(self) -> str:
        m = self.game_map
        return (f"M:{' '.join(map(str, sorted(m.mountains)))}|B:{' '.join(map(str, m.bunkers))}"
                f"|A:{' '.join(map(str, m.artillery))}|deck:{'challenge' if self.deck else 'own'}")


def source_text(h: Header) -> str | None:
    """The header's map source in words, for the verdict: ``challenge 0M00-0001-WR3``,
    ``seed 1944, 2 ridges``, ``setup cards``, ``explicit map``; None before it is known."""
    if h.source == "challenge":
        return f"challenge {h.challenge}"
    if h.source == "seed":
        return f"seed {h.seed}" + ("" if h.ridges is None else f", {h.ridges} ridge{'s' * (h.ridges != 1)}")
    return {"setup": "setup cards", "map": "explicit map"}.get(h.source)


def _fail(log: ParsedLog, key: str, code: str, message: str, *, at_value: bool = True) -> LogError:
    entry = log.header.entry(key)
    if entry is None:
        return LogError(code, message)
    column = entry.value_column if at_value else entry.key_column
    token = entry.value if at_value else key
    return LogError(code, message, line=entry.line, column=column, token=token,
                    text=log.line_text(entry.line))


_SOURCES_KEPT = 64


def mission_source(log: ParsedLog, remembered: dict[tuple, MissionSource] | None = None) -> MissionSource:
    """Build the mission of ``log``'s header. Raises :class:`LogError` (E127–E130).

    ``remembered`` (a ``Verifier``'s memo): missions built from a challenge code or a seed, by
    the header values that fixed them; a folder of logs often holds many runs of one
    challenge, and building a mission (shuffles, map) costs more than reading a whole log.
    The same values always give the same source (``mission_from_spec`` is deterministic); a
    header that fails is never remembered. Bounded, oldest out first."""
    h: Header = log.header
    key: tuple[str | int | None, ...]
    if h.source == "challenge":
        key = ("challenge", h.challenge, h.ruleset)
    elif h.source == "seed":
        key = ("seed", h.seed, h.ridges, h.difficulty, h.ruleset)
    else:  # hand setups and explicit maps are rare and cheap enough: built each time
        return _build(log)
    if remembered is None:
        return _build(log)
    source = remembered.get(key)
    if source is None:
        source = _build(log)
        if len(remembered) >= _SOURCES_KEPT:
            del remembered[next(iter(remembered))]
        remembered[key] = source
    return source


def _build(log: ParsedLog) -> MissionSource:
    h: Header = log.header
    if h.source == "challenge":
        assert h.challenge is not None  # the parser reads a challenge header's code
        try:
            mission = mission_from_code(h.challenge)
        except ChallengeCodeError as exc:
            raise _fail(log, "challenge", "E128", str(exc)) from None
        if h.ruleset is not None and h.ruleset != mission.spec.ruleset:
            raise _fail(log, "ruleset", "E127", f"ruleset '{h.ruleset}' disagrees with the challenge "
                        f"code, which is for {mission.spec.ruleset}")
        return MissionSource(mission.game_map, mission.ruleset, mission.spec.difficulty,
                             mission.deck, mission.reshuffle, mission.code)
    ruleset = _ruleset(log)
    difficulty = ruleset.default_difficulty if h.difficulty is None else h.difficulty
    if difficulty not in ruleset.difficulties:
        raise _fail(log, "difficulty", "E127", f"unknown difficulty '{difficulty}': expected one of "
                    f"{', '.join(ruleset.difficulties)}")
    if h.source == "seed":
        assert h.seed is not None  # the parser reads a seed header's seed
        try:
            spec = validate_spec(ruleset, difficulty, h.ridges, h.seed)
        except BGridError as exc:
            key = "ridges" if "ridge" in str(exc) else "seed"
            raise _fail(log, key, "E127", str(exc)) from None
        return MissionSource(map_from_spec(spec)[0], ruleset, difficulty, None, None)
    if h.source == "setup":
        try:
            game_map = build_map_from_setup_lines(h.setup_ridges, h.setup_bunkers, h.setup_artillery)
        except SetupError as exc:
            text = str(exc)
            key = ("setup bunkers" if "bunker" in text or "target" in text else
                   "setup artillery" if "artillery" in text else "setup ridge")
            raise _fail(log, key, "E129", text) from None
        return MissionSource(game_map, ruleset, difficulty, None, None)
    mountains, bunkers, artillery = h.map_mountains, h.map_bunkers, h.map_artillery
    # the parser accepts an explicit map only with all three of its lines (E126)
    assert mountains is not None and bunkers is not None and artillery is not None
    repeat = _first_repeat(mountains)
    if repeat is not None:
        raise _repeated_cell(log, repeat)
    game_map = GameMap(frozenset(mountains), tuple(bunkers), tuple(artillery))
    problems = game_map.problems()
    if problems:
        key = "map artillery" if "artillery" in problems[0] and "bunker" not in problems[0] else "map bunkers"
        raise _fail(log, key, "E130", "; ".join(problems))
    return MissionSource(game_map, ruleset, difficulty, None, None)


def _first_repeat(cells) -> int | None:
    """The index of the first cell written a second time, or None. One pass: a 1 MiB line
    holds some 350,000 cells."""
    seen = set()
    for index, cell in enumerate(cells):
        if cell in seen:
            return index
        seen.add(cell)
    return None


def _repeated_cell(log: ParsedLog, index: int) -> LogError:
    """E130 with the caret under the repeated cell, not the whole line."""
    mountains = log.header.map_mountains
    assert mountains is not None  # the cell was found repeated in that list
    cell = mountains[index]
    entry = log.header.entry("map mountains")
    message = f"mountain cell {cell} is listed twice"
    if entry is None or len(entry.tokens) != len(mountains):
        return _fail(log, "map mountains", "E130", message)
    token = entry.tokens[index]
    return LogError("E130", message, line=entry.line, column=token.column, token=token.text,
                    text=log.line_text(entry.line))


def _ruleset(log: ParsedLog) -> Ruleset:
    name = log.header.ruleset or DEFAULT_RULESET
    try:
        return load_ruleset(name)
    except BGridError as exc:
        raise _fail(log, "ruleset", "E127", str(exc)) from None
