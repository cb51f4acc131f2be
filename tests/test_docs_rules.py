"""docs/rules.md against its sources: the rulings file, the standard ruleset and the code.

The project's rulings are the authority; docs/rules.md restates each one under its number,
and the code cites each one it implements (``# R9``). The rulings' numbers and titles are
pinned below (taken from the design's rulings list, not from the doc), so the test reads
nothing outside the repository. These tests
catch a ruling added without its restatement, a ruleset value changed without the doc,
and a ruling nobody implemented.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from bgrid.rules.board import Cell, ridge_cells

REPO = Path(__file__).resolve().parents[1]
RULES_DOC = REPO / "docs" / "rules.md"
RULESET_FILE = REPO / "rules" / "rulesets" / "standard-1.json"
CODE_FOLDERS = ("rules", "players", "challenges", "generator", "log", "verifier")

# The rulebook's sections, in the rulebook's order (the doc must follow it).
SECTIONS = ("Components", "Setup", "Turn structure", "Card actions", "Entry", "Exit",
            "Altitude", "Line of sight", "Automa", "Suppression", "Deck and reshuffle",
            "Winning and losing", "Scoring", "Challenge mode")

RULINGS = {
    1: 'Cell from cards',
    2: 'Ridge rasterisation',
    3: 'Nearest open cell',
    4: 'Difficulty',
    5: 'Setup deck',
    6: 'Order of a player phase',
    7: 'Legal plays',
    8: 'Discard timing',
    9: 'Movement',
    10: 'Crash',
    11: 'Throttle',
    12: 'Played Joker',
    13: 'Entry',
    14: 'Range',
    15: 'Guns',
    16: 'Bombs',
    17: 'Revealed Joker on your own check',
    18: 'Fire',
    19: 'Movement table (the rulebook lost it)',
    20: 'One step',
    21: 'Suppression',
    22: 'Exhaustion',
    23: 'End',
    24: 'Score',
    25: 'Challenge deck',
    26: 'Challenge reshuffle',
    27: 'Setup lines',
    28: 'No clear entry column',
    29: 'Kings',
    30: 'Passing',
    31: 'Blocked movement',
    32: 'Chain and craters',
    33: 'Crash is a play',
    34: 'Automa details',
    35: 'The new draw pile',
    36: 'Writing the end',
    37: 'After the end',
    38: 'Claims',
    39: 'Guns, fine print',
    40: 'Saturation cap covers fire only',
    41: "Jokers' reshuffle numbers",
    42: "A challenge deck is open information",
    43: "Artillery numbers",
}
# "**R1 Cell from cards.**" or "### R1 Cell from cards" at the start of a line in the doc.
DOC_LABEL = re.compile(r"^(?:\*\*|#{2,6} )R(\d+) ([^*\n]+?)\.?(?:\*\*|$)", re.MULTILINE)


def doc_text() -> str:
    return RULES_DOC.read_text(encoding="utf-8")


def rulings() -> dict[int, str]:
    """Ruling number -> title, as the rulings list gives them."""
    return RULINGS


def doc_labels() -> list[tuple[int, str]]:
    return [(int(n), title.strip()) for n, title in DOC_LABEL.findall(doc_text())]


def section_of(text: str, heading: str) -> str:
    """The body of the ``## heading`` section, up to the next ``## `` heading."""
    match = re.search(rf"^## {re.escape(heading)}\s*$(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"docs/rules.md has no '## {heading}' section"
    return match.group(1)


def table_after(text: str, header_cells: tuple[str, ...]) -> list[list[str]]:
    """Body rows of the first markdown table whose header row starts with ``header_cells``."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.lstrip().startswith("|") and tuple(cells[:len(header_cells)]) == header_cells:
            rows = []
            for body in lines[i + 2:]:
                if not body.lstrip().startswith("|"):
                    break
                rows.append([c.strip() for c in body.strip().strip("|").split("|")])
            return rows
    raise AssertionError(f"docs/rules.md has no table headed {' | '.join(header_cells)}")


def ruleset_json() -> dict:
    return json.loads(RULESET_FILE.read_text(encoding="utf-8"))


def leaves(data: dict, prefix: str = "") -> dict[str, object]:
    """Dotted key -> value for every non-object value of a JSON object."""
    out = {}
    for key, value in data.items():
        if isinstance(value, dict):
            out.update(leaves(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


# -- (a) every ruling is restated -------------------------------------------------------

def test_rulings_are_numbered_without_gaps():
    numbers = sorted(rulings())
    assert numbers == list(range(1, len(numbers) + 1))


def test_every_ruling_has_its_own_label_in_the_doc():
    labelled = [n for n, _ in doc_labels()]
    missing = sorted(set(rulings()) - set(labelled))
    assert not missing, "docs/rules.md has no label for " + ", ".join(f"R{n}" for n in missing)


def test_each_ruling_is_labelled_once_and_no_unknown_ruling_is():
    labelled = [n for n, _ in doc_labels()]
    twice = sorted({n for n in labelled if labelled.count(n) > 1})
    assert not twice, "labelled more than once: " + ", ".join(f"R{n}" for n in twice)
    unknown = sorted(set(labelled) - set(rulings()))
    assert not unknown, "no such ruling: " + ", ".join(f"R{n}" for n in unknown)


def test_doc_labels_carry_the_rulings_titles():
    titles = rulings()
    wrong = [f"R{n} '{title}' (rulings: '{titles[n]}')" for n, title in doc_labels()
             if n in titles and title.lower() != titles[n].lower()]
    assert not wrong, "titles differ: " + "; ".join(wrong)


def test_sections_follow_the_rulebook_order():
    headings = re.findall(r"^## (.+?)\s*$", doc_text(), re.M)
    positions = []
    for name in SECTIONS:
        assert name in headings, f"docs/rules.md has no '## {name}' section"
        positions.append(headings.index(name))
    assert positions == sorted(positions), f"sections out of order: {headings}"


# -- (b) the ruleset values stated in the doc -------------------------------------------

def test_health_table_matches_the_standard_ruleset():
    rows = table_after(doc_text(), ("Difficulty", "Starting health"))
    stated = {row[0]: int(row[1]) for row in rows}
    assert stated == ruleset_json()["difficulties"]


SUIT_LETTER = re.compile(r"\(([HDCS])\)")


def test_automa_suit_table_matches_the_standard_ruleset():
    rows = table_after(section_of(doc_text(), "Automa"), ("Suit of the Automa card",))
    stated = {}
    for row in rows:
        letter = SUIT_LETTER.search(row[0])
        assert letter, f"row without a suit letter like (H): {row}"
        stated[letter.group(1)] = row[1].strip("`")
    assert stated == ruleset_json()["automa_suits"]


def test_appendix_lists_every_other_ruleset_value():
    rows = table_after(doc_text(), ("Key in `standard-1.json`", "Value"))
    stated = {row[0].strip("`"): row[1].strip("`") for row in rows}
    expected = {key: str(value) for key, value in leaves(ruleset_json()).items()
                if not key.startswith(("difficulties.", "automa_suits.", "cards."))}
    assert stated == expected


def test_altitude_table_reach_follows_the_ruleset_formula():
    data = ruleset_json()
    base, minimum = data["artillery_reach"]["base"], data["artillery_reach"]["minimum"]
    rows = table_after(section_of(doc_text(), "Altitude"), ("Altitude",))
    assert [int(row[0]) for row in rows] == list(range(data["max_altitude"] + 1))
    for row in rows:
        assert int(row[1]) == max(minimum, base - int(row[0])), row


# -- worked examples agree with the code ------------------------------------------------

def test_ridge_picture_matches_ridge_cells():
    """The B2-G5 picture was drawn by hand (corner touch at D3/E4); the code uses Shapely."""
    match = re.search(r"a ridge from B2 to G5\.\*.*?```\n(.*?)```", doc_text(), re.S)
    assert match, "the B2-G5 ridge example is missing"
    lines = match.group(1).splitlines()
    columns = lines[0].split()
    drawn = set()
    for line in lines[1:]:
        row, *marks = line.split()
        drawn |= {f"{columns[i]}{row}" for i, mark in enumerate(marks) if mark == "M"}
    computed = {str(c) for c in ridge_cells(Cell.parse("B2"), Cell.parse("G5"))}
    assert drawn == computed
    assert {"D4", "E3"}.isdisjoint(computed)


def test_seed_1944_example_matches_the_seeded_setup():
    from bgrid.challenges.mission import mission_from_seed

    mission = mission_from_seed(1944)
    assert [str(c) for c in mission.setup["ridges"][0]] == "9H JC 7H 10S 3D".split()
    assert [str(c) for c in mission.setup["bunkers"][-2:]] == ["9H", "4H"]
    assert {str(c) for c in mission.game_map.bunkers} >= {"H4", "I4"}
    assert {"J4", "I5"} <= {str(c) for c in mission.game_map.mountains}


def test_turn_1_example_matches_the_challenge_deck_and_map():
    from bgrid.challenges.mission import mission_from_code

    mission = mission_from_code("0M00-0001-WR3")
    assert [str(c) for c in mission.deck[:8]] == "7S JC 6H 2H QC KS 10D JD".split()
    assert {str(c) for c in mission.game_map.artillery} == {"A10", "C5", "D6", "H7"}
    assert "G1" in {str(c) for c in mission.game_map.bunkers}
    blocking = {str(c) for c in mission.game_map.mountains | set(mission.game_map.bunkers)}
    assert not {"A9", "C4", "D5", "H6"} & blocking


def test_challenge_codes_in_the_doc_name_seed_1944():
    """The doc shows 0M00-0001-WR3 as the code of `bgrid map --seed 1944` (normal, 1 ridge)."""
    from bgrid.challenges.codes import decode_code

    codes = set(re.findall(r"\b[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{3}\b", doc_text()))
    assert codes
    for code in codes:
        spec = decode_code(code)
        assert (spec.seed, spec.difficulty, spec.ridges) == (1944, "normal", 1), code


# -- (c) every ruling is cited in the code ----------------------------------------------

def cited_rulings() -> set[int]:
    cited = set()
    for folder in CODE_FOLDERS:
        for path in (REPO / folder).rglob("*.py"):
            cited |= {int(n) for n in re.findall(r"\bR(\d{1,2})\b", path.read_text(encoding="utf-8"))}
    return cited


def test_every_ruling_is_cited_in_the_code():
    missing = sorted(set(rulings()) - cited_rulings())
    assert not missing, ("no .py file in rules/, players/, challenges/, generator/, log/ or verifier/ cites "
                         + ", ".join(f"R{n}" for n in missing))
