"""``bgrid serve --workers N``: several processes share the listening socket and the league;
every entry is stored once under its own number whichever worker took it, and a stop (SIGTERM,
Ctrl-C, even the parent killed) leaves no worker behind. Real processes on 127.0.0.1."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from league_logs import games

HOST = "127.0.0.1"
BGRID = str(Path(sys.executable).with_name("bgrid"))
pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="--workers above 1 needs fork()")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def _children(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"  # a zombie has ended; only its exit status is left


# bgrid with each new worker held 2 s just after its fork, before gunicorn sets its handlers (at the
# start of the post_fork hook): what a loaded machine does when the scheduler leaves it waiting
HELD_WORKERS = """
import sys, time
from bgrid.cli import main
from bgrid.web import serving
forked = serving._after_fork
def held(arbiter, worker):
    time.sleep(2)
    forked(arbiter, worker)
serving._after_fork = held
sys.argv[0] = "bgrid"
main()
"""

# bgrid whose requests, once the file named by BGRID_TEST_SLOW exists, take 3 s to serve (in
# the serving thread, as a long verification would)
SLOW_REQUESTS = """
import os, sys, time
from waitress.task import WSGITask
from bgrid.cli import main
serve = WSGITask.execute
def slow(self):
    if os.path.exists(os.environ["BGRID_TEST_SLOW"]):
        time.sleep(3)
    serve(self)
WSGITask.execute = slow
sys.argv[0] = "bgrid"
main()
"""


class Served:
    """``bgrid serve DB --workers N`` in its own process group, answering; ``program`` (Python
    source standing for ``bgrid``, see HELD_WORKERS) runs it instead, with ``env`` added to its
    environment, and ``answering=False`` waits only for the workers to be forked."""

    def __init__(self, db: Path, workers: int, program: str | None = None, env: dict | None = None,
                 answering: bool = True) -> None:
        self.port = _free_port()
        command = [sys.executable, "-c", program] if program else [BGRID]
        self.process = subprocess.Popen(
            [*command, "serve", str(db), "--port", str(self.port), "--workers", str(workers),
             "--threads", "2", "--submit-limit", "10000 per minute", "--register-limit", "10000 per minute",
             "--no-access-log"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
            env={**os.environ, **(env or {})},
        )
        assert self.process.stdout.readline().startswith("bgrid league server on http://127.0.0.1:")
        deadline = time.monotonic() + 30
        while len(_children(self.process.pid)) < workers or (answering and not self._answers()):
            assert time.monotonic() < deadline and self.process.poll() is None, self.process.stderr.read()
            time.sleep(0.1)
        self.workers = _children(self.process.pid)

    def _answers(self) -> bool:
        try:
            return self.request("GET", "/api/challenges")[0] == 200
        except OSError:
            return False

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        # a new connection each time, so that the workers take turns accepting them
        conn = http.client.HTTPConnection(HOST, self.port, timeout=60)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            answer = conn.getresponse()
            return answer.status, json.loads(answer.read() or b"null")
        finally:
            conn.close()

    def assert_workers_end(self, seconds: float, why: str) -> None:
        """Every worker of the start is gone within ``seconds``; else fail saying ``why``."""
        deadline = time.monotonic() + seconds
        while any(_alive(w) for w in self.workers):
            assert time.monotonic() < deadline, why
            time.sleep(0.1)

    def end(self) -> None:
        """Whatever a test left running of the group is killed (nothing, when it passed)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


def test_two_workers_store_every_entry_once_under_distinct_numbers(league_db):
    server = Served(league_db, workers=2)
    try:
        assert len(server.workers) == 2
        names = [f"W{k}" for k in range(4)]
        keys = {}
        for name in names:
            status, body = server.request("POST", "/api/players", json.dumps({"name": name}).encode(),
                                          {"Content-Type": "application/json"})
            assert status == 201
            keys[name] = body["key"]
        logs = [(names[k % 4], game.by(names[k % 4])) for k, game in enumerate(games(24))]
        answers: list[tuple[int, dict]] = []
        lock = threading.Lock()

        def client(mine):
            for name, data in mine:
                headers = {"Authorization": f"Bearer {keys[name]}", "Content-Type": "text/plain"}
                answer = server.request("POST", "/api/submissions", data, headers)
                with lock:
                    answers.append(answer)

        threads = [threading.Thread(target=client, args=(logs[k::6],)) for k in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert [status for status, _ in answers] == [201] * 24
        numbers = sorted(body["entry"] for _, body in answers)
        assert numbers == list(range(1, 25))  # one number each, none skipped or given twice
    finally:
        server.end()
    with sqlite3.connect(league_db) as conn:
        stored = conn.execute("SELECT COUNT(*), COUNT(DISTINCT verification_id) FROM entries").fetchone()
        assert stored == (24, 24)
        assert conn.execute("SELECT COUNT(*) FROM logs").fetchone() == (24,)
        # each player's result counts their 6 attempts, whichever workers recorded them
        assert conn.execute("SELECT player, attempts FROM results ORDER BY player").fetchall() == [
            (name, 6) for name in sorted(names)
        ]


@pytest.mark.parametrize("how", ["SIGTERM to the server", "Ctrl-C in its terminal"])
def test_a_stop_ends_the_server_and_every_worker(league_db, how):
    server = Served(league_db, workers=2)
    try:
        if how == "SIGTERM to the server":
            server.process.send_signal(signal.SIGTERM)
        else:  # the terminal sends SIGINT to the whole foreground process group
            os.killpg(server.process.pid, signal.SIGINT)
        assert server.process.wait(timeout=30) == 0
        assert server.process.stdout.read().strip() == "stopped"
        server.assert_workers_end(5, "a worker outlived the server")
    finally:
        server.end()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_workers_do_not_outlive_a_killed_parent(league_db):
    server = Served(league_db, workers=2)
    try:
        server.process.send_signal(signal.SIGKILL)
        server.process.wait()
        server.assert_workers_end(10, "a worker outlived its killed parent")
    finally:
        server.end()


def test_a_killed_worker_is_replaced_and_the_server_keeps_answering(league_db):
    server = Served(league_db, workers=2)
    try:
        victim = server.workers[0]
        os.kill(victim, signal.SIGKILL)  # the out-of-memory killer, say
        deadline = time.monotonic() + 20
        while True:
            workers = _children(server.process.pid)
            if len(workers) == 2 and victim not in workers:
                break
            assert time.monotonic() < deadline, "the killed worker was not replaced"
            time.sleep(0.1)
        assert all(server.request("GET", "/api/challenges")[0] == 200 for _ in range(6))
        assert server.process.poll() is None
    finally:
        server.end()


@pytest.mark.parametrize("how", ["SIGTERM to the server", "Ctrl-C in its terminal"])
def test_a_stop_while_the_workers_start_is_not_lost(league_db, how):
    """A stop signal reaching a worker between its fork and its own handlers is held, not
    handled by the copy of the parent's handlers it starts with (which would queue it for a
    loop the worker never runs): the worker stops as soon as it can, and the server within a
    few seconds, not after the 30-s graceful timeout that ends in SIGKILL."""
    server = Served(league_db, workers=2, program=HELD_WORKERS, answering=False)
    try:
        if how == "SIGTERM to the server":
            server.process.send_signal(signal.SIGTERM)
        else:
            os.killpg(server.process.pid, signal.SIGINT)
        assert server.process.wait(timeout=15) == 0
        assert server.process.stdout.read().strip() == "stopped"
        assert "SIGKILL" not in server.process.stderr.read()
        server.assert_workers_end(5, "a worker outlived the server")
    finally:
        server.end()


def test_ctrl_c_while_a_request_is_served_ends_the_workers_at_once(league_db, tmp_path):
    """Ctrl-C stops a worker whose thread is serving a request without waiting for it (the
    request is cut off), never after the graceful timeout that ends in SIGKILL."""
    flag = tmp_path / "slow"
    server = Served(league_db, workers=2, program=SLOW_REQUESTS, env={"BGRID_TEST_SLOW": str(flag)})
    try:
        flag.touch()
        caller = threading.Thread(target=_request_cut_off, args=(server,))
        caller.start()
        time.sleep(1)  # the request read, its thread inside the 3-s service
        began = time.monotonic()
        os.killpg(server.process.pid, signal.SIGINT)
        assert server.process.wait(timeout=15) == 0
        assert time.monotonic() - began < 2.5  # before the request could have finished
        assert server.process.stdout.read().strip() == "stopped"
        assert "SIGKILL" not in server.process.stderr.read()
        caller.join(10)
        assert not caller.is_alive()
    finally:
        server.end()


def test_sigterm_lets_the_request_being_served_finish_and_answer(league_db, tmp_path):
    """SIGTERM: the workers take no new connection, and the request being served (3 s) is
    answered before they end."""
    flag = tmp_path / "slow"
    server = Served(league_db, workers=2, program=SLOW_REQUESTS, env={"BGRID_TEST_SLOW": str(flag)})
    answers: list[int] = []
    try:
        flag.touch()
        caller = threading.Thread(target=lambda: answers.append(server.request("GET", "/api/challenges")[0]))
        caller.start()
        time.sleep(1)
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=20) == 0
        caller.join(10)
        assert answers == [200]
        assert "SIGKILL" not in server.process.stderr.read()
        server.assert_workers_end(5, "a worker outlived the server")
    finally:
        server.end()


def _request_cut_off(server: Served) -> None:
    with contextlib.suppress(OSError, http.client.HTTPException):
        server.request("GET", "/api/challenges")
