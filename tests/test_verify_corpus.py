"""Every log under tests/logs/ re-verified against its stored expected verdict.

tests/logs/expected.json holds, per log, the verdict, outcome, score, assurance, the first
error (code, line, column) and the verification id. A change shows the old and the new
verdict side by side. Regenerate on purpose only: ``BGRID_REGEN_GOLDEN=1 pytest
tests/test_verify_corpus.py`` — and read the diff before committing it.

Folders: ``worked/`` short logs worked out by hand, one per map source, each explaining its
expected verdict in comments (these expectations were written before running the verifier);
``corpus/`` simulated missions (``sim-*``) and single mutations of them (``mut-*``, the
mutation named in the first line); ``messages/`` logs for message tests.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bgrid.rules.board import Cell
from bgrid.challenges.mission import mission_from_seed
from bgrid.log.reader import parse_log
from bgrid.verifier.map_source import mission_source
from bgrid.verifier.verify import verify_log

LOGS = Path(__file__).parent / "logs"
EXPECTED = LOGS / "expected.json"
ALL = sorted(str(p.relative_to(LOGS)) for p in LOGS.rglob("*.log"))


def summary(name: str) -> dict:
    v = verify_log((LOGS / name).read_bytes(), source=name)
    err = v.errors[0] if v.errors else None
    return {"verdict": v.verdict, "outcome": v.outcome, "cause": v.cause,
            "score": None if v.score is None else v.score.total, "assurance": v.assurance,
            "error": None if err is None else {"code": err.code, "line": err.line, "column": err.column},
            "verification_id": v.verification_id}


def test_regenerate_expected_verdicts_on_purpose():
    if os.environ.get("BGRID_REGEN_GOLDEN") != "1":
        pytest.skip("set BGRID_REGEN_GOLDEN=1 to rewrite tests/logs/expected.json")
    EXPECTED.write_text(json.dumps({n: summary(n) for n in ALL}, indent=1, sort_keys=True) + "\n")


def test_every_log_has_an_expected_verdict():
    assert sorted(json.loads(EXPECTED.read_text())) == ALL


@pytest.mark.parametrize("name", ALL)
def test_log_keeps_its_verdict(name):
    expected = json.loads(EXPECTED.read_text()).get(name)
    actual = summary(name)
    assert actual == expected, f"{name}: verdict changed\n  old: {expected}\n  new: {actual}"


# -- the hand-worked logs: what their comments say, asserted independently ---------------

@pytest.mark.parametrize("name, verdict, outcome, cause, score, assurance", [
    ("worked/challenge-crash.log", "valid", "defeat", "crash", -1, "exact"),
    ("worked/seed-crash.log", "valid", "defeat", "crash", 0, "consistent"),
    ("worked/setup-crash.log", "valid", "defeat", "crash", 0, "consistent"),
    ("worked/map-damage.log", "valid", "defeat", "damage", -1, "consistent"),
])
def test_worked_log_verdict_as_worked_out_by_hand(name, verdict, outcome, cause, score, assurance):
    v = verify_log((LOGS / name).read_bytes(), source=name)
    assert (v.verdict, v.outcome, v.cause, v.score.total, v.assurance) == (verdict, outcome, cause, score,
                                                                         assurance), v.render()


def test_hand_setup_map_as_worked_out_by_hand():
    log = parse_log((LOGS / "worked" / "setup-crash.log").read_bytes())
    m = mission_source(log).game_map
    cells = lambda names: tuple(Cell.parse(n) for n in names.split())  # noqa: E731
    assert m.mountains == frozenset(cells("A1 A2"))
    assert m.bunkers == cells("B3 D5 F7 H9 J2 C4")
    assert m.artillery == cells("E6 G8 I10 A3")  # 2C 3C -> B3 taken: nearest open A3 (R3)


def test_mutations_are_caught():
    expected = json.loads(EXPECTED.read_text())
    verdicts = {n: e["verdict"] for n, e in expected.items() if n.startswith("corpus/mut-")}
    assert sum(v != "valid" for v in verdicts.values()) >= len(verdicts) - 1


@pytest.mark.parametrize("ridges", [1, 2, 3, 4])
def test_a_seed_log_gets_the_map_of_the_seeded_mission(ridges):
    # the verifier builds a seed log's map without the challenge deck; mission_from_seed, the
    # reference, builds the whole mission: the maps (ridges included) must be the same
    for seed in (0, 1, 1944, 2**40 - 1, *range(50_000, 50_040)):
        log = parse_log(f"bgrid-log: 1\nseed: {seed}\nridges: {ridges}\ndifficulty: ace\n")
        assert mission_source(log).game_map == mission_from_seed(seed, "ace", ridges).game_map, seed
