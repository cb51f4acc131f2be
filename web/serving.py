"""``bgrid serve``: the application served by one process (:func:`serve_one`) or, with
``--workers N``, by N pre-forked processes (:func:`serve_workers`); each serves with waitress
(:func:`web.http_server.league_server`: a request is read whole before a thread serves it,
so slow clients hold no thread).

Verifying a log is Python work that holds the interpreter's lock, so one process uses one
core however many threads it runs. gunicorn (a well-kept pre-forking WSGI server) starts N
worker processes from the one process that built the application (its missions warmed:
:func:`web.db.warm_missions`), sharing one listening socket; each worker is the one-process
server with ``threads`` threads, under gunicorn's supervision. What the workers share, and
what not:

- the league: every worker opens its own SQLite connections; writes are ``BEGIN IMMEDIATE``
  transactions with a busy timeout (``league.store``), so entries are numbered by SQLite in
  commit order, each stored once, whichever worker took them;
- the rate limits' counters are each worker's own (``docs/league.md``, Safety);
- stopping: SIGTERM reaches the parent, which stops every worker, letting the requests in
  flight finish (up to ``GRACEFUL_SECONDS``), and waits for them; Ctrl-C (SIGINT to the whole
  process group) stops them at once (:func:`_worker_class`); a worker whose parent dies (even
  by SIGKILL) is sent SIGTERM by the kernel (Linux), and the workers also notice a changed
  parent within a second, so none is left behind; a stop signal that reaches a worker still
  starting is held until it can obey it, never lost.
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import socket
import sys
import time
from types import FrameType
from typing import TYPE_CHECKING, NoReturn

from flask import Flask

from .db import close_held_connections

if TYPE_CHECKING:  # waitress loads only when the server starts
    from .http_server import LeagueServer

GRACEFUL_SECONDS = 30  # requests in flight at a stop get this long to finish
MOST_WORKERS = 8  # each worker holds its own missions, connections and memory (~55 MB)
PR_SET_PDEATHSIG = 1  # linux/prctl.h


def log_to_stderr(*, access: bool) -> None:
    """The server's log on standard error (a terminal, or systemd's journal): its warnings
    (a misconfigured proxy, a league file that changed, a failed request) and, with
    ``access``, the access log's line a request (``web.shared``), each stamped in UTC; not
    waitress's queue depth. Set before the workers fork, so each of them writes there too."""
    handler = logging.StreamHandler(sys.stderr)
    stamp = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s", "%Y-%m-%dT%H:%M:%SZ")
    stamp.converter = time.gmtime
    handler.setFormatter(stamp)
    web = logging.getLogger("bgrid.web")
    web.addHandler(handler)
    web.setLevel(logging.INFO)
    logging.getLogger("bgrid.web.access").setLevel(logging.INFO if access else logging.WARNING)
    # waitress warns "Task queue depth is N" for every request that waits for a thread: in a
    # burst, a line a request (100,000 submissions filled a 64-KB stderr pipe nobody read,
    # the workers blocked writing it, and gunicorn killed one). The wait shows in latency.
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)


def can_fork() -> bool:
    """Whether this system can run workers (gunicorn forks: POSIX only)."""
    return hasattr(os, "fork")


def default_workers() -> int:
    """One worker a core this process may run on (a worker more only shares a core, and
    verifying is CPU work), at most ``MOST_WORKERS``; 1 where processes cannot be forked."""
    if not can_fork():
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        cores = os.cpu_count() or 1
    return max(1, min(cores, MOST_WORKERS))


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (IPv4 or IPv6), inheritable by the workers.

    Raises OSError."""
    family, kind, proto, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(1024)
        sock.set_inheritable(True)
    except OSError:
        sock.close()
        raise
    return sock


#: The stop signals a starting worker must not lose.
STOP_SIGNALS = (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM)

# The parent's signal mask from just before a worker's fork, while the stop signals are held.
_mask_before_fork: set[int | signal.Signals] | None = None


def _hold_stop_signals(arbiter: object, worker: object) -> None:
    """gunicorn's pre_fork hook, in the parent: block the stop signals over the fork.

    From the fork until gunicorn has set a new worker's own handlers, the worker holds a copy
    of the parent's, which only queue a signal for the parent's loop, which a worker never
    runs: a Ctrl-C or SIGTERM landing there would be lost, the worker would come up as if
    nothing had happened, and the stop would wait the whole graceful timeout before killing it
    (a loaded machine can leave a new worker there for a while). Blocked, a stop signal stays
    pending in the worker until its handlers are set
    (:func:`_release_stop_signals`); the parent gets its mask back at once after the fork."""
    global _mask_before_fork
    _mask_before_fork = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)


def _after_fork(arbiter: object, worker: object) -> None:
    """gunicorn's post_fork hook, in the new worker: on Linux the kernel sends the worker
    SIGTERM when the parent dies (a SIGKILL of the parent included)."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def _release_stop_signals(worker: object = None) -> None:
    """The mask from before the fork back: in the parent right after the fork, and in the
    worker as gunicorn's post_worker_init hook, once its own handlers are set, so that a stop
    signal held since the fork is delivered now and stops it as it would a running worker.
    A no-op after any other fork of this process."""
    global _mask_before_fork
    if _mask_before_fork is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, _mask_before_fork)
        _mask_before_fork = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_parent=_release_stop_signals)


def _worker_class(threads: int, proxies: int) -> type:
    """A gunicorn worker that runs the one-process server (:func:`web.http_server.
    league_server`) on its copy of the listening socket, telling gunicorn it is alive once a
    second. SIGTERM: no new connections, the requests being served finish (up to
    ``GRACEFUL_SECONDS``), then the worker ends. Ctrl-C or SIGQUIT: it ends at once, any
    further stop signal ignored (a second one, as Ctrl-C reaching the whole process group and
    then the parent's SIGQUIT, would otherwise land inside the first one's handler); it ends
    by ``os._exit`` (:func:`serve_workers`), its threads with it."""
    from gunicorn.workers.base import Worker

    from .http_server import league_server

    class LeagueWorker(Worker):
        def handle_quit(self, sig: int, frame: object) -> None:
            for number in STOP_SIGNALS:
                signal.signal(number, signal.SIG_IGN)
            Worker.handle_quit(self, sig, frame)  # alive off, worker_int, then sys.exit(0)

        def run(self) -> None:
            (listener,) = self.sockets
            server = league_server(self.wsgi, listener.sock, threads, proxies)
            while self.alive and self.ppid == os.getppid():
                server.serve_once(1.0)
                self.notify()
            server.finish(GRACEFUL_SECONDS)

    return LeagueWorker


def serve_workers(app: Flask, sock: socket.socket, workers: int, threads: int, proxies: int) -> None:
    """Serve ``app`` on ``sock`` with ``workers`` processes of ``threads`` threads until
    SIGTERM or Ctrl-C; returns once every worker has stopped. The socket is gunicorn's from
    here on: it closes it at the stop. ``proxies``: as :func:`web.http_server.league_server`."""
    from gunicorn.app.base import BaseApplication

    close_held_connections()  # the parent's, from building the app: none crosses a fork

    options = {
        "bind": [f"fd://{sock.fileno()}"],
        "workers": workers,
        "worker_class": _worker_class(threads, proxies),
        "graceful_timeout": GRACEFUL_SECONDS + 5,  # the workers' own finish comes first
        "loglevel": "warning",
        "accesslog": None,
        "errorlog": "-",
        "proc_name": "bgrid-serve",
        "control_socket_disable": True,  # no runtime control socket in the user's home
        "pre_fork": _hold_stop_signals,
        "post_fork": _after_fork,
        "post_worker_init": _release_stop_signals,
        "preload_app": True,  # built once, in the parent: the workers start with its missions
    }

    class Workers(BaseApplication):
        def load_config(self) -> None:
            for name, value in options.items():
                self.cfg.set(name, value)

        def load(self) -> Flask:
            return app

    parent = os.getpid()
    try:
        Workers().run()
    except SystemExit as stop:
        if os.getpid() != parent:
            # a worker: gunicorn ends it with sys.exit, which would unwind through the code
            # that called us (forked with it): the worker ends here, its work done
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(stop.code if isinstance(stop.code, int) else 1)
        if stop.code not in (0, None):  # the parent: 0 after a clean stop
            raise


def league_server(app: Flask, sock: socket.socket, threads: int, proxies: int) -> LeagueServer:
    """The one-process server of ``app`` on ``sock`` (:func:`web.http_server.league_server`)."""
    from .http_server import league_server as server_on

    return server_on(app, sock, threads, proxies)


def serve_one(server: LeagueServer) -> None:
    """Serve until SIGTERM or Ctrl-C, then let the requests being served finish (up to
    ``GRACEFUL_SECONDS``) and close every connection."""

    def stop(signum: int, frame: FrameType | None) -> NoReturn:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    try:
        while True:
            server.serve_once(1.0)
    except KeyboardInterrupt:
        pass
    finally:
        server.finish(GRACEFUL_SECONDS)
