"""docs/log-format.md against what the verifier really says: every message code with its
name and the rule it cites, and every part of the log format a message cites findable on
the page.

The rules a message cites are read from tests/golden/<code>.txt, the verifier's full output
for one hand-checked log per code (test_verify_messages compares the two), not from the
catalogue's defaults: a default the replay always overrides would otherwise pass unseen.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bgrid.log.messages import CATALOG
from bgrid.verifier.verify import verify_log

HERE = Path(__file__).parent
DOC = (HERE.parent / "docs" / "log-format.md").read_text(encoding="utf-8")
RULES_DOC = HERE.parent / "docs" / "rules.md"
ROW = re.compile(r"^\| (E\d{3}) \| ([a-z-]+) \| .* \| ([^|]+) \|$", re.M)


def doc_rows() -> dict[str, tuple[str, str]]:
    """code -> (name, rule column) from the message tables of section 9."""
    section = DOC.split("## 9. Messages")[1].split("## 10.")[0]
    return {code: (name, rule.strip()) for code, name, rule in ROW.findall(section)}


def cited_rules(text: str) -> list[str]:
    """The rules in a doc rule cell, first the usual one: 'R22 (R35 after a reshuffle)'."""
    return re.findall(r"R\d+", text) or [text.split(" (")[0]]  # 'Body (Header on a header line)'


def test_every_code_in_the_docs_has_the_catalogue_name():
    rows = doc_rows()
    assert set(rows) == set(CATALOG)
    assert {code: name for code, (name, _) in rows.items()} == {c: n for c, (n, _) in CATALOG.items()}


@pytest.mark.parametrize("golden", sorted((HERE / "golden").glob("E*.txt")), ids=lambda p: p.stem)
def test_the_rule_a_message_cites_is_the_one_the_docs_give(golden):
    code = golden.stem
    cited = re.search(r"^  rule: (.+)$", golden.read_text(encoding="utf-8"), re.M).group(1)
    doc_rule = doc_rows()[code][1]
    # the docs write 'Lexical' for 'log-format: Lexical', 'Card Actions' for 'rulebook: Card Actions'
    cited_short = cited.split(": ", 1)[1] if cited.startswith(("log-format: ", "rulebook: ")) else cited
    assert cited_short == cited_rules(doc_rule)[0], \
        f"{code}: the verifier cites {cited}, the docs say {doc_rule}"


def test_every_cited_part_of_the_log_format_is_on_the_page():
    """'log-format: Body' must lead a reader to a section of this page."""
    table = DOC.split("| cited as | on this page |")[1].split("\n\n")[0]
    mapped = dict(re.findall(r"^\| `(log-format: [^`]+)` \| (.+) \|$", table, re.M))
    cited = {rule for _, rule in CATALOG.values() if rule.startswith("log-format: ")}
    for golden in (HERE / "golden").glob("E*.txt"):
        cited |= set(re.findall(r"^  rule: (log-format: .+)$", golden.read_text(encoding="utf-8"), re.M))
    assert cited <= set(mapped)
    headings = set(re.findall(r"^##+ (?:(\d+)\. )?(.+)$", DOC, re.M))
    numbers = {number: title for number, title in headings if number}
    for name, where in mapped.items():
        for number, title in re.findall(r"§(\d+) ([A-Z][a-z]+(?: [a-z]+)*)", where):
            assert title in numbers.get(number, "") or (title in {t for _, t in headings}), \
                (name, number, title)


def test_rulings_named_in_the_message_tables_exist():
    section = DOC.split("## 9. Messages")[1]
    rulings = {int(n) for n in re.findall(r"^\*\*R(\d+) ", RULES_DOC.read_text(encoding="utf-8"), re.M)}
    assert {int(n) for n in re.findall(r"\bR(\d+)\b", section)} <= rulings


def _matches(doc, real) -> bool:
    """A doc value equals the real one; a doc string ending in '…' is a prefix of it."""
    if isinstance(doc, dict):
        return (isinstance(real, dict) and set(doc) == set(real)
                and all(_matches(doc[k], real[k]) for k in doc))
    if isinstance(doc, list):
        return isinstance(real, list) and len(doc) == len(real) and all(map(_matches, doc, real))
    if isinstance(doc, str) and doc.endswith("…"):
        return isinstance(real, str) and real.startswith(doc[:-1].rstrip(" ,;"))
    return doc == real


def test_the_json_sample_is_what_verify_prints_for_the_example_log():
    sample = json.loads(DOC.split("```json")[1].split("```")[0])
    example = DOC.split("## 10. Example")[1].split("```")[1].lstrip("\n")
    real = verify_log(example, source="mission.log").as_dict()
    assert _matches(sample, real), json.dumps(real, ensure_ascii=False)
