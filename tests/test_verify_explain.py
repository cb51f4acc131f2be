"""``bgrid verify --explain``: the replay told turn by turn, checked against a worked log.

The golden file was checked by hand against the worked log's own comments, which work each
line from the rules: the Automa moves of turns 1-3 (A10->A9, C5->C4, D6->D5, H7->H6; then
toward the nearest bunker; then H5 holding before the bunker H4, R20), the suppression of E4
and its skipped phase (R15, R21), the one point of artillery damage from H5 at range 1 in
turn 4 (R18), and the crash in J3 (R33). Regenerate it on purpose with
``BGRID_REGEN_GOLDEN=1`` and check it again the same way.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from click.testing import CliRunner

from bgrid.cli import cli

from explicit_maps import CLUBS_AUTOMA, CLUBS_AUTOMA_TEXT, explicit_log

HERE = Path(__file__).parent
GOLDEN = HERE / "golden" / "explain" / "challenge-crash.txt"


def test_explain_on_the_worked_log_matches_the_hand_checked_golden(monkeypatch):
    monkeypatch.chdir(HERE / "logs" / "worked")
    result = CliRunner().invoke(cli, ["verify", "challenge-crash.log", "--explain"])
    assert result.exit_code == 0, result.output
    told = re.sub(r"\[id [0-9a-f]{16}\]", "[id <id>]", result.output)
    if os.environ.get("BGRID_REGEN_GOLDEN") == "1":
        GOLDEN.write_text(told, encoding="utf-8")
    assert told == GOLDEN.read_text(encoding="utf-8")


def test_explain_stops_at_the_first_error_with_the_usual_message(tmp_path):
    # 4H enters D1 at altitude 4; QH would climb to 6: illegal at line 9 (R7).
    path = tmp_path / "m.log"
    path.write_text(explicit_log("turn 1\nenter 4H\ndraw 2S 3S 5C QH 10S\nalt QH\nautoma 2C\n"),
                    encoding="utf-8")
    runner = CliRunner()
    told = runner.invoke(cli, ["verify", str(path), "--explain"]).output
    plain = runner.invoke(cli, ["verify", str(path)]).output
    assert "line   7  enter 4H: the bomber enters at D1 facing S, altitude 4" in told
    assert "line   8  draw 2S 3S 5C QH 10S" in told
    assert "line   9 " not in told and "line  10 " not in told
    assert told.endswith(plain.rstrip("\n") + "\n  damage ledger (0 points):\n")


def test_a_clubs_automa_card_is_told_as_the_artillery_holding(tmp_path):
    path = tmp_path / "m.log"
    path.write_text(CLUBS_AUTOMA, encoding="utf-8")
    told = CliRunner().invoke(cli, ["verify", str(path), "--explain"]).output
    line = next(ln for ln in told.splitlines() if ln.startswith("  line   9  automa 2C: "))
    assert line.startswith(f"  line   9  automa 2C: {CLUBS_AUTOMA_TEXT}; artillery 1 (D2) fires ")
    assert "artillery 2 (H5) holds (the card says hold); artillery 3 (J9) holds" in line
    assert " to " not in line.split("now at")[0]  # no piece moves
