"""The suite tests the code in this checkout, never a stale installed copy.

With a plain ``pip install .`` the package lives in site-packages and edits to the
checkout go untested until the next reinstall. The README installs in editable mode
(``pip install -e``); this guard stops the run at once when the imported package lies
outside the checkout, instead of letting stale code pass.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import bgrid
import bgrid.rules

CHECKOUT = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    for module in (bgrid, bgrid.rules):
        where = Path(module.__file__).resolve()
        if not where.is_relative_to(CHECKOUT):
            raise pytest.UsageError(
                f"the tests import {module.__name__} from {where.parent}, not from this "
                f"checkout ({CHECKOUT}); install it in editable mode: pip install -e '.[test]'")
