"""``--jobs``: a killed worker, SIGTERM and Ctrl-C end ``bgrid verify DIR`` and ``bgrid solve``
at once, with one line, every worker gone; and no more workers start than there are cores.

Real processes, real signals: what each test kills is a worker found among the command's
children. What each guards against: a run that never ends after one worker of ``verify DIR
--jobs 2`` is SIGKILLed; a first SIGTERM that prints "Aborted." and leaves the process up, a
second that ends it with a traceback and orphans the other worker; a ``BrokenProcessPool``
traceback from ``solve --seed 7 --jobs 2`` with a worker killed; a KeyboardInterrupt traceback
from a worker that Ctrl-C or SIGTERM reached before its own handlers; 256 workers started on
2 cores by ``--jobs 256``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bgrid.job_pool import available_cores, worker_count
from league_logs import games

DEADLINE = 30  # seconds from the kill to the end of the run


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def is_alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


# Each worker held 2 s as it starts, before its own signal handlers are set: what a loaded
# machine does when the scheduler leaves a new worker waiting.
HELD_WORKERS = """
import time
from bgrid import job_pool
starting = job_pool._worker_start
def held():
    time.sleep(2)
    starting()
job_pool._worker_start = held
"""


def start(*args, held: bool = False, prelude: str = "") -> subprocess.Popen:
    # A shell without job control starts background commands with SIGINT ignored, and Python
    # keeps an ignored SIGINT ignored: give the CLI Ctrl-C as a terminal would, whatever runs
    # the tests (run as `pytest &`, the SIGINT case saw verify finish with status 0).
    code = ("import signal; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
            + (HELD_WORKERS if held else "") + prelude + "from bgrid.cli import main; main()")
    return subprocess.Popen([sys.executable, "-c", code, *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)


def workers_of(proc: subprocess.Popen, count: int = 2, settle: float = 0.3) -> list[int]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        # the executor's workers, not the resource tracker: they are the children that work
        found = children(proc.pid)
        if len(found) >= count:
            time.sleep(settle)  # past their start-up
            return children(proc.pid)
        assert proc.poll() is None, proc.stderr.read()
        time.sleep(0.05)
    raise AssertionError("the workers never started")


def ended(proc: subprocess.Popen, workers: list[int]) -> tuple[int, str, float]:
    began = time.monotonic()
    try:
        _, err = proc.communicate(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError(f"still running {DEADLINE} s after the signal") from None
    seconds = time.monotonic() - began
    time.sleep(0.2)
    assert [pid for pid in workers if is_alive(pid)] == [], "a worker outlived the run"
    return proc.returncode, err.decode("utf-8", "replace"), seconds


@pytest.fixture(scope="module")
def big_folder(tmp_path_factory):
    """Enough logs that two workers are still busy when one is killed."""
    folder = tmp_path_factory.mktemp("many")
    logs = [g.by(f"P{k}") for k, g in enumerate(games(20))]
    for k in range(12000):  # still busy when the signal comes, on an idle machine too
        (folder / f"g{k:05d}.log").write_bytes(logs[k % len(logs)] + f"# copy {k}\n".encode())
    return folder


needs_two_cores = pytest.mark.skipif(available_cores() < 2, reason="one core: --jobs 2 runs in-process")


@needs_two_cores
def test_verify_with_a_killed_worker_ends_with_one_line_and_exit_2(big_folder):
    proc = start("verify", str(big_folder), "--jobs", "2", "--quiet")
    workers = workers_of(proc)
    os.kill(workers[0], signal.SIGKILL)
    code, err, seconds = ended(proc, workers)
    assert code == 2 and "Traceback" not in err and seconds <= DEADLINE
    assert err.strip().splitlines()[-1].startswith("Error: a process verifying logs died"), err


@needs_two_cores
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_verify_ends_with_its_workers_on_the_first_signal(big_folder, signum):
    proc = start("verify", str(big_folder), "--jobs", "2", "--quiet")
    workers = workers_of(proc)
    if signum == signal.SIGINT:
        os.killpg(proc.pid, signum)  # Ctrl-C: the terminal signals the whole process group
    else:
        proc.send_signal(signum)
    code, err, seconds = ended(proc, workers)
    assert code == 130 and "Traceback" not in err and seconds <= DEADLINE, err


@needs_two_cores
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_while_the_workers_start_is_not_lost_and_prints_no_traceback(big_folder, signum):
    """Ctrl-C or SIGTERM reaching a worker between its fork and its own handlers (SIGINT
    ignored, SIGTERM deadly): held until they are set, so Ctrl-C does not raise
    KeyboardInterrupt in a starting worker (a traceback, and a pool broken as if a worker had
    been killed: exit 2) and the run ends as for the signal."""
    proc = start("verify", str(big_folder), "--jobs", "2", "--quiet", held=True)
    workers = workers_of(proc, settle=0.0)
    if signum == signal.SIGINT:
        os.killpg(proc.pid, signum)
    else:
        proc.send_signal(signum)
    code, err, seconds = ended(proc, workers)
    assert code == 130 and "Traceback" not in err and seconds <= DEADLINE, err


@needs_two_cores
def test_solve_with_a_killed_worker_ends_with_one_line_and_exit_2():
    proc = start("solve", "--seed", "7", "--jobs", "2")
    workers = workers_of(proc)
    os.kill(workers[-1], signal.SIGKILL)
    code, err, seconds = ended(proc, workers)
    assert code == 2 and "Traceback" not in err and "BrokenProcessPool" not in err, err
    assert err.strip().splitlines() == ["Error: a process solving died before it answered (killed, or "
                                        "out of memory); run again, or with --jobs 1"]


@needs_two_cores
def test_solve_ends_with_its_workers_on_sigterm():
    proc = start("solve", "--seed", "7", "--jobs", "2")
    workers = workers_of(proc)
    proc.send_signal(signal.SIGTERM)
    code, err, _ = ended(proc, workers)
    assert code == 130 and "Traceback" not in err, err


def test_no_more_workers_than_cores_and_tasks():
    cores = available_cores()
    assert worker_count(1024) == cores
    assert worker_count(256, tasks=3) == min(3, cores)
    assert worker_count(1) == 1


def test_the_pool_managers_cancelled_future_race_prints_no_traceback():
    """Ctrl-C during ``verify DIR --jobs 2`` may race concurrent.futures' manager thread, which
    marks broken a future the unwinding ``map`` has just cancelled: the run exits 130 without
    its "Exception in thread Thread-1: Traceback … InvalidStateError: CANCELLED"."""
    import threading
    from concurrent.futures import InvalidStateError

    from bgrid.job_pool import _quiet_broken_pool_race, worker_pool

    reported = []
    previous = threading.excepthook
    threading.excepthook = lambda args: reported.append(args.thread)  # stands for the printing hook
    try:
        with worker_pool(1, "testing") as pool:
            assert pool.submit(abs, -3).result() == 3
            _quiet_broken_pool_race(pool)
            manager = pool._executor_manager_thread
            other = threading.Thread(target=lambda: None)
            for thread in (manager, other):
                exc = InvalidStateError("CANCELLED: <Future state=cancelled>")
                threading.excepthook(threading.ExceptHookArgs((type(exc), exc, None, thread)))
    finally:
        threading.excepthook = previous
    assert reported == [other]  # the manager's race is silenced, any other thread's error is not


# A worker that dies halfway through writing its answer, holding the answers' write lock: the
# pool's own manager thread then waits for the rest of the message (Python 3.11). The module
# function that sends an answer is replaced before the fork, so the workers inherit it.
HALF_AN_ANSWER = """
import concurrent.futures.process as pool_process, os, struct
from bgrid.job_pool import worker_pool
from bgrid.rules.errors import BGridError
send = pool_process._sendback_result
def half(result_queue, work_id, result=None, *rest, **named):
    if result == "half":
        result_queue._wlock.acquire()
        result_queue._writer._send(struct.pack("!i", 1 << 20) + b"only the start")
        os._exit(9)
    send(result_queue, work_id, result, *rest, **named)
pool_process._sendback_result = half
try:
    with worker_pool(2, "testing") as pool:
        assert pool.submit(str, "whole").result() == "whole"
        pool.submit(str, "half").result()
except BGridError as error:
    print(error)
"""


@needs_two_cores
def test_a_worker_killed_while_it_answers_ends_the_run_instead_of_hanging():
    proc = subprocess.Popen([sys.executable, "-c", HALF_AN_ANSWER], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the run and the worker left waiting on the lock
        proc.communicate()
        raise AssertionError(f"still running {DEADLINE} s after the worker died") from None
    assert proc.returncode == 0 and b"Traceback" not in err, err
    assert out.decode().startswith("a process testing died before it answered"), out


def test_a_broken_pool_has_ended_its_manager_thread_when_the_error_reaches_the_command():
    """The thread must be over before the command exits: Python 3.11's exit handler writes to
    the wake-up pipe that the thread closes as it ends, and the two meeting printed a traceback
    ("Bad file descriptor") after the command's one line. The pool's own shutdown forgets the
    thread, so it is looked up before."""
    from bgrid.job_pool import worker_pool
    from bgrid.rules.errors import BGridError

    with pytest.raises(BGridError, match="a process testing died"), worker_pool(1, "testing") as pool:
        manager = pool._executor_manager_thread
        pool.submit(os._exit, 9).result()
    assert not manager.is_alive()


@needs_two_cores
def test_a_pool_shut_down_in_order_is_not_taken_for_a_dead_worker():
    """A worker's sentinel is ready a moment before its exit status can be read (None then, in
    about 6 of 10 exits here): at the pool's own shutdown the watcher must not take that for a
    death and terminate the other worker (met: "Bad file descriptor" and exit 2 after a
    complete ``verify --jobs 2``)."""
    import threading

    from bgrid.job_pool import worker_pool

    codes = []
    for _ in range(30):
        with worker_pool(2, "testing") as pool:
            assert pool.submit(str, 1).result() == "1"
            workers = list(pool._processes.values())
        for thread in threading.enumerate():
            if thread.name == "bgrid-worker-watch":
                thread.join(10)
        codes += [worker.exitcode for worker in workers]
    assert codes == [0] * 60  # none terminated (-15) by the watcher
