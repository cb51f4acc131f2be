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
from bgrid.players.playout import Dice, random_action, random_card_index, start_state
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
    """Before: the Automa's fire step said "→ 1 DMG (never more)", and the deck rule was
    "Deck empty: reshuffle, +1 DMG; again: out of fuel." — nothing on R35 or R40."""
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
    """Before: the artillery tracker was "# start hit" (a tick), and craters had no place."""
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
    state = start_state(mission_from_seed(seed, "easy"), True)
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
