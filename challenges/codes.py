"""Challenge codes: a short, typo-proof name for a mission (R25).

A code is 11 Crockford base-32 characters, printed in groups as ``XXXX-XXXX-XXX``. The first
ten carry 50 bits, most significant first:

    ruleset code version (6 bits) | difficulty index (2) | ridges - 1 (2) | seed (40)

and the eleventh is a check character over GF(32) (polynomial x⁵ + x² + 1, generator α):
the weighted sum Σ αⁱ⁺¹·dᵢ of the ten data symbols plus the check symbol is zero. The
weights are distinct and non-zero, so every single-character substitution and every swap
of two different characters (adjacent or not) fails the check instead of naming another map.

Reading is forgiving the Crockford way: any case, hyphens and spaces ignored, ``O`` read as
``0`` and ``I``/``L`` as ``1`` (the code's alphabet has no I, L, O or U).

>>> encode_code(ChallengeSpec("standard-1", "normal", 1, 1944))
'0M00-0001-WR3'
>>> decode_code("0m00 0001 wr3").seed
1944
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules.errors import ChallengeCodeError
from ..rules.notation import ascii_upper
from ..rules.ruleset import DEFAULT_RULESET, load_ruleset, ruleset_for_code_version

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_VALUE = {ch: i for i, ch in enumerate(ALPHABET)}
_VALUE.update({"O": 0, "I": 1, "L": 1})
DATA_CHARS = 10
CODE_CHARS = DATA_CHARS + 1
SEED_BITS = 40
MAX_SEED = (1 << SEED_BITS) - 1

# GF(32) with x^5 + x^2 + 1: log/antilog tables.
_EXP = [0] * 62
_LOG = [0] * 32
_x = 1
for _i in range(31):
    _EXP[_i] = _EXP[_i + 31] = _x
    _LOG[_x] = _i
    _x <<= 1
    if _x & 0b100000:
        _x ^= 0b100101
del _x, _i


def _mul(a: int, b: int) -> int:
    if a == 0 or b == 0:
        return 0
    return _EXP[_LOG[a] + _LOG[b]]


def _check_symbol(data: list[int]) -> int:
    total = 0
    for i, d in enumerate(data):
        total ^= _mul(_EXP[i + 1], d)
    return total  # in characteristic 2, adding it again gives zero


@dataclass(frozen=True, slots=True)
class ChallengeSpec:
    """What a challenge code fixes: ruleset, difficulty, ridge count and seed (R25)."""

    ruleset: str
    difficulty: str
    ridges: int
    seed: int


def check_seed(seed: int) -> None:
    if not 0 <= seed <= MAX_SEED:
        raise ChallengeCodeError(f"seed {seed} is out of range: a seed is a whole number "
                                 f"from 0 to {MAX_SEED}", str(seed))


def encode_code(spec: ChallengeSpec) -> str:
    """The challenge code of ``spec``, grouped ``XXXX-XXXX-XXX``."""
    rs = load_ruleset(spec.ruleset)
    check_seed(spec.seed)
    if spec.difficulty not in rs.difficulties:
        raise ChallengeCodeError(f"unknown difficulty '{spec.difficulty}': expected one of "
                                 f"{', '.join(rs.difficulties)}", spec.difficulty)
    if not rs.ridges_min <= spec.ridges <= rs.ridges_max:
        raise ChallengeCodeError(f"ridge count {spec.ridges} is out of range: expected "
                                 f"{rs.ridges_min} to {rs.ridges_max}", str(spec.ridges))
    value = rs.code_version
    value = (value << 2) | rs.difficulty_names.index(spec.difficulty)
    value = (value << 2) | (spec.ridges - 1)
    value = (value << SEED_BITS) | spec.seed
    data = [(value >> (5 * (DATA_CHARS - 1 - i))) & 31 for i in range(DATA_CHARS)]
    symbols = data + [_check_symbol(data)]
    text = "".join(ALPHABET[s] for s in symbols)
    return f"{text[:4]}-{text[4:8]}-{text[8:]}"


def decode_code(text: str) -> ChallengeSpec:
    """Read a challenge code. Raises :class:`ChallengeCodeError` saying what is wrong:
    a character that is not in codes, the wrong length, or a failed check (a mistyped
    or swapped character)."""
    symbols = []
    for position, ch in enumerate(text):
        if ch in "- \t":
            continue
        value = _VALUE.get(ascii_upper(ch))
        if value is None:
            # how Python carries a byte of an argument that is not UTF-8 (the range by number:
            # mypyc takes no surrogate in a string literal)
            if 0xDC80 <= ord(ch) <= 0xDCFF:
                shown = f"the byte 0x{ord(ch) - 0xDC00:02X} (not UTF-8 text)"
            else:
                shown = f"'{ch}'" if ch.isprintable() else f"U+{ord(ch):04X}"
            raise ChallengeCodeError(
                f"challenge code '{text}': {shown} (character {position + 1}) is not used in "
                "codes; they use the digits and the letters A-Z except I, L, O and U", text)
        symbols.append(value)
    if len(symbols) != CODE_CHARS:
        raise ChallengeCodeError(
            f"challenge code '{text}' has {len(symbols)} characters; a code has {CODE_CHARS} "
            "(hyphens and spaces don't count), like 0M00-0001-WR3", text)
    data, check = symbols[:DATA_CHARS], symbols[DATA_CHARS]
    if _check_symbol(data) != check:
        raise ChallengeCodeError(
            f"challenge code '{text}' fails its check: a character is mistyped or two are "
            "swapped; copy it again from the mission sheet", text)
    value = 0
    for d in data:
        value = (value << 5) | d
    seed = value & MAX_SEED
    ridges = ((value >> SEED_BITS) & 3) + 1
    difficulty_index = (value >> (SEED_BITS + 2)) & 3
    version = value >> (SEED_BITS + 4)
    rs = ruleset_for_code_version(version)
    if rs is None:
        raise ChallengeCodeError(
            f"challenge code '{text}' is for ruleset version {version}, which this bgrid does "
            f"not know (it knows version {load_ruleset(DEFAULT_RULESET).code_version}); "
            "a newer bgrid may read it", text)
    if difficulty_index >= len(rs.difficulties) or not rs.ridges_min <= ridges <= rs.ridges_max:
        raise ChallengeCodeError(f"challenge code '{text}' names a difficulty or ridge count "
                                 f"that ruleset {rs.name} does not have", text)
    return ChallengeSpec(rs.name, rs.difficulty_names[difficulty_index], ridges, seed)
