"""The strong player of ``bgrid simulate --player strong``: determinised look-ahead to the
start of the next turn's actions, drawing blind on either deck.

The greedy player (``players.greedy``) judges a play by where the bomber ends up and never sees
the Automa step that follows, which is where most of its missions are lost (damage). This
player takes greedy's best few plays as candidates and, for each of ``SAMPLES`` shuffles of
the cards it cannot see (it never looks at the order of the pile, not even a challenge
deck's), plays the candidate, finishes the turn greedily, lets the Automa act, draws the next
hand and scores that state. Every candidate meets the same shuffles and the same Automa card
(common random numbers), so the comparison is between plays, not between shuffles; greedy's
own choice stands unless another play beats it by ``MARGIN`` a shuffle. Plays that differ
only in the facing they leave the bomber with are one candidate (:func:`candidate_key`: no
value here reads the facing, so their copies only crowded other plays out); the one turned
best toward the nearest bunker (:func:`turns_to_bunker`) stands for them.

What a one-turn look-ahead cannot see is written into the value (docs/rating.md tells how
each was found): a full hand with nothing to play draws nothing again (R6b), so it is valued
as the loss it leads to (:func:`is_dead_hand`) or a cost for each Automa step that could free
it (:func:`steps_to_free`); a hand without a movement card pays for each card it cannot play
where it is (:func:`junk_cards`), the way to a stuck hand;
the altitude counts (:func:`altitude_value`): 2 and 3, where every altitude card can be
played, are worth more, 3 most, the ceiling and the floor less;
ending a phase with actions left costs ``TEMPO`` each, more on a full hand; and a wait that
only brings back the same decision (:func:`waits_in_vain`) is no candidate. The shuffles come
from the game's own seeded stream: a game is the same for a given sim seed and game index.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..challenges.seeding import SeededStream
from ..rules.actions import Action, EndPhase
from ..rules.cards import Card
from ..rules.automa import nearest_bunker, step_toward
from ..rules.board import Facing, distance, is_in_range
from ..rules.combat import bomb_target, can_fire_guns, guns_targets
from ..rules.engine import apply_legal, reveal_drawn, score
from ..rules.legality import altitude_delta, legal_plays_by_kind
from ..rules.ruleset import Play, Ruleset
from ..rules.state import CHANCE_PHASES, GameState, Outcome, Phase
from .greedy import best_of, greedy_action, valued_actions
from .search import state_key

if TYPE_CHECKING:  # the playout's batched dice; the playout imports the players
    from .playout import Dice

#: Shuffles of the unseen cards each candidate is judged on.
SAMPLES = 8
#: The first sift's best plays that are looked at (ends of the phase are always looked at
#: too); one a move whatever facing it leaves (:func:`candidate_key`).
CANDIDATES = 8
#: Turns played out (the candidate's, then greedy's) before the state is valued.
HORIZON = 1
#: What one card of fuel is worth in :func:`state_value`.
FUEL_WEIGHT = 0.5
#: What a bomb card and a movement card in hand are worth in :func:`state_value` (worth more
#: than a cell of progress, a movement card would be hoarded instead of flown).
BOMB_CARD = 4.0
MOVE_CARD = 2.0
#: What each card the bomber cannot play where it is costs, on a hand without a movement card
#: (:func:`junk_cards`). Counted on every hand it did worse on the tuning maps' challenge decks.
JUNK_CARD = 3.0
#: The cost of ending a phase, a spare action, and more on a full hand, which draws nothing.
TEMPO = 4.0
FULL_HAND_WAIT = 12.0
#: How much of greedy's own value of a play is added to its look-ahead value: the look-ahead
#: ends with the turn and cannot see what a bomb kept for later or a target left is worth.
PRIOR = 0.3
#: How much better (per shuffle, in :func:`state_value` points) a play must look than
#: greedy's choice to be played instead.
MARGIN = 3.0

#: The value of a dead hand (:func:`is_dead_hand`) before its score: next to a defeat.
DEAD_HAND = -150.0
#: The value of a stuck hand that an Automa move may free (:func:`is_stuck_hand`), and what
#: each Automa step it needs costs more (a step comes on about every second card: fuel, fire).
STUCK_HAND = -20.0
STUCK_STEP = 8.0
#: A stuck hand whose guns need more Automa steps than this to get a target is dead.
FREE_STEPS = 3
#: What an altitude is worth in :func:`state_value` (:func:`altitude_value`), on the map: a
#: band from which every altitude card can be played (so they never clog the hand, R7), more
#: where the artillery's reach is at its minimum (R18) and the guns still destroy (R15); less
#: at the ceiling (red altitude cards and guns unplayable) and at the floor (black ones).
ALTITUDE_ROOM = 3.0
ALTITUDE_SAFE = 1.0
CEILING = -6.0
FLOOR = -4.0

#: A mean value below this (a defeat in most shuffles): a wait in vain is looked at after all.
LOST = -500.0

_ONLY_END = {"end"}
_BOMB_PLAYS = (Play.BOMB, Play.WILD)
_MOVE_PLAYS = (Play.MOVE, Play.WILD)


def strong_action(state: GameState, rng: SeededStream | Dice) -> Action:
    """The candidate play with the best mean value over the shuffles; ties go to greedy's
    order (then its dice), so with one candidate this is greedy's choice."""
    weighed = weigh(state, rng)
    return weighed.choice if isinstance(weighed, Weighed) else weighed


@dataclass(frozen=True)
class Weighed:
    """The look-ahead's account of a decision: the candidate plays, each one's total value
    over the ``SAMPLES`` shuffles, the best of them and greedy's own choice among them (None
    when the first sift left it out). ``bench/strong_variants.py`` builds the lab notes'
    playout variants on it."""

    candidates: list[Action]
    totals: list[float]
    best: int
    keep: int | None

    @property
    def choice(self) -> Action:
        """Greedy's own choice unless another play beats it clearly: eight shuffles are few,
        and a play that differs in which card the Automa turns up next differs by chance."""
        keep, best, totals = self.keep, self.best, self.totals
        if keep is not None and totals[best] - totals[keep] < SAMPLES * MARGIN:
            return self.candidates[keep]
        return self.candidates[best]


def weigh(state: GameState, rng: SeededStream | Dice) -> Weighed | Action:
    """The candidates of :func:`strong_action` valued on the shuffles, or the play itself
    when there is nothing to weigh (a single legal play, or a wait in vain when every play
    looks lost)."""
    valued = list(valued_actions(state))
    if len(valued) == 1:
        return valued[0][1]
    # A first sift without cards: greedy's value plus the value of the state the play leaves
    # (before any card it needs). Plays that leave the same state but for the bomber's facing
    # are one candidate (candidate_key): neither value reads the facing, so the look-ahead
    # could tell them apart only by chance, and their copies crowded other plays out of the
    # candidates. The one that needs the fewest turns toward the nearest bunker
    # (turns_to_bunker) stands for them.
    ranked: list[tuple[float, int, float, Action, tuple]] = []
    rows: dict[tuple, int | None] = {}  # a candidate's key -> its row in ranked (None: left out)
    turns: list[int] = []  # each row's turns toward the nearest bunker
    vain: Action | None = None
    keys: list[tuple] = []  # each play's candidate key, in valued's order
    for i, (value, action) in enumerate(valued):
        after = _after(state, action)
        key = candidate_key(state, after)
        keys.append(key)
        if key in rows:
            row = rows[key]
            if row is not None and (t := turns_to_bunker(after)) < turns[row]:
                ranked[row] = (*ranked[row][:3], action, key)
                turns[row] = t
            continue
        rows[key] = None
        if isinstance(action, EndPhase) and len(valued) > 1 and waits_in_vain(state):
            vain = action  # looked at only if every play looks lost (below)
            continue
        prior = PRIOR * value
        if isinstance(action, EndPhase):
            # Waiting is not free: the Automa turns a card (fuel) and fires either way, and a
            # one-turn look-ahead cannot see the turns a wait throws away.
            prior -= TEMPO * (state.ruleset.actions_per_turn - state.actions)
            if len(state.hand) >= state.ruleset.hand_size:
                # and a full hand draws nothing (R6b): the next turn offers the same plays
                prior -= FULL_HAND_WAIT
        rows[key] = len(ranked)
        turns.append(turns_to_bunker(after))
        ranked.append((prior + state_value(after), i, prior, action, key))
    ranked.sort(key=lambda item: (-item[0], item[1]))
    chosen = ranked[:CANDIDATES] + [r for r in ranked[CANDIDATES:] if isinstance(r[3], EndPhase)]
    candidates = [action for _, _, _, action, _ in chosen]
    totals = [SAMPLES * prior for _, _, prior, _, _ in chosen]
    for _ in range(SAMPLES):
        world = state.copy()
        _shuffle(world.draw_pile, rng)
        for i, action in enumerate(candidates):
            totals[i] += _turn_value(world, action, rng)
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    if vain is not None and totals[best] < SAMPLES * LOST:
        # Every play looks like the end of the mission: waiting, even in vain, lives longer.
        waiting = 0.0
        for _ in range(SAMPLES):
            world = state.copy()
            _shuffle(world.draw_pile, rng)
            waiting += _turn_value(world, vain, rng)
        if waiting > totals[best]:
            return vain
    # Greedy's choice may be another facing of a candidate's move: then it is that candidate.
    # (greedy_action's pick, made from the plays already valued and keyed above)
    ties = best_of((value, i) for i, (value, _) in enumerate(valued))
    mine = keys[ties[rng.below(len(ties))]]
    keep = next((i for i, row in enumerate(chosen) if row[4] == mine), None)
    return Weighed(candidates, totals, best, keep)


def _after(state: GameState, action: Action) -> GameState:
    """A copy of ``state`` with ``action`` played."""
    after = state.copy()
    apply_legal(after, action)
    return after


def turns_to_bunker(state: GameState) -> int:
    """The quarter turns (R9: a point of movement each) a shortest flight from the bomber's
    cell and facing to the nearest bunker needs: none if it flies one way and faces it, one
    to change legs or to turn toward its one way from across, two to turn back."""
    if state.cell is None or not state.bunkers or state.facing is None:
        return 0
    cell = state.cell
    goal = nearest_bunker(cell, list(state.bunkers))
    useful = set()
    if goal.column > cell.column:
        useful.add(Facing.EAST)
    elif goal.column < cell.column:
        useful.add(Facing.WEST)
    if goal.row > cell.row:
        useful.add(Facing.SOUTH)
    elif goal.row < cell.row:
        useful.add(Facing.NORTH)
    if not useful:
        return 0
    if state.facing in useful:
        return len(useful) - 1
    return 2 if state.facing.turned_left().turned_left() in useful else 1


def candidate_key(state: GameState, after: GameState) -> tuple:
    """What tells apart the plays from ``state`` for the look-ahead: the state ``after``
    one, but for the bomber's facing (:func:`search.state_key` with the facing of ``state``)."""
    facing = after.facing
    after.facing = state.facing
    key = state_key(after)
    after.facing = facing
    return key


def _shuffle(pile: list[Card], rng: SeededStream | Dice) -> None:
    """Fisher–Yates with the game's dice."""
    for i in range(len(pile) - 1, 0, -1):
        j = rng.below(i + 1)
        pile[i], pile[j] = pile[j], pile[i]


def _turn_value(world: GameState, action: Action, rng: SeededStream | Dice) -> float:
    """Play ``action`` in a copy of ``world`` (its pile shuffled), the rest of the turn
    greedily, the Automa, and the next turn's draw; value where the next actions begin."""
    return state_value(play_on(world, action, rng))


def play_on(world: GameState, action: Action, rng: SeededStream | Dice,
            turns: int | None = HORIZON) -> GameState:
    """A copy of ``world`` (its pile shuffled) with ``action`` played, then greedy's plays
    and the cards drawn as the look-ahead draws them, to the start of the actions ``turns``
    turns on (None: to the end of the mission)."""
    state = world.copy()
    turn, exhaustions = state.turn, state.exhaustions
    apply_legal(state, action)
    phases, over, automa = CHANCE_PHASES, Phase.OVER, Phase.AUTOMA_REVEAL
    while state.phase is not over:
        if state.exhaustions != exhaustions:
            # The discard became the pile (R22) in the engine's order; drawing blind, the
            # player cannot know it (a challenge's reshuffle numbers, R26, are not looked
            # at): shuffle it like the rest of the unseen cards.
            exhaustions = state.exhaustions
            _shuffle(state.draw_pile, rng)
        if state.phase in phases:
            # The Automa's card from the bottom, the player's from the top: in a shuffled
            # pile any fixed places are a fair draw, and this way every candidate meets the
            # same Automa card however many cards it draws first.
            reveal_drawn(state, len(state.draw_pile) - 1 if state.phase is automa else 0)
        elif turns is not None and state.turn - turn >= turns:
            break
        else:
            apply_legal(state, greedy_action(state, rng))
    return state


def is_stuck_hand(state: GameState) -> bool:
    """The bomber waits for its actions with a full hand and nothing to play but the end of
    the phase. The draw only fills the hand up to its size (R6b), so no card comes until one
    is played: the bomber passes while the Automa fires."""
    if state.phase is not Phase.ACTIONS or len(state.hand) < state.ruleset.hand_size:
        return False
    return legal_plays_by_kind(state).keys() == _ONLY_END


def is_dead_hand(state: GameState) -> bool:
    """A stuck hand (:func:`is_stuck_hand`) that nothing will free (:func:`can_be_freed`).
    Two red altitude cards at the ceiling, 6s and a bomb off any target is one: the mission
    ends by the Automa's fire."""
    return is_stuck_hand(state) and not can_be_freed(state)


def can_be_freed(state: GameState) -> bool:
    """Whether the Automa could soon make a card of the hand playable without the player: a
    guns card, at an altitude the guns fire from (R15), and an artillery piece that can walk
    into line within ``FREE_STEPS`` steps (:func:`steps_to_free`). Nothing else the Automa
    does opens a play."""
    steps = steps_to_free(state)
    return steps is not None and steps <= FREE_STEPS


def steps_to_free(state: GameState) -> int | None:
    """The fewest Automa moves (R19, R20) after which an artillery piece stands where the
    bomber's guns reach it (R14, R15), if the hand holds a guns card it can fire; None if
    none can. Each piece is followed alone (the others may move out of its way) on the two
    ways it moves, toward the bomber (Hearts, Diamonds) and toward the nearest surviving
    bunker (Spades); mountains and surviving bunkers block it."""
    rs, cell = state.ruleset, state.cell
    if cell is None or not state.artillery or state.altitude > rs.guns_max_altitude or not any(
            rs.card_kinds[c.rank].play is Play.GUNS for c in state.hand):
        return None
    mountains, bunkers, reach = state.mountains, state.bunkers, rs.guns_range
    targets = list(bunkers)  # (nearest_bunker)
    best = None
    for piece in state.artillery:
        seen, layer, depth = {piece}, [piece], 0
        while layer and (best is None or depth < best):
            if any(is_in_range(p, cell, reach, mountains) for p in layer):
                best = depth
                break
            depth += 1
            nxt = []
            for p in layer:
                for goal in (cell, nearest_bunker(p, targets) if targets else None):
                    to = None if goal is None else step_toward(p, goal)
                    if to is not None and to not in seen and to not in mountains \
                            and to not in bunkers:
                        seen.add(to)
                        nxt.append(to)
            layer = nxt
    return best


def waits_in_vain(state: GameState) -> bool:
    """Ending the phase now only brings back this decision: no action taken yet, a full hand
    (so no card is drawn, R6b) and nothing the Automa could free. Each such wait costs a
    turn of the Automa's fire and fuel, and a one-turn look-ahead cannot see that it loops."""
    return (state.phase is Phase.ACTIONS and state.actions == 0
            and len(state.hand) >= state.ruleset.hand_size and not can_be_freed(state))


def junk_cards(state: GameState) -> int:
    """How many cards of the hand the bomber cannot play where it is: a bomb card with no
    target below (R16), a guns card above the guns' ceiling or with no piece in reach (R15), an
    altitude card the ceiling or the floor stops, a throttle card (a 9 in the standard ruleset)
    with no altitude card to pair. Without a movement card the bomber cannot take them
    anywhere else; a hand of them is stuck."""
    rs = state.ruleset
    kinds, altitude, top = rs.card_kinds, state.altitude, rs.max_altitude
    bomb_ok = bomb_target(state) is not None
    guns_ok = can_fire_guns(state) and bool(guns_targets(state))
    junk = nines = 0
    climbs = False
    for c in state.hand:
        play = kinds[c.rank].play
        if play is Play.BOMB:
            junk += not bomb_ok
        elif play is Play.GUNS:
            junk += not guns_ok
        elif play is Play.ALTITUDE:
            ok = 0 <= altitude + altitude_delta(rs, c) <= top
            climbs |= ok
            junk += not ok
        elif play is Play.THROTTLE:
            nines += 1
    return junk if climbs else junk + nines


def state_value(state: GameState) -> float:
    """How promising ``state`` is: the score (R24) first, then health to spare, the way to
    the nearest bunker, a bomb and a movement card in hand (without one, the cards that cannot
    be played here), the altitude (:func:`altitude_value`), and fuel left."""
    total = score(state).total
    if state.phase is Phase.OVER:
        return (1000 if state.outcome is Outcome.VICTORY else -1000) + 10 * total
    if is_dead_hand(state):
        return DEAD_HAND + 10 * total
    value = 10.0 * total
    if is_stuck_hand(state):
        value += STUCK_HAND - STUCK_STEP * (steps_to_free(state) or 0)
    spare = state.health - state.damage
    if spare <= 1:
        value -= 25  # one more hit ends the mission
    value += 3 * spare
    if state.bunkers:
        if state.cell is None:
            near = min(b.row for b in state.bunkers)  # entry is on row 1
        else:
            near = min(distance(state.cell, b) for b in state.bunkers)
        value -= 2.5 * near
    kinds = state.ruleset.card_kinds
    if any(kinds[c.rank].play in _BOMB_PLAYS for c in state.hand):
        value += BOMB_CARD
    if any(kinds[c.rank].play in _MOVE_PLAYS for c in state.hand):
        value += MOVE_CARD  # a hand without one cannot fly on
    elif state.cell is not None:
        # nor take the cards it cannot play here anywhere else: each one brings a stuck hand
        # (nothing to play, nothing drawn, R6b) nearer
        value -= JUNK_CARD * junk_cards(state)
    if state.cell is not None:
        value += altitude_value(state.ruleset, state.altitude)
    value -= 6 * state.exhaustions
    # Fuel: every card taken from the pile or out of the hand brings the next exhaustion nearer.
    value -= FUEL_WEIGHT * (state.cards_drawn + state.ruleset.hand_size - len(state.hand))
    return value


def altitude_value(rs: Ruleset, altitude: int) -> float:
    """What flying at ``altitude`` is worth for the hand and against the artillery. In
    standard-1: 3 at altitudes 2 and 3, where every altitude card can be played (10/J ±1, Q
    ±2 stay within 0-5, R7), 1 more at 3, where the artillery reaches only an adjacent cell
    (max(1, 4 - 3), R18) and the guns destroy (R15: suppress only at 4); ``CEILING`` at 5
    (red altitude cards and guns cannot be played there), ``FLOOR`` at 0 (black ones)."""
    if altitude >= rs.max_altitude:
        return CEILING
    if altitude <= 0:
        return FLOOR
    step = max(rs.altitude_steps, default=0)
    value = ALTITUDE_ROOM if step <= altitude <= rs.max_altitude - step else 0.0
    if rs.artillery_reach(altitude) <= rs.artillery_reach_minimum \
            and altitude < rs.guns_suppress_altitude:
        value += ALTITUDE_SAFE
    return value
