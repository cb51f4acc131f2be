"""Version-stable seeded shuffles.

Every seeded map, challenge deck and reshuffle order comes from this module, so the same
seed gives the same mission on every machine and every Python version, for as long as the
ruleset version stays the same. Python's ``random`` is not used: its shuffling algorithms
are not promised to stay fixed between versions.

The procedure, documented so anyone can re-implement it:

1. A stream of bytes is SHAKE-256 of the ASCII text ``bgrid/<ruleset>/<purpose>/<seed>``
   (``seed`` in decimal), e.g. ``bgrid/standard-1/play-deck/1944``.
2. The stream is read as unsigned 64-bit big-endian integers.
3. A Fisher–Yates shuffle of the reference deck order (``rules.cards.FULL_DECK``): for
   ``i`` from 53 down to 1, draw ``j`` uniform in ``0..i`` by rejection (take the next
   integer ``x``; if ``x ≥ 2**64 - 2**64 % (i+1)`` take another; else ``j = x % (i+1)``),
   then swap positions ``i`` and ``j``.

Purposes: ``ridge-draw`` and ``target-draw`` (the two setup draws, R5), ``play-deck`` (the
draw deck, R25) and ``reshuffle`` (the reshuffle numbers, R26).
"""

from __future__ import annotations

import hashlib

from .cards import FULL_DECK, Card

_WORD = 8
_LIMIT = 1 << 64


class SeededStream:
    """Unsigned 64-bit integers from SHAKE-256 of a label (an extendable-output function:
    reading further only appends, so the numbers already read never change)."""

    __slots__ = ("_label", "_buffer", "_pos")

    def __init__(self, label: str, expected_words: int = 64) -> None:
        self._label = label.encode("ascii")
        self._buffer = hashlib.shake_256(self._label).digest(expected_words * _WORD)
        self._pos = 0

    def next_u64(self) -> int:
        if self._pos + _WORD > len(self._buffer):
            self._buffer = hashlib.shake_256(self._label).digest(2 * len(self._buffer))
        value = int.from_bytes(self._buffer[self._pos:self._pos + _WORD], "big")
        self._pos += _WORD
        return value

    def below(self, n: int) -> int:
        """Uniform in 0..n-1, without modulo bias."""
        limit = _LIMIT - _LIMIT % n
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n


def stream(ruleset: str, purpose: str, seed: int) -> SeededStream:
    return SeededStream(f"bgrid/{ruleset}/{purpose}/{seed}")


def shuffled(items, rng: SeededStream) -> list:
    """Fisher–Yates, from the last position down (see the module docstring)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def shuffled_deck(ruleset: str, purpose: str, seed: int) -> list[Card]:
    """The 54-card deck shuffled for one purpose of one seed."""
    return shuffled(FULL_DECK, stream(ruleset, purpose, seed))


def reshuffle_numbers(ruleset: str, seed: int) -> list[int]:
    """R26: a reshuffle number 1–54 for each position of the challenge deck (top first).

    The numbers are a seeded permutation of 1..54; a card keeps the number of the position
    it was stacked at, and at an exhaustion the discard pile is stacked lowest number on top.
    """
    return shuffled(range(1, 55), stream(ruleset, "reshuffle", seed))
