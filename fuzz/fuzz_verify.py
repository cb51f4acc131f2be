"""Coverage-guided fuzzing of the log verifier with atheris (libFuzzer for Python).

    pip install -e '.[fuzz]'
    python fuzz/fuzz_verify.py fuzz/corpus -runs=100000      # or -max_total_time=20

The first folder argument is the working corpus; when it is missing or empty it is seeded
with every log under ``tests/logs/``. Each input goes through ``verify_log`` and every way
its verdict is shown (terminal text, JSON, the folder index row, the terminal's safe text),
and fails when the verifier raises, reports its own bug (E299), answers with something
other than valid / invalid / incomplete, or takes more than 2 s (``-timeout`` is a hard
stop on top). libFuzzer saves a failing input as ``crash-*`` / ``timeout-*`` in the
current folder; replay it with ``bgrid verify crash-…``.
"""

from __future__ import annotations

import io
import json
import sys
import time

import atheris
from corpus import seed_corpus

with atheris.instrument_imports(include=["bgrid"]):  # ours only: instrumenting jinja2 too costs 10x
    from bgrid.verifier.report_index import FolderIndex
    from bgrid.safeio.safe_text import printable_lines
    from bgrid.verifier.verify import verify_log

SLOW_SECONDS = 2.0
VERDICTS = ("valid", "invalid", "incomplete")


class _Discard(io.TextIOBase):
    def write(self, text: str) -> int:
        text.encode("utf-8")  # what writing the report file would do
        return len(text)


INDEX = FolderIndex(_Discard())  # one page for the whole run: building its template is slow


def test_one_input(data: bytes) -> None:
    start = time.perf_counter()
    verdict = verify_log(data, "fuzz.log")
    elapsed = time.perf_counter() - start
    if verdict.verdict not in VERDICTS:
        raise AssertionError(f"verdict {verdict.verdict!r}")
    if any(e.code == "E299" for e in verdict.errors):
        raise AssertionError(f"the verifier failed: {verdict.errors[0]}")
    if elapsed > SLOW_SECONDS:
        raise AssertionError(f"{elapsed:.1f} s for {len(data)} bytes")
    printable_lines(verdict.render()).encode("utf-8")
    json.dumps(verdict.as_dict(), ensure_ascii=False).encode("utf-8", "surrogatepass")
    INDEX.verdict(verdict)


def main() -> None:
    seed_corpus(sys.argv, lambda k, log: (f"seed-{k:03d}-{log.name}", log.read_bytes()))
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
