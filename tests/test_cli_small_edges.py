"""Small edges of the command line: each test names the input that is easy to get wrong and
what the command answers to it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.options import Seconds
from bgrid.safeio.safe_text import one_line


def run(*args):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("offset", ["1_0,0", "\u0661,0", "0,\u0662.5", " 1 , 2 ,"])
def test_a_duplex_offset_takes_plain_ascii_decimals_only(offset, tmp_path):
    """``--duplex-offset 1_0,0`` and Arabic-Indic digits are refused, as every other number
    option refuses them (Python's float() alone would take them)."""
    result = run("deck", "--seed", "1", "--duplex-offset", offset, "--out", str(tmp_path))
    assert result.exit_code == 2 and "--duplex-offset" in result.output and list(tmp_path.iterdir()) == []


def test_a_budget_with_leading_zeros_is_a_number():
    """``--budget 00000000000000000001`` is one second: leading zeros do not count toward the
    length limit that keeps huge numbers out."""
    assert Seconds(86400).convert("00000000000000000001", None, None) == 1.0


def test_a_week_of_the_first_years_is_printed_with_four_digits():
    """``daily --weekly --date 0001-01-01`` names the week ``0001-W01``, ISO's four-digit year
    (not ``1-W01``)."""
    result = run("daily", "--weekly", "--date", "0001-01-01")
    assert result.exit_code == 0 and result.output.startswith("weekly 0001-W01: ")


def test_a_long_path_in_a_message_keeps_its_closing_quote():
    """A path of 300 characters is shortened inside its quotes, so the closing quote and the
    rest of the message stay."""
    message = one_line(f"cannot read --header '/tmp/{'x' * 300}.log': File name too long")
    assert message.endswith("characters)': File name too long") and len(message) < 200


def test_a_code_with_bytes_that_are_not_utf8_names_the_byte():
    """``map --code $'bad\\xff\\xfe'`` names the byte that is not UTF-8 and where it is, never
    the surrogate Python carries it as (``\\udcff``)."""
    result = run("map", "--code", os.fsdecode(b"bad\xff\xfe"))
    assert result.exit_code == 2 and "the byte 0xFF (not UTF-8 text) (character 4)" in result.output
    assert "\\udcff" not in result.output and "''" not in result.output


def test_league_init_on_a_fifo_says_what_it_is(tmp_path):
    """``league init fifo.db`` says the path is not a regular file, never the circular "no
    league at 'fifo.db': create it with 'bgrid league init fifo.db'"."""
    os.mkfifo(tmp_path / "fifo.db")
    result = run("league", "init", str(tmp_path / "fifo.db"))
    assert result.exit_code == 2 and "not a regular file" in result.output
    assert "create it with" not in result.output


def test_python_dash_m_bgrid_is_the_command_line(tmp_path):
    """``python -m bgrid`` runs the ``bgrid`` command line (today: "No module named
    bgrid.__main__; 'bgrid' is a package and cannot be directly executed"): its version, its
    help under the name it was called by, and a misuse's exit 2 with the same message."""
    def run_module(*args):
        return subprocess.run([sys.executable, "-m", "bgrid", *args], capture_output=True, text=True,
                              cwd=tmp_path, timeout=120)

    version = run_module("--version")
    assert version.returncode == 0 and version.stdout.startswith("bgrid, version ")
    assert run_module("--help").stdout.startswith("Usage: python -m bgrid ")
    missing = run_module("verify", str(tmp_path / "none.log"))
    assert missing.returncode == 2 and missing.stderr == run("verify", str(tmp_path / "none.log")).output
