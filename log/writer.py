"""Engine events to a mission log (``docs/log-format.md``): the simulator's log writer.

The log is what a player at the table would have written: one statement per play, draw
lines grouped, a ``reshuffle`` marker just before the statement that needed a card from the
empty pile, and ``none`` where the mission ended for want of a card (R36). The writer builds
the statements of the notation layer (:mod:`log.notation`) and prints their canonical
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

from ..rules.actions import Bomb, Guns, Resupply
from ..rules.cards import Card
from ..rules.artillery_pieces import ArtilleryPieces
from ..rules.board import Cell, Facing
from ..rules.events import (AltitudeChanged, ArtilleryMoved, Damage, Defeat, Destroyed, Drew, Entered, Event,
                     Moved, Played, Reshuffled, Revealed, Suppressed, TurnStarted)
from ..challenges.mission import ChallengeOrigin, MapOrigin, Mission, SeedOrigin, SetupOrigin
from ..rules.ruleset import DEFAULT_RULESET
from .notation import Header, PieceCheck, Statement
from .row_writer import HEAD, row_lines
from .words import VERB_OF_ACTION
from ..rules.state import CardPurpose


def body_statements(events: Iterable[Event], artillery: Iterable[Cell] | None = None,
                    sheet: bool = False) -> list[Statement]:
    """The body statements for an event stream that starts at turn 1. With ``artillery``
    (the map's pieces in placement order, R43) a ``state`` line closes every turn, as a
    player checks the sheet: the bomber's cell and facing, altitude, damage and where each
    artillery piece stands (``art``). ``sheet``: the art check as the sheet's art columns
    hold it, only the pieces that moved (their cell), were destroyed (``x``, that turn only)
    or were suppressed (``s``) in the turn."""
    out = [Statement("turn", 0, (), number=1)]
    paper = None if artillery is None else _Paper(artillery, sheet)
    draws: list[Card | None] = []
    pending: Statement | None = None  # a guns/bomb/resupply play awaiting its card
    entry: Card | None = None  # a face card or Joker entry awaiting the chosen column

    def flush() -> None:
        if draws:
            out.append(Statement("draw", 0, (), cards=tuple(draws)))
            draws.clear()

    def with_card(card: Card | None) -> Statement:
        assert pending is not None
        return Statement(pending.kind, 0, (), action=pending.action, cards=(card,))

    for ev in events:
        if paper is not None:
            paper.follow(ev)
        if isinstance(ev, Drew) and ev.purpose == CardPurpose.DRAW:
            draws.append(ev.card)
            continue
        if isinstance(ev, Defeat) and ev.purpose == CardPurpose.DRAW:
            draws.append(None)
            flush()
            continue
        flush()
        if isinstance(ev, TurnStarted):
            if paper is not None:
                # the turn's state, as the Automa phase (or the exit) left it: an exhaustion the
                # engine meets at the next turn's first card is that turn's (R22)
                out.append(paper.statement())
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
                pending = Statement(VERB_OF_ACTION[type(action)], 0, (), action=action)
            else:
                out.append(Statement(VERB_OF_ACTION[type(action)], 0, (), action=action))
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
    if paper is not None:
        out.append(paper.statement())
    return out


class _Paper:
    """What the sheet shows at the end of a turn, followed from the events alone."""

    def __init__(self, artillery: Iterable[Cell], sheet: bool = False) -> None:
        self.cell: Cell | None = None
        self.facing: Facing | None = None
        self.altitude = 0
        self.damage = 0
        self.pieces = ArtilleryPieces(artillery)
        self.sheet = sheet
        self.written = self.pieces.cells  # the cells at the last state line
        self.suppressed: set[int] = set()  # pieces suppressed since then (numbers)

    def follow(self, ev: Event) -> None:
        if isinstance(ev, Entered):
            self.cell, self.facing, self.altitude = ev.cell, ev.facing, ev.altitude
        elif isinstance(ev, Moved):
            self.cell = None if ev.exited else (ev.path[-1] if ev.path else ev.start)
            self.facing = None if ev.exited else ev.facing
        elif isinstance(ev, AltitudeChanged):
            self.altitude = ev.new
        elif isinstance(ev, Damage):
            self.damage = ev.total
        elif isinstance(ev, (ArtilleryMoved, Destroyed)):
            self.pieces.follow((ev,))
        elif isinstance(ev, Suppressed):
            n = self.pieces.number_at(ev.cell)
            if n is not None:
                self.suppressed.add(n)

    def statement(self) -> Statement:
        checks: list[tuple[str, object, int]] = [("at", self.cell, 0)]
        if self.cell is not None:
            checks.append(("facing", str(self.facing), 0))
        checks += [("alt", self.altitude, 0), ("dmg", self.damage, 0)]
        for n, (cell, before) in enumerate(zip(self.pieces.cells, self.written, strict=True), start=1):
            if not self.sheet:
                piece = PieceCheck(cell, destroyed=cell is None)
            elif cell is None:
                piece = PieceCheck(None, destroyed=before is not None)
            else:
                piece = PieceCheck(cell if cell != before else None, suppressed=n in self.suppressed)
            checks.append(("art", (n, piece), 0))
        self.written = self.pieces.cells
        self.suppressed.clear()
        return Statement("state", 0, (), checks=tuple(checks))




def body_lines(events: Iterable[Event], artillery: Iterable[Cell] | None = None) -> list[str]:
    """The body statements' canonical lines."""
    return [st.canonical() for st in body_statements(events, artillery)]


def write_log(events: Iterable[Event], mission_lines: list[str], *,
              claim: tuple[str, int] | None = None, player: str | None = None,
              artillery: Iterable[Cell] | None = None, rows: bool = False) -> str:
    """A whole log: header, a blank line, then the body, one statement a line, ending with a
    newline.

    ``events`` are the engine's events of one mission in order (everything ``apply`` and
    ``reveal`` returned). ``mission_lines`` are the header lines that name the mission
    (:func:`mission_lines`: its challenge code for a game on the challenge deck, its seed
    for the player's own deck). ``claim`` is the (outcome, score) to report, usually the
    engine's own. ``artillery``: the map's pieces in placement order, to close every turn
    with a ``state`` line (see :func:`body_statements`). ``rows``: the body in the row form,
    a turn a line in the sheet's columns (``log.row_writer``).
    """
    rest = Header(player=player, claim=claim).canonical_lines()  # the version line, player, claim
    return log_text(rest[:1] + mission_lines + rest[1:], body_statements(events, artillery, sheet=rows), rows)


def log_text(header_lines: list[str], statements: list[Statement], rows: bool = False) -> str:
    """A log's text: the header lines, a blank line, then the body in statement lines or
    (``rows``) in the row form after a comment that names its columns."""
    if rows:
        body = [HEAD] + row_lines(statements)
    else:
        body = [st.canonical() for st in statements]
    return "\n".join(header_lines + [""] + body) + "\n"


def mission_header(mission: Mission, *, player: str | None = None,
                   claim: tuple[str, int] | None = None) -> Header:
    """The header that names ``mission``: its challenge code for a game on the challenge deck,
    its seed and ridges for the player's own deck, a hand setup's cards or an explicit map;
    then the difficulty and a ruleset other than the default (a code names its own)."""
    origin = mission.origin
    h = Header(player=player, claim=claim)
    if isinstance(origin, ChallengeOrigin):
        h.challenge = origin.code
        return h
    if isinstance(origin, SeedOrigin):
        h.seed, h.ridges = origin.spec.seed, origin.spec.ridges
    elif isinstance(origin, SetupOrigin):
        h.setup_ridges = [list(cards) for cards in origin.ridges]
        h.setup_bunkers, h.setup_artillery = list(origin.bunkers), list(origin.artillery)
    elif isinstance(origin, MapOrigin):
        m = mission.game_map
        assert m is not None  # only a blank mission has no map
        h.map_mountains, h.map_bunkers = list(m.mountains), list(m.bunkers)
        h.map_artillery = list(m.artillery)
    h.difficulty = mission.difficulty
    if mission.ruleset.name != DEFAULT_RULESET:
        h.ruleset = mission.ruleset.name
    return h


def mission_lines(mission: Mission) -> list[str]:
    """The header lines that name ``mission`` (after ``bgrid-log: 1``); a blank mission's are
    the setup keys, to be filled in at the table (the sheet prints them)."""
    if mission.game_map is None:
        blank = ["setup ridge: …", "setup bunkers: …", "setup artillery: …"]
        extra = mission_header(mission).canonical_lines()[1:]  # difficulty, ruleset
        return blank + extra
    return mission_header(mission).canonical_lines()[1:]


def header_text(header: Header | Mission, *, player: str | None = None) -> str:
    """A log's header, ready for its body: the lines of ``header`` (or the header naming a
    mission, with ``player``), each ending with a newline. The one writer of header text:
    every face (``bgrid play``, the phone companion, the league server) starts a log here.
    Raises :class:`~log.notation.UnwritableHeader` for a player name a line cannot carry."""
    if isinstance(header, Mission):
        header = mission_header(header, player=player)
    elif player is not None:
        header.player = player
    return "\n".join(header.canonical_lines()) + "\n"
