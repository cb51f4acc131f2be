"""Logs on small explicit maps (own deck), for tests a reader can work by hand."""

from __future__ import annotations


def explicit_log(body: str, *, mountains: str = "", artillery: str = "H5 J9 J8 J7",
                 bunkers: str = "A10 B10 C10 E10 F10 G10") -> str:
    """A log with an explicit map: header lines 1-4, a blank line 5, the body from line 6."""
    return (f"bgrid-log: 1\nmap mountains: {mountains}\nmap bunkers: {bunkers}\n"
            f"map artillery: {artillery}\n\n" + body)
