"""The league server's web face: pages and a JSON API over one league database.

As thin as the CLI: a view reads the request, calls the league library (``bgrid.league``),
renders a template or JSON. :func:`create_app` builds the application; ``bgrid serve`` runs
it under gunicorn's worker processes or, with one worker, waitress (:mod:`web.serving`), and
takes all it needs from this package: the names below are the web face's entry points.
Other faces (the table companion's phone pages) add their own blueprint
with ``app.register_blueprint``.
"""

from .app import create_app
from .db import warm_missions
from .serving import can_fork, default_workers, listen, serve_workers, waitress_server

__all__ = ["can_fork", "create_app", "default_workers", "listen", "serve_workers", "waitress_server",
           "warm_missions"]
