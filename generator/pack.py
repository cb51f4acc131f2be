"""Writing printables to disk: atomic file writes and the mission pack.

A pack is ``<out>/<code>/`` holding the mission sheet, the challenge deck and the map JSON
(``bgrid map --json``), so one folder has all a player needs for a challenge.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from ..rules.errors import BGridError
from ..rules.map_sources import MapSource
from ..rules.mission import Mission
from .deck_pdf import render_deck, variant_suffix
from .map_text import mission_json
from .sheet import render_sheet


def write_atomic(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename,
    so a crash or a full disk never leaves a half-written file under the real name.

    Raises :class:`BGridError` when the folder cannot be written.
    """
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise BGridError(f"cannot write to '{path.parent}': {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        os.replace(tmp, path)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise BGridError(f"cannot write '{path}': {exc.strerror or exc}") from None
    return path


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def output_dir(path: Path) -> Path:
    """``path`` as a folder to write into, created if missing. Raises :class:`BGridError`."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise BGridError(f"--out '{path}' is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BGridError(f"cannot create folder '{path}': {exc.strerror or exc}") from None
    return path


def pack_files(mission: Mission | MapSource, paper: str = "a4", *, player: str | None = None,
               low_ink: bool = False, gutter_fold: bool = False,
               duplex_offset: tuple[float, float] = (0.0, 0.0)) -> dict[str, bytes]:
    """The pack's files by name: ``sheet-<paper>.pdf``, ``deck-<paper><variant>.pdf`` (see
    :func:`variant_suffix`), ``map.json``. A mission without a known deck order (a hand
    setup, an explicit map, a blank sheet) gets a plain deck and no ``map.json``."""
    paper = paper.lower()
    variant = variant_suffix(low_ink=low_ink, gutter_fold=gutter_fold)
    seeded = mission.mission if isinstance(mission, MapSource) else mission
    files = {
        f"sheet-{paper}.pdf": render_sheet(mission, paper, player),
        f"deck-{paper}{variant}.pdf": render_deck(seeded, paper, low_ink=low_ink, gutter_fold=gutter_fold,
                                         duplex_offset=duplex_offset),
    }
    if seeded is not None:
        files["map.json"] = (json.dumps(mission_json(seeded), indent=2) + "\n").encode()
    return files

