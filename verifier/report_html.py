"""The HTML report of ``bgrid verify --html``: verdicts, score breakdowns, the board as inline
SVG (mountains, targets, craters, the bomber's path per turn, where damage was taken) and the
error highlighted. One self-contained file: no scripts, no network, autoescaped.
"""

from __future__ import annotations

from importlib import resources

import jinja2

from ..rules.board import COLUMN_LETTERS, SIZE
from .verdict import Verdict

CELL = 36  # pixels per cell
MARGIN = 30
DOT_STEP = 9  # pixels between damage dots in one cell
TURN_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22")


def _centre(cell) -> tuple[int, int]:
    return MARGIN + cell.column * CELL + CELL // 2, MARGIN + (cell.row - 1) * CELL + CELL // 2


def board_view(verdict: Verdict) -> dict | None:
    """Plain numbers and strings for the template's SVG; None when nothing was replayed."""
    t = verdict.trace
    if t is None or not t.bunkers:
        return None
    cells = []
    destroyed = set(t.destroyed)
    for cell in t.mountains:
        cells.append({"kind": "mountain", "x": _centre(cell)[0], "y": _centre(cell)[1], "name": str(cell)})
    for cell in t.bunkers:
        cells.append({"kind": "bunker-destroyed" if cell in destroyed else "bunker",
                      "x": _centre(cell)[0], "y": _centre(cell)[1], "name": str(cell)})
    for cell in t.artillery:
        cells.append({"kind": "artillery", "x": _centre(cell)[0], "y": _centre(cell)[1], "name": str(cell)})
    for cell in destroyed - set(t.bunkers):
        cells.append({"kind": "artillery-destroyed", "x": _centre(cell)[0], "y": _centre(cell)[1],
                      "name": str(cell)})
    for cell in t.craters:
        cells.append({"kind": "crater", "x": _centre(cell)[0], "y": _centre(cell)[1], "name": str(cell)})
    paths, current, turn = [], [], None

    def close() -> None:
        if len(current) > 1 or (current and turn is not None):
            paths.append({"turn": turn, "points": " ".join(f"{x},{y}" for x, y in current),
                          "colour": TURN_COLOURS[(turn - 1) % len(TURN_COLOURS)]})

    for step_turn, cell, is_entry in t.path:
        if step_turn != turn or is_entry:
            last = current[-1] if current else None
            close()
            # a turn's line starts where the last one ended, unless the bomber (re-)enters
            current = [] if is_entry or last is None else [last]
        turn = step_turn
        current.append(_centre(cell))
    close()
    damage, per_cell = [], {}
    for tn, c, cause in t.damage:
        if c is None:
            continue
        n = per_cell[c] = per_cell.get(c, -1) + 1
        # Several hits on one cell fill the cell's top corner, three to a row, right to left:
        # sliding each dot further left ran over the next cell (and off the board at column A).
        x, y = _centre(c)
        damage.append({"x": x - DOT_STEP * (n % 3), "y": y + DOT_STEP * (n // 3), "turn": tn, "cause": cause})
    error = None
    if verdict.errors and t.error_cell is not None:
        x, y = _centre(t.error_cell)
        error = {"x": x - CELL // 2, "y": y - CELL // 2, "name": str(t.error_cell)}
    bomber = None if t.bomber is None else dict(zip(("x", "y"), _centre(t.bomber)))
    size = 2 * MARGIN + SIZE * CELL
    legend = {}
    for p in paths:  # colours repeat every len(TURN_COLOURS) turns: say which turns each one draws
        legend.setdefault(p["colour"], []).append(p["turn"])
    return {"size": size, "cell": CELL, "margin": MARGIN, "cells": cells, "paths": paths,
            "damage": damage, "error": error, "bomber": bomber,
            "legend": [{"colour": colour, "turns": _turn_list(turns)} for colour, turns in legend.items()],
            "columns": [{"x": MARGIN + i * CELL + CELL // 2, "name": n} for i, n in enumerate(COLUMN_LETTERS)],
            "rows": [{"y": MARGIN + i * CELL + CELL // 2, "name": str(i + 1)} for i in range(SIZE)],
            "grid": [MARGIN + i * CELL for i in range(SIZE + 1)]}


def _environment() -> jinja2.Environment:
    folder = resources.files("bgrid.templates")
    return jinja2.Environment(loader=jinja2.FunctionLoader(
        lambda name: folder.joinpath(name).read_text(encoding="utf-8")),
        autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def _turn_list(turns: list[int]) -> str:
    turns = sorted(set(turns))
    shown = ", ".join(str(n) for n in turns[:12])
    return f"turn{'s' if len(turns) > 1 else ''} {shown}{', …' if len(turns) > 12 else ''}"


def error_view(error, source: str) -> dict:
    """One error in parts the page can lay out: the message wraps, the quoted line keeps its
    caret, and a long line is cut to a window around the caret (the terminal's own window,
    ``LogError.quote``) instead of scrolling sideways."""
    quote = error.quote()
    where = f"line {error.line}, column {error.column}" if error.line is not None else "the whole file"
    return {"where": where, "code": error.code, "name": error.name, "message": error.message,
            "quote": None if quote is None else "\n".join(quote), "rule": error.rule,
            "state": error.state, "legal": list(error.legal)}


def render_report(verdicts: list[Verdict]) -> str:
    """The whole report: a table of the logs, then one section per log."""
    items = []
    for v in verdicts:
        items.append({"v": v.as_dict(), "summary": v.summary(), "board": board_view(v),
                      "breakdown": v.score.breakdown() if v.score is not None else "",
                      "errors": [error_view(e, v.source) for e in v.errors]})
    counts = {k: sum(1 for v in verdicts if v.verdict == k) for k in ("valid", "invalid", "incomplete")}
    return _environment().get_template("report.html.j2").render(items=items, counts=counts)
