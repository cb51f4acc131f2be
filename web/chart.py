"""The challenge page's score distribution: bars of an inline SVG, laid out here so the
template only draws them."""

from __future__ import annotations

from collections import Counter

WIDTH, HEIGHT, LABEL = 320, 120, 16


def score_bars(scores: list[int]) -> dict | None:
    """One bar a score from the lowest to the highest, heights scaled to the tallest."""
    if not scores:
        return None
    counts = Counter(scores)
    low, high = min(scores), max(scores)
    span = high - low + 1
    step = WIDTH / span
    tallest = max(counts.values())
    bars = []
    for k, score in enumerate(range(low, high + 1)):
        n = counts.get(score, 0)
        h = round((HEIGHT - LABEL) * n / tallest, 1)
        bars.append(
            {
                "x": round(k * step + 1, 1),
                "width": round(max(step - 2, 1), 1),
                "y": round(HEIGHT - LABEL - h, 1),
                "height": h,
                "score": score,
                "count": n,
                "label": span <= 16 or k % max(1, span // 8) == 0,
            }
        )
    return {"width": WIDTH, "height": HEIGHT, "base": HEIGHT - LABEL, "bars": bars, "players": len(scores)}
