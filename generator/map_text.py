"""A mission's map as text: the ASCII board for the terminal and the JSON record."""

from __future__ import annotations

from collections.abc import Iterable

from ..rules.board import COLUMN_LETTERS, SIZE, Cell
from ..challenges.mission import Mission

def ascii_board(mission: Mission) -> str:
    """The board with coordinates: M mountain, B bunker, 1-4 the artillery by number (its
    placement order, R43, as the sheet, the companion and the log's art checks number it),
    . open."""
    m = mission.game_map
    assert m is not None  # a seeded mission has its map
    marks = {c: "M" for c in m.mountains}
    marks.update({c: "B" for c in m.bunkers})
    marks.update({c: str(n) for n, c in enumerate(m.artillery, start=1)})
    header = "    " + " ".join(COLUMN_LETTERS)
    lines = [header]
    for row in range(1, SIZE + 1):
        cells = (marks.get(Cell.at(col, row), ".") for col in range(SIZE))
        lines.append(f"{row:>3} " + " ".join(cells) + f"  {row}")
    lines.append(header)
    return "\n".join(lines)


def mission_summary(mission: Mission) -> str:
    spec = mission.spec
    return (f"Challenge code {mission.code}\n"
            f"seed {spec.seed} · {spec.difficulty} (health {mission.health}) · "
            f"{spec.ridges} ridge{'s' if spec.ridges != 1 else ''} · ruleset {spec.ruleset}")


def mission_json(mission: Mission) -> dict:
    """The JSON record of ``bgrid map --json``: the map (:func:`map_record`) and the deck order
    (:func:`deck_order_record`) in one, for the terminal that asked for both."""
    return map_record(mission) | {k: v for k, v in deck_order_record(mission).items() if k != "code"}


def map_record(mission: Mission) -> dict:
    """The map of a seeded mission, targets in placement order, with the setup draws (R1–R5,
    drawn from streams of their own, never the play deck): a pack's ``map.json``, which a player
    may open to check the map without seeing a card of the deck (its order is
    :func:`deck_order_record`, a file of its own)."""
    m, setup = mission.game_map, mission.setup
    assert m is not None and setup is not None  # a seeded mission has its map and setup draws
    names = lambda cells: [str(c) for c in cells]  # noqa: E731
    return {
        "code": mission.code,
        "ruleset": mission.spec.ruleset,
        "seed": mission.spec.seed,
        "difficulty": mission.spec.difficulty,
        "health": mission.health,
        "ridges": [{"from": str(r.start), "to": str(r.end)} for r in m.ridges],
        "mountains": names(sorted(m.mountains)),
        "bunkers": names(m.bunkers),
        "artillery": names(m.artillery),
        "setup": {
            "ridges": [_cards(used) for used in setup["ridges"]],
            "bunkers": _cards(setup["bunkers"]),
            "artillery": _cards(setup["artillery"]),
        },
    }


def deck_order_record(mission: Mission) -> dict:
    """The challenge deck top first (R25) and each position's reshuffle number (R26): a pack's
    ``deck-order.json``, what the sheet's face-down deck page prints. Public (R42), but one
    glance at it spoils blind play, so it is kept out of ``map.json``."""
    deck, numbers = mission.challenge_deck()
    return {"code": mission.code, "deck": _cards(deck), "reshuffle_numbers": list(numbers)}


def _cards(seq: Iterable[object]) -> list[str]:
    return [str(c) for c in seq]
