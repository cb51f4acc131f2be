"""Dated challenges: one challenge code per calendar day, or per ISO week, for everyone.

The code of a date is a fixed function of the date and the ruleset, so the same date gives
the same code on every machine, forever, for a ruleset version. The procedure, documented
so anyone can re-implement it:

1. The key of a day is its date ``YYYY-MM-DD``; the key of a week is its ISO week
   ``YYYY-Www`` (ISO year, week 01–53, e.g. ``2026-W49``), the week a date falls in.
2. The seeded stream of ``challenges.seeding`` (its steps 1 and 2) for the purpose ``daily``
   or ``weekly`` and that key, i.e. of the text ``bgrid/<ruleset>/daily/<key>`` (or
   ``…/weekly/…``). The seed is the top 40 bits of its first integer (the integer shifted
   right by 24).
3. Difficulty and ridges. A day: the ruleset's default difficulty and default ridge count.
   A week ``w`` (the ISO week number) rotates through every pairing: with ``D`` the
   ruleset's difficulties in the order its data file lists them and ``R`` its ridge counts
   from the least to the most, the difficulty is ``D[(w - 1) mod |D|]`` and the ridge count
   ``R[((w - 1) div |D|) mod |R|]``: the difficulty changes every week, the ridge count every
   ``|D|`` weeks (standard-1: week 1 easy with 1 ridge, week 2 normal with 1, …, week 5 easy
   with 2 ridges).
4. The code is the challenge code (``challenges.codes``) of that ruleset, difficulty, ridge
   count and seed.

A caller may ask for a code whose mission passes a test (``accept``, e.g. "a solver finds
a victory"): the seeds are then tried from the date's seed upward (after 2⁴⁰ − 1 comes 0)
and the first one accepted is the date's. Without a test every seed is accepted.

>>> from datetime import date
>>> week_key(date(2026, 12, 1))
'2026-W49'
>>> week_key(date(2027, 1, 1))  # ISO week 53 of 2026
'2026-W53'
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from ..rules.errors import BGridError
from ..rules.ruleset import DEFAULT_RULESET, load_ruleset
from .codes import MAX_SEED, SEED_BITS, ChallengeSpec, encode_code
from .seeding import SeededStream

DAILY, WEEKLY = "daily", "weekly"
DEFAULT_TRIES = 10_000


def day_key(day: date) -> str:
    return day.isoformat()


def week_key(day: date) -> str:
    """The ISO week ``day`` falls in, as ``YYYY-Www``."""
    year, week, _ = day.isocalendar()
    return f"{year:04d}-W{week:02d}"


def dated_key(day: date, period: str = DAILY) -> str:
    """The key of the day or week holding ``day`` (step 1 of the procedure)."""
    if period == DAILY:
        return day_key(day)
    if period == WEEKLY:
        return week_key(day)
    raise ValueError(f"period must be {DAILY!r} or {WEEKLY!r}, not {period!r}")


def dated_seed(day: date, ruleset: str = DEFAULT_RULESET, period: str = DAILY) -> int:
    """Step 2: the seed of the day or week holding ``day``."""
    first = SeededStream(f"bgrid/{ruleset}/{period}/{dated_key(day, period)}").next_u64()
    return first >> (64 - SEED_BITS)


def dated_setting(day: date, ruleset: str = DEFAULT_RULESET, period: str = DAILY) -> tuple[str, int]:
    """Step 3: (difficulty, ridge count) of the day or week holding ``day``."""
    rs = load_ruleset(ruleset)
    if period == DAILY:
        return rs.default_difficulty, rs.ridges_default
    difficulties = rs.difficulty_names
    ridges = range(rs.ridges_min, rs.ridges_max + 1)
    week = day.isocalendar()[1]
    return (difficulties[(week - 1) % len(difficulties)],
            ridges[((week - 1) // len(difficulties)) % len(ridges)])


def dated_spec(day: date, ruleset: str = DEFAULT_RULESET, period: str = DAILY, *,
               accept: Callable[[ChallengeSpec], bool] | None = None,
               tries: int = DEFAULT_TRIES) -> ChallengeSpec:
    """The challenge of the day (or ISO week, ``period="weekly"``) holding ``day``.

    ``accept`` picks the first seed from the date's seed upward whose spec it accepts.
    Raises :class:`BGridError` when none of ``tries`` seeds is accepted.
    """
    difficulty, ridges = dated_setting(day, ruleset, period)
    seed = dated_seed(day, ruleset, period)
    for _ in range(tries):
        spec = ChallengeSpec(ruleset, difficulty, ridges, seed)
        if accept is None or accept(spec):
            return spec
        seed = (seed + 1) & MAX_SEED
    raise BGridError(f"no challenge for {dated_key(day, period)} passed the test in {tries} seeds "
                     f"from {dated_seed(day, ruleset, period)}")


def dated_code(day: date, ruleset: str = DEFAULT_RULESET, period: str = DAILY, *,
               accept: Callable[[ChallengeSpec], bool] | None = None) -> str:
    """Step 4: the challenge code of the day or week holding ``day``."""
    return encode_code(dated_spec(day, ruleset, period, accept=accept))
