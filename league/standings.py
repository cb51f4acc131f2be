"""Standings: who did best on each challenge, and over a season of challenges.

The policy (``README.md``, "Running a league", says the same):

- Only valid entries are ranked. A player's result on a challenge is their best valid
  entry: the highest score (R24); on equal scores fewer turns; then the earlier submission.
  Players are ranked by that same order, so every rank is distinct.
- ``attempts`` counts every entry the player has on that challenge: valid, invalid and
  incomplete (a duplicate is not an entry, an edited log is).
- Invalid and incomplete entries are listed apart, each with its first error, never ranked.
- A challenge with a par (``bgrid league par``) shows each score against it, and against its
  blind benchmark when one was measured (``--blind``; R42: the open-deck par knows every
  card, the blind benchmark is the strong player drawing blind); neither changes the ranking
  (a higher score is better either way).
- The season table adds up, for each player, the scores of their results on the
  challenges shown: all of them (total) or only their ``best`` N highest. Ties: fewer
  turns over the counted results, then the earlier last submission among them.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import NamedTuple

from ..log.messages import CATALOG
from .store import RANK_SQL, ChallengePar, challenge_pars, rank_key, where_clause

INCOMPLETE_TEXT = "the log stops before the mission ends"


# Tuples, not dataclasses: a standings table of a 100,000-entry challenge builds tens of
# thousands of rows, and a named tuple is built several times faster.
class Standing(NamedTuple):
    rank: int
    player: str
    challenge: str | None
    outcome: str
    score: int
    turns: int
    damage: int
    attempts: int
    verification_id: str
    entry_id: int
    submitted_at: str
    player_from_file: int
    par: int | None = None
    blind: float | None = None  # the blind benchmark's median (R42), when measured

    @property
    def to_par(self) -> int | None:
        """The score less the par (a score above par is positive, R24's direction)."""
        return None if self.par is None else self.score - self.par

    @property
    def to_blind(self) -> float | None:
        """The score less the blind benchmark (above it is positive)."""
        return None if self.blind is None else _number(self.score - self.blind)

    def as_dict(self) -> dict:
        out = {k: getattr(self, k) for k in ("rank", "player", "challenge", "outcome", "score", "turns",
                                             "damage", "attempts", "verification_id")}
        out["player_from_file"] = bool(self.player_from_file)
        if self.par is not None:  # a league without pars prints what it always printed
            out |= {"par": self.par, "to_par": self.to_par}
        if self.blind is not None:
            out |= {"blind_median": _number(self.blind), "to_blind": self.to_blind}
        return out


class Unranked(NamedTuple):
    player: str
    challenge: str | None
    verdict: str
    error: str
    verification_id: str
    entry_id: int
    submitted_at: str
    player_from_file: int = 0

    def as_dict(self) -> dict:
        out = {k: getattr(self, k) for k in ("player", "challenge", "verdict", "error", "verification_id")}
        out["player_from_file"] = bool(self.player_from_file)
        return out


@dataclass(frozen=True)
class SeasonRow:
    rank: int
    player: str
    points: int
    counted: int  # challenges whose score is in the points
    played: int  # challenges with a valid result
    turns: int

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class Standings:
    standings: list[Standing] = field(default_factory=list)
    unranked: list[Unranked] = field(default_factory=list)
    season: list[SeasonRow] = field(default_factory=list)
    best: int | None = None
    pars: dict[str, ChallengePar] = field(default_factory=dict)

    @property
    def challenges(self) -> list[str | None]:
        seen = dict.fromkeys(s.challenge for s in self.standings)
        seen.update(dict.fromkeys(u.challenge for u in self.unranked))
        return sorted(seen, key=lambda c: (c is None, c or ""))

    def as_dict(self) -> dict:
        out = {"standings": [s.as_dict() for s in self.standings],
               "unranked": [u.as_dict() for u in self.unranked],
               "season": {"best": self.best, "table": [r.as_dict() for r in self.season]}}
        if self.pars:
            out["pars"] = {c: par_record(p) for c, p in sorted(self.pars.items())}
        return out


def compute_standings(conn: sqlite3.Connection, challenges: Iterable[str] = (),
                      best: int | None = None) -> Standings:
    """The standings of the given challenges (all when none are given)."""
    out = Standings(best=best, pars=challenge_pars(conn, challenges))
    par = {c: p.par for c, p in out.pars.items()}
    blind = {c: p.blind_median for c, p in out.pars.items()}
    where, args = where_clause(challenges, table="results")
    cursor = conn.cursor()
    cursor.row_factory = None  # plain tuples
    rank, current = 0, object()
    for row in cursor.execute(f"""
            SELECT player, challenge, outcome, score, turns, damage, attempts, verification_id, entry_id,
                   submitted_at, player_from_file
            FROM results {where} {'AND' if where else 'WHERE'} entry_id IS NOT NULL
            ORDER BY challenge, {RANK_SQL}""", args):
        rank = rank + 1 if row[1] == current else 1
        current = row[1]
        out.standings.append(Standing._make((rank, *row, par.get(row[1]), blind.get(row[1]))))
    where, args = where_clause(challenges)
    invalid = f"{where} {'AND' if where else 'WHERE'} verdict != 'valid'"
    for row in cursor.execute("SELECT player, challenge, verdict, error_code, error_line, error_message, "
                            f"verification_id, id, submitted_at, player_from_file FROM entries {invalid} "
                            "ORDER BY challenge, player, submitted_at, id", args):
        player, challenge, verdict, code, line, message, verification_id, entry_id, at, from_file = row
        out.unranked.append(Unranked(player, challenge, verdict, error_text(code, line, message),
                                     verification_id, entry_id, at, from_file))
    shown = set(out.challenges)
    out.pars = {c: p for c, p in out.pars.items() if c in shown}
    if len({s.challenge for s in out.standings}) > 1:  # one challenge's season is its standings
        out.season = season_table(out.standings, best)
    return out


def error_text(code: str | None, line: int | None, message: str | None) -> str:
    """An unranked entry's first error in one line: ``E206 wrong-card, line 8: …``."""
    if code is None:
        return INCOMPLETE_TEXT
    where = f", line {line}" if line is not None else ""
    return f"{code} {CATALOG.get(code, ('error',))[0]}{where}: {message}"


def season_table(standings: list[Standing], best: int | None = None) -> list[SeasonRow]:
    """Each player's points over the challenges: the sum of their scores, or of their
    ``best`` N highest (see the module docstring for the order)."""
    results: dict[str, list[Standing]] = defaultdict(list)
    for s in standings:
        results[s.player].append(s)
    rows = []
    for player, mine in results.items():
        mine = sorted(mine, key=lambda s: rank_key(s._asdict()))
        counted = mine if best is None else mine[:best]
        rows.append((-sum(s.score for s in counted), sum(s.turns for s in counted),
                     max(s.submitted_at for s in counted), player, len(counted), len(mine)))
    rows.sort()
    return [SeasonRow(rank, player, -points, counted, played, turns)
            for rank, (points, turns, _, player, counted, played) in enumerate(rows, start=1)]


def against_par(standing: Standing) -> str:
    """``open-deck par 15, -1`` (a score one below par), with ``· blind benchmark 4, +10``
    when the blind benchmark is known; "" without a par."""
    if standing.par is None:
        return ""
    text = f"open-deck par {standing.par}, {standing.to_par:+d}"
    if standing.blind is not None:
        text += f" · blind benchmark {_number(standing.blind)}, {standing.to_blind:+}"
    return text


def par_source(par: ChallengePar) -> str:
    """``open-deck par 15, solver v2`` or ``open-deck par 15, given``, then ``· blind
    benchmark 4 (40 runs, 95% 3–6)`` when measured: the yardsticks and where they came from."""
    text = f"open-deck par {par.par}, {'given' if par.portfolio is None else f'solver v{par.portfolio}'}"
    if par.blind_median is not None and par.blind_interval is not None:
        low, high = par.blind_interval
        text += (f" · blind benchmark {_number(par.blind_median)} ({par.blind_runs} runs, "
                 f"95% {low}–{high})")
    return text


def par_record(par: ChallengePar) -> dict:
    """A challenge's yardsticks in the standings JSON: ``par`` and ``portfolio`` as ever, the
    ``blind_*`` keys when the blind benchmark was measured."""
    out: dict = {"par": par.par, "portfolio": par.portfolio}
    if par.blind_median is not None:
        out |= {"blind_median": _number(par.blind_median), "blind_runs": par.blind_runs,
                "blind_interval": list(par.blind_interval or ())}
    return out


def _number(x: float) -> int | float:
    return int(x) if x == int(x) else x


