"""The table companion: a mission held on the engine while the player plays on paper.

>>> from bgrid.companion import Session
>>> session = Session.start("bgrid-log: 1\\nchallenge: 0MER-60SV-GHE\\n")
>>> session.submit("enter").said[:2]
['entry card: 4H', 'bomber enters at D1 facing S, alt 4']
"""

from .paper import paper_steps
from .session import GROUPS, Offer, Reply, Session, refusal_text

__all__ = ["GROUPS", "Offer", "Reply", "Session", "paper_steps", "refusal_text"]
