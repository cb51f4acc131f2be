"""Case folding for the toolkit's notation: ASCII only.

``str.upper`` maps more than ASCII (the long s 'ſ' becomes 'S', the dotless 'ı' becomes
'I'), which would let look-alike letters pass as cards, cells or code characters.

>>> ascii_upper("5s c7 ſ ı")
'5S C7 ſ ı'
"""

from __future__ import annotations

_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def ascii_upper(text: str) -> str:
    """``text`` with a–z made A–Z and nothing else changed."""
    return text.translate(_ASCII_UPPER)
