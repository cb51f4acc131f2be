"""How many keys a line costs with the companion's completion (bench/bench_companion.py's measure).

The model is prompt_toolkit's completion menu as ``bgrid play`` sets it up: while typing,
the menu lists :meth:`Session.completions` of the text so far; Tab selects the first entry,
each further Tab the next, and the selected entry replaces the line. A line costs the
cheapest mix of typed characters and Tabs that builds it, plus Enter. Found by a shortest
path over the prefixes of the line (every step makes the line longer).
"""

from __future__ import annotations

from .session import Session


def keys_for(session: Session, line: str) -> int:
    """The keys a player presses to enter ``line`` now (Enter included)."""
    target = line.lower()
    n = len(line)
    cost = [0] + [n + 1] * n  # typing everything is always possible
    for i in range(n):
        here = cost[i]
        cost[i + 1] = min(cost[i + 1], here + 1)
        for tabs, candidate in enumerate(session.completions(line[:i]), 1):
            c = candidate.lower()
            if len(c) > i and target.startswith(c):
                cost[len(c)] = min(cost[len(c)], here + tabs)
    return cost[n] + 1
