"""The league server's web face: pages and a JSON API over one league database.

As thin as the CLI: a view reads the request, calls the league library (``bgrid.league``),
renders a template or JSON. :func:`create_app` builds the application; ``bgrid serve`` runs
it under gunicorn's worker processes (:mod:`web.workers`) or, with one worker, waitress.
Other faces (the table companion's phone pages) add their own blueprint
with ``app.register_blueprint``.
"""

from .app import create_app

__all__ = ["create_app"]
