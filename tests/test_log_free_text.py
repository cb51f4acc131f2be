"""A header's free text (``player:``, ``date:``) is written only when it reads back whole: the
writer refuses what the reader would read otherwise, and the league's names follow one rule."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgrid.league.identity import RefusedName, check_name
from bgrid.log.lexer import free_text_problem
from bgrid.log.messages import LogError
from bgrid.log.notation import Header, UnwritableHeader
from bgrid.log.reader import parse_log


def read_back(header: Header) -> Header:
    return parse_log("\n".join(header.canonical_lines()) + "\n").header


@pytest.mark.parametrize("name", ["Ada: the Red", "Аda", "Zoë", "李 雷", "O'Brien", "Ada | Bo",
                                  "a -> b", "Ada No. 1", "x:y", "seeds: 3", "Ada\u00a0B"])
def test_a_name_the_rule_takes_reads_back_identical(name):
    assert free_text_problem(name) is None
    assert read_back(Header(seed=1, player=name)).player == name


@pytest.mark.parametrize("name, said", [
    ("Ada #1", "'#'"), ("Ada seed: 12", "'seed:'"), ("Bo map bunkers: A1", "'map bunkers:'"),
    (" Ada", "one space"), ("Ada ", "one space"), ("Ada  Lovelace", "one space"), ("Ada\tB", "tab"),
    ("a->b", "arrow"), ("a→b", "arrow"), ("Ada\x1b[31m", "U+001B"), ("", "empty"),
])
def test_a_name_a_header_line_cannot_carry_is_refused_by_the_writer_saying_why(name, said):
    with pytest.raises(UnwritableHeader) as err:
        Header(seed=1, player=name).canonical_lines()
    assert said in str(err.value) and "'player:'" in str(err.value)


def test_a_date_follows_the_same_rule():
    with pytest.raises(UnwritableHeader):
        Header(seed=1, date="2026-12-01 # morning").canonical_lines()
    assert read_back(Header(seed=1, date="1 Dec 2026, 10:00")).date == "1 Dec 2026, 10:00"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("Ada #:->→ \tseedmap bunkersXé\u00a0\u200b|") + ["\x07"]),
               max_size=24))
def test_the_writer_writes_exactly_the_texts_the_reader_reads_back(text):
    # independent of the rule's own reasons: what the reader makes of the written line
    line = f"bgrid-log: 1\nseed: 1\nplayer: {text}\n"
    try:
        read = parse_log(line).header.player
    except LogError:
        read = None
    assert (free_text_problem(text) is None) == (read == text)


@pytest.mark.parametrize("name", ["Ada #1", "Ada seed: 12", "a->b"])
def test_the_league_refuses_a_name_the_logs_cannot_carry(name):
    """The refusal leads with what the player does; on main it opened with the log's
    grammar: "a name must read back whole from a log's 'player:' line: it holds '#', …"."""
    with pytest.raises(RefusedName) as err:
        check_name(name)
    assert str(err.value).startswith("choose another name: it holds ")
    assert "'player:' line" in str(err.value)


def test_the_league_still_trims_outer_spaces_before_the_rule():
    assert check_name("  Ada: the Red ") == "Ada: the Red"
