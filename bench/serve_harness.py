"""What the server benchmarks share: simulated logs, a `bgrid serve` child process on
127.0.0.1, and clients that submit over HTTP/1.1 keep-alive connections."""

from __future__ import annotations

import contextlib
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
from bgrid.log.reader import read_header
from bgrid.log.writer import header_text
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
        header, body_start = read_header(text)
        body = "\n".join(text.split("\n")[body_start:])
        out.append((player, header_text(header, player=player).encode() + b"\n" + body.encode()))
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
    """``bgrid serve DB`` in a child process on 127.0.0.1, in a process group of its own (with
    its workers, if any): ``kill`` SIGKILLs the whole group, as a crash of the machine would."""

    def __init__(self, db: Path, threads: int = 4, workers: int | None = None) -> None:
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
                *(["--workers", str(workers)] if workers is not None else []),
                "--submit-limit",
                "1000000 per minute",
                "--register-limit",
                "1000000 per minute",
                "--no-access-log",  # its standard error is a pipe nobody reads during a burst
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
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
        """User + system CPU time so far of the server process and its live workers (Linux
        /proc; a worker's time is counted while it runs, which covers a burst)."""
        pid = self.process.pid
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        total = 0
        for p in [pid, *map(int, children)]:
            try:
                fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            except FileNotFoundError:
                continue
            total += int(fields[11]) + int(fields[12])
        return total / os.sysconf("SC_CLK_TCK")

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=30)
        self.kill()  # whatever is left of the group (nothing after a clean stop)


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


def submission_request(data: bytes, key: str) -> bytes:
    """One POST /api/submissions as it goes on the wire (built before the clock starts)."""
    head = (
        f"POST /api/submissions HTTP/1.1\r\nHost: {HOST}\r\nAuthorization: Bearer {key}\r\n"
        f"Content-Type: text/plain\r\nContent-Length: {len(data)}\r\n\r\n"
    )
    return head.encode() + data


class LeanConnection:
    """A keep-alive HTTP/1.1 client that does as little as it can: the request bytes are
    built beforehand and the answer is read as status, Content-Length and body (the JSON
    is parsed after the burst), so that the clients take as little of the machine's CPU
    from the server as they can (http.client took 0.2 ms a request, a tenth of a submission)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sock: socket.socket | None = None
        self.buffer = b""

    def exchange(self, request: bytes) -> tuple[int, bytes]:
        if self.sock is None:
            self.sock = socket.create_connection((HOST, self.port), timeout=60)
            self.buffer = b""
        self.sock.sendall(request)
        while b"\r\n\r\n" not in self.buffer:
            self._read()
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        status = int(lines[0].split(None, 2)[1])
        length, close = 0, False
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"connection" and value.strip().lower() == b"close":
                close = True
        while len(self.buffer) < length:
            self._read()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        if close:
            self.close()
        return status, body

    def _read(self) -> None:
        assert self.sock is not None
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        self.buffer += chunk

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None


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
    requests = [submission_request(data, keys[player]) for player, data in jobs]
    raw: list[tuple[int, int, bytes, float]] = []
    lock = threading.Lock()
    killed = False
    cursor = iter(range(len(jobs)))
    started = time.monotonic()

    def client() -> None:
        nonlocal killed
        conn = LeanConnection(server.port)
        while True:
            with lock:
                k = next(cursor, None)
            if k is None or (stop_after is not None and time.monotonic() - started > stop_after):
                break
            t0 = time.perf_counter()
            try:
                status, body = conn.exchange(requests[k])
            except (OSError, ValueError, IndexError):
                with lock:
                    raw.append((k, 0, b"", time.perf_counter() - t0))
                break
            with lock:
                raw.append((k, status, body, time.perf_counter() - t0))
                if kill_after is not None and not killed and len(raw) >= kill_after:
                    killed = True
                    server.kill()
        conn.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [(k, status, _parsed(body), seconds) for k, status, body, seconds in raw]


def _parsed(data: bytes) -> dict:
    try:
        return json.loads(data)
    except ValueError:
        return {"raw": data[:200].decode("utf-8", "replace")}
