"""The league server's web face: pages and a JSON API over one league database.

As thin as the CLI: a view reads the request, calls the league library (``bgrid.league``),
renders a template or JSON. :func:`create_app` builds the application; ``bgrid serve`` runs
it with waitress, in gunicorn's worker processes or, with one worker, in one process
(:mod:`web.serving`), and
takes all it needs from this package: the names below are the web face's entry points.
Other faces (the table companion's phone pages) add their own blueprint
with ``app.register_blueprint``.
"""

from .app import create_app
from .db import warm_missions
from .serving import (can_fork, default_workers, league_server, listen, log_to_stderr, serve_one,
                      serve_workers)

__all__ = ["can_fork", "create_app", "default_workers", "league_server", "listen", "log_to_stderr",
           "serve_one", "serve_workers", "warm_missions"]
