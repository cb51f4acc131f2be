"""Plain-language context for a verifier message: the state and what would have been legal.

python-chess puts the position in every error; we put the bomber's state (cell, facing,
altitude, damage/health, hand, draw pile, turn) and a per-card summary of the legal plays,
so a player can find the slip on paper without replaying the whole mission.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..rules.actions import Action, Altitude, Bomb, EndPhase, EnterColumn, Guns, Move, Resupply, Throttle
from ..rules.artillery_pieces import ArtilleryPieces
from ..rules.board import COLUMN_LETTERS
from ..rules.cards import Card
from ..rules.engine import chance_outcomes, chance_pending, check_action, legal_actions
from ..rules.errors import IllegalActionError
from ..rules.ruleset import Play, Ruleset
from ..rules.state import CardPurpose, GameState, Phase

_SHOW_PILE = 8  # list the draw pile's cards when it is this small
# The card each purpose takes, in words: "the guns card" would be the 6 the player fires,
# not the card revealed for it.
_CARD_NOUNS = {CardPurpose.ENTRY: "entry card", CardPurpose.DRAW: "draw card",
               CardPurpose.RESUPPLY: "{resupply}'s replacement card", CardPurpose.GUNS: "guns' reveal card",
               CardPurpose.BOMB: "bomb's reveal card", CardPurpose.AUTOMA: "Automa card"}


def card_noun(purpose: CardPurpose | str, ruleset: Ruleset) -> str:
    """``guns' reveal card``: the card a purpose takes, for 'the … was needed'; the resupply
    card named by the ruleset's card table (``King's replacement card`` in standard-1, R29)."""
    noun = _CARD_NOUNS[CardPurpose(purpose)]
    return noun.format(resupply=ruleset.rank_names(Play.RESUPPLY)) if "{" in noun else noun


def phase_open_cards(ruleset: Ruleset) -> str:
    """The cards that keep a player phase open after its actions, by rank: ``King or Joker``
    in standard-1 (R6, R29)."""
    return ruleset.rank_names(Play.RESUPPLY, Play.WILD)


def describe_state(state: GameState, log_turn: int | None = None,
                   pieces: ArtilleryPieces | None = None, unmet_damage: int | None = None) -> str:
    """``turn 3, at C4 facing S, alt 3, dmg 1/5, hand 7H 2S, draw pile 31, artillery B9 F8
    (F8 suppressed), bunkers left A5 C3``: what the paper should show at that moment.

    ``log_turn`` is the last turn the log wrote. After an Automa card (or an exit) the engine
    is already in the next turn while the log still is in the last one: the state then says
    ``end of turn 1`` rather than a turn the player has not begun. With ``pieces`` (an
    :class:`~rules.artillery_pieces.ArtilleryPieces` that followed the game) the artillery is
    named by number (R43): ``artillery 1 (B9), 2 (F8, suppressed), 3 (destroyed), 4 (C5)``.
    ``unmet_damage`` (not None): the engine has met an exhaustion at the next card, which the
    paper has not reached (R22): the damage without it, and the draw pile as the paper has it."""
    parts = state.describe_parts()
    if unmet_damage is not None:
        parts["dmg"] = f"dmg {state.damage - unmet_damage}/{state.health}"
        parts["draw pile"] = "draw pile empty (it runs out at the next card, R22)"
    if log_turn and log_turn < state.turn:
        parts["turn"] = f"end of turn {log_turn}"
    elif state.phase is Phase.ACTIONS:  # (behind, the count would be of a turn not begun)
        parts["actions"] = f"actions played {state.actions}/{state.ruleset.actions_per_turn}"
    parts["targets"] = targets_text(state, pieces)
    text = ", ".join(parts.values())
    if state.outcome is not None:
        text += f"; the mission is over: {outcome_text(state)}"
    return text


def targets_text(state: GameState, pieces: ArtilleryPieces | None = None) -> str:
    """The artillery where it stands, which of it is suppressed (R21), and the bunkers left.
    By number with ``pieces`` (R43), else in R20's column-then-row order."""
    if pieces is not None:
        named = []
        for n, cell in enumerate(pieces.cells, start=1):
            if cell is None:
                named.append(f"{n} (destroyed)")
            else:
                named.append(f"{n} ({cell}{', suppressed' if cell in state.suppressed else ''})")
        text = "artillery " + ", ".join(named)
    else:
        order = sorted(state.artillery, key=lambda c: (c.column, c.row))
        text = "artillery " + (" ".join(map(str, order)) or "none")
        suppressed = [c for c in order if c in state.suppressed]
        if suppressed:
            text += f" ({' '.join(map(str, suppressed))} suppressed)"
    bunkers = sorted(state.bunkers, key=lambda c: (c.column, c.row))
    return text + ", bunkers left " + (" ".join(map(str, bunkers)) or "none")


def outcome_text(state: GameState) -> str:
    if state.outcome is None:
        return "not over"
    if state.cause is None:
        return f"{state.outcome} (all bunkers destroyed)"
    return f"{state.outcome} ({state.cause})"


def legal_summary(state: GameState, log_turn: int | None = None, pieces: ArtilleryPieces | None = None,
                  declared: Card | None = None) -> list[str]:
    """What could come next, grouped per card: ``move 5C (5 points)``, ``alt QH`` …; when the
    engine is in a turn the log has not begun (``log_turn`` behind), its ``turn`` line first.
    ``pieces`` names guns targets by number (R43); ``declared``, the Joker the log played
    where it went wrong, is echoed as written wherever a legal Joker play stands for it (the
    engine lists one declaration per choice that plays differently: any 6 for guns)."""
    plays = _legal_plays(state, pieces, declared)
    if log_turn and log_turn < state.turn:
        return [f"turn {state.turn} (its line first)"] + [f"then {p}" for p in plays[:1]] + plays[1:]
    return plays


def _legal_plays(state: GameState, pieces: ArtilleryPieces | None = None,
                 declared: Card | None = None) -> list[str]:
    purpose = chance_pending(state)
    if purpose is not None:
        outcomes = chance_outcomes(state)
        noun = card_noun(purpose, state.ruleset)
        if state.challenge:
            return [f"the {noun}, which the challenge deck fixes as {outcomes[0]}"]
        if len(state.draw_pile) <= _SHOW_PILE:
            return [f"the {noun}, one of {' '.join(sorted(set(map(str, outcomes))))}"]
        return [f"the {noun}, any of the {len(state.draw_pile)} cards in the draw pile"]
    if state.phase is Phase.ENTRY_COLUMN:
        return [f"an entry column {COLUMN_LETTERS[0]}-{COLUMN_LETTERS[-1]}"]
    if state.phase is not Phase.ACTIONS:
        return []
    groups: dict[str, list[str]] = {}
    order: list[str] = []

    def add(key: str, detail: str = "") -> None:
        if key not in groups:
            groups[key] = []
            order.append(key)
        if detail and detail not in groups[key]:
            groups[key].append(detail)

    actions = legal_actions(state)
    if declared is not None and declared.is_joker and declared.declared is not None:
        actions = _as_declared(state, actions, declared)
    for action in actions:
        if isinstance(action, Move):
            points = state.ruleset.kind_of(action.card).points
            add(f"move {action.card}", f"up to {points} points")
        elif isinstance(action, Altitude):
            add(f"alt {action.card}")
        elif isinstance(action, Guns):
            number = None if pieces is None else pieces.number_at(action.target)
            target = f"at {action.target}" + ("" if number is None else f", artillery {number}")
            add(f"guns {action.card}", target)
        elif isinstance(action, Bomb):
            add(f"bomb {action.card}")
        elif isinstance(action, Throttle):
            add(f"throttle {action.card}", f"with {action.paired.card}")
        elif isinstance(action, Resupply):
            add(f"resupply {action.card}")
        elif isinstance(action, EnterColumn):
            add("enter column", COLUMN_LETTERS[action.column])
        elif isinstance(action, EndPhase):
            add("end the player phase")
    return [f"{key} ({', '.join(groups[key])})" if groups[key] else key for key in order]


def _as_declared(state: GameState, actions: Iterable[Action], joker: Card) -> list[Action]:
    """``actions`` with the Joker's declaration as the log wrote it (``JK=6S``) in place of
    the engine's own (``JK=6H``) where the engine lists one Joker play of that rank and kind
    and the written declaration makes a legal play too (the engine lists one declaration for
    choices that play alike; ``alt JK=QH`` from altitude 4 stays out, it would climb to 6)."""
    said = joker.declared
    assert said is not None
    listed: dict[tuple, int] = {}
    for a in actions:
        card = _first_card(a)
        if card is not None and card.is_joker and card.declared is not None:
            key = (type(a), card.declared.rank)
            listed[key] = listed.get(key, 0) + 1
    out = []
    for a in actions:
        card = _first_card(a)
        if card is not None and card.is_joker and card.declared is not None and card.declared != said \
                and card.declared.rank == said.rank and listed[(type(a), said.rank)] == 1:
            written = _replace_card(a, joker)
            try:
                check_action(state, written)
            except IllegalActionError:
                written = a
            a = written
        out.append(a)
    return out


def _first_card(action: Action) -> Card | None:
    cards = getattr(action, "cards", ())
    return cards[0] if cards else None


def _replace_card(action: Action, joker: Card) -> Action:
    """The same play with ``joker`` as its (first) card."""
    field = "nine" if isinstance(action, Throttle) else "king" if isinstance(action, Resupply) else "card"
    return replace(action, **{field: joker})  # type: ignore[arg-type]  # a field of this play's type
