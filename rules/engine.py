"""The referee: legal plays, their effects, and the forced steps between decisions.

The engine is driven OpenSpiel-style. A mission is a sequence of *chance nodes* (a card is
needed) and *decision nodes* (the player chooses). The engine never shuffles or picks a card
by itself: the caller supplies every card with :func:`reveal` — a seeded deck in a
simulation, the logged cards in the verifier.

    state = new_game(game_map, ruleset, "normal", deck=mission.deck,
                     reshuffle_numbers=mission.reshuffle)
    while not state.is_over:
        if chance_pending(state):                  # "entry", "draw", "resupply", "guns", ...
            events = reveal(state, next_card)      # must be in chance_outcomes(state)
        else:
            events = apply(state, some_action)     # from legal_actions(state)

Besides the calls above: :func:`check_action` (the rule a play breaks, without playing it),
:func:`legal_actions_by_kind` (the same plays grouped as "enter", "move", "altitude", "guns",
"bomb", "throttle", "resupply", "end"), :func:`apply_legal` (:func:`apply` without the second
check, for a play just taken from :func:`legal_actions`; the simulator's fast path),
:func:`reveal_drawn` (:func:`reveal` of the card at a position of the draw pile, unchecked;
the simulator's other fast path) and :func:`score` (R24, with its parts).

After every :func:`apply` or :func:`reveal` the engine runs the forced steps itself and stops
at the next chance node or decision (or the end): the end of the player phase (after a
Throttle, an exit, or two actions with no King or Joker left in hand), Automa steps 2–5 once
its card is revealed, the next turn's start (``TurnStarted``), the Entry reveal when the bomber
is off the map, and the draw that refills the hand. The phase that waits is ``state.phase``.

Player phase end. With 0 or 1 actions taken, or 2 actions and a King or Joker still in hand
(Kings may be played until the Automa card, R29), the player ends the phase with
:class:`~rules.actions.EndPhase`. The phase ends by itself after a Throttle (R11), an exit
(R6) or two actions with nothing left that could be played (no King, no Joker in hand).

Exhaustion (R22, R26, R35, R36) is handled eagerly: the moment the engine arrives at a chance
node and the draw pile is empty, it performs the exhaustion before returning, as part of the
events of the call that got there:

* first exhaustion: ``Reshuffled(count, purpose)``; the discard pile becomes the draw pile
  (challenge deck: ordered by reshuffle number, lowest on top; own deck: unordered); then
  ``Damage(1, EXHAUSTION, total)``. If that damage reaches the health, ``Defeat(DAMAGE,
  purpose)`` follows and the mission is over; otherwise the state waits for the card.
* second exhaustion: ``Reshuffled`` is *not* emitted (nothing to shuffle);
  ``Defeat(OUT_OF_FUEL, purpose)`` and the mission is over.

So when a mission ends "at the moment a card was needed", the caller sees ``state.phase ==
OVER`` and ``state.end_card_purpose`` set to the purpose of that card (``"automa"``, ``"draw"``,
``"entry"``, ``"resupply"``, ``"guns"``, ``"bomb"``); the log's statement that needed the card
writes ``none`` there (R36) and is the last. ``state.turn`` is the turn of that statement (an
entry reveal needed at the start of turn N has ``turn == N``; the TurnStarted event precedes
the Reshuffled/Defeat events). ``state.fresh_reshuffle`` is True from an exhaustion until the
next card arrives, i.e. exactly where a log's ``reshuffle`` marker may stand besides places
where ``state.draw_pile`` is empty.

Jokers. Both Jokers are the value ``JK``; a played Joker is ``Card`` with ``declared``
(``JK=7H``, R12) and goes to the discard pile as ``JK``. A revealed Joker counts as a Heart on
guns and bombs (R17, ``ruleset.revealed_joker_counts_as``); on entry it is a face-card entry;
as the Automa card it means no fire and no movement. With a challenge deck the two Jokers have
two reshuffle numbers; as they cannot be told apart in a log, the Jokers in the discard pile at
an exhaustion take the *lowest* Joker reshuffle numbers (a decision where R26 is silent). The
seeded challenge decks number the two Jokers consecutively (``challenges.seeding``), so there the
choice never changes the new pile's order.

Errors: every illegal play or card raises :class:`~rules.errors.IllegalActionError` with
``rule`` (e.g. "R9", "R25") and ``code`` (a short stable identifier, listed in
:data:`ERROR_CODES`) and a sentence a player understands; the state is then unchanged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from .actions import Action, Altitude, Bomb, EndPhase, EnterColumn, Guns, Move, Resupply, Throttle
from .automa import resolve_automa
from .board import SIZE, Cell, Facing
from .cards import FULL_DECK, JOKER, JOKER_RANK, Card
from .combat import finish, resolve_bomb, resolve_guns, take_damage
from .errors import BGridError, IllegalActionError
from .events import (AltitudeChanged, AutomaSkipped, DamageCause, Discarded, Drew, Entered, Event,
                     Moved, Played, PhaseEndReason, PlayerPhaseEnded, Reshuffled, Revealed,
                     TurnStarted)
from .legality import (ERROR_CODES, altitude_delta, check_action, decision_words, end_words,
                       legal_actions, legal_actions_by_kind, pile_of, trace_move)
from .movement import Trace
from .ruleset import Play, Ruleset
from .setup import GameMap
from .state import CardPurpose, DefeatCause, GameState, Outcome, Phase

_DECK_COUNT: Final = Counter(FULL_DECK)  # how often each card may appear in one deck
# The enum members the turn reads and writes, bound once (why: rules.state); every call reads
# several.
_DRAW: Final = CardPurpose.DRAW  # the refill draw is the most frequent chance node
_FOR_ENTRY: Final = CardPurpose.ENTRY
_FOR_RESUPPLY: Final = CardPurpose.RESUPPLY
_FOR_AUTOMA: Final = CardPurpose.AUTOMA
_FOR_GUNS: Final = CardPurpose.GUNS
_FOR_BOMB: Final = CardPurpose.BOMB
_ENTRY_REVEAL: Final = Phase.ENTRY_REVEAL
_ENTRY_COLUMN: Final = Phase.ENTRY_COLUMN
_DRAWING: Final = Phase.DRAW
_ACTING: Final = Phase.ACTIONS
_RESOLVE_REVEAL: Final = Phase.RESOLVE_REVEAL
_AUTOMA_REVEAL: Final = Phase.AUTOMA_REVEAL
_OVER: Final = Phase.OVER
_ENDS_END: Final = PhaseEndReason.END
_ENDS_ACTIONS: Final = PhaseEndReason.ACTIONS
_ENDS_EXIT: Final = PhaseEndReason.EXIT
_ENDS_THROTTLE: Final = PhaseEndReason.THROTTLE
_SOUTH: Final = Facing.SOUTH

__all__ = ["ERROR_CODES", "Score", "apply", "apply_legal", "chance_outcomes", "chance_pending",
           "check_action", "is_entry_damage_fatal", "legal_actions", "legal_actions_by_kind", "new_game",
           "reveal", "reveal_drawn", "score"]

# -- setting up -------------------------------------------------------------------------

def new_game(game_map: GameMap, ruleset: Ruleset, difficulty: str, deck: Iterable[Card] | None = None,
             reshuffle_numbers: Iterable[int] | None = None) -> GameState:
    """A mission at its start: turn 1, bomber off the map, waiting for the entry card (R6).

    ``deck``: the draw pile top first (a challenge deck, R25), or None for the player's own
    shuffled deck (the order is unknown: any card of the draw pile may come next). A shorter
    deck is accepted (tests use one to reach an exhaustion quickly); no card may appear more
    often than in the 54-card deck. ``reshuffle_numbers``: with a challenge deck, the
    reshuffle number of the card at each deck position (R26); None numbers the positions
    1, 2, 3 … (the discard pile then re-stacks in the original deck order).

    Raises :class:`BGridError` for an unknown difficulty or an impossible deck.
    """
    if difficulty not in ruleset.difficulties:
        raise BGridError(f"unknown difficulty '{difficulty}': expected one of "
                         f"{', '.join(ruleset.difficulties)}")
    state = GameState(game_map, ruleset, difficulty, ruleset.health(difficulty))
    if deck is None:
        state.draw_pile = list(FULL_DECK)
        return state
    cards = [card.physical for card in deck]
    for card, times in Counter(cards).items():
        if times > _DECK_COUNT[card]:
            raise BGridError(f"the deck holds {card} {times} times")
    numbers = list(range(1, len(cards) + 1)) if reshuffle_numbers is None else list(reshuffle_numbers)
    if len(numbers) != len(cards):
        raise BGridError(f"{len(numbers)} reshuffle numbers for a deck of {len(cards)} cards")
    by_card: dict[Card, list[int]] = {}
    for card, number in zip(cards, numbers, strict=True):
        by_card.setdefault(card, []).append(number)
    state.challenge = True
    state.draw_pile = cards
    state.reshuffle_numbers = {card: tuple(sorted(ns)) for card, ns in by_card.items()}
    return state


# -- chance nodes -----------------------------------------------------------------------

def chance_pending(state: GameState) -> CardPurpose | None:
    """The purpose of the card the game waits for, or None while it waits for a player
    decision or is over."""
    return state.card_purpose


def chance_outcomes(state: GameState) -> list[Card]:
    """The cards that could come now: the top card of a challenge deck; the distinct cards of
    the draw pile with the player's own deck (each Joker counted once). Empty when no card is
    awaited."""
    if chance_pending(state) is None:
        return []
    if state.challenge:
        return state.draw_pile[:1]
    return list(dict.fromkeys(state.draw_pile))


def reveal(state: GameState, card: Card) -> list[Event]:
    """The chance outcome: ``card`` arrives for the awaited purpose. Mutates ``state`` and
    returns the events, through every forced step up to the next chance node or decision.

    Raises :class:`IllegalActionError`: no card awaited ("no-card-expected" / "game-over"),
    not the expected card of a challenge deck ("wrong-card", R25 before any exhaustion, R26
    after it; the message names the expected card), not in the draw pile of an own deck
    ("card-not-in-deck", R22), a declared Joker ("declared-reveal").
    """
    purpose = state.card_purpose  # chance_pending, without the call
    if purpose is None:
        if state.phase is _OVER:
            raise IllegalActionError(f"the mission is over ({end_words(state)}); no card is "
                                     "drawn or revealed after the end (R23)", "R23", "game-over")
        raise IllegalActionError("no card is drawn or revealed now: the game waits for the "
                                 f"player's {decision_words(state)}", "R6", "no-card-expected")
    if card.declared is not None:
        raise IllegalActionError(f"{card}: a drawn or revealed Joker is plain JK; only a played "
                                 "Joker carries a declaration (R12)", "R12", "declared-reveal")
    _take_from_draw_pile(state, card, purpose)
    return _arrive(state, card)


def reveal_drawn(state: GameState, index: int) -> list[Event]:
    """:func:`reveal` of the card at ``index`` of the draw pile (0, the top, with a challenge
    deck) at a chance node, without the checks and without searching the pile for the card:
    the simulator's fast path. Anything else: use :func:`reveal`."""
    pile = state.draw_pile
    card = pile[index]
    if card.rank == JOKER_RANK:
        _remove_card(pile, card)  # the first Joker, as reveal takes it: the pile order matters
    else:
        del pile[index]  # only the Joker is twice in a deck (new_game)
    return _arrive(state, card)


def _arrive(state: GameState, card: Card) -> list[Event]:
    """The awaited card, already out of the draw pile, takes effect."""
    state.fresh_reshuffle = False
    state.cards_drawn += 1
    events: list = []
    phase = state.phase
    if phase is _ENTRY_REVEAL:
        _entry_revealed(state, card, events)
    elif phase is _DRAWING:
        state.hand.append(card)
        events.append(Drew(card, _DRAW))
        if len(state.hand) >= state.ruleset.hand_size:
            state.phase = _ACTING
    elif phase is _RESOLVE_REVEAL:
        _resolve_pending(state, card, events)
    else:
        _automa_revealed(state, card, events)
    if not state.draw_pile:
        _settle(state, events)
    return events


def _take_from_draw_pile(state: GameState, card: Card, purpose: CardPurpose) -> None:
    pile = state.draw_pile
    if state.challenge:
        if pile[0] is not card and pile[0] != card:  # _settle keeps a chance node's pile non-empty
            rule = "R26" if state.exhaustions else "R25"
            raise IllegalActionError(
                f"the next card of the challenge deck is {pile[0]}, not {card} (the {purpose} "
                f"card{', after the reshuffle' if state.exhaustions else ''}; {rule})",
                rule, "wrong-card", card=card, expected=pile[0])
        del pile[0]
        return
    try:
        _remove_card(pile, card)
    except ValueError:
        where = ("in the hand" if card in state.hand else
                 "being played" if card in state.in_play else
                 "in the discard pile" if card in state.discard else "not in the deck")
        since = "since the reshuffle" if state.exhaustions else "in this pass through the deck"
        raise IllegalActionError(
            f"{card} cannot come as the {purpose} card: it is not in the draw pile ({where}); "
            f"each card comes once {since} (R22)", "R22", "card-not-in-deck", card=card,
            pile=pile_of(state, card)) from None


def _settle(state: GameState, events: list) -> None:
    """At a chance node with an empty draw pile, the deck is exhausted now (R22)."""
    while not state.draw_pile:
        purpose = chance_pending(state)
        if purpose is None:
            return
        _exhaust(state, purpose, events)


def _exhaust(state: GameState, purpose: CardPurpose, events: list) -> None:
    """R22: the first time the discard pile becomes the draw pile (R35: cards being
    resolved stay out; a challenge deck re-stacks by reshuffle number, R26) and 1 damage;
    the next time the mission is lost at once (out of fuel)."""
    rs = state.ruleset
    state.exhaustions += 1
    state.fresh_reshuffle = True
    if state.exhaustions > rs.reshuffles_allowed:
        finish(state, Outcome.DEFEAT, DefeatCause.OUT_OF_FUEL, events, purpose)
        return
    pile, state.discard = state.discard, []
    if state.challenge:
        pile = _restack(state, pile)
    state.draw_pile = pile
    events.append(Reshuffled(len(pile), purpose))
    take_damage(state, rs.reshuffle_damage, DamageCause.EXHAUSTION, events, purpose)


def _restack(state: GameState, pile: list[Card]) -> list[Card]:
    """R26: lowest reshuffle number on top. The Jokers of the pile take the lowest Joker
    numbers (they cannot be told apart; see the module docstring)."""
    numbers = state.reshuffle_numbers
    assert numbers is not None  # a challenge deck carries its reshuffle numbers (R26)
    joker_numbers = iter(numbers.get(JOKER, ()))
    keyed = [(next(joker_numbers) if card.is_joker else numbers[card][0], i, card)
             for i, card in enumerate(sorted(pile, key=lambda c: not c.is_joker))]
    return [card for _, _, card in sorted(keyed)]


# -- the turn (R6) ----------------------------------------------------------------------

def _start_turn(state: GameState, events: list) -> None:
    state.turn += 1
    state.actions = 0
    events.append(TurnStarted(state.turn))
    if state.cell is None:
        state.phase = _ENTRY_REVEAL  # R6a
    else:
        _begin_draw(state)


def _begin_draw(state: GameState) -> None:
    """R6b/R30: draw until the hand holds 5; a full hand has no draw."""
    full = len(state.hand) >= state.ruleset.hand_size
    state.phase = _ACTING if full else _DRAWING


def _entry_revealed(state: GameState, card: Card, events: list) -> None:
    events.append(Revealed(card, _FOR_ENTRY))
    state.in_play.append(card)
    column = card.column  # Ace–10 only
    if column is not None:
        _enter(state, card, column, False, events)
    else:
        state.entry_card = card  # R13: face card or Joker, the player chooses
        state.phase = _ENTRY_COLUMN


def _enter(state: GameState, card: Card, column: int, chosen: bool, events: list) -> None:
    """R13: damage for a chosen column first, then the mountain check (R28: no clear row-1
    cell means entering the named cell and crashing), then the discard (R8)."""
    if chosen and take_damage(state, state.ruleset.face_entry_damage, DamageCause.ENTRY, events):
        return
    named = Cell.at(column, 1)
    cell, shifted, crash = named, None, False
    if named in state.mountains and state.altitude < state.ruleset.mountain_clearance:
        clear = [c for c in range(SIZE) if Cell.at(c, 1) not in state.mountains]
        if clear:
            cell = Cell.at(min(clear, key=lambda c: (abs(c - column), c)), 1)  # ties shift left
            shifted = named
        else:
            crash = True
    state.cell, state.facing = cell, _SOUTH
    state.entry_card = None
    events.append(Entered(cell, _SOUTH, state.altitude, chosen, shifted))
    if crash:
        finish(state, Outcome.DEFEAT, DefeatCause.CRASH, events)
        return
    _discard(state, (card,), events)
    _begin_draw(state)


def is_entry_damage_fatal(state: GameState) -> bool:
    """At the entry column choice: the damage of a face-card or Joker entry ends the mission
    before the bomber is placed (R13, R23), so the column chosen changes nothing."""
    return state.damage + state.ruleset.face_entry_damage >= state.health


def _end_player_phase(state: GameState, reason: PhaseEndReason, events: list) -> None:
    """R6d: the Automa phase follows if the bomber is on the map; else the next turn."""
    events.append(PlayerPhaseEnded(reason))
    if state.cell is not None:
        state.phase = _AUTOMA_REVEAL
    else:
        events.append(AutomaSkipped())
        _start_turn(state, events)


def _after_action(state: GameState, events: list) -> None:
    """Back to the action step; it ends by itself when the turn's actions are done and no
    King or Joker is left to play (R29: Kings may still be played after the actions)."""
    if state.phase is _OVER:
        return
    state.phase = _ACTING
    rs = state.ruleset
    if state.actions >= rs.actions_per_turn:
        kinds = rs.card_kinds
        if not any(kinds[c.rank].play in _NOT_ACTIONS for c in state.hand):
            _end_player_phase(state, _ENDS_ACTIONS, events)


_NOT_ACTIONS: Final = (Play.RESUPPLY, Play.WILD)  # may still be played after the actions (R29)


def _automa_revealed(state: GameState, card: Card, events: list) -> None:
    events.append(Revealed(card, _FOR_AUTOMA))
    state.in_play.append(card)
    resolve_automa(state, card, events)
    if state.phase is not _OVER:
        _start_turn(state, events)


def _discard(state: GameState, cards: Iterable[Card], events: list[Event]) -> None:
    """R8: cards leave play for the discard pile as physical cards (a Joker as JK)."""
    physical = tuple(card.physical for card in cards)
    for card in physical:
        _remove_card(state.in_play, card)
    state.discard.extend(physical)
    events.append(Discarded(physical))


def _to_play(state: GameState, *cards: Card) -> None:
    for card in cards:
        physical = card.physical
        _remove_card(state.hand, physical)
        state.in_play.append(physical)


def _remove_card(pile: list, card: Card) -> None:
    """Remove one ``card`` from ``pile``. Equal cards are interchangeable, so the search
    looks for the very object first (cards are interned) and compares values only if that
    fails: the same result as ``list.remove``, without a comparison per card passed."""
    for i, c in enumerate(pile):
        if c is card:
            del pile[i]
            return
    pile.remove(card)


def _resolve_pending(state: GameState, card: Card, events: list) -> None:
    action, state.pending = state.pending, None  # card_purpose is read before this
    if isinstance(action, Resupply):
        state.hand.append(card)
        events.append(Drew(card, _FOR_RESUPPLY))
        _after_action(state, events)
        return
    assert action is not None  # a reveal is pending only after its play (R8)
    purpose = _FOR_GUNS if isinstance(action, Guns) else _FOR_BOMB
    events.append(Revealed(card, purpose))
    state.in_play.append(card)
    if isinstance(action, Guns):
        resolve_guns(state, action.target, card, events)
    else:
        resolve_bomb(state, action.card.acting, card, events)
    if state.phase is _OVER:
        return
    _discard(state, (card, action.card), events)  # R8: the reveal, then the played card
    _after_action(state, events)


# -- player decisions -------------------------------------------------------------------

def apply(state: GameState, action: Action) -> list[Event]:
    """Play ``action`` (checked first with :func:`check_action`; an illegal action changes
    nothing) and run the forced steps after it. Returns the events in order."""
    check_action(state, action)
    return apply_legal(state, action)


def apply_legal(state: GameState, action: Action) -> list[Event]:
    """:func:`apply` without the check, for an action taken from :func:`legal_actions` of
    this very state (the simulation's fast path). Anything else: use :func:`apply`."""
    events: list = []
    if isinstance(action, EnterColumn):
        entry = state.entry_card
        assert entry is not None  # a column is chosen only after a face card or Joker (R13)
        _enter(state, entry, action.column, True, events)
    elif isinstance(action, EndPhase):
        _end_player_phase(state, _ENDS_END, events)
    else:
        events.append(Played(action))
        # Each kind of play's effect, called by its type: a native call each once compiled.
        if isinstance(action, Move):
            _apply_move(state, action, events)
        elif isinstance(action, Altitude):
            _apply_altitude(state, action, events)
        elif isinstance(action, Throttle):
            _apply_throttle(state, action, events)
        elif isinstance(action, Resupply):
            _apply_resupply(state, action, events)
        else:
            _apply_reveal_play(state, action, events)  # Guns, Bomb
    if not state.draw_pile:
        _settle(state, events)
    return events


def _play_move(state: GameState, action: Move, events: list, bonus: int = 0) -> Trace:
    trace = trace_move(state, action, bonus)
    events.append(Moved(trace.start, trace.path, trace.facing, trace.exited, trace.blocked))
    if trace.exited:
        state.cell = state.facing = None  # R6: off the map
    else:
        state.cell, state.facing = trace.end, trace.facing
    return trace


def _play_altitude(state: GameState, action: Altitude, events: list, bonus: int = 0) -> bool:
    """Change altitude; True if that is a crash (R10, R33)."""
    old = state.altitude
    state.altitude = old + altitude_delta(state.ruleset, action.card.acting, bonus)
    events.append(AltitudeChanged(old, state.altitude))
    if state.cell in state.mountains and state.altitude < state.ruleset.mountain_clearance:
        finish(state, Outcome.DEFEAT, DefeatCause.CRASH, events)
        return True
    return False


def _apply_move(state: GameState, action: Move, events: list) -> None:
    _to_play(state, action.card)
    trace = _play_move(state, action, events)
    state.actions += 1
    _discard(state, (action.card,), events)
    if trace.exited:
        _end_player_phase(state, _ENDS_EXIT, events)
    else:
        _after_action(state, events)


def _apply_altitude(state: GameState, action: Altitude, events: list) -> None:
    _to_play(state, action.card)
    state.actions += 1
    if _play_altitude(state, action, events):
        return
    _discard(state, (action.card,), events)
    _after_action(state, events)


def _apply_throttle(state: GameState, action: Throttle, events: list) -> None:
    """R11: the pair is both actions; the phase ends after it, Kings included."""
    paired = action.paired
    _to_play(state, action.card, paired.card)
    state.actions = 2
    bonus = state.ruleset.throttle_bonus
    exited = False
    if isinstance(paired, Move):
        exited = _play_move(state, paired, events, bonus).exited
    elif _play_altitude(state, paired, events, bonus):
        return
    _discard(state, (action.card, paired.card), events)  # R8: both after the pair resolves
    _end_player_phase(state, _ENDS_EXIT if exited else _ENDS_THROTTLE, events)


def _apply_reveal_play(state: GameState, action: Guns | Bomb, events: list) -> None:
    """A 6, 7, 8 or Ace: the card stays in play until its reveal is resolved (R8, R35)."""
    _to_play(state, action.card)
    state.actions += 1
    state.pending = action
    state.phase = _RESOLVE_REVEAL


def _apply_resupply(state: GameState, action: Resupply, events: list) -> None:
    """R29, R8: the King is discarded before its replacement is drawn; not an action."""
    _to_play(state, action.card)
    _discard(state, (action.card,), events)
    state.pending = action
    state.phase = _RESOLVE_REVEAL




# -- score (R24) ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Score:
    """R24: what was destroyed and taken, the ruleset's points for each, and the total
    (+2 a bunker, +1 an artillery piece destroyed, −1 a point of damage in standard-1). The
    points come from the ruleset (``score``), never from defaults here."""

    bunkers: int  # bunkers destroyed
    artillery: int  # artillery pieces destroyed
    damage: int  # damage taken
    bunker_points: int
    artillery_points: int
    damage_points: int

    @property
    def total(self) -> int:
        return (self.bunkers * self.bunker_points + self.artillery * self.artillery_points
                + self.damage * self.damage_points)

    def breakdown(self) -> str:
        """``2 bunkers × +2, 1 artillery × +1, 3 damage × -1 = 2``."""
        return (f"{self.bunkers} bunker{'s' if self.bunkers != 1 else ''} × {self.bunker_points:+d}, "
                f"{self.artillery} artillery × {self.artillery_points:+d}, "
                f"{self.damage} damage × {self.damage_points:+d} = {self.total}")

    def as_dict(self) -> dict[str, int]:
        return {"bunkers": self.bunkers, "artillery": self.artillery, "damage": self.damage,
                "total": self.total}


def score(state: GameState) -> Score:
    """The score of the mission so far (R24). It can be negative."""
    rs = state.ruleset
    return Score(state.bunkers_destroyed, state.artillery_destroyed, state.damage,
                 rs.score_bunker, rs.score_artillery, rs.score_damage)
