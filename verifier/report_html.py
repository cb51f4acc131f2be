"""The replay report of ``bgrid verify --html``: one self-contained page (no network,
autoescaped) that reads as a record of play.

Per log: the verdict, the score, the error, the notes and the damage ledger; the board large
(the bomber's path in one colour a turn, never repeated within a mission, with turn labels,
arrows, entry and exit marks and the facing; the artillery's trails with suppression and
destruction; damage markers with their cause; blocked moves and notes), and the log text
beside it with line numbers and the error line marked. Everything is on the page without
script; a small inline script steps through the mission turn by turn (``#log-1:turn=3`` in
the address opens log 1 at turn 3). The mission is drawn from the replay's history, so the
verdicts must come from ``verify_log(..., history=True)``; without it only the board where
the replay stopped is drawn.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple
from collections.abc import Iterable
from importlib import resources

import jinja2

from ..rules.artillery_pieces import ArtilleryPieces
from ..rules.automa_words import automa_card_text, no_step_text
from ..rules.board import COLUMN_LETTERS, FACING_STEP, FORWARD, SIZE, Cell, Facing
from ..rules.events import (ArtilleryMoved, Crater, Damage, Destroyed, Entered, Moved, Revealed,
                            Suppressed, TurnStarted)
from ..rules.ruleset import Ruleset
from ..rules.state import CardPurpose
from ..safeio.safe_text import html_text
from ..log.messages import LogError
from .replay_history import HistoryEntry
from .verdict import Verdict

CELL = 60  # pixels per cell: the board is 660 px wide
MARGIN = 30
DOT_STEP = 9  # pixels between damage dots in one cell
GOLDEN_ANGLE = 137.508  # hue step between turns: no two turns of a mission share a colour


def turn_colour(turn: int) -> str:
    return f"hsl({(turn - 1) * GOLDEN_ANGLE % 360:.0f}, 70%, 38%)"


def _centre(cell: Cell) -> tuple[int, int]:
    return MARGIN + cell.column * CELL + CELL // 2, MARGIN + (cell.row - 1) * CELL + CELL // 2


def _edge_point(cell: Cell, facing: str) -> tuple[int, int]:
    """Where a step from ``cell`` toward ``facing`` crosses the board's edge (an exit)."""
    x, y = _centre(cell)
    dx, dy = FACING_STEP[Facing(facing)]
    return x + dx * (CELL // 2 + MARGIN // 2), y + dy * (CELL // 2 + MARGIN // 2)


def _arrowhead(start: tuple[float, float], end: tuple[float, float], size: int = 9) -> str:
    """A triangle at ``end`` pointing away from ``start``."""
    (x0, y0), (x1, y1) = start, end
    length = max(1.0, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    bx, by = x1 - ux * size * 1.6, y1 - uy * size * 1.6
    return (f"{x1:.0f},{y1:.0f} {bx - uy * size:.0f},{by + ux * size:.0f} "
            f"{bx + uy * size:.0f},{by - ux * size:.0f}")


def _bomber_shape(cell: Cell, facing: str) -> str:
    """The bomber token: a triangle in its cell, nose toward ``facing``."""
    x, y = _centre(cell)
    dx, dy = FACING_STEP[Facing(facing)]
    nose = (x + dx * 16, y + dy * 16)
    return _arrowhead((x - dx * 14, y - dy * 14), nose, 11)


class _Board:
    """The drawing, element by element. Every element is shown from turn ``first`` on and
    until turn ``last`` (None: to the end); the page without script shows the end."""

    def __init__(self) -> None:
        self.items: list[dict] = []

    def add(self, kind: str, first: int, last: int | None = None, **fields: object) -> dict:
        item = {"kind": kind, "first": first, "last": last, **fields}
        self.items.append(item)
        return item


def board_view(verdict: Verdict) -> dict | None:
    """Numbers and strings for the template's SVG; None when no map was built."""
    t = verdict.trace
    if t is None or not t.bunkers:
        return None
    board = _Board()
    for cell in sorted(t.mountains):
        board.add("mountain", 0, x=_centre(cell)[0], y=_centre(cell)[1], name=str(cell))
    for cell in t.bunkers:
        board.add("bunker", 0, x=_centre(cell)[0], y=_centre(cell)[1], name=str(cell))
    history = verdict.history
    end_turn = 1
    paths: list[dict] = []
    damage: list[dict] = []
    if history is not None:
        end_turn = _draw_history(board, verdict, history, paths, damage)
    else:  # the board where the replay stopped, without the mission's course
        for cell in t.artillery:
            board.add("artillery", 0, x=_centre(cell)[0], y=_centre(cell)[1], name=str(cell))
        for cell in t.destroyed:
            kind = "bunker-destroyed" if cell in t.bunkers else "artillery-destroyed"
            board.add(kind, 0, x=_centre(cell)[0], y=_centre(cell)[1], name=str(cell), turn=None)
        for cell in t.craters:
            board.add("crater", 0, x=_centre(cell)[0], y=_centre(cell)[1], name=str(cell), turn=None)
    error = None
    if verdict.errors and t.error_cell is not None:
        x, y = _centre(t.error_cell)
        error = {"x": x - CELL // 2, "y": y - CELL // 2, "name": str(t.error_cell)}
    size = 2 * MARGIN + SIZE * CELL
    for item in board.items:
        item["shown"] = item["first"] <= end_turn and (item["last"] is None or item["last"] >= end_turn)
    return {"size": size, "cell": CELL, "margin": MARGIN, "marks": board.items, "paths": paths,
            "damage": damage, "error": error, "turns": end_turn,
            "legend": [{"colour": p["colour"], "turns": f"turn {p['turn']}"} for p in paths],
            "columns": [{"x": MARGIN + i * CELL + CELL // 2, "name": n}
                        for i, n in enumerate(COLUMN_LETTERS)],
            "rows": [{"y": MARGIN + i * CELL + CELL // 2, "name": str(i + 1)} for i in range(SIZE)],
            "grid": [MARGIN + i * CELL for i in range(SIZE + 1)]}


def _draw_history(board: _Board, verdict: Verdict, history: Iterable[HistoryEntry], paths: list,
                  damage: list) -> int:
    """The mission's course from the replay's history; returns the last turn drawn."""
    t = verdict.trace
    assert t is not None  # board_view draws a history only over a replayed board
    pieces = {cell: [cell, 0] for cell in t.artillery_start}  # piece -> [where, since turn]
    numbers = {cell: n for n, cell in enumerate(t.artillery_start, start=1)}  # by its start (R43)
    where = {cell: cell for cell in t.artillery_start}  # a piece's current cell -> its start
    route: dict[int, list] = {}  # turn -> points of the bomber's path
    bomber: dict[int, tuple[Cell, str]] = {}  # turn -> (cell, facing) at its end
    per_cell: dict = {}
    ledger = iter(verdict.damage_ledger)
    note_lines = {note.line: note for note in verdict.notes}
    turn = 1
    for stmt, turn_before, events, after in history:
        turn = turn_before
        ev: Any  # dispatched on type(ev) through ``kind``, which mypy does not narrow
        for ev in events:
            kind = type(ev)
            if kind is TurnStarted:
                turn = ev.turn
            elif kind is Entered:
                route.setdefault(turn, []).append(("entry", _centre(ev.cell)))
                x, y = _centre(ev.cell)
                board.add("entry", turn, x=x, y=MARGIN - 1, turn=turn, name=str(ev.cell),
                          shifted=None if ev.shifted_from is None else str(ev.shifted_from))
            elif kind is Moved:
                points = route.setdefault(turn, [])
                if not points:
                    points.append(("from", _centre(ev.start)))
                points.extend(("to", _centre(c)) for c in ev.path)
                last = ev.path[-1] if ev.path else ev.start
                if ev.exited:
                    ex, ey = _edge_point(last, str(ev.facing))
                    points.append(("exit", (ex, ey)))
                    board.add("exit", turn, x=ex, y=ey, turn=turn, name=str(last))
                if ev.blocked:
                    mountain = FORWARD[ev.facing][last]
                    x, y = _centre(mountain)
                    board.add("blocked", turn, x=x, y=y, turn=turn, name=str(mountain), at=str(last),
                              line=stmt.line)
            elif kind is ArtilleryMoved:
                start = where.pop(ev.start)
                where[ev.end] = start
                old, since = pieces[start]
                board.add("artillery", since, turn - 1, x=_centre(old)[0], y=_centre(old)[1],
                          name=f"{numbers[start]} ({old})", number=numbers[start])
                pieces[start] = [ev.end, turn]
                (x0, y0), (x1, y1) = _centre(ev.start), _centre(ev.end)
                board.add("trail", turn, x1=x0, y1=y0, x2=x1, y2=y1, turn=turn,
                          head=_arrowhead((x0, y0), (x1, y1), 5),
                          name=f"{numbers[start]} ({ev.start}) to {ev.end}")
            elif kind is Suppressed:
                x, y = _centre(ev.cell)
                n = numbers.get(where.get(ev.cell))
                board.add("suppressed", turn, x=x, y=y, turn=turn,
                          name=str(ev.cell) if n is None else f"{n} ({ev.cell})")
            elif kind is Destroyed:
                x, y = _centre(ev.cell)
                if ev.kind == "artillery":
                    start = where.pop(ev.cell)
                    old, since = pieces.pop(start)
                    board.add("artillery", since, turn - 1, x=_centre(old)[0], y=_centre(old)[1],
                              name=f"{numbers[start]} ({old})", number=numbers[start])
                    board.add("artillery-destroyed", turn, x=x, y=y, name=f"{numbers[start]} ({ev.cell})",
                              turn=turn)
                else:
                    board.add("bunker-destroyed", turn, x=x, y=y, name=str(ev.cell), turn=turn)
            elif kind is Crater:
                x, y = _centre(ev.cell)
                board.add("crater", turn, x=x, y=y, name=str(ev.cell), turn=turn)
            elif kind is Damage:
                cell = after.cell
                for _ in range(ev.amount):
                    entry = next(ledger, None)
                    cause = entry.message if entry is not None else str(ev.cause)
                    if cell is None:
                        continue
                    n = per_cell[cell] = per_cell.get(cell, -1) + 1
                    x, y = _centre(cell)
                    damage.append({"x": x + 10 - DOT_STEP * (n % 3), "y": y - 10 + DOT_STEP * (n // 3),
                                   "turn": turn, "cause": cause, "first": turn, "shown": True})
        cell, facing = after.cell, after.facing
        if cell is not None:
            bomber[turn] = (cell, str(facing))
        else:
            bomber.pop(turn, None)
        note = note_lines.pop(stmt.line, None)
        if note is not None:
            at = note.cell if note.cell is not None else cell
            if at is not None:
                x, y = _centre(at)
                board.add("note", turn, x=x - CELL // 2 + 9, y=y - CELL // 2 + 9, turn=turn,
                          line=note.line, message=note.message, rule=note.rule)
    for start, (cell, since) in pieces.items():
        board.add("artillery", since, None, x=_centre(cell)[0], y=_centre(cell)[1],
                  name=f"{numbers[start]} ({cell})", number=numbers[start])
    for line_turn, points in sorted(route.items()):
        _add_path(paths, line_turn, points)
    last_turn = max([verdict.turns or turn] + list(route))
    for bomber_turn, (end, nose) in bomber.items():  # names of their own: mypyc checks each type
        board.add("bomber", bomber_turn, bomber_turn if bomber_turn < last_turn else None,
                  shape=_bomber_shape(end, nose), name=f"{end} facing {nose}", turn=bomber_turn)
    return last_turn


def _add_path(paths: list, turn: int, points: Iterable[tuple[str, tuple[int, int]]]) -> None:
    """One turn's line (a fresh entry starts a new line within the turn), an arrowhead where
    it ends and the turn's number where it starts."""
    colour = turn_colour(turn)
    lines: list[list] = []
    current: list = []
    for how, point in points:
        if how == "entry" and current:
            lines.append(current)
            current = []
        current.append(point)
    lines.append(current)
    drawn = [line for line in lines if line]
    if not drawn:
        return
    first = drawn[0][0]
    heads = [_arrowhead(line[-2], line[-1]) for line in drawn if len(line) > 1]
    paths.append({"turn": turn, "colour": colour, "first": turn,
                  "lines": [" ".join(f"{x:.0f},{y:.0f}" for x, y in line) for line in drawn],
                  "heads": heads, "label": {"x": first[0] - CELL // 2 + 4, "y": first[1] + CELL // 2 - 6}})


class _BoardNow(NamedTuple):
    """The board as an Automa phase leaves it, what :func:`no_step_text` reads."""

    ruleset: Ruleset
    mountains: frozenset[Cell]
    bunkers: frozenset[Cell]
    artillery: frozenset[Cell]


def log_view(verdict: Verdict) -> list[dict]:
    """The log's lines with their numbers, the turn each belongs to, the error line marked,
    and under each Automa card the replay played what it made the artillery do (``gloss``:
    a Clubs card moves nothing, so the board alone would show nothing for it, R19; a card
    that steps the artillery and moved no piece says why, piece by piece, R18-R21)."""
    lines = verdict.lines
    if not lines:
        return []
    turn_at: dict[int, int] = {}
    for st in verdict.body or ():
        if st.kind == "turn":
            turn_at[st.line] = st.number
    glosses: dict[int, list[str]] = {}
    trace = verdict.trace
    # the board followed event by event, so a stepping card that moved no piece says why
    pieces = ArtilleryPieces(trace.artillery_start if trace is not None else ())
    bunkers = set(trace.bunkers if trace is not None else ())
    for stmt, _turn, events, after in verdict.history or ():
        for i, ev in enumerate(events):
            if type(ev) is Revealed and ev.purpose is CardPurpose.AUTOMA:
                told = glosses.setdefault(stmt.line, [])
                told.append(automa_card_text(ev.card, after.ruleset))
                now = _BoardNow(after.ruleset, trace.mountains if trace is not None else frozenset(),
                                frozenset(bunkers), frozenset(c for c in pieces.cells if c is not None))
                still = no_step_text(events[i:], now, pieces)
                if still is not None:
                    told.append(still)
            elif type(ev) is Destroyed and ev.kind == "bunker":
                bunkers.discard(ev.cell)
            pieces.follow((ev,))
    error_line = verdict.errors[0].line if verdict.errors else None
    out, turn = [], 0
    for number, text in enumerate(lines, 1):
        turn = turn_at.get(number, turn)
        out.append({"number": number, "text": text, "turn": turn, "error": number == error_line,
                    "gloss": "; ".join(glosses.get(number, ()))})
    return out


@functools.cache
def page_environment() -> jinja2.Environment:
    """The templates of every page bgrid writes, each compiled once per process (compiling
    the report's template cost ten times its rendering, 0.19 s a report). ``untrusted``
    marks text from a log or a file name (:func:`~bgrid.safeio.safe_text.html_text`)."""
    folder = resources.files("bgrid.templates")
    env = jinja2.Environment(loader=jinja2.FunctionLoader(
        lambda name: (folder.joinpath(name).read_text(encoding="utf-8"), None, lambda: True)),
        autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["untrusted"] = html_text
    return env


def error_view(error: LogError, source: str) -> dict:
    """One error in parts the page can lay out: the message wraps, the quoted line keeps its
    caret, and a long line is cut to a window around the caret (the terminal's own window,
    ``LogError.quote``) instead of scrolling sideways."""
    quote = error.quote()
    where = f"line {error.line}, column {error.column}" if error.line is not None else "the whole file"
    return {"where": where, "line": error.line, "code": error.code, "name": error.name,
            "message": error.message, "quote": None if quote is None else "\n".join(quote),
            "rule": error.rule, "state": error.state, "legal": list(error.legal)}


def render_report(verdicts: list[Verdict], generator: str | None = None,
                  links: Iterable[tuple[str, str]] = ()) -> str:
    """The whole report: a table of the logs, then one section per log (folded when there
    are several, so a folder's page stays proportionate). ``generator`` goes into the page's
    ``<meta name="generator">`` (a league marks its reports' format there); ``links``, (label,
    address) pairs, make a bar of links above the title (a league server's way back)."""
    items = []
    for v in verdicts:
        items.append({"v": v.as_dict(), "summary": v.summary(), "board": board_view(v),
                      "breakdown": v.score.breakdown() if v.score is not None else "",
                      "errors": [error_view(e, v.source) for e in v.errors],
                      "notes": [str(n) for n in v.notes], "ledger": [str(e) for e in v.damage_ledger],
                      "log": log_view(v), "note_lines": {n.line for n in v.notes}})
    counts = {k: sum(1 for v in verdicts if v.verdict == k) for k in ("valid", "invalid", "incomplete")}
    page = page_environment().get_template("report.html.j2")
    return html_text(page.render(items=items, counts=counts, generator=generator, links=list(links)))
