"""Which build runs: ``bgrid --version`` names it, from whether the engine's module was loaded
from a compiled extension (the editable install the tests use is always pure Python)."""

from __future__ import annotations

import importlib.machinery
import os

import pytest
from click.testing import CliRunner

import bgrid.rules.engine
from bgrid.build_kind import build_kind, compiled_modules, is_compiled
from bgrid.cli import cli

#: The build under test: the editable install, or the compiled one (tests/conftest.py).
BUILD = "compiled" if os.environ.get("BGRID_TEST_BUILD") == "compiled" else "pure Python"


@pytest.mark.pure_python_only("the compiled build is an installed wheel, not the editable install")
def test_the_editable_install_runs_the_pure_python_build():
    assert bgrid.rules.engine.__file__.endswith(".py")
    assert not is_compiled("bgrid.rules.engine")
    assert build_kind() == "pure Python"


def test_version_names_the_build_that_runs():
    result = CliRunner().invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.output.startswith("bgrid, version ")
    assert result.output.rstrip().endswith(f"({BUILD})")


def test_the_compiled_set_is_the_engine_log_reader_verifier_and_players():
    names = set(compiled_modules())
    for module in ("bgrid.rules.engine", "bgrid.rules.state", "bgrid.log.reader",
                   "bgrid.verifier.replay", "bgrid.players.solver"):
        assert module in names
    assert not any(n.startswith(("bgrid.web", "bgrid.league")) for n in names)


def test_a_module_counts_as_compiled_only_when_loaded_from_an_extension():
    assert all(not s.endswith(".py") for s in importlib.machinery.EXTENSION_SUFFIXES)
    assert not is_compiled("bgrid.cli")
