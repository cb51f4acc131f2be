"""The mission a log's header names, with the verifier's error codes.

:func:`challenges.mission.mission_from_header` builds the mission of any of the four sources
(``docs/log-format.md``, Header); here its refusals become :class:`LogError` E127–E130 at the
header line (and token) at fault, and the missions of challenge codes and seeds are
remembered for the next log.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..challenges.mission import ChallengeOrigin, Mission, MissionError, mission_from_header
from ..rules.ruleset import Ruleset
from .memo import forget_oldest
from ..log.messages import LogError
from ..log.notation import Header, ParsedLog

#: The error code of each kind of refusal (``MissionError.problem``).
ERROR_CODES = {"ruleset": "E127", "code": "E128", "setup": "E129", "map": "E130"}


def source_text(h: Header) -> str | None:
    """The header's map source in words, for the verdict: ``challenge 0M00-0001-WR3``,
    ``seed 1944, 2 ridges``, ``setup cards``, ``explicit map``; None before it is known."""
    if h.source == "challenge":
        return f"challenge {h.challenge}"
    if h.source == "seed":
        return f"seed {h.seed}" + ("" if h.ridges is None else f", {h.ridges} ridge{'s' * (h.ridges != 1)}")
    return {"setup": "setup cards", "map": "explicit map"}.get(h.source)


def assurance(mission: Mission) -> str:
    """"exact" when every card was fixed in advance (a challenge deck), else "consistent"."""
    return "exact" if isinstance(mission.origin, ChallengeOrigin) else "consistent"


def map_key(mission: Mission) -> str:
    """The map in one canonical line and the deck played, for the verification id."""
    return f"{mission.map_line}|deck:{'challenge' if mission.is_challenge else 'own'}"


_SOURCES_KEPT = 64


def remembered_key(h: Header) -> tuple[str | int | None, ...] | None:
    """What :func:`mission_source` remembers the mission of ``h`` by: the header values that
    fix a challenge's or a seed's mission. None for hand setups and explicit maps, rare and
    cheap enough to build each time (so a new object each log)."""
    if h.source == "challenge":
        return ("challenge", h.challenge, h.ruleset)
    if h.source == "seed":
        return ("seed", h.seed, h.ridges, h.difficulty, h.ruleset)
    return None


def mission_source(log: ParsedLog, remembered: dict[tuple, Mission] | None = None,
                   rulesets: Mapping[str, Ruleset] | None = None) -> Mission:
    """Build the mission of ``log``'s header. Raises :class:`LogError` (E127–E130).

    ``remembered`` (a ``Verifier``'s memo; why, there): missions built from a challenge code
    or a seed, by the header values that fixed them (:func:`remembered_key`; shuffles and map
    are built once). The same values always give the same mission; a header that fails is
    never remembered. Bounded, oldest out first. ``rulesets``: see :func:`mission_from_header`."""
    key = remembered_key(log.header)
    if key is None:
        return _build(log, rulesets)
    if remembered is None:
        return _build(log, rulesets)
    mission = remembered.get(key)
    if mission is None:
        mission = _build(log, rulesets)
        if len(remembered) >= _SOURCES_KEPT:
            forget_oldest(remembered)
        remembered[key] = mission
    return mission


def _build(log: ParsedLog, rulesets: Mapping[str, Ruleset] | None) -> Mission:
    try:
        return mission_from_header(log.header, rulesets)
    except MissionError as exc:
        raise _fail(log, exc) from None


def _fail(log: ParsedLog, exc: MissionError) -> LogError:
    code, message = ERROR_CODES[exc.problem], str(exc)
    entry = log.header.entry(exc.key)
    if entry is None:
        return LogError(code, message)
    cells = log.header.map_mountains
    if exc.index is not None and cells is not None and len(entry.tokens) == len(cells):
        # a repeated mountain cell: the caret under it, not the whole line
        token = entry.tokens[exc.index]
        return LogError(code, message, line=entry.line, column=token.column, token=token.text,
                        text=log.line_text(entry.line))
    return LogError(code, message, line=entry.line, column=entry.value_column, token=entry.value,
                    text=log.line_text(entry.line))
