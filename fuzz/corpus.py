"""The seed corpus both harnesses start from: the suite's test logs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

SEEDS = Path(__file__).resolve().parents[1] / "tests" / "logs"


def seed_corpus(args: list[str], entry: Callable[[int, Path], tuple[str, bytes]]) -> None:
    """Fill the first folder argument (libFuzzer's corpus) with the test logs if it is missing
    or empty; ``entry(k, log)`` gives the k-th log's file name and bytes in the corpus."""
    folders = [a for a in args[1:] if not a.startswith("-")]
    if not folders:
        return
    corpus = Path(folders[0])
    if corpus.is_dir() and any(corpus.iterdir()):
        return
    corpus.mkdir(parents=True, exist_ok=True)
    for k, log in enumerate(sorted(SEEDS.rglob("*.log"))):
        name, data = entry(k, log)
        (corpus / name).write_bytes(data)
