"""Benchmark: in-process rendering time of the printables (imports and the first, warm-up
run excluded), median of several runs, wall clock and CPU time of this process.

    .venv/bin/python bench/bench_print.py [--runs 7]

Aims: a mission sheet < 0.4 s, the 54-card deck (fronts and backs) < 0.1 s. The sheet of a
seed or challenge has five pages (board, three log pages for 101 turns, the deck page) and a
blank or hand-setup sheet four; the aim is still 0.4 s. The sheet is also split into its
phases, to show where the time goes: the jinja2 HTML (and the three SVG drawings),
WeasyPrint's parsing, cascade and layout (``HTML.render``) and the PDF write (drawing: the
SVG images' text is laid out letter by letter by WeasyPrint, so the board's 151 and the
stacking list's 162 text elements are most of it; font subsetting is ~1 ms with
HarfBuzz-subset, ~0.1 s when WeasyPrint falls back to fontTools).

The machine's other load shows in these numbers (±30 % on a shared 2-core box): compare
changes interleaved, and read the minimum next to the median.

Figures (defaults, CPU medians, the shared 2-core machine running the test suite beside it):
the A4 sheet 0.57 s (Letter 0.62 s, blank 0.48 s), so above the 0.4 s aim: WeasyPrint's
layout 0.36 s, the PDF write 0.23 s, jinja2 0.01 s; the deck 0.05-0.075 s, within its aim.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bgrid.generator import sealed_pdf, sheet
from bgrid.generator.deck_pdf import render_deck
from bgrid.challenges.mission import mission_from_seed


def measure(func, runs: int) -> tuple[float, float, float]:
    """(median wall, minimum wall, median CPU) seconds over ``runs`` after one warm-up."""
    func()
    wall, cpu = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        func()
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
    return statistics.median(wall), min(wall), statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--sheet-only", action="store_true", help="skip the deck rows")
    args = parser.parse_args()
    mission = mission_from_seed(1944)

    import weasyprint

    html = sheet.render_sheet_html(mission, "a4", "Ada")
    holder = {}

    css, font_config = sealed_pdf.sheet_stylesheet()  # parsed once a process, as render_sheet does

    def layout():
        holder["doc"] = weasyprint.HTML(string=html, base_url=sealed_pdf.TEMPLATES.as_uri() + "/",
                                        url_fetcher=sealed_pdf.sheet_fetcher()).render(
            stylesheets=[css], font_config=font_config)

    def write():
        with sealed_pdf._fixed_font_timestamps():
            holder["doc"].write_pdf(pdf_identifier=b"bench", custom_metadata=True)

    from bgrid.challenges.mission import blank_mission

    blank = blank_mission(mission.ruleset)
    rows = [
        ("sheet A4 (whole, 5 pages)", lambda: sheet.render_sheet(mission, "a4", "Ada"), 0.4),
        ("sheet Letter (whole, 5 pages)", lambda: sheet.render_sheet(mission, "letter", "Ada"), 0.4),
        ("sheet A4 blank (4 pages)", lambda: sheet.render_sheet(blank, "a4"), 0.4),
        ("  sheet: jinja2 HTML", lambda: sheet.render_sheet_html(mission, "a4", "Ada"), None),
        ("  sheet: WeasyPrint layout", layout, None),
        ("  sheet: PDF write + font subsets", write, None),
        ("deck A4 duplex, 54 fronts + backs", lambda: render_deck(mission, "a4"), 0.1),
        ("deck Letter gutter fold", lambda: render_deck(mission, "letter", gutter_fold=True), 0.1),
        ("deck A4 plain, low ink", lambda: render_deck(None, "a4", low_ink=True), 0.1),
    ]
    print(f"{'what':38} {'wall s':>8} {'min s':>8} {'cpu s':>8} {'aim s':>6} {'wall/aim':>9}")
    if args.sheet_only:
        rows = [row for row in rows if "sheet" in row[0]]
    for name, func, aim in rows:
        wall, fastest, cpu = measure(func, args.runs)
        ratio = f"{wall / aim:8.2f}x" if aim else ""
        print(f"{name:38} {wall:8.3f} {fastest:8.3f} {cpu:8.3f} {aim if aim else '':>6} {ratio:>9}")


if __name__ == "__main__":
    main()
