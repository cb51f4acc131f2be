"""The suite tests the code in this checkout, never a stale installed copy.

With a plain ``pip install .`` the package lives in site-packages and edits to the
checkout go untested until the next reinstall. The README installs in editable mode
(``pip install -e``); this guard stops the run at once when the imported package lies
outside the checkout, instead of letting stale code pass.

CI also runs the game model's, the verifier's and the players' tests against the compiled
build installed from this checkout (``BGRID_TEST_BUILD=compiled``): then the guard is the
other way round, and stops the run unless the hot modules imported are the compiled ones.
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
    if os.environ.get("BGRID_TEST_BUILD") == "compiled":
        from bgrid.build_kind import compiled_modules, is_compiled

        interpreted = [name for name in compiled_modules() if not is_compiled(name)]
        if interpreted:
            raise pytest.UsageError(
                f"BGRID_TEST_BUILD=compiled, but these modules are not compiled: {', '.join(interpreted)}")
        # `python -c` puts the working folder first on sys.path, where the checkout's bgrid/
        # would shadow the installed build: the commands the tests start import the build.
        os.environ["PYTHONSAFEPATH"] = "1"
        return
    for module in (bgrid, bgrid.rules):
        where = Path(module.__file__).resolve()
        if not where.is_relative_to(CHECKOUT):
            raise pytest.UsageError(
                f"the tests import {module.__name__} from {where.parent}, not from this "
                f"checkout ({CHECKOUT}); install it in editable mode: pip install -e '.[test]'")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("BGRID_TEST_BUILD") != "compiled":
        return
    for item in items:
        marker = item.get_closest_marker("pure_python_only")
        if marker is not None:
            item.add_marker(pytest.mark.skip(reason=f"pure Python build only: {marker.args[0]}"))


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
