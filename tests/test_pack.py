"""`bgrid sheet`, `bgrid deck`, `bgrid pack`: files written, atomic writes, exit codes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.challenges.mission import mission_from_seed

from pdf_probe import reader

CODE_1944 = mission_from_seed(1944).code


def run(*args):
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_pack_writes_sheet_deck_and_map_json(tmp_path):
    code, out = run("pack", "--seed", "1944", "--paper", "letter", "--out", str(tmp_path), "--player", "Ada")
    assert code == 0, out
    folder = tmp_path / CODE_1944
    assert sorted(p.name for p in folder.iterdir()) == ["deck-letter.pdf", "deck-order.json", "map.json",
                                                         "sheet-letter.pdf"]
    data = json.loads((folder / "map.json").read_text())
    assert data["code"] == CODE_1944 and data["seed"] == 1944
    assert len(data["bunkers"]) == 6
    # board, three log pages, deck page
    assert len(reader((folder / "sheet-letter.pdf").read_bytes()).pages) == 5
    assert len(reader((folder / "deck-letter.pdf").read_bytes()).pages) == 14
    assert str(folder / "map.json") in out


GOLDEN_1944 = Path(__file__).parent / "golden" / "maps" / "seed-1944-normal-r1.json"
# A card as the log and the sheet write it: rank (A, 2-10, J, Q, K) then suit, or JK. A cell
# is column letter then row number (C3, J10), so no cell reads as a card.
CARD = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b|\bJK\b")


def test_map_json_shows_no_card_of_the_deck_and_deck_order_json_holds_it(tmp_path):
    code, out = run("pack", "--seed", "1944", "--out", str(tmp_path))
    assert code == 0, out
    folder = tmp_path / CODE_1944
    golden = json.loads(GOLDEN_1944.read_text())  # bgrid map --json as stored: the deck top first
    order = json.loads((folder / "deck-order.json").read_text())
    assert order == {"code": CODE_1944, "deck": golden["deck"],
                     "reshuffle_numbers": golden["reshuffle_numbers"]}
    assert str(folder / "deck-order.json") in out
    text = (folder / "map.json").read_text()
    record = json.loads(text)
    assert "deck" not in record and "reshuffle_numbers" not in record
    # The only cards in map.json are the setup draws (R1-R5), dealt from streams of their own:
    # outside "setup" no card at all, and no three cards of the deck in a row inside it.
    setup = record.pop("setup")
    assert CARD.findall(json.dumps(record)) == []
    deck = golden["deck"]
    runs = {tuple(deck[i:i + 3]) for i in range(len(deck) - 2)}
    for drawn in [*setup["ridges"], setup["bunkers"], setup["artillery"]]:
        assert not any(tuple(drawn[i:i + 3]) in runs for i in range(len(drawn) - 2))
    assert CARD.findall(text)  # the pattern does find the setup draws' cards


def test_sheet_by_code_to_a_named_file_with_png_pages(tmp_path):
    target = tmp_path / "sub" / "mine.pdf"
    code, out = run("sheet", "--code", CODE_1944, "--out", str(target), "--png")
    assert code == 0, out
    assert target.read_bytes().startswith(b"%PDF-")
    pngs = sorted(tmp_path.joinpath("sub").glob("mine-p*.png"))
    assert [p.name for p in pngs] == [f"mine-p{n}.png" for n in range(1, 6)]
    assert all(p.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") for p in pngs)


def test_plain_deck_without_a_mission(tmp_path):
    code, out = run("deck", "--out", str(tmp_path), "--low-ink")
    assert code == 0, out
    assert (tmp_path / "deck-plain-a4-low-ink.pdf").exists()


def test_deck_default_folder_is_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out = run("deck", "--seed", "1944", "--duplex-offset", "0.5,-1")
    assert code == 0, out
    assert (tmp_path / "output" / f"deck-{CODE_1944}-a4.pdf").exists()


@pytest.mark.parametrize("args, message", [
    (["sheet", "--seed", "1", "--paper", "a3"], "'a3' is not one of"),
    (["deck", "--seed", "1", "--duplex-offset", "1"], "not X,Y in mm"),
    (["deck", "--difficulty", "hard"], "--difficulty and --ridges go with --seed"),
    (["sheet"], "exactly one of --seed N, --code CODE, --header FILE or --blank"),
    (["sheet", "--code", "0M00-0001-WR4"], "fails its check"),
    (["pack", "--seed", "1", "--out", "x.pdf"], "a folder, not a .pdf file"),
    (["deck", "--gutter-fold", "--duplex-offset", "1,0"], "--gutter-fold prints one-sided"),
])
def test_misuse_is_one_line_and_exit_2(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    code, out = run(*args)
    assert code == 2
    assert message in out and "Traceback" not in out
    assert out.strip().startswith("Error:") and out.strip().count("\n") == 0


def test_out_that_is_a_file_is_refused(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    for args in (["sheet", "--seed", "1", "--out", str(blocker)],
                 ["deck", "--out", str(blocker / "deck.pdf")]):
        code, out = run(*args)
        assert code == 2 and "Error:" in out and "Traceback" not in out
    assert blocker.read_text() == "not a folder"


def test_every_print_command_has_help_with_an_example():
    for name in ("sheet", "deck", "pack"):
        code, out = run(name, "--help")
        assert code == 0 and "Examples:" in out and f"bgrid {name}" in out
