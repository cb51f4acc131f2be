"""``bgrid verify``: replay mission logs and say whether they are valid.

Logs are verified one at a time and each one's part of the output (terminal, JSON, the
folder's HTML index) is written as soon as its verdict comes; only the counts are kept, so
a folder of any size runs in the same memory. Folders come from strangers and are read as
``verifier.log_inputs`` says (every matching entry verified or listed as skipped with its
reason); names and log text are shown through ``safeio.safe_text``.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import click

from .safeio.safe_output import check_target, is_same_file, open_atomic, refuse_inputs_as_outputs
from .verifier.json_text import indented_json
from .verifier.log_inputs import Input, Unreadable, list_inputs, read_input
from .options import WholeNumber
from .job_pool import available_cores
from .safeio.safe_text import display_name, one_line, printable_lines
from .verifier import narrative
from .verifier.verdict import INCOMPLETE, INVALID, VALID, Verdict
from .verifier.verify import Verifier, row_form

PROGRESS_FROM = 20  # show a progress bar on stderr from this many logs
PARALLEL_FROM = 40  # fewer logs are verified in this process: starting workers costs more


def _echo(text: str, err: bool = False, nl: bool = True) -> None:
    # color=True: printable_lines leaves no escape sequence for click to strip, so its scan
    # of every verdict (a folder's output is megabytes) would find nothing
    click.echo(printable_lines(text), err=err, nl=nl, color=True)


@click.command("verify")
@click.argument("logs", nargs=-1, required=True, metavar="LOG...")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: one object for one log, else "
              "{logs, unreadable, skipped, summary}.")
@click.option("--html", "html", default=None, metavar="FILE",
              help="Also write an HTML report: for one log the verdict, score, board with the "
                   "bomber's path and the error; for several an index of every log.")
@click.option("--explain", is_flag=True, help="Tell the replay turn by turn in plain words (the "
              "Automa card, who fired, who moved where, what each play did) before each verdict, "
              "with the damage ledger; it stops at the first error.")
@click.option("--quiet", is_flag=True, help="Leave out the notes (legal events worth a second look).")
@click.option("--jobs", type=WholeNumber(1, 1024), default=None, metavar="N",
              help="Verify with N processes (default, and at most: the cores this process may "
                   "use); the output is the same.")
@click.option("--par", "with_par", is_flag=True,
              help="One challenge log: also solve the challenge (bgrid solve) and show its par "
                   "beside the score.")
@click.option("--rows", "as_rows", is_flag=True,
              help="One log: print it in the row form, a turn a line in the sheet's columns "
                   "(docs/log-format.md), when it is valid; else its error on stderr.")
def verify_command(logs: tuple[str, ...], as_json: bool, html: str | None, explain: bool, quiet: bool,
                   jobs: int | None, with_par: bool, as_rows: bool) -> None:
    """Replay mission logs against the rules: valid (outcome and score), invalid (the first
    error, with line, column, rule and state) or incomplete.

    LOG is a file, a directory (its *.log and *.txt files, sorted; symlinks, folders and
    FIFOs in it are listed as skipped) or - for standard input.
    Exit status: 0 all valid, 1 any invalid or incomplete, 2 a log that cannot be read or
    was skipped, or a bad option.

    \b
    Examples:
      bgrid verify mission.log
      bgrid verify tests/logs/corpus --json
      bgrid verify run.log --html report.html
      bgrid verify run.log --explain
      bgrid verify run.log --rows > run-rows.log
      bgrid verify tournament/ --json --jobs 4
      cat mission.log | bgrid verify -
    """
    if list(logs).count("-") > 1:
        raise click.UsageError("'-' (standard input) can be given only once")
    if html is not None:
        if not html.strip():
            raise click.UsageError("--html needs a file name, e.g. --html report.html")
        check_target(html, "the report")
        refuse_inputs_as_outputs({"--html": html}, [p for p in logs if p != "-"])
    try:
        items, failed = list_inputs(logs)
    except Unreadable as exc:
        raise click.UsageError(str(exc)) from None
    if html is not None and os.path.exists(html):  # a log found in a folder
        for item in items:
            if item.in_folder and item.skipped is None and is_same_file(html, item.path):
                refuse_inputs_as_outputs({"--html": html}, [item.path])
    if with_par and len(items) + len(failed) > 1:  # before any line: misuse is the one line
        raise click.UsageError("--par goes with one log: solving takes seconds a challenge")
    if as_rows:
        others = [name for name, given in (("--json", as_json), ("--html", html is not None),
                                           ("--explain", explain), ("--par", with_par)) if given]
        if others or len(items) + len(failed) != 1 or items[0].skipped is not None:
            raise click.UsageError("--rows prints one log" + (f", without {', '.join(others)}"
                                                               if others else ""))
        return _print_rows(items[0])
    for message in failed:
        click.echo(f"Error: {one_line(message)}", err=True)
    options = Options(explain=explain and not as_json, quiet=quiet, report=html is not None,
                      par=with_par)
    if len(items) == 1 and not failed and items[0].skipped is None:
        return _verify_one(items[0], as_json, html, options)
    with _few_collections():
        counts = _verify_many(items, as_json, html, failed, options, jobs or available_cores())
    ctx = click.get_current_context()
    not_read = counts["unreadable"] + counts["skipped"]
    ctx.exit(2 if not_read else 0 if counts[INVALID] == counts[INCOMPLETE] == 0 else 1)


@dataclass(frozen=True, slots=True)
class Options:
    """What each verdict must carry and show: the ``--explain`` account, the notes (not
    ``--quiet``) and the history the one-log HTML report draws (``report``)."""

    explain: bool = False
    quiet: bool = False
    report: bool = False
    par: bool = False  # --par: the challenge's par beside the score


@contextlib.contextmanager
def _few_collections() -> Iterator[None]:
    """The cyclic collector, seldom, for a folder: verifying allocates millions of small
    objects and reference counting frees nearly all of them, so the collector's passes over
    the imported modules and the verifier's memos were a twentieth of the run, for nothing.
    What is alive before the first log is frozen out of its sight (``gc.freeze``); the old
    thresholds are put back after (tests run many commands in one process)."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


#: One input's outcome: its verdict, the reason it cannot be read, or None when it is skipped.
Result = tuple[Input, Verdict | str | None]


# This process's memos (missions and lines remembered from log to log); after a fork, each
# worker process of --jobs has its own.
_VERIFIER = Verifier()


def _verdict_of(data: bytes, shown: str, options: Options, keep_board: bool) -> Verdict:
    """One log's verdict; what nobody will read (the board, the history) is dropped before
    the verdict travels back from a worker process."""
    verdict = _VERIFIER.verify(data, source=shown, history=options.explain or keep_board)
    if options.explain:
        verdict.explanation = narrative.explain(verdict)
    if not keep_board:
        verdict.trace = verdict.history = verdict.body = verdict.lines = None
    return verdict


def _work(task: tuple[Input, Options]) -> Result:
    """A worker's task (``--jobs``): an input and its verdict, the reason it cannot be read
    (a string), or None when it is skipped."""
    item, options = task
    if item.skipped is not None:
        return item, None
    try:
        data = read_input(item)
    except Unreadable as exc:
        return item, str(exc)
    return item, _verdict_of(data, item.shown, options, keep_board=False)


def _results(items: list[Input], options: Options, jobs: int) -> Iterator[Result]:
    """For each input in order: (input, its verdict, the reason it cannot be read, or None
    when it is skipped).
    With ``jobs`` > 1, worker processes verify whole logs; the order (and so every byte of
    the output) is the one of a single job. Standard input is read here, once."""
    tasks = [(item, options) for item in items]
    if jobs <= 1 or len(tasks) < PARALLEL_FROM or any(item.path == "-" for item in items):
        yield from map(_work, tasks)
        return
    from .job_pool import worker_count, worker_pool

    workers = worker_count(jobs, len(tasks))
    chunk = max(1, min(64, len(tasks) // (workers * 8)))
    # An executor, not multiprocessing.Pool: a worker that dies (killed, out of memory) breaks
    # the executor and the run stops with a message; a Pool's imap would wait for ever.
    with worker_pool(workers, "verifying logs") as pool:
        yield from pool.map(_work, tasks, chunksize=chunk)


def _told(verdict: Verdict, text: str, options: Options) -> str:
    """A verdict's text with the account before it (``--explain``) and the coaching after it:
    the damage ledger (with ``--explain``, or on a wrong damage) and the notes (not ``--quiet``)."""
    parts = ["\n".join(verdict.explanation)] if options.explain and verdict.explanation else []
    parts.append(text)
    coaching = verdict.coaching(notes=not options.quiet, ledger=options.explain)
    if coaching:
        parts.append(coaching)
    return "\n".join(parts)


def _verify_one(item: Input, as_json: bool, html: str | None, options: Options) -> None:
    ctx = click.get_current_context()
    try:
        data = read_input(item)
    except Unreadable as exc:
        click.echo(f"Error: {one_line(str(exc))}", err=True)
        if as_json:
            _echo(json.dumps({"logs": [], "unreadable": [str(exc)], "skipped": [],
                              "summary": _summary({"unreadable": 1})}, indent=2, ensure_ascii=False))
        ctx.exit(2)
    verdict = _verdict_of(data, item.shown, options, keep_board=html is not None)
    par = _par(verdict) if options.par else None
    if as_json:
        _echo(indented_json(verdict.as_dict() | ({"par": par} if options.par else {})))
    else:
        _echo(_told(verdict, verdict.render(), options))
        if options.par:
            _echo(f"  par: {par} (bgrid solve, portfolio v{_portfolio()})" if par is not None else
                  "  par: none (a challenge log only: a seed, setup or map has no known deck)")
    if html is not None:
        from .safeio.safe_output import write_atomic
        from .verifier.report_html import render_report

        write_atomic(html, render_report([verdict]), "the report")
        _say_written(html)
    ctx.exit(0 if verdict.is_valid else 1)


def _print_rows(item: Input) -> None:
    """``--rows``: the log in the row form on standard output when it is valid, else its
    verdict on standard error (exit 1)."""
    ctx = click.get_current_context()
    try:
        data = read_input(item)
    except Unreadable as exc:
        click.echo(f"Error: {one_line(str(exc))}", err=True)
        ctx.exit(2)
    verdict = _VERIFIER.verify(data, source=item.shown)
    if not verdict.is_valid:
        _echo(verdict.render(), err=True)
        ctx.exit(1)
    _echo(row_form(data), nl=False)
    ctx.exit(0)


def _say_written(html: str) -> None:
    """Name the report written, on standard error: standard output stays the verdicts (JSON)."""
    click.echo(f"wrote the report {display_name(html)}", err=True)


def _summary(counts: dict) -> dict:
    return {k: counts.get(k, 0) for k in (VALID, INVALID, INCOMPLETE, "unreadable", "skipped")}


def _verify_many(items: list[Input], as_json: bool, html: str | None, failed: list[str],
                 options: Options, jobs: int) -> dict:
    """Verify, print and write each log in turn; returns the counts."""
    counts = {VALID: 0, INVALID: 0, INCOMPLETE: 0, "unreadable": len(failed), "skipped": 0}
    unreadable, skipped = list(failed), []
    with contextlib.ExitStack() as stack:
        index = None
        if html is not None:
            from .verifier.report_index import FolderIndex

            index = FolderIndex(stack.enter_context(open_atomic(html, "the report")))
            index.begin()
        if as_json:
            _echo('{\n  "logs": [', nl=False)
        first = True
        show_progress = len(items) >= PROGRESS_FROM and sys.stderr.isatty()
        results = _results(items, options, jobs)
        bar = (click.progressbar(results, length=len(items), label="verifying", file=sys.stderr)
               if show_progress else None)
        with bar if bar is not None else contextlib.nullcontext(results) as stream:
            for item, result in stream:
                if result is None:
                    assert item.skipped is not None  # no result: the input was skipped
                    counts["skipped"] += 1
                    skipped.append(f"{item.shown}: skipped, {item.skipped}")
                    if index is not None:
                        index.not_verified(item.shown, "skipped", item.skipped)
                    if not as_json:
                        _echo(skipped[-1])
                    continue
                if isinstance(result, str):
                    counts["unreadable"] += 1
                    unreadable.append(result)
                    click.echo(f"Error: {one_line(result)}", err=True)
                    if index is not None:
                        index.not_verified(item.shown, "unreadable", result)
                    continue
                verdict = result
                counts[verdict.verdict] += 1
                if index is not None:
                    index.verdict(verdict)
                if as_json:
                    text = indented_json(verdict.as_dict(), "    ")
                    _echo(("\n" if first else ",\n") + "    " + text, nl=False)
                    first = False
                else:
                    _echo(_told(verdict, verdict.summary() if verdict.is_valid else verdict.render(),
                                options))
        if index is not None:
            index.end()
    if html is not None:
        _say_written(html)
    if as_json:
        tail = {"unreadable": unreadable, "skipped": skipped, "summary": _summary(counts)}
        rest = json.dumps(tail, indent=2, ensure_ascii=False)[1:]  # after the opening brace
        _echo(("\n" if not first else "") + "  ]," + rest)
    else:
        _echo(summary_table(counts))
    return counts


def summary_table(counts: dict) -> str:
    rows = [("valid", counts[VALID]), ("invalid", counts[INVALID]), ("incomplete", counts[INCOMPLETE])]
    rows += [(name, counts[name]) for name in ("unreadable", "skipped") if counts[name]]
    rows.append(("total", sum(n for _, n in rows)))
    return "\n".join(["", "verdict      logs"] + [f"{name:<12} {n:>4}" for name, n in rows])


def _par(verdict: Verdict) -> int | None:
    """The par of the challenge a verdict's log played (``players.solver``), or None."""
    from .challenges.mission import ChallengeOrigin, mission_from_spec
    from .players.solver import solve_mission

    if not isinstance(verdict.origin, ChallengeOrigin):
        return None
    best = solve_mission(mission_from_spec(verdict.origin.spec)).best
    return None if best is None else best.score


def _portfolio() -> int:
    from .players.solver import PORTFOLIO_VERSION
    return PORTFOLIO_VERSION
