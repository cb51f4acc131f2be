"""Page 1 of the mission sheet at the table: the player aid's deck-out rules (R22, R35, R40)
and the trackers the bomb bonus reads (R16, R32): bunkers hit, the cell each artillery piece
was destroyed in, and the craters."""

from __future__ import annotations

import dataclasses
import json
import re
from importlib import resources

import pytest

from bgrid.generator import sheet
from bgrid.rules.engine import apply_legal, reveal_drawn
from bgrid.rules.events import Crater, Destroyed
from bgrid.challenges.mission import mission_from_seed
from bgrid.players.playout import Dice, random_card_index
from bgrid.players.random_player import random_action
from bgrid.rules.ruleset import parse_ruleset
from bgrid.challenges.seeding import stream
from bgrid.rules.state import CHANCE_PHASES, Phase

from pdf_probe import reader


@pytest.fixture(scope="module")
def first_pages():
    mission = mission_from_seed(1944)
    return {paper: " ".join(reader(sheet.render_sheet(mission, paper)).pages[0].extract_text().split())
            for paper in ("a4", "letter")}


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_aid_says_what_a_deck_out_costs_and_keeps_out(first_pages, paper):
    """The aid says what a deck out costs (with the fire, 2 DMG in one phase, R40) and what
    stays out of the reshuffle (R35); its fire step, 1 DMG however many fire (R18)."""
    text = first_pages[paper]
    assert "(never more)" not in text
    assert "no mountain between) and range → 1 DMG, however many fire (R18)" in text
    # R35: the card being resolved is not in the new deck; a King already played is
    assert "A card still being resolved (guns or a bomb waiting for its reveal) stays out; " \
           "a King already played goes in (R35)" in text
    # R40: 1 (fire) + 1 (exhaustion) in the same Automa phase
    assert "At the Automa card that +1 adds to the fire's 1: 2 DMG in one phase (R40)" in text
    assert "again: out of fuel (R22)" in text


def test_the_aids_damage_figures_follow_the_ruleset():
    data = json.loads(resources.files("bgrid.rules").joinpath("rulesets", "standard-1.json")
                      .read_text(encoding="utf-8"))
    data.update(name="variant-fire", artillery_damage=2, reshuffle_damage=3)
    variant = parse_ruleset(data, "variant-fire.json")
    html = " ".join(sheet.render_sheet_html(
        dataclasses.replace(mission_from_seed(1944), ruleset=variant)).split())
    assert "<b>2 DMG</b>, however many fire" in html
    assert "+3 DMG; again" in html and "that +3 adds to the fire's 2: <b>5 DMG</b> in one phase" in html


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_trackers_have_a_destroyed_at_cell_and_craters(first_pages, paper):
    """The artillery tracker has a cell for where each piece is destroyed (not a tick), and the
    craters a place of their own."""
    text = first_pages[paper]
    tracker = text[text.index("Artillery # start"):]
    assert tracker.startswith("Artillery # start destroyed at 1 H7 2 A10 3 D6 4 C5")
    assert "not its start (R32)" in tracker
    assert re.search(r"Craters near misses' cells\. Bomb bonus \(R16\)", tracker)
    html = sheet.render_sheet_html(mission_from_seed(1944))
    craters = html[html.index('<div class="craters">'):]
    assert craters[:craters.index("</div>")].count('class="u cell"') == sheet.CRATER_SLOTS == 6


def paper_record(seed: int, game: int):
    """Play a random mission on ``seed``'s map; keep the trackers as the sheet says (tick a
    bunker hit, write the cell an artillery piece was destroyed in, write each crater) and
    compare them with what the engine's bomb bonus reads at every step (R16, R32)."""
    state = mission_from_seed(seed, "easy").start(True)
    starts = set(state.game_map.artillery)
    dice = Dice(stream("standard-1", f"trackers-{seed}-{game}", 0))
    ticked, destroyed_at, craters = set(), [], []
    while state.phase is not Phase.OVER:
        events = (reveal_drawn(state, random_card_index(state, dice)) if state.phase in CHANCE_PHASES
                  else apply_legal(state, random_action(state, dice)))
        for event in events:
            if isinstance(event, Destroyed):
                (ticked.add if event.kind == "bunker" else destroyed_at.append)(event.cell)
            elif isinstance(event, Crater) and event.cell not in craters:
                craters.append(event.cell)
        assert ticked | set(destroyed_at) == state.destroyed
        assert set(craters) == state.craters
    return len(craters), sum(cell not in starts for cell in destroyed_at)


def test_the_trackers_hold_what_the_bomb_bonus_reads():
    """Over 120 random missions: the three trackers are exactly the engine's destroyed cells
    and craters after every step; the craters fit the blanks; and most artillery kills happen
    away from the start cell the board shows, so the board alone would mislead."""
    results = [paper_record(seed, game) for seed in (1944, 7, 27) for game in range(40)]
    assert max(n for n, _ in results) <= sheet.CRATER_SLOTS
    assert sum(away for _, away in results) > 10


#: Five turns of the seed-1944 challenge played by hand from the printed A4 sheet and the
#: printed challenge deck (its cards turned one at a time), as pencilled on the turn log:
HAND_ROWS = """\
1 | 7S | JC 6H 2H QC KS | KS → 10D | 2H FF | QC | JD | G3 S | 2 | 0 | H6 | A9 | | D5
2 | | 9C 2D | | JC | 10D | 10S | G3 S | 2 | 0 | H5 | A8 | D5 | D4
3 | | JS 9D | | 2D FR | 6H D4 → 2C | 3H | G4 W | 2 | 0 | | B8 | E5 | E4
4 | | 6D 5D | | 6D E4 → 8H | 5D FFRFF | 5C | E2 N | 2 | 0 | | | | ✕
5 | | 8C 4S | | 8C → QH | 4S RFFR | 5S | G2 S | 2 | 0 | | B7 | E4 |
"""
#: … and typed as statements (the art columns checked by hand against the verifier's state).
HAND_LOG = """\
bgrid-log: 1
challenge: 0M00-0001-WR3
turn 1
enter 7S
draw JC 6H 2H QC KS
resupply KS -> 10D
move 2H FF
alt QC
automa JD
state at G3 facing S alt 2 dmg 0
turn 2
draw 9C 2D
alt JC
alt 10D
automa 10S
state at G3 facing S alt 2 dmg 0
turn 3
draw JS 9D
move 2D FR
guns 6H D4 -> 2C
automa 3H
state at G4 facing W alt 2 dmg 0
turn 4
draw 6D 5D
guns 6D E4 -> 8H
move 5D FFRFF
automa 5C
state at E2 facing N alt 2 dmg 0
turn 5
draw 8C 4S
bomb 8C -> QH
move 4S RFFR
automa 5S
state at G2 facing S alt 2 dmg 0
"""


def test_five_turns_played_by_hand_from_the_sheet_agree_with_the_verifier():
    """Worked at the table with the aid alone. Turn 1: J♦ moves every piece toward G3; 3 (D6)
    holds because 4 has just stepped into D5 (one at a time, R20, R34). Turn 2: 10♠, each
    piece toward its nearest bunker in steps; 3 takes D5, which 4 has just left. Turn 3: H6→H5
    holds against the bunker H4. Turn 4: guns from G4 destroy piece 4 at E4 (its icon is at
    C5: the tracker's 'destroyed at' is E4). Turn 5: the bomb hits E2; on 5♠ piece 3 steps
    onto E4, a destroyed target's cell, which never blocks (R34)."""
    from bgrid.verifier.verify import verify_log

    verdict = verify_log(HAND_LOG)
    assert verdict.verdict == "incomplete" and verdict.errors == []
    assert "at G2 facing S, alt 2, dmg 0/5" in verdict.state
    artillery = re.search(r"artillery (.*?), bunkers left B3 G1 G3 H4 I4", verdict.state).group(1)
    assert sorted(re.findall(r"[A-J]\d+", artillery)) == ["B7", "E4", "H5"]
    # typed as the pencil rows stand, the same verdict and state
    rows = verify_log("bgrid-log: 1\nchallenge: 0M00-0001-WR3\n" + HAND_ROWS)
    assert (rows.verdict, rows.errors, rows.state) == (verdict.verdict, [], verdict.state)
    # the pencilled art columns, read down to the last entry, give the same cells
    cells = ["H7", "A10", "D6", "C5"]
    for row in HAND_ROWS.splitlines():
        art = [c.strip() for c in row.split("|")[10:14]] + [""] * 4
        cells = [None if a == "✕" else (a or c) for a, c in zip(art[:4], cells, strict=True)]
    assert cells == ["H5", "B7", "E4", None]


# -- the dead-hand line (rules.dead_hand) ----------------------------------------------------

DEAD_HAND_LINE = ("Dead hand: at ALT 4–5 keep a move 2–5, a black 10 J Q, a K or a JK, or a full hand "
                  "(no draw, R30) may never play again.")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_aid_warns_of_a_dead_hand_and_names_the_cards_that_avoid_it(first_pages, paper):
    """One line of prevention under the card table. Before it the table ended at the Joker's
    row, "Wild: declare any card (JK=7H). Revealed for your guns/bomb: counts as ♥.", and
    page 1 said nothing of a hand that can never be played (issue: 76 of 83 turns passed)."""
    text = first_pages[paper]
    assert DEAD_HAND_LINE in text
    assert text.index("counts as ♥") < text.index("Dead hand")  # under the card table


def _stuck(altitude: int, last: str):
    """A full hand at ``altitude`` on an empty cell of an empty board, no artillery left: bombs
    with no target below (R16), guns with no target (R15), a 9 (R11) and ``last``."""
    from engine_boards import board, placed

    return placed(board(), "C5", altitude=altitude, hand=f"7S 6S AS 8S {last}")


def _named_cards(ruleset) -> list[str]:
    """The cards the line names, read from the ruleset as the aid reads them: every move card,
    every black altitude card, the King and the Joker."""
    from bgrid.rules.cards import RANK_LETTERS
    from bgrid.rules.ruleset import Play

    ranks = ruleset.ranks_of(Play.MOVE) + ruleset.ranks_of(Play.ALTITUDE) + ruleset.ranks_of(Play.RESUPPLY)
    return [f"{RANK_LETTERS[r]}S" for r in ranks] + ["JK"]


@pytest.mark.parametrize("altitude", [4, 5])
def test_every_card_the_line_names_keeps_a_hand_alive_at_4_and_5(altitude):
    """Checked with the game model's dead-hand test (rules.dead_hand), not by reading the aid:
    the hand 7S 6S AS 8S 9S is dead at ALT 4 and 5 with nothing to bomb or strafe; any card the
    line names in place of the 9S makes it live. A red Q is not among them: at 4 it would climb
    to 6, at 5 every red altitude card would leave 0-5 (R7), and the hand stays dead."""
    from bgrid.rules.dead_hand import dead_hand
    from bgrid.rules.ruleset import load_ruleset

    assert aid_line_band(load_ruleset()) == (4, 5)
    assert dead_hand(_stuck(altitude, "9S")) is not None
    assert dead_hand(_stuck(altitude, "QH")) is not None
    for card in _named_cards(load_ruleset()):
        assert dead_hand(_stuck(altitude, card)) is None, card


def aid_line_band(ruleset) -> tuple[int, int]:
    band = sheet.dead_hand_aid(ruleset)
    return band["from"], band["to"]


def test_the_dead_hand_line_follows_a_variant_ruleset():
    """A variant with a ceiling of 6, a clearance of 5 and the Queen a 1-point altitude card: the
    line's band and ranks follow the ruleset file (the aid reads it where it reads the rest)."""
    data = json.loads(resources.files("bgrid.rules").joinpath("rulesets", "standard-1.json")
                      .read_text(encoding="utf-8"))
    data.update(name="variant-high", max_altitude=6, mountain_clearance=5)
    data["cards"]["Q"] = dict(data["cards"]["J"])
    data["cards"]["5"] = {"play": "resupply", "label": "RESUPPLY", "effect": "discard, draw 1"}
    variant = parse_ruleset(data, "variant-high.json")
    mission = dataclasses.replace(mission_from_seed(1944), ruleset=variant)
    html = " ".join(sheet.render_sheet_html(mission).split())
    assert "at ALT 5–6 keep a move 2–4, a black 10 J Q, a 5 K or a JK" in html
