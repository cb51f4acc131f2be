"""Paper sizes the printables support, and the error for an unknown one."""

from __future__ import annotations

from ..rules.errors import BGridError

MM = 72 / 25.4  # PDF points per millimetre

#: name -> (width, height) in millimetres, portrait.
PAPERS: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
}


def paper_size(name: str) -> tuple[float, float]:
    """(width, height) in mm of a paper name, any case. Raises :class:`BGridError`."""
    key = name.strip().lower()
    if key not in PAPERS:
        raise BGridError(f"unknown paper '{name}': expected one of {', '.join(PAPERS)}")
    return PAPERS[key]
