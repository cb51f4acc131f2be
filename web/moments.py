"""Moments and places as a person reads them: the league stores UTC moments in ISO form
(``2026-11-30T00:00:00Z``); pages print ``Mon 30 Nov 2026 00:00`` inside a ``<time>`` element
that keeps the ISO form for machines, ``30 Nov 2026`` in a sentence, and a rank as ``3rd``."""

from __future__ import annotations

from datetime import datetime

from markupsafe import Markup, escape

# English names whatever the server's locale (strftime's %a and %b follow the locale)
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def readable_moment(iso: str) -> str:
    """``2026-11-30T00:00:00Z`` -> ``Mon 30 Nov 2026 00:00`` (seconds only when not zero); a
    moment that does not read as ISO is returned as it is.

    >>> readable_moment("2026-12-07T18:30:00Z")
    'Mon 7 Dec 2026 18:30'
    >>> readable_moment("2026-12-07T18:30:05Z")
    'Mon 7 Dec 2026 18:30:05'
    """
    try:
        moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return iso
    seconds = f":{moment.second:02d}" if moment.second else ""
    return (f"{DAYS[moment.weekday()]} {moment.day} {MONTHS[moment.month - 1]} {moment.year} "
            f"{moment.hour:02d}:{moment.minute:02d}{seconds}")


def readable_day(iso: str) -> str:
    """``2026-11-30T00:00:00Z`` -> ``30 Nov 2026``, the time added when it is not midnight (a
    window's edge, said in a sentence).

    >>> readable_day("2026-11-30T00:00:00Z")
    '30 Nov 2026'
    >>> readable_day("2026-11-30T18:00:00Z")
    '30 Nov 2026 18:00'
    """
    readable = readable_moment(iso)
    if readable == iso:
        return iso
    day = readable.split(" ", 1)[1]
    return day.removesuffix(" 00:00")


def ordinal(number: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``12th``, ``13th``, ``21st``, ``112th``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111, 112)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st', '111th', '112th']
    """
    suffix = "th" if number % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def time_element(iso: str) -> Markup:
    """The moment for a page: ``<time datetime="ISO">readable</time>``, escaped."""
    return Markup('<time datetime="{}">{}</time>').format(escape(iso), readable_moment(iso))
