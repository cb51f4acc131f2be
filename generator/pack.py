"""The mission pack: what goes in it, written whole (``safe_output.atomic_folder``).

A pack is ``<out>/<code>/`` holding the mission sheet, the challenge deck, the map JSON and
the deck order JSON (``bgrid map --json`` in two files, so that opening the map shows no
card of the deck), so one folder has all a player needs for a challenge.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..challenges.mission import Mission
from ..players.blind import BlindBenchmark
from ..players.rating import RATING_SEED, Rating
from .deck_pdf import render_deck, variant_suffix
from .map_text import deck_order_record, map_record
from ..safeio import safe_output
from ..safeio.safe_output import OutputError, is_same_file
from .sheet import render_sheet, sheet_name


#: The map, for a player to check (no card of the deck in it).
MAP_FILE = "map.json"
#: The deck order, top first, with its reshuffle numbers: a file of its own, out of sight.
DECK_ORDER_FILE = "deck-order.json"


def is_pack_file(name: str) -> bool:
    """A name a pack (or its --png previews) holds: an earlier pack may be replaced whole."""
    return name in (MAP_FILE, DECK_ORDER_FILE) or (name.startswith(("sheet-", "deck-"))
                                                   and name.endswith((".pdf", ".png")))


def pack_files(mission: Mission, paper: str = "a4", *, player: str | None = None,
               low_ink: bool = False, gutter_fold: bool = False,
               duplex_offset: tuple[float, float] = (0.0, 0.0), par: int | None = None,
               rating: Rating | None = None, blind: BlindBenchmark | None = None,
               winnable: bool = False) -> dict[str, bytes]:
    """The pack's files by name: ``sheet-<paper>.pdf``, ``deck-<paper><variant>.pdf`` (see
    :func:`variant_suffix`), ``map.json`` and ``deck-order.json`` (the deck order apart, so
    that opening ``map.json`` shows no card of it). A mission without a known deck order (a
    hand setup, an explicit map, a blank sheet) gets a plain deck and neither JSON file. The
    yardsticks (R42, ``players.blind_beside``), on the sheet and in ``map.json``: ``par``, the
    open-deck par (``open_deck_par``); ``winnable``, its line is a victory (``"winnable": true``
    and the par again as ``par``, as ``bgrid pack --winnable`` has always written them);
    ``blind``, the blind benchmark (the ``blind_*`` keys). ``rating`` (``bgrid pack --rate``):
    the stars on the sheet, the numbers in ``map.json``."""
    paper = paper.lower()
    variant = variant_suffix(low_ink=low_ink, gutter_fold=gutter_fold)
    seeded = mission if mission.is_seeded else None
    files = {
        f"sheet-{paper}.pdf": render_sheet(mission, paper, player, par, rating, blind, winnable=winnable),
        f"deck-{paper}{variant}.pdf": render_deck(seeded, paper, low_ink=low_ink, gutter_fold=gutter_fold,
                                         duplex_offset=duplex_offset),
    }
    if seeded is not None:
        record = map_record(seeded)
        if par is not None:
            record |= ({"winnable": True, "par": par} if winnable else {}) | {"open_deck_par": par}
        if blind is not None:
            record |= blind.as_dict()
        if rating is not None:
            record["rating"] = rating_record(rating)
        files[MAP_FILE] = _json(record)
        files[DECK_ORDER_FILE] = _json(deck_order_record(seeded))
    return files


def _json(record: dict) -> bytes:
    return (json.dumps(record, indent=2) + "\n").encode()


def rating_record(rating: Rating) -> dict:
    """The rating's numbers in ``map.json``: stars with their interval and band, the mean
    bunkers destroyed with its interval, games, wins, and how it was played."""
    return rating.as_dict() | {"deck": "own", "sim_seed": RATING_SEED}


def write_pack(mission: Mission, paper: str, out: Path, *, png: bool = False, player: str | None = None,
               par: int | None = None, rating: Rating | None = None, settings: dict | None = None,
               inputs: list[Path] | None = None, blind: BlindBenchmark | None = None,
               winnable: bool = False) -> list[Path]:
    """Write ``mission``'s pack into ``out``/<name>/ (``out`` exists) and return the paths
    written, in order; ``png`` adds a preview of every PDF page. A pack never replaces
    ``inputs`` (the ``--header`` log it was made from). Raises :class:`OutputError`."""
    folder = out / sheet_name(mission)
    for given in inputs or []:
        if is_same_file(folder, given) or (folder.is_dir() and is_same_file(folder, Path(given).parent)):
            raise OutputError(f"--out '{out}': the pack folder '{folder}' holds the --header log "
                              f"'{given}'; it would be replaced. Give another --out")
    files = pack_files(mission, paper, player=player, par=par, rating=rating, blind=blind,
                       winnable=winnable, **(settings or {}))
    if png:
        from .preview import page_previews

        for name in [n for n in files if n.endswith(".pdf")]:
            files.update((page.name, image) for page, image in page_previews(Path(name), files[name]).items())
    # Built beside the target and renamed into place: a pack is complete or absent, and two
    # runs on one folder each leave a whole pack, never a mix.
    with safe_output.atomic_folder(folder, is_pack_file, f"the pack {folder.name}") as building:
        for name, data in files.items():
            safe_output.write_atomic(building / name, data)
    return [folder / name for name in files]
