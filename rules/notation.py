"""Case folding for the toolkit's notation (ASCII only), and small counts in words.

``str.upper`` maps more than ASCII (the long s 'ſ' becomes 'S', the dotless 'ı' becomes
'I'), which would let look-alike letters pass as cards, cells or code characters.

>>> ascii_upper("5s c7 ſ ı")
'5S C7 ſ ı'
>>> count_word(3), count_word(12)
('three', '12')
"""

from __future__ import annotations

_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def ascii_upper(text: str) -> str:
    """``text`` with a–z made A–Z and nothing else changed."""
    return text.translate(_ASCII_UPPER)


def count_word(n: int) -> str:
    """A count as messages write it: ``one`` to ``four`` in words, larger ones in digits (a
    ruleset's counts of actions and damage read the same in every message)."""
    return _COUNT_WORDS.get(n, str(n))


_COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}
