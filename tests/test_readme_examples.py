"""The README and the docs show what the code does: every example that can run, runs.

Two kinds of example are found wherever they are written (README.md and docs/*.md), so a
section added later is covered without touching this file:

- a fenced ```console block: each ``$ bgrid …`` line is run as a real command, and what it
  prints (standard output, then standard error) must be the lines after it, up to the next
  ``$`` line or the end of the block, where ``...`` stands for any text (doctest's ELLIPSIS);
- a fenced block with ``>>>`` lines is a doctest of the Python API.

Both run in a fresh folder holding the files of ``tests/readme/`` (``ada.log``), the files the
examples name. Commands without output shown (plain ``` blocks, ``bgrid …`` lines) are parsed
by ``test_cli_examples.py``.

So an example cannot drift from the code: a star count the command no longer prints, a
``rules.legal_actions(state)`` that returns ``[]`` where the example calls it, a
``verify --html`` that writes a file without saying so.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FILES = Path(__file__).parent / "readme"
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CONSOLE = re.compile(r"^```console\n(.*?)^```", re.S | re.M)
FENCED = re.compile(r"^```[a-z]*\n(.*?)^```", re.S | re.M)


def python_examples(document: Path) -> str:
    """The fenced blocks of ``document`` that hold ``>>>`` lines, one after the other."""
    return "\n\n".join(block for block in FENCED.findall(document.read_text(encoding="utf-8"))
                       if ">>> " in block)


def console_examples() -> list:
    """(document, command, expected output) of every ``$ bgrid`` line of a console block."""
    found = []
    for document in DOCUMENTS:
        for block in CONSOLE.findall(document.read_text(encoding="utf-8")):
            command, expected = None, []
            for line in block.splitlines() + ["$ "]:
                if line.startswith("$ "):
                    if command is not None:
                        found.append(pytest.param(command, "\n".join(expected),
                                                  id=f"{document.name}: {command}"))
                    command, expected = line[2:].strip() or None, []
                elif command is not None:
                    expected.append(line)
    return found


@pytest.fixture
def folder(tmp_path):
    shutil.copytree(FILES, tmp_path, dirs_exist_ok=True)
    return tmp_path


def bgrid_on_path() -> dict:
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", "")
    return env


def test_the_documents_have_console_and_python_examples():
    assert len(console_examples()) >= 2
    assert any(python_examples(document) for document in DOCUMENTS)


@pytest.mark.parametrize(("command", "expected"), console_examples())
def test_a_console_example_prints_what_the_document_shows(folder, command, expected):
    assert shlex.split(command)[0] == "bgrid", "a console example runs bgrid"
    proc = subprocess.run(command, shell=True, cwd=folder, env=bgrid_on_path(), capture_output=True,
                          text=True, timeout=300)
    printed = proc.stdout + proc.stderr
    checker = doctest.OutputChecker()
    assert checker.check_output(expected + "\n", printed, doctest.ELLIPSIS), \
        checker.output_difference(doctest.Example(command, expected + "\n"), printed, doctest.ELLIPSIS)


@pytest.mark.parametrize("document", [d for d in DOCUMENTS if python_examples(d)], ids=lambda d: d.name)
def test_python_examples_run_as_shown(folder, document, monkeypatch):
    monkeypatch.chdir(folder)
    test = doctest.DocTestParser().get_doctest(python_examples(document), {}, document.name,
                                               str(document), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0 and result.attempted > 0


def test_verify_html_says_which_file_it_wrote(folder):
    proc = subprocess.run(["bgrid", "verify", "ada.log", "--html", "ada.html"], cwd=folder,
                          env=bgrid_on_path(), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and (folder / "ada.html").is_file()
    assert proc.stderr == "wrote the report ada.html\n"


def test_every_link_of_the_readme_leads_to_a_file_of_the_checkout():
    """The README is a page of links into docs/: each names a file that exists, and a
    ``#fragment`` a heading of that page (as GitHub and MkDocs both make its anchor)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)\s]+)\)", readme)
    assert len(links) >= 10
    for link in links:
        if link.startswith(("http://", "https://")):
            continue
        path, _, fragment = link.partition("#")
        target = ROOT / path
        assert target.is_file(), f"README links to {link}, which is not a file"
        if fragment:
            headings = re.findall(r"^#+ (.+)$", target.read_text(encoding="utf-8"), re.M)
            anchors = {re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-") for h in headings}
            assert fragment in anchors, f"README links to {link}: no such heading"
