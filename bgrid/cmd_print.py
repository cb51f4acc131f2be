"""``bgrid sheet``, ``bgrid deck`` and ``bgrid pack``: the printables.

Every file is written whole or not at all (``safeio.safe_output``), a pack folder too;
errors (a bad --out, a bad paper, a bad offset, a symlink or FIFO as the output) are one
line and exit status 2.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .generator.paper import PAPERS
from .header_options import header_options, pick_source
from .options import DEFAULT_OUT, F, WholeNumber, mission_options, pick_mission
from .pack_yardsticks import measure_yardsticks, pack_yardsticks
from .safeio.safe_text import display_name

if TYPE_CHECKING:  # the players load only for --rate and --winnable
    from collections.abc import Callable

    from .challenges.codes import ChallengeSpec
    from .challenges.mission import Mission
    from .players.rating import Rating



def _common(func: F,
            out_help: str = "Output folder (created if missing), or a file name ending in .pdf.") -> F:
    func = click.option("--png", is_flag=True,
                        help="Also write a PNG of every page (for checking by eye).")(func)
    func = click.option("--out", type=click.Path(), default=str(DEFAULT_OUT), callback=_out_path,
                        show_default=True, help=out_help)(func)
    func = click.option("--paper", type=click.Choice(sorted(PAPERS), case_sensitive=False),
                        default="a4", show_default=True, help="Paper size.")(func)
    return func


def _out_path(ctx: click.Context, param: click.Parameter, value: str) -> Path:
    """--out as a Path. An empty value is refused: Path('') is '.', the current folder, which
    nobody means by typing --out ''."""
    if not value.strip():
        pdf = "" if ctx.command.name == "pack" else ", or a file name ending in .pdf"  # a pack is a folder
        raise click.BadParameter(f"needs a folder{pdf}, e.g. --out output")
    return Path(value)


def _deck_options(func: F) -> F:
    func = click.option("--duplex-offset", "duplex_offset", default="0,0", metavar="X,Y",
                        show_default=True,
                        help="Shift the back pages by X mm right and Y mm up, to match "
                             "your printer's duplex registration.")(func)
    func = click.option("--gutter-fold", is_flag=True,
                        help="Fronts and backs side by side on one-sided pages; fold and glue "
                             "instead of printing duplex.")(func)
    func = click.option("--low-ink", is_flag=True,
                        help="White backs and outlined red suits.")(func)
    return func


#: ``--rate`` without a number: play until the stars hold (a number typed is at least 1).
_ADAPTIVE = 0


def _rate_option(func: F) -> F:
    from .players.rating import RATING_BATCH, RATING_MOST, RATING_PLAYER

    return click.option(
        "--rate", type=WholeNumber(1, 100_000), is_flag=False, flag_value=_ADAPTIVE, default=None,
        metavar="[GAMES]",
        help=f"Rate the map's difficulty (1-5 stars, more is harder) from how many of its bunkers "
             f"the {RATING_PLAYER} player destroys on average with its own shuffled deck, over "
             f"GAMES games (no number: batches of {RATING_BATCH} games until the stars hold, at "
             f"most {RATING_MOST}; sim seed 0, so the same stars every time), and print the stars, "
             f"their interval and the games on the sheet (and the numbers in map.json). Takes "
             f"about 5 ms a game: seconds without a number, 20 s at most.")(func)


def _check_rate(rate: int | None, mission: Mission) -> None:
    if rate is not None and not mission.is_seeded:
        raise click.UsageError("--rate needs --seed or --code: a rating plays the generated map")


def _rating(mission: Mission, games: int | None) -> Rating | None:
    """The rating of ``mission``'s map over ``games`` games, or None when not asked."""
    if games is None:
        return None
    from .players.rating import rate_mission

    if games == _ADAPTIVE:
        click.echo("rating until the stars hold…", err=True)
        return rate_mission(mission, None)
    click.echo(f"rating over {games} games…", err=True)
    return rate_mission(mission, games)


def _deck_settings(low_ink: bool, gutter_fold: bool, duplex_offset: str) -> dict:
    """The deck options as render_deck keyword arguments; an offset needs duplex printing."""
    from .generator.deck_pdf import parse_offset

    offset = parse_offset(duplex_offset)
    if gutter_fold and offset != (0.0, 0.0):
        raise click.UsageError("--duplex-offset is for duplex printing; --gutter-fold prints one-sided")
    return {"low_ink": low_ink, "gutter_fold": gutter_fold, "duplex_offset": offset}


def _target(out: Path, default_name: str, header: Path | None = None) -> Path:
    """``--out`` as the PDF's path: a ``.pdf`` name as given, else a folder for the default
    name; never the ``--header`` log it was made from."""
    from .safeio.safe_output import check_target, make_folder

    inputs = [header] if header is not None else []
    if out.suffix.lower() == ".pdf":
        make_folder(out.parent if str(out.parent) else Path("."), "the --out folder")
        return check_target(out, "--out", inputs)
    return check_target(make_folder(out, "the --out folder") / default_name, "--out", inputs)


def _write(path: Path, pdf: bytes, png: bool) -> None:
    from .generator.preview import page_previews
    from .safeio.safe_output import write_atomic

    pages = page_previews(path, pdf) if png else {}
    write_atomic(path, pdf)
    click.echo(display_name(str(path)))
    for page, image in pages.items():
        write_atomic(page, image)
        click.echo(display_name(str(page)))


def _player_name(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """--player as printable text: an argument holding bytes that are not UTF-8 (Python
    carries them as lone surrogates) or control characters cannot be printed on a sheet."""
    if value is None:
        return None
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise click.BadParameter("holds bytes that are not UTF-8 text") from None
    if any(ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in value):
        raise click.BadParameter("holds control characters (a newline, a tab, an escape)")
    return value


@click.command("sheet")
@mission_options
@header_options
@_common
@click.option("--player", default=None, metavar="NAME", callback=_player_name,
              help="Pilot name printed on the sheet.")
@_rate_option
def sheet_command(seed: str | None, code: str | None, difficulty: str | None, ridges: int | None,
                  header: Path | None, blank: bool, paper: str, out: Path, png: bool, player: str | None,
                  rate: int | None) -> None:
    """Write the printable mission sheet (PDF): board, challenge code and QR, trackers,
    player aid, a turn log with a row for every turn the deck allows and, on a page of its
    own, the challenge deck's stacking list and reshuffle numbers.

    \b
    Examples:
      bgrid sheet --seed 1944
      bgrid sheet --code 0M00-0001-WR3 --paper letter --player Ada --png
      bgrid sheet --seed 7 --ridges 3 --out mission7.pdf
      bgrid sheet --blank                  # set up at the table with a real deck
      bgrid sheet --header ada.log         # the mission a log header names
      bgrid sheet --seed 1944 --rate       # stars in the header: the strong player until they hold
    """
    from .generator.sheet import render_sheet, sheet_name

    mission = pick_source(seed, code, difficulty, ridges, header, blank)
    _check_rate(rate, mission)
    target = _target(out, f"sheet-{sheet_name(mission)}-{paper.lower()}.pdf", header)  # before any work
    pdf = render_sheet(mission, paper, player, rating=_rating(mission, rate))
    _write(target, pdf, png)


@click.command("deck")
@mission_options
@_common
@_deck_options
def deck_command(seed: str | None, code: str | None, difficulty: str | None, ridges: int | None, paper: str,
                 out: Path, png: bool, low_ink: bool, gutter_fold: bool, duplex_offset: str) -> None:
    """Write a printable 54-card deck (PDF), poker size with crop marks.

    With --seed or --code it is that challenge's deck in stack order, each back marked with
    its stack position and reshuffle number, each front with the reshuffle number in its
    corners (for restacking face up, R26); with neither, a plain deck.

    \b
    Examples:
      bgrid deck --code 0M00-0001-WR3
      bgrid deck --paper letter --low-ink
      bgrid deck --seed 1944 --duplex-offset 0.5,-1
      bgrid deck --seed 1944 --gutter-fold
    """
    from .generator.deck_pdf import render_deck, variant_suffix

    settings = _deck_settings(low_ink, gutter_fold, duplex_offset)
    if seed is None and code is None:
        if difficulty is not None or ridges is not None:
            raise click.UsageError("--difficulty and --ridges go with --seed")
        mission, name = None, f"deck-plain-{paper.lower()}"
    else:
        mission = pick_mission(seed, code, difficulty, ridges)
        name = f"deck-{mission.code}-{paper.lower()}"
    name += variant_suffix(low_ink=low_ink, gutter_fold=gutter_fold) + ".pdf"
    target = _target(out, name)
    pdf = render_deck(mission, paper, **settings)
    _write(target, pdf, png)


@click.command("pack")
@mission_options
@header_options
@functools.partial(_common, out_help="The folder the pack's own folder goes into (created if missing): "
                                     "OUT/<code>/ for a challenge.")
@_deck_options
@click.option("--player", default=None, metavar="NAME", callback=_player_name,
              help="Pilot name printed on the sheet.")
@click.option("--winnable", is_flag=True,
              help="Pack the first seed from the given one onward (same difficulty and ridges) "
                   "whose solve (bgrid solve) finds a victory; the sheet and map.json give its "
                   "open-deck par and its blind benchmark (the strong player's median drawing "
                   "blind, R42).")
@click.option("--yardsticks", is_flag=True,
              help="Put the challenge's open-deck par and blind benchmark (R42) on the sheet and "
                   "in map.json, as bgrid daily --pack does (a solve and 40 blind games: 15 s of "
                   "CPU, 10-20 s).")
@_rate_option
def pack_command(seed: str | None, code: str | None, difficulty: str | None, ridges: int | None,
                 header: Path | None, blank: bool, paper: str, out: Path, png: bool, low_ink: bool,
                 gutter_fold: bool, duplex_offset: str, player: str | None, winnable: bool,
                 yardsticks: bool, rate: int | None) -> None:
    """Write a mission pack into OUT/<code>/: the sheet, the challenge deck, map.json (the map,
    no card of the deck) and deck-order.json (the deck order, out of sight).

    A hand setup, an explicit map (--header) or a blank sheet has no deck order: its pack
    holds the sheet and a plain deck, in OUT/setup-<id>/, OUT/map-<id>/ or OUT/blank/.

    \b
    Examples:
      bgrid pack --seed 1944
      bgrid pack --code 0M00-0001-WR3 --paper letter --out packs
      bgrid pack --blank
      bgrid pack --header ada.log
      bgrid pack --seed 1944 --winnable
      bgrid pack --code 0M00-0001-WR3 --yardsticks
      bgrid pack --seed 1944 --rate 200
    """
    from .safeio.safe_output import make_folder

    settings = _deck_settings(low_ink, gutter_fold, duplex_offset)
    mission = pick_source(seed, code, difficulty, ridges, header, blank)
    if out.suffix.lower() == ".pdf":
        raise click.UsageError("--out for a pack is a folder, not a .pdf file")
    for flag, asked in (("--winnable", winnable), ("--yardsticks", yardsticks)):
        if asked and not mission.is_seeded:  # before the folder is made: misuse writes nothing
            raise click.UsageError(f"{flag} needs --seed or --code: only a challenge deck can be solved")
    _check_rate(rate, mission)
    make_folder(out, "the --out folder")
    measured = None
    if winnable:
        from .job_pool import spare_worker
        from .players.blind_beside import BlindBeside, Yardsticks

        with spare_worker("benchmarking") as submit:
            beside = BlindBeside(submit)
            mission, par = _winnable(mission, code is not None, beside.start)
            assert mission.spec is not None  # a winnable challenge is seeded (checked above)
            measured = Yardsticks(par, True, beside.of(mission.spec))
    elif yardsticks:
        assert mission.spec is not None  # checked above
        measured = measure_yardsticks(mission.spec)
    if measured is not None:
        click.echo(measured.text, err=True)
    from .generator.pack import write_pack

    for path in write_pack(mission, paper, out, png=png, player=player,
                           rating=_rating(mission, rate), settings=settings,
                           inputs=[header] if header is not None else [], **pack_yardsticks(measured)):
        click.echo(display_name(str(path)))
    if measured is None and mission.code is not None and mission.is_seeded:
        click.echo(f"no yardsticks on this sheet (R42); for the open-deck par and the blind "
                   f"benchmark: {_yardsticks_command(mission.code, paper, out)}", err=True)


def _yardsticks_command(code: str, paper: str, out: Path) -> str:
    """The pack command that gives a challenge's yardsticks, with this run's paper and folder."""
    import shlex

    words = ["bgrid", "pack", "--code", code, "--yardsticks"]
    if paper.lower() != "a4":
        words += ["--paper", paper.lower()]
    if out != DEFAULT_OUT:
        words += ["--out", str(out)]
    return shlex.join(words)


def _winnable(seeded: Mission, by_code: bool,
              before: Callable[[ChallengeSpec], object]) -> tuple[Mission, int]:
    """The first winnable challenge from ``seeded``'s seed onward (``players.solver``) and its
    par; ``before(candidate)`` as each candidate's solve begins."""
    from .players.solver import first_winnable

    click.echo(f"solving from seed {seeded.spec.seed} for a winnable challenge…", err=True)
    mission, par = first_winnable(seeded.spec, before=before)
    assert par.best is not None  # the par of a winnable challenge: its solve found a victory
    return (mission if by_code else mission.as_seed()), par.best.score
