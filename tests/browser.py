"""The system Chromium that the browser tests drive through Playwright (never a browser
download): ``BGRID_CHROMIUM``, else ``chromium`` or ``chromium-browser`` on PATH."""

from __future__ import annotations

import os
import shutil

CHROMIUM = os.environ.get("BGRID_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
NO_CHROMIUM = "no Chromium on this machine (apt-get install chromium)"
