"""Engine events to a mission log in the canonical spelling (``docs/log-format.md``).

The log is what a player at the table would have written: one statement per play, draw
lines grouped, a ``reshuffle`` marker just before the statement that needed a card from the
empty pile, and ``none`` where the mission ended for want of a card (R36). Feeding a
written log back to the verifier reproduces the engine's outcome and score (a test checks
this on many simulated missions).

>>> from bgrid.rules.events import TurnStarted, Revealed, Drew, Played
>>> from bgrid.rules.actions import Move
>>> from bgrid.rules.cards import Card
>>> events = [Revealed(Card.parse("7H"), "entry"), Drew(Card.parse("2S"), "draw"),
...           Drew(Card.parse("5C"), "draw"), Played(Move(Card.parse("5C"), "FF"))]
>>> print(body_lines(events))
['turn 1', 'enter 7H', 'draw 2S 5C', 'move 5C FF']
"""

from __future__ import annotations

from collections.abc import Iterator

from ..rules.actions import Bomb, Guns, Resupply
from ..rules.board import column_name
from ..rules.engine import score
from ..rules.events import Defeat, Drew, Entered, Played, Reshuffled, Revealed, TurnStarted
from ..rules.playout import play_out, replay, start_state
from ..rules.seeding import stream
from ..rules.state import GameState


def body_lines(events) -> list[str]:
    """The body statements for an event stream that starts at turn 1."""
    out = ["turn 1"]
    draws: list[str] = []
    pending: str | None = None  # a guns/bomb/resupply line awaiting its card
    entry: str | None = None  # a face card or Joker entry awaiting the chosen column

    def flush(extra: str | None = None) -> None:
        if extra is not None:
            draws.append(extra)
        if draws:
            out.append("draw " + " ".join(draws))
            draws.clear()

    for ev in events:
        if isinstance(ev, Drew) and ev.purpose == "draw":
            draws.append(str(ev.card))
            continue
        if isinstance(ev, Defeat) and ev.purpose == "draw":
            flush("none")
            continue
        flush()
        if isinstance(ev, TurnStarted):
            out.append(f"turn {ev.turn}")
        elif isinstance(ev, Revealed) and ev.purpose == "entry":
            if ev.card.is_number:
                out.append(f"enter {ev.card}")
            else:
                entry = f"enter {ev.card}"
        elif isinstance(ev, Entered) and ev.chosen:
            chosen = ev.shifted_from if ev.shifted_from is not None else ev.cell
            out.append(f"{entry} {column_name(chosen.column)}")
            entry = None
        elif isinstance(ev, Played):
            action = ev.action
            if isinstance(action, Resupply):
                pending = f"resupply {action.king}"
            elif isinstance(action, (Guns, Bomb)):
                pending = str(action)
            else:
                out.append(str(action))
        elif isinstance(ev, (Revealed, Drew)) and pending is not None:
            out.append(f"{pending} -> {ev.card}")
            pending = None
        elif isinstance(ev, Revealed) and ev.purpose == "automa":
            out.append(f"automa {ev.card}")
        elif isinstance(ev, Reshuffled):
            out.append("reshuffle")
        elif isinstance(ev, Defeat) and entry is not None:
            out.append(entry)  # the face-card entry damage ended the mission: no column (R13)
            entry = None
        elif isinstance(ev, Defeat) and ev.purpose is not None:
            if ev.purpose == "entry":
                out.append("enter none")
            elif ev.purpose == "automa":
                out.append("automa none")
            elif pending is not None:
                out.append(f"{pending} -> none")
                pending = None
    flush()
    return out


def header_lines(*, challenge: str | None = None, seed: int | None = None, ridges: int | None = None,
                 difficulty: str | None = None, claim: tuple[str, int] | None = None,
                 player: str | None = None) -> list[str]:
    """The header: a challenge code, or a seed with its ridges and difficulty; then the claim."""
    out = ["bgrid-log: 1"]
    if challenge is not None:
        out.append(f"challenge: {challenge}")
    else:
        out.append(f"seed: {seed}")
        if ridges is not None:
            out.append(f"ridges: {ridges}")
        if difficulty is not None:
            out.append(f"difficulty: {difficulty}")
    if player is not None:
        out.append(f"player: {player}")
    if claim is not None:
        out.append(f"claim: {claim[0]} {claim[1]}")
    return out


def write_log(events, *, challenge: str | None = None, seed: int | None = None,
              ridges: int | None = None, difficulty: str | None = None,
              claim: tuple[str, int] | None = None, player: str | None = None) -> str:
    """A whole log: header then body, one statement a line, ending with a newline.

    ``events`` are the engine's events of one mission in order (everything ``apply`` and
    ``reveal`` returned). Give ``challenge`` for a mission played on its challenge deck, else
    ``seed`` (with ``ridges``/``difficulty``) for the player's own deck. ``claim`` is the
    (outcome, score) to report, usually the engine's own.
    """
    if (challenge is None) == (seed is None):
        raise ValueError("give exactly one of challenge= or seed=")
    head = header_lines(challenge=challenge, seed=seed, ridges=ridges, difficulty=difficulty,
                        claim=claim, player=player)
    return "\n".join(head + [""] + body_lines(events)) + "\n"


def simulated_log(mission, rng, *, challenge_deck: bool, player=None) -> tuple[str, GameState]:
    """Play ``mission`` to its end as ``rules.playout`` does (its random legal player, or
    ``player``, a decision function of the engine's playout) and return (the log, the final
    state). The game is played by ``play_out`` itself and its recorded steps replayed for
    the events, so the log is exactly the game ``simulate`` plays with the same stream.
    The log claims the engine's own outcome and score."""
    trace: list = []
    start = start_state(mission, challenge_deck)
    if player is None:
        play_out(start.copy(), rng, trace)
    else:
        play_out(start.copy(), rng, trace, player=player)
    events = [ev for step in replay(start, trace) for ev in step]
    state = start
    claim = (str(state.outcome), score(state).total)
    spec = mission.spec
    if challenge_deck:
        return write_log(events, challenge=mission.code, claim=claim), state
    return write_log(events, seed=spec.seed, ridges=spec.ridges, difficulty=spec.difficulty,
                     claim=claim), state


def simulated_logs(mission, games: int, sim_seed: int, *, challenge_deck: bool,
                   player=None) -> Iterator[tuple[str, str]]:
    """(file name, log) for each game ``rules.playout.simulate`` plays, one at a time: game
    ``k`` uses the seeded stream ``sim-<k>`` of ``sim_seed`` (the same cards and decisions)
    and is named ``game-00000.log`` …; the caller writes them."""
    for k in range(games):
        text, _ = simulated_log(mission, stream(mission.ruleset.name, f"sim-{k}", sim_seed),
                                challenge_deck=challenge_deck, player=player)
        yield f"game-{k:05d}.log", text
