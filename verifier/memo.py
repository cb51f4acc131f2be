"""The verifier's bounded memos (missions, starts), which a server's threads may share."""

from __future__ import annotations


def forget_oldest(memo: dict) -> None:
    """Drop the oldest item of ``memo`` to make room. Two threads sharing the memo may both
    come here at once: the loser finds the item gone (or the dict changed under its
    iterator) and leaves it at that; a memo is a cache, one item more or less is harmless."""
    try:  # noqa: SIM105 - not contextlib.suppress: compiled, its context manager is interpreted Python
        memo.pop(next(iter(memo)), None)
    except (StopIteration, RuntimeError):
        pass
