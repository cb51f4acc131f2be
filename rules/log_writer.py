"""Engine events to a mission log (``docs/log-format.md``): the simulator's log writer.

The log is what a player at the table would have written: one statement per play, draw
lines grouped, a ``reshuffle`` marker just before the statement that needed a card from the
empty pile, and ``none`` where the mission ended for want of a card (R36). The writer builds
the statements of the notation layer (:mod:`rules.log_notation`) and prints their canonical
form, the same classes the verifier reads a log into; feeding a written log back to the
verifier reproduces the engine's outcome and score (a test checks this on many simulated
missions). Text only: writing files is the CLI's business; playing the games whose logs are
written is :mod:`players.simulated_logs`.

>>> from bgrid.rules.events import Revealed, Drew, Played
>>> from bgrid.rules.actions import Move
>>> from bgrid.rules.cards import Card
>>> events = [Revealed(Card.parse("7H"), "entry"), Drew(Card.parse("2S"), "draw"),
...           Drew(Card.parse("5C"), "draw"), Played(Move(Card.parse("5C"), "FF"))]
>>> print(body_lines(events))
['turn 1', 'enter 7H', 'draw 2S 5C', 'move 5C FF']
"""

from __future__ import annotations

from collections.abc import Iterable

from .actions import Altitude, Bomb, Guns, Move, Resupply, Throttle
from .cards import Card
from .events import Defeat, Drew, Entered, Event, Played, Reshuffled, Revealed, TurnStarted
from .log_notation import Header, Statement
from .state import CardPurpose


def body_statements(events: Iterable[Event]) -> list[Statement]:
    """The body statements for an event stream that starts at turn 1."""
    out = [Statement("turn", 0, (), number=1)]
    draws: list[Card | None] = []
    pending: Statement | None = None  # a guns/bomb/resupply play awaiting its card
    entry: Card | None = None  # a face card or Joker entry awaiting the chosen column

    def flush() -> None:
        if draws:
            out.append(Statement("draw", 0, (), cards=tuple(draws)))
            draws.clear()

    def with_card(card: Card | None) -> Statement:
        assert pending is not None
        return pending._replace(cards=(card,))

    for ev in events:
        if isinstance(ev, Drew) and ev.purpose == CardPurpose.DRAW:
            draws.append(ev.card)
            continue
        if isinstance(ev, Defeat) and ev.purpose == CardPurpose.DRAW:
            draws.append(None)
            flush()
            continue
        flush()
        if isinstance(ev, TurnStarted):
            out.append(Statement("turn", 0, (), number=ev.turn))
        elif isinstance(ev, Revealed) and ev.purpose == CardPurpose.ENTRY:
            if ev.card.is_number:
                out.append(Statement("enter", 0, (), cards=(ev.card,)))
            else:
                entry = ev.card
        elif isinstance(ev, Entered) and ev.chosen:
            chosen = ev.shifted_from if ev.shifted_from is not None else ev.cell
            out.append(Statement("enter", 0, (), cards=(entry,), column=chosen.column))
            entry = None
        elif isinstance(ev, Played):
            action = ev.action
            if isinstance(action, (Resupply, Guns, Bomb)):
                pending = Statement(_KEYWORD[type(action)], 0, (), action=action)
            else:
                out.append(Statement(_KEYWORD[type(action)], 0, (), action=action))
        elif isinstance(ev, (Revealed, Drew)) and pending is not None:
            out.append(with_card(ev.card))
            pending = None
        elif isinstance(ev, Revealed) and ev.purpose == CardPurpose.AUTOMA:
            out.append(Statement("automa", 0, (), cards=(ev.card,)))
        elif isinstance(ev, Reshuffled):
            out.append(Statement("reshuffle", 0, ()))
        elif isinstance(ev, Defeat) and entry is not None:
            # the face-card entry damage ended the mission: no column (R13)
            out.append(Statement("enter", 0, (), cards=(entry,)))
            entry = None
        elif isinstance(ev, Defeat) and ev.purpose is not None:
            if ev.purpose == CardPurpose.ENTRY:
                out.append(Statement("enter", 0, (), cards=(None,)))
            elif ev.purpose == CardPurpose.AUTOMA:
                out.append(Statement("automa", 0, (), cards=(None,)))
            elif pending is not None:
                out.append(with_card(None))
                pending = None
    flush()
    return out


_KEYWORD = {Move: "move", Altitude: "alt", Guns: "guns", Bomb: "bomb", Throttle: "throttle",
            Resupply: "resupply"}  # the statement keyword of each play (log-format §3)


def body_lines(events: Iterable[Event]) -> list[str]:
    """The body statements' canonical lines."""
    return [st.canonical() for st in body_statements(events)]


def write_log(events: Iterable[Event], *, challenge: str | None = None, seed: int | None = None,
              ridges: int | None = None, difficulty: str | None = None,
              claim: tuple[str, int] | None = None, player: str | None = None) -> str:
    """A whole log: header, a blank line, then the body, one statement a line, ending with a
    newline.

    ``events`` are the engine's events of one mission in order (everything ``apply`` and
    ``reveal`` returned). Give ``challenge`` for a mission played on its challenge deck, else
    ``seed`` (with ``ridges``/``difficulty``) for the player's own deck. ``claim`` is the
    (outcome, score) to report, usually the engine's own.
    """
    if (challenge is None) == (seed is None):
        raise ValueError("give exactly one of challenge= or seed=")
    header = Header(challenge=challenge, seed=seed, ridges=ridges, difficulty=difficulty,
                    player=player, claim=claim)
    return "\n".join(header.canonical_lines() + [""] + body_lines(events)) + "\n"
