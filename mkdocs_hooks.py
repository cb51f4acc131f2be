"""MkDocs hooks (mkdocs.yml ``hooks:``): the command reference written by mkdocs-click, made to
read as ``bgrid --help`` does.

mkdocs-click renders each command's help as Markdown lines, and some of our help text does
not survive that: the ``Examples:`` block (indented lines, which Markdown folds into one
paragraph), an angle-bracket placeholder such as ``OUT/<code>/`` (which Markdown passes on as
an HTML tag, swallowing the rest of the page into it), and a default that is none: click
8.2's unset one (``Sentinel.UNSET`` for a flag with no default given) and mkdocs-click's
``None`` for an option whose default is None (Python's word; the help says what happens).
The ``::: mkdocs-click`` directive and mkdocs-click's rendering stay as they are; only the
lines it produced are mended, so a new command or option still reaches the page without an
edit.
"""

from __future__ import annotations

import re
from typing import Any

from markdown import Extension, Markdown
from mkdocs_click._extension import ClickProcessor, replace_command_docs
from mkdocs_click._processing import replace_blocks

UNSET_DEFAULT = re.compile(r"`Sentinel\.UNSET`")
NONE_DEFAULT = re.compile(r"\| None \|$")  # the last cell of a table row


def escape_outside_code(line: str) -> str:
    """``<`` and ``>`` outside backtick spans as entities (inside a span they are literal; an
    ``&`` is left alone, as mkdocs-click writes ``&#x7C;`` for a choice's bar)."""
    parts = line.split("`")
    return "`".join(part.replace("<", "&lt;").replace(">", "&gt;") if i % 2 == 0 else part
                    for i, part in enumerate(parts))


def mend(lines: list[str]) -> list[str]:
    """mkdocs-click's lines for one directive, with examples fenced, placeholders escaped and
    each options table in a ``<div class="options">`` (docs/css/extra.css lays it out a row a
    block on a phone, where its four columns would not fit)."""
    out: list[str] = []
    in_fence = in_examples = in_table = False
    for line in lines:
        if in_table and not line.startswith("|"):
            out.extend(["", "</div>", ""])
            in_table = False
        elif not in_table and not in_fence and line.startswith("|"):
            out.extend(['<div class="options" markdown>', ""])
            in_table = True
        if line.startswith("```"):
            in_fence = not in_fence
            out.append(line)
            continue
        if in_fence:
            out.append(line)
            continue
        if in_examples:
            if line.startswith("  "):
                out.append(line[2:])
                continue
            out.extend(["```", ""])
            in_examples = False
        if line.strip() == "Examples:":
            out.extend(["**Examples:**", "", "```text"])
            in_examples = True
        elif line.startswith("#"):  # a heading with its attribute list: { #bgrid-pack ... }
            out.append(line)
        else:
            out.append(escape_outside_code(NONE_DEFAULT.sub("|  |", UNSET_DEFAULT.sub("", line))))
    if in_examples:
        out.append("```")
    if in_table:
        out.extend(["", "</div>"])
    return out


class CommandReference(ClickProcessor):
    def run(self, lines: list[str]) -> list[str]:
        return list(replace_blocks(lines, title="mkdocs-click",
                                   replace=lambda **options: mend(list(replace_command_docs(
                                       has_attr_list=self._has_attr_list, **options)))))


class CommandReferenceExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Markdown's name)
        # the same name as mkdocs-click's own preprocessor, so this one replaces it
        md.preprocessors.register(CommandReference(md), "mk_click", 141)


def on_config(config: Any) -> Any:
    config.markdown_extensions.append(CommandReferenceExtension())
    return config
