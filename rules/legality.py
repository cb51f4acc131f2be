"""Which plays are legal: :func:`check_action` (the rule a play breaks, in a sentence) and
:func:`legal_actions` (every distinct legal decision). ``rules.engine`` re-exports both and
plays what they allow; this module never changes a state.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from .actions import Action, Altitude, Bomb, EndPhase, EnterColumn, Guns, Move, Resupply, Throttle
from .board import BETWEEN, SIZE, Cell, Facing
from .cards import JOKER, JOKER_RANK, RANK_LETTERS, Card, Suit
from .combat import bomb_target, can_fire_guns, guns_targets, is_guns_target
from .errors import IllegalActionError
from .movement import Trace, can_move, reachable, trace_steps
from .notation import count_word
from .ruleset import CardKind, Play, Ruleset
from .state import GameState, Outcome, Phase

# Enum members read on every call, bound once (why: rules.state).
_OVER: Final = Phase.OVER
_ENTRY_COLUMN: Final = Phase.ENTRY_COLUMN
_ACTING: Final = Phase.ACTIONS
_MOVE: Final = Play.MOVE
_ALTITUDE: Final = Play.ALTITUDE
_GUNS: Final = Play.GUNS
_BOMB: Final = Play.BOMB
_THROTTLE: Final = Play.THROTTLE
_RESUPPLY: Final = Play.RESUPPLY

#: code -> what it means. Stable: the verifier may map them to its own messages.
ERROR_CODES: Final = {
    "game-over": "the mission has ended; nothing more is played (R23)",
    "card-expected": "the game waits for a card (a chance outcome), not a play",
    "no-card-expected": "the game waits for a player decision, not a card",
    "wrong-card": "challenge deck: not the next card of the deck (R25, R26)",
    "card-not-in-deck": "own deck: the card is not in the draw pile (already drawn this pass, "
                        "or not in the discard pile at the reshuffle) (R22)",
    "declared-reveal": "a drawn or revealed card is a plain card; only a played Joker is declared",
    "not-in-hand": "the card played is not in the hand",
    "wrong-phase": "this play is not possible at this point of the turn (R6, R13)",
    "wrong-card-kind": "the card cannot make this kind of play",
    "no-actions-left": "the phase's actions have all been played (R6)",
    "no-forward-step": "a movement must make at least one forward step that happens (R9, R31)",
    "too-many-steps": "the steps cost more points than the card gives (R9)",
    "step-after-end": "no step may follow an exit or a blocked step (R9, R31)",
    "altitude-limit": "altitude must stay within 0 and the ruleset's top altitude (R7)",
    "guns-altitude": "guns need an altitude up to the ruleset's guns altitude (R15)",
    "guns-target": "no artillery there in line of sight within the guns' range (R15)",
    "bomb-target": "no target in the bomber's cell (R16)",
    "throttle-not-first": "a Throttle is only the first action of a player phase (R11)",
    "throttle-pair": "a Throttle pairs with one movement or altitude card (R11)",
    "bad-declaration": "a played Joker must be declared as a card, not a Joker (R12)",
    "bad-column": "the entry column is A-J",
}

def altitude_delta(ruleset: Ruleset, acting: Card, bonus: int = 0) -> int:
    """The card table's points (10/J: 1, Q: 2 in standard-1) plus the Throttle bonus; red
    climbs, black descends (R7, R11)."""
    size = ruleset.card_kinds[acting.rank].points + bonus
    return size if acting.is_red else -size


def trace_move(state: GameState, move: Move, bonus: int = 0) -> Trace:
    clear = state.altitude >= state.ruleset.mountain_clearance
    points = state.ruleset.card_kinds[move.card.acting.rank].points + bonus
    cell, facing = state.cell, state.facing
    assert cell is not None and facing is not None  # the player moves only on the map (R6)
    return _traced(cell, facing, move.steps, points, state.mountains, clear,
                   state.ruleset.mountain_clearance)


# A play is checked, then played: the same step list from the same place is traced twice in a
# row. A trace is a value (and an illegal one raises each time, never remembered).
_traced: Final = lru_cache(maxsize=256)(trace_steps)


# -- legality ---------------------------------------------------------------------------

def check_action(state: GameState, action: Action) -> None:
    """Raise :class:`IllegalActionError` (rule, code, a sentence) if ``action`` is not legal
    now; return None if it is. Never changes the state."""
    phase = state.phase
    if phase is _OVER:
        raise IllegalActionError(f"the mission is over ({end_words(state)}); nothing more is "
                                 "played (R23)", "R23", "game-over")
    purpose = state.card_purpose
    if purpose is not None:
        raise IllegalActionError(f"the game waits for the {purpose} card, not for a play",
                                 "R6", "card-expected")
    if phase is _ENTRY_COLUMN:
        if not isinstance(action, EnterColumn):
            raise IllegalActionError(
                f"{state.entry_card} was revealed for the entry: the player chooses the entry "
                "column first (R13)", "R13", "wrong-phase")
        if not 0 <= action.column < SIZE:
            raise IllegalActionError("the entry column is one of A-J (R13)", "R13", "bad-column")
        return
    if isinstance(action, EnterColumn):
        raise IllegalActionError("an entry column is chosen only after a face card or Joker is "
                                 "revealed for the entry (R13)", "R13", "wrong-phase")
    if isinstance(action, EndPhase):
        return
    if type(action) not in _PLAYS:
        raise IllegalActionError(f"'{action}' is not a play", "R7", "wrong-card-kind")
    if isinstance(action, Throttle) and not isinstance(action.paired, (Move, Altitude)):
        raise IllegalActionError("a Throttle pairs with a movement or altitude card (R11)",
                                 "R11", "throttle-pair")
    # The hand first: a card the player does not hold is the slip to name, whatever else is wrong.
    _check_cards(state, action.cards)
    most = state.ruleset.actions_per_turn
    if not isinstance(action, Resupply) and state.actions >= most:
        raise IllegalActionError(f"{count_word(most)} actions have been played this turn; '{action}' would "
                                 "be one more (R6)", "R6", "no-actions-left")
    # Each kind of play's own check: an isinstance chain, not a table of functions (compiled,
    # these are direct calls; a function from a table is called through Python's protocol).
    if isinstance(action, Move):
        _check_move(state, action)
    elif isinstance(action, Altitude):
        _check_altitude_action(state, action)
    elif isinstance(action, Guns):
        _check_guns(state, action)
    elif isinstance(action, Bomb):
        _check_bomb(state, action)
    elif isinstance(action, Throttle):
        _check_throttle(state, action)
    else:
        _check_resupply(state, action)


def _check_cards(state: GameState, cards: tuple[Card, ...]) -> None:
    """The cards are in the hand (a declared Joker as JK) and every Joker is declared (R12)."""
    for card in cards:
        if card.is_joker and card.declared is None:
            raise IllegalActionError("a played Joker must say what card it is, e.g. JK=7H (R12)",
                                     "R12", "bad-declaration", card=card)
        physical = card.physical
        need = sum(1 for c in cards if c.physical == physical)
        if state.hand.count(physical) < need:
            raise IllegalActionError(f"{physical} is not in the hand ({_hand_words(state)})", "R7",
                                     "not-in-hand", card=physical, pile=pile_of(state, physical))


def pile_of(state: GameState, card: Card) -> str | None:
    """Where the physical ``card`` is (one of ``rules.errors.PILES``), None if it is in no
    pile (a deck shorter than 54 cards); the hand first, then the discard pile, then the
    cards in play (a Joker can be in two of them)."""
    if card in state.hand:
        return "hand"
    if card in state.discard:
        return "discard pile"
    if card in state.in_play:
        return "in play"
    return "draw pile" if card in state.draw_pile else None


def _check_kind(state: GameState, card: Card, play: Play) -> None:
    """The card table says ``card`` (a Joker by its declaration) makes ``play``."""
    if state.ruleset.card_kinds[card.acting.rank].play is not play:
        raise IllegalActionError(f"{card} is not {state.ruleset.play_words(play)}", "R7",
                                 "wrong-card-kind")


def _check_altitude(state: GameState, card: Card, bonus: int = 0) -> None:
    new = state.altitude + altitude_delta(state.ruleset, card.acting, bonus)
    if not 0 <= new <= state.ruleset.max_altitude:
        raise IllegalActionError(
            f"{card} would take the altitude from {state.altitude} to {new}; altitude stays "
            f"within 0-{state.ruleset.max_altitude} and the colour fixes the direction, so it "
            "cannot be played (R7)", "R7", "altitude-limit")


def _check_move(state: GameState, action: Move, bonus: int = 0) -> None:
    _check_kind(state, action.card, _MOVE)
    trace_move(state, action, bonus)  # raises with R9/R31


def _check_altitude_action(state: GameState, action: Altitude) -> None:
    _check_kind(state, action.card, _ALTITUDE)
    _check_altitude(state, action.card)


def _check_guns(state: GameState, action: Guns) -> None:
    _check_kind(state, action.card, _GUNS)
    if not can_fire_guns(state):
        raise IllegalActionError(f"guns need altitude 0-{state.ruleset.guns_max_altitude}; the "
                                 f"bomber is at altitude {state.altitude} (R15)", "R15", "guns-altitude")
    target, cell = action.target, state.cell
    if is_guns_target(state, target):
        return
    between = None if cell is None else BETWEEN[cell][target]
    if target not in state.artillery:
        why = f"there is no artillery piece at {target}"
        if target in state.bunkers:
            why += " (guns have no effect on bunkers)"
    elif between is None:
        why = f"{target} is not in the bomber's row or column ({cell})"
    elif any(c in state.mountains for c in between):
        why = f"a mountain blocks the line of sight from {cell} to {target}"
    else:
        why = (f"{target} is {len(between) + 1} steps from {cell}; guns "
               f"reach {state.ruleset.guns_range}")
    raise IllegalActionError(f"guns cannot fire at {target}: {why} (R15)", "R15", "guns-target")


def _check_bomb(state: GameState, action: Bomb) -> None:
    _check_kind(state, action.card, _BOMB)
    if bomb_target(state) is None:
        raise IllegalActionError(f"there is no bunker or artillery piece at {state.cell}, below "
                                 "the bomber (R16)", "R16", "bomb-target")


def _check_throttle(state: GameState, action: Throttle) -> None:
    paired = action.paired
    _check_kind(state, action.card, _THROTTLE)
    if state.actions:
        raise IllegalActionError("a Throttle is played only as the first action of the turn "
                                 "(R11)", "R11", "throttle-not-first")
    bonus = state.ruleset.throttle_bonus
    if isinstance(paired, Move):
        _check_move(state, paired, bonus)
    else:
        _check_kind(state, paired.card, _ALTITUDE)
        _check_altitude(state, paired.card, bonus)


def _check_resupply(state: GameState, action: Resupply) -> None:
    _check_kind(state, action.card, _RESUPPLY)


#: The plays check_action checks, each by its own check.
_PLAYS: Final = frozenset({Move, Altitude, Guns, Bomb, Throttle, Resupply})


def legal_actions(state: GameState) -> list[Action]:
    """Every distinct legal player decision now (empty at a chance node or the end); the
    card table of the ruleset says what each card plays (standard-1 below).

    ``ENTRY_COLUMN``: ``EnterColumn`` for each column A–J. ``ACTIONS``: each playable card of
    the hand once per distinct effect: ``Move`` with one canonical (shortest) step string per
    distinct end (cell, facing, exited, blocked); ``Altitude``; ``Guns`` per legal target;
    ``Bomb``; ``Throttle`` pairs; ``Resupply``; always ``EndPhase``. Two cards of the same rank
    and suit are one card; cards of different suits stay distinct plays (they leave different
    decks behind). A Joker appears with one canonical declaration per distinct effect
    (``JK=5H`` for a movement — it covers every shorter one —, ``JK=10H``/``JK=10S``/``JK=QH``/
    ``JK=QS`` for altitude, ``JK=6H``, ``JK=7H``, ``JK=AH`` at altitude 3–5 only (below, an Ace
    bombs like a 7), ``JK=9H``, ``JK=KH``); :func:`check_action` accepts every other spelling.
    The order is that of :func:`legal_actions_by_kind`.
    """
    out: list = []
    for plays in legal_plays_by_kind(state).values():
        out.extend(plays.to_list() if type(plays) is _MovePlays else plays)
    return out


def legal_actions_by_kind(state: GameState) -> dict[str, list[Action]]:
    """:func:`legal_actions` grouped by kind, in this order: "enter", "move", "altitude",
    "guns", "bomb", "throttle", "resupply", "end"; a kind with no legal play is left out."""
    out = legal_plays_by_kind(state)
    for kind, plays in out.items():
        if type(plays) is not list:  # the shared tuples are copied: the caller owns the lists
            out[kind] = list(plays) if type(plays) is tuple else plays.to_list()
    return out


class _MovePlays:
    """The "move" or "throttle" plays, built only when read: ``len(plays)`` and ``plays[i]``
    build one play, ``to_list()`` all of them (from the caches). The random player reads one
    play of one kind, and building the others was most of its time.

    ``runs``: ``(nine, card, points, steps)``: the moves of ``card`` with ``points``, one per
    step list of :func:`~rules.movement.reachable` (``steps``), paired with ``nine`` in a
    Throttle unless it is None; ``steps`` None: the one play ``Throttle(nine, Altitude(card))``.
    """

    __slots__ = ("runs", "cell", "facing", "mountains")

    def __init__(self, runs: list, cell: Cell, facing: Facing, mountains: frozenset) -> None:
        self.runs, self.cell, self.facing, self.mountains = runs, cell, facing, mountains

    def __len__(self) -> int:
        return sum(1 if steps is None else len(steps) for _, _, _, steps in self.runs)

    def __getitem__(self, index: int) -> Action:
        if index >= 0:
            for nine, card, _, steps in self.runs:
                if steps is None:
                    if index == 0:
                        return Throttle(nine, Altitude(card))
                    index -= 1
                elif index < len(steps):
                    move = Move(card, steps[index])
                    return move if nine is None else Throttle(nine, move)
                else:
                    index -= len(steps)
        raise IndexError(index)

    def to_list(self) -> list[Action]:
        out: list = []
        where = (self.cell, self.facing)
        for nine, card, points, steps in self.runs:
            if steps is None:
                out.append(Throttle(nine, Altitude(card)))
            elif nine is None:
                out.extend(_move_list(card, *where, points, self.mountains))
            else:
                out.extend(_throttle_list(nine, card, *where, points, self.mountains))
        return out


def legal_plays_by_kind(state: GameState) -> dict:
    """:func:`legal_actions_by_kind` with "move" and "throttle" built only when read
    (:class:`_MovePlays`), "enter" and "end" as shared tuples, the others as lists: the same
    plays in the same order, read-only (the simulator's fast path)."""
    if state.phase is _ENTRY_COLUMN:
        return {"enter": _ENTER}
    if state.phase is not _ACTING:
        return {}
    hand = state.hand
    # Only the Joker can be in a hand twice (new_game allows no other repeat), so the
    # distinct cards are the non-Jokers plus JK once; no hashing needed.
    distinct = [c for c in hand if c.rank != JOKER_RANK]
    jokers = len(hand) - len(distinct)
    out: dict = {}
    kings = []
    rs = state.ruleset
    kinds = rs.card_kinds
    if state.actions < rs.actions_per_turn:
        cell, facing, altitude = state.cell, state.facing, state.altitude
        assert cell is not None and facing is not None  # actions are played on the map (R6)
        mountains = _NO_MOUNTAINS if altitude >= rs.mountain_clearance else state.mountains  # R9
        top = rs.max_altitude
        moves, altitudes, sixes, bombs, nines = [], [], [], [], []
        # One pass by the card table's play of the card as played: this is the simulator's
        # innermost loop.
        for c in (distinct + _joker_plays(rs).singles(state) if jokers else distinct):
            acting = c.declared or c  # only declared Jokers are rank 0 here
            kind = kinds[acting.rank]
            play = kind.play
            if play is _MOVE:
                steps = reachable(cell, facing, kind.points, mountains)
                if steps:
                    moves.append((None, c, kind.points, steps))
            elif play is _ALTITUDE:
                size = kind.points  # altitude_delta, inlined
                if 0 <= altitude + (size if acting.suit in _RED else -size) <= top:
                    altitudes.append(Altitude(c))
            elif play is _GUNS:
                sixes.append(c)
            elif play is _BOMB:
                bombs.append(c)
            elif play is _THROTTLE:
                nines.append(c)
            elif play is _RESUPPLY:
                kings.append(Resupply(c))
        if moves:
            out["move"] = _MovePlays(moves, cell, facing, mountains)
        if altitudes:
            out["altitude"] = altitudes
        if sixes:
            guns = [Guns(c, t) for t in guns_targets(state) for c in sixes]
            if guns:
                out["guns"] = guns
        if bombs and bomb_target(state) is not None:
            out["bomb"] = [Bomb(c) for c in bombs]
        if state.actions == 0 and (nines or jokers):
            throttles = _throttles(state, distinct, jokers, mountains, nines)
            if throttles:
                out["throttle"] = _MovePlays(throttles, cell, facing, mountains)
    else:
        kings = [Resupply(c) for c in distinct if kinds[c.rank].play is _RESUPPLY]
    if jokers:
        kings.append(_joker_plays(rs).resupply)
    if kings:
        out["resupply"] = kings
    out["end"] = _END_PLAY
    return out


def has_play(state: GameState) -> bool:
    """Whether :func:`legal_plays_by_kind` holds any play but the end of the phase, found
    without building the plays (a move asks only whether one exists, :func:`can_move`): the
    same card table, in the same order, stopping at the first card that plays."""
    if state.phase is _ENTRY_COLUMN:
        return True
    if state.phase is not _ACTING:
        return False
    hand = state.hand
    rs = state.ruleset
    if any(c.rank == JOKER_RANK for c in hand):  # a Joker always resupplies (R12)
        return True
    kinds = rs.card_kinds
    if state.actions >= rs.actions_per_turn:
        return any(kinds[c.rank].play is _RESUPPLY for c in hand)
    cell, facing, altitude = state.cell, state.facing, state.altitude
    assert cell is not None and facing is not None  # actions are played on the map (R6)
    mountains = _NO_MOUNTAINS if altitude >= rs.mountain_clearance else state.mountains  # R9
    top = rs.max_altitude
    sixes = bombs = nines = False
    for c in hand:
        kind = kinds[c.rank]
        play = kind.play
        if play is _MOVE:
            if can_move(cell, facing, kind.points, mountains):
                return True
        elif play is _ALTITUDE:
            size = kind.points
            if 0 <= altitude + (size if c.suit in _RED else -size) <= top:
                return True
        elif play is _GUNS:
            sixes = True
        elif play is _BOMB:
            bombs = True
        elif play is _THROTTLE:
            nines = True
        elif play is _RESUPPLY:
            return True
    if bombs and bomb_target(state) is not None:
        return True
    if sixes and guns_targets(state):
        return True
    if not nines or state.actions:
        return False
    # a Throttle pairs with a movement card (its points and the bonus) or an altitude card
    # the bonus keeps in range (R11), as _throttles lists them
    bonus = rs.throttle_bonus
    for c in hand:
        kind = kinds[c.rank]
        if kind.play is _MOVE:
            if can_move(cell, facing, kind.points + bonus, mountains):
                return True
        elif kind.play is _ALTITUDE and _altitude_ok(state, c, bonus):
            return True
    return False


_RED: Final = frozenset({Suit.HEARTS, Suit.DIAMONDS})


_END: Final = EndPhase()
_END_PLAY: Final = (_END,)
_ENTER: Final = tuple(EnterColumn(c) for c in range(SIZE))


class _JokerPlays:
    """A ruleset's canonical Joker declarations, one per distinct effect (R12), from its card
    table: the movement card with the most points (it covers every shorter move), each
    altitude change red and black, a guns card, a bomb card (and a precise one, which differs
    only above the low bombing band, R16), a throttle card and a resupply card; all Hearts."""

    __slots__ = ("low", "high", "partners", "throttle", "resupply", "top")

    def __init__(self, rs: Ruleset) -> None:
        def first(play: Play, points: int | None = None, precise: bool | None = None) -> CardKind | None:
            return next((k for k in rs.card_kinds if k.play is play
                         and (points is None or k.points == points)
                         and (precise is None or k.precise is precise)), None)

        def declared(kind: CardKind | None, suit: str = "H") -> list[Card]:
            return [] if kind is None else [JOKER.declare(RANK_LETTERS[kind.rank] + suit)]

        move = max((k for k in rs.card_kinds if k.play is Play.MOVE), key=lambda k: k.points)
        altitudes = [d for points in rs.altitude_steps
                     for suit in "HS" for d in declared(first(Play.ALTITUDE, points), suit)]
        bomb, precise = first(Play.BOMB, precise=False), first(Play.BOMB, precise=True)
        self.low = [*declared(move), *altitudes, *declared(first(Play.GUNS)),
                    *declared(bomb if bomb is not None else precise)]
        self.high = self.low + declared(precise) if bomb is not None else self.low
        self.partners = [*declared(move), *altitudes]
        self.throttle = declared(first(Play.THROTTLE))
        self.resupply = Resupply(declared(first(Play.RESUPPLY))[0])
        self.top = rs.low_bombing_altitude

    def singles(self, state: GameState) -> list[Card]:
        return self.high if state.altitude > self.top else self.low


_JOKER_PLAYS: Final[dict[int, tuple[Ruleset, _JokerPlays]]] = {}


def _joker_plays(rs: Ruleset) -> _JokerPlays:
    # By identity: a Ruleset holds mappings and does not hash; the entry keeps it alive.
    kept = _JOKER_PLAYS.get(id(rs))
    if kept is None or kept[0] is not rs:
        kept = _JOKER_PLAYS[id(rs)] = (rs, _JokerPlays(rs))
    return kept[1]


_NO_MOUNTAINS: Final[frozenset] = frozenset()  # at or above the clearance no mountain stops the bomber (R9)


@lru_cache(maxsize=1 << 13)
def _move_list(card: Card, cell: Cell, facing: Facing, points: int, mountains: frozenset) -> tuple[Move, ...]:
    # Cached: the same card from the same place recurs often in simulations.
    return tuple(Move(card, steps) for steps in reachable(cell, facing, points, mountains))


@lru_cache(maxsize=1 << 12)
def _throttle_list(nine: Card, card: Card, cell: Cell, facing: Facing, points: int,
                   mountains: frozenset) -> tuple[Throttle, ...]:
    return tuple(Throttle(nine, move) for move in _move_list(card, cell, facing, points, mountains))


def _altitude_ok(state: GameState, card: Card, bonus: int = 0) -> bool:
    new = state.altitude + altitude_delta(state.ruleset, card.acting, bonus)
    return 0 <= new <= state.ruleset.max_altitude


def _throttles(state: GameState, distinct: list[Card], jokers: int, mountains: frozenset,
               nines: list[Card]) -> list:
    """The Throttle pairs (R11) as runs of :class:`_MovePlays`: each throttle card (a Joker
    declared as one) with each movement card (its moves with the bonus) and each altitude card
    that keeps the altitude in range. ``nines``: the throttle cards of the hand (extended)."""
    rs = state.ruleset
    jokers_as = _joker_plays(rs)
    if jokers:
        nines.extend(jokers_as.throttle)
    if not nines:
        return []
    bonus = rs.throttle_bonus
    kinds = rs.card_kinds
    cell, facing = state.cell, state.facing
    partners = [c for c in distinct if kinds[c.rank].play is _MOVE or kinds[c.rank].play is _ALTITUDE]
    out: list = []
    for nine in nines:
        pairs = partners + jokers_as.partners if jokers - nine.is_joker > 0 else partners
        for card in pairs:
            kind = kinds[card.acting.rank]
            if kind.play is _MOVE:
                points = kind.points + bonus
                steps = reachable(cell, facing, points, mountains)
                if steps:
                    out.append((nine, card, points, steps))
            elif _altitude_ok(state, card, bonus):
                out.append((nine, card, 0, None))
    return out


# -- words for messages -----------------------------------------------------------------

def _hand_words(state: GameState) -> str:
    return "hand: " + (" ".join(str(c) for c in state.hand) or "empty")


def decision_words(state: GameState) -> str:
    if state.phase is Phase.ENTRY_COLUMN:
        return f"entry column after {state.entry_card}"
    return "play (or the end of the player phase)"


def end_words(state: GameState) -> str:
    if state.outcome is Outcome.VICTORY:
        return "victory"
    return f"defeat: {state.cause}"
