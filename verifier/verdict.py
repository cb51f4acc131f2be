"""Verdicts: valid, invalid or incomplete, with the score and the verification id.

The verification id is the first 16 hex digits of SHA-256 over the log re-printed
canonically (``ParsedLog.canonical_text``), the ruleset name and the map: reformatting a
log leaves it alone, editing a card, a step, a line or the claim changes it. A log that
cannot even be parsed gets the id of its raw bytes, so two players can still tell two
copies of the same broken file apart from different ones.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..challenges.mission import Origin
from ..rules.engine import Score
from ..log.messages import LogError
from .ledger import entry_dicts
from .notes import note_dicts

if TYPE_CHECKING:  # the replay builds verdicts' records; it is not needed to read one
    from .replay_history import HistoryEntry, ReplayBoard

__all__ = ["INCOMPLETE", "INVALID", "VALID", "Score", "Verdict", "raw_id", "verification_id"]

VALID, INVALID, INCOMPLETE = "valid", "invalid", "incomplete"
ID_LENGTH = 16


def verification_id(canonical_text: str, ruleset: str, map_key: str) -> str:
    # each part followed by a NUL byte, hashed as one text: compiled, every update() and
    # encode() is a method call through Python's protocol
    text = f"bgrid-verify-1\x00{ruleset}\x00{map_key}\x00{canonical_text}\x00"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:ID_LENGTH]


def raw_id(data: bytes) -> str:
    return hashlib.sha256(b"bgrid-verify-raw\x00" + data).hexdigest()[:ID_LENGTH]


@dataclass
class Verdict:
    """The answer for one log. ``trace`` holds what the HTML report draws (may be empty)."""

    verdict: str
    source: str = "log"
    outcome: str | None = None  # "victory" | "defeat" once the mission has ended
    cause: str | None = None  # why it ended: "all bunkers", "damage", "crash", "out of fuel"
    score: Score | None = None
    assurance: str | None = None  # "exact" | "consistent"
    errors: list[LogError] = field(default_factory=list)
    verification_id: str = ""
    plays: list[str] | None = None  # the body's canonical lines, which play_digest hashes
    claim: tuple[str, int] | None = None
    state: str | None = None  # the state where an incomplete log stops
    turns: int = 0  # the last turn the log wrote (where an invalid log went wrong)
    statements: int = 0
    trace: ReplayBoard | None = None
    player: str | None = None  # the header's 'player:'
    # "challenge 0M00-0001-WR3", "seed 1944, 2 ridges", "setup cards", "explicit map"
    map_source: str | None = None
    challenge: str | None = None  # the code a challenge header names (normalised once it decodes)
    origin: Origin | None = None  # where the mission came from, once it is built
    difficulty: str | None = None
    ruleset: str | None = None  # the mission's ruleset, once the map is known
    notes: list = field(default_factory=list)  # notes.Note: legal events worth a second look
    damage_ledger: list = field(default_factory=list)  # ledger.LedgerEntry, one a point of damage
    ledger_wanted: bool = False  # the error is about damage: the terminal shows the ledger
    history: list[HistoryEntry] | None = None  # the replay's engine calls, when asked for
    lines: list | None = None  # the log's lines, when it could be parsed (for the report)
    body: list | None = None  # the log's statements, with the history
    explanation: list | None = None  # --explain: the account of the replay (narrative.explain)

    @property
    def is_valid(self) -> bool:
        return self.verdict == VALID

    @property
    def play_digest(self) -> str | None:
        """SHA-256 of the body's canonical lines: the plays alone (league flags). Hashed when
        asked: only the league asks, and verifying a folder would hash every log for nothing."""
        return None if self.plays is None else hashlib.sha256("\n".join(self.plays).encode()).hexdigest()

    def summary(self) -> str:
        """One line: ``name: valid, victory (all bunkers destroyed), score 9, assurance: exact [id]``;
        an invalid log's line holds its first error whole."""
        if self.verdict == VALID:
            assert self.score is not None  # a valid log's mission has ended and been scored
            text = (f"valid, {self.outcome} ({self.cause}), score {self.score.total}, "
                    f"assurance: {self.assurance}")
        elif self.verdict == INCOMPLETE:
            text = "incomplete: the log stops before the mission ends"
        else:
            text = f"invalid: {self.errors[0]}" if self.errors else "invalid"
        return f"{self.source}: {text} [id {self.verification_id}]"

    def headline(self) -> str:
        """The first line of :meth:`render`: the summary, but an error's message is left to
        the full message below it (where and what, not the sentence twice)."""
        if self.verdict != INVALID or not self.errors:
            return self.summary()
        err = self.errors[0]
        where = f", line {err.line}, column {err.column}" if err.line is not None else ""
        return f"{self.source}: invalid ({err.code} {err.name}{where}) [id {self.verification_id}]"

    def render(self) -> str:
        """The full answer for the terminal."""
        lines = [self.headline()]
        if self.verdict == VALID and self.score is not None:
            lines.append(f"  score: {self.score.breakdown()}")
        for err in self.errors:
            lines.append(err.render(self.source))
        if self.verdict == INCOMPLETE and self.state:
            lines.append(f"  state at the end of the log: {self.state}")
        return "\n".join(lines)

    def coaching(self, *, notes: bool = True, ledger: bool = False) -> str:
        """What the terminal prints after :meth:`render`: the damage ledger (with ``ledger``,
        or when the error is a wrong damage on a state line) and the notes (unless ``notes``
        is false); empty when there is nothing to say."""
        lines = []
        if ledger or self.ledger_wanted:
            lines.append(self.ledger_text())
        if notes and self.notes:
            lines.append(f"  note{'s' if len(self.notes) > 1 else ''}:")
            lines.extend(f"    {note}" for note in self.notes)
        return "\n".join(lines)

    def ledger_text(self) -> str:
        """``damage ledger (2 points):`` and one line a point."""
        n = len(self.damage_ledger)
        head = f"  damage ledger ({n} point{'s' if n != 1 else ''}):"
        return "\n".join([head] + [f"    {entry}" for entry in self.damage_ledger])

    def as_dict(self) -> dict:
        return {
            "source": self.source,
            "verdict": self.verdict,
            "outcome": self.outcome,
            "cause": self.cause,
            "score": None if self.score is None else self.score.total,
            "breakdown": None if self.score is None else self.score.as_dict(),
            "assurance": self.assurance,
            "claim": None if self.claim is None else {"outcome": self.claim[0], "score": self.claim[1]},
            "errors": [e.as_dict() for e in self.errors],
            "verification_id": self.verification_id,
            "turns": self.turns,
            "state": self.state,
            "player": self.player,
            "map_source": self.map_source,
            "difficulty": self.difficulty,
            "notes": note_dicts(self.notes),
            "damage_ledger": entry_dicts(self.damage_ledger),
        }
