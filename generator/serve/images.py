"""Face images for the browser: drawn by the print renderer, rasterised as exports are.

A face is drawn with its bleed, through :mod:`generator.exports.raster`, so the
picture is exactly what the PDF prints (the page crops the bleed away in the
grid and shades it in the detail view). Images are kept by token, the face
key plus the fingerprint of the files that decide how faces look: a save that
changes one card's text makes one new token, and only that face is drawn again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from generator.deck.model import Card
from generator.exports.raster import Raster, png_bytes, rasterise_face
from generator.render import Renderer

PREVIEW_DPI = 160
"""Pixels per inch of preview images: a poker card is 440 px wide, sharp in the detail
view and on high-density screens, yet quick to draw."""

MAX_CACHED_IMAGES = 4000
"""Images kept in memory (about 40 kB each, so some 160 MB at most); the least recently
shown are dropped first and drawn again if asked for."""

class FaceImages:
    """PNG bytes by token, drawn on first request and kept (least recently used go first)."""

    def __init__(self) -> None:
        self.drawing = threading.Lock()
        """Held while anything draws or loads fonts: PDFium must not run in two threads at
        once, and reportlab's font registry is shared by every renderer."""
        self._images: OrderedDict[str, bytes] = OrderedDict()
        self._guard = threading.Lock()
        self.drawn = 0
        """How many images have been rasterised (a number the tests and benchmarks read)."""

    def png(self, token: str, renderer: Renderer, card: Card, side: str) -> bytes:
        """The image for ``token``: cached, or drawn now from ``card``'s ``side``."""
        cached = self._get(token)
        if cached is not None:
            return cached
        with self.drawing:
            cached = self._get(token)  # drawn by another request while this one waited
            if cached is not None:
                return cached
            raster = Raster.at_dpi(renderer.card_size, renderer.bleed, PREVIEW_DPI)
            data = png_bytes(rasterise_face(renderer, card, side, raster), PREVIEW_DPI)
            self.drawn += 1
        self._put(token, data)
        return data

    def keep_only(self, wanted: Callable[[str], bool]) -> None:
        """Forget images no deck shows any more."""
        with self._guard:
            for token in [token for token in self._images if not wanted(token)]:
                del self._images[token]

    def _get(self, token: str) -> bytes | None:
        with self._guard:
            data = self._images.get(token)
            if data is not None:
                self._images.move_to_end(token)
            return data

    def _put(self, token: str, data: bytes) -> None:
        with self._guard:
            self._images[token] = data
            while len(self._images) > MAX_CACHED_IMAGES:
                self._images.popitem(last=False)
