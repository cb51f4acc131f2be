"""What the server benchmarks share: simulated logs, a `bgrid serve` child process on
127.0.0.1, and clients that submit over HTTP/1.1 keep-alive connections."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from bgrid.challenges.mission import mission_from_code
from bgrid.challenges.seeding import stream
from bgrid.players.simulated_logs import simulated_log

HOST = "127.0.0.1"  # the benchmarks never listen or connect anywhere else
BGRID = str(Path(sys.executable).with_name("bgrid"))


def distinct_logs(code: str, count: int, players: int, seed: int = 11) -> list[tuple[str, bytes]]:
    """``count`` valid logs of ``code``, (player, bytes), game k played by player k % players;
    a game identical to one the same player already has is replaced by the next one."""
    mission = mission_from_code(code)
    out, seen, k = [], set(), 0
    while len(out) < count:
        text, _ = simulated_log(
            mission, stream(mission.ruleset.name, f"serve-{k}", seed), challenge_deck=True
        )
        player = f"P{len(out) % players:03d}"
        k += 1
        if (player, text) in seen:
            continue
        seen.add((player, text))
        lines = text.split("\n")
        out.append((player, "\n".join(lines[:2] + [f"player: {player}"] + lines[2:]).encode()))
    return out


def invalid_logs(valid: list[tuple[str, bytes]], count: int) -> list[tuple[str, bytes]]:
    """Half logs whose claim is one point off (stored, verdict invalid), half bytes that are
    no log at all (refused, 422)."""
    out = []
    for k in range(count):
        player, data = valid[k % len(valid)]
        if k % 2 == 0:
            text = re.sub(
                rb"^claim: (\w+) (-?\d+)$",
                lambda m: b"claim: " + m.group(1) + b" " + str(int(m.group(2)) + 1).encode(),
                data,
                count=1,
                flags=re.M,
            )
            out.append((player, text + f"# wrong claim {k}\n".encode()))
        else:
            out.append((player, f"not a log {k}\n".encode()))
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Server:
    """``bgrid serve DB`` in a child process on 127.0.0.1."""

    def __init__(self, db: Path, threads: int = 4) -> None:
        self.port = free_port()
        self.process = subprocess.Popen(
            [
                BGRID,
                "serve",
                str(db),
                "--host",
                HOST,
                "--port",
                str(self.port),
                "--threads",
                str(threads),
                "--submit-limit",
                "1000000 per minute",
                "--register-limit",
                "1000000 per minute",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.process.stdout.readline()  # its URL line: listening
        deadline = time.monotonic() + 30
        while True:
            try:
                self.request("GET", "/api/challenges")
                return
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError("the server did not start: " + self.process.stderr.read()) from None
                time.sleep(0.1)

    def request(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        key: str | None = None,
        content_type: str = "text/plain",
    ) -> tuple[int, dict]:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=60)
        try:
            return send(conn, method, path, body, key, content_type)
        finally:
            conn.close()

    def cpu_seconds(self) -> float:
        """User + system CPU time of the server process so far (Linux /proc)."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


def send(
    conn: http.client.HTTPConnection,
    method: str,
    path: str,
    body: bytes | None,
    key: str | None,
    content_type: str = "text/plain",
) -> tuple[int, dict]:
    headers = {"Content-Type": content_type}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    conn.request(method, path, body=body, headers=headers)
    answer = conn.getresponse()
    data = answer.read()
    try:
        parsed = json.loads(data)
    except ValueError:
        parsed = {"raw": data[:200].decode("utf-8", "replace")}
    return answer.status, parsed


def register_all(server: Server, names) -> dict[str, str]:
    keys = {}
    for name in sorted(set(names)):
        status, body = server.request(
            "POST", "/api/players", json.dumps({"name": name}).encode(), content_type="application/json"
        )
        assert status == 201, (status, body)
        keys[name] = body["key"]
    return keys


def burst(
    server: Server,
    jobs: list[tuple[str, bytes]],
    keys: dict[str, str],
    clients: int,
    stop_after: float | None = None,
    kill_after: int | None = None,
) -> list[tuple[int, int, dict, float]]:
    """Submit ``jobs`` from ``clients`` threads; returns (job index, status, body, seconds)
    for every answer received. A connection that fails (the server killed) ends its client;
    status 0 records a request with no answer. ``kill_after``: SIGKILL the server once that
    many answers are in, so the kill lands inside the burst however fast the machine is."""
    results: list[tuple[int, int, dict, float]] = []
    lock = threading.Lock()
    killed = False
    cursor = iter(range(len(jobs)))
    started = time.monotonic()

    def client() -> None:
        conn = http.client.HTTPConnection(HOST, server.port, timeout=60)
        while True:
            with lock:
                k = next(cursor, None)
            if k is None or (stop_after is not None and time.monotonic() - started > stop_after):
                break
            player, data = jobs[k]
            t0 = time.perf_counter()
            try:
                status, body = send(conn, "POST", "/api/submissions", data, keys[player])
            except (OSError, http.client.HTTPException):
                with lock:
                    results.append((k, 0, {}, time.perf_counter() - t0))
                break
            nonlocal killed
            with lock:
                results.append((k, status, body, time.perf_counter() - t0))
                if kill_after is not None and not killed and len(results) >= kill_after:
                    killed = True
                    server.kill()
        conn.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results
