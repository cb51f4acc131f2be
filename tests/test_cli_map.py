"""``bgrid map``: the same map from a seed and from its code, the JSON record, and misuse
reported as one line with exit status 2."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bgrid.cli import COMMANDS, cli

JSON_KEYS = {"code", "seed", "difficulty", "health", "ridges", "mountains", "bunkers",
             "artillery", "setup", "deck"}


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_seed_and_its_code_print_the_same_map():
    by_seed = run("map", "--seed", "1944")
    assert by_seed.exit_code == 0, by_seed.output
    assert "Challenge code 0M00-0001-WR3" in by_seed.output
    by_code = run("map", "--code", "0M00-0001-WR3")
    assert by_code.exit_code == 0 and by_code.output == by_seed.output
    assert run("map", "--code", "0m00 0001 wr3").output == by_seed.output


def test_board_text_shows_the_hand_checked_map():
    # Seed 1944 worked out by hand (see test_mission_golden.py): ridge I7-J3, bunkers
    # E2 G1 B3 I4 G3 H4, artillery H7 A10 D6 C5.
    lines = run("map", "--seed", "1944").output.splitlines()
    header = lines.index("    A B C D E F G H I J")
    board = {row: lines[header + row].split()[1:11] for row in range(1, 11)}
    marks = {f"{'ABCDEFGHIJ'[c]}{row}": board[row][c] for row in board for c in range(10)}
    assert {cell for cell, m in marks.items() if m == "M"} == {"J3", "J4", "I5", "J5", "I6", "I7"}
    assert {cell for cell, m in marks.items() if m == "B"} == {"E2", "G1", "B3", "I4", "G3", "H4"}
    # the artillery by number, in placement order (R43), as the sheet numbers it (it was 'A')
    assert {m: cell for cell, m in marks.items() if m.isdigit()} == {"1": "H7", "2": "A10", "3": "D6",
                                                                     "4": "C5"}


def test_json_record():
    result = run("map", "--seed", "7", "--difficulty", "HARD", "--ridges", "3", "--json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert JSON_KEYS <= set(record)
    assert (record["seed"], record["difficulty"], record["health"]) == (7, "hard", 4)
    assert len(record["ridges"]) == 3 and all(set(r) == {"from", "to"} for r in record["ridges"])
    assert set(record["setup"]) == {"ridges", "bunkers", "artillery"}
    assert len(record["setup"]["ridges"]) == 3
    assert len(record["bunkers"]) == 6 and len(record["artillery"]) == 4
    assert len(record["deck"]) == 54 and record["deck"].count("JK") == 2
    by_code = json.loads(run("map", "--code", record["code"], "--json").output)
    assert by_code == record


@pytest.mark.parametrize("args,message", [
    (["--seed", "abc"], "--seed 'abc' is not a whole number"),
    (["--seed", "1_944"], "--seed '1_944' is not a whole number"),
    (["--seed", "\u0661\u0669"], "is not a whole number"),  # Arabic-Indic digits
    (["--seed", "19.44"], "is not a whole number"),
    (["--seed", ""], "is not a whole number"),
    (["--seed", "-1"], "seed -1 is out of range"),
    (["--seed", str(2**40)], "out of range"),
    (["--seed", "1", "--difficulty", "insane"], "unknown difficulty 'insane'"),
    (["--seed", "1", "--ridges", "5"], "ridge count 5 is out of range"),
    (["--seed", "1", "--ridges", "0"], "ridge count 0 is out of range"),
    (["--seed", "1", "--ridges", "many"], "'many' is not a valid integer"),
    (["--code", "0M00-0001-WR4"], "fails its check"),
    (["--code", "0M00-0001"], "has 8 characters"),
    (["--code", "0M00-0001-WRU"], "'U'"),
    (["--code", "0M00-0001-WR3", "--ridges", "2"], "go with --seed"),
    (["--seed", "1", "--code", "0M00-0001-WR3"], "exactly one of --seed N or --code CODE"),
    ([], "exactly one of --seed N or --code CODE"),
    (["--bogus"], "No such option"),
])
def test_misuse_is_one_line_and_exit_2(args, message):
    result = run("map", *args)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")
    assert message in lines[0]
    assert "Traceback" not in result.output


def test_help_lists_every_command():
    result = run("--help")
    assert result.exit_code == 0
    for name in COMMANDS:
        assert name in result.output


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_help_with_an_example(name):
    result = run(name, "--help")
    assert result.exit_code == 0, result.output
    assert f"bgrid {name}" in result.output
    assert "Example" in result.output
