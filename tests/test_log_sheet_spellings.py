"""What the mission sheet prints, the log reads: the arrow → for ->, and dmg N/H in a
state line (log-format: Also accepted)."""

from __future__ import annotations

import pytest

from bgrid.verifier.verify import verify_log
from bgrid.log.reader import parse_log
from bgrid.log.messages import LogError

HEAD = "bgrid-log: 1\nseed: 1944\n"


def canonical(body: str) -> list[str]:
    return [s.canonical() for s in parse_log(HEAD + "turn 1\n" + body).statements[1:]]


@pytest.mark.parametrize("arrow", ["→", " → ", "->", " -> "])
def test_the_printed_arrow_reads_as_the_typed_one(arrow):
    assert canonical(f"resupply KD{arrow}4S\nguns 6H C4{arrow}10D\nbomb 7H{arrow}none\n") == [
        "resupply KD -> 4S", "guns 6H C4 -> 10D", "bomb 7H -> none"]


def test_the_arrow_keeps_the_columns_of_the_tokens_after_it():
    bomb = parse_log(HEAD + "turn 1\nbomb 7H→AS\n").statements[1]
    assert [(t.text, t.column) for t in bomb.tokens] == [("bomb", 1), ("7H", 6), ("→", 8), ("AS", 9)]


def test_a_missing_arrow_is_still_refused():
    with pytest.raises(LogError) as info:
        parse_log(HEAD + "turn 1\nresupply KD 4S\n")
    assert info.value.code == "E109"


def test_dmg_with_the_health_reads_as_the_damage_and_checks_the_health():
    st = parse_log(HEAD + "turn 1\nstate at G1 dmg 2/5\n").statements[1]
    assert ("dmg", 2) in [(k, v) for k, v, _ in st.checks]
    assert ("health", 5) in [(k, v) for k, v, _ in st.checks]
    assert st.canonical() == "state at G1 dmg 2/5"


@pytest.mark.parametrize("value", ["2/", "/5", "2/5/5", "two/5", "2/05"])
def test_a_malformed_dmg_fraction_is_a_bad_number(value):
    with pytest.raises(LogError) as info:
        parse_log(HEAD + f"turn 1\nstate dmg {value}\n")
    assert info.value.code == "E105"


def test_the_health_after_the_slash_must_be_the_missions():
    # seed 1944 normal: health 5 (R4); the entry 7H puts the bomber at G1, damage 0
    right = verify_log(HEAD + "turn 1\nenter 7H\nstate at G1 dmg 0/5\n")
    assert right.verdict == "incomplete" and right.errors == []
    wrong = verify_log(HEAD + "turn 1\nenter 7H\nstate at G1 dmg 0/4\n")
    assert wrong.verdict == "invalid" and wrong.errors[0].code == "E213"
    assert "health is 5" in wrong.errors[0].message
