"""The par of a challenge: the best score a fixed portfolio of searches finds on its deck.

A challenge deck (R25, R26) fixes every card, so the mission is a one-player game of perfect
information, and the par is the open-deck par of R42 (every card in view). Exhaustive
search is out of reach (thousands of distinct states after two turns, missions of 15–30
turns), so the par is the best of a fixed, versioned portfolio of beam searches over whole
turns (:func:`players.search.turn_outcomes`):

* a node is the state at the first decision of a turn (or the end of the mission);
* the beam's layers are keyed by the cards drawn so far (the fuel used, which every turn
  increases), not by turn number; each layer keeps its ``width`` best nodes by a heuristic
  value, and states already met (:func:`players.search.state_key`) are dropped;
* a node that cannot beat the best end found, even destroying everything left, is pruned;
* each turn's outcomes are those of its first ``turn_limit`` distinct states (breadth-first,
  so every first play is kept): a turn with Kings and Jokers holds thousands.

A beam runs until no layer is left (every line ended or pruned). The members differ in
their heuristic weights: diversity finds more than width (portfolio 2's five width-1 beams
found a victory on all 30 tuning challenges, seeds 5000–5029). Portfolio 3 runs them in
passes of growing width while the solve's budget lasts (:func:`next_pass`): a cheap
challenge gets wider searches, an expensive one stays near portfolio 2's cost. Every budget
is counted in states (turn outcomes generated, distinct states within a turn), never in
seconds, so the par is the same on every machine; a deadline in seconds may only cut a
search short, and the result says so. A beam that spends its node budget dives to an end:
see :func:`beam`.

The upper bound is a relaxation: 2 points a bunker and 1 an artillery piece, all destroyed
(R24: 16 on the standard map), minus the damage no line avoids — the first entry card is the
top card of the deck, and a face card or Joker there costs 1 damage (R13) before any choice.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..challenges.codes import ChallengeSpec
from ..challenges.mission import Mission, mission_from_spec
from ..rules.actions import Action
from ..rules.cards import Card
from ..rules.setup import GameMap
from ..rules.board import CELLS, distance
from ..rules.engine import new_game, score
from ..rules.ruleset import Play, Ruleset
from ..rules.state import GameState, Outcome
from .search import (best_possible, card_mask, play_plan, run_chance, state_key, turn_outcomes,
                     without_cycle_collection)

#: A search node: the state at a turn's first decision, the node it came from, the plays of
#: the turn between them and the state's :func:`state_key`.
#: (The parent is a plain tuple: mypyc cannot compile a recursive alias.)
Node = tuple[GameState, "tuple | None", tuple[Action, ...], tuple]

#: Bumped whenever the members, their weights, the passes' widths or any budget change: a par
#: is quoted with it (a league stores it with each solver par).
PORTFOLIO_VERSION = 4


@dataclass(frozen=True)
class Member:
    """One beam search: its width, node budget and heuristic weights (see :func:`value`)."""

    name: str
    width: int
    nodes: int
    toward: float     # per cell closer to the nearest bunker
    bombs: float      # per bomb card in hand (the card table's: 7, 8, A, Joker in standard-1), up to two
    moves: float      # per movement card (2-5, Joker) in hand, up to two
    margin: float     # per point of health left
    poised: float     # on a target with a bomb card in hand
    low: float        # per altitude band below the ceiling while on a target
    fuel: float = 1.0  # per card drawn, when the dive compares outcomes of one turn
    turn_limit: int = 400  # distinct states looked at within one turn (turn_outcomes' limit)


#: Portfolio 2's members: five width-1 beams, the strongest first (a tie goes to the earlier
#: member). Tuning seeds 5000–5029, normal, 1 ridge, each beam alone: careful found a victory
#: on 25 of 30, wary 24, balanced 24, pilot 21, bombardier 12 (but on some that the others
#: lost); together 30 of 30, the best five of the eight weight sets tried. Ten times wider
#: and longer, they are the yardstick ``bench/bench_solve.py`` measures a par against.
PORTFOLIO_2: tuple[Member, ...] = (
    Member("careful", 1, 50_000, 1.5, 2.0, 1.0, 9.0, 4.0, 0.5),
    Member("wary", 1, 50_000, 1.0, 4.0, 2.0, 6.0, 6.0, 1.0),
    Member("balanced", 1, 50_000, 2.0, 3.0, 1.0, 4.0, 5.0, 0.5),
    Member("pilot", 1, 50_000, 3.0, 1.0, 4.0, 3.0, 3.0, 0.0),
    Member("bombardier", 1, 50_000, 2.0, 6.0, 0.5, 3.0, 8.0, 1.0),
)

#: The standard portfolio (version :data:`PORTFOLIO_VERSION`): portfolio 2's members, run in
#: passes of growing width (:data:`WIDTHS`) while the solve's budget lasts (:data:`SOLVE_NODES`).
PORTFOLIO: tuple[Member, ...] = PORTFOLIO_2

#: The width of each pass: every member at width 1, then every member at width 2, and so on.
WIDTHS: tuple[int, ...] = (1, 2, 3, 4, 6, 8)
#: Turn outcomes a whole solve may visit, every pass and member together: a pass's members
#: share what is left equally (a member that spends its share dives to an end, see
#: :func:`beam`). A pass at width ``w`` after the first runs only if each share is at least
#: ``LEAST_SHARE × w``: a beam cut much shorter than it needs dives early and rarely finds
#: better (seen on tuning seeds 1008 and 1012).
SOLVE_NODES = 180_000
LEAST_SHARE = 8_000


_BOMB_PLAYS = (Play.BOMB, Play.WILD)  # a Joker bombs and moves too (R17)
_MOVE_PLAYS = (Play.MOVE, Play.WILD)
_SCORE_WEIGHT = 10.0
_NO_BUNKER_DISTANCE = 9  # off the map: about the distance from row 1 to a bunker


_DISTANCE = tuple(tuple(distance(a, b) for b in CELLS) for a in CELLS)


HandTables = tuple[tuple[bool, ...], tuple[bool, ...]]


def hand_tables(ruleset: Ruleset) -> HandTables:
    """By rank, from the ruleset's card table: which cards bomb and which move."""
    kinds = ruleset.card_kinds
    return tuple(k.play in _BOMB_PLAYS for k in kinds), tuple(k.play in _MOVE_PLAYS for k in kinds)


def value(state: GameState, m: Member, tables: HandTables | None = None) -> float:
    """The heuristic a beam ranks a layer by: the score, then the member's weighted hints.
    ``tables``: :func:`hand_tables` of the state's ruleset, when the caller has them."""
    is_bomb, is_move = hand_tables(state.ruleset) if tables is None else tables
    ranks = [c.rank for c in state.hand]
    bombs = sum(map(is_bomb.__getitem__, ranks))
    moves = sum(map(is_move.__getitem__, ranks))
    cell = state.cell
    if cell is None:
        near = _NO_BUNKER_DISTANCE
    else:
        row = _DISTANCE[cell]
        near = min(map(row.__getitem__, state.bunkers), default=0)
    on_target = cell is not None and (cell in state.bunkers or cell in state.artillery)
    v = _SCORE_WEIGHT * score(state).total
    v -= m.toward * near
    v += m.bombs * min(bombs, 2) + m.moves * min(moves, 2)
    v += m.margin * (state.health - state.damage)
    if on_target and bombs:
        v += m.poised + m.low * (state.ruleset.max_altitude - state.altitude)
    return v


@dataclass(frozen=True)
class Line:
    """A search's best end: its score, outcome, turns and plays from the mission's start."""

    score: int
    outcome: str
    turns: int
    plays: tuple

    @property
    def is_victory(self) -> bool:
        return self.outcome == str(Outcome.VICTORY)


@dataclass(frozen=True)
class MemberResult:
    member: str
    line: Line | None
    nodes: int
    complete: bool  # False: the deadline cut it short


class SharedTurns:
    """The outcomes of the turns one solve has expanded, shared by its members: they often
    expand the same nodes (all of them the start; about a quarter of all expansions, in the
    first turns), and :func:`turn_outcomes` is deterministic, so sharing changes no result,
    only the time. The states kept are never mutated (a beam only copies a node).

    ``capacity`` bounds the outcome states kept (memory: a few kB each); once it is reached
    new turns are expanded without being kept. The early turns, where the members meet, come
    first."""

    def __init__(self, capacity: int) -> None:
        self._known: dict = {}
        self._room = capacity

    def outcomes(self, state: GameState, key: tuple, limit: int) -> dict:
        """:func:`turn_outcomes` of ``state`` (whose :func:`state_key` is ``key``)."""
        known = self._known.get((key, limit))
        if known is None:
            known = turn_outcomes(state, limit)
            if len(known) <= self._room:
                self._room -= len(known)
                self._known[key, limit] = known
        return known


#: Outcome states a solve keeps for its members to share (about 80 MB): 21% fewer turns
#: expanded on tuning seeds 5000-5002, and an unbounded store (70,000 states) saves 22%.
SHARED_TURN_STATES = 20_000


def start_of(state: GameState) -> GameState:
    """A fresh challenge mission (``state``, on its known deck) at its first decision: the
    forced entry and draw revealed."""
    run_chance(state)
    return state


def beam(start: GameState, member: Member, deadline: float | None = None,
         scale: int = 1, turns: SharedTurns | None = None) -> MemberResult:
    """One member's search from ``start`` (a decision of a challenge mission, as
    :func:`start_of` gives). ``scale`` multiplies width and budget (a longer search for
    comparisons); ``deadline`` (``time.monotonic()``) only cuts it short.

    While the node budget lasts, the lowest layer (fewest cards drawn) is expanded next;
    once it is spent, the search dives: from the best node of the deepest layer it follows
    the best outcome of each turn (its value less ``fuel`` a card drawn) to the end, so
    every member ends with a whole line.

    ``turns``: the turns already expanded by the other members of one solve
    (:class:`SharedTurns`)."""
    with without_cycle_collection():
        return _beam(start, member, deadline, scale, turns)


def _beam(start: GameState, member: Member, deadline: float | None, scale: int,
          turns: SharedTurns | None) -> MemberResult:
    width, budget = member.width * scale, member.nodes * scale
    tables = hand_tables(start.ruleset)
    layers: dict[int, list] = {}
    seen: set = set()
    best: tuple | None = None  # (score, node)
    nodes, order = 0, 0
    complete = True

    def offer(state: GameState, parent: Node | None, plays: tuple[Action, ...], key: tuple) -> None:
        nonlocal best, order
        node = (state, parent, plays, key)
        if state.is_over:
            total = score(state).total
            if best is None or total > best[0]:
                best = (total, node)
            return
        if best is not None and best_possible(state) <= best[0]:
            return
        order += 1
        layers.setdefault(state.cards_drawn, []).append((-value(state, member, tables), order, node))

    limit = member.turn_limit
    turns = SharedTurns(0) if turns is None else turns

    def expand(node: Node) -> None:
        nonlocal nodes
        for key, (child, plays) in turns.outcomes(node[0], node[3], limit).items():
            nodes += 1
            if key not in seen:
                seen.add(key)
                offer(child, node, plays, key)

    offer(start, None, (), state_key(start))
    while layers and nodes < budget:
        if deadline is not None and time.monotonic() > deadline:
            complete = False
            break
        layer = layers.pop(min(layers))
        layer.sort(key=lambda item: item[:2])
        for _, _, node in layer[:width]:
            if best is None or best_possible(node[0]) > best[0]:
                expand(node)
    while layers and complete:  # the dive
        if deadline is not None and time.monotonic() > deadline:
            complete = False
            break
        deepest = layers[max(layers)]
        node = min(deepest, key=lambda item: item[:2])[2]
        layers.clear()
        if best is None or best_possible(node[0]) > best[0]:
            expand(node)
        if layers:
            here = _standing(node[0])
            children = [item for layer in layers.values() for item in layer]
            # A pass keeps every hope and spends the least fuel, so a value alone would
            # pass for ever; the dive moves on whenever anything else is possible.
            moving = [item for item in children if _standing(item[2][0]) != here] or children
            pick = max(moving, key=lambda item: (-item[0] - member.fuel * item[2][0].cards_drawn,
                                                 -item[1]))
            layers.clear()
            layers[pick[2][0].cards_drawn] = [pick]
    if best is None:
        return MemberResult(member.name, None, nodes, complete)
    return MemberResult(member.name, _line(best[0], best[1]), nodes, complete)


def _standing(state: GameState) -> tuple:
    """Where the bomber is and what it holds: unchanged by a turn of passing."""
    return (state.cell, state.facing, state.altitude, card_mask(state.hand))


def _line(total: int, last: Node) -> Line:
    final = last[0]
    chunks: list[tuple[Action, ...]] = []
    node: tuple | None = last
    while node is not None:  # up to the root's parent, None
        chunks.append(node[2])
        node = node[1]
    plays = tuple(p for chunk in reversed(chunks) for p in chunk)
    outcome = str(final.outcome)
    return Line(total, outcome, final.turn, plays)


def upper_bound(start: GameState, deck: Sequence[Card]) -> int:
    """The relaxation in the module docstring: every target destroyed, and only the damage of
    a face card or Joker as the first entry card (R13)."""
    rs = start.ruleset
    gm = start.game_map
    full = rs.score_bunker * len(gm.bunkers) + rs.score_artillery * len(gm.artillery)
    first = deck[0]
    return full + (rs.score_damage * rs.face_entry_damage if not first.is_number else 0)


@dataclass(frozen=True)
class Par:
    """The portfolio's answer: the best line (ties: the earlier member), and each member."""

    best: Line | None
    members: tuple[MemberResult, ...]
    upper_bound: int
    planned: int  # searches in the passes begun; fewer ran if a deadline cut the search short

    @property
    def complete(self) -> bool:
        return len(self.members) == self.planned and all(r.complete for r in self.members)

    @property
    def victories(self) -> int:
        return sum(1 for r in self.members if r.line is not None and r.line.is_victory)

    @property
    def victory_found(self) -> bool:
        """The best line is a victory (``bgrid solve --json``'s ``victory_found``; winnable)."""
        return self.best is not None and self.best.is_victory

    @property
    def optimal(self) -> bool:
        return self.best is not None and self.best.score >= self.upper_bound


def best_of(results: Iterable[MemberResult]) -> Line | None:
    best = None
    for r in results:
        if r.line is not None and (best is None or r.line.score > best.score):
            best = r.line
    return best


def next_pass(results: Sequence[MemberResult], portfolio: Sequence[Member] | None = None,
              widths: Sequence[int] | None = None, budget: int | None = None,
              scale: int = 1) -> tuple[Member, ...]:
    """The members of the next pass of a solve, given the ``results`` of the passes before
    (in order); empty when the solve is done. Pass ``k`` runs every member of ``portfolio``
    at ``widths[k]``, each with its node budget (``nodes``) × the width, capped at an equal
    share of what is left of ``budget``. Done after the last width, when the share is below
    :data:`LEAST_SHARE` × the width once a victory is found (the first pass always runs), when
    nothing is left, or once a deadline cut a search short.
    ``portfolio`` None: the standard one, with :data:`WIDTHS` and :data:`SOLVE_NODES`.
    """
    if portfolio is None:
        portfolio, widths, budget = PORTFOLIO, WIDTHS, SOLVE_NODES
    widths = (1,) if widths is None else widths
    done = len(results) // len(portfolio)
    if done >= len(widths) or any(not r.complete for r in results):
        return ()
    width = widths[done]
    members = tuple(replace(m, name=m.name if width == 1 else f"{m.name}x{width}", width=m.width * width,
                            nodes=m.nodes * width) for m in portfolio)
    if budget is not None:
        share = (budget * scale - sum(r.nodes for r in results)) // (len(portfolio) * scale)
        # A solve with no victory yet spends what is left at any share: a par that ends in
        # defeat is the worst answer it can give (seed 1199: widths 1-3 all lost early).
        if done and share < LEAST_SHARE * width and _victory_in(results):
            return ()
        members = tuple(replace(m, nodes=max(0, min(m.nodes, share))) for m in members)
    if done and not any(m.nodes for m in members):
        return ()
    return members


def _victory_in(results: Sequence[MemberResult]) -> bool:
    return any(r.line is not None and r.line.is_victory for r in results)


def run_passes(run: Callable[[tuple[Member, ...]], list[MemberResult]], start: GameState,
               deck: Sequence[Card], portfolio: Sequence[Member] | None = None,
               widths: Sequence[int] | None = None,
               budget: int | None = None, scale: int = 1) -> Par:
    """The passes of :func:`next_pass` from ``start`` (the mission at its first decision, on
    ``deck``): ``run(members)`` searches each member of a pass in order (``bgrid solve --jobs``
    runs them side by side) and returns their results, stopping early if the deadline cuts
    one short. The passes stop once the best line meets the upper bound."""
    bound = upper_bound(start, deck)
    results: list[MemberResult] = []
    planned = 0
    while True:
        best = best_of(results)
        members = () if best is not None and best.score >= bound else \
            next_pass(results, portfolio, widths, budget, scale)
        if not members:
            return Par(best, tuple(results), bound, max(planned, len(results)))
        planned += len(members)
        results.extend(run(members))


def solve(game_map: GameMap, ruleset: Ruleset, difficulty: str, deck: Sequence[Card],
          reshuffle: Sequence[int], *, deadline: float | None = None,
          portfolio: Sequence[Member] | None = None, widths: Sequence[int] | None = None,
          budget: int | None = None, scale: int = 1,
          progress: Callable[[MemberResult], object] | None = None) -> Par:
    """The par of the challenge mission on ``game_map`` with the known ``deck`` (top first)
    and its ``reshuffle`` numbers (R25, R26): the passes of :func:`next_pass` (``portfolio``,
    ``widths``, ``budget``; the standard portfolio when None), each member in turn, the best
    line kept; ``scale`` multiplies every width and budget. ``progress(result)`` is called
    after each member."""
    start = start_of(new_game(game_map, ruleset, difficulty, deck, reshuffle))
    turns = SharedTurns(SHARED_TURN_STATES)

    def run(members: tuple[Member, ...]) -> list[MemberResult]:
        results = []
        for member in members:
            result = beam(start.copy(), member, deadline, scale, turns)
            results.append(result)
            if progress is not None:
                progress(result)
            if not result.complete:
                break
        return results

    return run_passes(run, start, deck, portfolio, widths, budget, scale)


def solve_mission(mission: Mission, **options: Any) -> Par:
    """:func:`solve` for a mission's challenge deck (R25). Raises :class:`BGridError` for a
    mission with no known deck order."""
    deck, numbers = mission.challenge_deck()
    assert mission.game_map is not None and mission.difficulty is not None  # a deck order has its map
    return solve(mission.game_map, mission.ruleset, mission.difficulty, deck, numbers, **options)


#: How many seeds ``first_winnable`` tries before giving up.
WINNABLE_TRIES = 20


def winning_par(spec: ChallengeSpec, **options: Any) -> int | None:
    """The par of a ``ChallengeSpec``'s challenge deck when the portfolio's solve finds a
    victory, else None: the ``accept`` test of winnable dated challenges
    (``challenges.daily.dated_spec``), which keeps the par it found for the sheet."""
    best = solve_mission(mission_from_spec(spec), **options).best
    return best.score if best is not None and best.is_victory else None


def first_winnable(spec: ChallengeSpec, tries: int = WINNABLE_TRIES,
                   before: Callable[[ChallengeSpec], object] | None = None,
                   **options: Any) -> tuple[Mission, Par]:
    """The documented rule for winnable challenges: the first seed from ``spec.seed`` onward
    (same ruleset, difficulty and ridges) whose solve finds a victory. Returns (mission,
    par); raises :class:`BGridError` when none of ``tries`` seeds solves to a victory.
    ``before(candidate)`` is called as each candidate's solve begins (``pack --winnable``
    starts its blind benchmark beside the solve)."""
    from dataclasses import replace

    from ..rules.errors import BGridError

    for seed in range(spec.seed, spec.seed + tries):
        candidate = replace(spec, seed=seed)
        if before is not None:
            before(candidate)
        mission = mission_from_spec(candidate)
        par = solve_mission(mission, **options)
        if par.victory_found:
            return mission, par
    raise BGridError(f"no winnable challenge among seeds {spec.seed} to {spec.seed + tries - 1}")


def solution_log(mission: Mission, line: Line, state_lines: bool = False, rows: bool = False) -> str:
    """The line as a mission log on the challenge deck, claiming its outcome and score
    (``bgrid solve --write-log``; the league's par line, ``league.integrity``);
    ``state_lines`` closes every turn with a state line, ``rows`` writes the row form."""
    from ..log.writer import mission_lines, write_log

    state = mission.start(challenge_deck=True)
    events = play_plan(state, line.plays)
    claim = (str(state.outcome), score(state).total)
    artillery = mission.game_map.artillery if state_lines and mission.game_map is not None else None
    return write_log(events, mission_lines(mission.as_challenge()), claim=claim, artillery=artillery,
                     rows=rows)
