"""The ``bgrid`` command line: parses options, calls the library, maps errors to exit codes.

Exit status: 0 success, 1 a game or log that fails (``bgrid verify``), 2 misuse or bad
input. Every error is one line on standard error, never a traceback. Subcommands are
imported only when run, so ``bgrid map`` does not pay for loading WeasyPrint.
"""

from __future__ import annotations

import gc
import importlib
import os
import signal
import sys
from collections.abc import Sequence
from types import FrameType
from typing import Any, NoReturn

import click

from .rules.errors import BGridError
from .safeio.safe_text import one_line

# name -> (module, attribute, one-line help shown in `bgrid --help`)
COMMANDS = {
    "map": ("bgrid.cmd_map", "map_command", "Show a seeded map and its challenge code."),
    "verify": ("bgrid.cmd_verify", "verify_command", "Replay mission logs and check their reported score."),
    "sheet": ("bgrid.cmd_print", "sheet_command", "Write a printable mission sheet (PDF)."),
    "deck": ("bgrid.cmd_print", "deck_command", "Write a printable card deck (PDF)."),
    "pack": ("bgrid.cmd_print", "pack_command", "Write sheet, deck, map.json, deck order into a folder."),
    "daily": ("bgrid.cmd_daily", "daily_command",
              "Print the challenge code of a day or an ISO week (--pack: write its pack)."),
    "league": ("bgrid.cmd_league", "league_group",
               "Keep a league: submit logs to a database, list them, publish standings."),
    "serve": ("bgrid.cmd_serve", "serve_command",
              "Run the league server: pages and a JSON API to register, submit and follow standings."),
    "solve": ("bgrid.cmd_solve", "solve_command",
              "Find a challenge's par and the line of play that reaches it."),
    "play": ("bgrid.cmd_play", "play_command",
             "Play a mission on paper with the companion: checks, board, the log written for you."),
    "simulate": ("bgrid.cmd_simulate", "simulate_command",
                 "Play a mission many times with a computer player; win rate and score."),
}


# click 8.2+ raises this (exit 2) where 8.1 printed the help and exited 0.
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


class MisuseError(click.ClickException):
    """Bad input or a bad option: exit status 2, one line."""

    exit_code = 2


class BGridGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module, attr, _ = COMMANDS[name]
        return getattr(importlib.import_module(module), attr)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][2]) for name in sorted(COMMANDS)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BGridError as exc:
            raise MisuseError(str(exc)) from None

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:  # the exit status; standalone, it exits (click's overloads)
        try:
            # Non-standalone, click returns the code of a ctx.exit(N) instead of exiting.
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except _NO_ARGS_IS_HELP as exc:  # a bare `bgrid` or `bgrid league`: the help, as written
            click.echo(exc.ctx.get_help(), err=True)
            code = exc.exit_code
        except click.UsageError as exc:
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            click.echo(f"Error: {one_line(exc.format_message())}{hint}", err=True)
            code = exc.exit_code
        except click.ClickException as exc:
            click.echo(f"Error: {one_line(exc.format_message())}", err=True)
            code = exc.exit_code
        except click.exceptions.Exit as exc:
            code = exc.exit_code
        except click.Abort:
            click.echo("Aborted.", err=True)
            code = 130
            job_pool = sys.modules.get(f"{__package__}.job_pool")  # loaded only by a --jobs run
            if job_pool is not None and job_pool.abandoned and standalone_mode:
                # the workers are ended and every file closed or removed while unwinding; only
                # the executor's exit-time join is left, and it may never return (bgrid.job_pool)
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        except BrokenPipeError:
            code = 1
        except OSError as exc:  # the last net under a file the commands could not read or write
            click.echo(f"Error: {one_line(str(exc))}", err=True)
            code = 2
        else:
            code = result if isinstance(result, int) else 0
        if standalone_mode:
            sys.exit(code)
        return code


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    import importlib.metadata  # here, not at the top: ~25 ms of every command's start-up

    from .build_kind import build_kind

    click.echo(f"bgrid, version {importlib.metadata.version('bgrid')} ({build_kind()})")
    ctx.exit()


@click.group(cls=BGridGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version and the build that runs (compiled or pure Python), and exit.")
def cli() -> None:
    """bgrid: maps, printables, a table companion, log verification, simulation and
    leagues for the solo wargame B-Grid: Fortress Run. 'bgrid COMMAND --help' tells more.

    \b
    Examples:
      bgrid pack --seed 1944               # print the sheet and the deck
      bgrid play --seed 1944 --log ada.log # play on paper, the log written for you
      bgrid verify ada.log                 # replay a log: valid, invalid or incomplete
      bgrid map --code 0M00-0001-WR3 --json
    """


def _terminate(signum: int, frame: FrameType | None) -> NoReturn:
    # SIGTERM unwinds like Ctrl-C, so every half-written temporary file is removed.
    raise KeyboardInterrupt


def main() -> None:
    signal.signal(signal.SIGTERM, _terminate)
    try:
        cli()
    finally:
        # What is left is freed with the process: the collections CPython runs at exit would
        # walk every object still alive (the verifier's memos: a tenth of verifying a folder).
        gc.freeze()
