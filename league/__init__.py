"""A league: a SQLite database of verified log submissions, and its standings.

``store`` holds the schema and the safe writes, ``submit`` verifies and records logs,
``standings`` ranks them, ``page`` renders the standings as HTML.
"""

from .page import render_page, report_html
from .standings import Standings, compute_standings
from .store import LeagueError, create_league, find_entry, list_entries, open_league
from .submit import Submission, submit_logs

__all__ = ["LeagueError", "Standings", "Submission", "compute_standings", "create_league", "find_entry",
           "list_entries", "open_league", "render_page", "report_html", "submit_logs"]
