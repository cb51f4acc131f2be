"""Replay a parsed log on the rules engine and stop at the first place paper and rules part.

The engine (``rules.engine``) is the referee: the logged cards are its chance outcomes and
the logged plays its actions. This module only walks the log, keeps the log's own
bookkeeping (which turn the log is in, whether the statement that ended the mission wrote
``none``, R36–R38) and turns the engine's refusals into messages with a line, a column, a
rule, the state and the legal alternatives.
"""

from __future__ import annotations


from collections.abc import Iterable
from typing import Any, Final, cast

from ..challenges.mission import Mission
from ..rules.actions import Action, EndPhase, EnterColumn, Guns, Throttle
from ..rules.artillery_pieces import ArtilleryPieces
from ..rules.board import Cell
from ..rules.cards import JOKER_RANK, Card
from ..rules.dead_hand import DeadHand, dead_hand
from ..rules.engine import apply, apply_legal, chance_outcomes, is_entry_damage_fatal, reveal
from ..rules.errors import IllegalActionError, NotationError
from ..rules.events import (AltitudeChanged, ArtilleryHeld, ArtilleryMoved, Bonus, Damage, Defeat,
                            Destroyed, Drew, Entered, Event, Moved, PhaseEndReason, PlayerPhaseEnded,
                            Reshuffled, Suppressed, TurnStarted)
from ..rules.notation import count_word
from ..rules.state import CardPurpose, DefeatCause, GameState, Phase
from .message_context import card_noun, describe_state, legal_summary, outcome_text, phase_open_cards
from .ledger import damage_entries
from ..log.words import PLAY_VERBS, PURPOSE_OF_VERB, VERB_OF_PURPOSE
from .memo import forget_oldest
from ..log.messages import LogError
from .notes import Note, is_untold, note_on
from .replay_history import After, HistoryEntry, ReplayBoard
from ..log.lexer import Token
from ..log.row_reader import is_row
from ..log.row_writer import play_text
from ..log.notation import ParsedLog, PieceCheck, Statement, card_text

_PHASE_END: Final = {PhaseEndReason.THROTTLE: "a Throttle ends the player phase (R11)",
                     PhaseEndReason.EXIT: "the bomber left the map, which ends the player phase (R6)",
                     PhaseEndReason.ACTIONS: "{actions} actions were played and no {open_cards} is "
                                             "left to play (R6)",
                     PhaseEndReason.END: "the player phase was ended"}


_STARTS_KEPT: Final = 64


def mission_start(mission: Mission,
                  remembered: dict[int, tuple[Mission, GameState]] | None = None) -> GameState:
    """A fresh copy of the mission's start. ``remembered`` (a ``Verifier``'s memo) keeps the
    starts: a copy is much cheaper than a new game. By the mission object: ``mission_source``
    hands out the same object for the same mission, and hashing a 54-card deck (Python-level
    Card.__hash__) costs more than copying the start; the entry keeps its mission alive, so the
    id cannot be reused while it is there."""
    kept = None if remembered is None else remembered.get(id(mission))
    if kept is not None and kept[0] is mission:
        return kept[1].copy()
    start = mission.start()  # a challenge code's deck, else the player's own (R25)
    if remembered is None:
        return start
    if len(remembered) >= _STARTS_KEPT:
        forget_oldest(remembered)
    remembered[id(mission)] = (mission, start)
    return start.copy()


class Replay:
    """One replay. :meth:`run` returns the final state or raises the first :class:`LogError`."""

    def __init__(self, log: ParsedLog, mission: Mission,
                 starts: dict[int, tuple[Mission, GameState]] | None = None) -> None:
        self.log = log
        self.mission = mission
        self.state: GameState = mission_start(mission, starts)
        # the artillery by number (R43), for art checks and for every message naming a piece
        self.pieces = ArtilleryPieces(self.state.game_map.artillery)
        self.turn_logged = 0  # the last `turn N` the log wrote
        self.none_written = False  # R36: the statement that ended the mission wrote `none`
        self.end_line: int | None = None  # the line whose statement ended the mission
        self.phase_end: PhaseEndReason | None = None  # why the last player phase ended
        self.trace = ReplayBoard()
        self.stmt: Statement | None = None
        self.notes: list = []  # notes.Note, at most one a statement
        self.ledger: list = []  # ledger.LedgerEntry, one a point of damage
        # blocked artillery steps already noted (notes.note_on, notes.is_untold): compiled, two
        # lookups cost less than building and hashing a pair
        self._held_told: dict[Cell, set[Cell]] = {}
        self.damage_mismatch = False  # the first error is a state line's wrong 'dmg'
        self.automa_card: Card | None = None  # the Automa card of the log's turn, once played
        # what last set the bomber's place and altitude, as (rule, line), for a state line
        # that disagrees (E213 cites the rule that made the state it checks)
        self.position_from: tuple[str, int | None] = ("R13", None)
        self.altitude_from: tuple[str, int | None] = ("R13", None)
        # (statement, turn before, events, state text after) per engine call, kept only
        # when someone reads it (--explain, the HTML report): None leaves it out
        self.history: list[HistoryEntry] | None = None
        self.last_events: list[Event] = []  # what the engine did for the last step (step)
        self._typed: tuple[int, str] | None = None  # (line, text) of a statement typed (step)
        # R22: the engine meets an exhaustion at the chance node it stops at, which may be the
        # next turn's draw or entry; the paper meets it where that card is taken (or at the
        # `reshuffle` marker before it). Until then the exhaustion's events wait here, and its
        # damage is not yet in what a state line checks (R40: the turn's own damage only).
        self.unmet: list[Event] = []
        self.unmet_damage = 0
        self.dead: DeadHand | None = None  # the hand no card of which can be played again
        # the statement (and its card's token) that met this turn's exhaustion with no
        # `reshuffle` marker before it: a marker written after it is told where it goes (E209)
        self.unmarked: tuple[Statement, int] | None = None

    @property
    def current(self) -> Statement:
        """The statement being replayed: :meth:`run` sets it before anything reads it."""
        assert self.stmt is not None
        return self.stmt

    # -- errors -----------------------------------------------------------------------
    def fail(self, code: str, message: str, index: int = 0, *, rule: str | None = None,
             detail: str | None = None, legal: bool = True, at: Token | None = None) -> LogError:
        """The error at token ``index`` of the statement (or at ``at``, a part of a token),
        with the state in the log's own turn and, unless ``legal`` is false, the legal plays."""
        st = self.current
        token = st.token(index) if at is None else at
        self.trace.error_cell = self.state.cell
        return LogError(code, message, line=st.line, column=token.column, token=token.text,
                        text=self._line_text(st.line), rule=rule, detail=detail,
                        state=describe_state(self.state, self.turn_logged, self.pieces,
                                             self.unmet_damage if self.unmet else None),
                        legal=tuple(legal_summary(self.state, self.turn_logged, self.pieces,
                                                  _played_joker(st))) if legal else ())

    def _line_text(self, line: int) -> str:
        typed = self._typed
        return typed[1] if typed is not None and typed[0] == line else self.log.line_text(line)

    # -- engine calls, with the trace -------------------------------------------------
    def _record(self, events: list[Event], turn: int, index: int, notable: bool = False) -> None:
        """Keep the damage (the ledger), the notes and the end; ``turn`` is the turn before
        the events, ``index`` the token of the statement they answer (where a note points),
        ``notable`` true when the caller already saw a note's reason (a Joker revealed)."""
        st = self.current
        told = events
        if self.unmet:
            told = self._meet() + events
        exhausted = self.state.fresh_reshuffle  # and no card taken since: the log is not there yet
        if exhausted:
            told = self._defer(events)
        if self.history is not None:
            s = self.state
            self.history.append(HistoryEntry(st, turn, told, After(s.cell, s.facing, s.altitude,
                                                                   s.damage - self.unmet_damage,
                                                                   s.health, tuple(s.hand), s.ruleset)))
        elif len(events) == 1 and type(events[0]) is Drew:
            return  # a card into the hand, the commonest call: nothing to keep
        # one pass over the events: most of them (reveals, discards, the turn) need nothing
        damaged = climbed = shifted = False
        placed: str | None = None  # the rule that placed the bomber (a move or an entry)
        ev: Any  # dispatched on type(ev) through ``kind``, which mypy does not narrow
        for ev in events:
            # most events (reveals, discards, the turn) match none of these; compiled, the
            # comparisons of classes cost less than looking each class up in a set
            kind = type(ev)
            if kind is ArtilleryHeld:  # the commonest watched event: every piece, every Automa phase
                held: ArtilleryHeld = ev  # typed: compiled, its fields are then read directly
                if not notable:
                    notable = is_untold(held, self._held_told)
            elif kind is PlayerPhaseEnded:
                ended: PlayerPhaseEnded = ev  # typed, as held above
                self.phase_end = ended.reason  # the last one
            elif kind is Damage:
                damaged = True
            elif kind is Moved:
                moved: Moved = ev
                placed = "R9"
                notable = notable or moved.blocked
            elif kind is Entered:
                entered: Entered = ev
                placed = placed or "R13"
                notable = notable or entered.shifted_from is not None
            elif kind is AltitudeChanged:
                climbed = True
            elif kind is Bonus:
                notable = True
            elif kind is ArtilleryMoved or kind is Destroyed or kind is Suppressed:
                shifted = True
        if shifted:
            self.pieces.follow(events, st.line, self.turn_logged)
        if damaged:
            self._ledger(events, turn)
        if placed:
            self.position_from = (placed, st.line)
        if climbed:
            self.altitude_from = ("R11" if st.kind == "throttle" else "rulebook: Card Actions", st.line)
        if notable:
            note = note_on(st.line, st.token(index).column, events, self.state,
                           self._held_told, self.pieces)
            if note is not None:
                if self.notes and self.notes[-1].line == note.line:  # one note a statement
                    note = self.notes.pop().merged(note)
                self.notes.append(note)
        if self.state.phase is _OVER and self.end_line is None and not exhausted:
            self.end_line = st.line

    def _defer(self, events: list[Event]) -> list[Event]:
        """The events of an exhaustion the engine met at the card it waits for now (R22), kept
        for the statement that takes that card; returns the events before it."""
        at = next((i for i, ev in enumerate(events) if type(ev) is Reshuffled
                   or (type(ev) is Defeat and ev.cause is DefeatCause.OUT_OF_FUEL)), None)
        if at is None:  # met before this call: nothing of it is in these events
            return events
        self.unmet = events[at:]
        self.unmet_damage = sum(ev.amount for ev in self.unmet if type(ev) is Damage)
        return events[:at]

    def _meet(self) -> list[Event]:
        """The log reaches the exhaustion :meth:`_defer` kept: its damage points are this
        line's (the ledger) and count from here; returns its events, to tell them here."""
        met, self.unmet = self.unmet, []
        line = self.current.line
        if self.unmet_damage:
            n = self.unmet_damage
            self.ledger[-n:] = [entry._replace(line=line) for entry in self.ledger[-n:]]
            self.unmet_damage = 0
        if self.state.phase is _OVER and self.end_line is None:
            self.end_line = line
        return met

    def meet_here(self) -> None:
        """The exhaustion kept by :meth:`_defer` is met by a statement that makes no engine call
        (the ``reshuffle`` marker, a ``none``): told and counted at its line."""
        if not self.unmet:
            return
        met = self._meet()
        if self.history is not None:
            s = self.state
            self.history.append(HistoryEntry(self.current, s.turn, met, After(
                s.cell, s.facing, s.altitude, s.damage, s.health, tuple(s.hand), s.ruleset)))

    @property
    def paper_damage(self) -> int:
        """The damage the paper shows now: the state's, less an exhaustion the log has not
        reached yet (R22; what a state line's dmg is checked against)."""
        return self.state.damage - self.unmet_damage

    def _ledger(self, events: list[Event], turn: int) -> None:
        """The damage of these events into the ledger, each point with the engine's turn."""
        st = self.current
        card = st.cards[0] if st.kind == "enter" and st.cards else None
        ev: Any  # dispatched on type(ev) through ``kind``, which mypy does not narrow
        for i, ev in enumerate(events):
            kind = type(ev)
            if kind is TurnStarted:
                turn = ev.turn
            elif kind is Damage:
                self.ledger.extend(damage_entries(turn, st.line, events, i, self.state, card,
                                                  self.pieces))

    def play(self, action: Action, index: int) -> None:
        turn = self.state.turn
        try:
            events = apply(self.state, action)  # checks first; an illegal play changes nothing
        except IllegalActionError as exc:
            if exc.code == "not-in-hand" and exc.card is not None:
                hand = " ".join(map(str, self.state.hand)) or "empty"
                raise self.fail("E204", f"{exc.card} is not in the hand (hand: {hand})",
                                self._card_token(exc.card)) from None
            code = "E202" if exc.code == "wrong-phase" else "E203"
            at = None
            if exc.step is not None:  # a step letter at fault (R9, R31)
                at = self._step_token(exc.step, 4 if type(action) is Throttle else 2)
            message = str(exc)
            if exc.code == "guns-target":  # the cell is at fault, not the 6
                assert type(action) is Guns
                index = _GUNS_CELL
                number = self.pieces.number_at(action.target)
                if number is not None:  # a piece out of reach: say which (R43)
                    message += f"; {action.target} holds artillery {number}"
            raise self.fail(code, message, index, rule=exc.rule, detail=exc.code, at=at) from None
        self._record(events, turn, index)

    def _card_token(self, card: Card) -> int:
        """The index of the statement's first token that is the physical ``card``."""
        return next(i for i, t in enumerate(self.current.tokens) if i > 0 and _same_card(t.text, card))

    def _step_token(self, step: int, first: int) -> Token | None:
        """Step ``step`` (0-based) of the step words starting at token ``first``, as a
        one-letter token at its own column (step words may be split anywhere)."""
        for word in self.current.tokens[first:]:
            if step < len(word.text):
                return Token(word.text[step], word.column + step)
            step -= len(word.text)
        return None

    def take_card(self, card: Card | None, index: int, purpose: CardPurpose) -> None:
        """One card drawn or revealed for ``purpose``, or ``none`` where the mission ended (R36)."""
        state = self.state
        if self.unmet and type(self.unmet[0]) is Reshuffled:
            self.unmarked = (self.current, index)  # no marker met it first (do_reshuffle)
        self.meet_here()  # this statement takes the card the engine met the exhaustion at
        if state.phase is _OVER:
            if card is None and state.end_card_purpose == purpose and not self.none_written:
                self.none_written = True
                return
            raise self.fail("E211", self._ended_for_want_of_card(), index)
        if card is None:
            left = len(state.draw_pile)
            raise self.fail("E210", "'none', but the mission goes on here: the "
                            f"{card_noun(purpose, state.ruleset)} comes "
                            f"from a draw pile of {left} card{'s' if left != 1 else ''}", index)
        if state.card_purpose is not purpose:  # engine.chance_pending
            raise self.fail("E202", f"no {card_noun(purpose, state.ruleset)} is drawn here; "
                            f"{self._expected()}", index)
        turn = state.turn
        try:
            events = reveal(state, card)
        except IllegalActionError as exc:
            if exc.code in ("wrong-card", "card-not-in-deck"):
                raise self._bad_card(exc, index, purpose) from None
            raise self.fail("E203", str(exc), index, rule=exc.rule, detail=exc.code) from None
        # R17: a Joker revealed on the player's own check is worth a note
        self._record(events, turn, index, card.rank == JOKER_RANK and purpose in _OWN_CHECKS)

    def _bad_card(self, exc: IllegalActionError, index: int, purpose: CardPurpose) -> LogError:
        state, card = self.state, exc.card
        assert card is not None  # a refusal of a card names it
        if exc.expected is not None:
            return self.fail("E206", f"the challenge deck gives {exc.expected} as the "
                             f"{card_noun(purpose, state.ruleset)} "
                             f"here, not {card}{self._deck_hint(card, index)}", index, rule=exc.rule)
        where = _PILE_WORDS.get(exc.pile, "out of the deck")
        after = (" (after the reshuffle the draw pile is the discard pile of that moment, R35)"
                 if state.exhaustions else "")
        return self.fail("E205", f"{card} cannot be the {card_noun(purpose, state.ruleset)}: it is "
                         "already drawn in this "
                         f"pass through the deck, now {where}{after}", index,
                         rule="R35" if state.exhaustions else "R22")

    def _deck_hint(self, card: Card, index: int) -> str:
        """Why a challenge card may be out of place: a draw line whose cards are the right
        ones in another order (the order follows), or a card that comes a few cards further
        down the deck (a statement that takes a card was left out: the cards skipped follow)."""
        pile, st = self.state.draw_pile, self.current
        if st.kind == "draw":
            written = [c for c in st.cards[st.card_tokens.index(index):] if c is not None]
            coming = pile[:len(written)]
            if len(written) > 1 and sorted(map(str, written)) == sorted(map(str, coming)):
                return (f": the line holds the right cards in another order; the deck gives them as "
                        f"{' '.join(map(str, coming))}")
        ahead = next((k for k, c in enumerate(pile[:_SKIP_LOOKAHEAD]) if c == card), None)
        if ahead:
            skipped = " ".join(map(str, pile[:ahead]))
            return (f"; {card} comes {ahead} card{'s' if ahead > 1 else ''} later, after {skipped}: "
                    f"was a statement that takes {'a card' if ahead == 1 else 'cards'} left out "
                    "(a resupply, a guns or bomb reveal, a draw)?")
        return ""

    # -- messages about order -----------------------------------------------------------
    def _ended_for_want_of_card(self) -> str:
        s = self.state
        why = ("the draw pile ran out a second time (out of fuel, R22)" if s.cause is DefeatCause.OUT_OF_FUEL
               else "the damage of the reshuffle reached the health (R22)")
        assert s.end_card_purpose is not None  # the mission ended wanting that card
        kind = VERB_OF_PURPOSE[s.end_card_purpose]
        return (f"the mission ended here: {why} when the {card_noun(s.end_card_purpose, s.ruleset)} "
                "was needed; "
                f"the log writes '{kind} none' there (R36) and nothing after it but state lines")

    def _turn_closed(self) -> str:
        """What closed the log's turn, in brackets: its Automa card, or the exit that skipped
        the Automa phase (not the end of the player phase: the Automa card came after it)."""
        if self.automa_card is not None:
            return f" (the Automa card {self.automa_card} closed turn {self.turn_logged})"
        if self.phase_end is PhaseEndReason.EXIT:
            return f" ({_PHASE_END[self.phase_end]}; no Automa phase off the map)"
        return ""

    def _expected(self) -> str:
        """What the log should have next, from the engine's phase."""
        s = self.state
        if s.turn != self.turn_logged:
            return f"turn {s.turn} begins here{self._turn_closed()}: write 'turn {s.turn}' first"
        phase = s.phase
        if phase is _ENTRY_REVEAL:
            return "the bomber is off the map, so 'enter CARD' comes next (R6)"
        if phase is _DRAWING:
            n = len(s.hand)
            return (f"the hand holds {n} card{'s' if n != 1 else ''}: 'draw' refills it to "
                    f"{s.ruleset.hand_size} first (R6)")
        if phase is _ACTING:
            return "the player phase is on: plays, or 'automa' to end it"
        if phase is _AUTOMA_REVEAL:
            because = self._phase_end_words()
            return f"{because}; the Automa card comes next: 'automa CARD'"
        return f"the game waits in phase {phase}"

    def _phase_end_words(self) -> str:
        """Why the last player phase ended, in words (the ruleset's count of actions)."""
        if self.phase_end not in _PHASE_END:
            return "the player phase is over"
        actions = self.state.ruleset.actions_per_turn
        return _PHASE_END[self.phase_end].format(actions=count_word(actions),
                                                 open_cards=phase_open_cards(self.state.ruleset))

    # -- the walk -----------------------------------------------------------------------
    def run(self) -> GameState:
        return self.walk(self.log.statements)

    def step(self, st: Statement, text: str | None = None) -> list[Event]:
        """Replay one more statement (the table companion feeds the statements as they are
        typed) and return the engine's events for it; ``text``: the line as typed, quoted by
        a refusal (the log's lines need not hold it). Raises :class:`LogError`; a statement
        that takes several cards may then have taken some before the refusal
        (:attr:`last_events` holds what the engine did, in both cases)."""
        kept, self.history = self.history, []
        self._typed = None if text is None else (st.line, text)
        try:
            self.walk((st,))
        finally:
            entries, self.history, self._typed = self.history, kept, None
            if kept is not None:
                kept.extend(entries)
            self.last_events = [ev for entry in entries for ev in entry.events]
        return self.last_events

    def walk(self, statements: Iterable[Statement]) -> GameState:
        """Replay ``statements`` in order (``run``: the whole log; ``step``: one)."""
        state = self.state  # the one state, changed in place by the engine
        for st in statements:
            self.stmt = st
            if state.phase is _OVER:
                self.after_end(st)
                continue
            kind = st.kind
            if state.turn != self.turn_logged and kind not in _ANY_TURN:
                raise self.fail("E202", self._expected(), 0)
            # each keyword's handler, the commonest first; compiled, a chain of method calls
            # costs less than a table of functions (each called through Python's protocol)
            if kind == "automa":
                self.do_automa(st)
            elif kind == "draw":
                self.do_draw(st)
            elif kind in _PLAYS:
                self._play_statement(st)
            elif kind == "turn":
                self.do_turn(st)
            elif kind == "state":
                self.do_state(st)
            elif kind == "enter":
                self.do_enter(st)
            elif kind == "reshuffle":
                self.do_reshuffle(st)
            else:
                raise KeyError(kind)  # the parser gives every statement one of the keywords
        return state

    def unwritten_end(self) -> str | None:
        """R36: the mission ended for want of an entry, draw or Automa card, but the log stops
        before the statement that writes 'none' there: what it still has to write (the turn
        line first, when the engine is in a turn the log has not begun), else None. Such a log
        is incomplete: the verifier never plays on by itself, not even into the end."""
        s = self.state
        if s.phase is not _OVER or s.end_card_purpose is None or self.none_written:
            return None
        owed = f"{VERB_OF_PURPOSE[s.end_card_purpose]} none (R36)"
        return owed if self.turn_logged == s.turn else f"turn {s.turn} (its line first), then {owed}"

    def after_end(self, st: Statement) -> None:
        """R36/R37: the mission is over; only the `none` statement that ended it and `state`."""
        s = self.state
        if st.kind == "state":
            self.do_state(st)
            return
        if s.end_card_purpose is not None and not self.none_written:
            kind = VERB_OF_PURPOSE[s.end_card_purpose]
            if st.kind == "reshuffle":
                self.meet_here()
                return
            if st.kind == "turn" and kind in ("enter", "draw") and self.turn_logged != s.turn:
                self.do_turn(st)
                return
            if st.kind == kind and kind in ("enter", "draw", "automa"):
                if self.turn_logged != s.turn:
                    raise self.fail("E202", f"turn {s.turn} begins here: write 'turn {s.turn}' first", 0)
                self.take_card(st.cards[0], st.card_tokens[0], s.end_card_purpose)
                if len(st.cards) > 1:
                    raise self.fail("E212", "nothing is drawn after 'none': the mission is over (R36)",
                                    st.card_tokens[1])
                return
            raise self.fail("E211", self._ended_for_want_of_card(), 0)
        raise self.fail("E212", f"the mission ended at line {self.end_line}: {outcome_text(s)}; only "
                        "state lines and comments may follow (R37)", 0)

    def do_turn(self, st: Statement) -> None:
        s = self.state
        if s.turn == self.turn_logged:
            if s.phase in (_ACTING, _AUTOMA_REVEAL):
                raise self.fail("E202", f"turn {s.turn} is not over: the bomber is on the map, so the "
                                "Automa card comes before the next turn: 'automa CARD' (R6, R34)", 0)
            raise self.fail("E202", f"turn {s.turn} is not over: {self._expected()}", 0)
        if st.number != s.turn:
            raise self.fail("E201", f"expected 'turn {s.turn}': turns count 1, 2, 3 … without gaps",
                            1)
        self.turn_logged = st.number
        self.automa_card = None
        self.unmarked = None

    def owes_column(self, st: Statement) -> bool:
        """True when ``st``, an entry written without its column, would stop at the column
        choice (E113): its card is a face card or Joker the game may reveal now, and the
        entry damage leaves the bomber alive (R13, R23). The table companion asks for the
        column instead of refusing the line; nothing is changed."""
        s, card = self.state, st.cards[0] if st.kind == "enter" and st.cards else None
        return (st.column is None and card is not None and card.column is None
                and s.phase is _ENTRY_REVEAL and card in chance_outcomes(s)
                and not is_entry_damage_fatal(s))

    def do_enter(self, st: Statement) -> None:
        if self.state.phase is not _ENTRY_REVEAL:
            where = (f"the bomber is on the map at {self.state.cell}, so there is no entry; "
                     if self.state.is_on_map else "")
            raise self.fail("E202", where + self._expected(), 0, rule="R13")
        self.take_card(st.cards[0], 1, _FOR_ENTRY)
        if self.state.phase is _ENTRY_COLUMN:
            if st.column is not None:
                self.play(EnterColumn(st.column), st.column_token)
            elif is_entry_damage_fatal(self.state):
                # R13/R23: the damage of a face-card entry ends the mission before the bomber is
                # placed, so the column changes nothing and the log may leave it out
                self.play(EnterColumn(0), 1)
            else:
                card = st.cards[0]
                assert card is not None  # a face card or Joker was revealed: a column is owed
                raise self.fail("E113", f"after a {'Joker' if card.is_joker else 'face card'} the player "
                                f"chooses the entry column (R13): {self._column_example(st, card)}",
                                len(st.tokens))

    def _column_example(self, st: Statement, card: Card) -> str:
        """How to write the entry column, in the form the line is written in: a row's enter
        cell (``1|JK C|…``) or the statement (``enter JK C``)."""
        if is_row(self._line_text(st.line)):
            return (f"write it after the card in the row's enter cell, e.g. "
                    f"'{self.turn_logged}|{card} C|…'")
        return f"write it after the card, e.g. 'enter {card} C'"

    def do_draw(self, st: Statement) -> None:
        s = self.state
        if s.phase is not _DRAWING:
            n = len(s.hand)
            if s.phase is _ACTING and n >= s.ruleset.hand_size:
                raise self.fail("E207", f"the hand already holds {s.ruleset.hand_size} cards; nothing "
                                "is drawn (R6, R30)", 1)
            if s.phase is _ACTING:  # a play made the hand smaller: too late to draw
                raise self.fail("E202", f"the hand holds {n} card{'s' if n != 1 else ''}, but the draw "
                                "comes before the plays: once a card is played the hand is refilled "
                                "at the next turn (R6)", 0)
            raise self.fail("E202", self._expected(), 0)
        room = s.ruleset.hand_size - len(s.hand)
        real = sum(1 for c in st.cards if c is not None)
        if real > room:
            drawn = f"{room} card{'s are' if room != 1 else ' is'} drawn"
            raise self.fail("E207", f"this line draws {real} cards into a hand of {len(s.hand)}: the "
                            f"hand holds {s.ruleset.hand_size} at most, so {drawn} (R6)",
                            st.card_tokens[room])
        # each card with its token by index: compiled, zip(..., strict=True) is a call to the
        # builtin and an iterator, where this is a native loop
        for k, card in enumerate(st.cards):
            self.take_card(card, st.card_tokens[k], _FOR_DRAW)

    def _play_statement(self, st: Statement) -> None:
        s = self.state
        if s.phase is _DRAWING:
            n = len(s.hand)
            raise self.fail("E208", f"the hand holds {n} card{'s' if n != 1 else ''}: draw to "
                            f"{s.ruleset.hand_size} before playing (R6)", 0)
        if s.phase is not _ACTING:
            raise self.fail("E202", self._expected(), 0)
        assert st.action is not None  # the parser gives every play statement its action
        self.play(st.action, st.action_token)
        if st.cards:
            self.take_card(st.cards[0], st.card_tokens[0], PURPOSE_OF_VERB[st.kind])

    def do_automa(self, st: Statement) -> None:
        s = self.state
        if s.phase is _ACTING:
            # the player may end the phase at any point of the action step (R6, R30): no
            # check to make, and only the reason (or an exhaustion's damage) to keep
            turn = s.turn
            if self.dead is None and not s.actions and len(s.hand) == s.ruleset.hand_size:
                self._note_dead_hand()
            self._record(apply_legal(s, _END_PHASE), turn, 0)
        if s.phase is not _AUTOMA_REVEAL and s.phase is not _OVER:
            if s.phase is _DRAWING and s.turn == self.turn_logged:
                raise self.fail("E208", self._expected(), 0)
            off = ("the bomber is off the map, so there is no Automa phase (rulebook: Enemy Phase); "
                   if not s.is_on_map else "")
            raise self.fail("E202", off + self._expected(), 0)
        self.take_card(st.cards[0], 1, _FOR_AUTOMA)
        self.automa_card = st.cards[0]

    def _note_dead_hand(self) -> None:
        """A pass with a full hand: if no card of it can be played again (rules.dead_hand), the
        note says so once, at this turn's Automa line."""
        self.dead = dead_hand(self.state)
        if self.dead is not None:
            self.notes.append(Note(self.current.line, self.current.token(0).column, self.dead.rules,
                                   str(self.dead), self.state.cell))

    def do_reshuffle(self, st: Statement) -> None:
        s = self.state
        if s.draw_pile and not s.fresh_reshuffle:
            left = f"'reshuffle', but the draw pile still holds {len(s.draw_pile)} cards here"
            if self.unmarked is not None:
                raise self.fail("E209", f"{left}: {self._marker_too_late(*self.unmarked)}", 0)
            raise self.fail("E209", f"{left} (R36)", 0)
        self.unmarked = None
        self.meet_here()

    def _marker_too_late(self, met: Statement, index: int) -> str:
        """E209 for a marker written after the card that met the exhaustion (``met``, the card
        at its token ``index``): where the marker goes instead, in the form the log is written in."""
        k = met.card_tokens.index(index)
        card = card_text(met.cards[k])
        row = is_row(self._line_text(self.current.line))
        before = ""
        if met.kind == "draw":
            before, after = (" ".join(map(card_text, cards)) for cards in (met.cards[:k], met.cards[k:]))
            cell, where = "; ".join(p for p in (before, "reshuffle", after) if p), "the draw cell"
        else:
            cell = "reshuffle; " + (play_text(met) if met.kind in PLAY_VERBS else
                                    met.canonical().split(" ", 1)[1])
            where = f"the {met.kind} cell" if met.kind in ("enter", "automa") else "its cell"
        if row:
            example = f"'{cell}' in {where}"
        elif before:
            example = f"'draw {before}', 'reshuffle' and 'draw {after}', a line each"
        else:
            example = f"a 'reshuffle' line just before '{met.canonical()}'"
        return (f"the deck ran out at line {met.line}, where {card} was the first card of the new "
                f"deck; put the marker before that card: {example} (R22, R36)")

    def _made(self, key: str) -> tuple[str, int | None]:
        """The rule that made the value a state line checks, and the line that applied it."""
        if key in ("at", "facing"):
            return self.position_from
        if key == "alt":
            return self.altitude_from
        met = len(self.ledger) - self.unmet_damage
        if key == "dmg" and met:
            return self.ledger[met - 1].rule, self.ledger[met - 1].line
        return ("R4", None) if key == "health" else ("R18", None)

    def do_state(self, st: Statement) -> None:
        s = self.state
        actual = {"at": s.cell, "facing": None if s.facing is None else str(s.facing),
                  "alt": s.altitude, "dmg": self.paper_damage, "health": s.health}
        art = False
        for key, value, index in st.checks:
            if key == "art":
                self._check_piece(cast("tuple[int, PieceCheck]", value), index)
                art = True
                continue
            if value != actual[key]:
                shown = lambda v: "off" if v is None else str(v)  # noqa: E731
                if key == "facing" and actual[key] is None:
                    msg = "the log gives a facing, but the bomber is off the map"
                elif key == "health":
                    msg = f"the log says dmg …/{value}, but the mission's health is {actual[key]} (R4)"
                else:
                    msg = f"the log says {key} {shown(value)}, the replay has {key} {shown(actual[key])}"
                # a state line checks the paper, it is no play: the state is the answer, and
                # the next draw is no alternative to it
                self.damage_mismatch = key == "dmg"  # the ledger says where the damage came from
                rule, since = self._made(key)
                if since is not None and key != "health":
                    msg += f" (as line {since} left it)"
                if key == "dmg" and self.unmet_damage and value == s.damage:
                    msg += (f"; the draw pile runs out at the next card, in turn {s.turn}: the "
                            "reshuffle's damage counts from there")
                    rule = "R22"
                raise self.fail("E213", msg, index, legal=False, rule=rule)
        if art:
            self.pieces.checked()

    def _check_piece(self, value: tuple[int, PieceCheck], index: int) -> None:
        """One piece of an ``art`` check (R43): E213 names it by number, where the rules put
        it, the Automa line that moved it last and its path since the last check."""
        number, said = value
        pieces = self.pieces
        if number > len(pieces):
            raise self.fail("E213", f"the art check names {number} artillery pieces; the mission has "
                            f"{len(pieces)} (R43)", index, legal=False, rule="R43")
        cell = pieces.cells[number - 1]
        by = pieces.moved_by[number - 1]
        if (said.destroyed or said.cell is not None) and (
                said.destroyed != (cell is None) or (cell is not None and said.cell != cell)):
            now = "destroyed" if cell is None else f"at {cell}"
            was = "destroyed" if said.destroyed else f"at {said.cell}"
            msg = f"artillery {number} is {now}, not {was}"
            if cell is None:
                gone = pieces.destroyed_by[number - 1]
                msg += f" (line {gone} destroyed it)" if gone is not None else ""
                rule = "R15" if gone is not None else "R43"
            else:
                msg += self._piece_history(number)
                rule = "R20" if by is not None else "R43"
            raise self.fail("E213", msg, index, legal=False, rule=rule)
        if said.suppressed and pieces.suppressed_in[number - 1] != self.turn_logged:
            raise self.fail("E213", f"{pieces.name(number)} was not suppressed in turn {self.turn_logged}: "
                            "an s marks a piece your guns suppressed this turn (R15, R21)", index,
                            legal=False, rule="R21")

    def _piece_history(self, number: int) -> str:
        """``; the Automa card 9D on line 12 moved it last; its path since the last check: B6 B5
        B4`` (or that it has not moved since setup placed it)."""
        pieces = self.pieces
        by = pieces.moved_by[number - 1]
        if by is None:
            return "; it has not moved since setup placed it there (R3, R43)"
        card = next((c.cards[0] for c in self.log.statements if c.line == by and c.kind == "automa"), None)
        text = f"; the Automa card {card} on line {by} moved it last" if card is not None else \
            f"; line {by} moved it last"
        path = pieces.paths[number - 1]
        if len(path) > 1:
            text += f"; its path since the last check: {' → '.join(map(str, path))}"
        return text


_PLAYS: Final = frozenset(PLAY_VERBS)  # the keywords of the plays: walk hands them to _play_statement
# The module's constants are Final: compiled, a Final global is a C static, any other a
# lookup in the module's dict at every use (why: rules.state)
_ANY_TURN: Final = frozenset({"turn", "state", "reshuffle"})  # may stand before their turn line
# Enum members read on every statement, bound once (why: rules.state)
_OVER: Final = Phase.OVER
_ACTING: Final = Phase.ACTIONS
_DRAWING: Final = Phase.DRAW
_ENTRY_REVEAL: Final = Phase.ENTRY_REVEAL
_ENTRY_COLUMN: Final = Phase.ENTRY_COLUMN
_AUTOMA_REVEAL: Final = Phase.AUTOMA_REVEAL
_FOR_ENTRY: Final = CardPurpose.ENTRY
_FOR_DRAW: Final = CardPurpose.DRAW
_FOR_AUTOMA: Final = CardPurpose.AUTOMA
_PILE_WORDS: Final[dict[str | None, str]] = {"hand": "in the hand", "discard pile": "on the discard pile",
                                             "in play": "being played"}
_END_PHASE: Final = EndPhase()
_OWN_CHECKS: Final = (CardPurpose.GUNS, CardPurpose.BOMB)
_GUNS_CELL: Final = 2  # the token of a guns statement's target cell: guns CARD CELL -> CARD
_SKIP_LOOKAHEAD: Final = 6  # how far down a challenge deck a misplaced card is looked for


def _played_joker(st: Statement) -> Card | None:
    """The declared Joker a play statement put down first (``guns JK=6S …``), else None."""
    cards = getattr(st.action, "cards", ())  # (an entry column or the end of a phase has none)
    return cards[0] if cards and cards[0].is_joker else None


def _same_card(token: str, card: Card) -> bool:
    try:
        return Card.parse(token).physical == card
    except NotationError:  # a step word or an arrow is not this card
        return False

