r"""The log verifier: ``verify_log(data)`` gives the :class:`Verdict` on one mission log; a
:class:`Verifier` verifies many and remembers what it built from one log to the next.

>>> from bgrid.verifier import verify_log
>>> verify_log("bgrid-log: 1\nseed: 1944\n").verdict
'incomplete'
"""

from ..log.messages import LogError
from .verdict import INCOMPLETE, INVALID, VALID, Score, Verdict
from .verify import Verifier, verify_log

__all__ = ["INCOMPLETE", "INVALID", "VALID", "LogError", "Score", "Verdict", "Verifier", "verify_log"]
