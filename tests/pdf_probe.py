"""Reading the printables back with pypdf, independently of the code that wrote them:
stroked line segments in page coordinates, text with its position, fonts, metadata."""

from __future__ import annotations

import io

from pypdf import PdfReader
from pypdf.generic import ContentStream

MM = 72 / 25.4


def reader(pdf: bytes) -> PdfReader:
    return PdfReader(io.BytesIO(pdf))


def _mul(a, b):
    """Matrix product of two PDF matrices [a b c d e f] (a applied first)."""
    return [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
            a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3],
            a[4] * b[0] + a[5] * b[2] + b[4], a[4] * b[1] + a[5] * b[3] + b[5]]


def stroked_segments(page, reader_: PdfReader) -> list[tuple[float, float, float, float]]:
    """Every straight segment (m/l) that is stroked, in page points (x1, y1, x2, y2)."""
    ops = ContentStream(page.get_contents(), reader_).operations
    ctm = [1, 0, 0, 1, 0, 0]
    stack = []
    path, current, start = [], None, None
    out = []

    def tx(x, y):
        return (ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5])

    for operands, op in ops:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _mul([float(v) for v in operands], ctm)
        elif op == b"m":
            current = start = tx(float(operands[0]), float(operands[1]))
        elif op == b"l":
            p = tx(float(operands[0]), float(operands[1]))
            path.append((*current, *p))
            current = p
        elif op == b"re":  # a rectangle: its four sides
            x, y, w, h = (float(v) for v in operands)
            corners = [tx(x, y), tx(x + w, y), tx(x + w, y + h), tx(x, y + h)]
            path.extend((*corners[i], *corners[(i + 1) % 4]) for i in range(4))
            current = start = corners[0]
        elif op == b"c":
            current = tx(float(operands[4]), float(operands[5]))
        elif op == b"h":
            if current is not None and start is not None:
                path.append((*current, *start))
                current = start
        elif op in (b"S", b"s", b"B", b"B*", b"b", b"b*"):
            out.extend(path)
            path = []
        elif op in (b"n", b"f", b"F", b"f*", b"W", b"W*"):
            path = []
    return out


def positioned_text(page) -> list[tuple[str, float, float]]:
    """(text, x, y) of every text run, in page points."""
    runs = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            m = _mul(tm, cm)
            runs.append((text.strip(), m[4], m[5]))

    page.extract_text(visitor_text=visit)
    return runs


def sized_text(page) -> list[tuple[str, float, float, float]]:
    """(text, x, y, size) of every text run, in page points: the font size as drawn (the
    text and current matrices' vertical scale applied)."""
    runs = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            m = _mul(tm, cm)
            runs.append((text.strip(), m[4], m[5], size * (m[2] ** 2 + m[3] ** 2) ** 0.5))

    page.extract_text(visitor_text=visit)
    return runs


def unembedded_fonts(reader_: PdfReader) -> list[str]:
    """Base names of fonts that carry no embedded font program."""
    missing = []
    for page in reader_.pages:
        fonts = page.get("/Resources", {}).get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            targets = [font]
            if font.get("/Subtype") == "/Type0":
                targets = [d.get_object() for d in font["/DescendantFonts"]]
            for f in targets:
                desc = f.get("/FontDescriptor")
                desc = desc.get_object() if desc is not None else {}
                if not any(k in desc for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                    missing.append(str(f.get("/BaseFont")))
    return missing
