"""Page images of a PDF, for checking printables by eye and for the README previews.

Rendered with pypdfium2 (PDFium in a wheel: no system package needed).
"""

from __future__ import annotations

import io
from pathlib import Path


def pdf_page_count(pdf: bytes) -> int:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        return len(document)
    finally:
        document.close()


def pdf_to_pngs(pdf: bytes, dpi: float = 100, pages: list[int] | None = None) -> list[bytes]:
    """PNG bytes of the given pages (0-based; all when None) at ``dpi``."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf)
    try:
        out = []
        for index in (range(len(document)) if pages is None else pages):
            page = document[index]
            image = page.render(scale=dpi / 72).to_pil()
            buf = io.BytesIO()
            image.save(buf, format="PNG", optimize=True)
            out.append(buf.getvalue())
            page.close()
        return out
    finally:
        document.close()


def page_previews(path: Path, pdf: bytes) -> dict[Path, bytes]:
    """The PNG previews of ``pdf`` (``--png``) by the path each goes to, beside ``path``:
    ``sheet-a4.pdf`` gives ``sheet-a4-p1.png`` …"""
    return {path.with_name(f"{path.stem}-p{number}.png"): image
            for number, image in enumerate(pdf_to_pngs(pdf), start=1)}


def side_by_side(pngs: list[bytes], gap: int = 12) -> bytes:
    """One PNG of several page images in a row, on white."""
    from PIL import Image

    images = [Image.open(io.BytesIO(p)).convert("RGB") for p in pngs]
    width = sum(i.width for i in images) + gap * (len(images) - 1)
    sheet = Image.new("RGB", (width, max(i.height for i in images)), "white")
    x = 0
    for image in images:
        sheet.paste(image, (x, 0))
        x += image.width + gap
    buf = io.BytesIO()
    sheet.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def write_readme_previews(folder: str | Path) -> list[Path]:
    """docs/img/sheet.png (board, first log page and deck page of mission 1944),
    docs/img/sheet-blank.png (page 1 of a blank sheet) and docs/img/deck.png (a front page
    and its backs). ``python -m bgrid.generator.preview docs/img`` redoes them."""
    from ..challenges.mission import blank_mission
    from ..challenges.mission import mission_from_seed
    from ..rules.ruleset import load_ruleset
    from .deck_pdf import render_deck
    from ..safeio.safe_output import write_atomic
    from .sheet import render_sheet

    mission = mission_from_seed(1944)
    folder = Path(folder)
    pages = render_sheet(mission, "a4", "Ada")
    sheet = side_by_side(pdf_to_pngs(pages, dpi=60, pages=[0, 1, pdf_page_count(pages) - 1]))
    blank = pdf_to_pngs(render_sheet(blank_mission(load_ruleset()), "a4"), dpi=60, pages=[0])[0]
    deck = side_by_side(pdf_to_pngs(render_deck(mission, "a4"), dpi=45, pages=[2, 3]))
    return [write_atomic(folder / "sheet.png", sheet), write_atomic(folder / "sheet-blank.png", blank),
            write_atomic(folder / "deck.png", deck)]


if __name__ == "__main__":
    import sys

    for written in write_readme_previews(sys.argv[1] if len(sys.argv) > 1 else "docs/img"):
        print(written)
