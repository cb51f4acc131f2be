"""The command line as a new player and an organiser meet it: every example in README.md and
in each command's --help parses, and misuse is one line with exit status 2 before any work
is done (no page of verdicts, no thousand games, then an error)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from bgrid import cmd_simulate, cmd_verify
from bgrid.cli import COMMANDS, cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
#: The README and every page of the documentation site: an example is tested wherever it is.
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```([a-z]*)\n(.*?)^```", re.S | re.M)
LOG = ("bgrid-log: 1\nchallenge: 0M00-0001-WR3\n\nturn 1\nenter 7S\ndraw JC 6H 2H QC KS\n"
       "resupply KS -> 10D\nalt QC\nmove 2H FF\nautoma JD\nstate at G3 facing S alt 2 dmg 0\n")


def run(args, stdin=None):
    return CliRunner().invoke(cli, args, input=stdin)


def bgrid_invocations(text: str) -> list[list[str]]:
    """The argument lists of every `bgrid …` in the text's code blocks and example lines."""
    found = []
    for line in text.splitlines():
        for part in re.split(r"&&|\|", line.split(" #")[0]):
            if "bgrid" not in part:  # another program's line (curl, a continued line)
                continue
            words = shlex.split(part)
            while words and words[0] != "bgrid" and not words[0].endswith("/bgrid"):
                words.pop(0)
            if len(words) > 1 and not words[1].startswith("-"):
                found.append(words[1:])
    return found


def parse_only(args: list[str]) -> None:
    """Parse the arguments as bgrid would, without running the command."""
    name, rest = args[0], args[1:]
    command = cli.get_command(click.Context(cli), name)
    assert command is not None, f"no command {name!r}"
    command.make_context(name, rest, parent=click.Context(cli, info_name="bgrid"))


def help_examples() -> list[list[str]]:
    out = []
    for name in COMMANDS:
        help_text = run([name, "--help"]).output
        out.extend(bgrid_invocations(help_text.split("Examples:")[1].split("Options:")[0]))
    return out


def shell_blocks(document: Path) -> str:
    """The document's shell blocks: plain ``` and ```console (```pycon and ```python are
    test_readme_examples'; ```text is a synopsis, not a command line)."""
    text = document.read_text(encoding="utf-8")
    return "\n".join(body for lang, body in FENCE.findall(text) if lang in ("", "console"))


DOC_RUNS = bgrid_invocations("\n".join(shell_blocks(document) for document in DOCUMENTS))


def test_readme_and_help_have_examples_of_every_command():
    assert {args[0] for args in DOC_RUNS} >= {"pack", "map", "verify", "simulate"}
    assert {args[0] for args in help_examples()} == set(COMMANDS)


@pytest.mark.parametrize("args", DOC_RUNS + help_examples(), ids=" ".join)
def test_every_documented_example_parses(args):
    parse_only(args)


# -- bgrid verify ------------------------------------------------------------------------

def test_an_html_report_into_a_missing_folder_is_refused_before_verifying(tmp_path):
    log = tmp_path / "ada.log"
    log.write_text(LOG)
    result = run(["verify", str(log), "--html", str(tmp_path / "no" / "r.html")])
    assert result.exit_code == 2
    assert "ada.log" not in result.output  # no verdict first, then the error
    assert result.output.count("\n") == 1 and "does not exist" in result.output


def test_an_html_report_onto_a_folder_is_refused(tmp_path):
    log = tmp_path / "ada.log"
    log.write_text(LOG)
    result = run(["verify", str(log), "--html", str(tmp_path)])
    assert result.exit_code == 2 and "is a folder" in result.output


def test_an_html_report_into_an_unwritable_folder_is_refused(tmp_path, monkeypatch):
    log = tmp_path / "ada.log"
    log.write_text(LOG)
    monkeypatch.setattr(cmd_verify.os, "access", lambda path, mode: False)  # root can write anywhere
    result = run(["verify", str(log), "--html", str(tmp_path / "r.html")])
    assert result.exit_code == 2 and "no permission to write" in result.output
    assert not (tmp_path / "r.html").exists()


def test_standard_input_twice_is_misuse():
    result = run(["verify", "-", "-"], stdin=LOG)
    assert result.exit_code == 2 and "only once" in result.output


def test_the_seed_1944_log_of_the_docs_verifies_as_incomplete_with_its_state():
    result = run(["verify", "-"], stdin=LOG)
    assert result.exit_code == 1
    # the log's last line is turn 1's Automa (and a state line): it stops at the end of turn 1
    assert "incomplete" in result.output and "end of turn 1, at G3 facing S, alt 2, dmg 0/5" in result.output


# -- bgrid simulate ----------------------------------------------------------------------

def test_write_logs_onto_a_file_is_refused_before_any_game(tmp_path, monkeypatch):
    target = tmp_path / "taken"
    target.write_text("")
    monkeypatch.setattr(cmd_simulate, "simulate", lambda *a, **k: pytest.fail("simulated first"))
    result = run(["simulate", "--seed", "1944", "--games", "5", "--write-logs", str(target)])
    assert result.exit_code == 2 and "is a file, not a folder" in result.output


def test_write_logs_into_an_unwritable_folder_is_refused_before_any_game(tmp_path, monkeypatch):
    monkeypatch.setattr(cmd_simulate.os, "access", lambda path, mode: False)
    monkeypatch.setattr(cmd_simulate, "simulate", lambda *a, **k: pytest.fail("simulated first"))
    result = run(["simulate", "--seed", "1944", "--games", "5", "--write-logs", str(tmp_path / "logs")])
    assert result.exit_code == 2 and "permission denied" in result.output


def test_median_score_is_printed_as_a_whole_number_when_it_is_one():
    # 3 games: the median is the middle score, always a whole number
    result = run(["simulate", "--seed", "1944", "--games", "3", "--json"])
    data = json.loads(result.output)
    assert isinstance(data["median_score"], int)
    text = run(["simulate", "--seed", "1944", "--games", "3"]).output
    assert re.search(r"median -?\d+,", text), text


# -- a folder of logs --------------------------------------------------------------------

def test_each_log_of_a_folder_gets_the_verdict_it_gets_alone():
    """The verifier remembers parsed lines and mission starts between logs (for speed); a
    remembered line must never carry one log's context into the next (say, a body line read
    as if it stood before the first turn, E125)."""
    from bgrid.verifier import Verifier

    verifier = Verifier()

    base = LOG.split("automa JD")[0]
    logs = [LOG, base + "alt 10H\n", base + "automa JD\nturn 2\n", LOG + "draw 9C 2D\n",
            LOG.replace("move 2H FF", "move 2H FFF")]
    corpus = Path(__file__).parent / "logs" / "corpus"
    logs += [p.read_text(encoding="utf-8") for p in sorted(corpus.glob("*.log"))[:20]]
    together = [verifier.verify(text).summary() for text in logs + logs[::-1]]
    alone = [Verifier().verify(text).summary() for text in logs + logs[::-1]]
    assert together == alone


def documents_with(marker: str) -> list[str]:
    """The text of every document (the README, a page of docs/) that holds ``marker``: a
    section is tested wherever it moves, and there is one."""
    found = [text for text in (d.read_text(encoding="utf-8") for d in DOCUMENTS) if marker in text]
    assert found, f"no document holds {marker!r}"
    return found


@pytest.mark.parametrize("text", documents_with("# Verifying a log"))
def test_the_error_sample_of_verifying_a_log_is_what_verify_prints(text):
    section = text.split("# Verifying a log")[1]
    log = section.split("```\n")[1].replace("...\n", "").replace("draw JC 6H 2H QC KS", "draw JC 6H 2H QC KD")
    sample = section.split("$ bgrid verify ada.log\n")[1].split("```")[0]
    result = run(["verify", "-"], stdin=log)
    assert result.exit_code == 1
    assert result.output.replace("<stdin>", "ada.log") == sample


def test_write_logs_with_an_empty_name_is_refused_not_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(["simulate", "--seed", "1944", "--games", "2", "--write-logs", ""])
    assert result.exit_code == 2 and "needs a folder name" in result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [["sheet", "--seed", "1", "--out", ""], ["deck", "--out", " "],
                                  ["pack", "--seed", "1", "--out", ""], ["verify", "-", "--html", ""]])
def test_an_empty_output_name_is_misuse_not_the_current_folder(args, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(args, stdin=LOG)
    assert result.exit_code == 2 and result.output.startswith("Error:") and result.output.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_the_folder_in_the_verify_examples_holds_logs():
    # a folder the examples verify must hold logs, or the example answers "the directory holds
    # no *.log" (exit 2)
    repo = Path(__file__).resolve().parents[1]
    folders = [args[1] for args in help_examples() if args[0] == "verify" and (repo / args[1]).is_dir()]
    assert folders
    for folder in folders:
        assert list((repo / folder).glob("*.log")), folder
