"""The log's lexical layer (``docs/log-format.md``, Lexical): bytes to text, text to lines,
a line to its words with their columns. The parser (:mod:`log.reader`) builds the
header and the statements from these words.
"""

from __future__ import annotations

import re
from typing import Final

from mypy_extensions import mypyc_attr

from .messages import LogError
from .words import HEADER_KEYS

MAX_BYTES = 1 << 20  # 1 MiB: a long mission is a few kilobytes
_ARROW = re.compile("(->|→)")  # the sheet prints the arrow as →; both are '->'
# C0 and C1 controls and DEL (U+009B is a terminal's CSI, U+009D its OSC, as ESC [ and ESC ])
CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
CONTROL_IN_TEXT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # CONTROL but LF and CR
_ASCII_IN_TEXT = bytes(range(0x20, 0x7F)) + b"\t\n\r"  # the ASCII that CONTROL_IN_TEXT lets through


@mypyc_attr(acyclic=True)
class Token:
    """One word of a line and its 1-based column (in characters, after a BOM): a value,
    compared and hashed by its fields."""

    # A plain class with Final fields, not a named tuple (compiled, tuple.__new__ is a
    # Python-level call) nor a frozen dataclass (pure, object.__setattr__ per field made the
    # reader 30% slower): mypyc builds it natively. Acyclic: it holds values only.
    __slots__ = ("text", "column")

    def __init__(self, text: str, column: int) -> None:
        self.text: Final = text
        self.column: Final = column

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Token):
            return NotImplemented
        return self.text == other.text and self.column == other.column

    def __hash__(self) -> int:
        return hash((self.text, self.column))

    def __reduce__(self) -> tuple[type[Token], tuple[str, int]]:
        return (Token, (self.text, self.column))

    def __repr__(self) -> str:
        return f"Token(text={self.text!r}, column={self.column!r})"


def read_log_bytes(data: bytes) -> str:
    """Bytes to text: size cap, strict UTF-8 with the line of a bad byte, BOM dropped."""
    if len(data) > MAX_BYTES:
        # the CLI reads at most one byte over the cap, so the true size is not known here
        raise LogError("E001", f"the log is more than {MAX_BYTES} bytes (1 MiB), the most the "
                       "verifier reads; a mission log is a few kilobytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        start = data.rfind(b"\n", 0, exc.start) + 1
        end = data.find(b"\n", exc.start)
        shown = data[start:end if end >= 0 else len(data)].decode("utf-8", "replace").rstrip("\r")
        column = len(data[start:exc.start].decode("utf-8", "replace")) + 1
        raise LogError("E002", f"byte 0x{data[exc.start]:02X} is not UTF-8 (shown as \ufffd); save the "
                       "log as UTF-8 text", line=line, column=column, token="\ufffd", text=shown) from None
    return text


def log_lines(source: str | bytes) -> tuple[list[str], bool]:
    """A log's lines (bytes read by :func:`read_log_bytes`; a BOM dropped; a line ends at LF,
    a CR just before it dropped) and whether no line holds a control character. Raises
    :class:`LogError` E001/E002."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        text = read_log_bytes(bytes(source))
    else:
        if len(source) > MAX_BYTES:  # characters ≤ bytes, so this is the same cap, checked early
            raise LogError("E001", f"the log is more than {MAX_BYTES} characters (1 MiB), the most "
                           "the verifier reads; a mission log is a few kilobytes")
        text = source
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    has_cr = "\r" in text  # most logs have none: then no CR need be counted
    if has_cr:  # a CR only just before an LF: the last piece has no LF after it
        lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines[:-1]] + lines[-1:]
    if lines and lines[-1] == "":
        lines.pop()
    # One search over the whole text usually shows that no line holds a control character
    # (a CR counts only when it ends a line); then the lines need not be searched one by one.
    # ASCII text, the usual log, is searched by deleting what it may hold (one pass in C,
    # several times faster than the pattern's scan); anything left is for the pattern to find.
    plain = text.isascii() and not text.encode("ascii").translate(None, _ASCII_IN_TEXT)
    clean = ((plain or CONTROL_IN_TEXT.search(text) is None)
             and (not has_cr or text.count("\r") == text.count("\r\n")))
    return lines, clean


#: Header keys as written, normalised (norm_key): at most _KEYS_KEPT, the first met. A
#: folder's logs spell the same few keys, each read anew from its line.
_NORM_KEYS: Final[dict[str, str]] = {}
_KEYS_KEPT: Final = 256


def norm_key(text: str) -> str:
    key = _NORM_KEYS.get(text)
    if key is None:
        # ASCII only: 'map bun\u212aers' (a Kelvin sign) is no key; and only spaces and tabs
        # separate its words, as everywhere (log-format: Lexical): 'map\u00a0mountains' is no key
        words = (text.lower() if text.isascii() else text).replace("\t", " ").split(" ")
        key = " ".join(w for w in words if w)
        if len(_NORM_KEYS) < _KEYS_KEPT:
            _NORM_KEYS[text] = key
    return key


def split_at_colon(code: str, colon: int, tokens: list[Token]) -> tuple[Token, tuple[Token, ...]]:
    """A header line's first key token and its value tokens, from the line's ``tokens``: the
    same tokens as the key's and the value's text read apart (the usual spelling, ``key:``
    ending a word, is split without reading the line again)."""
    for i, t in enumerate(tokens):
        end = t.column + len(t.text) - 1  # 1-based column of the token's last character
        if end >= colon + 1:
            if end == colon + 1 and t.text[-1] == ":" and (i or len(t.text) > 1):
                first = tokens[0] if i else Token(t.text[:-1], t.column)
                return first, tuple(tokens[i + 1:])
            break
    key_tokens = split_tokens(code[:colon])
    return (key_tokens[0] if key_tokens else Token(":", colon + 1),
            tuple(split_tokens(code[colon + 1:], offset=colon + 1)))


_JOKER_SPACED = re.compile(r"(JK|jk|Jk|jK)[ \t]*=[ \t]*([^ \t;,|]+)")


def joker_closed_up(code: str) -> str:
    """A played Joker's declaration spaced out (``JK = 6S``, ``JK= 6S``) closed up to the one
    token the format has, ``JK=6S``; the room it took stays after it, so the columns of the
    words behind it do not move. Read so in a statement line and in a row alike.

    >>> joker_closed_up("guns JK = 6S C4 -> 2S")
    'guns JK=6S   C4 -> 2S'
    """
    return _JOKER_SPACED.sub(lambda m: f"{m[1]}={m[2]}".ljust(len(m[0])), code)


def split_tokens(code: str, offset: int = 0) -> list[Token]:
    """Words split at spaces and tabs, and around every ``->`` or ``→`` (with or without spaces).

    ``str.split`` on one separator keeps the columns countable and is several times faster
    than a regular expression; a tab is one character, like a space.
    """
    out = []
    pos = offset + 1
    if "\t" in code:
        code = code.replace("\t", " ")
    arrowed = "->" in code or "→" in code  # most lines have none: their words are not searched
    for word in code.split(" "):
        if word:
            if arrowed and ("->" in word or "→" in word):
                at = pos
                for part in _ARROW.split(word):  # the arrows are parts too (a group)
                    if part:
                        out.append(Token(part, at))
                        at += len(part)
            else:
                out.append(Token(word, pos))
        pos += len(word) + 1
    return out


def free_text_problem(text: str) -> str | None:
    """Why ``text`` cannot be the free text of a header line (``player:``, ``date:``) that
    reads back exactly as written, or None when it can. A header line carries its value to
    the comment, one key a line, its words split at spaces and tabs and around arrows and
    joined by one space (log-format: Lexical, Header); the league's names follow this rule too
    (``league.identity.check_name``).

    >>> [free_text_problem(t) is None for t in ("Ada: the Red", "Ada #1", "Ada seed: 12", " Ada")]
    [True, False, False, False]
    """
    if not text:
        return "it is empty"
    bad = CONTROL.search(text)
    if bad is not None:
        return f"it holds the control character U+{ord(bad.group()):04X}; a log is plain text"
    if "#" in text:
        return "it holds '#', which starts a comment in a log: the line would end before it"
    words = text.split(" ")
    for i, word in enumerate(words):
        if ":" in word:
            before = word.split(":", 1)[0]
            seen = words[:i] + ([before] if before else [])
            for n in (1, 2):  # 'setup ridge:' and 'map bunkers:' are two words
                if len(seen) >= n and norm_key(" ".join(seen[-n:])) in HEADER_KEYS:
                    return (f"it holds '{' '.join(seen[-n:])}:', which a log reads as a header key "
                            "of its own")
    if " ".join(t.text for t in split_tokens(text)) != text:
        if "\t" in text:
            return "it holds a tab, which a log reads as a space"
        if text != text.strip(" ") or "  " in text:
            return "a log keeps one space between words and none around them"
        return "it holds an arrow ('->' or '→') without spaces around it, which a log spaces out"
    return None
