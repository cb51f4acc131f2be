"""The suite tests the code in this checkout, never a stale installed copy.

With a plain ``pip install .`` the package lives in site-packages and edits to the
checkout go untested until the next reinstall. The README installs in editable mode
(``pip install -e``); this guard stops the run at once when the imported package lies
outside the checkout, instead of letting stale code pass.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

import bgrid
import bgrid.rules

if TYPE_CHECKING:
    from flask.testing import FlaskClient

CHECKOUT = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    for module in (bgrid, bgrid.rules):
        where = Path(module.__file__).resolve()
        if not where.is_relative_to(CHECKOUT):
            raise pytest.UsageError(
                f"the tests import {module.__name__} from {where.parent}, not from this "
                f"checkout ({CHECKOUT}); install it in editable mode: pip install -e '.[test]'")


@pytest.fixture
def as_nobody() -> list[str]:
    """The arguments that run a command as an unprivileged user (none when the suite already
    runs as one); the test is skipped where that is impossible."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is not None:
        prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
        probe = subprocess.run([*prefix, sys.executable, "-c", "import bgrid.cli"], capture_output=True)
        if probe.returncode == 0:
            return prefix
    pytest.skip("cannot run a command as an unprivileged user here")


@pytest.fixture
def league_db(tmp_path: Path) -> Path:
    """A league the server tests serve (tests/league_server.py), in the test's folder."""
    from league_server import served_league  # the server's modules load only for its tests

    return served_league(tmp_path)


@pytest.fixture
def client(league_db: Path) -> FlaskClient:
    """Flask's test client of the server over ``league_db``, its limits out of the way."""
    from league_server import league_client

    return league_client(league_db)
