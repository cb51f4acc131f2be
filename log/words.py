"""The format's words (``docs/log-format.md``): the statement keywords and the header keys, by
which a line is told a statement or a header line."""

from __future__ import annotations

from ..rules.actions import Action, Altitude, Bomb, Guns, Move, Resupply, Throttle
from ..rules.board import FACING_LETTERS
from ..rules.ruleset import Play
from ..rules.state import CardPurpose

BODY_KEYWORDS = ("turn", "enter", "draw", "resupply", "move", "alt", "guns", "bomb", "throttle",
                 "automa", "reshuffle", "state")
HEADER_KEYS = ("bgrid-log", "challenge", "seed", "ridges", "difficulty", "ruleset", "player", "date",
               "claim", "setup ridge", "setup bunkers", "setup artillery", "map mountains",
               "map bunkers", "map artillery")

ARROWS = ("->", "→")  # the sheet prints the arrow as →; both read as '->'
#: A facing as a state line's check and a row's AT cell write it: its letter, in either case.
FACINGS = FACING_LETTERS + tuple(letter.lower() for letter in FACING_LETTERS)

#: The words table: each play's statement verb, the card table's play it makes (rulebook:
#: Card Actions), its action and the purpose of the card it takes (log-format §3). Every
#: verb <-> play <-> purpose mapping of the package is read from here.
PLAYS = (("move", Play.MOVE, Move, None), ("alt", Play.ALTITUDE, Altitude, None),
         ("guns", Play.GUNS, Guns, CardPurpose.GUNS), ("bomb", Play.BOMB, Bomb, CardPurpose.BOMB),
         ("throttle", Play.THROTTLE, Throttle, None),
         ("resupply", Play.RESUPPLY, Resupply, CardPurpose.RESUPPLY))
PLAY_VERBS = tuple(verb for verb, _, _, _ in PLAYS)
PLAY_OF_VERB = {verb: play for verb, play, _, _ in PLAYS}
VERB_OF_PLAY = {play: verb for verb, play, _, _ in PLAYS}
VERB_OF_ACTION: dict[type[Action], str] = {action: verb for verb, _, action, _ in PLAYS}
#: The statement that takes a card for each purpose: the plays' and the three card statements.
VERB_OF_PURPOSE = {CardPurpose.ENTRY: "enter", CardPurpose.DRAW: "draw", CardPurpose.AUTOMA: "automa",
                   **{purpose: verb for verb, _, _, purpose in PLAYS if purpose is not None}}
PURPOSE_OF_VERB = {verb: purpose for purpose, verb in VERB_OF_PURPOSE.items()}
