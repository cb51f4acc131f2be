"""The organiser's exports: every entry (JSON and CSV: entry, player, submitted at, verdict,
score, flags), the audit log with them, and all stored logs in a zip, byte for byte."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import zipfile

from ..safeio.safe_text import terminal_text
from .admin import audit_log

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
