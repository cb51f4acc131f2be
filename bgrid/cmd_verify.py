"""``bgrid verify``: replay mission logs and say whether they are valid."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import sys
import tempfile
from pathlib import Path

import click

from .rules.errors import BGridError
from .verifier.log_parser import MAX_BYTES
from .verifier.verdict import INCOMPLETE, INVALID, VALID
from .verifier import narrative
from .verifier.verify import verify_log

LOG_SUFFIXES = (".log", ".txt")
PROGRESS_FROM = 20  # show a progress bar on stderr from this many logs
PARALLEL_FROM = 40  # fewer logs are verified in this process: starting workers costs more


class Unreadable(Exception):
    """An input that cannot be read at all (exit status 2)."""


def expand_inputs(paths) -> list[str]:
    """Files as given; a directory becomes its *.log and *.txt files, sorted; '-' is stdin."""
    out = []
    for p in paths:
        if p != "-" and os.path.isdir(p):
            found = sorted(str(q) for q in Path(p).iterdir()
                           if q.is_file() and q.suffix.lower() in LOG_SUFFIXES)
            if not found:
                raise Unreadable(f"{p}: the directory holds no *.log or *.txt file")
            out.extend(found)
        else:
            out.append(p)
    return out


def check_report_path(path: str) -> None:
    """Refuse an --html path that cannot be written, before any log is read: the misuse is
    then the one line of output, not an error after a page of verdicts."""
    if not path.strip():
        raise Unreadable("--html needs a file name, e.g. --html report.html")
    if os.path.isdir(path):
        raise Unreadable(f"cannot write the report '{path}': it is a folder; give --html a file "
                         "name such as report.html")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise Unreadable(f"cannot write the report '{path}': the folder '{os.path.dirname(path)}' "
                         "does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise Unreadable(f"cannot write the report '{path}': no permission to write in the folder "
                         f"'{os.path.dirname(path) or '.'}'")


def read_input(name: str) -> bytes:
    """The bytes of a log, at most one byte over the verifier's cap (it then says so)."""
    try:
        if name == "-":
            return sys.stdin.buffer.read(MAX_BYTES + 1)
        with open(name, "rb") as fh:
            return fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise Unreadable(f"{name}: cannot read the file ({exc.strerror or exc})") from None


def write_atomic(path: str, text: str) -> None:
    """Write to a temporary file next to ``path`` and rename it, so no half file remains."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".bgrid-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # mkstemp makes 0600; a report is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _verify_one(task) -> object:
    """One input to its verdict (or the reason it cannot be read); run in a worker process
    with ``--jobs``. What nobody will read (the board, the history) is dropped before the
    verdict travels back."""
    name, data, explain, keep_board = task
    if data is None:
        try:
            data = read_input(name)
        except Unreadable as exc:
            return str(exc)
    verdict = verify_log(data, source="<stdin>" if name == "-" else name,
                         history=explain or keep_board)
    if explain:
        verdict.explanation = narrative.explain(verdict)
    if not keep_board:
        verdict.trace = verdict.history = verdict.body = verdict.lines = None
    return verdict


def _verdicts(names, jobs: int, explain: bool, keep_board: bool):
    """The verdicts in the order of ``names``, from ``jobs`` processes (each verifying whole
    logs; the order and every byte of the output are the same as with one)."""
    stdin = sys.stdin.buffer.read(MAX_BYTES + 1) if "-" in names else None
    tasks = [(name, stdin if name == "-" else None, explain, keep_board) for name in names]
    if jobs <= 1 or len(tasks) < PARALLEL_FROM:
        yield from map(_verify_one, tasks)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    chunk = max(1, min(64, len(tasks) // (jobs * 8)))
    with context.Pool(min(jobs, len(tasks))) as pool:
        yield from pool.imap(_verify_one, tasks, chunksize=chunk)


def default_jobs() -> int:
    """All the cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


@click.command("verify")
@click.argument("logs", nargs=-1, required=True, metavar="LOG...")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: one object for one log, else "
              "{summary, logs, unreadable}.")
@click.option("--html", "html", default=None, metavar="FILE",
              help="Also write an HTML report (verdict, score, board with the bomber's path, the error).")
@click.option("--explain", is_flag=True, help="Tell the replay turn by turn in plain words (the "
              "Automa card, who fired, who moved where, what each play did) before each verdict, "
              "with the damage ledger; it stops at the first error.")
@click.option("--quiet", is_flag=True, help="Leave out the notes (legal events worth a second look).")
@click.option("--jobs", type=click.IntRange(min=1), default=None, metavar="N",
              help="Verify with N processes (default: all cores); the output is the same.")
def verify_command(logs, as_json, html, explain, quiet, jobs):
    """Replay mission logs against the rules: valid (outcome and score), invalid (the first
    error, with line, column, rule and state) or incomplete.

    LOG is a file, a directory (its *.log and *.txt files, sorted) or - for standard input.
    Exit status: 0 all valid, 1 any invalid or incomplete, 2 a log that cannot be read or a
    bad option.

    \b
    Examples:
      bgrid verify mission.log
      bgrid verify tests/logs/corpus --json
      bgrid verify run.log --html report.html
      bgrid verify run.log --explain
      bgrid verify tournament/ --json --jobs 4
      cat mission.log | bgrid verify -
    """
    if list(logs).count("-") > 1:
        raise click.UsageError("'-' (standard input) can be given only once")
    try:
        if html is not None:
            check_report_path(html)
        names = expand_inputs(logs)
    except Unreadable as exc:
        raise click.UsageError(str(exc)) from None
    verdicts, unreadable = [], []
    show_progress = len(names) >= PROGRESS_FROM and sys.stderr.isatty()
    results = _verdicts(names, jobs or default_jobs(), explain and not as_json, html is not None)
    bar = click.progressbar(results, length=len(names), label="verifying", file=sys.stderr) \
        if show_progress else None
    with bar if bar is not None else contextlib.nullcontext(results) as items:
        for result in items:
            if isinstance(result, str):
                unreadable.append(result)
            else:
                verdicts.append(result)
    for message in unreadable:
        click.echo(f"Error: {message}", err=True)
    counts = {k: sum(1 for v in verdicts if v.verdict == k) for k in (VALID, INVALID, INCOMPLETE)}
    if as_json:
        if len(names) == 1 and verdicts:
            click.echo(json.dumps(verdicts[0].as_dict(), indent=2, ensure_ascii=False))
        else:
            click.echo(json.dumps({"summary": dict(counts, unreadable=len(unreadable)),
                                   "logs": [v.as_dict() for v in verdicts],
                                   "unreadable": unreadable}, indent=2, ensure_ascii=False))
    elif len(names) == 1:
        if verdicts:
            click.echo(_told(verdicts[0], verdicts[0].render(), explain, quiet))
    else:
        for v in verdicts:
            click.echo(_told(v, v.summary() if v.is_valid else v.render(), explain, quiet))
        click.echo(summary_table(counts, len(unreadable)))
    if html is not None and verdicts:
        from .verifier.report_html import render_report
        try:
            write_atomic(html, render_report(verdicts))
        except OSError as exc:
            raise BGridError(f"cannot write the report '{html}': {exc.strerror or exc}") from None
    ctx = click.get_current_context()
    ctx.exit(2 if unreadable else 0 if counts[INVALID] == counts[INCOMPLETE] == 0 else 1)


def _told(verdict, text: str, explain: bool, quiet: bool) -> str:
    """A verdict's text with the account before it (``--explain``) and the coaching after it:
    the damage ledger (with ``--explain``, or on a wrong damage) and the notes (not ``--quiet``)."""
    parts = ["\n".join(verdict.explanation)] if explain and verdict.explanation else []
    parts.append(text)
    coaching = verdict.coaching(notes=not quiet, ledger=explain)
    if coaching:
        parts.append(coaching)
    return "\n".join(parts)


def summary_table(counts: dict, unreadable: int) -> str:
    total = sum(counts.values()) + unreadable
    rows = [("valid", counts[VALID]), ("invalid", counts[INVALID]), ("incomplete", counts[INCOMPLETE])]
    if unreadable:
        rows.append(("unreadable", unreadable))
    rows.append(("total", total))
    return "\n".join(["", "verdict      logs"] + [f"{name:<12} {n:>4}" for name, n in rows])
