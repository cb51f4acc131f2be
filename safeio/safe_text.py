"""Text from strangers made safe to show: file names and log text in a terminal or a page.

A log's free text (``player:``) and a file name in a folder someone sent in may hold
characters that change what the reader sees rather than show themselves: ANSI escapes and
newlines (a fake extra ``valid`` line in the terminal), bidirectional controls (a
right-to-left override reverses the text after it, in the terminal and in the browser),
and bytes that are not UTF-8 (a name from an archive made on Windows). Here they become
visible escapes (terminal) or are dropped (page), and undecodable bytes become U+FFFD.

>>> terminal_text("alice.log\\n\\x1b[32mvalid")
'alice.log\\\\u000a\\\\u001b[32mvalid'
>>> terminal_text("Ada\\u202eevil")
'Ada\\\\u202eevil'
>>> html_text("Ada\\u202e 1944\\x07")
'Ada 1944\\ufffd'
"""

from __future__ import annotations

import re

# U+202A-U+202E embeddings and overrides, U+2066-U+2069 isolates: they reorder what follows.
BIDI_CONTROLS = "\u202a-\u202e\u2066-\u2069"
# Marks a terminal shows as nothing or as a line break: the Arabic letter mark, zero width
# space, left-to-right and right-to-left marks, line and paragraph separators, byte order mark
# (zero width joiners are left alone: scripts and emoji need them).
INVISIBLE = "\u061c\u200b\u200e\u200f\u2028\u2029\ufeff"
# C0 and C1 controls and DEL, the bidi controls, the invisible marks, and lone surrogates (how
# Python carries a byte that is not UTF-8 in a file name or an argument).
_UNSAFE = re.compile(f"[\x00-\x1f\x7f-\x9f{BIDI_CONTROLS}{INVISIBLE}\ud800-\udfff]")
# The same without newline and tab: multi-line output (a folder's JSON, a megabyte) is then
# one scan in C that finds nothing, not a Python call per line break.
_UNSAFE_IN_LINES = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI_CONTROLS}{INVISIBLE}\ud800-\udfff]")
_HTML_DROPPED = re.compile(f"[{BIDI_CONTROLS}]")
_HTML_REPLACED = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


_PRINTABLE_ASCII = bytes(range(0x20, 0x7F))


def terminal_text(text: str, keep: str = "") -> str:
    """``text`` with every unsafe character except those in ``keep`` written as ``\\uXXXX``
    (inside JSON that is the same string again) and undecodable bytes as U+FFFD."""
    if text.isascii() and not text.encode("ascii").translate(
            None, _PRINTABLE_ASCII + keep.encode("ascii", "ignore")):
        # ASCII holding only printable characters and what is kept, the usual case (a folder's
        # JSON is megabytes): nothing to escape, told in one pass in C, faster than the scan
        return text

    def escape(match: re.Match) -> str:
        ch = match.group()
        if ch in keep:
            return ch
        if "\ud800" <= ch <= "\udfff":
            return "\ufffd"
        return f"\\u{ord(ch):04x}"

    return (_UNSAFE_IN_LINES if keep == "\n\t" else _UNSAFE).sub(escape, text)


def printable_lines(text: str) -> str:
    """Multi-line output for the terminal: newlines and tabs kept, the rest as in
    :func:`terminal_text`."""
    return terminal_text(text, keep="\n\t")


LONGEST_WORD = 200  # characters of one word shown whole in a message; a 5,000-digit seed is cut


def one_line(message: str) -> str:
    """A message as one safe line: a value the user typed may hold a newline, an escape
    sequence or undecodable bytes (shown escaped), or be thousands of characters (cut)."""
    words = terminal_text(message).split(" ")
    return " ".join(w if len(w) <= LONGEST_WORD else _cut(w) for w in words)


def _cut(word: str) -> str:
    """A long word cut to its start, its length and its closing quote or punctuation, so that
    '…/a-very-long/path': keeps its closing "':"."""
    end = len(word.rstrip("'\")]:,.;"))
    return f"{word[:40]}…({end} characters){word[end:]}"


def display_name(path: str) -> str:
    """A file name as it is shown everywhere (terminal, JSON, report): one line."""
    return terminal_text(path)


def html_text(text: str) -> str:
    """``text`` for an HTML page: bidi controls dropped (the page isolates user text with
    ``<bdi>``), other controls and undecodable bytes as U+FFFD."""
    return _HTML_REPLACED.sub("\ufffd", _HTML_DROPPED.sub("", text))

