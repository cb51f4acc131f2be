"""Every notation the mission sheet prints is accepted by the log parser: the example row,
the type-in hint's header keys and statements, the aid's declared Joker (log-format)."""

from __future__ import annotations

import re

import pytest

from bgrid.generator import sheet
from bgrid.challenges.mission import mission_from_seed
from bgrid.verifier.log_parser import parse_log

from pdf_probe import reader

BODY_HEAD = "bgrid-log: 1\nseed: 1944\nturn 1\n"


@pytest.fixture(scope="module")
def pages():
    pdf = reader(sheet.render_sheet(mission_from_seed(1944), "a4", "Ada"))
    return [" ".join(page.extract_text().split()) for page in pdf.pages]


def parses_as_statement(text: str) -> str:
    """The statement's canonical form; raises LogError if the parser refuses it."""
    statements = parse_log(BODY_HEAD + text + "\n").statements
    assert len(statements) == 2, text
    return statements[1].canonical()


def test_the_hints_statements_all_parse(pages):
    hint = pages[1]
    listed = hint[hint.index("Statements:") + len("Statements:"):]
    listed = listed[:listed.index(". ")]
    statements = [s.strip() for s in listed.split(" · ")]
    kinds = [s.split()[0] for s in statements]
    for kind in ("turn", "enter", "draw", "resupply", "move", "alt", "guns", "bomb", "throttle",
                 "automa", "state", "reshuffle"):
        assert kind in kinds  # every statement of the log format is shown
    for statement in statements:
        if statement.startswith("turn"):
            assert parse_log("bgrid-log: 1\nseed: 1944\n" + statement + "\n").statements[0].number == 1
        else:
            parses_as_statement(statement)
    assert parses_as_statement("resupply KD → 4S") == "resupply KD -> 4S"
    state = next(s for s in statements if s.startswith("state"))
    assert state.endswith("dmg 0/5")  # dmg N/H, with the health of this mission (R4)


def test_the_example_row_typed_as_statements_parses(pages):
    """The example row read by the columns' meaning: enter, draw, resupply, two actions,
    automa, then position, facing, ALT and DMG, which make a state line."""
    row = re.search(r"e\.g\. (?P<enter>\S+) (?P<draw>(?:\S+ ){4}\S+) (?P<resupply>\S+ → \S+) "
                    r"(?P<a1>(?:move|alt|guns|bomb|throttle) .*?) "
                    r"(?P<a2>(?:move|alt|guns|bomb|throttle) .*?) "
                    r"(?P<automa>\S+) (?P<at>[A-J](?:10|[1-9])) (?P<facing>[NESW]) (?P<alt>\d) (?P<dmg>\d) ",
                    pages[1])
    assert row is not None
    r = row.groupdict()
    typed = [f"enter {r['enter']}", f"draw {r['draw']}", f"resupply {r['resupply']}", r["a1"], r["a2"],
             f"automa {r['automa']}",
             f"state at {r['at']} facing {r['facing']} alt {r['alt']} dmg {r['dmg']}"]
    assert [parses_as_statement(t) for t in typed] == [
        "enter 7H", "draw 2S 9H KD JH 5C", "resupply KD -> 4S", "move 5C FFLF", "alt JH",
        "automa 8H", "state at H3 facing E alt 5 dmg 0"]


def test_the_example_row_is_a_legal_turn_of_its_own(pages):
    """Worked by hand: 7H enters G1 facing S at ALT 4; 5C FFLF flies G2, G3, turns east,
    H3; JH climbs to 5; the row's state is H3 E 5 0. The verifier agrees up to the automa
    (the example's cards are not seed 1944's deck, but an own deck allows any order)."""
    from bgrid.verifier.verify import verify_log

    log = ("bgrid-log: 1\nseed: 1944\nturn 1\nenter 7H\ndraw 2S 9H KD JH 5C\nresupply KD → 4S\n"
           "move 5C FFLF\nalt JH\nstate at H3 facing E alt 5 dmg 0/5\n")
    verdict = verify_log(log)
    assert verdict.verdict == "incomplete" and verdict.errors == []


def test_the_hints_header_lines_parse(pages):
    hint = pages[1]
    challenge = re.search(r"challenge: (\S+)", hint).group(1)
    seed_keys = re.search(r"seed: (\d+) , ridges: (\d) , difficulty: (\w+)", hint.replace(",", " ,"))
    assert parse_log(f"bgrid-log: 1\nchallenge: {challenge}\n").header.challenge
    header = parse_log("bgrid-log: 1\nseed: {}\nridges: {}\ndifficulty: {}\nclaim: victory 9\n"
                       .format(*seed_keys.groups())).header
    assert (header.seed, header.ridges, header.difficulty) == (1944, 1, "normal")


def test_the_aids_declared_joker_parses(pages):
    declared = re.search(r"\((JK=\S+?)\)", pages[0]).group(1)
    assert parses_as_statement(f"bomb {declared} -> 2S") == "bomb JK=7H -> 2S"
