"""The organiser's exports: every entry (JSON and CSV: entry, player, submitted at, verdict,
score, flags), the audit log with them, and all stored logs in a zip, byte for byte; the
standings as text and CSV beside the JSON (``Standings.as_dict``) and the page (``page``)."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import zipfile

from ..safeio.safe_text import terminal_text
from .admin import audit_log
from .standings import Standings, against_par, par_source

ENTRY_COLUMNS = (
    "entry",
    "player",
    "challenge",
    "submitted_at",
    "verdict",
    "score",
    "turns",
    "verification_id",
    "withdrawn",
    "flags",
)

STANDINGS_COLUMNS = ("rank", "player", "challenge", "verdict", "outcome", "score", "turns", "damage",
                     "attempts", "verification_id", "error", "player_from_file")
FROM_FILE = " (no player: line; named after its file)"


def spreadsheet_safe(text: object) -> str:
    """A CSV cell a spreadsheet will not run as a formula (OWASP: CSV injection), with its
    control, bidi and invisible characters escaped as in the terminal (``\\u202e``)."""
    text = "" if text is None else terminal_text(str(text))
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def entry_records(conn: sqlite3.Connection) -> list[dict]:
    flags: dict[int, list[dict]] = {}
    for r in conn.execute("SELECT entry_id, kind, evidence FROM flags ORDER BY id"):
        flags.setdefault(r["entry_id"], []).append({"kind": r["kind"], "evidence": r["evidence"]})
    return [
        {
            "entry": r["id"],
            "player": r["player"],
            "challenge": r["challenge"],
            "submitted_at": r["submitted_at"],
            "verdict": r["verdict"],
            "score": r["score"],
            "turns": r["turns"],
            "verification_id": r["verification_id"],
            "withdrawn": r["withdrawn"],
            "flags": flags.get(r["id"], []),
        }
        for r in conn.execute(
            "SELECT id, player, challenge, submitted_at, verdict, score, turns, "
            "verification_id, withdrawn FROM entries ORDER BY id"
        )
    ]


def export_json(conn: sqlite3.Connection) -> str:
    return (
        json.dumps({"entries": entry_records(conn), "audit": audit_log(conn)}, indent=2, ensure_ascii=False)
        + "\n"
    )


def export_csv(conn: sqlite3.Connection) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(ENTRY_COLUMNS)
    for e in entry_records(conn):
        flags = "; ".join(f"{f['kind']}: {f['evidence']}" for f in e["flags"])
        writer.writerow(
            [
                e["entry"],
                spreadsheet_safe(e["player"]),
                spreadsheet_safe(e["challenge"]),
                e["submitted_at"],
                e["verdict"],
                "" if e["score"] is None else e["score"],
                e["turns"],
                e["verification_id"],
                spreadsheet_safe(e["withdrawn"]),
                spreadsheet_safe(flags),
            ]
        )
    return buffer.getvalue()


def audit_csv(conn: sqlite3.Connection) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(("id", "at", "action", "target", "reason"))
    for a in audit_log(conn):
        writer.writerow(
            [a["id"], a["at"], a["action"], spreadsheet_safe(a["target"]), spreadsheet_safe(a["reason"])]
        )
    return buffer.getvalue()


def export_zip(conn: sqlite3.Connection) -> bytes:
    """A zip of ``logs/<entry>-<verification id>.log`` (the stored bytes), ``entries.json``,
    ``entries.csv`` and ``audit.csv``. Names are built from numbers and hex ids only."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for r in conn.execute(
            "SELECT entries.id, entries.verification_id, logs.log FROM entries "
            "JOIN logs ON logs.entry_id = entries.id ORDER BY entries.id"
        ):
            archive.writestr(f"logs/{r['id']}-{r['verification_id']}.log", bytes(r["log"]))
        archive.writestr("entries.json", export_json(conn))
        archive.writestr("entries.csv", export_csv(conn))
        archive.writestr("audit.csv", audit_csv(conn))
    return buffer.getvalue()


def standings_csv(table: Standings) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    # par columns only when a challenge has a par: a league without pars prints what it did
    with_par = bool(table.pars)
    with_blind = any(p.blind_median is not None for p in table.pars.values())
    writer.writerow(STANDINGS_COLUMNS + (("par", "to_par") if with_par else ())
                    + (("blind_median", "to_blind") if with_blind else ()))
    for s in table.standings:
        par = [s.par, s.to_par] if with_par else []
        blind = ["" if s.blind is None else s.blind, "" if s.to_blind is None else s.to_blind] * with_blind
        writer.writerow([s.rank, spreadsheet_safe(s.player), spreadsheet_safe(s.challenge), "valid",
                         s.outcome, s.score, s.turns, s.damage, s.attempts, s.verification_id, "",
                         int(bool(s.player_from_file)), *par, *blind])
    for u in table.unranked:
        writer.writerow(["", spreadsheet_safe(u.player), spreadsheet_safe(u.challenge), u.verdict,
                         "", "", "", "", "", u.verification_id, spreadsheet_safe(u.error),
                         int(bool(u.player_from_file))]
                        + ["", ""] * with_par + ["", ""] * with_blind)
    return buffer.getvalue()


def standings_text(table: Standings) -> str:
    lines = []
    for challenge in table.challenges:
        ranked = [s for s in table.standings if s.challenge == challenge]
        unranked = [u for u in table.unranked if u.challenge == challenge]
        par = None if challenge is None else table.pars.get(challenge)
        lines.append(f"{terminal_text(challenge or 'logs naming no readable map')}"
                     f"{f' ({par_source(par)})' if par else ''}: "
                     f"{len(ranked)} ranked, {len(unranked)} unranked")
        for s in ranked:
            lines.append(f"  {s.rank:>4}. {terminal_text(s.player)}{FROM_FILE * bool(s.player_from_file)}"
                         f"  {s.score:+d}"
                         f"{f' ({against_par(s)})' if s.par is not None else ''} {s.outcome}, "
                         f"{s.turns} turns, {s.damage} damage, "
                         f"{s.attempts} attempt{'s' if s.attempts != 1 else ''}  "
                         f"[id {s.verification_id}]")
        for u in unranked:
            lines.append(f"     -  {terminal_text(u.player)}{FROM_FILE * bool(u.player_from_file)}  "
                         f"{u.verdict}: {terminal_text(u.error)}  "
                         f"[id {u.verification_id}]")
    if table.season:
        lines.append(f"season ({'best ' + str(table.best) if table.best else 'total'}):")
        for r in table.season:
            lines.append(f"  {r.rank:>4}. {terminal_text(r.player)}  {r.points} points from {r.counted} "
                         f"challenge{'s' if r.counted != 1 else ''}, {r.turns} turns")
    if not lines:
        lines.append("no entries yet")
    return "\n".join(lines)
