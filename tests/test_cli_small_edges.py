"""Small edges of the command line that each answered wrongly (issue 19, "Smaller"); every
test quotes what the command did before."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.options import Seconds
from bgrid.safeio.safe_text import one_line


def run(*args):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("offset", ["1_0,0", "\u0661,0", "0,\u0662.5", " 1 , 2 ,"])
def test_a_duplex_offset_takes_plain_ascii_decimals_only(offset, tmp_path):
    """Before: ``--duplex-offset 1_0,0`` and Arabic-Indic digits were accepted, where every
    other number option refuses them."""
    result = run("deck", "--seed", "1", "--duplex-offset", offset, "--out", str(tmp_path))
    assert result.exit_code == 2 and "--duplex-offset" in result.output and list(tmp_path.iterdir()) == []


def test_a_budget_with_leading_zeros_is_a_number():
    """Before: ``--budget 00000000000000000001`` was refused as "not a number of seconds"."""
    assert Seconds(86400).convert("00000000000000000001", None, None) == 1.0


def test_a_week_of_the_first_years_is_printed_with_four_digits():
    """Before: ``daily --weekly --date 0001-01-01`` printed ``1-W01``."""
    result = run("daily", "--weekly", "--date", "0001-01-01")
    assert result.exit_code == 0 and result.output.startswith("weekly 0001-W01: ")


def test_a_long_path_in_a_message_keeps_its_closing_quote():
    """Before: a path of 300 characters was cut with its closing quote: ``'/tmp/xxx…(310 characters)``."""
    message = one_line(f"cannot read --header '/tmp/{'x' * 300}.log': File name too long")
    assert message.endswith("characters)': File name too long") and len(message) < 200


def test_a_code_with_bytes_that_are_not_utf8_names_the_byte():
    """Before: ``map --code $'bad\\xff\\xfe'`` printed ``''\\udcff''``."""
    result = run("map", "--code", os.fsdecode(b"bad\xff\xfe"))
    assert result.exit_code == 2 and "the byte 0xFF (not UTF-8 text) (character 4)" in result.output
    assert "\\udcff" not in result.output and "''" not in result.output


def test_league_init_on_a_fifo_says_what_it_is(tmp_path):
    """Before: ``league init fifo.db`` answered "no league at 'fifo.db': create it with 'bgrid
    league init fifo.db'" (circular advice)."""
    os.mkfifo(tmp_path / "fifo.db")
    result = run("league", "init", str(tmp_path / "fifo.db"))
    assert result.exit_code == 2 and "not a regular file" in result.output
    assert "create it with" not in result.output
