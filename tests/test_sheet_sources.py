"""`bgrid sheet` and `bgrid pack` for every map source a log header can name (challenge,
seed, hand setup, explicit map) and for a blank sheet set up at the table."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from bgrid.cli import cli
from bgrid.challenges.mission import mission_from_seed
from bgrid.log.reader import parse_log
from bgrid.verifier.map_source import mission_source

from pdf_probe import reader

SETUP = ("bgrid-log: 1\nsetup ridge: 3H KS 7D 2C 9C\n"
         "setup bunkers: 2H 4D 5S 6C 7H 8D 9S 10C AH 3D 4C 5H\n"
         "setup artillery: 6S 7C 8H 9D 10S AC 2D 3C\ndifficulty: hard\nplayer: Ada\n\n"
         "turn 1\nenter 7H\n")
EXPLICIT = ("bgrid-log: 1\nmap mountains: C3 D4 E5\nmap bunkers: A1 B7 D9 F2 H5 J8\n"
            "map artillery: B3 E8 G4 I9\n")
SEED = "bgrid-log: 1\nseed: 7\nridges: 3\ndifficulty: easy\n"


def run(*args):
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def sheet_pages(tmp_path, *args) -> list[str]:
    target = tmp_path / "out.pdf"
    code, out = run("sheet", *args, "--out", str(target))
    assert code == 0, out
    return [" ".join(p.extract_text().split()) for p in reader(target.read_bytes()).pages]


def header_file(tmp_path, text: str):
    path = tmp_path / "header.log"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_challenge_header_prints_the_challenge_with_its_deck_page(tmp_path):
    code = mission_from_seed(1944).code
    pages = sheet_pages(tmp_path, "--header", header_file(tmp_path, f"bgrid-log: 1\nchallenge: {code}\n"))
    assert len(pages) == 5 and code in pages[0]
    assert "stacking list" in pages[4]


def test_seed_header_prints_the_seeded_mission_with_its_settings(tmp_path):
    mission = mission_from_seed(7, "easy", 3)
    pages = sheet_pages(tmp_path, "--header", header_file(tmp_path, SEED))
    assert mission.code in pages[0]
    assert "difficulty easy · ridges 3 · starting health 6" in pages[0]


def header_lines_on(page: str, keys) -> str:
    """The header lines printed on page 1, cut at the next key."""
    found = []
    for key in keys:
        start = page.index(key)
        ends = [page.index(k, start + 1) for k in keys + ("difficulty:", "pilot") if k in page[start + 1:]]
        found.append(page[start:min(ends)].strip())
    return "\n".join(found)


def test_setup_header_prints_its_map_and_lines_that_rebuild_it(tmp_path):
    pages = sheet_pages(tmp_path, "--header", header_file(tmp_path, SETUP))
    assert len(pages) == 4  # board, three log pages: no deck order, no deck page
    assert "set up by hand" in pages[0].lower() and "health 4" in pages[0]  # the label is in capitals
    assert all("stacking list" not in p for p in pages)
    printed = header_lines_on(pages[0], ("setup ridge:", "setup bunkers:", "setup artillery:"))
    original = mission_source(parse_log(SETUP))
    again = mission_source(parse_log("bgrid-log: 1\n" + printed + "\n"))
    assert again.game_map == original.game_map
    # on the board's trackers: the artillery in placement order, numbered
    for n, cell in enumerate(original.game_map.artillery, start=1):
        assert f"{n} {cell}" in pages[0]


def test_explicit_map_header_prints_its_map(tmp_path):
    pages = sheet_pages(tmp_path, "--header", header_file(tmp_path, EXPLICIT))
    assert len(pages) == 4 and "explicit map" in pages[0].lower()
    printed = header_lines_on(pages[0], ("map mountains:", "map bunkers:", "map artillery:"))
    assert printed == "map mountains: C3 D4 E5\nmap bunkers: A1 B7 D9 F2 H5 J8\nmap artillery: B3 E8 G4 I9"
    assert "1 B3" in pages[0] and "4 I9" in pages[0]
    assert "turns 1–34 of 101" in pages[1]


def test_blank_sheet_has_an_empty_board_and_a_setup_box(tmp_path):
    from bgrid.generator.sheet import board_context
    from bgrid.challenges.mission import blank_mission
    from bgrid.rules.ruleset import load_ruleset

    pages = sheet_pages(tmp_path, "--blank")
    assert len(pages) == 4
    for key in ("setup ridge:", "setup bunkers:", "setup artillery:", "difficulty:"):
        assert key in pages[0]
    assert "easy 6" in pages[0] and "ace 3" in pages[0]  # R4, to ring at the table
    assert {c["kind"] for c in board_context(blank_mission(load_ruleset()))["cells"]} == {"open"}


def test_blank_sheet_with_a_difficulty_prints_its_health(tmp_path):
    pages = sheet_pages(tmp_path, "--blank", "--difficulty", "hard")
    assert "health 4" in pages[1]


def test_a_header_sheet_is_the_same_bytes_each_time(tmp_path):
    path = header_file(tmp_path, SETUP)
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    assert run("sheet", "--header", path, "--out", str(first))[0] == 0
    assert run("sheet", "--header", path, "--out", str(second))[0] == 0
    assert first.read_bytes() == second.read_bytes()


def test_pack_takes_a_blank_sheet_and_headers(tmp_path):
    code, out = run("pack", "--blank", "--out", str(tmp_path))
    assert code == 0, out
    assert sorted(p.name for p in (tmp_path / "blank").iterdir()) == ["deck-a4.pdf", "sheet-a4.pdf"]
    code, out = run("pack", "--header", header_file(tmp_path, SETUP), "--out", str(tmp_path))
    assert code == 0, out
    folder = next(tmp_path.glob("setup-*"))
    assert sorted(p.name for p in folder.iterdir()) == ["deck-a4.pdf", "sheet-a4.pdf"]
    code, out = run("pack", "--header", header_file(tmp_path, SEED), "--out", str(tmp_path))
    assert code == 0, out
    assert (tmp_path / mission_from_seed(7, "easy", 3).code / "map.json").exists()


@pytest.mark.parametrize("args, says", [
    (["--blank", "--seed", "3"], "exactly one of"),
    (["--blank", "--ridges", "2"], "--ridges goes with --seed"),
    (["--header", "HEADER", "--difficulty", "easy"], "the header names the mission"),
    (["--header", "MISSING"], "cannot read --header"),
    (["--header", "BAD"], "E105"),
    (["--header", "EMPTY"], "E126"),
])
def test_misuse_is_one_line_and_exit_2(tmp_path, args, says):
    files = {"HEADER": header_file(tmp_path, SEED), "MISSING": str(tmp_path / "nope.log"),
             "BAD": str(tmp_path / "bad.log"), "EMPTY": str(tmp_path / "empty.log")}
    (tmp_path / "bad.log").write_text("bgrid-log: 1\nseed: x7\n")
    (tmp_path / "empty.log").write_text("bgrid-log: 1\nplayer: Ada\n")
    code, out = run("sheet", *[files.get(a, a) for a in args], "--out", str(tmp_path / "x.pdf"))
    assert code == 2 and says in out
    assert "Traceback" not in out and not (tmp_path / "x.pdf").exists()


def test_the_generator_does_not_import_the_verifier():
    code = ("import sys, bgrid.generator.sheet, bgrid.generator.pack; "
            "print(any(m.startswith('bgrid.verifier') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
