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

#: A board where no piece can take its step toward the bomber on C1 (R20): piece 2 on A1 has
#: the bunker B1 in its way, piece 1 on C3 the mountain C2, piece 4 on H8 (row gap 7 > column
#: gap 5: along the column) the mountain H7; piece 3 on D1 is in range 1 at ALT 4 and fires.
ALL_BLOCKED = ("bgrid-log: 1\nmap mountains: C2 H7\nmap bunkers: B1 E5 F6 G9 I3 J10\n"
               "map artillery: C3 A1 D1 H8\n")
#: What an Automa card that steps the artillery toward the bomber says on that board, piece by
#: piece, in the order the pieces act (R34).
ALL_BLOCKED_TEXT = ("no artillery piece moves: 3 (D1) fired; 2 (A1) blocked by a bunker at B1; "
                    "1 (C3) blocked by a mountain at C2; 4 (H8) blocked by a mountain at H7 (R18, R20)")
