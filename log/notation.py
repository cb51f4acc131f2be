"""The log's statements as values that print their own canonical spelling
(``docs/log-format.md``): the one notation layer the log writer builds and prints and the
verifier's parser reads into, as python-chess reads and exports PGN through one set of classes.

A statement keeps the engine's own values (``rules.actions``) for the play and the cards
drawn or revealed as chance outcomes. ``canonical()`` prints a statement in the one spelling
the log writer uses; the verification id hashes these lines, so reformatting a log never
changes it. A statement the writer builds has no tokens (line 0); one the parser reads keeps
where each token stood, for messages.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple

from mypy_extensions import mypyc_attr

from ..rules.actions import Action, Resupply
from ..rules.board import CELL_NAMES, Cell, column_name
from ..rules.cards import Card
from ..rules.errors import BGridError
from .lexer import Token, free_text_problem


def card_text(card: Card | None) -> str:
    return "none" if card is None else str(card)


@dataclass(frozen=True, slots=True)
class PieceCheck:
    """What a ``state`` line's ``art`` check says of one artillery piece (R43): its cell, or
    ``destroyed``; ``suppressed``: its guns suppressed it in this turn (the sheet's trailing
    ``s``). ``cell`` None and not destroyed: the piece's place is not checked (``-``, or a
    blank art cell of a row).

    >>> from bgrid.rules.board import Cell
    >>> [str(PieceCheck(Cell.parse("B4"), suppressed=True)), str(PieceCheck(None, destroyed=True)),
    ...  str(PieceCheck(None))]
    ['B4s', 'x', '-']
    """

    cell: Cell | None
    destroyed: bool = False
    suppressed: bool = False

    @property
    def is_blank(self) -> bool:
        return self.cell is None and not self.destroyed and not self.suppressed

    def __str__(self) -> str:
        if self.destroyed:
            return "x"
        return ("-" if self.cell is None else str(self.cell)) + ("s" if self.suppressed else "")


@mypyc_attr(acyclic=True)
class Statement:
    """One body line.

    ``kind`` is the keyword (``turn enter draw resupply move alt guns bomb throttle automa
    reshuffle state``). ``action`` is the player's play; ``cards`` the cards drawn or
    revealed by the line in order (None where the log wrote ``none``, R36) and
    ``card_tokens`` the index in ``tokens`` of each. ``action_token`` indexes the played card.
    ``column``: the entry column chosen after a face card or Joker (R13). ``checks``, of a
    state line: (key, value, token index); an ``art`` check is one entry a piece, its value
    (piece number, PieceCheck). A value, compared and hashed by its fields.
    """

    # A plain class with Final fields, as Token is: mypyc builds it natively (a log has a
    # statement a line, and a line read before is taken again at its new line).
    __slots__ = ("kind", "line", "tokens", "number", "action", "action_token", "cards",
                 "card_tokens", "column", "column_token", "checks")

    def __init__(self, kind: str, line: int, tokens: tuple[Token, ...], number: int | None = None,
                 action: Action | None = None, action_token: int = 0,
                 cards: tuple[Card | None, ...] = (), card_tokens: tuple[int, ...] = (),
                 column: int | None = None, column_token: int = 0,
                 checks: tuple[tuple[str, object, int], ...] = ()) -> None:
        self.kind: Final = kind
        self.line: Final = line
        self.tokens: Final = tokens
        self.number: Final = number
        self.action: Final = action
        self.action_token: Final = action_token
        self.cards: Final = cards
        self.card_tokens: Final = card_tokens
        self.column: Final = column
        self.column_token: Final = column_token
        self.checks: Final = checks

    def at_line(self, line: int) -> Statement:
        """The same statement at line ``line`` (a remembered line in a later log, a lone line placed)."""
        return Statement(self.kind, line, self.tokens, self.number, self.action, self.action_token,
                         self.cards, self.card_tokens, self.column, self.column_token, self.checks)

    def _fields(self) -> tuple[object, ...]:
        return (self.kind, self.line, self.tokens, self.number, self.action, self.action_token,
                self.cards, self.card_tokens, self.column, self.column_token, self.checks)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Statement):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[type[Statement], tuple[object, ...]]:
        return (Statement, self._fields())

    def __repr__(self) -> str:
        names = ("kind", "line", "tokens", "number", "action", "action_token", "cards", "card_tokens",
                 "column", "column_token", "checks")  # compiled, a class keeps no __slots__ to read
        return f"Statement({', '.join(f'{n}={v!r}' for n, v in zip(names, self._fields(), strict=True))})"

    def token(self, index: int) -> Token:
        """The token at ``index``; past the end, an empty token just after the line's last."""
        if index < len(self.tokens):
            return self.tokens[index]
        last = self.tokens[-1]
        return Token("", last.column + len(last.text))

    def canonical(self) -> str:
        k = self.kind
        if k == "turn":
            return f"turn {self.number}"
        if k == "enter":
            out = f"enter {card_text(self.cards[0])}"
            return out if self.column is None else f"{out} {column_name(self.column)}"
        if k == "draw":
            return "draw " + " ".join(card_text(c) for c in self.cards)
        if k == "resupply":
            assert isinstance(self.action, Resupply)  # a resupply statement holds its play
            return f"resupply {self.action.card} -> {card_text(self.cards[0])}"
        if k in ("guns", "bomb"):
            return f"{self.action} -> {card_text(self.cards[0])}"
        if k in ("move", "alt", "throttle"):
            return str(self.action)
        if k == "automa":
            return f"automa {card_text(self.cards[0])}"
        if k == "reshuffle":
            return "reshuffle"
        return "state " + " ".join(state_words(self.checks))


_CHECK_ORDER = {"at": 0, "facing": 1, "alt": 2, "dmg": 3, "health": 4, "art": 5}


def state_words(checks: Iterable[tuple[str, object, int]]) -> list[str]:
    """A state line's checks in the writer's order and spelling: ``at C4``, ``facing S``,
    ``alt 3``, ``dmg 2/5``, ``art C9 B4 x G3`` (pieces by number, R43; a piece not checked is
    ``-``, trailing ones left out)."""
    parts: list[str] = []
    pieces: dict[int, PieceCheck] = {}
    value: Any  # what a check says: its kind depends on its key ((number, PieceCheck) for art)
    for key, value, _ in sorted(checks, key=lambda c: _CHECK_ORDER[c[0]]):
        if key == "health":  # dmg N/H
            parts[-1] += f"/{value}"
        elif key == "art":
            number, piece = value
            pieces[number] = piece
        else:
            parts.append(f"{key} {'off' if value is None else value}")
    given = [n for n, p in pieces.items() if not p.is_blank]
    if given:
        blank = PieceCheck(None)
        parts.append("art " + " ".join(str(pieces.get(n, blank)) for n in range(1, max(given) + 1)))
    return parts


FREE_TEXT = ("player", "date")  # the header keys whose value is free text (log-format: Header)


class UnwritableHeader(BGridError):
    """A header value that a log line cannot carry whole (see :func:`lexer.free_text_problem`)."""


class HeaderEntry(NamedTuple):
    """One ``key: value`` line: the key as matched (lower case), its tokens after the colon. A
    named tuple: a log's header has a dozen entries, each built by the parser through
    ``tuple.__new__``."""

    key: str
    line: int
    key_column: int
    value: str
    value_column: int
    tokens: tuple[Token, ...]


@dataclass
class Header:
    """The header, validated: exactly one map source and the optional keys."""

    version: int = 1
    source: str = ""  # "challenge" | "seed" | "setup" | "map"
    challenge: str | None = None
    seed: int | None = None
    ridges: int | None = None
    difficulty: str | None = None
    ruleset: str | None = None
    player: str | None = None
    date: str | None = None
    claim: tuple[str, int] | None = None  # (outcome, score)
    setup_ridges: list[list[Card]] = field(default_factory=list)
    setup_bunkers: list[Card] | None = None
    setup_artillery: list[Card] | None = None
    map_mountains: list[Cell] | None = None
    map_bunkers: list[Cell] | None = None
    map_artillery: list[Cell] | None = None
    entries: dict[str, list[HeaderEntry]] = field(default_factory=dict)

    def entry(self, key: str) -> HeaderEntry | None:
        found = self.entries.get(key)
        return found[0] if found else None

    def canonical_lines(self) -> list[str]:
        """The header in the writer's spelling, in a fixed key order. Each line reads back as
        the value it writes; a free text that would not (``player: Ada #1`` reads ``Ada``)
        raises :class:`UnwritableHeader`."""
        out = ["bgrid-log: 1"]
        if self.challenge is not None:
            out.append(f"challenge: {self.challenge}")
        if self.seed is not None:
            out.append(f"seed: {self.seed}")
        if self.ridges is not None:
            out.append(f"ridges: {self.ridges}")
        for cards in self.setup_ridges:
            out.append("setup ridge: " + " ".join(map(str, cards)))
        if self.setup_bunkers is not None:
            out.append("setup bunkers: " + " ".join(map(str, self.setup_bunkers)))
        if self.setup_artillery is not None:
            out.append("setup artillery: " + " ".join(map(str, self.setup_artillery)))
        for key, cells in (("mountains", self.map_mountains), ("bunkers", self.map_bunkers),
                           ("artillery", self.map_artillery)):
            if cells is not None:
                shown = sorted(cells) if key == "mountains" else cells
                out.append(f"map {key}: " + " ".join([CELL_NAMES[cell] for cell in shown]))
        for key in ("difficulty", "ruleset", "player", "date"):
            value = getattr(self, key)
            if value is not None:
                problem = free_text_problem(value) if key in FREE_TEXT else None
                if problem is not None:
                    raise UnwritableHeader(f"'{value}' cannot be written on a log's '{key}:' line "
                                           f"and read back the same: {problem}")
                out.append(f"{key}: {value}")
        if self.claim is not None:
            out.append(f"claim: {self.claim[0]} {self.claim[1]}")
        return out


@dataclass
class ParsedLog:
    """A log read without error: the header, the body statements and the source lines
    (for quoting in messages)."""

    header: Header
    statements: list[Statement]
    lines: list[str]
    # the statements' canonical lines, when the parser already has them (it remembers them
    # with each line it has read before); None: print them from the statements
    body_text: list[str] | None = None

    def line_text(self, line: int) -> str:
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""

    def canonical_text(self) -> str:
        body = self.body_text if self.body_text is not None else [s.canonical() for s in self.statements]
        return "\n".join(self.header.canonical_lines() + body) + "\n"

