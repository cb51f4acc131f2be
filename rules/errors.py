"""The one error family of the game model.

Every error the toolkit raises on purpose derives from :class:`BGridError`, so the
CLI can turn any of them into a clear one-line message and exit status instead of a
traceback. Each message names the offending token or rule and says what was expected.
"""

from __future__ import annotations


class BGridError(Exception):
    """Base of every error the toolkit raises on purpose."""


class NotationError(BGridError, ValueError):
    """A card, cell, facing, step list or code could not be read.

    The message names the token and what was expected there.
    """

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


class IllegalActionError(BGridError):
    """A play the rules forbid in the current state.

    ``rule`` is the ruling number (``"R9"``) or the rulebook section that forbids it;
    the message says why in a sentence a player understands.
    """

    def __init__(self, message: str, rule: str, code: str = "illegal") -> None:
        super().__init__(message)
        self.rule = rule
        self.code = code


class RulesetError(BGridError):
    """A ruleset data file is missing a key or holds a value of the wrong kind."""


class ChallengeCodeError(NotationError):
    """A challenge code that does not decode: bad character, wrong length or failed check."""
