"""Every message the verifier can give: a stable code, a short name and the rule it cites.

The codes are the interface (``docs/log-format.md`` lists them all, tests check each one),
so a code never changes meaning; a new message gets a new code. E0xx is the input itself,
E1xx the notation and header, E2xx the replay against the rules.

A :class:`LogError` carries everything a player needs to find the mistake on paper: the
line and column, the quoted line with a caret under the token, the rule, the state of the
game at that moment and what would have been legal there.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from ..rules.errors import BGridError

if TYPE_CHECKING:  # the parser fills in a partial log; reading an error needs none
    from .notation import ParsedLog

#: code -> (name, rule cited by default). The rule of an E203 comes from the engine.
CATALOG: dict[str, tuple[str, str]] = {
    # -- the input ---------------------------------------------------------------------
    "E001": ("too-large", "log-format: Lexical"),
    "E002": ("bad-encoding", "log-format: Lexical"),
    "E003": ("control-character", "log-format: Lexical"),
    # -- notation ----------------------------------------------------------------------
    "E101": ("bad-card", "log-format: Lexical"),
    "E102": ("bad-cell", "log-format: Lexical"),
    "E103": ("bad-column", "log-format: Lexical"),
    "E104": ("bad-steps", "log-format: Lexical"),
    "E105": ("bad-number", "log-format: Fine print"),
    "E106": ("unknown-statement", "log-format: Body"),
    "E107": ("missing-token", "log-format: Body"),
    "E108": ("extra-token", "log-format: Body"),
    "E109": ("missing-arrow", "log-format: Body"),
    "E110": ("misplaced-none", "R36"),
    "E111": ("joker-declaration", "R12"),
    "E112": ("wrong-card-kind", "rulebook: Card Actions"),
    "E113": ("entry-column", "R13"),
    "E114": ("bad-state-key", "log-format: Body"),
    "E115": ("bad-value", "log-format: Body"),
    # -- header ------------------------------------------------------------------------
    "E120": ("missing-version", "log-format: Header"),
    "E121": ("unsupported-version", "log-format: Header"),
    "E122": ("unknown-header-key", "log-format: Header"),
    "E123": ("repeated-header-key", "log-format: Header"),
    "E124": ("header-after-turn", "log-format: Header"),
    "E125": ("statement-before-turn", "log-format: Body"),
    "E126": ("map-source", "log-format: Header"),
    "E127": ("bad-header-value", "log-format: Header"),
    "E128": ("bad-challenge-code", "R25"),
    "E129": ("bad-setup", "R27"),
    "E130": ("bad-map", "log-format: Fine print"),
    # -- replay ------------------------------------------------------------------------
    "E201": ("turn-number", "log-format: Body"),
    "E202": ("out-of-order", "R6"),
    "E203": ("illegal-play", "R7"),
    "E204": ("card-not-in-hand", "rulebook: Player Phase"),
    "E205": ("card-not-in-deck", "R22"),  # R35 once the deck has been reshuffled
    "E206": ("wrong-card", "R25"),  # R26 once the deck has been reshuffled
    "E207": ("hand-over-five", "R6"),
    "E208": ("hand-not-refilled", "R6"),
    "E209": ("reshuffle-not-empty", "R36"),
    "E210": ("none-not-at-end", "R36"),
    "E211": ("none-expected", "R36"),
    "E212": ("after-the-end", "R37"),
    "E213": ("state-mismatch", "log-format: Body"),
    "E214": ("wrong-claim", "R38"),
    # -- the verifier itself ---------------------------------------------------------------
    "E299": ("internal-error", "none: a bug in bgrid"),
}


def code_name(code: str) -> str:
    return CATALOG[code][0]


def default_rule(code: str) -> str:
    return CATALOG[code][1]


class LogError(BGridError):
    """One finding in a log: a stable ``code``, the ``rule`` cited, a plain sentence and,
    when known, the position, the quoted line, the game state and the legal alternatives.

    ``str()`` is the one-line form; :meth:`render` the full message with the caret.
    """

    def __init__(self, code: str, message: str, *, line: int | None = None, column: int | None = None,
                 token: str = "", text: str | None = None, rule: str | None = None,
                 state: str | None = None, legal: tuple[str, ...] = (), detail: str | None = None) -> None:
        if len(token) > TOKEN_MOST:  # a megabyte "word" is quoted by its start, not whole
            message = message.replace(token, clip(token))
        if len(message) > MESSAGE_LONG:  # e.g. the engine quoting a step list of thousands
            message = _LONG_WORD.sub(lambda m: clip(m.group()), message)
        super().__init__(message)
        if code not in CATALOG:
            raise ValueError(f"unknown message code {code}")
        self.code = code
        self.message = message
        self.line = line
        self.column = column
        self.token = token
        self.text = text
        self.rule = rule or default_rule(code)
        self.state = state
        self.legal = tuple(legal)
        self.detail = detail  # e.g. the engine's own code of an illegal play
        # a notation error in the body: the log read up to it (the parser sets it)
        self.partial: ParsedLog | None = None

    @property
    def name(self) -> str:
        return code_name(self.code)

    def __reduce__(self) -> tuple[Callable[..., LogError], tuple[object, ...]]:
        """Pickled by its fields (``verify --jobs`` sends verdicts between processes); the
        parser's ``partial`` log stays behind."""
        return (_rebuilt, (self.code, self.message, self.line, self.column, self.token, self.text,
                           self.rule, self.state, self.legal, self.detail))

    def located(self, *, line: int, column: int, token: str, text: str | None) -> LogError:
        """This error placed at a position (a line read on its own, then placed in its log)."""
        return LogError(self.code, self.message, line=line, column=column, token=token, text=text,
                        rule=self.rule, state=self.state, legal=self.legal, detail=self.detail)

    def with_context(self, state: str | None, legal: Iterable[str] = ()) -> LogError:
        return LogError(self.code, self.message, line=self.line, column=self.column, token=self.token,
                        text=self.text, rule=self.rule, state=state, legal=tuple(legal), detail=self.detail)

    def __str__(self) -> str:
        where = f"line {self.line}, column {self.column}: " if self.line is not None else ""
        cited = "" if cites(self.message, self.rule) else f" ({self.rule})"
        return f"{where}{self.code} {self.name}: {self.message}{cited}"

    def quote(self) -> tuple[str, str] | None:
        """The quoted line behind a gutter with its line number, and the caret line under it
        (a long line cut to a window around the caret); None without a line."""
        if self.text is None or self.line is None:
            return None
        shown, caret = quote_window(self.text, self.column or 1, self.token)
        gutter = f"{self.line:>5} | "
        return gutter + shown, " " * len(gutter) + caret

    def render(self, source: str = "log") -> str:
        """The full message: position, quoted line, caret under the token, rule, state, legal."""
        out = []
        where = f"{source}:{self.line}:{self.column}: " if self.line is not None else f"{source}: "
        out.append(f"{where}error {self.code} {self.name}: {self.message}")
        quote = self.quote()
        if quote is not None:
            out.extend(quote)
        out.append(f"  rule: {self.rule}")
        if self.state:
            out.append(f"  state: {self.state}")
        if self.legal:
            out.append("  legal here: " + "; ".join(self.legal))
        return "\n".join(out)

    def as_dict(self) -> dict:
        return {"line": self.line, "column": self.column, "token": clip(self.token), "code": self.code,
                "name": self.name, "message": self.message, "rule": self.rule, "state": self.state,
                "legal": list(self.legal), "detail": self.detail}


def _rebuilt(code: str, message: str, line: int | None, column: int | None, token: str, text: str | None,
             rule: str | None, state: str | None, legal: tuple[str, ...], detail: str | None) -> LogError:
    return LogError(code, message, line=line, column=column, token=token, text=text, rule=rule,
                    state=state, legal=legal, detail=detail)


_CITED = re.compile(r"\(([^()]*)\)")


def cites(message: str, rule: str) -> bool:
    """Whether ``message`` already names ``rule`` in brackets, alone or in a list:
    "(R6)", "(R6, R34)", "(out of fuel, R22)"; then the one-line form does not repeat it."""
    if rule not in message:  # the common case, without the search
        return False
    return any(rule in (part.strip() for part in group.replace(";", ",").split(","))
               for group in _CITED.findall(message))


QUOTE_WIDTH = 90  # characters of a quoted log line shown around the caret
CARET_MOST = 40  # carets under one token at most
TOKEN_MOST = 40  # characters of a token a message quotes
MESSAGE_LONG = 300  # longer messages have their long words clipped
_LONG_WORD = re.compile(rf"[^\s']{{{TOKEN_MOST + 1},}}")


def clip(token: str, most: int = TOKEN_MOST) -> str:
    """A token as a message quotes it: whole, or its first characters and '…'."""
    return token if len(token) <= most else _printable(token[:most - 1]) + "…"


def quote_window(text: str, column: int, token: str = "", width: int = QUOTE_WIDTH) -> tuple[str, str]:
    """The quoted line and the caret line under it, both without a gutter. A line longer
    than ``width`` is cut to a window around the caret with … marks, so a binary or
    megabyte log quotes a few dozen characters, not all of them (terminal and HTML alike)."""
    at = max(0, column - 1)  # the caret's place in the line
    marks = "^" * min(max(1, len(token)), CARET_MOST)
    if len(text) <= width:
        return _printable(text), " " * at + marks
    start = max(0, min(at - width // 3, len(text) - width))
    lead = "…" if start > 0 else ""
    tail = "…" if start + width < len(text) else ""
    shown = lead + _printable(text[start:start + width]) + tail
    marks = marks[:max(1, start + width - at)]  # the carets stay inside the window
    return shown, " " * (len(lead) + at - start) + marks


def _printable(text: str) -> str:
    """Tabs as one space (so the caret stays under the token), other controls as '?'."""
    return "".join(" " if ch == "\t" else (ch if ch.isprintable() else "?") for ch in text)
