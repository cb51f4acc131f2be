"""Verify one log: parse, build the mission, replay, check the claim, give the verdict.

:func:`verify_log` never raises for anything in the log: every problem becomes an
``invalid`` verdict with its message. Only an unexpected failure inside the toolkit (a bug)
becomes the E299 message, so the CLI still answers with a verdict instead of a traceback.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..challenges.mission import Mission
from ..rules.artillery_pieces import ArtilleryPieces
from ..rules.engine import score
from ..log.writer import log_text
from ..rules.ruleset import Ruleset
from ..rules.state import GameState
from .message_context import describe_state, legal_summary
from ..log.lexer import MAX_BYTES, read_log_bytes
from ..log.reader import parse_log
from .map_source import assurance, map_key, mission_source, remembered_key, source_text
from ..log.messages import LogError
from .replay import Replay
from ..log.notation import Header
from .verdict import INCOMPLETE, INVALID, VALID, Verdict, raw_id, verification_id


class Verifier:
    """Verifies logs one after another and remembers what it built for the ones before: body
    lines already parsed, the missions of challenge codes and seeds, and their start states.
    A folder often holds many runs of one challenge, and building a mission costs more than
    reading a whole log. The caller owns it (the CLI keeps one per run, or per worker
    process); nothing is remembered at module level. Each memo is bounded. ``rulesets``:
    rulesets the caller holds besides the shipped ones (a variant being tried), by name.
    """

    def __init__(self, rulesets: Mapping[str, Ruleset] | None = None) -> None:
        self.rulesets = rulesets
        self.lines: dict[str, tuple] = {}  # a body line's text -> its statement's fields
        self.missions: dict[tuple, Mission] = {}  # header values -> the mission
        self.starts: dict[int, tuple[Mission, GameState]] = {}  # id(mission) -> its start

    def sharing_missions(self) -> Verifier:
        """Another verifier sharing this one's memos of lines, missions and starts (a server's
        threads: each mission is built once for all of them, not once a thread). The memos
        are safe to share between threads: a lookup or an insertion is one dict operation,
        and making room (:mod:`verifier.memo`, ``log.reader``'s clear) tolerates a race."""
        other = Verifier(self.rulesets)
        other.lines, other.missions, other.starts = self.lines, self.missions, self.starts
        return other

    def verify(self, data: bytes | str, source: str = "log", *, history: bool = False) -> Verdict:
        """The verdict on one log given as bytes (a file) or text (see :func:`verify_log`)."""
        return verify_log(data, source, history=history, verifier=self)


def verify_log(data: bytes | str, source: str = "log", *, history: bool = False,
               verifier: Verifier | None = None) -> Verdict:
    """The verdict on one log given as bytes (a file) or text. ``history``: keep each
    statement's events in ``verdict.history`` (for ``--explain`` and the replay report).
    ``verifier`` keeps what it builds for the next log (without one, nothing is kept)."""
    memo = verifier if verifier is not None else Verifier()
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    try:
        # text is held to the byte limit too (log-format: Lexical counts bytes, not characters)
        log = parse_log(read_log_bytes(raw) if isinstance(data, (bytes, bytearray))
                        or len(raw) > MAX_BYTES else data, memo.lines, memo.rulesets)
    except LogError as exc:
        return _notation_verdict(exc, raw, source, memo, history)
    try:
        mission = mission_source(log, memo.missions, memo.rulesets)
    except LogError as exc:
        return _identified(Verdict(INVALID, source=source, errors=[exc], verification_id=raw_id(raw)),
                           log.header)
    if mission.is_challenge:
        log.header.challenge = mission.code  # the normalised code, so spelling does not change the id
    vid = verification_id(log.canonical_text(), mission.ruleset.name, map_key(mission))
    plays = log.body_text if log.body_text is not None else [s.canonical() for s in log.statements]
    verdict = _identified(Verdict(INCOMPLETE, source=source, assurance=assurance(mission),
                                  verification_id=vid, plays=plays, claim=log.header.claim,
                                  statements=len(log.statements)), log.header, mission)
    replay = None
    try:
        replay = Replay(log, mission, _starts(memo, log.header))
        if history:
            replay.history = []
        state = replay.run()
    except LogError as exc:
        verdict.verdict = INVALID
        verdict.errors = [exc]
        if replay is not None:
            replay.trace.snapshot(replay.state)
            verdict.trace = replay.trace
            _carry(verdict, replay)
        verdict.turns = replay.turn_logged if replay is not None else 0
        return verdict
    except Exception as exc:  # noqa: BLE001 - a bug must still give a verdict, not a traceback
        line = replay.stmt.line if replay is not None and replay.stmt is not None else None
        err = LogError("E299", f"the verifier failed here ({type(exc).__name__}: {exc}); this is a bug "
                       "in bgrid, not in the log: please report it with the log", line=line,
                       column=1 if line else None, text=log.line_text(line) if line else None)
        verdict.verdict = INVALID
        verdict.errors = [err]
        return verdict
    replay.trace.snapshot(state)
    verdict.trace = replay.trace
    _carry(verdict, replay)
    verdict.turns = replay.turn_logged
    if not state.is_over:
        verdict.state = replay_state(state, replay.turn_logged, replay.pieces)
        return verdict
    owed = replay.unwritten_end()
    if owed is not None:  # R36: the end is the log's to write
        verdict.state = f"{describe_state(state, replay.turn_logged, replay.pieces)}; next: {owed}"
        return verdict
    verdict.score = final = score(state)
    verdict.outcome = str(state.outcome)
    verdict.cause = "all bunkers destroyed" if state.cause is None else str(state.cause)
    claim = log.header.claim
    if claim is not None and (claim[0], claim[1]) != (verdict.outcome, final.total):
        entry = log.header.entry("claim")
        assert entry is not None  # the claim was read from that line
        verdict.verdict = INVALID
        verdict.errors = [LogError(
            "E214", f"the claim says {claim[0]} {claim[1]}; the replay gives {verdict.outcome} "
            f"({verdict.cause}) with score {final.total} ({final.breakdown()})",
            line=entry.line, column=entry.value_column, token=entry.value,
            text=log.line_text(entry.line))]
        return verdict
    verdict.verdict = VALID
    return verdict


def _starts(memo: Verifier, header: Header) -> dict[int, tuple[Mission, GameState]] | None:
    """Where the start of ``header``'s mission is kept: the memo of starts when
    ``mission_source`` remembers the mission, else nowhere (the mission is a new object each
    log, so its start would never be found again; keeping it cost an eviction and a copy)."""
    return memo.starts if remembered_key(header) is not None else None


def _carry(verdict: Verdict, replay: Replay) -> None:
    """What the replay saw besides the verdict: notes, the damage ledger, the history."""
    verdict.notes = replay.notes
    verdict.damage_ledger = replay.ledger
    verdict.ledger_wanted = replay.damage_mismatch
    verdict.history = replay.history
    verdict.lines = replay.log.lines
    verdict.body = None if replay.history is None else replay.log.statements


def _identified(verdict: Verdict, header: Header, mission: Mission | None = None) -> Verdict:
    """The verdict with who played which mission: the player, the map source and the
    mission's origin, the difficulty, the ruleset."""
    verdict.player = header.player
    verdict.map_source = source_text(header)
    verdict.challenge = header.challenge
    verdict.origin = mission.origin if mission is not None else None
    verdict.difficulty = mission.difficulty if mission is not None else header.difficulty
    verdict.ruleset = mission.ruleset.name if mission is not None else None
    return verdict


def _notation_verdict(exc: LogError, raw: bytes, source: str, memo: Verifier,
                      history: bool = False) -> Verdict:
    """A log that cannot be read to its end. For a bad line in the body the lines before it
    are replayed: a rule broken earlier is the first error; otherwise the notation error is
    told with the state and the legal plays at its line."""
    verdict = Verdict(INVALID, source=source, errors=[exc], verification_id=raw_id(raw))
    partial = exc.partial
    if partial is None:
        return verdict
    _identified(verdict, partial.header)
    replay = None
    try:
        mission = mission_source(partial, memo.missions, memo.rulesets)
        _identified(verdict, partial.header, mission)
        verdict.assurance = assurance(mission)
        replay = Replay(partial, mission, _starts(memo, partial.header))
        if history:
            replay.history = []
        state = replay.run()
    except LogError as earlier:  # a header or rule problem above the bad line comes first
        verdict.errors = [earlier]
    except Exception:  # noqa: BLE001 - the context is a courtesy; the notation error stands
        return verdict
    else:
        verdict.errors = [exc.with_context(describe_state(state, replay.turn_logged, replay.pieces),
                                           legal_summary(state, replay.turn_logged, replay.pieces))]
        replay.trace.error_cell = state.cell
    if replay is not None:
        replay.trace.snapshot(replay.state)
        verdict.trace = replay.trace
        verdict.turns = replay.turn_logged
        _carry(verdict, replay)
    return verdict


def row_form(data: bytes | str) -> str:
    """A log that parses, with its body in the row form (``log.row_writer``): the same header
    and statements, so the same verdict and verification id. Raises :class:`LogError` for a
    log that does not parse."""
    log = parse_log(read_log_bytes(bytes(data)) if isinstance(data, (bytes, bytearray)) else data)
    return log_text(log.header.canonical_lines(), log.statements, rows=True)


def replay_state(state: GameState, log_turn: int | None = None, pieces: ArtilleryPieces | None = None) -> str:
    """Where an incomplete log stops and what would come next."""
    nxt = legal_summary(state, log_turn, pieces)
    return describe_state(state, log_turn, pieces) + (f"; next: {'; '.join(nxt)}" if nxt else "")
