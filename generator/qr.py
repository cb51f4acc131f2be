"""QR codes drawn locally, as SVG, for the challenge code on the mission sheet.

The symbol is computed by ReportLab's QR encoder (already a dependency for the deck), so no
extra package and no network service is involved. The SVG is one path of unit squares on a
white field with the 4-module quiet zone the QR standard asks for, so it scales cleanly to
any printed size.
"""

from __future__ import annotations

from reportlab.graphics.barcode import qrencoder

QUIET_ZONE = 4  # modules of white around the symbol (ISO/IEC 18004)


def qr_matrix(text: str, level: str = "M") -> list[list[bool]]:
    """The QR symbol of ``text`` as rows of dark (True) / light modules, without quiet zone.

    Level M (15 % recovery) keeps a challenge code at version 1 (21×21 modules), big
    modules for a phone camera held over a pencil-marked sheet.
    """
    qr = qrencoder.QRCode(None, getattr(qrencoder.QRErrorCorrectLevel, level))
    qr.addData(text)
    qr.make()
    n = qr.getModuleCount()
    return [[bool(qr.isDark(r, c)) for c in range(n)] for r in range(n)]


def qr_svg(text: str, size_mm: float = 24.0) -> str:
    """An inline ``<svg>`` element (no XML prolog) of the QR symbol of ``text``."""
    matrix = qr_matrix(text)
    n = len(matrix) + 2 * QUIET_ZONE
    runs = []
    for r, row in enumerate(matrix):
        c = 0
        while c < len(row):
            if row[c]:
                start = c
                while c < len(row) and row[c]:
                    c += 1
                # one horizontal run per rectangle keeps the path short
                runs.append(f"M{start + QUIET_ZONE} {r + QUIET_ZONE}h{c - start}v1h{start - c}z")
            else:
                c += 1
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="qr" width="{size_mm}mm" '
            f'height="{size_mm}mm" viewBox="0 0 {n} {n}" shape-rendering="crispEdges">'
            f'<rect width="{n}" height="{n}" fill="#fff"/>'
            f'<path fill="#000" d="{"".join(runs)}"/></svg>')
