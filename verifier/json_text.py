"""A verdict's JSON, written as ``json.dumps(obj, indent=2, ensure_ascii=False)`` writes it.

The standard library's C encoder works only without ``indent``; with it every value goes
through the pure-Python encoder, which was the largest single cost of ``bgrid verify DIR
--json`` after the replay (a folder's output is megabytes of notes and ledger entries).
A verdict holds only dicts with string keys, lists, strings, whole numbers, booleans and
None: those are written here, strings by the C string encoder; anything else is handed to
``json.dumps`` itself, so the bytes are always the standard library's.
"""

from __future__ import annotations

import json
from typing import Any, Final
from json.encoder import encode_basestring  # the C function when the _json module is there


#: Keys as JSON strings followed by ': ', by key: at most _KEYS_KEPT of them, the first met.
_KEY_TEXT: Final[dict[str, str]] = {}
_KEYS_KEPT: Final = 256
#: By a container's padding: the padding inside it, what opens its first item, what goes
#: between items, what closes it (an object's, then a list's); a verdict nests a few deep.
_PADS: Final[dict[str, tuple[str, str, str, str, str, str]]] = {}


#: Whole numbers 0-255 as text: a verdict's numbers (turns, lines, columns, scores) are small.
_SMALL_INTS: Final = tuple(str(n) for n in range(256))


def _pads(pad: str) -> tuple[str, str, str, str, str, str]:
    pads = _PADS.get(pad)
    if pads is None:
        inner = pad + "  "
        pads = (inner, "{\n" + inner, ",\n" + inner, "\n" + pad + "}", "[\n" + inner, "\n" + pad + "]")
        if len(_PADS) < _KEYS_KEPT:
            _PADS[pad] = pads
    return pads


def indented_json(obj: Any, pad: str = "") -> str:
    """``json.dumps(obj, indent=2, ensure_ascii=False)`` with ``pad`` before every line after
    the first (an object nested in a list that is written piece by piece)."""
    out: list[str] = []
    try:
        _write(obj, pad, out)
    except TypeError:  # a value outside the verdict's types: the standard library decides
        text = json.dumps(obj, indent=2, ensure_ascii=False)
        return text.replace("\n", "\n" + pad) if pad else text
    return "".join(out)


def _write(obj: Any, pad: str, out: list[str]) -> None:
    # Any: a JSON value, dispatched on ``type(obj) is``, which mypy does not narrow through ``kind``
    kind = type(obj)
    if kind is str:
        out.append(encode_basestring(obj))
    elif obj is None:
        out.append("null")
    elif kind is bool:
        out.append("true" if obj else "false")
    elif kind is int:
        out.append(str(obj))  # exactly an int: str is int.__repr__, and compiled a direct call
    elif kind is dict:
        _write_dict(obj, pad, out)
    elif kind is list or kind is tuple:
        _write_items(obj, pad, out)
    else:
        raise TypeError(f"{kind.__name__} is not one of the verdict's JSON types")


# A dict and a list each in a function of its own, typed: compiled, a typed dict is walked
# without an iterator object and each pair without a tuple.
def _write_dict(obj: dict[Any, Any], pad: str, out: list[str]) -> None:
    if not obj:
        out.append("{}")
        return
    encode = encode_basestring  # compiled, each use of a module global is a dict lookup
    inner, opener, between, closer, _, _ = _pads(pad)
    for key, value in obj.items():
        if type(key) is not str:
            raise TypeError("a key that is not a string")
        # a verdict has a few dozen keys, written thousands of times in a folder's output
        name = _KEY_TEXT.get(key)
        if name is None:
            name = encode(key) + ": "
            if len(_KEY_TEXT) < _KEYS_KEPT:
                _KEY_TEXT[key] = name
        out.append(opener)
        out.append(name)
        kind = type(value)
        # the scalars here, without a call: a verdict's notes and ledger are lists of
        # small objects of strings and numbers. Each piece appended, not joined first: the
        # output's join copies every piece once anyway
        if kind is str:
            out.append(encode(value))
        elif kind is int:
            number: int = value  # typed: compiled, compared as a C int
            # exactly an int: str is int.__repr__
            out.append(_SMALL_INTS[number] if 0 <= number < 256 else str(number))
        else:
            _write(value, inner, out)
        opener = between
    out.append(closer)


def _write_items(obj: list[Any] | tuple[Any, ...], pad: str, out: list[str]) -> None:
    if not obj:
        out.append("[]")
        return
    inner, _, between, _, opener, closer = _pads(pad)
    for value in obj:
        out.append(opener)
        _write(value, inner, out)
        opener = between
    out.append(closer)
