"""A mission's map as text: the ASCII board for the terminal and the JSON record."""

from __future__ import annotations

from ..rules.board import COLUMN_LETTERS, SIZE, Cell
from ..challenges.mission import Mission

def ascii_board(mission: Mission) -> str:
    """The board with coordinates: M mountain, B bunker, 1-4 the artillery by number (its
    placement order, R43, as the sheet, the companion and the log's art checks number it),
    . open."""
    m = mission.game_map
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
    """The JSON record of ``bgrid map --json``; targets in placement order, deck top first."""
    m = mission.game_map
    names = lambda cells: [str(c) for c in cells]  # noqa: E731
    cards = lambda seq: [str(c) for c in seq]  # noqa: E731
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
            "ridges": [cards(used) for used in mission.setup["ridges"]],
            "bunkers": cards(mission.setup["bunkers"]),
            "artillery": cards(mission.setup["artillery"]),
        },
        "deck": cards(mission.deck),
        "reshuffle_numbers": list(mission.reshuffle),
    }
