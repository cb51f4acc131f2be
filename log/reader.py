"""Read a mission log (``docs/log-format.md``) into a header and a list of statements.

Forgiving where a typist slips (case, spacing, ``T`` for 10, suit symbols with emoji
variation selectors, a BOM, CRLF, ``->`` without spaces or as ``→``, step words split
anywhere, ``dmg N/H`` in a state line) and
exact about everything else. Every token keeps its line and column, so a later error can
put a caret under it. On any input at all the parser either returns a :class:`ParsedLog`
or raises :class:`LogError`; input above :data:`MAX_BYTES` is refused before reading it,
so time and memory stay bounded.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Final, Literal, overload

from ..rules.actions import Altitude, Bomb, Guns, Move, Resupply, Throttle, parse_steps
from ..rules.board import COLUMN_LETTERS, Cell
from ..rules.cards import Card
from ..challenges.codes import decode_code
from ..rules.errors import BGridError, NotationError
from ..rules.ruleset import DEFAULT_RULESET, Ruleset, find_ruleset, load_ruleset
from .lexer import CONTROL, Token, joker_closed_up, log_lines, norm_key, split_at_colon, split_tokens
from .row_reader import RowReader, is_row
from .messages import LogError
from .notation import Header, HeaderEntry, ParsedLog, PieceCheck, Statement
from .words import ARROWS, BODY_KEYWORDS, FACINGS, HEADER_KEYS, PLAY_OF_VERB

_DIGITS: Final = "0123456789"  # ASCII only, as a row's number (row_reader.ROW)
MAX_DIGITS = 15  # a seed is at most 13 digits (2**40 - 1); longer is never a number we take

_REPEATABLE = ("setup ridge",)
_HEADER_TOO = ("E107", "E108")  # body codes that cite the header section on a header line
_UNSIGNED = re.compile(r"(0|[1-9][0-9]*)", re.ASCII)
_SIGNED = re.compile(r"-?(0|[1-9][0-9]*)", re.ASCII)
# Every spelling of a cell the log may use (a column A-J in either case, a row 1-10), to its
# cell: an explicit map's header names dozens of cells, so one lookup each.
_CELL_SPELLINGS = {letter + str(row): Cell.parse(letter + str(row))
                   for column in COLUMN_LETTERS for letter in (column, column.lower())
                   for row in range(1, 11)}
# Python's case mapping goes beyond ASCII ('\u017f'.upper() is 'S', '\u0131'.upper() is 'I',
# '\ufb02'.upper() is 'FL', '\u212a'.lower() is 'k'), so every case-insensitive comparison
# here first makes sure the word is ASCII; cards are read by Card.parse, which folds case in
# ASCII only and takes a variation selector only after the suit (rules/notation.py).
_new_tuple: Final = tuple.__new__  # a named tuple from its fields, without NamedTuple's __new__

# Body lines read before (the caller's memo, ``Verifier.lines``), by their exact text: (the
# statement first read from it, the canonical line). Logs repeat most lines ("automa 8C",
# "draw 4S", "turn 3"), and a statement depends on its line's text alone, so a repeated line
# is neither tokenised nor parsed again: its statement is taken at the new line. Bounded:
# only short lines, and the dict is emptied when full. A folder of 2,000 simulated logs holds
# about 9,500 distinct body lines: all of them fit, where a quarter as many would be forgotten
# and read again.
_REMEMBER_MAX: Final = 16384
_REMEMBER_LONGEST: Final = 48  # characters; written statements are under 40. Full of hostile lines: ~40 MB



def plays_of(ruleset: Ruleset) -> dict[str, tuple[frozenset[int], str]]:
    """Which ranks each statement's play takes (rulebook: Card Actions) in ``ruleset``'s card
    table, and how a message names them; a Joker is judged by its declaration."""
    return {keyword: (frozenset(ruleset.ranks_of(play)), ruleset.play_words(play))
            for keyword, play in PLAY_OF_VERB.items()}


# The standard table, for the logs of the standard ruleset (nearly all); a log of another
# ruleset is read with its own table once its header is read (_Parser.use_ruleset).
_PLAYS = plays_of(load_ruleset(DEFAULT_RULESET))
STATE_KEYS = ("at", "facing", "alt", "dmg", "art")
# a destroyed piece in an art check: the sheet prints ✕; ×, ✗, ✘ and ✖ are the crosses
# a keyboard or a character picker offers for it
_DESTROYED = ("x", "X", "✕", "×", "✗", "✘", "✖")
_EXAMPLES = {
    "turn": "turn 3", "enter": "enter 7H, or enter QS C", "draw": "draw 2S 9H KD",
    "resupply": "resupply KD -> 4S", "move": "move 5C FFLF", "alt": "alt QH",
    "guns": "guns 6H C4 -> 2D", "bomb": "bomb 7H -> AS", "throttle": "throttle 9H move 4C FFFFRF",
    "automa": "automa 8C", "reshuffle": "reshuffle", "state": "state at C4 facing S alt 3 dmg 2",
}


def parse_log(source: str | bytes, remembered: dict[str, tuple] | None = None,
              rulesets: Mapping[str, Ruleset] | None = None) -> ParsedLog:
    """Parse a whole log. Raises :class:`LogError` (code E0xx/E1xx) at the first problem.
    ``remembered``: body lines read before, by text (kept from log to log by a ``Verifier``).
    ``rulesets``: rulesets the caller holds besides the shipped ones (a variant), by name."""
    lines, clean = log_lines(source)
    return _Parser(lines, clean, {} if remembered is None else remembered, rulesets).run()


def read_header(source: str | bytes, rulesets: Mapping[str, Ruleset] | None = None) -> tuple[Header, int]:
    """A log's header, read and checked (E0xx, E1xx, exactly one map source) and where its
    body starts: the index, among the log's lines (:func:`lexer.log_lines`), of the first
    line that is no header line (a statement or a row), else the number of lines. The body is
    not read, so a header followed by anything that starts as a body is fine. The one place
    that decides where a header ends (the companion, ``bgrid play``, every ``--header``)."""
    lines, clean = log_lines(source)
    parser = _Parser(lines, clean, {}, rulesets)
    parser.header_only = True
    log = parser.run()
    return log.header, len(log.lines)


def read_statement(text: str, ruleset: Ruleset, line: int = 1) -> Statement | None:
    """One body line typed on its own (the companion's input), read as line ``line`` of a log
    whose mission plays ``ruleset``: its card table judges which ranks each play takes (E112),
    as :func:`parse_log` does once a header names the ruleset. None for a blank or comment
    line. Raises :class:`LogError` (E0xx/E1xx) placed at ``line``."""
    parser = _Parser([text], rulesets=None)
    parser.plays = plays_of(ruleset) if ruleset.name != DEFAULT_RULESET else _PLAYS
    parser.in_body = True
    parser.lineno = 1
    try:
        st = parser.lone_statement(text)
    except LogError as exc:
        raise exc.located(line=line, column=exc.column or 1, token=exc.token, text=text) from None
    return None if st is None else st.at_line(line)


class _Parser:
    def __init__(self, lines: list[str], clean: bool = False,
                 remembered: dict[str, tuple] | None = None,
                 rulesets: Mapping[str, Ruleset] | None = None) -> None:
        self.lines = lines
        self.remembered = {} if remembered is None else remembered
        self.rulesets = rulesets
        # the card table's plays (None: the ruleset is unknown, E127 tells it; no card check)
        self.plays: dict[str, tuple[frozenset[int], str]] | None = _PLAYS
        self.clean = clean  # no control character in any line (parse_log has looked)
        self.header = Header()
        self.statements: list[Statement] = []
        self.body_text: list[str] = []  # the statements' canonical lines
        self.lineno = 0
        self.in_body = False  # past the header (run sets it)
        self.part_end: int | None = None  # in a row: the column after the cell part being read
        self._rows: RowReader | None = None
        self.header_only = False  # stop where the body starts (read_header)

    # -- errors ---------------------------------------------------------------------
    def error(self, code: str, message: str, token: Token | None = None, *, rule: str | None = None,
              column: int | None = None) -> LogError:
        text = self.lines[self.lineno - 1]
        if token is not None and "," in token.text and self.in_body and "comma" not in message:
            fix = self.without_commas()  # 'C4,' in a guns line, 'FF,LF' in a move
            message += f"; commas are not separators: {fix}" if fix else ""
        if rule is None and code in _HEADER_TOO and not self.in_body:
            rule = "log-format: Header"  # a header line that ends early or goes on too long
        if token is not None:
            return LogError(code, message, line=self.lineno, column=token.column, token=token.text,
                            text=text, rule=rule)
        return LogError(code, message, line=self.lineno, column=column or self.part_end or len(text) + 1,
                        text=text, rule=rule)

    # -- driver ---------------------------------------------------------------------
    def run(self) -> ParsedLog:
        """The whole log. An error in the body carries the log read so far (``partial``), so
        the verifier can replay up to it: an earlier broken rule comes first, else the
        notation error gets the game state and the legal plays at that line."""
        self.in_body = False
        try:
            return self._run()
        except LogError as exc:
            if self.in_body:
                exc.partial = ParsedLog(self.header, list(self.statements), self.lines)
            raise

    def _recall(self, raw: str, index: int) -> bool:
        """Add the statement of a body line read before (the memo: only lines that parsed
        without error are kept); False when the line is not remembered."""
        known = self.remembered.get(raw)
        if known is None:
            return False
        statement: Statement = known[0]  # typed: compiled, at_line is then a native call
        self.statements.append(statement.at_line(index + 1))
        self.body_text.append(known[1])
        return True

    def _run(self) -> ParsedLog:
        in_body = False
        seen_version = False
        clean = self.clean
        statements, body_text, remembered = self.statements, self.body_text, self.remembered
        for index, raw in enumerate(self.lines):
            # the method itself, not a local alias: compiled, an alias is a Python-level call
            if in_body and self._recall(raw, index):
                continue
            self.lineno = index + 1
            bad = None if clean else CONTROL.search(raw)
            if bad is not None:
                raise LogError("E003", f"control character U+{ord(bad.group()):04X} in the line; "
                               "a log is plain text", line=self.lineno, column=bad.start() + 1,
                               text=raw)
            code = raw.split("#", 1)[0]
            tokens = split_tokens(code)
            if not tokens:
                continue
            # a turn in the sheet's columns; a row starts with its number, so the pattern is
            # matched only on a line that starts with a digit
            if seen_version and tokens[0].text[0] in _DIGITS and is_row(code):
                if not in_body:
                    if self.header_only:
                        return self._header_alone(index)
                    self.finish_header()
                    in_body = self.in_body = True
                    remembered = self.remembered
                done = len(statements)
                self.rows().read(code, statements)
                body_text.extend(st.canonical() for st in statements[done:])
                continue
            first = tokens[0].text.lower()
            colon = code.find(":")
            is_header_line = colon >= 0 and first not in BODY_KEYWORDS
            if not seen_version:
                if not is_header_line or norm_key(code[:colon]) != "bgrid-log":
                    raise self.error("E120", "a log starts with the line 'bgrid-log: 1'", tokens[0])
                seen_version = True
            if is_header_line:
                if in_body:
                    key = norm_key(code[:colon])
                    if key in HEADER_KEYS:
                        raise self.error("E124", f"header line '{key}:' after the first turn; the "
                                         "header comes before 'turn 1'", tokens[0])
                    raise self.error("E106", f"'{tokens[0].text}' is not a statement"
                                     f"{_expected_one_of(first, BODY_KEYWORDS)}", tokens[0])
                self.header_line(code, colon, tokens)
                continue
            if not in_body:
                if self.header_only and first in BODY_KEYWORDS:
                    return self._header_alone(index)
                if first != "turn":
                    if first in BODY_KEYWORDS:
                        raise self.error("E125", f"'{tokens[0].text}' before the first turn: the body "
                                         "starts with 'turn 1'", tokens[0])
                    raise self.error("E106", f"'{tokens[0].text}' is neither a header line "
                                     f"('key: value') nor a statement{_did_you_mean(first, BODY_KEYWORDS)}",
                                     tokens[0])
                self.finish_header()
                in_body = self.in_body = True
                remembered = self.remembered
                if self._recall(raw, index):  # the first turn line, read in an earlier log
                    continue
            if "=" in code:  # 'JK = 6S': a played Joker spaced out, read as a row reads it
                closed = joker_closed_up(code)
                if closed != code:
                    tokens = split_tokens(closed)
            statement = self.statement(tokens)
            statements.append(statement)
            canonical = statement.canonical()
            body_text.append(canonical)
            if len(raw) <= _REMEMBER_LONGEST:
                if len(remembered) >= _REMEMBER_MAX:
                    remembered.clear()
                remembered[raw] = (statement, canonical)
        if not seen_version:
            self.lineno = max(1, len(self.lines))
            raise LogError("E120", "the log is empty: a log starts with the line 'bgrid-log: 1'",
                           line=1, column=1, text=self.lines[0] if self.lines else "")
        if not in_body:
            self.finish_header()
        return ParsedLog(self.header, statements, self.lines, body_text)

    def _header_alone(self, body_start: int) -> ParsedLog:
        """The header read up to line ``body_start`` (0-based), the first of the body."""
        self.finish_header()
        return ParsedLog(self.header, [], self.lines[:body_start])

    def lone_statement(self, raw: str) -> Statement | None:
        """``raw`` as a body line of its own (see :func:`read_statement`)."""
        bad = CONTROL.search(raw)
        if bad is not None:
            raise LogError("E003", f"control character U+{ord(bad.group()):04X} in the line; "
                           "a log is plain text", line=self.lineno, column=bad.start() + 1, text=raw)
        code = raw.split("#", 1)[0]
        tokens = split_tokens(code)
        if not tokens:
            return None
        first = tokens[0].text.lower()
        colon = code.find(":")
        if colon >= 0 and first not in BODY_KEYWORDS and norm_key(code[:colon]) in HEADER_KEYS:
            raise self.error("E124", f"header line '{norm_key(code[:colon])}:' after the first turn; "
                             "the header comes before 'turn 1'", tokens[0])
        if "=" in code:  # 'JK = 6S', as the log's lines read it
            closed = joker_closed_up(code)
            if closed != code:
                tokens = split_tokens(closed)
        return self.statement(tokens)

    def rows(self) -> RowReader:
        """The reader of row lines, for the ruleset the header names (a challenge code's own)."""
        if self._rows is None:
            self._rows = RowReader(self, split_tokens, _ruleset_of(self.header))
        return self._rows

    # -- header ---------------------------------------------------------------------
    def header_line(self, code: str, colon: int, tokens: list[Token]) -> None:
        key = norm_key(code[:colon])
        key_token, value_tokens = split_at_colon(code, colon, tokens)
        if key not in HEADER_KEYS:
            raise self.error("E122", f"unknown header key '{code[:colon].strip()}'"
                             f"{_expected_one_of(key, HEADER_KEYS)}", key_token)
        if ":" in code[colon + 1:]:
            self.one_key_per_line(key, value_tokens)
        raw_value = code[colon + 1:].strip(" \t")
        value_column = value_tokens[0].column if value_tokens else colon + 2
        h = self.header
        if key in h.entries and key not in _REPEATABLE:
            first = h.entries[key][0].line
            raise self.error("E123", f"header key '{key}:' is repeated (first on line {first})", key_token)
        entry = _new_tuple(HeaderEntry, (key, self.lineno, key_token.column, raw_value, value_column,
                                         value_tokens))
        h.entries.setdefault(key, []).append(entry)
        at = value_tokens[0] if value_tokens else None
        if not value_tokens and key != "map mountains":
            raise self.error("E107", f"header key '{key}:' has no value", column=len(code.rstrip()) + 2)
        if key == "bgrid-log":
            if len(value_tokens) != 1 or value_tokens[0].text != "1":
                raise self.error("E121", f"log format '{raw_value}' is not supported: this verifier "
                                 "reads 'bgrid-log: 1'", at)
        elif key == "challenge":
            h.challenge = raw_value
        elif key == "seed":
            h.seed = self.number(value_tokens, "a seed, a whole number like 1944")
        elif key == "ridges":
            h.ridges = self.number(value_tokens, "a ridge count 1-4")
        elif key == "difficulty":
            self.single(value_tokens, "a difficulty")
            h.difficulty = raw_value.lower()
        elif key == "ruleset":
            self.single(value_tokens, "a ruleset name like standard-1")
            h.ruleset = raw_value.lower()
        elif key == "player":
            h.player = " ".join(t.text for t in value_tokens)
        elif key == "date":
            h.date = " ".join(t.text for t in value_tokens)
        elif key == "claim":
            if len(value_tokens) < 2:
                raise self.error("E107", "a claim is an outcome and a score, e.g. 'claim: victory 9'",
                                 column=len(code.rstrip()) + 2)
            outcome = value_tokens[0].text.lower()
            if outcome not in ("victory", "defeat"):
                raise self.error("E127", f"'{value_tokens[0].text}' is not an outcome: expected victory "
                                 "or defeat", value_tokens[0])
            if len(value_tokens) > 2:
                raise self.error("E108", "a claim is an outcome and a score, nothing more",
                                 value_tokens[2])
            score = self.integer(value_tokens[1], signed=True, what="a score, a whole number like 9 or -2")
            h.claim = (outcome, score)
        elif key.startswith("setup "):
            cards = [self.card(t, joker="plain") for t in value_tokens]
            if key == "setup ridge":
                h.setup_ridges.append(cards)
            elif key == "setup bunkers":
                h.setup_bunkers = cards
            else:
                h.setup_artillery = cards
        else:  # map ...
            cells = [_CELL_SPELLINGS.get(t.text) for t in value_tokens]
            # the token that is no cell, by name ('is': 'None in cells' calls Cell's == on each)
            if any(cell is None for cell in cells):
                cells = [self.cell(t) for t in value_tokens]
            setattr(h, "map_" + key.split()[1], cells)

    def one_key_per_line(self, key: str, value_tokens: Sequence[Token]) -> None:
        """``seed: 1944 difficulty: normal``: a second key in the value (E108). Only a known
        key counts, so a player may still be called 'Ada: the Red'."""
        for i, t in enumerate(value_tokens):
            if ":" not in t.text:
                continue
            before = t.text.split(":", 1)[0]
            words = [v.text for v in value_tokens[:i]] + ([before] if before else [])
            for n in (1, 2):  # 'setup ridge:' and 'map bunkers:' are two words
                if len(words) >= n and norm_key(" ".join(words[-n:])) in HEADER_KEYS:
                    raise self.error("E108", f"'{' '.join(words[-n:])}:' on the '{key}:' line: a header "
                                     "has one key per line; put it on a line of its own",
                                     value_tokens[len(words) - n])

    def single(self, tokens: Sequence[Token], what: str) -> None:
        if len(tokens) > 1:
            raise self.error("E108", f"expected {what}, one word", tokens[1])

    def number(self, tokens: Sequence[Token], what: str) -> int:
        self.single(tokens, what)
        return self.integer(tokens[0], signed=False, what=what)

    def finish_header(self) -> None:
        """Exactly one map source, and the keys that go with it (log-format: Header)."""
        h = self.header
        sources = [s for s, present in (("challenge", h.challenge is not None),
                                        ("seed", h.seed is not None),
                                        ("setup", any(k.startswith("setup ") for k in h.entries)),
                                        ("map", any(k.startswith("map ") for k in h.entries)))
                   if present]
        if len(sources) != 1:
            if not sources:
                self.lineno = 1
                raise self.error("E126", "the header names no map: give one of 'challenge:', 'seed:', "
                                 "the 'setup' lines or the 'map' lines", column=1)
            firsts = sorted(min(e.line for k, es in h.entries.items() for e in es
                                if k.split()[0] == s) for s in sources)
            self.lineno = firsts[1]
            raise self.error("E126", f"the header names two maps ({' and '.join(sources)}); "
                             "give exactly one", column=1)
        h.source = sources[0]
        if h.ridges is not None and h.source != "seed":
            entry = self.at_entry("ridges")
            raise self.error("E126", "'ridges:' goes with 'seed:' only; a challenge code, setup lines or "
                             "an explicit map already fix the ridges", column=entry.key_column)
        if h.difficulty is not None and h.source == "challenge":
            entry = self.at_entry("difficulty")
            raise self.error("E126", "'difficulty:' cannot go with 'challenge:'; the code fixes it",
                             column=entry.key_column)
        if h.source == "setup":
            for key in ("setup ridge", "setup bunkers", "setup artillery"):
                if key not in h.entries:
                    self.lineno = h.entries[next(k for k in h.entries if k.startswith("setup "))][0].line
                    raise self.error("E126", f"a hand setup needs the '{key}:' line too", column=1)
        if h.source == "map":
            for key in ("map mountains", "map bunkers", "map artillery"):
                if key not in h.entries:
                    self.lineno = h.entries[next(k for k in h.entries if k.startswith("map "))][0].line
                    raise self.error("E126", f"an explicit map needs the '{key}:' line too "
                                     "(it may be empty for mountains)", column=1)
        self.use_ruleset(_ruleset_of(h))

    def use_ruleset(self, name: str) -> None:
        """Read the body with the card table of the ruleset ``name``. The line memo holds
        statements read with the standard table, so another ruleset's log reads its lines
        afresh; an unknown ruleset's cards are not checked here (E127 names the ruleset)."""
        if name == DEFAULT_RULESET:
            return
        self.remembered = {}
        try:
            self.plays = plays_of(find_ruleset(name, self.rulesets))
        except BGridError:
            self.plays = None

    def at_entry(self, key: str) -> HeaderEntry:
        """Point at the header line of ``key`` (one the header was read with) and return it."""
        entry = self.header.entry(key)
        assert entry is not None
        self.lineno = entry.line
        return entry

    # -- tokens ---------------------------------------------------------------------
    def integer(self, token: Token, *, signed: bool, what: str) -> int:
        pattern = _SIGNED if signed else _UNSIGNED
        if len(token.text) > MAX_DIGITS or pattern.fullmatch(token.text) is None:
            raise self.error("E105", f"'{token.text}' is not {what} (decimal digits"
                             f"{', a leading minus' if signed else ''}, no leading zeros)", token)
        return int(token.text)

    @overload
    def card(self, token: Token, *, joker: str, allow_none: Literal[False] = False) -> Card: ...
    @overload
    def card(self, token: Token, *, joker: str, allow_none: bool) -> Card | None: ...

    def card(self, token: Token, *, joker: str, allow_none: bool = False) -> Card | None:
        """``joker``: "plain" (drawn or revealed: JK only) or "declared" (played: JK=7H)."""
        text = token.text
        if allow_none and text.lower() == "none":
            return None
        if text.lower() == "none":
            raise self.error("E110", "'none' stands only for a card drawn or revealed when the mission "
                             "ended at that moment (R36)", token)
        if "," in text:  # 'draw 2S, 3S', 'draw 2S,3S' or 'draw 2S , 3S'
            raise self.error("E101", f"'{text}' is not a card: cards are separated by spaces, not "
                             f"commas: {self.without_commas('draw 2S 3S')}", token)
        if not text.isprintable():  # no-break and other odd spaces are "not printable" too
            odd = next(ch for ch in text if not ch.isprintable())
            raise self.error("E101", f"'{text}' is not a card: it holds the invisible character "
                             f"U+{ord(odd):04X}; tokens are separated by spaces and tabs only", token)
        try:
            card = _parse_card(text)
        except NotationError as exc:
            raise self.error("E101", str(exc), token, rule="R12" if "Joker" in str(exc) and "=" in text
                             else None) from None
        if card.is_joker and joker == "plain" and card.declared is not None:
            raise self.error("E111", f"'{text}': only a played Joker carries a declaration; a Joker "
                             "drawn or revealed is plain JK", token)
        if card.is_joker and joker == "declared" and card.declared is None:
            raise self.error("E111", "a played Joker carries the card it stands for, e.g. JK=7H", token)
        return card

    def cell(self, token: Token) -> Cell:
        cell = _CELL_SPELLINGS.get(token.text)
        if cell is None:
            raise self.error("E102", f"'{token.text}' is not a cell: expected a column A-J then a row "
                             "1-10, e.g. C7", token)
        return cell

    def column(self, token: Token) -> int:
        if len(token.text) != 1 or not token.text.isascii() or token.text.upper() not in COLUMN_LETTERS:
            raise self.error("E103", f"'{token.text}' is not a column: expected one letter A-J", token)
        return COLUMN_LETTERS.index(token.text.upper())

    def played(self, token: Token, kind: str) -> Card:
        card = self.card(token, joker="declared")
        if self.plays is None:
            return card
        ranks, what = self.plays[kind]
        if card.acting.rank not in ranks:
            raise self.error("E112", f"'{kind}' plays {what}, not {token.text}", token)
        return card

    def steps(self, tokens: list[Token]) -> str:
        if not tokens:
            raise self.error("E107", "a movement needs its steps: F forward, L/R turn, e.g. FFLF")
        steps = []
        for t in tokens:  # word by word, so an error points at its word
            try:
                steps.append(parse_steps((t.text,)))
            except NotationError as exc:
                raise self.error("E104", str(exc), t) from None
        return "".join(steps)

    # -- body -----------------------------------------------------------------------
    def statement(self, tokens: list[Token]) -> Statement:
        kind = tokens[0].text.lower()
        if kind not in BODY_KEYWORDS:
            raise self.error("E106", f"'{tokens[0].text}' is not a statement"
                             f"{_expected_one_of(kind, BODY_KEYWORDS)}", tokens[0])
        return _READERS[kind](self, kind, tuple(tokens), tokens[1:])

    def read_statement(self, kind: str, tokens: tuple[Token, ...], args: list[Token]) -> Statement:
        """The statement ``kind`` (a body keyword) of ``tokens``, by its reader: the row reader
        hands a row's parts here."""
        return _READERS[kind](self, kind, tokens, args)

    def without_commas(self, example: str | None = None) -> str:
        """What to write instead of the statement line at fault, which holds a comma. The
        format keeps commas out of a statement line (log format: Lexical, "Commas are not
        separators"); only a row's cells read them, as spaces. So: the line with its commas as
        spaces when that reads (``write 'draw 2S 3S 4H'``); else, when each piece between the
        commas reads as a statement of the line's kind, those one a line (``write one
        statement a line: 'resupply KH -> 10D', 'resupply KC -> 8D'``); else ``example``'s
        spelling ('' without one)."""
        code = self.lines[self.lineno - 1].split("#", 1)[0]
        fixed = " ".join(joker_closed_up(code.replace(",", " ")).split())
        if self.reads(fixed):
            return f"write '{fixed}'"
        pieces = [" ".join(joker_closed_up(p).split()) for p in code.split(",")]
        verb = pieces[0].split(" ", 1)[0]
        lines = [p if i == 0 or p.split(" ", 1)[0].lower() in BODY_KEYWORDS else f"{verb} {p}"
                 for i, p in enumerate(pieces) if p]
        if len(lines) > 1 and all(self.reads(line) for line in lines):
            return "write one statement a line: " + ", ".join(f"'{line}'" for line in lines)
        return "" if example is None else f"e.g. '{example}'"

    def reads(self, line: str) -> bool:
        """Whether ``line`` reads as a statement (a suggestion is checked before it is made)."""
        tokens = split_tokens(line)
        try:
            if tokens:
                self.statement(tokens)
        except LogError:
            return False
        return bool(tokens)

    def need(self, args: Sequence[Token], count: int, kind: str) -> None:
        """At least ``count`` arguments."""
        if len(args) < count:
            raise self.error("E107", f"'{kind}' needs more: expected e.g. '{_EXAMPLES[kind]}'")

    def no_more(self, args: Sequence[Token], count: int, kind: str) -> None:
        if len(args) > count:
            raise self.error("E108", f"unexpected '{args[count].text}': expected e.g. "
                             f"'{_EXAMPLES[kind]}'", args[count])

    def arrow(self, args: Sequence[Token], index: int, kind: str) -> None:
        if len(args) <= index:
            raise self.error("E109", f"'{kind}' needs '->' and the card drawn or revealed, e.g. "
                             f"'{_EXAMPLES[kind]}'")
        if args[index].text not in ARROWS:
            raise self.error("E109", f"expected '->' before the card drawn or revealed, e.g. "
                             f"'{_EXAMPLES[kind]}'", args[index])

    def st_turn(self, kind: str, tokens: tuple[Token, ...], args: list[Token]) -> Statement:
        self.need(args, 1, kind)
        self.no_more(args, 1, kind)
        return Statement(kind, self.lineno, tokens,
                         number=self.integer(args[0], signed=False, what="a turn number like 3"))

    def st_enter(self, kind: str, tokens: tuple[Token, ...], args: list[Token]) -> Statement:
        self.need(args, 1, kind)
        card = self.card(args[0], joker="plain", allow_none=True)
        if card is None or card.is_number:
            if len(args) > 1:
                raise self.error("E113", f"{'none' if card is None else 'a number card'} fixes the "
                                 "column: a column follows only a face card or Joker", args[1])
            return Statement(kind, self.lineno, tokens, cards=(card,), card_tokens=(1,))
        if len(args) < 2:
            # the column is checked in the replay: when the entry damage ends the mission,
            # no column is chosen (R13, R23)
            return Statement(kind, self.lineno, tokens, cards=(card,), card_tokens=(1,))
        self.no_more(args, 2, kind)
        return Statement(kind, self.lineno, tokens, cards=(card,), card_tokens=(1,),
                         column=self.column(args[1]), column_token=2)

    def st_draw(self, kind: str, tokens: tuple[Token, ...], args: list[Token]) -> Statement:
        self.need(args, 1, kind)
        cards = []
        for i, t in enumerate(args):
            cards.append(self.card(t, joker="plain", allow_none=(i == len(args) - 1)))
        return Statement(kind, self.lineno, tokens, cards=tuple(cards),
                         card_tokens=tuple(range(1, len(args) + 1)))

    def reveal_after(self, args: Sequence[Token], at: int, kind: str) -> Card | None:
        """``-> CARD`` at ``args[at]``: the card drawn or revealed for the play, or none (R36)."""
        self.arrow(args, at, kind)
        self.need(args, at + 2, kind)
        card = self.card(args[at + 1], joker="plain", allow_none=True)
        self.no_more(args, at + 2, kind)
        return card

    def st_resupply(self, kind: str, tokens: tuple[Token, ...], args: list[Token]) -> Statement:
        self.need(args, 1, kind)
        king = self.played(args[0], kind)
        return Statement(kind, self.lineno, tokens, action=Resupply(king), action_token=1,
                         cards=(self.reveal_after(args, 1, kind),), card_tokens=(3,))

    def st_move(self, kind: str, tokens: tuple[Token, ...], args: list[Token]) -> Statement:
        self.need(args, 1, kind)
        card = self.played(args[0], kind)
        return Statement(kind, self.lineno, tokens, action=Move(card, self.steps(args[1:])),
                         action_token=1)

    def st_alt(self, kind: str, tokens: tuple[Token, ...], args: list[Token]) -> Statement:
        self.need(args, 1, kind)
        card = self.played(args[0], kind)
        self.no_more(args, 1, kind)
        return Statement(kind, self.lineno, tokens, action=Altitude(card), action_token=1)

    def st_guns(self, kind: str, tokens: tuple[Token, ...], args: list[Token]) -> Statement:
        self.need(args, 2, kind)
        action = Guns(self.played(args[0], kind), self.cell(args[1]))
        return Statement(kind, self.lineno, tokens, action=action, action_token=1,
                         cards=(self.reveal_after(args, 2, kind),), card_tokens=(4,))

    def st_bomb(self, kind: str, tokens: tuple[Token, ...], args: list[Token]) -> Statement:
        self.need(args, 1, kind)
        action = Bomb(self.played(args[0], kind))
        return Statement(kind, self.lineno, tokens, action=action, action_token=1,
                         cards=(self.reveal_after(args, 1, kind),), card_tokens=(3,))

    def st_throttle(self, kind: str, tokens: tuple[Token, ...], args: list[Token]) -> Statement:
        self.need(args, 3, kind)
        nine = self.played(args[0], kind)
        inner = args[1].text.lower()
        paired: Move | Altitude
        if inner == "move":
            card = self.played(args[2], "move")
            paired = Move(card, self.steps(args[3:]))
        elif inner == "alt":
            card = self.played(args[2], "alt")
            self.no_more(args, 3, kind)
            paired = Altitude(card)
        else:
            raise self.error("E106", f"a throttle pairs its 9 with 'move' or 'alt', not "
                             f"'{args[1].text}' (R11)", args[1])
        return Statement(kind, self.lineno, tokens, action=Throttle(nine, paired), action_token=1)

    def st_automa(self, kind: str, tokens: tuple[Token, ...], args: list[Token]) -> Statement:
        self.need(args, 1, kind)
        card = self.card(args[0], joker="plain", allow_none=True)
        self.no_more(args, 1, kind)
        return Statement(kind, self.lineno, tokens, cards=(card,), card_tokens=(1,))

    def st_reshuffle(self, kind: str, tokens: tuple[Token, ...], args: list[Token]) -> Statement:
        self.no_more(args, 0, kind)
        return Statement(kind, self.lineno, tokens)

    def st_state(self, kind: str, tokens: tuple[Token, ...], args: list[Token]) -> Statement:
        self.need(args, 2, kind)
        checks: list[tuple[str, object, int]] = []
        seen: set[str] = set()
        i = 0
        while i < len(args):
            key_token = args[i]
            key = key_token.text.lower()
            if key not in STATE_KEYS:
                raise self.error("E114", f"'{key_token.text}' is not a state key: expected at, facing, "
                                 "alt, dmg or art", key_token)
            if key in seen:
                raise self.error("E114", f"state key '{key}' is given twice", key_token)
            seen.add(key)
            if key == "art":
                i = self.art_checks(args, i + 1, checks)
                continue
            if i + 1 >= len(args):
                raise self.error("E107", f"state key '{key}' needs a value, e.g. "
                                 f"'{_EXAMPLES['state']}'")
            vt = args[i + 1]
            if "," in vt.text and len(vt.text) > 1:  # 'state at G1, facing S', as a draw line's hint
                code = {"at": "E102", "facing": "E115"}.get(key, "E105")
                noun = {"at": "a cell", "facing": "a facing", "alt": "an altitude"}.get(key, "a damage")
                raise self.error(code, f"'{vt.text}' is not {noun}: the checks of a state line "
                                 "are separated by spaces, not commas: "
                                 f"{self.without_commas('state at G1 facing S alt 4 dmg 0')}", vt)
            value: object
            if key == "at":
                value = None if vt.text.lower() == "off" else self.cell(vt)
            elif key == "facing":
                if vt.text not in FACINGS:
                    raise self.error("E115", f"'{vt.text}' is not a facing: expected N, E, S or W", vt)
                value = vt.text.upper()
            elif key == "dmg" and "/" in vt.text:  # dmg N/H, as the verifier prints the state
                done, health = vt.text.split("/", 1)
                value = self.integer(Token(done, vt.column), signed=False, what="a damage")
                checks.append(("health", self.integer(Token(health, vt.column + len(done) + 1),
                                                       signed=False, what="a health"), i + 2))
            else:
                value = self.integer(vt, signed=False, what=f"a {'altitude' if key == 'alt' else 'damage'}")
            checks.append((key, value, i + 2))
            i += 2
        return Statement(kind, self.lineno, tokens, checks=tuple(checks))

    def art_checks(self, args: Sequence[Token], i: int, checks: list[tuple[str, Any, int]]) -> int:
        """The pieces after ``art`` from ``args[i]`` on, by number (R43), up to the next state
        key: each a cell (``B4``), ``x``/``✕`` destroyed or ``-`` not checked, a trailing ``s``
        (also as a word of its own) when the guns suppressed it this turn. Returns where the
        next key starts."""
        number = 0
        while i < len(args) and args[i].text.lower() not in STATE_KEYS:
            token = args[i]
            if token.text.lower() == "s" and number:  # 'B4 s': the s of the piece before
                key, (n, piece), at = checks[-1]
                checks[-1] = (key, (n, PieceCheck(piece.cell, piece.destroyed, True)), at)
                if piece.destroyed:
                    raise self.error("E102", "a destroyed piece is not suppressed: 'x' stands alone", token)
                i += 1
                continue
            number += 1
            checks.append(("art", (number, self.piece_check(token)), i + 1))
            i += 1
        if not number:
            raise self.error("E107", "'art' needs the artillery pieces in their numbering (R43), each its "
                             "cell, x when destroyed or - when not checked, e.g. 'art C9 B4 x G3'")
        return i

    def piece_check(self, token: Token) -> PieceCheck:
        """One piece of an ``art`` check (see :meth:`art_checks`)."""
        text = token.text
        if text in _DESTROYED:
            return PieceCheck(None, destroyed=True)
        suppressed = len(text) > 1 and text[-1] in "sS" and text[:-1] != "" and text[-2] != "x"
        word = text[:-1] if suppressed else text
        if word == "-":
            return PieceCheck(None, suppressed=suppressed)
        cell = _CELL_SPELLINGS.get(word)
        if cell is None:
            raise self.error("E102", f"'{text}' is not an artillery piece's place: expected its cell "
                             "(C7, with s when suppressed: C7s), x when destroyed or - when not "
                             "checked (R43)", token)
        return PieceCheck(cell, suppressed=suppressed)


#: Each body keyword's reader.
_READERS = {"turn": _Parser.st_turn, "enter": _Parser.st_enter, "draw": _Parser.st_draw,
            "resupply": _Parser.st_resupply, "move": _Parser.st_move, "alt": _Parser.st_alt,
            "guns": _Parser.st_guns, "bomb": _Parser.st_bomb, "throttle": _Parser.st_throttle,
            "automa": _Parser.st_automa, "reshuffle": _Parser.st_reshuffle, "state": _Parser.st_state}


def _ruleset_of(header: Header) -> str:
    """The ruleset a header names: its ``ruleset:``, a challenge code's own, else the default."""
    if header.ruleset is not None:
        return header.ruleset
    if header.challenge is not None:
        return _code_ruleset(header.challenge)
    return DEFAULT_RULESET


@lru_cache(maxsize=256)
def _code_ruleset(code: str) -> str:
    """A challenge code's ruleset (a folder holds many runs of one code: decoded once)."""
    try:
        return decode_code(code).ruleset
    except BGridError:  # the code's error is told when the mission is built
        return DEFAULT_RULESET


@lru_cache(maxsize=4096)
def _parse_card(text: str) -> Card:
    """Card.parse, remembered: a log repeats the same few dozen card tokens."""
    return Card.parse(text)


def _did_you_mean(word: str, known: Sequence[str]) -> str:
    """'; did you mean 'move'?' for a typo close to a known word (difflib), else ''."""
    import difflib  # here, not at the top: only a log with a typo needs it (bgrid verify's start-up)

    close = difflib.get_close_matches(word.lower(), known, n=1, cutoff=0.7)
    return f"; did you mean '{close[0]}'?" if close else ""


def _expected_one_of(word: str, known: Sequence[str]) -> str:
    """The end of an unknown-word message: the close word if there is one, then the list."""
    close = _did_you_mean(word, known)
    return f"{close} Expected one of {', '.join(known)}" if close else f": expected one of {', '.join(known)}"
