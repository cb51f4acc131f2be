"""The fuzz harnesses (``fuzz/``) check what they claim on known inputs, so a fuzzing run
starts from a harness that works: the league's submission path takes every test log, under
hostile file names, and 150 seeded mutations of them without a failure."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parents[1] / "fuzz"
LOGS = sorted((Path(__file__).parent / "logs").rglob("*.log"))
NAMES = [b"ada", b"Ada\xe2\x80\xaegnp.exe", b"Bo\xc2\x9b2J\xc2\x9d", b"\xff\xfe", b"=cmd|' /C calc'!A0",
         b"x" * 300, b""]


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, FUZZ / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def harness():
    module = load("fuzz_league")
    league = module.League()
    yield module, league
    league.close()


def mutate(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randrange(1, 6)):
        pos = rng.randrange(len(out) + 1)
        choice = rng.randrange(4)
        if choice == 0 and out:
            del out[pos:pos + rng.randrange(1, 40)]
        elif choice == 1:
            out[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8)))
        elif choice == 2:
            out[pos:pos] = rng.choice([b"\n", b"turn 9\n", b"\xe2\x80\xae", b"\xc2\x9b", b"player: ", b"#"])
        elif out:
            out[pos:pos] = out[rng.randrange(len(out)):][:rng.randrange(1, 80)]
    return bytes(out)


def test_every_test_log_under_a_hostile_name_goes_through_the_league(harness):
    module, league = harness
    for k, log in enumerate(LOGS):
        module.check_submission(league, NAMES[k % len(NAMES)] + b"\n" + log.read_bytes())


def test_seeded_mutations_go_through_the_league(harness):
    module, league = harness
    rng = random.Random(19)
    seeds = [log.read_bytes() for log in LOGS]
    for _ in range(150):
        module.check_submission(league, rng.choice(NAMES) + b"\n" + mutate(rng.choice(seeds), rng))
