"""The yardstick: reportlab on its own drawing simple text cards with backs on A4.

Run as a whole process, as deckpress is, so both pay for starting Python and
importing what they use::

    python benchmarks/bare_loop.py CARDS OUT.pdf

Nine poker cards a page, each a rectangle and three strings, each page of
fronts followed by its page of backs mirrored for long-edge duplex. This is
roughly the least a program can do to print such a deck with reportlab; the
benchmarks quote deckpress's times as multiples of it.
"""

from __future__ import annotations

import sys

from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

CARDS_PER_PAGE = 9
CARD_WIDTH, CARD_HEIGHT = 63 * 72 / 25.4, 88 * 72 / 25.4


def draw_deck(cards: int, path: str) -> int:
    """Write ``cards`` cards (fronts and backs) to ``path``; return the number of pages."""
    pdfmetrics.registerFont(TTFont("BareVera", "Vera.ttf"))
    canvas = Canvas(path, pagesize=A4, invariant=1, pageCompression=1)
    width, height = CARD_WIDTH, CARD_HEIGHT
    left, bottom = (A4[0] - 3 * width) / 2, (A4[1] - 3 * height) / 2
    slots = [(left + column * width, bottom + row * height) for row in (2, 1, 0) for column in range(3)]
    pages = 0
    for first in range(0, cards, CARDS_PER_PAGE):
        batch = range(first, min(first + CARDS_PER_PAGE, cards))
        for side in ("front", "back"):
            canvas.setFont("BareVera", 9)
            for slot, number in zip(slots, batch, strict=False):
                x, y = slot if side == "front" else (A4[0] - slot[0] - width, slot[1])
                canvas.rect(x + 4, y + 4, width - 8, height - 8)
                canvas.drawCentredString(x + width / 2, y + height - 20, f"Card {number + 1}")
                canvas.drawCentredString(x + width / 2, y + height / 2, side)
                canvas.drawCentredString(x + width / 2, y + 20, f"copy {number + 1} of {cards}")
            canvas.showPage()
            pages += 1
    canvas.save()
    return pages


if __name__ == "__main__":
    draw_deck(int(sys.argv[1]), sys.argv[2])
