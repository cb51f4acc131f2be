"""The engine against a second, independent reading of the rules: small reference referees
written here straight from the rulebook and rulings, on (column, row) pairs, sharing no code
with ``rules/`` beyond building the state. Thousands of seeded random positions each; any
difference is a rule one of the two gets wrong."""

import random
from collections import Counter

import pytest

from bgrid.rules import engine
from bgrid.rules.actions import Bomb, EndPhase, Guns, Move, Resupply, Throttle
from bgrid.rules.board import Cell
from bgrid.rules.cards import FULL_DECK, Card, parse_cards
from bgrid.rules.errors import IllegalActionError

from engine_boards import board, placed

ALL = [(c, r) for c in range(10) for r in range(1, 11)]
PASS_HAND = "KS QS JS KC QC"


def name(cr) -> str:
    return "ABCDEFGHIJ"[cr[0]] + str(cr[1])


def names(cells) -> str:
    return " ".join(name(c) for c in cells)


def pair(cell: Cell):
    return (cell.column, cell.row)


def line_of_sight(a, b, mountains) -> bool:
    """Rulebook LOS, R14: a shared row or column, no mountain strictly between."""
    if a[0] == b[0]:
        lo, hi = sorted((a[1], b[1]))
        return not any((a[0], r) in mountains for r in range(lo + 1, hi))
    if a[1] == b[1]:
        lo, hi = sorted((a[0], b[0]))
        return not any((c, a[1]) in mountains for c in range(lo + 1, hi))
    return False


def steps(a, b) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


# -- Automa steps 2-4 (R18-R21, R34) ----------------------------------------------------

def reference_automa(mountains, bunkers, artillery, suppressed, bomber, altitude, card):
    """-> (artillery after step 3, damage taken)."""
    if card.is_joker:
        return set(artillery), 0
    reach = max(1, 4 - altitude)
    ready = [p for p in artillery if p not in suppressed]
    firing = [p for p in ready if line_of_sight(p, bomber, mountains) and steps(p, bomber) <= reach]
    suit = card.suit.value
    where = set(artillery)
    for p in sorted(set(ready) - set(firing)):  # (column, row) order
        if suit == "C":
            continue
        if suit in "HD":
            goal = bomber
        elif bunkers:
            goal = min(bunkers, key=lambda b: (steps(p, b), b[0], b[1]))
        else:
            continue
        dc, dr = goal[0] - p[0], goal[1] - p[1]
        if (dc, dr) == (0, 0):
            continue
        if abs(dr) >= abs(dc):
            nxt = (p[0], p[1] + (1 if dr > 0 else -1))
        else:
            nxt = (p[0] + (1 if dc > 0 else -1), p[1])
        if nxt in mountains or nxt in bunkers or nxt in where:
            continue
        where.discard(p)
        where.add(nxt)
    return where, 1 if firing else 0


def test_automa_matches_the_reference_on_random_positions():
    rng = random.Random(20261129)
    deck = [c for c in FULL_DECK]
    for _ in range(3000):
        cells = rng.sample(ALL, 20)
        mountains = set(cells[:rng.randrange(0, 9)])
        free = [c for c in cells if c not in mountains]
        bunkers = set(free[:rng.randrange(1, 7)])
        artillery = set(free[len(bunkers):len(bunkers) + rng.randrange(1, 7)])
        suppressed = {p for p in artillery if rng.random() < 0.2}
        bomber = rng.choice(ALL)
        altitude = rng.randrange(0, 6)
        automa_card = rng.choice(deck)
        hand = PASS_HAND if automa_card not in parse_cards(PASS_HAND) else "2C 3C 4C 5C 6C"
        state = placed(board(names(mountains), names(bunkers), names(artillery)), name(bomber),
                       altitude=altitude, hand=hand, top=str(automa_card))
        state.suppressed = {Cell.parse(name(p)) for p in suppressed}
        engine.apply(state, EndPhase())
        engine.reveal(state, automa_card)
        expected, damage = reference_automa(mountains, bunkers, artillery, suppressed, bomber,
                                            altitude, automa_card)
        situation = (names(mountains), names(bunkers), names(artillery), names(suppressed),
                     name(bomber), altitude, str(automa_card))
        assert {pair(c) for c in state.artillery} == expected, situation
        assert state.damage == damage, situation
        assert not state.suppressed, situation  # step 4, Joker or not (R21)


# -- bombs and guns (R15-R17, R32, R39) -------------------------------------------------

def reference_bomb(altitude, played, revealed, chain, crater) -> str:
    red = revealed.is_joker or revealed.suit.value in "HD"
    hearts = revealed.is_joker or revealed.suit.value == "H"
    if played.rank == 1 or altitude <= 2:
        band = 2 if red else 1
    else:
        band = 2 if hearts else 1 if red else 0
    if band < 2 and (chain or crater):
        band += 1
    return ("miss", "near", "hit")[band]


def test_bombs_match_the_reference_on_random_positions():
    rng = random.Random(44)
    bombs = ([c for c in FULL_DECK if c.rank in (1, 7, 8)]
             + [Card.parse(f"JK={r}{s}") for r in "A78" for s in "HDCS"])
    reveals = [c for c in FULL_DECK]
    for _ in range(3000):
        played, revealed = rng.choice(bombs), rng.choice(reveals)
        if revealed == played.physical:
            continue
        altitude = rng.randrange(0, 6)
        target = rng.choice([(c, r) for c in range(1, 9) for r in range(2, 10)])
        around = [(target[0] + dc, target[1] + dr) for dc, dr in ((0, 1), (0, -1), (1, 0), (-1, 0))]
        diagonal = [(target[0] + dc, target[1] + dr) for dc in (1, -1) for dr in (1, -1)]
        destroyed = set(rng.sample(around + diagonal + [target], rng.randrange(0, 3)))
        crater = rng.random() < 0.3
        is_bunker = rng.random() < 0.5
        state = placed(board(bunkers=name(target) + " J10" if is_bunker else "J10",
                             artillery="" if is_bunker else name(target)),
                       name(target), altitude=altitude, hand=str(played.physical), top=str(revealed))
        state.destroyed = {Cell.parse(name(c)) for c in destroyed}
        if crater:
            state.craters.add(Cell.parse(name(target)))
        engine.apply(state, Bomb(played))
        engine.reveal(state, revealed)
        result = reference_bomb(altitude, played.acting, revealed,
                                any(c in destroyed for c in around), crater)
        here = Cell.parse(name(target))
        gone = here not in state.bunkers and here not in state.artillery
        situation = (altitude, str(played), str(revealed), names(destroyed), crater)
        assert gone == (result == "hit"), situation
        assert (here in state.craters) == (crater or result == "near"), situation
        if result == "hit":
            assert here in state.destroyed
            assert (state.bunkers_destroyed, state.artillery_destroyed) == ((1, 0) if is_bunker else (0, 1))


def test_guns_match_the_reference_on_random_positions():
    rng = random.Random(6)
    for _ in range(2000):
        cells = rng.sample(ALL, 12)
        mountains = set(cells[:rng.randrange(0, 6)])
        target, bomber = cells[8], rng.choice([cells[9], cells[8]])
        altitude = rng.randrange(0, 6)
        was_suppressed = rng.random() < 0.3
        revealed = rng.choice([c for c in FULL_DECK if c != Card.parse("6H")])  # 6H is played
        state = placed(board(names(mountains), "J10" if target != (9, 10) else "A10", name(target)),
                       name(bomber), altitude=altitude, hand="6H", top=str(revealed))
        if was_suppressed:
            state.suppressed.add(Cell.parse(name(target)))
        play = Guns(Card.parse("6H"), Cell.parse(name(target)))
        legal = altitude <= 4 and line_of_sight(bomber, target, mountains) and steps(bomber, target) <= 3
        situation = (names(mountains), name(target), name(bomber), altitude, str(revealed))
        assert (play in engine.legal_actions(state)) == legal, situation
        if not legal:
            with pytest.raises(IllegalActionError):
                engine.apply(state, play)
            continue
        engine.apply(state, play)
        engine.reveal(state, revealed)
        red = revealed.is_joker or revealed.suit.value in "HD"
        here = Cell.parse(name(target))
        if red and altitude <= 3:
            assert here not in state.artillery and state.artillery_destroyed == 1, situation
        else:
            assert here in state.artillery, situation
            assert (here in state.suppressed) == (was_suppressed or (red and altitude == 4)), situation


# -- movement (R9, R31) -----------------------------------------------------------------

HEADING = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
LEFT = {"N": "W", "W": "S", "S": "E", "E": "N"}
RIGHT = {v: k for k, v in LEFT.items()}


def reference_move(at, facing, word, points, mountains, altitude):
    """-> None (illegal) or (cell or None when exited, facing)."""
    if len(word) > points:
        return None
    forward = False
    for i, step in enumerate(word):
        if step in "LR":
            facing = (LEFT if step == "L" else RIGHT)[facing]
            continue
        dc, dr = HEADING[facing]
        ahead = (at[0] + dc, at[1] + dr)
        last = i == len(word) - 1
        if not (0 <= ahead[0] < 10 and 1 <= ahead[1] <= 10):
            return (None, facing) if last else None  # an exit is a forward step and the end
        if ahead in mountains and altitude < 4:
            return (at, facing) if last and forward else None
        at, forward = ahead, True
    return (at, facing) if forward else None


def test_moves_match_the_reference_on_random_step_lists():
    rng = random.Random(9)
    for _ in range(4000):
        at = rng.choice(ALL)
        mountains = set(rng.sample(ALL, rng.randrange(0, 25))) - {at}
        facing = rng.choice("NESW")
        altitude = rng.choice((2, 3, 4, 5))
        points = rng.randrange(2, 8)
        word = "".join(rng.choice("FFLR") for _ in range(rng.randrange(1, points + 2)))
        rank = points if points <= 5 else points - 2
        state = placed(board(names(mountains)), name(at), facing, altitude=altitude,
                       hand=f"{rank}H 9C")
        move = Move(Card.parse(f"{rank}H"), word)
        play = move if points <= 5 else Throttle(Card.parse("9C"), move)
        expected = reference_move(at, facing, word, points, mountains, altitude)
        situation = (names(mountains), name(at), facing, altitude, points, word)
        try:
            engine.apply(state, play)
        except IllegalActionError:
            assert expected is None, situation
            continue
        assert expected is not None, situation
        cell = None if state.cell is None else pair(state.cell)
        assert cell == expected[0], situation
        if cell is not None:
            assert str(state.facing) == expected[1], situation


# -- whole missions: the turn, the deck and the end (R6, R8, R13, R22, R23, R28-R30, R35) --

class Referee:
    """A second referee for a whole mission with the player's own deck, fed the same cards
    and decisions as the engine. Cards are counted by their physical face (a Joker as JK)."""

    def __init__(self, game_map, health):
        self.mountains = {pair(c) for c in game_map.mountains}
        self.bunkers = {pair(c) for c in game_map.bunkers}
        self.artillery = {pair(c) for c in game_map.artillery}
        self.suppressed, self.craters, self.destroyed = set(), set(), set()
        self.cell = self.facing = None
        self.altitude, self.damage, self.health = 4, 0, health
        self.draw = Counter(str(c) for c in FULL_DECK)
        self.hand, self.discard, self.in_play = Counter(), Counter(), Counter()
        self.exhaustions, self.turn, self.actions = 0, 1, 0
        self.phase, self.pending, self.outcome = "entry", None, None
        self.kills = [0, 0]  # bunkers, artillery

    # the end (R23)
    def end(self, outcome):
        self.outcome, self.phase = outcome, "over"

    def hurt(self):
        self.damage += 1
        if self.damage >= self.health:
            self.end("damage")
        return self.outcome is not None

    def purpose(self):
        return self.phase if self.phase in ("entry", "draw", "automa", "reveal") else None

    def settle(self):
        """R22: a card is needed and the draw pile is empty."""
        while self.purpose() and not +self.draw:
            self.exhaustions += 1
            if self.exhaustions == 2:
                return self.end("out-of-fuel")
            self.draw, self.discard = self.discard, Counter()  # R35: in_play stays out
            if self.hurt():
                return

    def to_discard(self, *faces):
        for f in faces:
            self.in_play[f] -= 1
            self.discard[f] += 1

    def begin_draw(self):
        self.phase = "act" if sum(self.hand.values()) >= 5 else "draw"  # R30

    def new_turn(self):
        self.turn += 1
        self.actions = 0
        if self.cell is None:
            self.phase = "entry"
        else:
            self.begin_draw()

    def end_player_phase(self):
        if self.cell is None:
            self.new_turn()  # the Automa phase is skipped (R6)
        else:
            self.phase = "automa"

    def after_action(self):
        if self.outcome:
            return
        self.phase = "act"
        if self.actions >= 2 and not (self.hand["KH"] + self.hand["KD"] + self.hand["KC"]
                                      + self.hand["KS"] + self.hand["JK"]):
            self.end_player_phase()

    def enter(self, face, column, chosen):
        if chosen and self.hurt():
            return
        cell = (column, 1)
        if cell in self.mountains and self.altitude < 4:
            clear = [c for c in range(10) if (c, 1) not in self.mountains]
            if not clear:
                self.cell, self.facing = cell, "S"
                return self.end("crash")  # R28
            cell = (min(clear, key=lambda c: (abs(c - column), c)), 1)
        self.cell, self.facing = cell, "S"
        self.to_discard(face)
        self.begin_draw()

    def destroy(self, cell):
        if cell in self.bunkers:
            self.bunkers.discard(cell)
            self.kills[0] += 1
        else:
            self.artillery.discard(cell)
            self.suppressed.discard(cell)
            self.kills[1] += 1
        self.destroyed.add(cell)
        if not self.bunkers:
            self.end("victory")

    # cards
    def card(self, card):
        face = str(card)
        assert self.draw[face] > 0, face
        self.draw[face] -= 1
        if self.phase == "entry":
            self.in_play[face] += 1
            if card.is_number:
                self.enter(face, card.column, False)
            else:
                self.phase, self.pending = "column", face
        elif self.phase == "draw":
            self.hand[face] += 1
            if sum(self.hand.values()) >= 5:
                self.phase = "act"
        elif self.phase == "reveal":
            action, self.pending = self.pending, None
            if isinstance(action, Resupply):
                self.hand[face] += 1
                self.after_action()
            else:
                self.in_play[face] += 1
                self.resolve(action, card)
                if not self.outcome:
                    self.to_discard(face, str(action.card.physical))
                    self.after_action()
        else:
            self.in_play[face] += 1
            after, damage = reference_automa(self.mountains, self.bunkers, self.artillery,
                                             self.suppressed, self.cell, self.altitude, card)
            if damage and self.hurt():
                return self.settle()
            self.artillery, self.suppressed = after, set()
            self.to_discard(face)
            self.new_turn()
        self.settle()

    def resolve(self, action, revealed):
        if isinstance(action, Guns):
            target = pair(action.target)
            if revealed.is_joker or revealed.suit.value in "HD":
                if self.altitude <= 3:
                    self.destroy(target)
                else:
                    self.suppressed.add(target)
            return
        cell = self.cell
        around = {(cell[0] + dc, cell[1] + dr) for dc, dr in ((0, 1), (0, -1), (1, 0), (-1, 0))}
        result = reference_bomb(self.altitude, action.card.acting, revealed,
                                bool(around & self.destroyed), cell in self.craters)
        if result == "hit":
            self.destroy(cell)
        elif result == "near":
            self.craters.add(cell)

    # decisions
    def play(self, action):
        if self.phase == "column":
            self.enter(self.pending, action.column, True)
            self.pending = None
            return self.settle()
        if isinstance(action, EndPhase):
            self.end_player_phase()
            return self.settle()
        if isinstance(action, Resupply):
            self.hand["JK" if action.king.is_joker else str(action.king)] -= 1
            self.discard["JK" if action.king.is_joker else str(action.king)] += 1  # R8
            self.phase, self.pending = "reveal", action
            return self.settle()
        cards = [action.nine, action.paired.card] if isinstance(action, Throttle) else [action.card]
        for c in cards:
            self.hand[str(c.physical)] -= 1
            self.in_play[str(c.physical)] += 1
        faces = [str(c.physical) for c in cards]
        if isinstance(action, (Guns, Bomb)):
            self.actions += 1
            self.phase, self.pending = "reveal", action
            return self.settle()
        bonus = 2 if isinstance(action, Throttle) else 0
        inner = action.paired if bonus else action
        self.actions = 2 if bonus else self.actions + 1
        if isinstance(inner, Move):
            at, facing = reference_move(self.cell, self.facing, inner.steps,
                                        inner.card.acting.rank + bonus, self.mountains, self.altitude)
            self.cell, self.facing = at, (facing if at is not None else None)
            self.to_discard(*faces)
            if at is None or bonus:
                self.end_player_phase()
            else:
                self.after_action()
        else:
            size = (2 if inner.card.acting.rank == 12 else 1) + bonus
            self.altitude += size if inner.card.acting.is_red else -size
            if self.cell in self.mountains and self.altitude < 4:
                return self.end("crash")
            self.to_discard(*faces)
            if bonus:
                self.end_player_phase()
            else:
                self.after_action()
        self.settle()


def _piles(counter):
    return Counter({k: v for k, v in counter.items() if v})


@pytest.mark.parametrize("player,challenge", [("random", False), ("greedy", False), ("greedy", True)])
def test_whole_missions_match_the_reference_referee(player, challenge):
    from bgrid.players.greedy import greedy_action
    from bgrid.challenges.mission import mission_from_seed
    from bgrid.players.playout import random_action, random_card, start_state
    from bgrid.challenges.seeding import stream

    decide = random_action if player == "random" else greedy_action
    outcomes = Counter()
    for seed in range(150):
        mission = mission_from_seed(seed, difficulty=("easy", "normal", "hard", "ace")[seed % 4],
                                    ridges=1 + seed % 3)
        state = start_state(mission, challenge)
        ref = Referee(mission.game_map, state.health)
        rng = stream("standard-1", f"audit-{player}", seed)
        # R26: a card's reshuffle number; the Jokers of a new pile take the lowest Joker
        # numbers (the engine's documented choice; seeded decks number them consecutively).
        number = {str(c): n for c, n in zip(mission.deck, mission.reshuffle, strict=True) if not c.is_joker}
        jokers = sorted(n for c, n in zip(mission.deck, mission.reshuffle, strict=True) if c.is_joker)
        while not state.is_over:
            if engine.chance_pending(state):
                card = random_card(state, rng)
                events = engine.reveal(state, card)
                ref.card(card)
                step = str(card)
            else:
                action = decide(state, rng)
                events = engine.apply(state, action)
                ref.play(action)
                step = str(action)
            where = (seed, state.turn, step)
            if challenge and any(type(e).__name__ == "Reshuffled" for e in events) and state.draw_pile:
                keys = [jokers.pop(0) if c.is_joker else number[str(c)] for c in state.draw_pile]
                assert keys == sorted(keys), where  # lowest reshuffle number on top (R26)
            assert (None if state.cell is None else pair(state.cell)) == ref.cell, where
            assert (None if state.facing is None else str(state.facing)) == ref.facing, where
            assert (state.altitude, state.damage, state.turn, state.exhaustions) == \
                (ref.altitude, ref.damage, ref.turn, ref.exhaustions), where
            assert {pair(c) for c in state.artillery} == ref.artillery, where
            assert {pair(c) for c in state.bunkers} == ref.bunkers, where
            assert {pair(c) for c in state.suppressed} == ref.suppressed, where
            assert {pair(c) for c in state.craters} == ref.craters, where
            assert Counter(map(str, state.hand)) == _piles(ref.hand), where
            assert Counter(map(str, state.discard)) == _piles(ref.discard), where
            assert Counter(map(str, state.draw_pile)) == _piles(ref.draw), where
            assert Counter(map(str, state.in_play)) == _piles(ref.in_play), where
            purpose = ref.purpose()
            if purpose == "reveal":
                purpose = "resupply" if isinstance(ref.pending, Resupply) else \
                    "guns" if isinstance(ref.pending, Guns) else "bomb"
            assert engine.chance_pending(state) == purpose, where
        cause = "victory" if state.cause is None else str(state.cause)
        assert cause == ref.outcome, seed
        assert (state.bunkers_destroyed, state.artillery_destroyed) == tuple(ref.kills), seed
        outcomes[cause] += 1
    assert len(outcomes) >= 2  # the missions end in more than one way
