"""The table companion's core: one mission held on the engine while the player plays on paper.

A :class:`Session` takes one line at a time (a statement in the log's notation, or a
shorthand of one it offered) and returns a :class:`Reply`: the log lines it wrote, what to do
on paper, or the verifier's refusal (:class:`~log.messages.LogError`, the same code and
message ``bgrid verify`` gives). It does no I/O: the faces (terminal, web) show the reply and
append ``reply.written`` to the log file, which is the save file; :meth:`Session.resume`
replays such a file.

Every statement goes through the verifier's own reader (``parse_log``) and its replay
(``Replay.step``), so what the companion accepts the verifier accepts, and a refusal is the
verifier's. Beside the player's statements the session writes the lines a player need not
type: ``turn N`` (when the next statement needs it), the ``state … art …`` check at each
turn's end, the ``reshuffle`` marker where the deck ran out, and the ``none`` statement that
ends a mission at an exhaustion (R36).

Draws: with a challenge deck (R25) the session knows every card. Blind (the default) it
offers ``draw``, ``automa``, ``bomb 7H`` … and reveals the card as the statement is made;
open, it offers the whole statements with their cards. With the player's own deck the
player types each card and a card already seen, or not in the deck, is refused (E205).

Undo goes back one statement (with the lines written for it), draws and reshuffles
included: the session keeps the replay as it was before each statement.

A dead hand (``rules.dead_hand``: a full hand no card of which can be played again) is told
at the action step it is met, and ``play out`` writes the forced turns to the end in one
input, each turn's statements as one by one (a pass, the Automa card, the state check); an
undo takes the whole run back. With an own deck the player gives the Automa cards turned up,
in order: ``play out 4C 9D JH``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..challenges.mission import Mission
from ..rules.artillery_pieces import ArtilleryPieces
from ..rules.actions import Action, Altitude, Bomb, EndPhase, EnterColumn, Guns, Move, Resupply, Throttle
from ..rules.board import COLUMN_LETTERS
from ..rules.cards import Card, parse_cards
from ..rules.dead_hand import DeadHand, dead_hand
from ..rules.engine import apply, chance_outcomes, legal_actions_by_kind, reveal, score
from ..rules.errors import IllegalActionError, NotationError
from ..rules.events import Drew, Event, Reshuffled, Revealed
from ..rules.ruleset import Ruleset
from ..rules.state import CardPurpose, GameState, Phase
from ..log.lexer import log_lines
from ..log.reader import parse_log, read_header, read_statement
from ..log.row_reader import is_row, play_with_verb
from ..log.words import VERB_OF_PURPOSE
from ..verifier.map_source import mission_source
from ..log.messages import LogError, cites
from ..verifier.replay import Replay
from ..log.notation import Header, ParsedLog, PieceCheck, Statement
from .paper import cards_text, paper_steps

#: The groups of offers, in the order a turn meets them.
GROUPS = ("entry", "draw", "resupply", "first action", "second action", "Automa")
_TAKES_CARD = frozenset({"enter", "draw", "resupply", "guns", "bomb", "automa"})
_BOOKKEEPING = frozenset({"turn", "state", "reshuffle"})  # lines the session writes itself too


@dataclass(frozen=True)
class Offer:
    """One legal statement, as the player would type it. ``text``: what is shown and typed
    (blind: without the card the deck will give); ``full``: the statement as the log will
    write it, when the session knows it (a challenge deck), else None (the player adds the
    card: ``stem`` is what comes before it)."""

    group: str
    text: str
    full: str | None = None
    action: Action | None = None


@dataclass
class Reply:
    """What one input did: the log lines written (in order), the steps on paper, or the
    refusal (then nothing was written and the game is as before)."""

    written: list[str] = field(default_factory=list)
    said: list[str] = field(default_factory=list)
    error: LogError | None = None
    note: str | None = None  # a remark that is neither a step nor an error ("undone: …")

    @property
    def ok(self) -> bool:
        return self.error is None

    def one_line(self) -> str:
        """The reply on one line (the scripted face prints one a line)."""
        if self.error is not None:
            return refusal_text(self.error)
        parts = ([self.note] if self.note else []) + self.said
        if not parts and self.written:
            parts = ["ok: " + " | ".join(self.written)]
        return "; ".join(parts) or "ok"


def refusal_text(error: LogError) -> str:
    """A refusal on one line: the verifier's code, name, message and rule (as ``bgrid verify``
    prints them, without the line and column of a file)."""
    cited = "" if cites(error.message, error.rule) else f" ({error.rule})"
    return f"error {error.code} {error.name}: {error.message}{cited}"


@dataclass
class _Unit:
    """One accepted input: the written line count and the pending entry card just before it
    (the replay is rebuilt from the lines: :meth:`Session._restore`)."""

    lines: int
    pending: Card | None
    kinds: tuple[str, ...]


def _automa_line(card: Card | None) -> str:
    """``automa 4C`` (``automa none`` where the deck could not give the card, R36), in the
    log's one spelling."""
    return Statement("automa", 0, (), cards=(card,)).canonical()


class Session:
    """One mission at the table. Build with :meth:`start` (a header) or :meth:`resume` (a log)."""

    def __init__(self, header: Header, mission: Mission, *, open_deck: bool = False) -> None:
        self.header = header
        self.header.claim = None
        self.mission = mission
        self.open_deck = open_deck
        self.body: list[str] = []  # the body lines written, in order
        self.log = ParsedLog(header, [], [])
        self.replay = Replay(self.log, mission)
        self.pending_entry: Card | None = None  # a face card or Joker revealed, its column to choose
        self._units: list[_Unit] = []
        self._offered: tuple[tuple, list[Offer]] | None = None  # offers() of one point of the game
        self._dead: tuple[tuple, DeadHand | None] | None = None  # dead of one point of the game

    # -- building --------------------------------------------------------------------------
    @classmethod
    def start(cls, header_text: str, *, open_deck: bool = False,
              rulesets: Mapping[str, Ruleset] | None = None) -> Session:
        """A new mission from header lines (``bgrid-log: 1`` and a map source …).
        Raises :class:`LogError` for a header the verifier refuses (E1xx). ``rulesets``: the
        rulesets the caller holds besides the shipped ones (a variant), by name."""
        header, body_start = read_header(header_text, rulesets)
        if body_start < len(log_lines(header_text)[0]):
            raise ValueError("Session.start takes the header alone; Session.resume takes a whole log")
        return cls._of(header, header_text, open_deck, rulesets)

    @classmethod
    def _of(cls, header: Header, text: str, open_deck: bool,
            rulesets: Mapping[str, Ruleset] | None) -> Session:
        lines, _ = log_lines(text)
        mission = mission_source(ParsedLog(header, [], lines), rulesets=rulesets)
        return cls(header, mission, open_deck=open_deck)

    @classmethod
    def resume(cls, text: str, *, open_deck: bool = False,
               rulesets: Mapping[str, Ruleset] | None = None) -> tuple[Session, int]:
        """The session a log file holds: its header, then each body line replayed as if typed
        (a body in the row form: its statements). Returns the session and the number of lines
        it could not take at the end (a line cut short by a crash); raises :class:`LogError`
        for any other refused line."""
        header, body_start = read_header(text, rulesets)
        session = cls._of(header, text, open_deck, rulesets)
        body = log_lines(text)[0][body_start:]
        if any(is_row(line.split("#", 1)[0]) for line in body):
            # rows are read whole, as the verifier reads them (a torn row is refused)
            body = [st.canonical() for st in parse_log(text, rulesets=rulesets).statements]
            torn = 0
        else:
            torn = 0 if text.endswith("\n") or not body or not body[-1] else 1
        for i, line in enumerate(body):
            reply = session.submit(line)
            if reply.error is not None:
                if i == len(body) - 1 and torn:
                    return session, 1
                raise reply.error
        return session, 0

    # -- reading ---------------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        return self.replay.state

    @property
    def art(self) -> ArtilleryPieces:
        """The artillery pieces by number (R43), as the replay follows them."""
        return self.replay.pieces

    @property
    def turn(self) -> int:
        """The turn the next statement belongs to (after an Automa card: the next turn)."""
        return self.state.turn

    @property
    def unmet_damage(self) -> int | None:
        """The damage of an exhaustion the engine met at the next card, which the paper meets
        only when that card is taken (R22), or None when the paper is not behind."""
        return self.replay.unmet_damage if self.replay.unmet else None

    @property
    def is_over(self) -> bool:
        return self.state.is_over and self.replay.unwritten_end() is None

    def header_lines(self) -> list[str]:
        """The header as the log writes it, with the claim once the mission is over (R38)."""
        if self.is_over:
            self.header.claim = (str(self.state.outcome), score(self.state).total)
        else:
            self.header.claim = None
        return self.header.canonical_lines()

    def log_text(self) -> str:
        """The whole log: header, a blank line, the body (a blank line before each turn)."""
        return "\n".join(self._file_lines()) + "\n"

    def _file_lines(self, body: list[str] | None = None) -> list[str]:
        """The log's lines as the file holds them, with ``body`` (default: the body written)."""
        out = self.header_lines() + [""]
        for text in self.body if body is None else body:
            if text.startswith("turn ") and len(out) > len(self.header.canonical_lines()) + 1:
                out.append("")
            out.append(text)
        return out

    def recalled_lines(self) -> list[str]:
        """The player's statements in the log so far, oldest first: what the Up key recalls
        when a log is resumed (the lines typed then are gone, the statements they made are
        not). The lines the session writes itself (``turn``, the ``state`` check, the
        ``reshuffle`` marker) are left out: the player never needs to type them."""
        return [text for text in self.body if text.split(" ", 1)[0] not in _BOOKKEEPING]

    @property
    def score(self) -> int:
        """The score so far (R24)."""
        return score(self.state).total

    def result(self) -> str:
        """``victory 12 (…)`` once over, else where the mission stands."""
        s = self.state
        if not self.is_over:
            return s.describe()
        total = score(s)
        cause = "all bunkers destroyed" if s.cause is None else str(s.cause)
        return f"{s.outcome} ({cause}), score {total.total} ({total.breakdown()})"

    def offers(self) -> list[Offer]:
        """The legal statements now, grouped as a player thinks (:data:`GROUPS`)."""
        key = (id(self.replay), len(self.body), self.pending_entry)
        if self._offered is None or self._offered[0] != key:
            self._offered = (key, self._offers())
        return list(self._offered[1])

    def _offers(self) -> list[Offer]:
        s = self.state
        if self.is_over:
            return []
        if s.is_over:  # ended for want of a card: the statement that needed it writes none (R36)
            kind = _owed(s)
            full = f"{kind} none"
            return [Offer({"enter": "entry", "draw": "draw"}.get(kind, "Automa"),
                          kind if s.challenge and not self.open_deck else full, full)]
        if self.pending_entry is not None:
            card = self.pending_entry
            return [Offer("entry", f"enter {card} {c}", f"enter {card} {c}", EnterColumn(i))
                    for i, c in enumerate(COLUMN_LETTERS)]
        purpose = s.card_purpose
        if purpose is CardPurpose.ENTRY:
            return [self._card_offer("entry", "enter", s)]
        if purpose is CardPurpose.AUTOMA:  # the player phase ended by itself (R6, R11)
            return [self._card_offer("Automa", "automa", s)]
        if purpose is CardPurpose.DRAW:
            if not s.challenge:
                return [Offer("draw", "draw")]
            plan = _draw_plan(s)
            full = " / ".join("draw " + cards_text(seg) for seg in plan)
            return [Offer("draw", full if self.open_deck else "draw", full)]
        if s.phase is not Phase.ACTIONS:
            return []
        out: list[Offer] = []
        if self.dead is not None:
            out.append(self._play_out_offer())
        action_group = "first action" if s.actions == 0 else "second action"
        for actions in legal_actions_by_kind(s).values():
            for action in actions:
                if isinstance(action, Resupply):
                    out.append(self._play_offer("resupply", action, s))
                elif isinstance(action, EndPhase):
                    out.append(self._card_offer("Automa", "automa", s, action))
                elif isinstance(action, (Guns, Bomb)):
                    out.append(self._play_offer(action_group, action, s))
                elif isinstance(action, (Move, Altitude, Throttle)):
                    out.append(Offer(action_group, str(action), str(action), action))
        order = {g: i for i, g in enumerate(GROUPS)}
        return sorted(out, key=lambda o: order[o.group])

    @property
    def dead(self) -> DeadHand | None:
        """The dead hand at this action step (``rules.dead_hand``), or None; its turn is the
        first turn it was dead in, when the replay has already noted it."""
        key = (id(self.replay), len(self.body), self.pending_entry)
        if self._dead is None or self._dead[0] != key:
            s = self.state
            found = None
            if not s.actions and s.phase is Phase.ACTIONS and len(s.hand) == s.ruleset.hand_size:
                found = dead_hand(s)
            if found is not None and self.replay.dead is not None:
                found = DeadHand(self.replay.dead.turn, found.hand, found.reasons)
            self._dead = (key, found)
        return self._dead[1]

    def _play_out_offer(self) -> Offer:
        """``play out``: the forced turns to the end, a pass and an Automa card each; with a
        challenge deck the statements are known (R25, R26), with an own deck the player adds
        the cards turned up."""
        if not self.state.challenge:
            return Offer("Automa", "play out")
        probe = self.state.copy()
        lines: list[str] = []
        while not probe.is_over:
            if probe.phase is Phase.ACTIONS:
                apply(probe, EndPhase())
            if probe.is_over:  # the Automa card the deck could not give (R36)
                lines.append(_automa_line(None))
                break
            assert probe.card_purpose is CardPurpose.AUTOMA  # a dead hand draws nothing (R30)
            card = chance_outcomes(probe)[0]
            lines.append(_automa_line(card))
            reveal(probe, card)
        return Offer("Automa", "play out", " / ".join(lines))

    def _dead_words(self) -> str:
        dead = self.dead
        assert dead is not None
        how = ("'play out' plays the forced turns to the end" if self.state.challenge else
               "'play out' and the Automa cards you turn up, in order ('play out 4C 9D JH'), "
               "plays them")
        return (f"dead hand from turn {dead.turn}: no card in hand can be played again, whatever "
                f"the Automa cards; {how} (undo takes it back whole); why: {dead.why()}; the "
                "mission can only end by damage or fuel")

    def completions(self, typed: str) -> list[str]:
        """The statements that complete ``typed`` (case and spacing as a player types them),
        in the order of :meth:`offers`; with an own deck, a statement that waits for a card is
        completed one card at a time (``draw 5S`` → ``draw 5S 8H`` …)."""
        said = " ".join(typed.split()).lower() + (" " if typed[-1:].isspace() and typed.strip() else "")
        texts = [o.text for o in self.offers()]
        if not self.state.challenge:
            base, _, partial = said.rpartition(" ")
            stems = {o.text.lower() for o in self.offers() if o.full is None}
            words = base.split()
            drawn = len(words) - 1 if words[:1] == ["draw"] else 0
            room = self.state.ruleset.hand_size - len(self.state.hand)
            if base in stems or (words[:1] == ["draw"] and "draw" in stems and 0 < drawn < room):
                shown = " ".join(typed.split()[:len(words)])
                texts += [f"{shown} {card}" for card in self.card_choices()
                          if str(card).lower().startswith(partial) and str(card).lower() not in words[1:]]
        return [t for t in texts if t.lower().startswith(said) and t.lower() != said]

    def card_choices(self) -> list[Card]:
        """The cards that could come next from an own deck (for completion), else []."""
        s = self.state
        if s.challenge:
            return []
        return sorted(set(s.draw_pile or s.discard), key=str)

    def _card_offer(self, group: str, word: str, s: GameState, action: Action | None = None) -> Offer:
        """``enter``/``automa``: the card the deck gives (challenge) or the player types."""
        probe = s.copy()
        if action is not None:
            apply(probe, action)
        return self._known(group, word, probe, action)

    def _play_offer(self, group: str, action: Action, s: GameState) -> Offer:
        """A play that takes a card: resupply, guns, bomb."""
        probe = s.copy()
        apply(probe, action)
        return self._known(group, f"{action} ->", probe, action)

    def _known(self, group: str, stem: str, probe: GameState, action: Action | None) -> Offer:
        """The offer of a statement whose card comes from ``probe`` (the game once the play is
        made): a challenge deck's card; ``none`` when the exhaustion there ends the mission
        (R36, own deck too); else the player types the card after ``stem``."""
        short = stem.removesuffix(" ->")
        if probe.card_purpose is None:  # the mission ended for want of this card
            full = f"{stem} none"
            return Offer(group, full, full, action)
        if not probe.challenge:
            return Offer(group, stem, None, action)
        full = f"{stem} {chance_outcomes(probe)[0]}"
        return Offer(group, full if self.open_deck else short, full, action)

    # -- input -----------------------------------------------------------------------------
    def submit(self, text: str) -> Reply:
        """One typed line: a statement, a shorthand the session offered, a bare column
        after a face-card entry, ``undo``, a comment or a blank line."""
        line = text.strip()
        word = line.split("#", 1)[0].strip()
        if not word:
            return Reply(note="comment" if line else "blank")
        if word.lower() == "undo":
            return self.undo()
        if word.lower().split()[:2] == ["play", "out"]:
            return self._play_out(word.split()[2:], line)
        automa = self._bare_automa(word)
        statements = [automa] if automa is not None else self._expand(word)
        if isinstance(statements, Reply):
            return statements
        reply = self._take(statements, line)
        if reply.ok and automa is not None:
            reply.note = f"'{word}' read as the Automa card: {automa}"
        if reply.ok and self.dead is not None:
            reply.said.append(self._dead_words())
        return reply

    def _bare_automa(self, word: str) -> str | None:
        """``automa CARD`` for a lone card typed where the Automa card may come (``9C``): a card
        not in the hand is no play, and the Automa card is the one card the turn can take
        there (the replay checks it as one: the challenge deck's card, an own deck's unseen
        card). None for anything else: the line is read as typed, a play by its rank."""
        s = self.state
        if self.pending_entry is not None or len(word.split()) != 1 or s.is_over:
            return None
        try:
            card = Card.parse(word)
        except NotationError:
            return None
        if s.phase is Phase.ACTIONS:
            if card in s.hand:
                return None
            probe = s.copy()
            apply(probe, EndPhase())
        elif s.card_purpose is CardPurpose.AUTOMA:
            probe = s
        else:
            return None
        if probe.card_purpose is not CardPurpose.AUTOMA:
            return None
        return _automa_line(card)

    def _play_out(self, cards: list[str], typed: str) -> Reply:
        """``play out`` (a dead hand): the forced turns as one input (see the module)."""
        if self.dead is None:
            return Reply(note="nothing to play out: 'play out' is for a dead hand, and a card of "
                         "this hand can still be played (or the turn is not at its action step)")
        offer = self._play_out_offer()
        if offer.full is not None:
            if cards:
                return Reply(note="'play out' takes no cards with a challenge deck: the deck gives them")
            lines = offer.full.split(" / ")
        else:
            try:
                lines = [_automa_line(card) for card in parse_cards(" ".join(cards))]
            except NotationError as exc:
                return Reply(note=f"play out: {exc}")
            if not lines:
                return Reply(note="play out: give the Automa cards you turn up, in order: "
                             "'play out 4C 9D JH'")
        first = self.turn
        reply = self._take(lines, typed)
        if not reply.ok:
            return reply
        last = self.replay.turn_logged if self.state.is_over else self.state.turn - 1
        ended = [t for t in reply.said if t.startswith(("mission over", "the deck ran out"))]
        reply.said = [f"played out turns {first}-{last}: a pass and an Automa card each "
                      f"({len(lines)} Automa line{'s' if len(lines) != 1 else ''} written)"] + ended
        if not self.state.is_over and self.dead is not None:
            reply.said.append(self._dead_words())
        return reply

    def _expand(self, word: str) -> list[str] | Reply:
        """The statement lines an input stands for."""
        said = " ".join(word.split()).lower()
        if self.pending_entry is not None:
            if len(said) == 1 and said.upper() in COLUMN_LETTERS:
                return [f"enter {self.pending_entry} {said.upper()}"]
            return [word]
        word = play_with_verb(word, self.state.ruleset.name)  # '5C FFLF', as on the sheet
        said = " ".join(word.split()).lower()
        for offer in self.offers():
            if offer.text.lower() == said and offer.full is not None:
                return offer.full.split(" / ")
        if said == "draw" and self.state.challenge and self.state.card_purpose is CardPurpose.DRAW:
            return [f"draw {cards_text(seg)}" for seg in _draw_plan(self.state)]
        if self.state.challenge:
            return [self._with_card(word, said)]
        return [word]

    def _with_card(self, word: str, said: str) -> str:
        """A challenge deck's shorthand that is no offer now (``bomb 8S`` with no target,
        ``automa`` before the draw): the statement with the card the deck would give, so the
        verifier's replay says what is wrong with the play itself."""
        words = said.split()
        s = self.state
        top = str(s.draw_pile[0]) if s.draw_pile else "none"
        if words[:1] in (["enter"], ["draw"], ["automa"]) and len(words) == 1:
            return f"{word} {top}"
        if words[:1] in (["guns"], ["bomb"], ["resupply"]) and "->" not in said and "→" not in said:
            try:
                st = self._parse(f"{word} -> {top}")
            except LogError:
                return word  # the reader's own complaint about the line as typed
            probe = s.copy()
            try:
                if st is not None and st.action is not None and not s.is_over:
                    apply(probe, st.action)
                    outcomes = chance_outcomes(probe)
                    top = str(outcomes[0]) if outcomes else "none"
            except IllegalActionError:
                pass  # the replay refuses the play before it looks at the card
            return f"{word} -> {top}"
        return word

    def _take(self, lines: list[str], typed: str) -> Reply:
        """Replay ``lines`` as one input: all of them, or none (the state as before)."""
        unit = _Unit(len(self.body), self.pending_entry, ())
        reply = Reply()
        kinds: list[str] = []
        try:
            for text in lines:
                kinds.extend(self._one(text, reply))
        except LogError as exc:
            # the engine changes nothing for a refused play or card, but a line may have
            # taken some cards, or a play and not its card, before the refusal
            self._restore(unit, changed=bool(reply.written or self.replay.last_events))
            return Reply(error=exc)
        if reply.written:
            unit.kinds = tuple(kinds)
            self._units.append(unit)
        elif not reply.said and not reply.note:
            reply.note = "already written"
        return reply

    def _one(self, text: str, reply: Reply) -> list[str]:
        """One statement line: parse it as the verifier does, write what it needs before it,
        replay it, write what follows it. Returns the kinds of the lines written."""
        st = self._parse(text)
        if st is None:
            return []
        kinds: list[str] = []
        s = self.state
        kind = st.kind
        if self.pending_entry is not None and kind != "enter":
            # the revealed face card still waits for its column: the verifier's own E113
            self._write(f"enter {self.pending_entry}", reply)
        if kind in ("state", "reshuffle", "turn") and self.body and st.canonical() == self.body[-1]:
            return []  # the session wrote this line itself a moment ago
        owing = not s.is_over or self.replay.unwritten_end() is not None
        if owing and s.turn != self.replay.turn_logged and kind not in _BOOKKEEPING:
            kinds += self._write(Statement("turn", 0, (), number=s.turn).canonical(), reply)
        # the marker where the paper meets the exhaustion: before the statement that takes the
        # card the draw pile lacked (R22), even when the engine met it in an earlier call
        ahead = any(type(ev) is Reshuffled for ev in self.replay.unmet)
        if (kind in _TAKES_CARD and (ahead or (not s.is_over and not s.draw_pile))
                and not (self.body and self.body[-1] == "reshuffle")):
            kinds += self._write("reshuffle", reply)
        if self.replay.owes_column(st):
            self.pending_entry = st.cards[0]
            reply.said.append(f"entry card: {st.cards[0]}: choose the entry column A-J "
                              f"({s.ruleset.face_entry_damage} damage, R13), e.g. 'enter "
                              f"{st.cards[0]} C' or just 'C'")
            return kinds
        kinds += self._write(st.canonical(), reply, st)
        self.pending_entry = None
        if self.state.is_over and not self.is_over:
            reply.said.append(f"the deck ran out for good: write '{_owed(self.state)} none' (R36)")
        ended_turn = self.state.turn != self.replay.turn_logged or self.state.is_over
        if ended_turn and kind not in _BOOKKEEPING and not (self.body and self.body[-1].startswith("state")):
            kinds += self._write(self.state_line(), reply)
        if self.state.is_over and self.is_over:
            reply.said.append(f"mission over: {self.result()}")
        return kinds

    def _parse(self, text: str, number: int | None = None) -> Statement | None:
        """``text`` read by the verifier's reader as line ``number`` of the log (the next
        line by default), with the mission's own card table."""
        if number is None:
            number = len(self._file_lines(self.body + [text]))
        return read_statement(text, self.mission.ruleset, number)

    def _write(self, text: str, reply: Reply, st: Statement | None = None) -> list[str]:
        """Replay one statement and write it: the line is in the body only once accepted."""
        if st is None:
            st = self._parse(text)
            assert st is not None  # the session writes statements only
        before = self.art.copy()  # the pieces by number as the statement finds them (R43)
        events = self.replay.step(st, text)
        self.body.append(text)
        reply.written.append(text)
        if events:
            stays_out, new_pile = _exhaustion(st, events, self.state)
            shown = new_pile if self.open_deck else None  # blind: the order is the rest of the game
            reply.said.extend(paper_steps(events, before, self.state, stays_out, shown))
        return [st.kind]

    def state_line(self) -> str:
        """The ``state`` check of the paper at this moment, in the notation layer's spelling:
        ``state at C4 facing S alt 3 dmg 2 art C9 B4 x G3`` (each piece by its
        number, R43; ``x`` once destroyed)."""
        s = self.state
        checks: list[tuple[str, object, int]] = [("at", s.cell, 0)]
        if s.cell is not None:
            checks.append(("facing", str(s.facing), 0))
        checks += [("alt", s.altitude, 0), ("dmg", self.replay.paper_damage, 0)]
        checks += [("art", (n, PieceCheck(cell, destroyed=cell is None)), 0)
                   for n, cell in enumerate(self.art.cells, start=1)]
        return Statement("state", 0, (), checks=tuple(checks)).canonical()

    # -- undo ------------------------------------------------------------------------------
    def undo(self) -> Reply:
        """Back one statement: the replay, the pieces and the log as they were before it.
        Lines the session wrote on its own (a state check, a turn line) go with it."""
        if not self._units:
            return Reply(note="nothing to undo")
        taken: list[str] = []
        while self._units and set(self._units[-1].kinds) <= _BOOKKEEPING:
            taken += self._pop()
        if self._units:
            taken += self._pop()
        while self._units and set(self._units[-1].kinds) == {"turn"}:
            taken += self._pop()
        return Reply(note="undone: " + " | ".join(taken))

    def _pop(self) -> list[str]:
        unit = self._units.pop()
        gone = self.body[unit.lines:]
        self._restore(unit)
        return gone

    def _restore(self, unit: _Unit, changed: bool = True) -> None:
        """Back to the moment before ``unit``: the body cut there and, when the game may have
        changed since, the replay rebuilt by replaying the body from the start (a few
        milliseconds for a long mission; the engine is deterministic, so the state is equal)."""
        self.pending_entry = unit.pending
        del self.body[unit.lines:]
        if not changed:
            return
        self.replay = Replay(self.log, self.mission)  # the header has no claim before the end
        numbers = [i for i, line in enumerate(self._file_lines(), 1) if line][len(self.header_lines()):]
        for number, text in zip(numbers, self.body, strict=True):
            st = self._parse(text, number)
            assert st is not None  # the body holds statements only
            self.replay.step(st, text)


def _owed(state: GameState) -> str:
    """The keyword of the statement that needed the card the mission ended for (R36)."""
    assert state.end_card_purpose is not None
    purpose = state.end_card_purpose
    return VERB_OF_PURPOSE[purpose] if purpose in (CardPurpose.ENTRY, CardPurpose.DRAW) else "automa"


def _draw_plan(state: GameState) -> list[list[Card | None]]:
    """The draw lines a challenge deck gives now: one, or two split by the reshuffle (the
    marker between them), the last ending with ``none`` when that exhaustion ends the mission."""
    probe = state.copy()
    plan: list[list[Card | None]] = [[]]
    while probe.card_purpose is CardPurpose.DRAW and not probe.is_over:
        card = probe.draw_pile[0]
        reveal(probe, card)
        plan[-1].append(card)
        if probe.is_over and probe.end_card_purpose is CardPurpose.DRAW:
            plan[-1].append(None)
        elif probe.fresh_reshuffle and probe.card_purpose is CardPurpose.DRAW:
            plan.append([])
    if probe.is_over and probe.end_card_purpose is CardPurpose.DRAW and plan[-1] == []:
        plan[-1].append(None)
    return [seg for seg in plan if seg]


def _exhaustion(st: Statement, events: list[Event],
                state: GameState) -> tuple[tuple[Card, ...], list[Card] | None]:
    """At an exhaustion in these events: the card(s) being resolved, which stay out of the
    new pile (R35), and for a challenge deck the new pile top first (R26): the cards taken
    from it since, then what is left."""
    at = next((i for i, ev in enumerate(events) if type(ev) is Reshuffled), None)
    if at is None:
        return (), None
    stays_out: tuple[Card, ...] = ()
    if isinstance(st.action, (Guns, Bomb)):
        stays_out = (st.action.card.physical,)
    taken = [ev.card for ev in events[at:] if isinstance(ev, (Drew, Revealed))]
    return stays_out, taken + list(state.draw_pile)
