"""Every message the verifier can give: a stable code, a short name and the rule it cites.

The codes are the interface (``docs/log-format.md`` lists them all, tests check each one),
so a code never changes meaning; a new message gets a new code. E0xx is the input itself,
E1xx the notation and header, E2xx the replay against the rules.

A :class:`LogError` carries everything a player needs to find the mistake on paper: the
line and column, the quoted line with a caret under the token, the rule, the state of the
game at that moment and what would have been legal there.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.errors import BGridError

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
    "E205": ("card-not-in-deck", "log-format: What the verifier answers"),
    "E206": ("wrong-card", "R26"),
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


@dataclass(frozen=True)
class Position:
    """Where in the log: line 1-based, column 1-based in characters, the token there."""

    line: int
    column: int
    token: str = ""


class LogError(BGridError):
    """One finding in a log: a stable ``code``, the ``rule`` cited, a plain sentence and,
    when known, the position, the quoted line, the game state and the legal alternatives.

    ``str()`` is the one-line form; :meth:`render` the full message with the caret.
    """

    def __init__(self, code: str, message: str, *, line: int | None = None, column: int | None = None,
                 token: str = "", text: str | None = None, rule: str | None = None,
                 state: str | None = None, legal: tuple[str, ...] = (), detail: str | None = None) -> None:
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
        self.partial = None  # a notation error in the body: the log read up to it (the parser sets it)

    @property
    def name(self) -> str:
        return code_name(self.code)

    def located(self, *, line: int, column: int, token: str, text: str | None) -> LogError:
        """This error placed at a position (used when the position is known only later)."""
        return LogError(self.code, self.message, line=line, column=column, token=token, text=text,
                        rule=self.rule, state=self.state, legal=self.legal, detail=self.detail)

    def with_context(self, state: str | None, legal=()) -> LogError:
        return LogError(self.code, self.message, line=self.line, column=self.column, token=self.token,
                        text=self.text, rule=self.rule, state=state, legal=tuple(legal), detail=self.detail)

    def __str__(self) -> str:
        where = f"line {self.line}, column {self.column}: " if self.line is not None else ""
        cited = "" if self.message.endswith(f"({self.rule})") else f" ({self.rule})"
        return f"{where}{self.code} {self.name}: {self.message}{cited}"

    def render(self, source: str = "log") -> str:
        """The full message: position, quoted line, caret under the token, rule, state, legal."""
        out = []
        where = f"{source}:{self.line}:{self.column}: " if self.line is not None else f"{source}: "
        out.append(f"{where}error {self.code} {self.name}: {self.message}")
        if self.text is not None and self.line is not None:
            shown = _printable(self.text)
            gutter = f"{self.line:>5} | "
            out.append(gutter + shown)
            width = max(1, len(_printable(self.token))) if self.token else 1
            out.append(" " * (len(gutter) + (self.column or 1) - 1) + "^" * min(width, 40))
        out.append(f"  rule: {self.rule}")
        if self.state:
            out.append(f"  state: {self.state}")
        if self.legal:
            out.append("  legal here: " + "; ".join(self.legal))
        return "\n".join(out)

    def as_dict(self) -> dict:
        return {"line": self.line, "column": self.column, "token": self.token, "code": self.code,
                "name": self.name, "message": self.message, "rule": self.rule, "state": self.state,
                "legal": list(self.legal), "detail": self.detail}


def _printable(text: str) -> str:
    """Tabs as one space (so the caret stays under the token), other controls as '?'."""
    return "".join(" " if ch == "\t" else (ch if ch.isprintable() else "?") for ch in text)
