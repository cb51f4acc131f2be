"""What the application factory and its blueprints share: the rate limits, the error answer
and the key a request carries. Here, not in ``app``, so the blueprints import no module that
imports them (``app`` only builds the app)."""

from __future__ import annotations

from flask import Response, jsonify, render_template, request

from .rate_limits import RateLimits, remote_address

limiter = RateLimits()


def wants_json() -> bool:
    return request.path.startswith("/api/")


def failure(status: int, message: str) -> tuple[Response | str, int]:
    """An error answer: ``{"error": …}`` for the API, an error page for a person."""
    if wants_json():
        return jsonify({"error": message}), status
    return render_template("error.html.j2", status=status, message=message), status


def current_key() -> str | None:
    """The bearer key of an API request, or None."""
    header = request.headers.get("Authorization", "")
    scheme, _, key = header.partition(" ")
    return key.strip() or None if scheme.lower() == "bearer" else None


def key_or_address() -> str:
    """Rate-limit bucket of a submission: its key when it has one, else its address."""
    key = current_key() or (request.form.get("key") if request.form else None)
    return f"key:{key}" if key else remote_address()
