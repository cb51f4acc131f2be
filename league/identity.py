"""Player names and keys: who may submit under which name.

A registered name is unique under case folding and Unicode confusables: "ada", "Ada" and a
Cyrillic "Аda" fold to one :func:`name_key`, so they are one name. A name holding a bidi
control or an invisible character is refused (it could make two names look alike, or a row
of a table read backwards). A player's secret key is shown once and stored only as a hash;
keys are compared by hash in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import unicodedata
from functools import cache
from importlib import resources

from ..log.lexer import free_text_problem
from ..rules.errors import BGridError

MAX_NAME = 32
KEY_BYTES = 24  # 192 bits of randomness, 32 URL-safe characters
# Invisible characters that are not format characters (Cf): fillers that render as nothing.
_INVISIBLE = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u034f"}


class RefusedName(BGridError):
    """A name refused: empty, too long, or holding a control, bidi or invisible character."""


def check_name(raw: str) -> str:
    """The name as it will be stored (outer spaces removed), or :class:`RefusedName` saying why.

    >>> check_name("  Ada Lovelace ")
    'Ada Lovelace'
    """
    name = unicodedata.normalize("NFC", raw.strip(" "))
    if not name:
        raise RefusedName("a name needs at least one visible character")
    if len(name) > MAX_NAME:
        raise RefusedName(f"a name is at most {MAX_NAME} characters; this one has {len(name)}")
    for index, char in enumerate(name, start=1):
        category = unicodedata.category(char)
        what = unicodedata.name(char, f"U+{ord(char):04X}")
        if category in ("Cf", "Cc", "Co", "Cs", "Cn", "Zl", "Zp") or char in _INVISIBLE:
            kind = (
                "a bidi control"
                if unicodedata.bidirectional(char)
                in ("LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI")
                or char in "\u200e\u200f\u061c"
                else "an invisible or control character"
            )
            raise RefusedName(f"character {index} of the name is {kind} ({what}); names are plain text")
        if category == "Zs" and char != " ":
            raise RefusedName(
                f"character {index} of the name is an unusual space ({what}); use a plain space"
            )
        if char == " " and name[index - 2] == " ":
            raise RefusedName(f"character {index} of the name is a second space in a row")
    if all(unicodedata.category(c).startswith("M") or c == " " for c in name):
        raise RefusedName("a name needs at least one visible character")
    problem = free_text_problem(name)  # the name goes on the 'player:' line of the logs
    if problem is not None:
        raise RefusedName(f"choose another name: {problem} (a name is written on the 'player:' "
                          "line of every log, and must read back from it as typed)")
    return name


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype: the lowest code point of its group of
    homoglyphs (the groups of Unicode's confusables list, as the confusable-homoglyphs
    package ships it), so that characters that look alike map to one character."""
    data = json.loads(
        resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text(encoding="utf-8")
    )
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        while parent.get(c, c) != c:
            parent[c] = parent.get(parent[c], parent[c])
            c = parent[c]
        return c

    for char, entries in data.items():
        for entry in entries:
            glyph = entry["c"].replace("\u200e", "")  # the list marks right-to-left glyphs
            if len(char) != 1 or len(glyph) != 1:
                continue  # a sequence ("rn" for "m") is not folded: it is a different length
            a, b = find(char), find(glyph)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {c: find(c) for c in parent}


def name_key(name: str) -> str:
    """The name as uniqueness sees it: case folded, compatibility forms unified (NFKC), each
    character replaced by its confusables prototype, then folded again.

    >>> name_key("Ada") == name_key("ada") == name_key("\\u0410da")
    True
    >>> name_key("Ada") == name_key("Bo")
    False
    """
    folded = unicodedata.normalize("NFKC", name.casefold())
    table = _prototypes()
    skeleton = "".join(table.get(c, c) for c in unicodedata.normalize("NFD", folded))
    return unicodedata.normalize("NFC", skeleton.casefold())


def new_key() -> str:
    """A fresh secret key (URL-safe text)."""
    return secrets.token_urlsafe(KEY_BYTES)


def key_hash(key: str) -> str:
    """What the database holds of a key. A key is 192 random bits, so one SHA-256 is enough:
    there is nothing to guess from, and a lookup by hash needs no salt per row."""
    return hashlib.sha256(key.strip().encode("utf-8", "surrogatepass")).hexdigest()


def same_hash(a: str, b: str) -> bool:
    """Two hashes compared in constant time."""
    return hmac.compare_digest(a.encode("ascii", "replace"), b.encode("ascii", "replace"))
