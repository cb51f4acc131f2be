"""The seeded procedure of ``challenges.seeding``, re-implemented here from its docstring alone."""

from __future__ import annotations

import hashlib

import pytest

from bgrid.rules.cards import FULL_DECK
from bgrid.challenges.seeding import SeededStream, reshuffle_numbers, shuffled, shuffled_deck, stream

PURPOSES = ["ridge-draw", "target-draw", "play-deck", "reshuffle"]
SEEDS = [0, 1, 2, 1944, 123456789, 2**40 - 1]


def reference_words(data: bytes):
    """Unsigned 64-bit big-endian integers, in order, from a byte string."""
    for k in range(0, len(data) - 7, 8):
        yield sum(b << (8 * (7 - n)) for n, b in enumerate(data[k:k + 8]))


def reference_shuffle(items, words, reject: bool = True) -> list:
    """Fisher–Yates from the last position, j uniform in 0..i by rejection."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        bound = 2**64 - 2**64 % (i + 1)
        x = next(words)
        while reject and x >= bound:
            x = next(words)
        j = x % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def reference_deck(ruleset: str, purpose: str, seed: int) -> list:
    label = f"bgrid/{ruleset}/{purpose}/{seed}".encode("ascii")
    return reference_shuffle(FULL_DECK, reference_words(hashlib.shake_256(label).digest(4096)))


@pytest.mark.parametrize("purpose", PURPOSES)
@pytest.mark.parametrize("seed", SEEDS)
def test_shuffled_deck_matches_the_documented_procedure(purpose, seed):
    assert shuffled_deck("standard-1", purpose, seed) == reference_deck("standard-1", purpose, seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_reshuffle_numbers_match_the_documented_procedure(seed):
    label = f"bgrid/standard-1/reshuffle/{seed}".encode("ascii")
    expected = reference_shuffle(range(1, 55), reference_words(hashlib.shake_256(label).digest(4096)))
    assert reshuffle_numbers("standard-1", seed) == expected


def test_the_label_is_the_documented_text():
    # The first integer of the stream is the first 8 bytes of SHAKE-256 of the label.
    digest = hashlib.shake_256(b"bgrid/standard-1/play-deck/1944").digest(8)
    assert stream("standard-1", "play-deck", 1944).next_u64() == int.from_bytes(digest, "big")


@pytest.mark.parametrize("seed", SEEDS)
def test_shuffles_are_permutations(seed):
    for purpose in PURPOSES:
        deck = shuffled_deck("standard-1", purpose, seed)
        assert len(deck) == 54 and sorted(map(str, deck)) == sorted(map(str, FULL_DECK))
    assert sorted(reshuffle_numbers("standard-1", seed)) == list(range(1, 55))


def test_purposes_seeds_and_rulesets_give_different_orders():
    decks = {tuple(map(str, shuffled_deck(rs, p, s)))
             for rs in ("standard-1", "variant-2") for p in PURPOSES for s in SEEDS}
    assert len(decks) == 2 * len(PURPOSES) * len(SEEDS)


def test_reading_at_once_equals_reading_one_by_one():
    one_by_one = stream("standard-1", "play-deck", 7)
    at_once = stream("standard-1", "play-deck", 7)
    expected = [one_by_one.next_u64() for _ in range(200)]  # past the first digest
    assert list(at_once.take(3)) + list(at_once.take(197)) == expected
    at_once.rewind(5)
    assert [at_once.next_u64() for _ in range(5)] == expected[-5:]


class _ForcedStream(SeededStream):
    """A stream whose bytes are given, to force the rare rejection path."""

    def __init__(self, data: bytes) -> None:
        super().__init__("unused", expected_words=len(data) // 8)
        self._buffer = data  # test only: the real buffer is SHAKE-256 output


@pytest.mark.pure_python_only("subclasses the stream, which a compiled class does not allow")
@pytest.mark.parametrize("rejected_at", [0, 1, 30, 52])
def test_rejection_draws_again(rejected_at):
    """A word at or above 2**64 - 2**64 % (i+1) is skipped and the next one used."""
    good = list(reference_words(hashlib.shake_256(b"any bytes").digest(8 * 80)))
    # 2**64 - 1 is rejected for every range i+1 that is not a power of two; the draw for
    # i = 53 - rejected_at has range 54 - rejected_at: 54, 53, 24 and 2.
    words = good[:rejected_at] + [2**64 - 1] + good[rejected_at:]
    data = b"".join(w.to_bytes(8, "big") for w in words)
    result = shuffled(FULL_DECK, _ForcedStream(data))
    assert result == reference_shuffle(FULL_DECK, iter(words))
    if (54 - rejected_at) & (53 - rejected_at):  # not a power of two: the word was rejected
        assert result != reference_shuffle(FULL_DECK, iter(words), reject=False)
    else:  # range 2 divides 2**64: nothing is rejected, the big word gives j = 1
        assert result == reference_shuffle(FULL_DECK, iter(words), reject=False)


def test_short_and_empty_shuffles():
    assert shuffled([], stream("standard-1", "x", 0)) == []
    assert shuffled(["a"], stream("standard-1", "x", 0)) == ["a"]
    two = shuffled(["a", "b"], stream("standard-1", "x", 0))
    label = b"bgrid/standard-1/x/0"
    assert two == reference_shuffle(["a", "b"], reference_words(hashlib.shake_256(label).digest(64)))


def test_jokers_adjacent_keeps_other_cards_in_order():
    """Worked by hand: Jokers at positions 1 and 4 hold 2 and 5; the numbers 3 and 4 between
    them move up to 4 and 5 and the later Joker takes 3; the rest keep their order."""
    from bgrid.rules.cards import Card
    from bgrid.challenges.seeding import jokers_adjacent

    deck = [Card.parse(t) for t in ("AH", "JK", "2H", "3H", "JK", "4H")]
    assert jokers_adjacent([6, 2, 3, 4, 5, 1], deck) == [6, 2, 4, 5, 3, 1]
    # Already adjacent, or the later Joker holding the lower number: nothing but the gap moves.
    assert jokers_adjacent([6, 2, 4, 5, 3, 1], deck) == [6, 2, 4, 5, 3, 1]
    assert jokers_adjacent([6, 5, 3, 4, 2, 1], deck) == [6, 3, 4, 5, 2, 1]
