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

4. Reshuffle numbers: the ``reshuffle`` stream shuffles the numbers 1..54, one for each deck
   position (top first). Then the two Jokers' numbers are made consecutive
   (:func:`jokers_adjacent`): with ``a < b`` the Jokers' numbers, every number strictly
   between them goes up by one and the later Joker takes ``a + 1``. A log writes both Jokers
   as ``JK``, so a lone Joker in the discard pile must land in the same place whichever of the
   two it is; with consecutive numbers it does.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterable, Sequence
from functools import cache
from typing import TypeVar

from ..rules.cards import FULL_DECK, Card

T = TypeVar("T")

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

    def _reserve(self, words: int) -> None:
        """Make sure ``words`` more integers are in the buffer (longer digests only append)."""
        needed = self._pos + words * _WORD
        if needed > len(self._buffer):
            self._buffer = hashlib.shake_256(self._label).digest(max(needed, 2 * len(self._buffer)))

    def next_u64(self) -> int:
        self._reserve(1)
        value = int.from_bytes(self._buffer[self._pos:self._pos + _WORD], "big")
        self._pos += _WORD
        return value

    def take(self, count: int) -> tuple[int, ...]:
        """The next ``count`` integers at once: the same as ``count`` calls of ``next_u64``."""
        self._reserve(count)
        words = struct.unpack_from(f">{count}Q", self._buffer, self._pos)
        self._pos += count * _WORD
        return words

    def rewind(self, count: int) -> None:
        """Step back over the last ``count`` integers read, to read them again."""
        self._pos -= count * _WORD

    def below(self, n: int) -> int:
        """Uniform in 0..n-1, without modulo bias."""
        limit = _LIMIT - _LIMIT % n
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n


def stream(ruleset: str, purpose: str, seed: int) -> SeededStream:
    return SeededStream(f"bgrid/{ruleset}/{purpose}/{seed}")


@cache
def _positions(n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The positions ``i`` a shuffle of ``n`` items swaps, last first, and the range ``i+1``
    each ``j`` is drawn from."""
    return tuple(range(n - 1, 0, -1)), tuple(range(n, 1, -1))


def swap_draws(n: int, rng: SeededStream) -> list[int]:
    """The ``j`` of each step of a Fisher–Yates shuffle of ``n`` items (see the module
    docstring), for ``i`` from ``n-1`` down to 1.

    Fast path: all ``n-1`` integers are read at once. No rejection can happen when every
    one of them is below ``2**64 - n``, because each bound ``2**64 - 2**64 % (i+1)`` is at
    least that; otherwise (odds about n/2**64 per integer) the draws are redone one by one.
    """
    if n < 2:
        return []
    _, ranges = _positions(n)
    words = rng.take(n - 1)
    if max(words) < _LIMIT - n:
        return [x % m for x, m in zip(words, ranges, strict=True)]
    rng.rewind(n - 1)  # a rejection may happen: read them again one by one
    return [rng.below(m) for m in ranges]


def shuffled(items: Iterable[T], rng: SeededStream) -> list[T]:
    """Fisher–Yates, from the last position down (see the module docstring)."""
    out = list(items)
    positions, _ = _positions(len(out))
    for i, j in zip(positions, swap_draws(len(out), rng), strict=True):
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


def jokers_adjacent(numbers: Sequence[int], deck: Sequence[Card]) -> list[int]:
    """Step 4 of the procedure (R41): the two Jokers of ``deck`` get consecutive reshuffle numbers,
    the relative order of all other cards unchanged.

    >>> from bgrid.rules.cards import Card
    >>> deck = [Card.parse(t) for t in ("JK", "2H", "3H", "JK")]
    >>> jokers_adjacent([1, 2, 3, 4], deck)
    [1, 3, 4, 2]
    """
    out = list(numbers)
    positions = [i for i, card in enumerate(deck) if card.is_joker]
    if len(positions) != 2:
        return out
    first, second = sorted(positions, key=lambda i: out[i])
    a, b = out[first], out[second]
    for i, n in enumerate(out):
        if a < n < b:
            out[i] = n + 1
    out[second] = a + 1
    return out
