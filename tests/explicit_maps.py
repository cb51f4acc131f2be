"""Logs on small explicit maps (own deck), for tests a reader can work by hand."""

from __future__ import annotations


def explicit_log(body: str, *, mountains: str = "", artillery: str = "H5 J9 J8 J7",
                 bunkers: str = "A10 B10 C10 E10 F10 G10") -> str:
    """A log with an explicit map: header lines 1-4, a blank line 5, the body from line 6."""
    return (f"bgrid-log: 1\nmap mountains: {mountains}\nmap bunkers: {bunkers}\n"
            f"map artillery: {artillery}\n\n" + body)


#: A Clubs Automa card, worked from the rules. Artillery numbered 1-4 in placement order
#: (R43): 1 D2, 2 H5, 3 J9, 4 A1. 4H enters in column D, row 1, facing S at altitude 4
#: (R13). Passing at once, the Automa card 2C: reach max(1, 4 - 4) = 1 (R18), so only
#: artillery 1 on D2, next to D1 with nothing between, fires: 1 damage. The other three could
#: not fire and the card is a Club: they hold (R19), so every piece ends where it started.
CLUBS_AUTOMA = explicit_log("turn 1\nenter 4H\ndraw 2S 3S 5C QH 10S\nautoma 2C\n",
                            artillery="D2 H5 J9 A1")
CLUBS_AUTOMA_TEXT = "Automa card 2C, Clubs: the artillery holds (R19)"
