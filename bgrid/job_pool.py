"""Worker processes for ``--jobs N`` (``bgrid verify DIR``, ``bgrid solve``), in one place.

A run with workers ends in one of three ways, each the same for every command:

- the work is done: the pool is shut down, its processes waited for;
- a worker dies (SIGKILL, out of memory): the run stops with one line and exit status 2,
  every other worker is terminated at once (no orphan finishing its tasks for nobody);
- SIGTERM or Ctrl-C reach the command: every worker is terminated at once, and the command
  unwinds as for Ctrl-C (its temporary files removed, exit status 130).

Workers ignore Ctrl-C (the terminal sends it to the whole process group; the command ends them)
and die at once on SIGTERM, from their fork on: either signal reaching one still starting is
held until it has set its handlers. No more workers are started than the cores the process
may run on: a worker more only shares a core, and each costs its memory (``--jobs 256`` on 2
cores took 4.1 GB and 52.7 s against 82 MB and 4.1 s with 2).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the pool's modules load only for a --jobs run: a plain verify starts without them
    from concurrent.futures import Future, ProcessPoolExecutor

from .rules.errors import BGridError

JOIN_SECONDS = 5  # how long a terminated worker is waited for before it is killed

# True once a run was interrupted with a pool open: its workers are gone, but the executor's
# manager thread, which the interpreter joins at exit, may wait on a lock the signal left held.
# The command line then ends the process without those exit handlers (bgrid.cli).
abandoned = False


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


def worker_count(jobs: int, tasks: int | None = None) -> int:
    """The workers to start for ``--jobs`` ``jobs``: at most the cores, at most the tasks."""
    count = min(jobs, available_cores())
    return max(1, count if tasks is None else min(count, tasks))


#: The signals a worker handles its own way (Ctrl-C ignored, SIGTERM deadly), held from its
#: fork until it has set them (:func:`_start_workers`).
WORKER_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _worker_start() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, WORKER_SIGNALS)


def _start_workers(pool: ProcessPoolExecutor) -> None:
    """Fork every worker of ``pool`` now, with Ctrl-C and SIGTERM held over the forks.

    A forked worker runs with the command's handlers until :func:`_worker_start` replaces
    them: a Ctrl-C there, or the SIGTERM that ends workers, would raise KeyboardInterrupt in
    it (a traceback, and a pool broken as if the worker had been killed). Blocked, the signal
    waits in the worker until its own handlers are set; the command gets its mask back as
    soon as the workers exist. A pool on the fork context forks all its workers at its first
    task (Python 3.11's ProcessPoolExecutor), here a no-op one."""
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, WORKER_SIGNALS)
    try:
        pool.submit(int)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _quiet_broken_pool_race(pool: ProcessPoolExecutor) -> None:
    """Keep the pool's manager thread from printing a traceback as the run ends. Python 3.11's
    manager marks every pending future broken once its workers are gone, and raises
    InvalidStateError on a future that the unwinding caller (``Executor.map`` closing) has
    cancelled meanwhile: a race inside concurrent.futures, harmless here, since the run is
    ending and no one waits for those futures."""
    from concurrent.futures import InvalidStateError

    manager = getattr(pool, "_executor_manager_thread", None)
    previous = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        if args.thread is manager and isinstance(args.exc_value, InvalidStateError):
            return
        previous(args)

    threading.excepthook = hook


def _workers(pool: ProcessPoolExecutor) -> list[Any]:
    """The worker processes ``pool`` holds now (its private table: none before the first
    submit unless started, none once shut down)."""
    return list((getattr(pool, "_processes", None) or {}).values())


def _end_workers(pool: ProcessPoolExecutor, *, shut_down: bool = True) -> None:
    """Terminate every worker of ``pool`` now and reap them (SIGKILL after JOIN_SECONDS).
    ``shut_down=False`` leaves the pool's own shutdown out: a signal may have struck inside
    the executor while it held one of its locks, and its shutdown would wait on it forever."""
    _quiet_broken_pool_race(pool)
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() forgets it
    processes = _workers(pool)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    if shut_down:
        pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(JOIN_SECONDS)
            if process.is_alive():
                process.kill()
                process.join(JOIN_SECONDS)
    # The pool's manager thread closes its wake-up pipe once it sees the workers gone, and
    # Python 3.11's exit handler writes to that pipe unless it is closed: if the two meet, the
    # write fails on the closed pipe and a traceback is printed at exit. The thread ends first.
    if manager is not None:
        manager.join(JOIN_SECONDS)


def _watch_workers(pool: ProcessPoolExecutor) -> None:
    """Watch ``pool``'s workers from a daemon thread, so that a worker killed mid-answer ends
    the run as any dead worker does.

    The workers share one pipe for their answers, each message written under a lock. A worker
    killed while it writes leaves half a message there and the lock held: Python 3.11's pool
    manager then waits for the rest of the message, never looks at the dead worker, and the
    command, and at its exit the interpreter, wait forever (met: 5 of 55 killed workers of
    ``verify DIR --jobs 2``). Once a worker has died other than at the pool's shutdown (exit
    status 0), the others are terminated and this process closes its end of that pipe: the
    manager reads the end of the file, marks the pool broken, and the run ends with one line."""
    from multiprocessing.connection import wait

    processes = _workers(pool)
    answers = getattr(pool, "_result_queue", None)
    if not processes or answers is None:
        return

    def watch() -> None:
        alive = {process.sentinel: process for process in processes}
        while alive:
            for sentinel in wait(list(alive)):
                process = alive.pop(sentinel)
                # The sentinel is ready as the worker exits, a moment before it can be reaped:
                # its exit status may still read None, so wait for it. None after that (the
                # pool reaped it first) or 0 is the pool's own shutdown, not a death.
                process.join(JOIN_SECONDS)
                if process.exitcode not in (0, None):
                    for other in alive.values():
                        with contextlib.suppress(Exception):
                            other.terminate()
                    with contextlib.suppress(Exception):
                        answers._writer.close()
                    return

    threading.Thread(target=watch, name="bgrid-worker-watch", daemon=True).start()


@contextlib.contextmanager
def worker_pool(jobs: int, doing: str) -> Iterator[ProcessPoolExecutor]:
    """A process pool of ``jobs`` workers (already capped, :func:`worker_count`) whose
    failures end as the module docstring says. ``doing`` names the work for the message
    ("verifying logs"). Raises :class:`BGridError` when a worker dies."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from .build_kind import picklable_frozen_dataclasses

    picklable_frozen_dataclasses()
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_worker_start)
    try:
        if context.get_start_method() == "fork" and hasattr(signal, "pthread_sigmask"):
            _start_workers(pool)
            _watch_workers(pool)  # the workers exist from here on (fork)
        yield pool
    except BrokenProcessPool:
        _end_workers(pool)
        raise BGridError(f"a process {doing} died before it answered (killed, or out of memory); "
                         "run again, or with --jobs 1") from None
    except BaseException:
        global abandoned
        abandoned = True
        _end_workers(pool, shut_down=False)
        raise
    pool.shutdown(wait=True)


@contextlib.contextmanager
def spare_worker(doing: str) -> Iterator[Callable[..., Future[Any]] | None]:
    """One worker process for work the command can do beside its own (``pack --winnable``'s
    blind benchmark beside its solve), as the ``submit`` of a :func:`worker_pool`; None when
    no second core is there to run it. It ends as every pool does (module docstring)."""
    if worker_count(2) == 1:
        yield None
        return
    with worker_pool(1, doing) as pool:
        yield pool.submit
