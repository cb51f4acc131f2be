"""The compiled build never changes an answer: the same commands, run by the pure-Python build
(the editable install these tests run) and by a compiled build, print the same bytes.

The compiled build is a second environment's Python, named by ``BGRID_COMPILED_PYTHON``
(``.ci/run`` builds the wheel and sets it); without it these tests are skipped.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

LOGS = Path(__file__).parent / "logs"
COMPILED_PYTHON = os.environ.get("BGRID_COMPILED_PYTHON", "")

pytestmark = pytest.mark.skipif(
    not COMPILED_PYTHON, reason="no compiled build to compare (set BGRID_COMPILED_PYTHON to its python)")


def bgrid(python: str, cwd: Path, *args: str) -> bytes:
    """What ``bgrid ARGS`` prints on both streams, and its exit status, run by ``python``."""
    proc = subprocess.run([python, "-c", "from bgrid.cli import main; main()", *args], cwd=cwd,
                          capture_output=True, timeout=300,
                          env={**os.environ, "PYTHONSAFEPATH": "1"})  # never the checkout's bgrid/
    return b"exit %d\n%b\n--- stderr\n%b" % (proc.returncode, proc.stdout, proc.stderr)


def timeless(output: bytes) -> bytes:
    """The output without the lines that report the time taken, the one field that may differ."""
    return b"\n".join(line for line in output.split(b"\n") if b'"seconds":' not in line)


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding a copy of tests/logs, so both builds read it by the same relative name."""
    folder = tmp_path_factory.mktemp("builds")
    shutil.copytree(LOGS, folder / "logs", ignore=shutil.ignore_patterns("*.py", "*.json"))
    return folder


def same_output(work: Path, *args: str) -> bytes:
    pure = timeless(bgrid(sys.executable, work, *args))
    compiled = timeless(bgrid(COMPILED_PYTHON, work, *args))
    assert compiled == pure, f"the compiled build differs from pure Python on: bgrid {' '.join(args)}"
    return pure


def test_the_builds_compared_are_the_pure_and_the_compiled_one(work):
    assert bgrid(sys.executable, work, "--version").split(b"\n")[1].endswith(b"(pure Python)")
    assert bgrid(COMPILED_PYTHON, work, "--version").split(b"\n")[1].endswith(b"(compiled)")


@pytest.mark.parametrize("jobs", ["1", "2"])  # with 2, the verdicts are pickled back from workers
def test_verify_json_of_the_test_logs_is_the_same_in_both_builds(work, jobs):
    folders = sorted(str(p.relative_to(work)) for p in (work / "logs").iterdir() if p.is_dir())
    output = same_output(work, "verify", *folders, "--json", "--jobs", jobs)
    assert output.count(b'"verdict": "valid"') > 0 and output.count(b'"verdict": "invalid"') > 0


@pytest.mark.parametrize("args", [
    ("--seed", "1944", "--games", "200", "--player", "greedy"),
    ("--code", "0M00-0001-WR3", "--challenge-deck", "--games", "200"),
    ("--seed", "7", "--games", "6", "--player", "strong"),
], ids=["greedy", "random-challenge-deck", "strong"])
def test_simulate_json_is_the_same_in_both_builds(work, args):
    assert b'"wins"' in same_output(work, "simulate", *args, "--json")


def test_solve_json_is_the_same_in_both_builds(work):
    assert b'"par"' in same_output(work, "solve", "--seed", "1944", "--json")


def test_a_packs_map_json_is_the_same_in_both_builds(work):
    maps = []
    for name, python in (("pure", sys.executable), ("compiled", COMPILED_PYTHON)):
        assert bgrid(python, work, "pack", "--seed", "1944", "--out", name).startswith(b"exit 0\n")
        maps.append((work / name / "0M00-0001-WR3" / "map.json").read_bytes())
    assert maps[0] == maps[1] and maps[0]
