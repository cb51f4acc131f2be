"""Read a row of the log's row form (``docs/log-format.md``, §5 The row form) into statements.

A row is one turn in the mission sheet's columns (:data:`log.row_writer.COLUMNS`), the cells
separated by ``|``. Each cell is read into the statements the statement form would have
there, by the parser's own statement readers, so a row and its statement lines give the same
statements, the same replay and the same verification id, and every error keeps its code and
rule and points at the row's line and the column of the cell's token.

Verbs may be left out: the card's rank in the mission's ruleset says what it plays (a 2-5
moves, a 10, J or Q changes altitude, a 6 fires guns …). A cell may hold several statements
(``;`` between them, or simply one after the other where each one's end is plain: ``KH->10D
KC->8D``); ``reshuffle`` stands before the statement that found the draw pile empty. In a row
the arrow before a card drawn or revealed may be left out too (``8S AS`` is ``bomb 8S ->
AS``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from .row_writer import ALT, ART, AT, AUTOMA, COLUMNS, DMG, DRAW, ENTER
from ..rules.cards import Card
from ..rules.ruleset import DEFAULT_RULESET, load_ruleset
from ..rules.errors import BGridError
from .lexer import joker_closed_up
from .lexer import Token
from .notation import Statement
from .words import ARROWS, FACINGS, PLAY_VERBS, VERB_OF_PLAY

if TYPE_CHECKING:  # the parser reads rows through this module: no import at run time
    from .reader import _Parser

#: A row line: the turn number and a bar first (spaces and tabs around it allowed).
ROW = re.compile(r"[ \t]*[0-9]+[ \t]*\|")
_STEP_WORD = re.compile(r"[FLRflr]+")
_PLAY_VERBS = frozenset(PLAY_VERBS)
_WHOLE_PART = ("turn", "enter", "draw", "automa", "state")  # with its verb: the rest of the part
_DASHES = ("-", "\u2013", "\u2014")  # a pencilled dash (-, en, em) in a cell: nothing there
_CELL_AND_FACING = re.compile(rf"([A-Ja-j](?:10|[1-9]))([{''.join(FACINGS)}])")  # 'F3E' for 'F3 E'


def is_row(line: str) -> bool:
    """A line of the row form: ``12 | …``. Its comment need not be cut off first: the match
    ends at the first bar, and a ``#`` before it fails the match either way."""
    return ROW.match(line) is not None


@lru_cache(maxsize=8)
def verbs_by_rank(ruleset: str) -> dict[int, str]:
    """The statement verb of each rank in ``ruleset``'s card table (rulebook: Card Actions);
    the standard ruleset's when the name is unknown (the header's error is told elsewhere)."""
    try:
        rs = load_ruleset(ruleset)
    except BGridError:
        rs = load_ruleset(DEFAULT_RULESET)
    return {kind.rank: VERB_OF_PLAY[kind.play] for kind in rs.card_kinds if kind.play in VERB_OF_PLAY}


def play_with_verb(text: str, ruleset: str) -> str:
    """A play as a row's cell holds it, its verb left out (``5C FFLF``, ``8S AS``, ``JK=6S C4
    2S``, ``9S 3C FFFFF``), as its statement line (``move 5C FFLF``, ``bomb 8S -> AS``); text
    that does not start with a played card comes back as it is. For a typed line (the
    companion) that follows the sheet's notation."""
    words = re.sub("->|→", " -> ", joker_closed_up(text)).split()
    if not words or not (words[0][:1].isdigit() or words[0][:1] in "AJQKTajqkt"):
        return text
    try:
        card = Card.parse(words[0])
    except BGridError:
        return text
    verb = verbs_by_rank(ruleset).get(card.acting.rank)
    if verb is None:
        return text
    body = _arrowed(verb, [Token(w, k) for k, w in enumerate(words)])
    if verb == "throttle" and len(body) > 1 and body[1].text.lower() not in ("move", "alt"):
        try:
            paired = verbs_by_rank(ruleset).get(Card.parse(body[1].text).acting.rank)
        except BGridError:
            paired = None
        if paired in ("move", "alt"):
            body.insert(1, Token(paired, 0))
    return " ".join([verb] + [t.text for t in body])


class RowReader:
    """Reads the rows of one log with a parser's statement readers (``reader._Parser``)."""

    def __init__(self, parser: _Parser, tokens_of: Callable[[str, int], list[Token]], ruleset: str) -> None:
        self.parser = parser
        self.tokens_of = tokens_of  # (text, offset) -> tokens, the parser's own tokenizer
        self.verbs = verbs_by_rank(ruleset)

    # -- the row -----------------------------------------------------------------------
    def read(self, code: str, out: list[Statement]) -> None:
        """The statements of one row line (``code``: the line without its comment), added to
        ``out`` as they are read (so an error in a cell finds the cells before it read)."""
        cells = _split(code, "|")
        p = self.parser
        if len(cells) > len(COLUMNS):
            extra = self.tokens_of(*cells[len(COLUMNS)])
            raise p.error("E108", f"a row has {len(COLUMNS)} cells (turn | enter | draw | resupply | "
                          "action 1 | action 2 | automa | at facing | ALT | DMG | art 1-4); this one "
                          "has more", extra[0] if extra else None, column=cells[len(COLUMNS)][1])
        number = self.tokens_of(*cells[0])
        out.append(p.st_turn("turn", (number[0],) + tuple(number), number))
        cells[1:ART] = [("", at) if text.strip(" \t") in _DASHES else (text, at) for text, at in cells[1:ART]]
        for column, (text, offset) in enumerate(cells[1:AT], start=ENTER):
            if not text or text.isspace():  # most cells of most rows are empty
                continue
            text = text.replace(",", " ")  # a list in pencil: 'KH->10D, KC->8D', '5S, JK, 8S'
            if "=" in text:  # closed up, the room it took after the card: later columns stay
                text = joker_closed_up(text)
            parts = _split(text, ";", offset) if ";" in text else ((text, offset),)
            for part, at in parts:
                tokens = self.tokens_of(part, at)
                if tokens:
                    p.part_end = at + len(part.rstrip(" \t")) + 1
                    self.cell_statements(column, tokens, out)
        p.part_end = None
        state = self.state(cells[AT:])
        if state is not None:
            out.append(state)

    def cell_statements(self, column: int, tokens: list[Token], out: list[Statement]) -> None:
        """The statements of one part of a cell (between ``;``), added to ``out``."""
        i = 0
        while i < len(tokens):
            word = tokens[i].text.lower()
            if word == "reshuffle":
                out.append(self.parser.st_reshuffle("reshuffle", (tokens[i],), []))
                i += 1
                continue
            if column == DRAW and (word == "draw" or word not in _PLAY_VERBS and word not in _WHOLE_PART):
                # cards up to the next 'reshuffle' (or 'draw')
                start = i + (word == "draw")
                end = next((k for k in range(start, len(tokens))
                            if tokens[k].text.lower() in ("reshuffle", "draw")), len(tokens))
                out.append(self.make("draw", _with_verb(tokens[i:end], start > i)))
                i = end
                continue
            if column in (ENTER, AUTOMA) and word not in _PLAY_VERBS and word not in _WHOLE_PART:
                out.append(self.make("enter" if column == ENTER else "automa", _with_verb(tokens[i:], False)))
                break
            statement, i = self.play(tokens, i)
            out.append(statement)

    def make(self, verb: str, tokens: tuple[Token, ...]) -> Statement:
        """The statement ``verb`` of ``tokens`` (its verb first, written or a stand-in), read by
        the parser's reader for that statement."""
        return self.parser.read_statement(verb, tokens, list(tokens[1:]))

    def play(self, tokens: list[Token], i: int) -> tuple[Statement, int]:
        """The statement that starts at ``tokens[i]`` and where the next one starts: a verb
        reads as in a statement line, a card without one by its rank."""
        p = self.parser
        first = tokens[i]
        word = first.text.lower()
        if word in _WHOLE_PART:
            return p.statement(tokens[i:]), len(tokens)
        if word in _PLAY_VERBS:
            verb, start, has_verb = word, i + 1, True
        else:
            found = self.verb_of(first)
            if found is None:
                raise p.error("E106", f"'{first.text}' is neither a card nor a statement: a row's "
                              "action cells hold plays, e.g. '5C FFLF', 'JH', '6H C4->2S', '7H->9D'",
                              first)
            verb, start, has_verb = found, i, False
        end = self.play_end(verb, tokens, start)
        body = _arrowed(verb, tokens[start:end])
        if verb == "throttle" and len(body) > 1 and body[1].text.lower() not in ("move", "alt"):
            paired = self.verb_of(body[1])
            if paired in ("move", "alt"):  # the paired card's verb left out too
                body.insert(1, Token(paired, body[1].column))
        return self.make(verb, (first,) + tuple(body) if has_verb else _with_verb(body, False)), end

    def verb_of(self, token: Token) -> str | None:
        """The verb a played card makes (a declared Joker by its declaration), or None when the
        token is no card (the parser's card reader gives the error of a broken one)."""
        text = token.text
        if not text[:1].isdigit() and text[:1] not in "AJQKTajqkt":
            return None
        card = self.parser.card(token, joker="declared")
        return self.verbs.get(card.acting.rank)

    def play_end(self, verb: str, tokens: list[Token], start: int) -> int:
        """Where a play that starts with its card at ``tokens[start]`` ends."""
        n = len(tokens)
        if verb == "move":
            end = start + 1
            while end < n and _STEP_WORD.fullmatch(tokens[end].text):
                end += 1
            return end
        if verb == "alt":
            return min(start + 1, n)
        if verb == "throttle":
            if start + 1 >= n:
                return n
            inner = tokens[start + 1].text.lower()
            if inner in ("move", "alt"):
                return self.play_end(inner, tokens, start + 2)
            paired = self.verb_of(tokens[start + 1])
            return self.play_end(paired or "alt", tokens, start + 1)
        taken = 2 if verb == "guns" else 1  # the card (and the target cell), then -> CARD
        end = start + taken
        if end < n and tokens[end].text in ARROWS:
            end += 1
        return min(end + 1, n)

    # -- the state cells ---------------------------------------------------------------
    def state(self, cells: list[tuple[str, int]]) -> Statement | None:
        """The row's state check from the cells at facing, ALT, DMG and art 1-4, read as the
        statement ``state at … facing … alt … dmg … art …`` (an empty cell checks nothing)."""
        p = self.parser
        words: list[Token] = []
        if all(not text or text.isspace() for text, _ in cells):
            return None
        named = [self.tokens_of(text, at) for text, at in cells]
        if named and named[0]:
            at_facing = _cell_then_facing(self.tokens_of(cells[0][0].replace(",", " "), cells[0][1]))
            for t in at_facing:
                key = "facing" if t.text in FACINGS else "at"
                if any(w.text == key for w in words):
                    raise p.error("E108", f"the 'at facing' cell holds one cell (or off) and one "
                                  f"facing; '{t.text}' is one {'facing' if key == 'facing' else 'cell'} "
                                  "too many", t)
                words += [Token(key, t.column), t]
        for key, index in (("alt", ALT - AT), ("dmg", DMG - AT)):
            if len(named) > index and named[index]:
                value = named[index]
                if len(value) > 1:
                    raise p.error("E108", f"the {key.upper()} cell holds one number", value[1])
                words += [Token(key, value[0].column), value[0]]
        pieces = named[ART - AT:]
        if any(pieces):
            last = max(k for k, cell in enumerate(pieces) if cell)
            words.append(Token("art", pieces[last][0].column))
            for k in range(last + 1):
                words.append(_piece_token(p, pieces[k], cells[ART - AT + k][1]))
        head = words[0]
        return p.st_state("state", (head,) + tuple(words), words)


def _cell_then_facing(tokens: list[Token]) -> list[Token]:
    """The 'at facing' cell's words, ``F3E`` written close read as ``F3 E``, the state line's
    own words ``at`` and ``facing`` left out (``at F3 facing E``)."""
    out = []
    for t in tokens:
        if t.text.lower() in ("at", "facing"):
            continue
        glued = _CELL_AND_FACING.fullmatch(t.text)
        if glued:
            out += [Token(glued[1], t.column), Token(glued[2], t.column + len(glued[1]))]
        else:
            out.append(t)
    return out


def _piece_token(parser: _Parser, tokens: list[Token], column: int) -> Token:
    """One art cell as the one word of an ``art`` check: ``B4``, ``B4s`` (also written ``B4 s``),
    ``x``, ``-s`` (written ``s``), ``-`` for an empty cell."""
    if not tokens or len(tokens) == 1 and tokens[0].text in _DASHES:
        return Token("-", tokens[0].column if tokens else column + 1)
    if len(tokens) == 2 and tokens[1].text in ("s", "S"):
        return Token(tokens[0].text + "s", tokens[0].column)
    if len(tokens) > 1:
        raise parser.error("E108", "an art cell holds one piece: its cell (with s when suppressed), x "
                           "when destroyed", tokens[1])
    if tokens[0].text in ("s", "S"):
        return Token("-s", tokens[0].column)
    return tokens[0]


def _with_verb(tokens: Iterable[Token], has_verb: bool) -> tuple[Token, ...]:
    """A statement's tokens with its verb first: the written one, or (left out) a stand-in at
    the column of the statement's first word, so a message about the statement points there."""
    tokens = tuple(tokens)
    if has_verb:
        return tokens
    return (Token(tokens[0].text, tokens[0].column),) + tokens


def _arrowed(verb: str, tokens: list[Token]) -> list[Token]:
    """A play's words with the ``->`` a row may leave out put back before the card drawn or
    revealed (resupply, guns, bomb), at that card's column."""
    at = {"resupply": 1, "bomb": 1, "guns": 2}.get(verb)
    if at is None or len(tokens) <= at or tokens[at].text in ARROWS:
        return list(tokens)
    return list(tokens[:at]) + [Token("->", tokens[at].column)] + list(tokens[at:])


def _split(text: str, bar: str, offset: int = 0) -> list[tuple[str, int]]:
    """``text`` cut at every ``bar``: (piece, the 0-based column the piece starts at)."""
    out = []
    start = 0
    for piece in text.split(bar):
        out.append((piece, offset + start))
        start += len(piece) + 1
    return out
