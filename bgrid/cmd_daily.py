"""``bgrid daily``: the challenge code of a day or an ISO week, and its pack."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .challenges.codes import ChallengeSpec
from .options import DEFAULT_OUT
from .pack_yardsticks import measure_yardsticks, pack_yardsticks
from .generator.paper import PAPERS
from .challenges.codes import encode_code
from .challenges.daily import DAILY, WEEKLY, dated_key, dated_spec
from .rules.ruleset import DEFAULT_RULESET, ruleset_names

if TYPE_CHECKING:  # the players load only when a solve runs
    from .players.blind_beside import Yardsticks

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_day(text: str | None) -> date:
    """``YYYY-MM-DD`` as a date; None is today in UTC. Raises :class:`click.BadParameter`."""
    if text is None:
        return datetime.now(UTC).date()
    try:
        if _DATE.fullmatch(text.strip()) is None:
            raise ValueError
        return date.fromisoformat(text.strip())
    except ValueError:
        raise click.BadParameter(f"'{text}' is not a date: expected YYYY-MM-DD, e.g. 2026-12-01",
                                 param_hint="--date") from None


@click.command("daily")
@click.option("--date", "day", default=None, metavar="YYYY-MM-DD",
              help="The day (default: today, in UTC).")
@click.option("--weekly", is_flag=True, help="The code of the ISO week holding the day instead.")
@click.option("--ruleset", type=click.Choice(ruleset_names()), default=DEFAULT_RULESET,
              show_default=True, help="The ruleset the code is for.")
@click.option("--pack", "with_pack", is_flag=True,
              help="Also write its pack (sheet, deck, map.json, deck-order.json) into OUT/<code>/, "
                   "as bgrid pack does.")
@click.option("--out", type=click.Path(), default=str(DEFAULT_OUT), show_default=True,
              help="With --pack: the folder the pack goes into.")
@click.option("--paper", type=click.Choice(sorted(PAPERS), case_sensitive=False), default="a4",
              show_default=True, help="With --pack: paper size.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("-q", "--quiet", is_flag=True, help="Print the code alone (for scripts).")
@click.option("--winnable", is_flag=True,
              help="The first seed from the date's seed onward whose solve (bgrid solve) finds "
                   "a victory.")
@click.option("--yardsticks/--no-yardsticks", default=True, show_default=True,
              help="With --pack: put the challenge's open-deck par and blind benchmark (R42) on "
                   "the sheet and in map.json, computed once for everyone who plays the date "
                   "(a solve and 40 blind games: 15 s of CPU, 10-20 s).")
def daily_command(day: str | None, weekly: bool, ruleset: str, with_pack: bool, out: str, paper: str,
                  as_json: bool, quiet: bool, winnable: bool, yardsticks: bool) -> None:
    """Print the challenge code of a day (or, with --weekly, of its ISO week): the same code
    for everyone, on every machine, for as long as the ruleset stays the same. How it is
    derived is documented in docs/rules.md (Dated challenges). With --pack, its sheet carries
    both yardsticks unless --no-yardsticks.

    \b
    Examples:
      bgrid daily
      bgrid daily --date 2026-12-01 --weekly
      bgrid daily --weekly --pack --out packs
      bgrid daily --pack --no-yardsticks    # the pack at once, without the yardsticks
      CODE=$(bgrid daily --weekly -q)
    """
    if not out.strip():
        raise click.BadParameter("needs a folder, e.g. --out output", param_hint="--out")
    if as_json and with_pack:
        raise click.UsageError("--json prints one object; write the pack in a second run without it")
    if winnable and not yardsticks:
        raise click.UsageError("--winnable solves the challenge, and its yardsticks come with the "
                               "solve; leave out --no-yardsticks")
    when = parse_day(day)
    period = WEEKLY if weekly else DAILY
    if with_pack:  # before the yardsticks' seconds: a wrong --out is said at once
        from .safeio.safe_output import make_folder

        make_folder(Path(out), "the --out folder")
    measured = None
    if winnable:
        from .job_pool import spare_worker
        from .players.blind_beside import BlindBeside, Yardsticks

        with spare_worker("benchmarking") as submit:
            beside = BlindBeside(submit)
            spec, par = _winnable_spec(when, ruleset, period, beside.start)
            measured = Yardsticks(par, True, beside.of(spec))
    else:
        spec = dated_spec(when, ruleset, period)
        if with_pack and yardsticks:
            measured = measure_yardsticks(spec, "--no-yardsticks")
    code = encode_code(spec)
    if as_json:
        record = {"period": period, "date": when.isoformat(), "key": dated_key(when, period),
                  "code": code, "ruleset": spec.ruleset, "difficulty": spec.difficulty,
                  "ridges": spec.ridges, "seed": spec.seed}
        if measured is not None:
            record |= ({"winnable": True, "par": measured.par} if measured.winnable else {}) \
                | {"open_deck_par": measured.par} | measured.blind.as_dict()
        click.echo(json.dumps(record, indent=2))
    elif quiet:
        click.echo(code)
    else:
        click.echo(f"{period} {dated_key(when, period)}: {code} ({spec.difficulty}, {spec.ridges} "
                   f"ridge{'s' if spec.ridges != 1 else ''}, seed {spec.seed}"
                   + _yardstick_text(measured) + ")")
    if with_pack:
        from .challenges.mission import mission_from_spec
        from .generator.pack import write_pack
        from .safeio.safe_text import display_name

        for path in write_pack(mission_from_spec(spec), paper, Path(out), **pack_yardsticks(measured)):
            click.echo(display_name(str(path)))


def _yardstick_text(measured: Yardsticks | None) -> str:
    """``, winnable · open-deck par 14 · blind benchmark 2 (…)`` for the code's line, or ""."""
    if measured is None:
        return ""
    return ", " + ("winnable · " if measured.winnable else "") + measured.text


def _winnable_spec(when: date, ruleset: str, period: str,
                   before: Callable[[ChallengeSpec], object]) -> tuple[ChallengeSpec, int | None]:
    """The dated challenge that solves to a victory (``challenges.daily``'s accept test) and its par,
    kept from the test so the pack does not solve it again; ``before(candidate)`` as each
    candidate's solve begins (its blind benchmark starts beside it, ``bgrid.blind_beside``)."""
    from .players.solver import winning_par

    pars: dict[int, int | None] = {}

    def accept(spec: ChallengeSpec) -> bool:
        before(spec)
        pars[spec.seed] = winning_par(spec)
        return pars[spec.seed] is not None

    spec = dated_spec(when, ruleset, period, accept=accept)
    return spec, pars[spec.seed]
