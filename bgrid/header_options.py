"""``--header FILE`` and ``--blank`` for the printables: a mission named the way a log names
it, or one still to be set up at the table.

The header is read with the verifier's own parser and map source (``docs/log-format.md``,
Header), so one notation names a mission everywhere and a header the verifier refuses is
refused here with the same message; the generator is handed the
:class:`~bgrid.challenges.mission.Mission` the header names.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from .options import F, pick_mission
from .rules.errors import BGridError
from .challenges.mission import Mission, blank_mission, validate_spec
from .rules.ruleset import load_ruleset

if TYPE_CHECKING:  # the verifier loads only when a --header is read
    from .log.reader import ParsedLog


def header_options(func: F) -> F:
    """Add --header FILE and --blank to a command that has the mission options."""
    func = click.option("--blank", is_flag=True,
                        help="A sheet with an empty board and a box for the setup cards drawn at "
                             "the table (R1-R5); --difficulty may fix the health.")(func)
    func = click.option("--header", "header", default=None, metavar="FILE",
                        type=click.Path(dir_okay=False, path_type=Path),
                        help="The mission a log header names (challenge:, seed:, setup or map "
                             "lines); a whole log is fine, only its header is read.")(func)
    return func


def pick_source(seed: str | None, code: str | None, difficulty: str | None, ridges: int | None,
                header: Path | None, blank: bool) -> Mission:
    """The mission named by --seed, --code, --header or --blank. Raises
    :class:`click.UsageError` on misuse, :class:`BGridError` for a header that is wrong."""
    named = [seed is not None, code is not None, header is not None, blank]
    if sum(named) > 1 or (sum(named) == 0):
        raise click.UsageError("give exactly one of --seed N, --code CODE, --header FILE or --blank")
    if header is not None:
        if difficulty is not None or ridges is not None:
            raise click.UsageError("--difficulty and --ridges go with --seed; the header names the mission")
        return header_source(header)
    if blank:
        if ridges is not None:
            raise click.UsageError("--ridges goes with --seed; on a blank sheet the ridges are drawn at "
                                   "the table")
        if difficulty is None:
            return blank_mission(load_ruleset())
        rs = load_ruleset()
        return blank_mission(rs, validate_spec(rs, difficulty, None, 0).difficulty)
    return pick_mission(seed, code, difficulty, ridges)


def read_named_log(path: str | Path, option: str = "--header") -> bytes:
    """The bytes of a log named by ``option``, at most one byte over the verifier's cap (it
    then says so): a header of /dev/zero or a huge file is refused, not read into memory."""
    from .log.lexer import MAX_BYTES

    try:
        with open(path, "rb") as fh:
            return fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise BGridError(f"cannot read {option} '{path}': {exc.strerror or exc}") from None


def read_header(path: str | Path) -> ParsedLog:
    """The parsed header of the log in ``path``: the lines before the first body line (a
    whole log is fine, a trailing fragment too: the body is not read). Every ``--header``
    (sheet, pack, solve) reads it this way. Raises :class:`BGridError`."""
    from .log.lexer import log_lines
    from .log.messages import LogError
    from .log.notation import ParsedLog
    from .log.reader import read_header as read_log_header

    data = read_named_log(path)
    try:
        header, body_start = read_log_header(data)  # E126 when it names no map
        return ParsedLog(header, [], log_lines(data)[0][:body_start])
    except LogError as exc:
        raise BGridError(f"--header '{path}': {exc}") from None


def header_source(path: Path) -> Mission:
    """The mission of the log header in ``path`` (the body, if any, is not read)."""
    from .verifier.map_source import mission_source
    from .log.messages import LogError

    log = read_header(path)
    try:
        return mission_source(log)
    except LogError as exc:
        raise BGridError(f"--header '{path}': {exc}") from None
