"""Drive ``bgrid play`` in a real terminal (tmux, 80×24) through whole missions.

A greedy player (``companion.autoplay``) chooses each line in-process; the line is typed into
the terminal key by key (``tmux send-keys``), the first letters and Tab where completion
gives the line, and the script waits until the log on disk is the in-process session's log.
At chosen moments the pane is captured (``capture-pane``) as text and as an HTML page with its
colours, which chromium can screenshot. At the end the log must verify valid with the
session's score.

    .venv/bin/python bench/drive_companion_tmux.py OUT_FOLDER --code 0MER-60SV-GHE
    .venv/bin/python bench/drive_companion_tmux.py OUT_FOLDER --seed 1944
    .venv/bin/python bench/drive_companion_tmux.py OUT_FOLDER --code 0MER-60SV-GHE --kill-at 8

Figures: challenge 0MER-60SV-GHE blind, 27 statements, 102 keys, valid -3 as the
companion said, also when SIGKILLed mid-turn 2 (one action played) and reopened (same engine
state, same screen); own deck seed 1944, 41 statements, 415 keys, valid -1.

tmux runs on its own socket (``-L``), so no other tmux server is touched; the script kills
only the session it started.
"""

from __future__ import annotations

import argparse
import html
import json
import random
import re
import subprocess
import sys
import time
from pathlib import Path

from bgrid.companion import Session
from bgrid.companion.autoplay import next_line
from bgrid.log.notation import Header
from bgrid.log.writer import header_text

SOCKET = "bgrid-companion-drive"
BGRID = str(Path(sys.executable).with_name("bgrid"))


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True, check=True).stdout


def wait_for(predicate, seconds: float = 10.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def type_line(name: str, session: Session, line: str) -> int:
    """Type ``line``: if a prefix of it and some Tabs make it (as the completion menu lists it),
    the prefix, the Tabs, Enter; else every character and Enter. Returns the keys pressed."""
    best = None
    for i in range(len(line) + 1):
        found = [c.lower() for c in session.completions(line[:i])]
        if line.lower() in found:
            best = (i, found.index(line.lower()) + 1)
            break
    if best is not None and best[0] + best[1] < len(line):
        prefix, tabs = line[:best[0]], best[1]
        if prefix:
            tmux("send-keys", "-t", name, "-l", prefix)
        wait_for(lambda: _on_prompt(name).endswith(prefix))
        time.sleep(0.2)  # the completer runs after each key
        for _ in range(tabs):
            tmux("send-keys", "-t", name, "Tab")
            time.sleep(0.1)
        assert _typed_in(name, line)
        tmux("send-keys", "-t", name, "Enter")
        return len(prefix) + tabs + 1
    tmux("send-keys", "-t", name, "-l", line)
    assert _typed_in(name, line)
    tmux("send-keys", "-t", name, "Enter")
    return len(line) + 1


def _typed_in(name: str, line: str) -> bool:
    """Wait until the prompt shows ``line``; say what the pane shows if it never does."""
    if wait_for(lambda: _on_prompt(name).lower().endswith(line.lower())):
        return True
    print(f"the prompt never showed {line!r}:\n" + tmux("capture-pane", "-t", name, "-p"), file=sys.stderr)
    return False


def _on_prompt(name: str) -> str:
    """What the prompt line of the pane holds after the prompt."""
    for row in tmux("capture-pane", "-t", name, "-p").splitlines():
        if row.startswith("turn ") and "›" in row:
            return row.split("›", 1)[1].strip()
    return ""


_SGR = re.compile(r"\x1b\[([0-9;]*)m")
_BASE = ["#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5"]


def _xterm(n: int) -> str:
    if n < 8:
        return _BASE[n]
    if n < 16:
        return _BASE[n - 8]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return f"#{steps[n // 36]:02x}{steps[(n // 6) % 6]:02x}{steps[n % 6]:02x}"
    g = 8 + (n - 232) * 10
    return f"#{g:02x}{g:02x}{g:02x}"


def ansi_html(text: str, title: str) -> str:
    """A captured pane (``capture-pane -e``) as an HTML page: colours, bold, reverse video."""
    out, fg, bold, reverse = [], None, False, False
    pos = 0
    for m in _SGR.finditer(text + "\x1b[0m"):
        chunk = text[pos:m.start()]
        if chunk:
            colour = fg or "#d0d0d0"
            style = (f"color:#1e1e1e;background:{colour}" if reverse else f"color:{colour}")
            style += ";font-weight:bold" if bold else ""
            out.append(f'<span style="{style}">{html.escape(chunk)}</span>')
        pos = m.end()
        codes = [int(c) for c in m.group(1).split(";") if c] or [0]
        i = 0
        while i < len(codes):
            c = codes[i]
            if c == 0:
                fg, bold, reverse = None, False, False
            elif c == 1:
                bold = True
            elif c == 22:
                bold = False
            elif c == 7:
                reverse = True
            elif c == 27:
                reverse = False
            elif 30 <= c <= 37:
                fg = _BASE[c - 30]
            elif c == 39:
                fg = None
            elif c == 38 and i + 2 < len(codes) and codes[i + 1] == 5:
                fg, i = _xterm(codes[i + 2]), i + 2
            elif c == 38 and i + 4 < len(codes) and codes[i + 1] == 2:
                fg, i = f"#{codes[i + 2]:02x}{codes[i + 3]:02x}{codes[i + 4]:02x}", i + 4
            i += 1
    return ("<!doctype html><meta charset=utf-8><title>" + html.escape(title) + "</title>"
            "<body style='margin:0;background:#1e1e1e'><pre style='margin:0;padding:8px;font:15px/1.25 "
            "\"DejaVu Sans Mono\",monospace;color:#d0d0d0;background:#1e1e1e'>" + "".join(out) + "</pre>")


def kill_and_reopen(name: str, command: str, log: Path, session: Session) -> str:
    """SIGKILL the ``bgrid play`` of the pane (by its process id, found as the pane shell's
    child) in the middle of a turn, check the log on disk, and start it again in the same
    pane: the screen must come back at the same turn. Returns what the reopened pane shows."""
    shell = int(tmux("list-panes", "-t", name, "-F", "#{pane_pid}").split()[0])
    children = subprocess.run(["ps", "-o", "pid=,comm=", "--ppid", str(shell)], capture_output=True,
                              text=True, check=False).stdout.split("\n")
    pid = next(int(row.split()[0]) for row in children if "bgrid" in row)
    killed_text = log.read_text(encoding="utf-8")
    subprocess.run(["kill", "-KILL", str(pid)], check=True)
    assert killed_text == session.log_text(), "the log on disk is not the game played"
    assert Session.resume(killed_text)[0].state == session.state, "the reopened game differs"
    tmux("respawn-pane", "-k", "-t", name, command)
    assert wait_for(lambda: f"turn {session.turn} ›" in tmux("capture-pane", "-t", name, "-p")), (
        "the reopened terminal is not at the same turn:\n" + tmux("capture-pane", "-t", name, "-p"))
    return tmux("capture-pane", "-t", name, "-p")


def drive(out: Path, options: list[str], header: str, seed: int, shots: set[int], tag: str,
          kill_at: int = 0) -> dict:
    name = f"play-{tag}"
    log = out / f"{tag}.log"
    if log.exists():
        log.unlink()
    session = Session.start(header)
    command = f"{BGRID} play {' '.join(options)} --log {log}; sleep 600"
    tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", command)
    try:
        assert wait_for(lambda: "›" in tmux("capture-pane", "-t", name, "-p")), "no prompt"
        rng = random.Random(seed)
        keys = typed = 0
        while not session.is_over:
            if kill_at and typed >= kill_at and session.state.phase.value == "actions" \
                    and session.state.actions == 1:  # mid-turn: one action played, one to come
                screen = kill_and_reopen(name, command, log, session)
                (out / f"{tag}-reopened.txt").write_text(screen, encoding="utf-8")
                kill_at = 0
            line = next_line(session, rng)
            keys += type_line(name, session, line)
            typed += 1
            assert session.submit(line).ok
            want = session.log_text()
            assert wait_for(lambda w=want: log.exists() and log.read_text(encoding="utf-8") == w), (
                f"the terminal's log differs after {line!r}:\n" + tmux("capture-pane", "-t", name, "-p"))
            if typed in shots or session.is_over:
                time.sleep(0.3)
                shot = out / f"{tag}-{typed:03d}"
                shot.with_suffix(".txt").write_text(tmux("capture-pane", "-t", name, "-p"), encoding="utf-8")
                coloured = tmux("capture-pane", "-t", name, "-p", "-e")
                shot.with_suffix(".html").write_text(ansi_html(coloured, f"{tag} {typed}"), encoding="utf-8")
        tmux("send-keys", "-t", name, "-l", "quit")
        tmux("send-keys", "-t", name, "Enter")
    finally:
        subprocess.run(["tmux", "-L", SOCKET, "kill-session", "-t", name], check=False)
    verdict = json.loads(subprocess.run([BGRID, "verify", "--json", str(log)], capture_output=True,
                                        text=True, check=False).stdout)
    verdict = verdict[0] if isinstance(verdict, list) else verdict
    text = log.read_text(encoding="utf-8")
    return {"mission": tag, "typed": typed, "keys": keys, "log_chars": len(text),
            "verdict": verdict["verdict"], "score": verdict["score"], "companion_score": session.score,
            "outcome": verdict["outcome"]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--code")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--shots", default="3,8,20")
    parser.add_argument("--kill-at", type=int, default=0,
                        help="SIGKILL bgrid play mid-turn after this many statements, then reopen it")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    shots = {int(s) for s in args.shots.split(",") if s}
    if args.code:
        row = drive(args.out, ["--code", args.code], header_text(Header(challenge=args.code)), 1, shots,
                    f"code-{args.code}", args.kill_at)
    else:
        row = drive(args.out, ["--seed", str(args.seed)], header_text(Header(seed=args.seed)), args.seed,
                    shots, f"seed-{args.seed}", args.kill_at)
    print(json.dumps(row))


if __name__ == "__main__":
    main()
