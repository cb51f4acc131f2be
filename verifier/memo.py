"""The verifier's bounded memos (missions, starts), which a server's threads may share."""

from __future__ import annotations

from contextlib import suppress


def forget_oldest(memo: dict) -> None:
    """Drop the oldest item of ``memo`` to make room. Two threads sharing the memo may both
    come here at once: the loser finds the item gone (or the dict changed under its
    iterator) and leaves it at that; a memo is a cache, one item more or less is harmless."""
    with suppress(StopIteration, RuntimeError):
        memo.pop(next(iter(memo)), None)
