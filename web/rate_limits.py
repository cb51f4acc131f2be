"""Rate limits on the views that register, take a key or take a submission: the `limits`
library's fixed-window counters (Flask-Limiter's own), counted once per request and limit.

Two counters are an address's whatever the route: its registrations (``REGISTRATIONS``: the
API's and the page's) and its wrong keys (:func:`wrong_key`: the organiser's sign-in and API,
``/play``'s key form, a key replaced, a submission), so that a client cannot take each
route's allowance in turn. Only wrong keys count there: a player's or the organiser's right
key is never refused because of them, except that the sign-in forms and the admin API
refuse an address whose wrong keys are spent before looking at the key it sends.

Flask-Limiter checked each limited request twice, in its before-request pass and in the view's
decorators, resolving the limits anew each time: 0.1 ms of a submission's CPU, where counting
the two limits costs a fortieth of that. Here a decorated view counts each of its limits
once. The counters live in the process's memory (one server process, or one worker's: see
docs/league.md, Safety), one set per application.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from functools import lru_cache, wraps
from typing import Any, NoReturn

from flask import Flask, current_app, request
from flask.typing import ResponseReturnValue
from limits import RateLimitItem, parse
from limits.strategies import FixedWindowRateLimiter
from werkzeug.exceptions import TooManyRequests

from .rate_store import SweptMemoryStorage

View = Callable[..., ResponseReturnValue]  # a Flask view function

EXTENSION = "bgrid-rate-limits"
REGISTRATIONS = "registrations"  # the scope both registration views count in
WRONG_KEYS = "wrong-keys"  # the scope every key a view refuses counts in


def remote_address() -> str:
    """The client's address (the player's, behind ``--proxies``)."""
    return request.remote_addr or "127.0.0.1"


@lru_cache(maxsize=64)
def _item(text: str) -> RateLimitItem:
    return parse(text)


class RateLimits:
    """``@limits.limit(rate, methods=…, key_func=…)`` on a view: at most ``rate()`` (a
    setting's value such as ``"30 per minute"``) requests per value of ``key_func`` (the
    address by default); a request past it is refused with 429 and ``Retry-After``."""

    def init_app(self, app: Flask) -> None:
        app.extensions[EXTENSION] = FixedWindowRateLimiter(SweptMemoryStorage())

    def limit(
        self,
        rate: Callable[[], str],
        *,
        methods: Iterable[str] | None = None,
        key_func: Callable[[], str] = remote_address,
        shared: str | None = None,
    ) -> Callable[[View], View]:
        """``shared``: the counter's name when several views count in one (``REGISTRATIONS``)."""
        counted = None if methods is None else frozenset(m.upper() for m in methods)

        def decorate(view: View) -> View:
            # the counter's name: the view and whose requests it counts (two limits of one
            # view count apart even when both key on the same address)
            scope = shared or f"{view.__module__}.{view.__qualname__}/{key_func.__name__}"

            @wraps(view)
            def limited(*args: Any, **kwargs: Any) -> ResponseReturnValue:
                if counted is None or request.method in counted:
                    _count(scope, rate(), key_func())
                return view(*args, **kwargs)

            return limited

        return decorate


def _count(scope: str, rate: str, who: str) -> None:
    counters: FixedWindowRateLimiter = current_app.extensions[EXTENSION]
    item = _item(rate)
    if not counters.hit(item, scope, who):
        _refuse(counters, item, scope, who)


def _refuse(counters: FixedWindowRateLimiter, item: RateLimitItem, scope: str, who: str) -> NoReturn:
    reset = counters.get_window_stats(item, scope, who).reset_time
    raise TooManyRequests(str(item), retry_after=max(1, int(reset - time.time()) + 1))


def _key_rate() -> tuple[FixedWindowRateLimiter, RateLimitItem]:
    # a wrong key costs like a registration (--register-limit)
    return current_app.extensions[EXTENSION], _item(current_app.config["REGISTER_LIMIT"])


def refuse_spent_address() -> None:
    """429 when this address has spent its wrong keys (a sign-in form, the admin API): the
    key it sends now is not even looked at."""
    counters, item = _key_rate()
    if not counters.test(item, WRONG_KEYS, remote_address()):
        _refuse(counters, item, WRONG_KEYS, remote_address())


def wrong_key() -> None:
    """Count a key refused by any view against this address; 429 once they are spent (the
    caller's own refusal is then not sent)."""
    counters, item = _key_rate()
    if not counters.hit(item, WRONG_KEYS, remote_address()):
        _refuse(counters, item, WRONG_KEYS, remote_address())
