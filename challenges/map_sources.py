"""A mission as any of the four map sources names it, or one still to be set up at the table.

A log header names its mission by a challenge code, a seed, the setup cards drawn by hand
(R1–R3, R27) or an explicit map (``docs/log-format.md``, Header). :class:`MapSource` holds
what each of them fixes, so a printable can be made for any mission a log can name: the
map, the ruleset and difficulty, and — for a challenge or a seed — the seeded
:class:`Mission` with its deck order (R25, R26). A hand setup or an explicit map has no
known deck order; a blank source has no map yet either.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.cards import Card
from ..rules.ruleset import Ruleset
from ..rules.setup import GameMap
from .mission import Mission

KINDS = ("challenge", "seed", "setup", "map", "blank")


@dataclass(frozen=True)
class MapSource:
    """``kind`` is one of :data:`KINDS`. ``difficulty`` is None only for a blank source on
    which the player picks it at the table; ``game_map`` is None only for a blank source.
    ``setup_cards`` are the hand setup's lines (one card list a ridge, the bunkers', the
    artillery's), as drawn. ``mission`` is the seeded mission of a challenge or a seed."""

    kind: str
    ruleset: Ruleset
    difficulty: str | None
    game_map: GameMap | None
    mission: Mission | None = None
    setup_cards: tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], tuple[Card, ...]] | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown map source kind {self.kind!r}")

    @property
    def health(self) -> int | None:
        return None if self.difficulty is None else self.ruleset.health(self.difficulty)

    @property
    def code(self) -> str | None:
        """The challenge code, for a seeded mission (a seed has one too: R25)."""
        return None if self.mission is None else self.mission.code

    @property
    def ridge_count(self) -> int | None:
        if self.mission is not None:
            return self.mission.spec.ridges
        if self.setup_cards is not None:
            return len(self.setup_cards[0])
        return None

    def header_lines(self) -> list[str]:
        """The log header lines that name this mission (after ``bgrid-log: 1``); a blank
        source's are the keys, to be filled in at the table."""
        if self.kind == "challenge":
            return [f"challenge: {self.code}"]
        lines = []
        if self.kind == "seed":
            assert self.mission is not None  # a seed fixes the mission
            spec = self.mission.spec
            lines += [f"seed: {spec.seed}", f"ridges: {spec.ridges}"]
        elif self.kind == "setup":
            assert self.setup_cards is not None  # a hand setup is its cards
            ridges, bunkers, artillery = self.setup_cards
            lines += ["setup ridge: " + " ".join(map(str, cards)) for cards in ridges]
            lines += ["setup bunkers: " + " ".join(map(str, bunkers)),
                      "setup artillery: " + " ".join(map(str, artillery))]
        elif self.kind == "map":
            m = self.game_map
            assert m is not None  # only a blank source has no map
            lines += ["map mountains: " + " ".join(map(str, sorted(m.mountains))),
                      "map bunkers: " + " ".join(map(str, m.bunkers)),
                      "map artillery: " + " ".join(map(str, m.artillery))]
        else:
            lines += ["setup ridge: …", "setup bunkers: …", "setup artillery: …"]
        if self.difficulty is not None:
            lines.append(f"difficulty: {self.difficulty}")
        return lines


def challenge_source(mission: Mission) -> MapSource:
    """A challenge: map, difficulty and deck order from the code (R25)."""
    return MapSource("challenge", mission.ruleset, mission.spec.difficulty, mission.game_map, mission)


def seed_source(mission: Mission) -> MapSource:
    """A seeded map; the sheet also offers its challenge deck order (R25)."""
    return MapSource("seed", mission.ruleset, mission.spec.difficulty, mission.game_map, mission)


def setup_source(ruleset: Ruleset, difficulty: str, game_map: GameMap, ridge_cards, bunker_cards,
                 artillery_cards) -> MapSource:
    """A map set up by hand from the cards drawn (R1–R3, R27); the deck order is the player's."""
    cards = (tuple(tuple(r) for r in ridge_cards), tuple(bunker_cards), tuple(artillery_cards))
    return MapSource("setup", ruleset, difficulty, game_map, setup_cards=cards)


def explicit_source(ruleset: Ruleset, difficulty: str, game_map: GameMap) -> MapSource:
    """An explicit map; the deck order is the player's."""
    return MapSource("map", ruleset, difficulty, game_map)


def blank_source(ruleset: Ruleset, difficulty: str | None = None) -> MapSource:
    """No map yet: the player draws the setup cards at the table (R1–R5)."""
    return MapSource("blank", ruleset, difficulty, None)
