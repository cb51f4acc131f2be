"""The verdict's JSON writer gives the standard library's bytes (``json.dumps`` with
``indent=2, ensure_ascii=False`` is the independent method), for every verdict of the
corpus (errors, notes, ledgers) and for the shapes a verdict never holds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bgrid.verifier.json_text import indented_json
from bgrid.verifier.verify import Verifier

CORPUS = Path(__file__).parent / "logs" / "corpus"


def stdlib(obj, pad: str = "") -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False).replace("\n", "\n" + pad)


def test_every_corpus_verdict_is_written_as_json_dumps_writes_it():
    verifier = Verifier()
    logs = sorted(CORPUS.glob("*.log"))
    assert logs
    for path in logs:
        data = verifier.verify(path.read_bytes(), path.name).as_dict()
        assert indented_json(data) == stdlib(data), path.name
        assert indented_json(data, "    ") == stdlib(data, "    "), path.name


@pytest.mark.parametrize("obj", [
    {}, [], {"a": []}, {"a": {}}, [[[]]], "",
    {"text": "é \u202e \x1b \" \\ \n \t \udc80 \u2028"},
    [1, -3, 0, True, False, None, {"nested": [{"deep": [{}]}]}],
    {"tuple": (1, "two")},
    {"float": 1.5}, {"nan": float("nan")}, {1: "an int key"}, {None: 1, True: 2},
])
def test_odd_shapes_match_the_standard_library(obj):
    assert indented_json(obj) == stdlib(obj)
    assert indented_json(obj, "  ") == stdlib(obj, "  ")


def test_a_value_json_cannot_write_is_refused_as_json_dumps_refuses_it():
    with pytest.raises(TypeError):
        indented_json({"cell": object()})


def test_keys_past_the_remembered_ones_and_keys_to_escape_are_written_as_json_dumps_writes_them():
    many = {f"key {i} \"é\"\t": [i, {"line": i, "rule": "R18", f"n{i}": None}] for i in range(600)}
    assert indented_json(many) == stdlib(many)
    assert indented_json(many, "  ") == stdlib(many, "  ")
