"""Simulated missions written as logs: the games ``bgrid simulate --logs`` plays, as a player
at the table would have written them (:mod:`log.writer` writes the text)."""

from __future__ import annotations

from collections.abc import Iterator

from ..challenges.mission import Mission
from ..challenges.seeding import SeededStream, stream
from ..rules.engine import score
from ..log.writer import mission_lines, write_log
from ..rules.state import GameState
from .playout import Player, play_out, replay


def simulated_log(mission: Mission, rng: SeededStream, *, challenge_deck: bool, player: Player | None = None,
                  state_lines: bool = False, rows: bool = False) -> tuple[str, GameState]:
    """Play ``mission`` to its end as ``players.playout`` does (its random legal player, or
    ``player``, a decision function of the engine's playout) and return (the log, the final
    state). The game is played by ``play_out`` itself and its recorded steps replayed for
    the events, so the log is exactly the game ``simulate`` plays with the same stream.
    The log claims the engine's own outcome and score; ``state_lines`` closes every turn
    with a state line (the artillery by number, R43); ``rows`` writes the body in the row form."""
    trace: list = []
    start = mission.start(challenge_deck)
    if player is None:
        play_out(start.copy(), rng, trace)
    else:
        play_out(start.copy(), rng, trace, player=player)
    events = [ev for step in replay(start, trace) for ev in step]
    state = start
    claim = (str(state.outcome), score(state).total)
    named = mission.as_challenge() if challenge_deck else mission.as_seed()
    artillery = mission.game_map.artillery if state_lines and mission.game_map is not None else None
    return write_log(events, mission_lines(named), claim=claim, artillery=artillery, rows=rows), state


def simulated_logs(mission: Mission, games: int, sim_seed: int, *, challenge_deck: bool,
                   player: Player | None = None, state_lines: bool = False,
                   rows: bool = False) -> Iterator[tuple[str, str]]:
    """(file name, log text) of the games ``players.simulation.simulate`` plays: game ``k`` uses the
    seeded stream ``sim-<k>`` of ``sim_seed`` (the same cards and decisions) and is named
    ``game-00000.log`` …"""
    for k in range(games):
        text, _ = simulated_log(mission, stream(mission.ruleset.name, f"sim-{k}", sim_seed),
                                challenge_deck=challenge_deck, player=player, state_lines=state_lines,
                                rows=rows)
        yield f"game-{k:05d}.log", text
