"""The blind benchmark of a challenge run beside its solve (``bgrid pack --winnable``,
``bgrid daily --winnable``), and a challenge's two yardsticks computed so (:func:`yardsticks`:
a dated pack, ``bgrid pack --yardsticks``).

A winnable challenge costs two searches of about equal CPU: the solve that finds it winnable
(``players.solver``) and the strong player's blind benchmark of it (``players.blind``). The
benchmark does not depend on the solve, so a worker starts it on each candidate as its solve
starts; the first candidate is nearly always the one kept, and the wall time is then the
longer of the two instead of their sum (2 cores). A candidate that turns out not winnable
wastes its benchmark, never changes one: each is the same call on the same challenge code.
On one core, or where no worker can start, the benchmark runs after the solve as before.

The worker process is the caller's (``bgrid.job_pool.spare_worker`` for the command line,
which reaps it on every way out): this module only says what runs in it.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass

from ..challenges.codes import ChallengeSpec, encode_code
from .blind import BlindBenchmark

#: How work reaches the worker: ``submit(function, argument)``, as ``Executor.submit``.
Submit = Callable[[Callable[[str], BlindBenchmark], str], "Future[BlindBenchmark]"]


def blind_of_code(code: str) -> BlindBenchmark:
    """The blind benchmark of the challenge ``code`` (what a worker runs)."""
    from ..challenges.mission import mission_from_code
    from .blind import blind_benchmark

    return blind_benchmark(mission_from_code(code))  # a code crosses to the worker; a mission does not pickle


class BlindBeside:
    """Benchmarks started with :meth:`start` and collected with :meth:`of`; ``submit`` None
    runs each in this process when it is asked for."""

    def __init__(self, submit: Submit | None) -> None:
        self._submit = submit
        self._started: dict[str, Future[BlindBenchmark]] = {}

    def start(self, spec: ChallengeSpec) -> None:
        """Begin the benchmark of ``spec``'s challenge in the worker when it is idle: a
        candidate's solve is over when the next one starts, so a benchmark still running
        belongs to a candidate not kept, and one queued behind it would wait as long as
        computing it after the solve (nothing starts on one core)."""
        code = encode_code(spec)
        if self._submit is not None and all(f.done() for f in self._started.values()):
            self._started[code] = self._submit(blind_of_code, code)

    def of(self, spec: ChallengeSpec) -> BlindBenchmark:
        """The benchmark of ``spec``'s challenge: the worker's, or computed now."""
        code = encode_code(spec)
        future = self._started.pop(code, None)
        for other in self._started.values():  # candidates not kept: not begun ones never begin
            other.cancel()
        return blind_of_code(code) if future is None else future.result()


@dataclass(frozen=True)
class Yardsticks:
    """A challenge's two yardsticks (R42): the open-deck ``par`` (the solve's best score, None
    when it found no line), whether that line is a victory (``winnable``), and the ``blind``
    benchmark."""

    par: int | None
    winnable: bool
    blind: BlindBenchmark

    @property
    def text(self) -> str:
        """``open-deck par 14 · blind benchmark 2 (…)``: the par left out when none was found."""
        return ("" if self.par is None else f"open-deck par {self.par} · ") + self.blind.text


def yardsticks(spec: ChallengeSpec, submit: Submit | None) -> Yardsticks:
    """Both yardsticks of ``spec``'s challenge: its solve (``players.solver``, the standard
    portfolio) here and its blind benchmark in the worker ``submit`` reaches, beside it, as
    ``--winnable`` runs them for the one candidate it keeps."""
    from ..challenges.mission import mission_from_spec
    from .solver import solve_mission

    beside = BlindBeside(submit)
    beside.start(spec)
    best = solve_mission(mission_from_spec(spec)).best
    return Yardsticks(None if best is None else best.score, best is not None and best.is_victory,
                      beside.of(spec))
