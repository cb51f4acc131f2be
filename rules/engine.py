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
an exhaustion take the *lowest* Joker reshuffle numbers (a decision where R26 is silent).

Errors: every illegal play or card raises :class:`~rules.errors.IllegalActionError` with
``rule`` (e.g. "R9", "R25") and ``code`` (a short stable identifier, listed in
:data:`ERROR_CODES`) and a sentence a player understands; the state is then unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action
from .cards import Card
from .errors import IllegalActionError  # noqa: F401  (raised by the functions below)
from .events import Event
from .ruleset import Ruleset
from .setup import GameMap
from .state import GameState

#: code -> what it means. Stable: the verifier may map them to its own messages.
ERROR_CODES = {
    "game-over": "the mission has ended; nothing more is played (R23)",
    "card-expected": "the game waits for a card (a chance outcome), not a play",
    "no-card-expected": "the game waits for a player decision, not a card",
    "wrong-card": "challenge deck: not the next card of the deck (R25, R26)",
    "card-not-in-deck": "own deck: the card is not in the draw pile (already drawn this pass, "
                        "or not in the discard pile at the reshuffle) (R22)",
    "declared-reveal": "a drawn or revealed card is a plain card; only a played Joker is declared",
    "not-in-hand": "the card played is not in the hand",
    "wrong-phase": "this play is not possible at this point of the turn (R6, R29, R11)",
    "wrong-card-kind": "the card cannot make this kind of play",
    "no-actions-left": "two actions have been played this phase (R6)",
    "no-forward-step": "a movement must make at least one forward step that happens (R9, R31)",
    "too-many-steps": "the steps cost more points than the card gives (R9)",
    "step-after-end": "no step may follow an exit or a blocked step (R9, R31)",
    "altitude-limit": "altitude must stay within 0-5 (R7)",
    "guns-altitude": "guns need altitude 0-4 (R15)",
    "guns-target": "no artillery there in line of sight within range 3 (R15)",
    "bomb-target": "no target in the bomber's cell (R16)",
    "throttle-not-first": "a Throttle is only the first action of a player phase (R11)",
    "throttle-pair": "a Throttle pairs with one movement (2-5) or altitude (10, J, Q) card (R11)",
    "bad-declaration": "a played Joker must be declared as a card, not a Joker (R12)",
    "bad-column": "the entry column is A-J",
}


def new_game(game_map: GameMap, ruleset: Ruleset, difficulty: str, deck=None,
             reshuffle_numbers=None) -> GameState:
    """A mission at its start: turn 1, bomber off the map, waiting for the entry card (R6).

    ``deck``: the draw pile top first (a challenge deck, R25), or None for the player's own
    shuffled deck (the order is unknown: any card of the draw pile may come next).
    ``reshuffle_numbers``: with a challenge deck, the reshuffle number of the card at each
    deck position (R26); None numbers the positions 1, 2, 3 … (the discard pile then
    re-stacks in the original deck order).
    """
    raise NotImplementedError


def chance_pending(state: GameState) -> str | None:
    """The purpose of the card the game waits for — "entry", "draw", "resupply", "guns",
    "bomb" or "automa" — or None while it waits for a player decision or is over."""
    raise NotImplementedError


def chance_outcomes(state: GameState) -> list[Card]:
    """The cards that could come now: the top card of a challenge deck; the distinct cards of
    the draw pile with the player's own deck (each Joker counted once). Empty when no card is
    awaited."""
    raise NotImplementedError


def reveal(state: GameState, card: Card) -> list[Event]:
    """The chance outcome: ``card`` arrives for the awaited purpose. Mutates ``state`` and
    returns the events, through every forced step up to the next chance node or decision.

    Raises :class:`IllegalActionError`: no card awaited ("no-card-expected" / "game-over"),
    not the expected card of a challenge deck ("wrong-card", R25 before any exhaustion, R26
    after it; the message names the expected card), not in the draw pile of an own deck
    ("card-not-in-deck", R22), a declared Joker ("declared-reveal").
    """
    raise NotImplementedError


def legal_actions(state: GameState) -> list[Action]:
    """Every distinct legal player decision now (empty at a chance node or the end).

    ``ENTRY_COLUMN``: ``EnterColumn`` for each column A–J. ``ACTIONS``: each playable card of
    the hand once per distinct effect: ``Move`` with one canonical (shortest) step string per
    distinct end (cell, facing, exited, blocked); ``Altitude``; ``Guns`` per legal target;
    ``Bomb``; ``Throttle`` pairs; ``Resupply``; always ``EndPhase``. Two cards of the same rank
    and suit are one card; cards of different suits stay distinct plays (they leave different
    decks behind). A Joker appears with one canonical declaration per distinct effect
    (``JK=5H`` for a 5-point movement, ``JK=10H``/``JK=10S``/``JK=QH``/``JK=QS`` for
    altitude, ``JK=6H``, ``JK=7H``, ``JK=AH`` at altitude 3–5 only, ``JK=9H``, ``JK=KH``);
    :func:`check_action` accepts every other spelling too.
    """
    raise NotImplementedError


def check_action(state: GameState, action: Action) -> None:
    """Raise :class:`IllegalActionError` (rule, code, a sentence) if ``action`` is not legal
    now; return None if it is. Never changes the state."""
    raise NotImplementedError


def apply(state: GameState, action: Action) -> list[Event]:
    """Play ``action`` (checked first with :func:`check_action`; an illegal action changes
    nothing) and run the forced steps after it. Returns the events in order."""
    raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Score:
    """R24: the parts and the total."""
    bunkers: int    # bunkers destroyed × 2
    artillery: int  # artillery destroyed × 1
    damage: int     # damage taken × −1 (zero or negative)
    total: int


def score(state: GameState) -> Score:
    """The score of the mission so far (R24): +2 a bunker, +1 an artillery piece destroyed,
    −1 a point of damage. It can be negative."""
    raise NotImplementedError
