"""The standings page: one self-contained HTML file (no scripts, no network, every text
autoescaped; player names, whatever a log's ``player:`` line says, are also isolated in
``<bdi>`` with their bidi controls dropped, so a name cannot reorder the row), readable on a phone,
and the replay report of each entry it shows, linked from it.

The reports go into a folder beside the page, ``<page name>-reports/``, one file per entry
named by its verification id; they are ``bgrid verify --html`` reports of the stored log.
A report already there is kept (its name is the log's id), so publishing again writes only
the new ones.
"""

from __future__ import annotations

from pathlib import Path

from ..verifier.report_html import _environment, render_report
from ..verifier.safe_text import html_text
from ..verifier.verify import verify_log
from .standings import Standings, par_source


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
    env = _environment()
    env.filters["untrusted"] = html_text
    return env.get_template("standings.html.j2").render(
        title=title, groups=groups, season=table.season, best=table.best, links=links, generated=generated,
        ranked_count=len(table.standings), unranked_count=len(table.unranked))


def report_html(log: bytes, source: str) -> str:
    """The replay report of one stored log, as ``bgrid verify --html`` writes it."""
    return render_report([verify_log(log, source=source)])
