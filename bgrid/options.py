"""Options shared by the commands that pick a mission: --seed/--code, --difficulty, --ridges."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from .rules.errors import BGridError
from .challenges.mission import Mission, mission_from_code, mission_from_seed

_SEED = re.compile(r"[+-]?[0-9]+")
SEED_DIGITS = 15  # more than the largest seed has, so the range check still words the refusal
SEED_LIMIT = 10 ** SEED_DIGITS
DEFAULT_OUT = Path("output")  # where --out puts printables unless told
F = TypeVar("F", bound=Callable[..., Any])  # a click command function, as a decorator gets it
#: The league database a ``league`` subcommand or ``serve`` works on.
LEAGUE_DB = click.argument("league", metavar="LEAGUE.db", type=click.Path(dir_okay=False))


class WholeNumber(click.ParamType):
    """An integer option in plain ASCII decimal within [low, high]: click's own INT also takes
    '1_0', '١٢' and 5,000-digit numbers (which then overflow Python's digit limit)."""

    name = "integer"

    def __init__(self, low: int, high: int | None = None):
        self.low, self.high = low, high

    def convert(self, value: str | int, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        text = value.strip()
        if _SEED.fullmatch(text) is None:
            self.fail(f"'{value}' is not a valid integer (plain digits 0-9)", param, ctx)
        if len(text.lstrip("+-").lstrip("0")) > SEED_DIGITS:
            self.fail(f"a number of {len(text)} digits is out of range", param, ctx)
        number = int(text)
        if number < self.low or (self.high is not None and number > self.high):
            upper = "" if self.high is None else f" to {self.high}"
            self.fail(f"{number} is out of range: {self.low}{upper}" if upper else
                      f"{number} is out of range: at least {self.low}", param, ctx)
        return number


_DECIMAL = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")


class Seconds(click.ParamType):
    """A positive, finite number of seconds in plain ASCII decimal at most ``high``: click's
    FLOAT also takes 'nan' (no deadline is ever reached), 'inf', '1e309' and '1_0'."""

    name = "seconds"

    def __init__(self, high: float):
        self.high = high

    def convert(self, value: str | float, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, float):
            return value
        text = value.strip()
        if _DECIMAL.fullmatch(text) is None or len(text.lstrip("0")) > SEED_DIGITS:
            self.fail(f"'{value}' is not a number of seconds (plain digits, e.g. 30 or 2.5)", param, ctx)
        number = float(text)
        if not 0 < number <= self.high:
            self.fail(f"{text} is out of range: more than 0, at most {self.high:g}", param, ctx)
        return number


class Utf8Text(click.ParamType):
    """Text that is valid UTF-8: an argument with bytes that are not (carried by Python as
    lone surrogates) cannot be stored, matched or printed, so it is refused."""

    name = "text"

    def convert(self, value: str, param: click.Parameter | None, ctx: click.Context | None) -> str:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            self.fail("the value has bytes that are not UTF-8 text", param, ctx)
        return value


def mission_options(func: F) -> F:
    """Add --seed, --code, --difficulty and --ridges to a command."""
    func = click.option("--ridges", type=WholeNumber(-SEED_LIMIT), default=None, metavar="N",
                        help="Ridge count 1-4 (default 1). With --seed only.")(func)
    func = click.option("--difficulty", default=None, metavar="D",
                        help="easy, normal (default), hard or ace. With --seed only.")(func)
    func = click.option("--code", default=None, metavar="CODE",
                        help="A challenge code, e.g. 0M00-0001-WR3.")(func)
    func = click.option("--seed", default=None, metavar="N",
                        help="A map seed, a whole number 0 to 1099511627775.")(func)
    return func


def log_form_options(written_by: str, *, body: str = "the body",
                     state_lines_why: str = "") -> Callable[[F], F]:
    """Add --state-lines and --rows, the forms of the logs a command writes with the option
    ``written_by`` (e.g. "--write-log"); ``body`` names what --rows reshapes and
    ``state_lines_why`` ends --state-lines' help."""

    def add(func: F) -> F:
        func = click.option("--rows", is_flag=True,
                            help=f"With {written_by}: write {body} in the row form, a turn a line in "
                                 f"the sheet's columns (docs/log-format.md).")(func)
        return click.option("--state-lines", is_flag=True,
                            help=f"With {written_by}: close every turn with a state line (at, facing, "
                                 f"alt, dmg and art, the artillery by number, R43){state_lines_why}.")(func)

    return add


def pick_mission(seed: str | None, code: str | None, difficulty: str | None, ridges: int | None) -> Mission:
    """The mission named by the options. Raises :class:`click.UsageError` on misuse."""
    one = "give exactly one of --seed N or --code CODE"
    if code is not None:
        if seed is not None:
            raise click.UsageError(one)
        if difficulty is not None or ridges is not None:
            raise click.UsageError("--difficulty and --ridges go with --seed; a challenge code "
                                   "already fixes them")
        return mission_from_code(code)
    if seed is None:
        raise click.UsageError(one)
    digits = seed.strip()
    # ASCII digits only: int() alone would also take '1_944' and non-ASCII digits.
    if _SEED.fullmatch(digits) is None:
        raise BGridError(f"--seed '{seed}' is not a whole number: expected e.g. --seed 1944")
    if len(digits.lstrip("+-").lstrip("0")) > SEED_DIGITS:  # before int(): no huge numbers
        raise BGridError(f"--seed has {len(digits)} digits: a seed is 0 to 1099511627775")
    return mission_from_seed(int(digits), difficulty, ridges)
