"""Simulated missions written as logs verify valid with the engine's own result; single
mutations are caught (or are still a legal game, whose result the verdict then gives);
random bytes and random edits always give a verdict and never the internal error E299."""

from __future__ import annotations

import functools
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgrid.rules.cards import FULL_DECK, Card
from bgrid.rules.engine import score
from bgrid.challenges.mission import mission_from_seed
from bgrid.challenges.seeding import stream
from bgrid.log.reader import parse_log
from bgrid.players.simulated_logs import simulated_log
from bgrid.verifier.verify import verify_log

GAMES = 120
DIFFICULTIES = ("easy", "normal", "hard", "ace")


@functools.cache
def game(k: int):
    """Game k: seed k, all difficulties and ridge counts in turn, challenge deck on even k."""
    mission = mission_from_seed(k, DIFFICULTIES[k % 4], 1 + (k // 4) % 4)
    text, state = simulated_log(mission, stream("standard-1", f"roundtrip-{k}", 11),
                                challenge_deck=k % 2 == 0)
    return text, state


@pytest.mark.parametrize("k", range(GAMES))
def test_simulated_game_verifies_with_the_engines_result(k):
    text, state = game(k)
    verdict = verify_log(text)
    assert verdict.verdict == "valid", verdict.render()
    assert verdict.outcome == str(state.outcome)
    assert verdict.score.total == score(state).total
    assert verdict.assurance == ("exact" if k % 2 == 0 else "consistent")
    assert verdict.turns == state.turn


def test_the_corpus_covers_the_rare_statements():
    text = "\n".join(game(k)[0] for k in range(GAMES))
    for needle in ("reshuffle", "automa none", "JK=", "throttle", "guns", "bomb", "resupply"):
        assert needle in text, needle
    assert re.search(r"^enter (J|Q|K)\w? [A-J]$|^enter JK [A-J]$", text, re.M)


@pytest.mark.parametrize("k", range(0, GAMES, 3))
def test_a_changed_claim_is_invalid_and_gives_the_true_result(k):
    text, state = game(k)
    true = score(state).total
    verdict = verify_log(text.replace(f"claim: {state.outcome} {true}", f"claim: {state.outcome} {true + 1}"))
    err = verdict.errors[0]
    claim_line = text.splitlines().index(f"claim: {state.outcome} {true}") + 1
    assert (verdict.verdict, err.code, err.line) == ("invalid", "E214", claim_line)
    assert f"{state.outcome} (" in err.message and f"with score {true}" in err.message


@pytest.mark.parametrize("k", range(0, GAMES, 2))
def test_a_changed_card_on_a_challenge_deck_is_caught_at_that_card(k):
    """Every drawn or revealed card of a challenge deck is fixed (R25): any other is E206."""
    text, _ = game(k)
    lines = text.splitlines()
    targets = [(i, m) for i, ln in enumerate(lines)
               for m in [re.search(r"(?:^automa |^enter |-> )(\S+)", ln)] if m and m.group(1) != "none"]
    i, m = targets[(k * 7) % len(targets)]
    old = m.group(1)
    same_kind = (lambda c: c.is_number == Card.parse(old).is_number) if lines[i].startswith("enter") \
        else (lambda c: True)  # an entry keeps its shape: a column after a face card only
    new = next(str(c) for c in FULL_DECK if str(c) != old and same_kind(c))
    lines[i] = lines[i][:m.start(1)] + new + lines[i][m.end(1):]
    verdict = verify_log("\n".join(lines) + "\n")
    err = verdict.errors[0]
    assert (verdict.verdict, err.code, err.line, err.column) == ("invalid", "E206", i + 1, m.start(1) + 1)
    assert f"gives {old}" in err.message


@pytest.mark.parametrize("k", range(GAMES))
def test_a_removed_line_or_an_added_step_never_passes_unnoticed(k):
    """Removing a statement or adding a forward step: invalid or incomplete, or a game that
    is still legal to its end, and then the verdict is the replay's own result (the claim
    check decides: valid only if the result happens to be unchanged)."""
    text, state = game(k)
    lines = text.splitlines()
    start = lines.index("turn 1")
    body = [i for i, ln in enumerate(lines) if i > start and ln]
    removed = lines[:body[(k * 5) % len(body)]] + lines[body[(k * 5) % len(body)] + 1:]
    moves = [i for i, ln in enumerate(lines) if ln.startswith("move ")]
    mutants = ["\n".join(removed) + "\n"]
    if moves:
        i = moves[k % len(moves)]
        stepped = list(lines)
        stepped[i] += "F"
        mutants.append("\n".join(stepped) + "\n")
    for mutant in mutants:
        verdict = verify_log(mutant)
        assert verdict.verdict in ("valid", "invalid", "incomplete")
        assert not any(e.code == "E299" for e in verdict.errors), verdict.render()
        if verdict.verdict == "valid":
            claim = parse_log(mutant).header.claim
            assert (verdict.outcome, verdict.score.total) == claim
        elif verdict.verdict == "invalid" and verdict.errors[0].code == "E214":
            assert f"gives {verdict.outcome} (" in verdict.errors[0].message


def test_removing_the_last_line_leaves_the_log_incomplete():
    for k in range(0, GAMES, 7):
        text, _ = game(k)
        lines = text.splitlines()
        verdict = verify_log("\n".join(lines[:-1]) + "\n")
        assert verdict.verdict == "incomplete", verdict.render()
        assert verdict.state and "turn" in verdict.state


# -- fuzzing the whole verifier ----------------------------------------------------------

@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_random_bytes_always_give_a_verdict(data):
    for blob in (data, b"bgrid-log: 1\nseed: 5\nturn 1\n" + data):
        verdict = verify_log(blob)
        assert verdict.verdict in ("valid", "invalid", "incomplete")
        assert len(verdict.verification_id) == 16
        assert not any(e.code == "E299" for e in verdict.errors), verdict.render()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, GAMES - 1), st.data())
def test_random_edits_of_real_logs_always_give_a_verdict(k, data):
    text = game(k)[0]
    for _ in range(data.draw(st.integers(1, 3))):
        pos = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 6))
        insert = data.draw(st.text(alphabet="AJKQT23456789HDCS FLR->=\nnoeautomdrwsvg", max_size=6))
        text = text[:pos] + insert + text[pos + cut:]
    verdict = verify_log(text)
    assert verdict.verdict in ("valid", "invalid", "incomplete")
    assert not any(e.code == "E299" for e in verdict.errors), verdict.render()
    for err in verdict.errors:
        assert err.line is None or err.line >= 1
        err.render()
