"""Page images of a PDF, for checking printables by eye and for the README previews.

Rendered with pypdfium2 (PDFium in a wheel: no system package needed).
"""

from __future__ import annotations

import io


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
