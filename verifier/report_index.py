"""The HTML report of ``bgrid verify DIR --html``: one index page for a folder of logs,
written as the logs are verified.

A folder may hold tens of thousands of logs, so the page is streamed: its head, then one
row per log as its verdict comes, then the counts. Each row holds the verdict, outcome,
score, claim and verification id; an invalid or incomplete log folds its first error (or
where it stops) into a ``<details>`` under the row. No board: a valid row is about 0.5 kB
and a folded error about 1.5 kB, so the file stays proportionate to the folder, and the full
replay report of one log is ``bgrid verify LOG --html``. User text sits in ``<bdi>`` and
passes :func:`safe_text.html_text`, so a bidi override cannot reorder the page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import IO, Protocol, cast


from .report_html import page_environment
from ..safeio.safe_text import html_text
from .verdict import Verdict

TEMPLATE = "report_index.html.j2"


class _Macros(Protocol):
    """The macros of :data:`TEMPLATE`: each renders one piece of the page."""

    head: Callable[..., str]
    row: Callable[..., str]
    other: Callable[..., str]
    tail: Callable[..., str]


def _macros() -> _Macros:
    return cast(_Macros, page_environment().get_template(TEMPLATE).module)


def _row_view(verdict: Verdict) -> dict:
    err = verdict.errors[0] if verdict.errors else None
    quote = err.quote() if err is not None else None
    return {"source": verdict.source, "verdict": verdict.verdict, "player": verdict.player,
            "map": verdict.map_source, "difficulty": verdict.difficulty,
            "outcome": None if verdict.outcome is None else f"{verdict.outcome} ({verdict.cause})",
            "score": None if verdict.score is None else verdict.score.total,
            "breakdown": None if verdict.score is None else verdict.score.breakdown(),
            "claim": None if verdict.claim is None else f"{verdict.claim[0]} {verdict.claim[1]}",
            "id": verdict.verification_id, "state": verdict.state,
            "error": None if err is None else {
                "where": (f"line {err.line}, column {err.column}" if err.line is not None
                          else "the whole file"),
                "code": err.code, "name": err.name, "message": err.message, "rule": err.rule,
                "quote": None if quote is None else "\n".join(quote), "state": err.state}}


class FolderIndex:
    """Writes the index page to ``out`` (a text handle) piece by piece; holds only counts."""

    def __init__(self, out: IO[str]):
        self._out = out
        self._macros = _macros()
        self._rows = 0
        self.counts = {"valid": 0, "invalid": 0, "incomplete": 0, "unreadable": 0, "skipped": 0}

    def _write(self, markup: str) -> None:
        self._out.write(html_text(str(markup)))

    def begin(self) -> None:
        self._write(self._macros.head())

    def verdict(self, verdict: Verdict) -> None:
        self._rows += 1
        self.counts[verdict.verdict] += 1
        self._write(self._macros.row(self._rows, _row_view(verdict)))

    def not_verified(self, source: str, kind: str, reason: str) -> None:
        """A matching entry that was not verified: ``kind`` is "unreadable" or "skipped"."""
        self._rows += 1
        self.counts[kind] += 1
        self._write(self._macros.other(self._rows, source, kind, reason))

    def end(self) -> None:
        self._write(self._macros.tail(self.counts, sum(self.counts.values())))
