"""Pack downloads (sheet, deck, map.json, deck-order.json) of a challenge, made by the
generator and kept in memory: a pack takes seconds to render and every player of the week
asks for the same one."""

from __future__ import annotations

import threading
from collections import OrderedDict

from ..generator.pack import DECK_ORDER_FILE, MAP_FILE, pack_files
from ..challenges.mission import mission_from_code

PAPERS = ("a4", "letter")
FILES = (tuple(f"{kind}-{paper}.pdf" for kind in ("sheet", "deck") for paper in PAPERS)
         + (MAP_FILE, DECK_ORDER_FILE))
KEPT = 8  # packs (one challenge on one paper each) held at once


class PackCache:
    def __init__(self) -> None:
        self._packs: OrderedDict[tuple[str, str], dict[str, bytes]] = OrderedDict()
        self._lock = threading.Lock()

    def file(self, code: str, name: str) -> bytes | None:
        """The pack file ``name`` (one of :data:`FILES`) of challenge ``code``."""
        if name not in FILES:
            return None
        paper = "a4" if name.endswith(".json") else name.split("-", 1)[1].removesuffix(".pdf")
        with self._lock:  # one render at a time: PDF rendering is heavy, and the next asker waits for it
            pack = self._packs.get((code, paper))
            if pack is None:
                pack = pack_files(mission_from_code(code), paper)
                self._packs[(code, paper)] = pack
                while len(self._packs) > KEPT:
                    self._packs.popitem(last=False)
            self._packs.move_to_end((code, paper))
        return pack.get(name)
