"""``bgrid solve``: the par of a challenge and the line that reaches it."""

from __future__ import annotations

import json
import sys
import time

import click

from .header_options import read_header
from .job_pool import worker_count
from .options import Seconds, WholeNumber, mission_options, pick_mission
from .players.blind import BLIND_RUNS, blind_benchmark
from .rules.errors import BGridError
from .challenges.mission import Mission
from .players.solver import (PORTFOLIO, PORTFOLIO_VERSION, SOLVE_NODES, WIDTHS, Line, Member, MemberResult,
                             Par, beam, best_of, run_passes, solution_log, solve_mission, start_of)


MOST_SECONDS = 86400  # a day: a longer --budget is a typo, not a plan


@click.command("solve")
@mission_options
@click.option("--header", "header_file", default=None, metavar="FILE",
              help="Solve the mission a log's header names; it must be a challenge code "
                   "(the only header with a known deck order).")
@click.option("--write-log", "write_log_file", default=None, metavar="FILE",
              help="Write the par's line as a mission log that bgrid verify accepts.")
@click.option("--state-lines", is_flag=True,
              help="With --write-log: close every turn with a state line (at, facing, alt, dmg "
                   "and art, the artillery by number, R43).")
@click.option("--rows", is_flag=True,
              help="With --write-log: write the body in the row form, a turn a line in the "
                   "sheet's columns (docs/log-format.md).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--budget", type=Seconds(MOST_SECONDS), default=None,
              metavar="SECONDS",
              help="Stop after this many seconds of search, at most 86400 (default: none). A "
                   "search cut short says so, and its best score is not the par.")
@click.option("--jobs", type=WholeNumber(1, 64), default=1, show_default=True, metavar="N",
              help="Run the portfolio's searches on N processes, at most one a core (the par "
                   "does not change).")
@click.option("--blind", "blind_runs", type=WholeNumber(1, 10_000), is_flag=False, flag_value=BLIND_RUNS,
              default=None, metavar="[K]",
              help=f"Also measure the blind benchmark: the strong player's median score on the "
                   f"challenge deck drawing blind, over K runs with distinct sampling seeds "
                   f"(K = {BLIND_RUNS} unless given; about 0.1 s a run).")
def solve_command(seed: str | None, code: str | None, difficulty: str | None, ridges: int | None,
                  header_file: str | None, write_log_file: str | None, state_lines: bool, rows: bool,
                  as_json: bool, budget: float | None, jobs: int, blind_runs: int | None) -> None:
    """Find the open-deck par of a challenge: the best score of a fixed, versioned portfolio
    of searches that knows the whole deck (R25, R26; a challenge's stacking list is public,
    R42), and the line of play that reaches it. With --blind, also the blind benchmark: the
    strong player's median score drawing the same deck blind.

    The searches count their work in states, not seconds, so the par is the same on every
    machine. The upper bound assumes every target destroyed and only the damage no line
    avoids; when the par meets it, the par is optimal. With --seed the mission is played on
    the seed's challenge deck.

    \b
    Examples:
      bgrid solve --code 0M00-0001-WR3
      bgrid solve --seed 1944 --json
      bgrid solve --code 0M00-0001-WR3 --write-log par.log && bgrid verify par.log
      bgrid solve --header my-run.log --jobs 4
      bgrid solve --code 0GDR-FC73-W4T --blind 40 --json
    """
    for flag, given in (("--state-lines", state_lines), ("--rows", rows)):
        if given and write_log_file is None:
            raise click.UsageError(f"{flag} goes with --write-log")
    mission = _mission(seed, code, difficulty, ridges, header_file)
    if write_log_file is not None:  # before the search: it may run for minutes
        from .safeio.safe_output import check_target, refuse_inputs_as_outputs

        check_target(write_log_file, "--write-log")
        refuse_inputs_as_outputs({"--write-log": write_log_file}, [header_file] if header_file else [])
    began = time.monotonic()
    deadline = None if budget is None else began + budget
    show = (not as_json) and sys.stderr.isatty()
    par = _run(mission, deadline, jobs, show)
    seconds = round(time.monotonic() - began, 2)
    line = par.best
    summary = {
        "code": mission.code,
        "difficulty": mission.spec.difficulty,
        "ridges": mission.spec.ridges,
        "par": line.score if line else None,
        "outcome": line.outcome if line else None,
        "victory_found": par.victory_found,
        "upper_bound": par.upper_bound,
        "optimal": par.optimal,
        "turns": line.turns if line else None,
        "complete": par.complete,
        "searches": len(par.members),
        "searches_won": par.victories,
        "seconds": seconds,
        "portfolio": PORTFOLIO_VERSION,
    }
    blind = None
    if blind_runs is not None:
        blind = blind_benchmark(mission, blind_runs)
        summary |= blind.as_dict()
    if write_log_file is not None and line is not None:
        _write_solution(mission, line, write_log_file, state_lines, rows)
    if as_json:
        click.echo(json.dumps(summary, indent=2))
        return
    ridges_word = f"{mission.spec.ridges} ridge{'s' if mission.spec.ridges > 1 else ''}"
    click.echo(f"Mission {mission.code} ({mission.spec.difficulty}, {ridges_word})")
    if line is None:
        click.echo("No line found before the budget ran out.")
        return
    label = "Open-deck par" if par.complete else "Best found (search cut short by --budget; not the par)"
    click.echo(f"{label}  {line.score} ({line.outcome} in {line.turns} turns, knowing every card)")
    if blind is not None:
        low, high = blind.interval
        click.echo(f"Blind benchmark  {blind.as_dict()['blind_median']} (the strong player drawing "
                   f"blind: median of {blind.runs} runs, 95% interval {low}–{high}, "
                   f"{blind.distinct} different games)")
    bound = "optimal" if par.optimal else "not proven optimal"
    click.echo(f"Upper bound  {par.upper_bound} ({bound})")
    click.echo(f"Portfolio  v{PORTFOLIO_VERSION}: {len(par.members)} of {par.planned} searches, "
               f"{par.victories} found a victory, {seconds:.1f} s")
    if write_log_file is not None:
        click.echo(f"Log  {write_log_file}")


def _mission(seed: str | None, code: str | None, difficulty: str | None, ridges: int | None,
             header_file: str | None) -> Mission:
    if header_file is None:
        return pick_mission(seed, code, difficulty, ridges)
    if seed is not None or code is not None or difficulty is not None or ridges is not None:
        raise click.UsageError("--header names the mission itself: give it without --seed, "
                               "--code, --difficulty or --ridges")
    from .challenges.mission import mission_from_code

    log = read_header(header_file)  # the header only, as sheet --header and pack --header read it
    if log.header.source != "challenge":
        raise BGridError(f"--header '{header_file}' names no deck order (a seed, setup or map "
                         "header plays the player's own shuffled deck): solve needs a "
                         "'challenge:' header")
    assert log.header.challenge is not None  # the source "challenge" is a header's challenge: line
    return mission_from_code(log.header.challenge)


def _member_result(code: str, member: Member, deadline: float | None) -> MemberResult:
    from .challenges.mission import mission_from_code

    mission = mission_from_code(code)  # a code crosses to the worker; a mission does not pickle
    return beam(start_of(mission.start(challenge_deck=True)), member, deadline)


def _run(mission: Mission, deadline: float | None, jobs: int, show: bool) -> Par:
    results: list[MemberResult] = []

    def report(result: MemberResult) -> None:
        results.append(result)
        if show:
            best = best_of(results)
            found = "none" if result.line is None else result.line.score
            click.echo(f"  search {len(results)} {result.member}: {found} "
                       f"(best {best.score if best else 'none'})", err=True)

    if jobs == 1 or worker_count(jobs) == 1:
        return solve_mission(mission, deadline=deadline, portfolio=PORTFOLIO, widths=WIDTHS,
                             budget=SOLVE_NODES, progress=report)
    from .job_pool import worker_pool

    code = mission.code
    assert code is not None and mission.deck is not None  # solve's missions are seeded (R25)
    with worker_pool(worker_count(jobs, len(PORTFOLIO)), "solving") as pool:
        def run(members: tuple[Member, ...]) -> list[MemberResult]:
            futures = [pool.submit(_member_result, code, m, deadline) for m in members]
            done = [future.result() for future in futures]  # in order: ties go to the earlier member
            for result in done:
                report(result)
            return done

        return run_passes(run, start_of(mission.start(challenge_deck=True)), mission.deck,
                          PORTFOLIO, WIDTHS, SOLVE_NODES)


def _write_solution(mission: Mission, line: Line, path: str, state_lines: bool = False,
                    rows: bool = False) -> None:
    from .safeio.safe_output import write_atomic

    write_atomic(path, solution_log(mission, line, state_lines, rows), "--write-log")
