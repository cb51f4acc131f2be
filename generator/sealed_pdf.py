"""Sealed HTML-to-PDF rendering with WeasyPrint, for the mission sheet.

WeasyPrint reads only ``data:`` URLs and files inside the package's ``templates/`` folder
(:class:`SheetFetcher`), fonts come from ``templates/fonts/`` through ``@font-face``, and the
PDF carries no clock time and a file identifier derived from what defines the document, so
the same input always gives the same bytes. ``sheet.css`` is parsed, with its fonts, once a
process (:func:`sheet_stylesheet`).
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import mimetypes
import os
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from .. import templates as _templates_package
from ..rules.errors import BGridError

if TYPE_CHECKING:  # WeasyPrint loads on first use
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration
    from weasyprint.urls import URLFetcher, URLFetcherResponse

TEMPLATES = Path(_templates_package.__file__).resolve().parent
SHEET_CSS = "sheet.css"  # given to WeasyPrint parsed (sheet_stylesheet), not linked
FONT_EPOCH = "946684800"  # 2000-01-01, the date ReportLab's invariant mode writes


def _template_path(url: str) -> Path | None:
    """The file a ``file:`` URL names, if it lies inside ``templates/``; else None."""
    parts = urlsplit(url)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    path = Path(unquote(parts.path)).resolve()  # resolve: no ../ or symlink escapes
    if not path.is_file() or not path.is_relative_to(TEMPLATES):
        return None
    return path


def _weasyprint() -> ModuleType:
    """WeasyPrint, imported on first use; a missing system library (Pango) becomes a
    one-line :class:`BGridError` instead of a traceback."""
    try:
        import weasyprint
    except OSError as exc:
        raise BGridError(f"mission sheets need WeasyPrint's system libraries (Pango): {exc}") from None
    return weasyprint


def _make_fetcher_class() -> type[URLFetcher]:
    _weasyprint()
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class SheetFetcher(URLFetcher):
        """Serves ``data:`` URLs and the package's own template files; refuses the rest.

        ``refused`` lists what was asked for and denied (the tests read it).
        """

        def __init__(self) -> None:
            super().__init__(allowed_protocols=("data", "file"))
            self.refused: list[str] = []

        def fetch(self, url: str, headers: dict[str, str] | None = None) -> URLFetcherResponse:
            if url.startswith("data:"):
                return super().fetch(url, headers)  # urllib's DataHandler: no I/O
            path = _template_path(url)
            if path is None:
                self.refused.append(url)
                raise ValueError(f"bgrid sheets load nothing from outside templates/: {url}")
            kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": kind})

    return SheetFetcher


_FETCHER_CLASS = None


def sheet_fetcher() -> URLFetcher:
    """A fresh :class:`SheetFetcher` (class built on first use: WeasyPrint loads lazily)."""
    global _FETCHER_CLASS
    if _FETCHER_CLASS is None:
        _FETCHER_CLASS = _make_fetcher_class()
    return _FETCHER_CLASS()


_SHEET_STYLE = None


def sheet_stylesheet() -> tuple[CSS, FontConfiguration]:
    """(stylesheet, font configuration) of ``templates/sheet.css``, parsed once a process:
    its ``@font-face`` fonts are loaded and registered once, and every sheet shares them
    (the PDF bytes do not depend on what was rendered before)."""
    global _SHEET_STYLE
    if _SHEET_STYLE is None:
        weasyprint = _weasyprint()
        from weasyprint.text.fonts import FontConfiguration

        font_config = FontConfiguration()
        css = weasyprint.CSS(filename=str(TEMPLATES / SHEET_CSS), url_fetcher=sheet_fetcher(),
                             font_config=font_config)
        _SHEET_STYLE = (css, font_config)
        # Drop them while the interpreter is whole: FontConfiguration.__del__ calls into
        # Pango and, run during shutdown, prints "Exception ignored … TypeError".
        atexit.register(_forget_sheet_style)
    return _SHEET_STYLE


def _forget_sheet_style() -> None:
    global _SHEET_STYLE
    _SHEET_STYLE = None


def html_to_pdf(html: str, identifier: bytes, fetcher: URLFetcher | None = None,
                style: tuple[CSS, FontConfiguration] | None = None) -> bytes:
    """Render sealed HTML to PDF bytes; ``identifier`` becomes the PDF's /ID. ``style`` is
    an extra (stylesheet, font configuration) pair such as :func:`sheet_stylesheet`."""
    weasyprint = _weasyprint()

    fetcher = fetcher if fetcher is not None else sheet_fetcher()
    stylesheets, font_config = ([style[0]], style[1]) if style is not None else (None, None)
    document = weasyprint.HTML(string=html, base_url=TEMPLATES.as_uri() + "/",
                               url_fetcher=fetcher).render(stylesheets=stylesheets,
                                                           font_config=font_config)
    with _fixed_font_timestamps():
        return document.write_pdf(pdf_identifier=identifier, custom_metadata=True)


@contextlib.contextmanager
def _fixed_font_timestamps() -> Iterator[None]:
    """fontTools stamps every font subset it saves with the clock time (the 'head' table)
    unless SOURCE_DATE_EPOCH is set; pin it while the PDF is written, then put it back."""
    saved = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = FONT_EPOCH
    try:
        yield
    finally:
        if saved is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved


def pdf_identifier(*parts: str) -> bytes:
    """A stable PDF file identifier from the things that define the document."""
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32].encode()
