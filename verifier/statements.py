"""The parsed log: header entries and body statements, each knowing where its tokens stood.

The statement and header values are the game model's notation layer
(:mod:`rules.log_notation`), which the log writer builds and prints too; this module adds the
parsed log that holds them with the source lines.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.log_notation import Header, HeaderEntry, PieceCheck, Statement, Token, card_text

__all__ = ["Header", "HeaderEntry", "ParsedLog", "PieceCheck", "Statement", "Token", "card_text"]


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

