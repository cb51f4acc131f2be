"""Which mission: challenge codes, the seeded procedure that turns a seed into a map and a
deck (R1–R5, R25, R26), dated challenges, and the mission those name.

>>> from bgrid import challenges
>>> mission = challenges.mission_from_code("0M00-0001-WR3")
>>> mission.spec.seed, mission.spec.difficulty, len(mission.deck)
(1944, 'normal', 54)
"""

from .codes import ChallengeSpec, decode_code, encode_code
from .mission import Mission, mission_from_code, mission_from_seed, mission_from_spec

__all__ = ["ChallengeSpec", "Mission", "decode_code", "encode_code", "mission_from_code", "mission_from_seed",
           "mission_from_spec"]
