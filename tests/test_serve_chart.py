"""The challenge page's score chart and its window, as a reader meets them: the chart's axes
name the scores and the numbers of players; one entry or a few still read as a distribution;
the window is printed as days and times, with the ISO form kept in a <time> element."""

from __future__ import annotations

from bgrid.web.chart import score_bars
from bgrid.web.moments import readable_moment, time_element


def drawn(chart):
    return {b["score"]: b["count"] for b in chart["bars"] if b["count"]}


def test_no_score_no_chart():
    assert score_bars([]) is None


def test_one_entry_sits_in_a_range_of_seven_scores_around_it():
    chart = score_bars([5])
    assert [b["score"] for b in chart["bars"]] == [2, 3, 4, 5, 6, 7, 8]
    assert drawn(chart) == {5: 1}
    assert [t["value"] for t in chart["ticks"]] == [0, 1]
    bar = next(b for b in chart["bars"] if b["count"])
    assert bar["y"] == chart["top"] and bar["y"] + bar["height"] == chart["base"]  # full height
    assert bar["width"] < (chart["right"] - chart["left"]) / 6  # a bar, not a wall


def test_every_score_is_labelled_and_every_bar_counted_on_a_short_range():
    chart = score_bars([3, 3, 4, 7])  # 3..7 is five scores, widened by one each side
    assert [b["score"] for b in chart["bars"] if b["label"]] == [2, 3, 4, 5, 6, 7, 8]
    assert drawn(chart) == {3: 2, 4: 1, 7: 1}
    assert {b["score"] for b in chart["bars"] if b["count_shown"]} == {3, 4, 7}
    assert [t["value"] for t in chart["ticks"]] == [0, 1, 2]


def test_a_week_of_players_gets_a_count_axis_in_nice_steps():
    scores = [4] * 12 + [6] * 3 + [-1]  # the tallest bar is 12 players: ticks 0, 5, 10, 15
    chart = score_bars(scores)
    assert [t["value"] for t in chart["ticks"]] == [0, 5, 10, 15]
    assert [b["score"] for b in chart["bars"]][0] == -1 and chart["bars"][-1]["score"] == 6
    four = next(b for b in chart["bars"] if b["score"] == 4)
    assert four["height"] == round((chart["base"] - chart["top"]) * 12 / 15, 1)


def test_a_wide_range_labels_about_a_dozen_scores():
    chart = score_bars([-20, 20])  # 41 scores: every 4th is labelled
    labelled = [b["score"] for b in chart["bars"] if b["label"]]
    assert labelled == list(range(-20, 21, 4)) and not any(b["count_shown"] for b in chart["bars"])


def test_a_moment_reads_as_a_day_a_date_and_a_time():
    assert readable_moment("2026-11-30T00:00:00Z") == "Mon 30 Nov 2026 00:00"  # a Monday
    assert readable_moment("2026-12-07T00:00:00Z") == "Mon 7 Dec 2026 00:00"
    assert readable_moment("2000-02-29T23:59:30Z") == "Tue 29 Feb 2000 23:59:30"
    assert readable_moment("not a time") == "not a time"
    assert str(time_element("2026-11-30T00:00:00Z")) == (
        '<time datetime="2026-11-30T00:00:00Z">Mon 30 Nov 2026 00:00</time>')
    assert "&lt;" in str(time_element("<b>"))
