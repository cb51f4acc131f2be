"""Challenge codes (R25): an independent encoder, round trips, and every typo rejected."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgrid.challenges.codes import ChallengeSpec, decode_code, encode_code
from bgrid.rules.errors import BGridError, ChallengeCodeError, NotationError

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base 32: no I, L, O, U
DIFFICULTIES = ["easy", "normal", "hard", "ace"]  # order of standard-1.json
SAMPLE = ChallengeSpec("standard-1", "hard", 3, 738_912_345_678)


def gf32_mul(a: int, b: int) -> int:
    """Carry-less product modulo x^5 + x^2 + 1."""
    product = 0
    for bit in range(5):
        if b >> bit & 1:
            product ^= a << bit
    for bit in range(9, 4, -1):
        if product >> bit & 1:
            product ^= 0b100101 << (bit - 5)
    return product


def gf32_pow(a: int, n: int) -> int:
    out = 1
    for _ in range(n):
        out = gf32_mul(out, a)
    return out


ALPHA = 0b00010  # x, a generator of GF(32)*


def reference_code(version: int, difficulty_index: int, ridges: int, seed: int) -> str:
    value = (((version << 2 | difficulty_index) << 2 | (ridges - 1)) << 40) | seed
    data = [(value >> (5 * (9 - i))) & 31 for i in range(10)]
    check = 0
    for i, d in enumerate(data):
        check ^= gf32_mul(gf32_pow(ALPHA, i + 1), d)
    text = "".join(ALPHABET[s] for s in data + [check])
    return f"{text[:4]}-{text[4:8]}-{text[8:]}"


def _specs():
    rng = random.Random(25)
    seeds = [0, 1, 1944, 2**40 - 1, 2**39] + [rng.randrange(2**40) for _ in range(40)]
    for seed in seeds:
        yield ChallengeSpec("standard-1", rng.choice(DIFFICULTIES), rng.randint(1, 4), seed)
    for difficulty, ridges in itertools.product(DIFFICULTIES, range(1, 5)):
        yield ChallengeSpec("standard-1", difficulty, ridges, 1944)


def test_gf32_reference_is_a_field_with_alpha_of_order_31():
    powers = [gf32_pow(ALPHA, n) for n in range(31)]
    assert sorted(powers) == list(range(1, 32))  # alpha generates every non-zero element
    assert gf32_pow(ALPHA, 31) == 1


def test_docstring_example_by_the_reference():
    assert reference_code(1, 1, 1, 1944) == "0M00-0001-WR3"
    assert encode_code(ChallengeSpec("standard-1", "normal", 1, 1944)) == "0M00-0001-WR3"


@pytest.mark.parametrize("spec", list(_specs()), ids=lambda s: f"{s.difficulty}-{s.ridges}-{s.seed}")
def test_encode_matches_reference_and_round_trips(spec):
    code = encode_code(spec)
    assert code == reference_code(1, DIFFICULTIES.index(spec.difficulty), spec.ridges, spec.seed)
    assert decode_code(code) == spec
    assert len(code) == 13 and code[4] == code[9] == "-"


def _bare(code: str) -> str:
    return code.replace("-", "")


def test_every_single_character_substitution_is_rejected():
    code = _bare(encode_code(SAMPLE))
    tried = 0
    for position, original in enumerate(code):
        for replacement in ALPHABET:
            if replacement == original:
                continue
            typo = code[:position] + replacement + code[position + 1:]
            with pytest.raises(ChallengeCodeError, match="fails its check"):
                decode_code(typo)
            tried += 1
    assert tried == 11 * 31


@pytest.mark.parametrize("spec", [SAMPLE, ChallengeSpec("standard-1", "normal", 1, 1944),
                                  ChallengeSpec("standard-1", "ace", 4, 2**40 - 1)])
def test_every_transposition_of_distinct_characters_is_rejected(spec):
    code = _bare(encode_code(spec))
    swaps = 0
    for i, j in itertools.combinations(range(11), 2):  # adjacent ones and the rest
        if code[i] == code[j]:
            continue
        swapped = list(code)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        with pytest.raises(ChallengeCodeError, match="fails its check"):
            decode_code("".join(swapped))
        swaps += 1
    assert swaps > 0


def test_aliases_o_i_l_read_as_zero_and_one():
    code = encode_code(ChallengeSpec("standard-1", "easy", 1, 1))
    assert code == reference_code(1, 0, 1, 1)
    assert "0" in code and "1" in code
    for zero, one in itertools.product("0Oo", "1IiLl"):
        alias = code.replace("0", zero).replace("1", one)
        assert decode_code(alias) == decode_code(code)


@pytest.mark.parametrize("text", ["0m00-0001-wr3", "0M000001WR3", "0M00 0001 WR3", " 0m00-0001 wr3 ",
                                  "0M-00-00-01-WR-3", "0m00\t0001\twr3"])
def test_case_hyphens_and_spaces_do_not_matter(text):
    assert decode_code(text) == ChallengeSpec("standard-1", "normal", 1, 1944)


@pytest.mark.parametrize("text", ["0M00-0001-WR", "0M00-0001-WR33", "", "0M00"])
def test_wrong_length(text):
    with pytest.raises(ChallengeCodeError, match="has .* characters; a code has 11"):
        decode_code(text)


@pytest.mark.parametrize("text,bad", [("0M00-0001-WRU", "U"), ("0M00_0001-WR3", "_"),
                                      ("0M00-0001-WR!", "!"), ("0M00-0001-WR3.", ".")])
def test_bad_character_is_named(text, bad):
    with pytest.raises(ChallengeCodeError, match=f"'{bad}'") as info:
        decode_code(text)
    assert "except I, L, O and U" in str(info.value)
    assert isinstance(info.value, NotationError) and isinstance(info.value, BGridError)


@pytest.mark.parametrize("version", [0, 2, 63])
def test_unknown_ruleset_version(version):
    code = reference_code(version, 1, 1, 1944)  # a well-formed code for another version
    with pytest.raises(ChallengeCodeError, match=f"ruleset version {version}"):
        decode_code(code)


@pytest.mark.parametrize("spec,message", [
    (ChallengeSpec("standard-1", "normal", 1, -1), "seed -1 is out of range"),
    (ChallengeSpec("standard-1", "normal", 1, 2**40), "out of range"),
    (ChallengeSpec("standard-1", "insane", 1, 1), "unknown difficulty 'insane'"),
    (ChallengeSpec("standard-1", "normal", 5, 1), "ridge count 5"),
    (ChallengeSpec("standard-1", "normal", 0, 1), "ridge count 0"),
])
def test_encode_rejects_what_a_code_cannot_carry(spec, message):
    with pytest.raises(ChallengeCodeError, match=message):
        encode_code(spec)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(ALPHABET + "oilu-_ \t!"), max_size=14) | st.text(max_size=12))
def test_any_text_is_a_code_or_a_challenge_code_error(text):
    try:
        spec = decode_code(text)
    except ChallengeCodeError as error:
        assert error.token == text
    else:
        assert decode_code(encode_code(spec)) == spec


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**40 - 1), st.sampled_from(DIFFICULTIES), st.integers(1, 4))
def test_round_trip_over_the_whole_seed_range(seed, difficulty, ridges):
    spec = ChallengeSpec("standard-1", difficulty, ridges, seed)
    assert decode_code(encode_code(spec)) == spec
