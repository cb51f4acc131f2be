"""The blind benchmark run beside a winnable solve (``bgrid.players.blind_beside`` in the
worker of ``bgrid.job_pool.spare_worker``): the same benchmark as computed after the solve,
whichever candidate is kept, one core or two; the worker gone on every way out."""

import json
import os
import signal
from concurrent.futures import Future

import pytest
from click.testing import CliRunner

import bgrid.job_pool as job_pool
import bgrid.players.blind_beside as beside_module
from bgrid.players.blind_beside import BlindBeside
from bgrid.challenges.codes import ChallengeSpec, encode_code
from bgrid.challenges.mission import mission_from_seed
from bgrid.cli import cli
from bgrid.players.blind import blind_benchmark

from test_job_pool import ended, needs_two_cores, start, workers_of
from test_solver import QUICK

RUNS = 4  # enough to tell benchmarks apart, few enough for the suite's time


@pytest.fixture
def quick(monkeypatch):
    import bgrid.players.blind as blind
    import bgrid.players.solver as solver
    monkeypatch.setattr(solver, "PORTFOLIO", QUICK)
    monkeypatch.setattr(blind, "BLIND_RUNS", RUNS)


def test_pack_winnable_prints_the_benchmark_of_the_seed_it_keeps(tmp_path, monkeypatch, quick):
    # With the one diving search seeds 4-8 solve to defeats and seed 9 to a victory
    # (tests/test_solver.py): five candidates are dropped before the one kept.
    monkeypatch.setattr(job_pool, "worker_count", lambda jobs, tasks=None: min(jobs, 2))
    result = CliRunner().invoke(cli, ["pack", "--seed", "4", "--winnable", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    record = json.loads(next(tmp_path.glob("*/map.json")).read_text())
    alone = blind_benchmark(mission_from_seed(9), runs=RUNS)
    assert record["seed"] == 9 and record["blind_runs"] == RUNS
    assert {k: v for k, v in record.items() if k.startswith("blind_")} == alone.as_dict()


class _Submitted:
    """A stand-in worker: records what is submitted; its futures finish when told."""

    def __init__(self) -> None:
        self.codes: list[str] = []
        self.futures: list[Future] = []

    def __call__(self, function, code: str) -> Future:
        assert function is beside_module.blind_of_code
        self.codes.append(code)
        self.futures.append(Future())
        return self.futures[-1]


def test_a_candidate_starts_beside_only_when_the_worker_is_idle():
    first, second, third = (ChallengeSpec("standard-1", "normal", 1, s) for s in (4, 5, 6))
    submitted = _Submitted()
    beside = BlindBeside(submitted)
    beside.start(first)
    beside.start(second)  # the first's benchmark still runs: the second would only queue
    assert len(submitted.codes) == 1
    submitted.futures[0].set_result("dropped")
    beside.start(third)
    assert len(submitted.codes) == 2
    submitted.futures[1].set_result("kept")
    assert beside.of(third) == "kept"


def test_on_one_core_the_benchmark_is_computed_when_asked(monkeypatch):
    asked: list[str] = []
    monkeypatch.setattr(beside_module, "blind_of_code", lambda code: asked.append(code) or code)
    spec = ChallengeSpec("standard-1", "normal", 1, 4)
    beside = BlindBeside(None)
    beside.start(spec)
    assert asked == []
    assert beside.of(spec) == asked[0] == encode_code(spec)


# The solve of every candidate fails after a second, while its benchmark runs in the worker
# (forked after this prelude, so it sleeps there: a real one would take the cores a loaded
# machine needs to end the run in time): the run ends with the solve's error, at once, the
# worker with it, sooner than a worker left to finish would be waited for (JOIN_SECONDS).
FAILING_SOLVE = """
import time
import bgrid.players.blind_beside as beside
import bgrid.players.solver as solver
from bgrid.rules.errors import BGridError
def failing(mission, **options):
    time.sleep(1)
    raise BGridError("the solve failed (test)")
def blind_of_code(code):
    time.sleep(100)
blind_of_code.__module__ = beside.__name__  # pickled by name into the worker: found there
solver.solve_mission = failing
beside.blind_of_code = blind_of_code
"""


@needs_two_cores
def test_a_failing_solve_ends_the_run_and_its_benchmarking_worker_at_once(tmp_path):
    proc = start("pack", "--seed", "1944", "--winnable", "--out", str(tmp_path), prelude=FAILING_SOLVE)
    workers = workers_of(proc, count=1, settle=0.0)
    code, err, seconds = ended(proc, workers)
    assert code == 2 and "Traceback" not in err and seconds < job_pool.JOIN_SECONDS, err
    assert err.strip().splitlines()[-1] == "Error: the solve failed (test)"
    assert not list(tmp_path.iterdir())  # no half-written pack


@needs_two_cores
def test_ctrl_c_during_a_winnable_pack_ends_its_benchmarking_worker(tmp_path):
    proc = start("pack", "--seed", "1944", "--winnable", "--out", str(tmp_path))
    workers = workers_of(proc, count=1)
    os.killpg(proc.pid, signal.SIGINT)  # the terminal signals the whole process group
    code, err, _ = ended(proc, workers)
    assert code == 130 and "Traceback" not in err, err
