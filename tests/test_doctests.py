"""Every doctest in the game model, the players, the challenges, the generator, the log format, the verifier,
the league and the shared I/O helpers runs and passes (style guide: doctests on notation
helpers run under pytest)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import bgrid.challenges
import bgrid.generator
import bgrid.league
import bgrid.log
import bgrid.players
import bgrid.rules
import bgrid.safeio
import bgrid.verifier


def _modules():
    for package in (bgrid.rules, bgrid.players, bgrid.challenges, bgrid.generator, bgrid.log,
                    bgrid.verifier, bgrid.league, bgrid.safeio):
        yield package.__name__
        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            yield info.name


MODULES = sorted(_modules())


def test_the_foundation_modules_are_found():
    for name in ("board", "cards", "setup"):
        assert f"bgrid.rules.{name}" in MODULES
    for name in ("codes", "mission", "seeding"):
        assert f"bgrid.challenges.{name}" in MODULES
    assert "bgrid.players.playout" in MODULES
    assert "bgrid.generator.map_text" in MODULES
    assert "bgrid.log.reader" in MODULES and "bgrid.league.store" in MODULES
    assert "bgrid.safeio.safe_text" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctests failed in {name}"


@pytest.mark.pure_python_only("doctest reads the examples from the Python modules, which mypyc compiles away")
@pytest.mark.parametrize("name", ["bgrid.rules.cards", "bgrid.rules.board", "bgrid.challenges.codes"])
def test_notation_modules_keep_their_examples(name):
    assert doctest.testmod(importlib.import_module(name)).attempted > 0
