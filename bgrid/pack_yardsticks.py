"""A challenge's two yardsticks (R42) measured for a pack: ``bgrid daily --pack`` by default,
``bgrid pack --yardsticks``. The search is the library's (``players.blind_beside.yardsticks``,
as ``--winnable`` runs it); this module gives it the worker process and the progress line."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:  # the players load only when a solve runs
    from .challenges.codes import ChallengeSpec
    from .players.blind_beside import Yardsticks


def measure_yardsticks(spec: ChallengeSpec, skip: str = "") -> Yardsticks:
    """Both yardsticks of a challenge (R42), its blind benchmark in a worker beside the solve
    as ``--winnable`` runs them (``players.blind_beside``); a line on stderr first, since they
    take seconds (``skip``: the option that leaves them out, named at its end)."""
    from .challenges.codes import encode_code
    from .job_pool import spare_worker
    from .players.blind import BLIND_RUNS
    from .players.blind_beside import yardsticks

    click.echo(f"{encode_code(spec)}: solving for the open-deck par, and {BLIND_RUNS} blind games "
               f"for the blind benchmark{f' ({skip} leaves them out)' if skip else ''}…", err=True)
    with spare_worker("benchmarking") as submit:
        return yardsticks(spec, submit)


def pack_yardsticks(measured: Yardsticks | None) -> dict:
    """The yardsticks as ``write_pack``'s keyword arguments (none when not measured)."""
    if measured is None:
        return {}
    return {"par": measured.par, "blind": measured.blind, "winnable": measured.winnable}
