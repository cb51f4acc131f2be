"""Who plays a mission: the random, greedy and strong players, the simulation driver, the
search API, the solver's portfolio and the star rating. Each plays only the game model's
legal actions (``rules.legal_actions``) and draws its cards as the engine's chance events.

>>> from bgrid.challenges import mission_from_seed
>>> from bgrid.players import simulate
>>> simulate(mission_from_seed(1944), 4, seed=7).games
4
"""

from .playout import PLAYERS, play_out, simulate, start_state

__all__ = ["PLAYERS", "play_out", "simulate", "start_state"]
