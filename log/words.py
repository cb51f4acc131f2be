"""The format's words (``docs/log-format.md``): the statement keywords and the header keys, by
which a line is told a statement or a header line."""

from __future__ import annotations

BODY_KEYWORDS = ("turn", "enter", "draw", "resupply", "move", "alt", "guns", "bomb", "throttle",
                 "automa", "reshuffle", "state")
HEADER_KEYS = ("bgrid-log", "challenge", "seed", "ridges", "difficulty", "ruleset", "player", "date",
               "claim", "setup ridge", "setup bunkers", "setup artillery", "map mountains",
               "map bunkers", "map artillery")
