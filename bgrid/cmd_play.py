"""``bgrid play``: the table companion in a terminal, or scripted through standard input.

The face only reads and shows: the game is the library's :class:`~bgrid.companion.Session`.
The log file is the save file: every line the session writes is appended and flushed at
once, an undo or the end of the mission (the claim goes into the header) rewrites the file
whole (atomically), and opening an existing log resumes it.
"""

from __future__ import annotations

import os
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .companion import Offer, Reply, Session, refusal_text
from .companion.board_text import LEGEND, board_lines, side_lines, status_text
from .safeio.safe_output import check_target, write_atomic
from .header_options import read_header, read_named_log
from .options import mission_options, pick_mission
from .rules.errors import BGridError
from .log.lexer import read_log_bytes
from .log.messages import LogError
from .log.notation import Header, UnwritableHeader
from .log.reader import read_header as read_log_header
from .log.row_reader import is_row
from .log.writer import header_text

if TYPE_CHECKING:  # prompt_toolkit loads only for a terminal session
    from prompt_toolkit.completion import CompleteEvent, Completer, Completion
    from prompt_toolkit.document import Document
    from prompt_toolkit.key_binding import KeyPressEvent

WIDTH = 80
REPLY_LINES = 4  # at least, under the legend; more when fewer offers are shown
HELP = ("type a statement (Tab completes the legal ones, Up/Down recall), or: undo (back one "
        "statement), play out (a dead hand: the forced turns to the end, at once), help, quit (the "
        "log keeps the game; play again with the same --log to resume)")


class LogFile:
    """The log on disk: appended and flushed line by line, rewritten whole when the session
    takes lines back (undo) or adds the claim (the end)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.text = ""

    def save(self, text: str) -> None:
        write_atomic(self.path, text, "the log")
        self.text = text

    def sync(self, session: Session) -> None:
        """Bring the file to the session's log: append (and flush) when it only grew, else
        rewrite it whole."""
        text = session.log_text()
        if text == self.text:
            return
        if self.text and text.startswith(self.text):
            with open(self.path, "a", encoding="utf-8", newline="") as fh:
                fh.write(text[len(self.text):])
                fh.flush()
                os.fsync(fh.fileno())
            self.text = text
            return
        self.save(text)


@click.command("play")
@mission_options
@click.option("--header", "header", default=None, metavar="FILE",
              type=click.Path(dir_okay=False, path_type=Path),
              help="The mission a log header names (challenge:, seed:, setup or map lines).")
@click.option("--own-deck", is_flag=True,
              help="With --code: play the challenge's map with your own shuffled deck.")
@click.option("--open", "open_deck", is_flag=True,
              help="Challenge deck: show the cards to come (default: blind, each card shown when drawn).")
@click.option("--player", default=None, metavar="NAME", help="The player's name for the log header.")
@click.option("--log", "log_path", default=None, metavar="FILE",
              type=click.Path(dir_okay=False, path_type=Path),
              help="The log to write, or to resume when it exists (default: one named for the mission).")
def play_command(seed: str | None, code: str | None, difficulty: str | None, ridges: int | None,
                 header: Path | None, own_deck: bool, open_deck: bool, player: str | None,
                 log_path: Path | None) -> int:
    """Play a mission on paper with the companion: it checks each statement as you make it,
    says what to do on the sheet, and writes the log.

    \b
    Examples:
      bgrid play --code 0MER-60SV-GHE
      bgrid play --seed 1944 --log ada.log
      bgrid play --code 0MER-60SV-GHE --own-deck
      printf 'enter\\ndraw\\n' | bgrid play --code 0MER-60SV-GHE --log t.log
    """
    named = log_path is not None and log_path.exists()
    given = any(v is not None for v in (seed, code, header))
    header_text = None
    if not given and not named:
        missing = "" if log_path is None else f" ('{log_path}' does not exist yet)"
        raise click.UsageError("give the mission: --seed N, --code CODE or --header FILE, or --log "
                               f"FILE of a game to carry on{missing}")
    if given or not named:
        header_text = _header_text(seed, code, difficulty, ridges, header, own_deck, player)
    if log_path is None:
        log_path = Path(_default_name(header_text))
        named = log_path.exists()
    check_target(log_path, "the log")
    log = LogFile(log_path)
    if named:
        session = _resume(log, header_text, open_deck)
    else:
        assert header_text is not None  # a new log: the mission options named its header
        try:
            session = Session.start(header_text, open_deck=open_deck)
        except LogError as exc:
            raise BGridError(f"the mission: {exc}") from None
        log.save(session.log_text())
    if sys.stdin.isatty() and sys.stdout.isatty():
        return _terminal(session, log, resumed=named)
    return _scripted(session, log)


def _header_text(seed: str | None, code: str | None, difficulty: str | None, ridges: int | None,
                 header: Path | None, own_deck: bool, player: str | None) -> str:
    one = "give exactly one of --seed N, --code CODE or --header FILE"
    if header is not None:
        if seed is not None or code is not None or difficulty is not None or ridges is not None:
            raise click.UsageError(one)
        if own_deck:
            raise click.UsageError("--own-deck goes with --code; a header names its deck itself")
        read = read_header(header)  # the claim is the end's, never a new game's (R38)
        read.header.claim = None
        given = read.header
    else:
        if seed is not None and code is not None:  # play also takes --header: name all three
            raise click.UsageError(one)
        mission = pick_mission(seed, code, difficulty, ridges)
        if code is not None and not own_deck:
            given = Header(challenge=mission.code)
        elif code is not None:  # the challenge's map, the player's own deck
            spec = mission.spec
            given = Header(seed=spec.seed, ridges=spec.ridges, difficulty=spec.difficulty)
        else:
            given = Header(seed=mission.spec.seed, ridges=ridges, difficulty=difficulty)
    try:
        return header_text(given, player=player)
    except UnwritableHeader as exc:
        raise click.BadParameter(str(exc), param_hint="--player") from None


def _default_name(header_text: str | None) -> str:
    """``mission-0MER-60SV-GHE.log``, ``mission-seed-1944.log``; ``mission.log`` for a header
    naming its map by setup or map lines. The header is read by the log reader's door, as
    every header is, not picked apart here."""
    assert header_text is not None
    header, _ = read_log_header(header_text)
    if header.challenge is not None:
        return f"mission-{header.challenge}.log"
    if header.seed is not None:
        return f"mission-seed-{header.seed}.log"
    return "mission.log"


def _resume(log: LogFile, header_text: str | None, open_deck: bool) -> Session:
    data = read_named_log(log.path, "--log")
    try:
        session, dropped = Session.resume(read_log_bytes(data), open_deck=open_deck)
    except LogError as exc:
        raise BGridError(f"cannot resume '{log.path}': {exc}") from None
    if header_text is not None:
        wanted = Session.start(header_text).header_lines()
        if wanted != session.header_lines()[:len(wanted)] and not session.is_over:
            raise BGridError(f"'{log.path}' is the log of another mission ({_source_words(session)}); "
                             "give no mission options to resume it, or another --log")
    log.text = data.decode("utf-8")
    if any(is_row(line.split("#", 1)[0]) for line in log.text.splitlines()):
        click.echo(f"'{log.path}' is carried on in statement lines (the same statements, the same "
                   "verification id)", err=True)
    if dropped:
        click.echo(f"the last line of '{log.path}' was cut short and is dropped", err=True)
    log.sync(session)
    return session


def _source_words(session: Session) -> str:
    return ", ".join(ln for ln in session.header_lines()[1:] if not ln.startswith("claim"))


# -- scripted: one statement a line in, one reply a line out ------------------------------

def _scripted(session: Session, log: LogFile) -> int:
    for data in sys.stdin.buffer:
        try:
            raw = read_log_bytes(data.rstrip(b"\r\n"))
        except LogError as exc:  # E002: a line that is not UTF-8
            click.echo(refusal_text(exc))
            continue
        word = raw.strip().lower()
        if word in ("quit", "exit"):
            click.echo(f"bye: the log keeps the game in {log.path}")
            break
        if word == "help":
            click.echo(HELP)
            continue
        if word in ("?", "options"):
            click.echo(offers_summary(session.offers()) or "none: the mission is over")
            continue
        reply = session.submit(raw)
        log.sync(session)
        click.echo(reply.one_line())
    return 0


# -- the terminal -------------------------------------------------------------------------

def _terminal(session: Session, log: LogFile, resumed: bool) -> int:  # pragma: no cover - tmux
    from prompt_toolkit import PromptSession, print_formatted_text
    from prompt_toolkit.formatted_text import FormattedText
    from prompt_toolkit.history import InMemoryHistory
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.output import ColorDepth
    from prompt_toolkit.shortcuts import clear
    from prompt_toolkit.styles import Style

    plain = "NO_COLOR" in os.environ
    style = Style.from_dict({} if plain else {
        "mountain": "#b8860b", "bunker": "#e05050 bold", "artillery": "#c060ff bold",
        "bomber": "#40c0ff bold", "crater": "#ff9030", "dim": "#808080", "error": "#ff5050 bold",
        "group": "#80c080", "bottom-toolbar": "reverse"})
    depth = ColorDepth.MONOCHROME if plain else None
    keys = KeyBindings()

    @keys.add("tab")
    def _(event: KeyPressEvent) -> None:
        """Tab selects the next offer, the first one at once (keystrokes.py counts so)."""
        buffer = event.current_buffer
        if buffer.complete_state:
            buffer.complete_next()
        else:
            buffer.start_completion(select_first=True)

    # a resumed log: Up recalls the statements already in it, the last one first
    history = InMemoryHistory(session.recalled_lines())
    prompt: PromptSession[str] = PromptSession(history=history, completer=_Completer(session),
                           complete_while_typing=True, style=style, color_depth=depth,
                           reserve_space_for_menu=3, key_bindings=keys)
    last: list[tuple[str, str]] = [("", opening_text(log.path, resumed, session.turn))]
    while True:
        clear()
        screen = [(f"class:{name}" if name else "", text) for name, text in _screen(session, last)]
        print_formatted_text(FormattedText(screen), style=style, color_depth=depth, end="")
        if session.is_over:
            print_formatted_text(FormattedText([("", f"The log is in {log.path}. 'undo' to take back, "
                                                     "'quit' to leave.")]), style=style, color_depth=depth)
        try:
            text = prompt.prompt(f"turn {session.turn} › ",
                                 bottom_toolbar=lambda: status_text(session.state, session.art, session.turn,
                                                                     session.unmet_damage))
        except (EOFError, KeyboardInterrupt):
            break
        word = text.strip().lower()
        if word in ("quit", "exit"):
            break
        if not word:  # Enter on an empty line: the screen stays as it was
            continue
        if word == "help":
            last = [("", HELP)]
            continue
        reply = session.submit(text)
        log.sync(session)
        last = _reply_pieces(reply)
    print(f"the log is in {log.path}: play it again with the same --log to carry on")
    return 0


def opening_text(path: Path, resumed: bool, turn: int) -> str:
    """The first words under the board: which file is the save file, and how to get help."""
    where = f"resumed {path} at turn {turn}" if resumed else f"the log goes to {path}"
    return f"{where}; Tab completes the legal statements; 'help' for more."


def _Completer(session: Session) -> Completer:  # pragma: no cover - driven through tmux
    """prompt_toolkit's view of :meth:`Session.completions`: whole statements, Tab cycles."""
    from prompt_toolkit.completion import Completer, Completion

    class StatementCompleter(Completer):
        def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
            typed = document.text_before_cursor
            for text in session.completions(typed):
                yield Completion(text, start_position=-len(typed))

    return StatementCompleter()


def _screen(session: Session, last: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Board and side panel (11 lines), the legend, the last reply (4 lines at most), the
    offers (3): 19 lines, and the prompt, 3 lines for the completion menu and the status
    line make 24."""
    out: list[tuple[str, str]] = []
    deck = ("challenge deck" + (", open" if session.open_deck else ", blind")
            if session.state.challenge else "own deck")
    side = side_lines(session.state, session.art, session.turn, deck, session.unmet_damage)
    if session.open_deck and session.state.challenge:
        side.append("next " + " ".join(map(str, session.state.draw_pile[:8])))
    for i, row in enumerate(board_lines(session.state, session.art)):
        out.extend(row)
        if i < len(side):
            out.append(("", "  " + side[i][:WIDTH - 37]))
        out.append(("", "\n"))
    out.append(("dim", LEGEND[:WIDTH - 1] + "\n"))
    offers = _offer_pieces(session.offers())
    room = reply_lines(len(offers) // 2, session.is_over)
    out.extend((name, _wrapped(text, room)) for name, text in last)
    out.append(("", "\n"))
    out.extend(offers)
    return out


def reply_lines(offer_lines: int, is_over: bool) -> int:
    """The lines the last reply may take: the seven under the legend that the offers leave
    (a restack order with the damage and the draw after it takes five), less the line that
    names the log at the end."""
    return max(REPLY_LINES, 7 - offer_lines - is_over)


def _reply_pieces(reply: Reply) -> list[tuple[str, str]]:
    return [("error" if reply.error is not None else "", reply.one_line())]


def _wrapped(text: str, lines: int) -> str:
    wrapped = textwrap.wrap(text, WIDTH - 1) or [""]
    if len(wrapped) > lines:
        wrapped = wrapped[:lines - 1] + [wrapped[lines - 1][:WIDTH - 2] + "…"]
    return "\n".join(wrapped)


def offers_summary(offers: list[Offer]) -> str:
    """The offers on one line, by group, the many ways of one movement card counted:
    ``first action: move 5S (70 ways) · alt QH | Automa: automa``."""
    return " | ".join(f"{group}: {' · '.join(texts)}" for group, texts in _grouped(offers).items())


def _grouped(offers: list[Offer]) -> dict[str, list[str]]:
    groups: dict[str, dict[str, int]] = {}
    for offer in offers:
        words = offer.text.split()
        many = words[0] in ("move", "throttle") and len(words) > 2
        key = " ".join(words[:-1]) if many else offer.text
        if offer.full is None:  # an own deck: the player types the card drawn or revealed
            key += " CARDS" if words[0] in ("draw", "play") else " CARD"
        found = groups.setdefault(offer.group, {})
        found[key] = found.get(key, 0) + 1
    return {group: [k if n == 1 else f"{k} ({n} ways)" for k, n in found.items()]
            for group, found in groups.items()}


def _offer_pieces(offers: list[Offer]) -> list[tuple[str, str]]:
    """The offers on at most three lines (resupply, an action, Automa at most at once): each
    group with the statements that fit."""
    if not offers:
        return []
    groups = _grouped(offers)
    out: list[tuple[str, str]] = []
    for group, texts in list(groups.items())[:3]:
        room = WIDTH - 1 - len(f"{group}: ")
        shown = _fitting(texts, room)
        if len(shown) < len(texts):
            shown = _fitting(texts, room - len(" · 99 more (Tab)"))
        hidden = len(texts) - len(shown)
        more = ((" · " if shown else "") + f"{hidden} more (Tab)") if hidden else ""  # not '+3':
        # an offer reads 'alt 10C', and '+3' next to it reads as three more altitude
        out.append(("group", f"{group}: "))
        out.append(("", " · ".join(shown) + more + "\n"))
    return out


def _fitting(texts: list[str], room: int) -> list[str]:
    """The first of ``texts`` that fit in ``room`` characters, joined by ' · '."""
    shown: list[str] = []
    for t in texts:
        if len(" · ".join(shown + [t])) > room:
            break
        shown.append(t)
    return shown
