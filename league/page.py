"""The standings page and its replay reports: the published site of a league.

The page is one self-contained HTML file (no scripts, no network, every text autoescaped;
player names, whatever a log's ``player:`` line says, are also isolated in ``<bdi>``), readable
on a phone. Every page goes through one cleaning, :func:`~bgrid.safeio.safe_text.html_text`
(inside the renderers), so a bidi override or a control character in a name, a title or a log
cannot reorder or spoof what a browser shows.

Each entry's replay report goes into a folder beside the page, ``<page name>-reports/``, one
file per entry named by its verification id: ``bgrid verify --html``'s report of the stored log
replayed with its history (every turn, path and trail), headed by the entry number, never by
the file name it was sent under (a local path). Each report carries the format it was made
with (``REPORT_FORMAT``, in ``<meta name="generator">``); publishing again writes only the
reports that are missing or of another format, so reports made by an older bgrid are rewritten
and an unchanged site costs one read of each report's first bytes.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from ..safeio.safe_output import OutputError, check_target, sweep_temporaries, write_batch
from ..verifier.report_html import page_environment, render_report
from ..safeio.safe_text import html_text
from ..verifier.verify import Verifier
from .standings import Standings, par_source
from .store import find_entry
from .submit import replay

# Bump when what a report shows changes: a republish then rewrites every older report.
# 2: with the replay's history (every turn, the paths); 1: without it ("turn 1 of 1", no path).
REPORT_FORMAT = "bgrid league report 2"
_HEAD_BYTES = 512  # the <meta name="generator"> sits in the first lines of a report
REPORT_BATCH = 200  # reports made durable (one sync) and renamed into place together


def reports_folder_name(page: Path) -> str:
    return f"{page.stem}-reports"


def render_page(table: Standings, *, title: str = "B-Grid league standings", links: str | None = None,
                generated: str | None = None) -> str:
    """The standings page; ``links`` is the folder (relative to the page) holding the
    replay reports, or None for a page without links."""
    groups = []
    for challenge in table.challenges:
        par = table.pars.get(challenge) if challenge is not None else None
        groups.append({"challenge": challenge, "par": par_source(par) if par else None,
                       "blind": par is not None and par.blind_median is not None,
                       "ranked": [s for s in table.standings if s.challenge == challenge],
                       "unranked": [u for u in table.unranked if u.challenge == challenge]})
    # the folder name as a URL path segment: a name that is not UTF-8, or holds a newline or
    # an escape, still links (percent-encoded), never breaks the attribute
    href = None if links is None else quote(links, errors="surrogateescape")
    return html_text(page_environment().get_template("standings.html.j2").render(
        title=title, groups=groups, season=table.season, best=table.best, links=href, generated=generated,
        ranked_count=len(table.standings), unranked_count=len(table.unranked)))


def entry_label(entry_id: int) -> str:
    """What a published report calls its log: the entry number, not a local file name."""
    return f"entry #{entry_id}"


def report_html(row: sqlite3.Row, verifier: Verifier | None = None) -> str:
    """The replay report of one recorded entry (a row of ``find_entry``), as ``bgrid verify
    --html`` writes it, with every turn of the replay (its history) and the league's format
    mark."""
    verdict = replay(row, source=entry_label(row["id"]), history=True, verifier=verifier)
    return render_report([verdict], generator=REPORT_FORMAT)


def is_current_report(path: Path) -> bool:
    """True when ``path`` is a report of this :data:`REPORT_FORMAT` (not through a symlink)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as fh:
        head = fh.read(_HEAD_BYTES)
    return f'<meta name="generator" content="{REPORT_FORMAT}">'.encode() in head


@dataclass(frozen=True)
class Published:
    page: Path
    reports: Path
    linked: int  # reports the page links to
    written: int  # of them, written by this run (missing or of an older format)


def reports_folder(page: Path) -> Path:
    """The reports folder beside ``page``, created if missing. Raises :class:`OutputError`
    when it is a symlink (it would put the reports elsewhere) or not a folder."""
    folder = page.parent / reports_folder_name(page)
    try:
        mode = os.lstat(folder).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise OutputError(f"cannot write the replay reports folder '{folder}': {exc.strerror}") from None
    if mode is not None and stat.S_ISLNK(mode):
        raise OutputError(f"will not write the replay reports into '{folder}': it is a symbolic link; "
                          "remove it (bgrid makes the folder)")
    if mode is not None and not stat.S_ISDIR(mode):
        raise OutputError(f"the replay reports folder '{folder}' is a file, not a folder")
    if mode is None:
        try:
            folder.mkdir()
        except OSError as exc:
            raise OutputError(f"cannot create the replay reports folder '{folder}': {exc.strerror}") from None
    return folder


def publish(conn: sqlite3.Connection, table: Standings, page: Path, *, title: str,
            generated: str) -> Published:
    """Write the replay reports the page links to (those missing or of another format), then
    the page. A report name held by anything but a regular file (a planted symlink to
    ``/etc/passwd``, a folder) is refused before anything is written.

    Raises :class:`OutputError`."""
    check_target(page, "the standings page")
    folder = reports_folder(page)
    sweep_temporaries(folder)  # a killed run's, which would be published with the folder
    held = {}
    with os.scandir(folder) as listing:
        for entry in listing:
            held[entry.name] = entry.is_file(follow_symlinks=False)
    ids = [(s.entry_id, s.verification_id) for s in table.standings]
    ids += [(u.entry_id, u.verification_id) for u in table.unranked]
    stale = []
    for entry_id, verification_id in ids:
        name = f"{verification_id}.html"
        if held.get(name) is False:
            raise OutputError(f"will not publish: '{folder / name}' is not a report bgrid wrote (a symbolic "
                              "link, a folder or a device); remove it and publish again")
        if name not in held or not is_current_report(folder / name):
            stale.append((entry_id, folder / name))
    verifier = Verifier()  # one challenge's mission is built once for all its reports

    def reports() -> Iterator[tuple[Path, str]]:
        for entry_id, target in stale:
            row = find_entry(conn, str(entry_id))
            assert row is not None  # the standings were read from this connection
            yield target, report_html(row, verifier)

    write_batch(reports(), "a replay report", batch=REPORT_BATCH)
    write_batch([(page, render_page(table, title=title, links=folder.name, generated=generated))],
                "the standings page")
    return Published(page, folder, len(ids), len(stale))
