"""Coverage-guided fuzzing of the league's submission path with atheris.

    pip install -e '.[fuzz]'
    python fuzz/fuzz_league.py fuzz/league-corpus -runs=20000      # or -max_total_time=20

Each input is a file a stranger sends in: its first line is the file name it arrives under
(a player without a ``player:`` line is named after it), the rest is the log. It is submitted
to a league (one SQLite file for the run, in a temporary folder) as ``bgrid league submit``
does, and then shown every way the league shows an entry: the standings as text, JSON and
CSV, ``league show``'s replay, and its published replay report. It fails when any step raises,
when the entry is not recorded (new or a duplicate), when the stored log replays to another
verdict than the one recorded, or when a terminal, JSON or CSV output holds a raw control,
bidi or invisible character, or a page a raw bidi control. The corpus is seeded as
``fuzz_verify.py``'s, with the test logs, each under a file name.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

try:
    import atheris
except ImportError:  # tests/test_fuzz_harnesses.py runs check_submission without the fuzzer
    atheris = None


def _imports():
    from bgrid.league import export
    from bgrid.safeio import safe_text
    from bgrid.league import compute_standings, create_league, find_entry, open_league, submit_logs
    from bgrid.league.page import report_html
    from bgrid.verifier.verify import verify_log
    return export, safe_text, compute_standings, create_league, find_entry, open_league, submit_logs, \
        report_html, verify_log


if atheris is not None:
    with atheris.instrument_imports(include=["bgrid"]):
        (export, safe_text, compute_standings, create_league, find_entry, open_league, submit_logs,
         report_html, verify_log) = _imports()
else:
    (export, safe_text, compute_standings, create_league, find_entry, open_league, submit_logs,
     report_html, verify_log) = _imports()

# what no terminal, JSON or CSV output may hold raw (safeio.safe_text escapes them)
RAW_TERMINAL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
                          "\u061c\u200b\u200e\u200f\u2028\u2029\ufeff]")
RAW_PAGE = re.compile("[\u202a-\u202e\u2066-\u2069\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


class League:
    """One league file for a whole run: submissions accumulate, as in a real week."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="bgrid-fuzz-league-"))
        create_league(self.folder / "league.db")
        self.conn = open_league(self.folder / "league.db")

    def close(self) -> None:
        self.conn.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def split_input(data: bytes) -> tuple[str, bytes]:
    """The file name (the first line, as the file system would hand it over) and the log."""
    name, _, log = data.partition(b"\n")
    return (name[:200].replace(b"/", b"_").decode("utf-8", "surrogateescape") or "x") + ".log", log


def check_submission(league: League, data: bytes) -> None:
    name, log = split_input(data)
    # the name as `bgrid league submit` hands it over: verify's list_inputs shows it safely
    [sub] = list(submit_logs(league.conn, [(safe_text.display_name(f"inbox/{name}"), log)]))
    row = find_entry(league.conn, str(sub.entry_id))
    if row is None:
        raise AssertionError(f"entry {sub.entry_id} was reported but is not recorded")
    again = verify_log(row["log"], source=row["source"])  # what league show and the report replay
    if again.verdict != row["verdict"] or again.verification_id != row["verification_id"]:
        raise AssertionError(f"entry {sub.entry_id} replays to {again.verdict} [{again.verification_id}], "
                             f"recorded {row['verdict']} [{row['verification_id']}]")
    table = compute_standings(league.conn)
    outputs = {"text": export.standings_text(table), "csv": export.standings_csv(table),
               "json": safe_text.printable_lines(json.dumps(table.as_dict(), indent=2, ensure_ascii=False))}
    json.loads(outputs["json"])
    for kind, text in outputs.items():
        bad = RAW_TERMINAL.search(text.replace("\n", " "))
        if bad is not None:
            raise AssertionError(f"standings {kind}: raw U+{ord(bad.group()):04X}")
        text.encode("utf-8")
    page = report_html(row)
    bad = RAW_PAGE.search(page)
    if bad is not None:
        raise AssertionError(f"replay report: raw U+{ord(bad.group()):04X}")
    page.encode("utf-8")


def main() -> None:
    if atheris is None:
        sys.exit("atheris is not installed: pip install -e '.[fuzz]'")
    from corpus import seed_corpus  # a sibling: the harness runs as a script (the suite loads it by path)

    seed_corpus(sys.argv, lambda k, log: (f"seed-{k:03d}", log.stem.encode() + b"\n" + log.read_bytes()))
    league = League()
    try:
        atheris.Setup(sys.argv, lambda data: check_submission(league, data))
        atheris.Fuzz()
    finally:
        league.close()


if __name__ == "__main__":
    main()
