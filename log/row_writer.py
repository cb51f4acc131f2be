"""The row form of a log's body (``docs/log-format.md``, §5 The row form): one line a turn in the mission
sheet's columns, as a player copies the sheet's turn log.

    turn | enter | draw | resupply | action 1 | action 2 | automa | at facing | ALT | DMG | art 1 … art 4

A row is read into the same statements as the statement form (``log.row_reader``), so
this module prints statements: :func:`row_lines` writes a body's statements a turn a row,
without the verbs (a card's rank says what it plays); a statement that comes after the
column it belongs to keeps its verb in the cell reached so far. Reading the printed rows
back gives the same statements, so the verification id does not change.

>>> from bgrid.rules.actions import Bomb, Move
>>> from bgrid.rules.cards import Card
>>> body = [Statement("turn", 0, (), number=1), Statement("enter", 0, (), cards=(Card.parse("7H"),)),
...         Statement("draw", 0, (), cards=tuple(map(Card.parse, "2S 9H KD QH 5C".split()))),
...         Statement("move", 0, (), action=Move(Card.parse("5C"), "FFLF")),
...         Statement("automa", 0, (), cards=(Card.parse("8C"),))]
>>> row_lines(body)
['1|7H|2S 9H KD QH 5C||5C FFLF||8C']
"""

from __future__ import annotations

from collections.abc import Iterable

from ..rules.actions import Altitude, Move, Resupply, Throttle
from ..rules.board import column_name
from .notation import Statement, card_text
from .words import PLAY_VERBS

#: The columns of a row, in the sheet's order (after the turn number).
COLUMNS = ("turn", "enter", "draw", "resupply", "action 1", "action 2", "automa", "at facing", "ALT",
           "DMG", "art 1", "art 2", "art 3", "art 4")
ENTER, DRAW, RESUPPLY, ACTION_1, ACTION_2, AUTOMA, AT, ALT, DMG, ART = range(1, 11)
#: The comment a printed row form starts with: the columns, so the rows read on their own.
HEAD = "# " + " | ".join(COLUMNS)
ARROW = "->"  # rows are typed: the sheet's → is read too, but ASCII is what a keyboard has
BAR = "|"  # spaces around it may be typed; none are needed
#: Between two statements of one cell, the marker ``reshuffle`` and the card after it
#: included: the sheet's "Two in one cell: split by ;" (``KD->4S; KC->2S``, ``reshuffle; 8C``).
#: The reader also takes them without it; the writer prints what the sheet asks for.
JOINT = "; "


def play_text(st: Statement) -> str:
    """A play without its verb, as a row cell holds it: ``5C FFLF``, ``JH``, ``6H C4->2S``,
    ``7H->9D``, ``9S 3C FFFFF``, ``KD->4S``."""
    action = st.action
    if isinstance(action, Move):
        return f"{action.card} {action.steps}"
    if isinstance(action, Altitude):
        return str(action.card)
    if isinstance(action, Throttle):
        paired = action.paired
        inner = f"{paired.card} {paired.steps}" if isinstance(paired, Move) else str(paired.card)
        return f"{action.card} {inner}"
    if isinstance(action, Resupply):
        return f"{action.card}{ARROW}{card_text(st.cards[0])}"
    # guns and bomb: the canonical statement without its verb, the arrow closed up
    words = st.canonical().split(" ", 1)[1]
    return words.replace(" -> ", ARROW)


def state_cells(st: Statement) -> list[str] | None:
    """A state statement as the row's cells at facing, ALT, DMG, art 1 … (None when it checks
    nothing a row's state cells hold)."""
    at = facing = alt = dmg = health = ""
    art: dict[int, str] = {}
    for key, value, _ in st.checks:
        if key == "at":
            at = "off" if value is None else str(value)
        elif key == "facing":
            facing = str(value)
        elif key == "alt":
            alt = str(value)
        elif key == "dmg":
            dmg = str(value)
        elif key == "health":
            health = f"/{value}"
        elif key == "art":
            assert isinstance(value, tuple)  # (piece number, PieceCheck)
            number, piece = value
            art[number] = "" if piece.is_blank else str(piece)
    if health and not dmg:
        return None  # dmg …/H without the damage: no row cell says that
    pieces = [art.get(n, "") for n in range(1, max(art, default=0) + 1)]
    return [" ".join(w for w in (at, facing) if w), alt, dmg + health] + pieces


def row_lines(statements: Iterable[Statement]) -> list[str]:
    """The body a turn a row (see the module's docstring)."""
    out: list[str] = []
    group: list[Statement] = []
    for st in statements:
        if st.kind == "turn" and group:
            out.append(_row(group))
            group = []
        group.append(st)
    if group:
        out.append(_row(group))
    return out


def _row(group: list[Statement]) -> str:
    """One turn as a row. Cells are filled left to right, as they are read; a statement that
    comes too late for its own column keeps its verb and goes in the cell reached so far
    (``2S FF; draw 4S``), so the row reads back into the same statements in the same order."""
    cells = [str(group[0].number)] + [""] * (len(COLUMNS) - 1)
    at = 0  # the last column written
    reshuffles = ""  # 'reshuffle; ' markers waiting for the statement they stand before
    for i, st in enumerate(group[1:], start=1):
        if st.kind == "reshuffle":
            reshuffles += "reshuffle" + JOINT
            continue
        if st.kind == "state" and i == len(group) - 1 and at < AT:
            state = state_cells(st)
            if state is not None:  # the state check fills the cells from 'at facing' on
                if reshuffles:  # a marker before the check: last in the cell reached so far
                    last, marker = max(at, ENTER), reshuffles.removesuffix(JOINT)
                    cells[last] = f"{cells[last]}{JOINT}{marker}" if cells[last] else marker
                    reshuffles = ""
                cells[AT:AT + len(state)] = state
                at = AT + len(state) - 1
                continue
        column, text, joint = _place(st, at)
        if column is None:  # late for its column: with its verb, in the cell reached so far
            column, text, joint = max(at, ENTER), st.canonical(), JOINT
        words = reshuffles + text
        reshuffles = ""
        cells[column] = f"{cells[column]}{joint}{words}" if cells[column] else words
        at = column
    if reshuffles:  # a marker last in the turn
        column = max(at, ENTER)
        words = reshuffles.removesuffix(JOINT)
        cells[column] = f"{cells[column]}{JOINT}{words}" if cells[column] else words
    while len(cells) > 1 and not cells[-1]:
        cells.pop()
    return BAR.join(cells) if len(cells) > 1 else cells[0] + BAR  # a bar makes it a row


def _place(st: Statement, at: int) -> tuple[int | None, str, str]:
    """(the column a statement goes to, its text, the joint to a cell already written); the
    column None when it cannot go in this row after column ``at``."""
    kind = st.kind
    if kind == "enter" and at < ENTER:
        card = card_text(st.cards[0])
        return ENTER, card if st.column is None else f"{card} {column_name(st.column)}", ""
    if kind == "draw" and at <= DRAW:
        return DRAW, " ".join(card_text(c) for c in st.cards), JOINT
    if kind == "resupply" and at <= ACTION_2:
        return RESUPPLY if at <= RESUPPLY else at, play_text(st), JOINT
    if kind in PLAY_VERBS and at < AUTOMA:
        column = max(ACTION_1, min(at + 1, ACTION_2)) if at < ACTION_2 else ACTION_2
        return column, play_text(st), JOINT
    if kind == "automa" and at < AUTOMA:
        return AUTOMA, card_text(st.cards[0]), ""
    return None, "", ""
