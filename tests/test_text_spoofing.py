"""Names that would spoof a terminal or a spreadsheet are shown escaped in every league output,
and the log parser refuses C1 controls where it refuses C0 ones.

``league standings --json``, ``league list --json`` and ``--csv`` escape names as ``verify
--json`` does: a right-to-left override and the C1 controls U+009B (CSI) and U+009D (OSC)
included; ``player: Ada\\x9b31m`` is refused as ``Ada\\x1b[31m`` is (E003); U+200F, U+200B,
U+2028 and U+2029 never reach the terminal raw.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.safeio.safe_text import terminal_text
from bgrid.verifier.verify import verify_log
from league_logs import games, write_logs

RAW = ("\u202e", "\u009b", "\u009d", "\u200f", "\u200b", "\u2028", "\u2029", "\x1b")


@pytest.mark.parametrize("control", ["\u009b", "\u009d", "\u0085"])
def test_a_c1_control_in_the_player_line_is_e003_like_a_c0_one(control):
    log = games(1)[0].by(f"Ada{control}31m")
    verdict = verify_log(log)
    assert verdict.verdict == "invalid" and verdict.errors[0].code == "E003"
    assert f"U+{ord(control):04X}" in verdict.errors[0].message


@pytest.mark.parametrize("mark", ["\u200f", "\u200b", "\u2028", "\u2029", "\u061c", "\ufeff"])
def test_invisible_marks_and_separators_are_escaped_for_the_terminal(mark):
    assert terminal_text(f"Ada{mark}Bo") == f"Ada\\u{ord(mark):04x}Bo"


@pytest.mark.parametrize("control", ["\x1b", "\x07", "\x0b", "\x0c", "\r", "\x7f", "\x00"])
def test_multi_line_output_in_ascii_escapes_its_controls_and_keeps_lines_and_tabs(control):
    # a folder's JSON is ASCII nearly always and is checked by a faster path than other text
    text = f"line one\n\tAda{control}Bo\nline three"
    assert terminal_text(text, keep="\n\t") == f"line one\n\tAda\\u{ord(control):04x}Bo\nline three"
    assert terminal_text("line one\n\tAda Bo ~", keep="\n\t") == "line one\n\tAda Bo ~"


@pytest.fixture
def spoofing_league(tmp_path):
    inbox = tmp_path / "inbox"
    pool = games(3)
    # one name in the log, one from a file name that holds a C1 CSI (no player: line)
    write_logs(inbox, {"a.log": pool[0].by("Ada\u202egnp.exe\u200f\u2028"),
                       "Bo\u009b2J\u009d.log": pool[1].by(None)})
    db = tmp_path / "l.db"
    runner = CliRunner()
    assert runner.invoke(cli, ["league", "init", str(db)]).exit_code == 0
    assert runner.invoke(cli, ["league", "submit", str(db), str(inbox)]).exit_code == 0
    return db


@pytest.mark.parametrize("args", [["standings", "--json"], ["standings", "--csv"], ["standings"],
                                  ["list", "--json"], ["list"]], ids=" ".join)
def test_every_league_output_escapes_control_bidi_and_invisible_characters(spoofing_league, args):
    result = CliRunner().invoke(cli, ["league", args[0], str(spoofing_league), *args[1:]])
    assert result.exit_code == 0, result.output
    for ch in RAW:
        assert ch not in result.output, f"U+{ord(ch):04X} printed raw"
    assert "\\u202e" in result.output and "\\u009b" in result.output
    if "--json" in args:  # the escapes are JSON's own: the same strings read back
        players = json.dumps(json.loads(result.output), ensure_ascii=False)
        assert "Ada\\u202egnp.exe" not in players and "Ada\u202egnp.exe" in players
