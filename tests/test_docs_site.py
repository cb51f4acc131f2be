"""The documentation site (mkdocs.yml over docs/) builds with no warning, and its command
reference is the click commands' own: an option added to a command is on the page with no page
edited. Built with mkdocs, the docs extra (``pip install -e '.[docs]'``; .ci/run installs it,
so these run in CI; without it they are skipped)."""

from __future__ import annotations

import html
import logging
import re
from pathlib import Path

import click
import pytest

from bgrid.cli import COMMANDS, cli

mkdocs_config = pytest.importorskip("mkdocs.config", reason="the docs extra is not installed")
from mkdocs.commands.build import build  # noqa: E402  (after the skip: mkdocs is optional)
from mkdocs.exceptions import Abort  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def build_site(site: Path) -> list[str]:
    """Build the site into ``site`` as ``mkdocs build --strict`` does; the warnings it logged."""
    warnings: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.WARNING:
                warnings.append(record.getMessage())

    handler = Keep()
    logging.getLogger("mkdocs").addHandler(handler)
    try:
        build(mkdocs_config.load_config(str(ROOT / "mkdocs.yml"), site_dir=str(site), strict=True))
    except Abort:  # strict: the build stops on its warnings, which the test then names
        assert warnings
    finally:
        logging.getLogger("mkdocs").removeHandler(handler)
    return warnings


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    assert build_site(out) == []
    return out


def every_command(group: click.Group, path: str = "bgrid") -> list[tuple[str, click.Command]]:
    ctx = click.Context(group, info_name=path)
    found = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        found.append((f"{path} {name}", command))
        if isinstance(command, click.Group):
            found.extend(every_command(command, f"{path} {name}"))
    return found


def test_every_markdown_file_of_docs_is_a_page_of_the_site(site):
    # a page left out of the nav is a warning, so the strict build above already failed on it;
    # this says which page is missing from the built site
    for page in (ROOT / "docs").glob("*.md"):
        built = site / ("index.html" if page.stem == "index" else f"{page.stem}/index.html")
        assert built.is_file(), f"docs/{page.name} is not on the site"


def test_the_command_reference_has_every_command_and_option(site):
    page = (site / "commands" / "index.html").read_text(encoding="utf-8")
    commands = every_command(cli)
    assert {path.split()[1] for path, _ in commands} == set(COMMANDS)
    for path, command in commands:
        assert f'id="{path.replace(" ", "-")}"' in page, f"{path} has no section"
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                assert max(param.opts, key=len) in page, f"{path} {param.opts} is not on the page"


def test_an_option_added_to_a_command_appears_without_editing_a_page(tmp_path, monkeypatch):
    command = cli.get_command(click.Context(cli), "map")
    assert command is not None
    added = click.Option(["--canary-option-for-the-docs"], help="Only the docs test adds this.")
    monkeypatch.setattr(command, "params", [*command.params, added])
    assert build_site(tmp_path) == []
    page = (tmp_path / "commands" / "index.html").read_text(encoding="utf-8")
    section = page.split('id="bgrid-map"')[1].split('id="bgrid-pack"')[0]
    assert "--canary-option-for-the-docs" in section and "Only the docs test adds this." in section


def test_every_screenshot_is_shown_on_a_page_or_in_the_readme():
    pages = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    shown = "\n".join(page.read_text(encoding="utf-8") for page in pages)
    used = set(re.findall(r"img/([\w.-]+\.png)", shown))
    assert {p.name for p in (ROOT / "docs" / "img").glob("*.png")} <= used


def test_the_reference_shows_examples_as_code_and_placeholders_as_text(site):
    page = (site / "commands" / "index.html").read_text(encoding="utf-8")
    blocks = [html.unescape(re.sub(r"<[^>]+>", "", block))
              for block in re.findall(r"<pre.*?</pre>", page, re.S)]
    for path, command in every_command(cli):
        if "Examples:" not in (command.help or ""):
            continue
        first = command.help.split("Examples:")[1].strip().splitlines()[0].strip()
        assert any(first in block for block in blocks), f"{path}: {first!r} is not in a code block"
    assert "OUT/&lt;code&gt;/" in page  # shown as text, not opened as an HTML tag
    assert "Sentinel" not in page  # click's unset default is no default to show
    assert "<td>None</td>" not in page  # nor is Python's None



def tables_on_a_phone(site: Path, pages: list[str]) -> dict[str, list]:
    """Each page's tables as Chromium lays them out 390 px wide: [scroll width, width, right
    edge, display of the fourth cell] of each table's frame."""
    from browser import CHROMIUM, NO_CHROMIUM

    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")
    if CHROMIUM is None:
        pytest.skip(NO_CHROMIUM)
    found = {}
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--no-first-run"])
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            for name in pages:
                page.goto((site / name / "index.html").as_uri())
                found[name] = page.evaluate("""() =>
                  [...document.querySelectorAll('article table')].map(t => {
                    const box = t.closest('.md-typeset__scrollwrap') || t;
                    const fourth = t.querySelector('td:nth-child(4)');
                    return [box.scrollWidth, box.clientWidth, t.getBoundingClientRect().right,
                            fourth ? getComputedStyle(fourth).display : null];
                })""")
        finally:
            browser.close()
    return found


def too_wide(tables: list) -> list:
    return [t for t in tables if t[0] > t[1] + 1 or t[2] > 390]


def test_the_option_tables_fit_a_phone_without_scrolling_sideways(site):
    """At 390 px the four columns of an options table overflowed the page by 46-109 px in 22
    of its 22 tables: the description squeezed to three words a line and the default
    scrolled out of sight. Each option is now a block there (docs/css/extra.css)."""
    tables = tables_on_a_phone(site, ["commands"])["commands"]
    assert len(tables) >= len(COMMANDS)
    assert not too_wide(tables), f"{len(too_wide(tables))} of {len(tables)} tables wider than the phone"
    # the default on a line of its own under the description (none when it has none)
    assert {display for *_, display in tables} <= {"block", "none"}


def test_the_guides_tables_fit_a_phone(site):
    """At 390 px Material's cell padding pushed the last column of 14 tables on these pages
    out of sight (the log format's statements: 8 of them, its examples broken mid-word). A
    table of figures with more columns (the rating's, the solver's) may still scroll
    sideways inside its frame."""
    pages = ["log-format", "rules", "print", "league", "simulate"]
    found = tables_on_a_phone(site, pages)
    assert sum(map(len, found.values())) >= 14
    assert {name: len(too_wide(tables)) for name, tables in found.items()} == dict.fromkeys(pages, 0)
