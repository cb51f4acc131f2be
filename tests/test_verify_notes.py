"""Notes: legal events a careful player may have missed, one kind per test, worked by hand
on small explicit maps (own deck, so any card still in the draw pile may come)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.verifier.verify import verify_log

from explicit_maps import explicit_log


def only_note(text: str):
    verdict = verify_log(text)
    assert not verdict.errors, verdict.render()
    assert len(verdict.notes) == 1, verdict.notes
    return verdict.notes[0]


# Line numbers: the header takes lines 1-4, a blank line 5, so the body starts at line 6.

def test_move_stopped_by_a_mountain_names_where_it_stopped_and_the_mountain():
    # 4H enters D1 facing south at altitude 4; JS takes it to 3; five steps south would
    # reach D6, a mountain below altitude 4: the move stops in D5 (R9).
    note = only_note(explicit_log("turn 1\nenter 4H\ndraw 2S 3S 5C JS 10S\nalt JS\n"
                                  "move 5C FFFFF\n", mountains="D6"))
    assert (note.line, note.column, note.rule) == (10, 6, "R9")
    assert "stops at D5" in note.message and "D6, is a mountain" in note.message


def test_entry_shifted_by_a_mountain_names_both_cells():
    # AH enters A1, JS descends to 3, R+F faces west and exits. Turn 2: 4D names D1, a
    # mountain, at altitude 3: C1 and E1 are equally near, ties shift left: C1 (R13).
    note = only_note(explicit_log("turn 1\nenter AH\ndraw 2S 3S 5C JS 10S\nalt JS\nmove 2S RF\n"
                                  "turn 2\nenter 4D\n", mountains="D1"))
    assert (note.line, note.column, note.rule) == (12, 7, "R13")
    assert "from D1 to C1" in note.message


def test_joker_revealed_on_guns_counts_as_a_heart():
    # At D1, altitude 4, the artillery in D3 is in line of sight at range 2; the Joker
    # revealed counts as a Heart: red at altitude 4 suppresses (R15, R17).
    text = explicit_log("turn 1\nenter 4H\ndraw 2S 6S 5C JS 10S\nguns 6S D3 -> JK\n",
                        artillery="D3 J9 J8 J7")
    note = only_note(text)
    assert (note.line, note.column, note.rule) == (9, 15, "R17")
    assert "Joker counts as a Heart" in note.message


def test_chain_bonus_names_the_destroyed_neighbour():
    # D2's bunker falls to 7H with a Heart at altitude 4. In turn 2 the bomber moves to D3;
    # 8H with a Diamond at altitude 4 is a near miss, lifted to a hit by the chain (D2).
    text = explicit_log("turn 1\nenter 4H\ndraw 2S 7H 8H 3S 5S\nmove 2S F\nbomb 7H -> 2H\n"
                        "automa 3C\nturn 2\ndraw 4C 4D\nmove 3S F\nbomb 8H -> 2D\n",
                        bunkers="D2 D3 C10 E10 F10 G10", artillery="J1 J9 J8 J7")
    note = only_note(text)
    assert (note.line, note.column, note.rule) == (15, 12, "R16, R32")
    assert "chain bonus on D3" in note.message and "at D2" in note.message
    assert "near miss becomes a hit" in note.message


def test_crater_bonus_lifts_a_miss_to_a_near_miss():
    # 7H with a Diamond at altitude 4: near miss, a crater on D2. Then 8H with a Club, a
    # miss at altitude 4, is lifted to a near miss by the crater (R16).
    text = explicit_log("turn 1\nenter 4H\ndraw 2S 7H 8H 3S 5S\nmove 2S F\nbomb 7H -> 3D\n"
                        "automa 3C\nturn 2\ndraw 4C 4D\nbomb 8H -> 9C\n",
                        bunkers="D2 D3 C10 E10 F10 G10", artillery="J1 J9 J8 J7")
    note = only_note(text)
    assert (note.line, note.rule) == (14, "R16")
    assert "crater bonus on D2" in note.message and "miss becomes a near miss" in note.message


def test_artillery_that_cannot_step_is_noted_once():
    # The bomber is in D1; the piece in D5 has no line of sight (D4, a mountain, is between).
    # A Heart moves it toward the bomber, along the column: into D4, a mountain, so it holds
    # (R20). The same hold next turn is not told again.
    text = explicit_log("turn 1\nenter 4H\ndraw 2S 7H 8H 3S 5S\nautoma 2H\nturn 2\nautoma 3H\n",
                        mountains="D4", artillery="D5 J9 J8 J7")
    note = only_note(text)
    assert (note.line, note.column, note.rule) == (9, 8, "R20")
    assert "artillery 1 (D5) held: it could not step to D4 (a mountain)" in note.message


def test_notes_in_json_and_after_the_verdict_unless_quiet(tmp_path):
    path = tmp_path / "m.log"
    path.write_text(explicit_log("turn 1\nenter 4H\ndraw 2S 3S 5C JS 10S\nalt JS\nmove 5C FFFFF\n",
                                 mountains="D6"), encoding="utf-8")
    runner = CliRunner()
    data = json.loads(runner.invoke(cli, ["verify", str(path), "--json"]).output)
    assert [(n["line"], n["rule"]) for n in data["notes"]] == [(10, "R9")]
    assert set(data["notes"][0]) == {"line", "column", "rule", "message"}
    shown = runner.invoke(cli, ["verify", str(path)]).output
    assert "line 10: the move stops at D5" in shown
    assert shown.index("incomplete:") < shown.index("\n  note:")
    quiet = runner.invoke(cli, ["verify", str(path), "--quiet"]).output
    assert "incomplete:" in quiet and "the move stops" not in quiet
