"""The challenge page's score distribution: an inline SVG bar chart, one bar a score, with
its axes (scores below, numbers of players at the side) laid out here so the template only
draws them."""

from __future__ import annotations

from collections import Counter

WIDTH, HEIGHT = 360, 190
LEFT, RIGHT, TOP, BOTTOM = 38, 8, 16, 36  # room for the axes' labels and titles
MIN_SCORES = 7  # a narrower range is widened around the scores, so one entry is not one wall
NICE_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)


def count_step(tallest: int, most_ticks: int = 5) -> int:
    """The step of the count axis: the smallest nice step giving at most ``most_ticks``
    intervals up to ``tallest``.

    >>> count_step(1), count_step(4), count_step(6), count_step(12), count_step(40)
    (1, 1, 2, 5, 10)
    """
    for step in NICE_STEPS:
        if step * most_ticks >= tallest:
            return step
    return -(-tallest // (most_ticks * 1000)) * 1000


def score_range(low: int, high: int) -> tuple[int, int]:
    """The scores the axis shows: at least ``MIN_SCORES`` of them, the data centred."""
    missing = MIN_SCORES - (high - low + 1)
    if missing <= 0:
        return low, high
    return low - missing // 2, high + missing - missing // 2


def score_bars(scores: list[int]) -> dict | None:
    """The chart of ``scores`` (one per ranked player), or None when there is none."""
    if not scores:
        return None
    counts = Counter(scores)
    low, high = score_range(min(scores), max(scores))
    span = high - low + 1
    plot_width, plot_height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    base = TOP + plot_height
    slot = plot_width / span
    step = count_step(max(counts.values()))
    top_count = step * -(-max(counts.values()) // step)
    label_every = 1 if span <= 16 else -(-span // 12)  # about a dozen score labels at most
    bars = []
    for k, score in enumerate(range(low, high + 1)):
        n = counts.get(score, 0)
        h = round(plot_height * n / top_count, 1)
        x = LEFT + k * slot
        bars.append({
            "x": round(x + slot * 0.1, 1),
            "width": round(max(slot * 0.8, 1), 1),
            "centre": round(x + slot / 2, 1),
            "y": round(base - h, 1),
            "height": h,
            "score": score,
            "count": n,
            "label": (score - low) % label_every == 0,
            "count_shown": n > 0 and span <= 16,  # a number over each bar when they are wide
        })
    ticks = [{"value": v, "y": round(base - plot_height * v / top_count, 1)}
             for v in range(0, top_count + 1, step)]
    return {
        "width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT, "top": TOP,
        "base": base, "bars": bars, "ticks": ticks, "players": len(scores),
        "x_title": {"x": LEFT + plot_width / 2, "y": HEIGHT - 4},
        "y_title": {"x": 11, "y": TOP + plot_height / 2},
    }
