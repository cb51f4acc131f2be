"""Values freed deep inside nested containers leave their neighbours in memory intact.

The compiled build's value classes (cards, actions, events, traces, states) carry no
cycle-collector header; CPython's trashcan, which defers an object freed 50 deallocations deep,
writes into that header, so setup.py frees them without it. Without that guard this script
overwrites the object before each deferred move (the compiled build aborted: "double free or
corruption"). It runs in a child process, so a crash fails this test, not the whole suite.
"""

from __future__ import annotations

import os
import subprocess
import sys

#: The build under test: the editable install, or the compiled one (tests/conftest.py).
BUILD = "compiled" if os.environ.get("BGRID_TEST_BUILD") == "compiled" else "pure Python"

FREE_DEEP_CHAINS = """
from bgrid.build_kind import build_kind
from bgrid.rules.actions import Move
from bgrid.rules.cards import Card

STEPS = ["F", "FF", "FFL", "FR", "LF", "FFF"]
card = Card.parse("5C")
kept = [Move(card, STEPS[i % 6]) for i in range(3000)]
for _ in range(150):
    chains = []
    for _ in range(20):
        node = [Move(card, "RF")]
        for _ in range(80):  # deeper than the trashcan's 50
            node = [node, Move(card, "LL")]
        chains.append(node)
        kept.append(Move(card, "FL"))  # a neighbour allocated between the chains' moves
    del chains, node
wrong = [i for i, m in enumerate(kept[:3000]) if m.steps != STEPS[i % 6]]
wrong += [i for i, m in enumerate(kept[3000:]) if m.steps != "FL"]
print(build_kind(), len(wrong))
"""


def test_moves_freed_deep_in_nested_lists_leave_the_moves_beside_them_intact(tmp_path):
    proc = subprocess.run([sys.executable, "-c", FREE_DEEP_CHAINS], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONSAFEPATH": "1"})  # the installed bgrid
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == [*BUILD.split(), "0"]
