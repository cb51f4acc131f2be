"""``bgrid league``: a league database of verified submissions, and its standings."""

from __future__ import annotations

import functools
import json
import os
import sqlite3
from datetime import UTC, datetime
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import click

from .verifier.log_inputs import Unreadable, list_inputs, read_input
from .league import (create_league, find_entry, list_entries, open_league, submit_logs)
from .league.export import standings_csv, standings_text
from .league.page import reports_folder_name
from .league.public import standings_of
from .league.standings import Standings, par_source
from .league.store import ChallengePar, challenge_pars, failure_text, league_challenges, set_par
from .league.submit import replay, utc_now
from .options import LEAGUE_DB, Utf8Text, WholeNumber
from .players.blind import BLIND_RUNS
from .challenges.codes import decode_code, encode_code
from .rules.errors import BGridError, ChallengeCodeError
from .safeio.safe_text import display_name, one_line, printable_lines, terminal_text

R = TypeVar("R")  # what a wrapped command returns
# One transaction per log adds a quarter to a half to the verifier's time, batches of 100
# under a quarter (bench/bench_league.py, docs/running-a-league.md).
DEFAULT_BATCH = 50


def league_errors(command: Callable[..., R]) -> Callable[..., R]:
    """A database failure (a read-only or full disk, a damaged file) as one line, exit 2."""
    @functools.wraps(command)
    def run(**params: Any) -> R:
        try:
            return command(**params)
        except sqlite3.Error as exc:
            raise BGridError(f"the league {params['league']} failed: {failure_text(exc)}") from None
    return run


def challenge_names(codes: Iterable[str]) -> list[str]:
    """--challenge values as stored: a challenge code in its printed form, else as given."""
    out = []
    for code in codes:
        try:
            out.append(encode_code(decode_code(code)))
        except ChallengeCodeError:
            out.append(code.strip())
    return out


def refuse_unknown_challenges(conn: sqlite3.Connection, named: list[str], league: str) -> None:
    """A --challenge the league holds no entry for is a typo, not an empty table: refused
    (exit 2, nothing written) with the league's challenges listed."""
    held = league_challenges(conn)
    missing = [name for name in named if name not in held]
    if missing:
        shown = ", ".join(terminal_text(c) for c in held[:12]) + (", …" if len(held) > 12 else "")
        raise BGridError(f"--challenge '{missing[0]}': the league {league} has no entry on it; "
                         + (f"its challenges: {shown}" if held else "it has no entries yet"))


@click.group("league")
def league_group() -> None:
    """Keep a league: a SQLite file of every submitted log with its verdict, and standings.

    \b
    Examples:
      bgrid league init week49.db
      bgrid league submit week49.db inbox/
      bgrid league standings week49.db --html standings.html
    """


@league_group.command("init", short_help="Create an empty league database.")
@LEAGUE_DB
@click.option("--admin-key-file", "key_file", default=None, metavar="FILE",
              help="Write a new organiser key (for bgrid serve's admin pages and API) to FILE, "
                   "readable by you only (mode 0600); the league stores only its hash.")
@league_errors
def init_command(league: str, key_file: str | None) -> None:
    """Create an empty league database (an existing league is left as it is).

    \b
    Examples:
      bgrid league init week49.db
      bgrid league init week49.db --admin-key-file organiser.key
    """
    if not league.strip():
        raise click.BadParameter("needs a file name, e.g. week49.db", param_hint="LEAGUE.db")
    from .safeio.safe_output import check_target

    if key_file is not None:  # before any work: a bad key file name is the one line of output
        if Path(key_file).exists():
            raise click.BadParameter(f"'{display_name(key_file)}' exists; a key file is never overwritten "
                                     "(remove it first to replace the organiser key)",
                                     param_hint="--admin-key-file")
        check_target(key_file, "the organiser key file", [league])
    if not Path(league).exists():  # a new file: not through a dangling symlink, in a real folder
        check_target(league, "the league")
    if create_league(league):
        click.echo(f"created the league {display_name(league)}")
    else:
        click.echo(f"{display_name(league)} is already a league; nothing changed")
    if key_file is not None:
        from .league.players import set_admin_key

        conn = open_league(league)
        try:
            key = set_admin_key(conn)
        finally:
            conn.close()
        write_secret(Path(key_file), key + "\n")
        click.echo(f"organiser key written to {display_name(key_file)} "
                   "(mode 0600; the league keeps its hash)")


def write_secret(path: Path, text: str) -> None:
    """Create ``path`` holding ``text``, readable and writable by its owner only (0600 from the
    start: the key is never in a file others can read, even for a moment)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)


@league_group.command("backup", short_help="Copy the league, even while it is served, and check the copy.")
@LEAGUE_DB
@click.argument("out", metavar="OUT")
@league_errors
def backup_command(league: str, out: str) -> None:
    """Copy the league to the new file OUT with SQLite's online backup: a consistent copy of
    the league as it stood at one moment, taken while bgrid serve goes on writing (it waits
    for no one and no one waits for it). The copy is checked (SQLite's integrity check, every
    entry with its log) and appears complete under its name, or not at all. OUT must be a new
    name: a backup never replaces a file, the league or a database's -wal, -shm or -journal.

    To restore: stop the server, run bgrid league restore LEAGUE.db OUT, start the server.

    \b
    Examples:
      bgrid league backup week49.db backups/week49-2026-12-04.db
      bgrid league backup /var/lib/bgrid/league.db "league-$(date -u +%FT%H%M).db"
    """
    from .league.backup import backup_league

    started = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    checked = backup_league(league, out)
    click.echo(f"copied {display_name(league)} at {started} to {display_name(out)}: {checked.contents()}; "
               f"{checked.size_text()}, SQLite's integrity check: ok")


@league_group.command("restore", short_help="Put a backup in place as the league, the old files moved aside.")
@LEAGUE_DB
@click.argument("backup", metavar="BACKUP", type=Utf8Text())
@league_errors
def restore_command(league: str, backup: str) -> None:
    """Put the backup BACKUP in place as the league LEAGUE.db, with the server stopped. The
    backup is checked, copied beside the league and checked again; then the league it
    replaces is moved aside with its -wal, -shm and -journal files (to
    LEAGUE.db.replaced-STAMP, never deleted) and the copy takes its name. A stale -wal left
    beside a restored league would be written into it by SQLite: that is why it goes too.
    Refused while the league is open (a running bgrid serve): nothing is changed then.

    \b
    Examples:
      bgrid league restore week49.db backups/week49-2026-12-04.db
    """
    from .league.backup import restore_league

    done = restore_league(backup, league, now=datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ"))
    click.echo(f"restored {display_name(backup)} as {display_name(league)}: {done.checked.contents()}; "
               f"{done.checked.size_text()}, SQLite's integrity check: ok")
    for old, new in done.moved:
        click.echo(f"moved {display_name(old)} aside to {display_name(new)}")
    if done.moved:
        click.echo("start the server again; remove the files moved aside once the restored league serves")


@league_group.command("check", short_help="Check a league file (a backup, say): integrity and contents.")
@LEAGUE_DB
@league_errors
def check_command(league: str) -> None:
    """Check any file as a league without changing it: SQLite's full integrity check, the
    league's mark and schema version, every entry with its stored log; print what it holds.
    Safe on a league being served. Exit status: 0 sound, 1 damaged, not a league, or not
    safe to open where it lies (a restored copy beside another file's -wal).

    \b
    Examples:
      bgrid league check backups/week49-2026-12-04.db
      bgrid league check week49.db
    """
    from .league.backup import check_league

    checked = check_league(league)
    click.echo(terminal_text(checked.text()))
    if not checked.is_sound:
        click.get_current_context().exit(1)


@league_group.command("open", short_help="Run a challenge in the league, with its window and attempts.")
@LEAGUE_DB
@click.argument("code", metavar="CODE", type=Utf8Text())
@click.option("--from", "opens", required=True, type=Utf8Text(), metavar="ISO",
              help="When submissions open (ISO 8601; UTC unless an offset is given).")
@click.option("--until", "closes", required=True, type=Utf8Text(), metavar="ISO",
              help="When submissions close; the standings freeze then.")
@click.option("--attempts", default="best", show_default=True, type=Utf8Text(), metavar="best|first|N",
              help="Which attempts count: the best of all, the first valid one, or the best of the first N.")
@league_errors
def open_command(league: str, code: str, opens: str, closes: str, attempts: str) -> None:
    """Run a challenge in the league (bgrid serve takes its submissions within the window);
    run again to change its window or attempts policy. The audit log records it.

    \b
    Examples:
      bgrid league open week49.db 0GDR-FC73-W4T --from 2026-11-30 --until 2026-12-07
      bgrid league open day.db 0GDR-FC73-W4T --from 2026-12-01T18:00Z --until 2026-12-02 --attempts 3
    """
    from .league.windows import WindowError, describe_attempts, open_challenge

    conn = open_league(league)
    try:
        window = open_challenge(conn, code, opens, closes, attempts, now=utc_now())
    except ChallengeCodeError as exc:
        raise click.BadParameter(f"'{one_line(code)}': {exc}", param_hint="CODE") from None
    except WindowError as exc:
        raise click.UsageError(str(exc)) from None
    finally:
        conn.close()
    click.echo(f"{window.code}: {window.text()}, {describe_attempts(window.attempts)}")


@league_group.command("submit")
@LEAGUE_DB
@click.argument("logs", nargs=-1, required=True, metavar="LOG...")
@click.option("--batch", type=WholeNumber(1, 10_000), default=DEFAULT_BATCH, show_default=True,
              metavar="N",
              help="Logs recorded per database transaction (a killed run loses at most the "
                   "uncommitted batch; run it again to finish).")
@league_errors
def submit_command(league: str, logs: tuple[str, ...], batch: int) -> None:
    """Verify logs and record each one with its verdict. The same log sent again (even
    reformatted) is reported as a duplicate and recorded once; an edited log is a new attempt.
    A log without a 'player:' line is recorded under its file name and flagged.

    LOG is a file, a folder (its *.log and *.txt files, sorted) or - for standard input.
    Exit status: 0 every log recorded (whatever its verdict), 2 a file that cannot be read.

    \b
    Examples:
      bgrid league submit week49.db inbox/
      bgrid league submit week49.db ada.log bo.log
    """
    if list(logs).count("-") > 1:
        raise click.UsageError("'-' (standard input) can be given only once")
    try:
        items, unreadable = list_inputs(logs)
    except Unreadable as exc:
        raise click.UsageError(str(exc)) from None
    for message in unreadable:
        click.echo(f"Error: {one_line(message)}", err=True)
    conn = open_league(league)

    def readable() -> Iterator[tuple[str, bytes]]:
        for item in items:
            if item.skipped is not None:
                unreadable.append(f"{item.shown}: skipped, {item.skipped}")
                click.echo(f"Error: {one_line(unreadable[-1])}", err=True)
                continue
            try:
                yield item.shown, read_input(item)
            except Unreadable as exc:
                unreadable.append(str(exc))
                click.echo(f"Error: {one_line(str(exc))}", err=True)

    counts = {"recorded": 0, "duplicate": 0}
    try:
        for sub in submit_logs(conn, readable(), batch=batch):
            counts["recorded" if sub.is_new else "duplicate"] += 1
            line = f"#{sub.entry_id} {terminal_text(sub.summary)}"
            if sub.is_new and sub.player_from_file:
                line += f" (no player: line; recorded as '{terminal_text(sub.player)}')"
            click.echo(line)
    finally:
        conn.close()
    click.echo(f"recorded {counts['recorded']}, duplicates {counts['duplicate']}, "
               f"unreadable {len(unreadable)}")
    if unreadable:
        click.get_current_context().exit(2)


@league_group.command("list")
@LEAGUE_DB
@click.option("--challenge", "challenges", type=Utf8Text(), multiple=True, metavar="CODE",
              help="Only this challenge (repeatable).")
@click.option("--player", type=Utf8Text(), default=None, metavar="NAME", help="Only this player.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
@league_errors
def list_command(league: str, challenges: tuple[str, ...], player: str | None, as_json: bool) -> None:
    """List the recorded entries in submission order.

    \b
    Examples:
      bgrid league list week49.db
      bgrid league list week49.db --challenge 0GDR-FC73-W4T --player Ada
    """
    conn = open_league(league, write=False)
    try:
        rows = list_entries(conn, challenge_names(challenges), player)
    finally:
        conn.close()
    if as_json:
        click.echo(printable_lines(json.dumps([dict(r) for r in rows], indent=2, ensure_ascii=False)))
        return
    for r in rows:
        error = f" {r['error_code']} line {r['error_line']}" if r["error_code"] else ""
        result = f"{r['outcome']} {r['score']}" if r["verdict"] == "valid" else r["verdict"] + error
        click.echo(f"#{r['id']}  {r['submitted_at']}  {terminal_text(r['player'])}  "
                   f"{terminal_text(r['challenge'] or '-')}  {result}  [id {r['verification_id']}]")


@league_group.command("show", short_help="Replay one entry from its stored log and print its verdict.")
@LEAGUE_DB
@click.argument("entry", metavar="ID", type=Utf8Text())
@league_errors
def show_command(league: str, entry: str) -> None:
    """Replay one entry from its stored bytes and print its verdict again. ID is the entry
    number (#12) or its verification id. Exit status 0 valid, 1 invalid or incomplete.

    \b
    Examples:
      bgrid league show week49.db 12
      bgrid league show week49.db d9c6d96b07e5bd9a
    """
    conn = open_league(league, write=False)
    try:
        row = find_entry(conn, entry.lstrip("#"))
    finally:
        conn.close()
    if row is None:
        raise BGridError(f"no entry '{entry}' in {league}: give an entry number or a verification id "
                         "(see bgrid league list)")
    from_file = " (from the file name)" if row["player_from_file"] else ""
    click.echo(f"entry #{row['id']}, player {terminal_text(row['player'])}{from_file}, "
               f"submitted {row['submitted_at']} with bgrid {row['bgrid_version']}")
    verdict = replay(row)
    click.echo(printable_lines(verdict.render()))
    if not verdict.is_valid:
        click.get_current_context().exit(1)


@league_group.command("par", short_help="Record challenges' open-deck par, shown beside each score.")
@LEAGUE_DB
@click.argument("codes", nargs=-1, required=True, metavar="CODE...")
@click.option("--par", "given", type=WholeNumber(-99, 99), default=None, metavar="N",
              help="Record N as the open-deck par (e.g. the 'open-deck par N' of the challenge's "
                   "pack) instead of solving; one CODE.")
@click.option("--blind", "blind_runs", type=WholeNumber(1, 10_000), is_flag=False, flag_value=BLIND_RUNS,
              default=None, metavar="[K]",
              help=f"Also record the blind benchmark: the strong player's median score drawing "
                   f"the deck blind, over K runs (K = {BLIND_RUNS} unless given).")
@league_errors
def par_command(league: str, codes: tuple[str, ...], given: int | None, blind_runs: int | None) -> None:
    """Record the open-deck par of challenges, so that standings show each score against it:
    the best score of bgrid solve's portfolio knowing the whole challenge deck (R42; seconds
    a challenge; a par the league already holds from the same portfolio is kept), or one
    given with --par. With --blind, standings also show each score against the blind
    benchmark, the yardstick of a player who draws blind.

    \b
    Examples:
      bgrid league par week49.db 0GDR-FC73-W4T
      bgrid league par week49.db 0GDR-FC73-W4T --par 14
      bgrid league par week49.db 0GDR-FC73-W4T --blind 40
    """
    from dataclasses import replace

    from .challenges.mission import mission_from_spec
    from .league.integrity import play_digest
    from .players.blind import blind_benchmark
    from .players.solver import PORTFOLIO_VERSION, solution_log, solve_mission

    if given is not None and len(codes) > 1:
        raise click.UsageError("--par gives the par of one challenge: name one CODE")
    specs = []
    for code in codes:  # every code checked before any work
        try:
            specs.append(decode_code(code))
        except ChallengeCodeError as exc:
            raise click.BadParameter(f"'{one_line(code)}': {exc}", param_hint="CODE") from None
    conn = open_league(league)
    try:
        held = challenge_pars(conn)
        for spec in specs:
            code = encode_code(spec)
            line_digest = None
            if given is not None:
                par = ChallengePar(given, None)
            elif code in held and held[code].portfolio == PORTFOLIO_VERSION and (
                    blind_runs is None or held[code].blind_runs == blind_runs):
                click.echo(f"{code}: {par_source(held[code])} (kept)")
                continue
            else:
                mission = mission_from_spec(spec)
                best = solve_mission(mission).best
                if best is None:
                    raise BGridError(f"{code}: the solver found no line to the end of the mission; no par")
                par = ChallengePar(best.score, PORTFOLIO_VERSION)
                # an entry that plays the par line itself is flagged for the organiser
                line_digest = play_digest(solution_log(mission, best))
            if blind_runs is not None:
                blind = blind_benchmark(mission_from_spec(spec), blind_runs)
                par = replace(par, blind_median=blind.median, blind_runs=blind.runs,
                              blind_interval=blind.interval)
            set_par(conn, code, par, utc_now(), line_digest)
            click.echo(f"{code}: {par_source(par)}")
    finally:
        conn.close()


@league_group.command("standings", short_help="Print or publish the standings (text, JSON, CSV, HTML page).")
@LEAGUE_DB
@click.option("--challenge", "challenges", type=Utf8Text(), multiple=True, metavar="CODE",
              help="Only this challenge (repeatable); default: every challenge in the league.")
@click.option("--best", type=WholeNumber(1), default=None, metavar="N",
              help="Season table: count each player's N best results (default: all, a total).")
@click.option("--json", "as_json", is_flag=True, help="Print {standings, unranked, season} as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print CSV: ranked rows, then unranked ones.")
@click.option("--html", "html", default=None, metavar="OUT",
              help="Write the standings page OUT and each entry's replay report into OUT's "
                   "'<name>-reports/' folder beside it.")
@click.option("--title", type=Utf8Text(), default="B-Grid league standings", show_default=True,
              help="The page's title.")
@league_errors
def standings_command(league: str, challenges: tuple[str, ...], best: int | None, as_json: bool, as_csv: bool,
                      html: str | None, title: str) -> None:
    """One row per player per challenge: their best valid result, ranked by score, then
    fewer turns, then the earlier submission; invalid and incomplete entries listed apart
    with their first error. Over several challenges, a season table (total, or --best N).

    \b
    Examples:
      bgrid league standings week49.db
      bgrid league standings season.db --best 3 --json
      bgrid league standings week49.db --html site/standings.html
    """
    if as_json + as_csv + (html is not None) > 1:
        raise click.UsageError("give one of --json, --csv and --html")
    page = None
    if html is not None:  # before any work: a bad page name is the one line of output
        from .safeio.safe_output import check_target, refuse_input_as_output

        page = check_target(html, "the standings page", [league])
        refuse_input_as_output(page.parent / reports_folder_name(page), "the replay reports folder", [league])
    conn = open_league(league, write=False)
    try:
        named = challenge_names(challenges)
        refuse_unknown_challenges(conn, named, league)
        table = standings_of(conn, named, best)
        if page is not None:
            write_page(conn, table, page, title)
            return
    finally:
        conn.close()
    if as_json:
        # as verify --json: a name's controls and bidi marks as \u escapes (the same JSON string)
        click.echo(printable_lines(json.dumps(table.as_dict(), indent=2, ensure_ascii=False)))
    elif as_csv:
        click.echo(standings_csv(table), nl=False)
    else:
        click.echo(standings_text(table))


def write_page(conn: sqlite3.Connection, table: Standings, page: Path, title: str) -> None:
    """The page and the replay reports it links to (only those missing or out of date)."""
    from .league.page import publish

    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    done = publish(conn, table, page, title=title, generated=stamp)
    click.echo(display_name(str(done.page)))
    click.echo(f"{display_name(str(done.reports))}/ ({done.linked} replay reports, {done.written} written)")
