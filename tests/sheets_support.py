"""A small card renderer and deck files for the sheet tests.

``FrameRenderer`` honours the :class:`generator.sheets.renderer.CardRenderer`
contract with the least drawing that still lets a test see where a face went:
a frame around the trim box and the face's title, in an embedded TrueType font.
"""

from __future__ import annotations

import re
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from generator.deck.model import Card, Deck, load_deck
from generator.errors import LayoutError
from generator.sheets.style import MM

FONT = "SheetTestVera"
TITLE_SIZE = 9
PADDING = 4


def _font() -> str:
    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(FONT, "Vera.ttf"))
    return FONT


class FrameRenderer:
    """Draws a frame and the title of each face; bleed is a tinted band past the trim."""

    def __init__(self, deck: Deck, card_size: tuple[float, float] = (63 * MM, 88 * MM),
                 bleed: float = 3 * MM):
        self.deck = deck
        self.card_size = card_size
        self.bleed = bleed
        self.fonts = [_font()]
        self.font_files = {"Vera": {"regular": "reportlab:Vera.ttf"}}

    def face_key(self, card: Card, side: str) -> str:
        if side == "back" and card.back is None:
            return "shared-back"
        return f"{card.id}:{side}"

    def title(self, card: Card, side: str) -> str:
        return self.deck.title(card.face(side, self.deck.shared_back))

    def draw(self, canvas, card: Card, side: str, bleed: bool = False) -> None:
        width, height = self.card_size
        if bleed:
            canvas.setFillGray(0.85)
            canvas.rect(-self.bleed, -self.bleed, width + 2 * self.bleed, height + 2 * self.bleed,
                        stroke=0, fill=1)
        canvas.setFillGray(1 if side == "front" else 0.93)
        canvas.setStrokeGray(0.2)
        canvas.setLineWidth(1)
        canvas.rect(PADDING / 2, PADDING / 2, width - PADDING, height - PADDING, stroke=1, fill=1)
        canvas.setFillGray(0)
        canvas.setFont(FONT, TITLE_SIZE)
        canvas.drawCentredString(width / 2, height / 2, self.title(card, side))

    def validate(self) -> None:
        problems = self.problems()
        if problems:
            raise problems[0]

    def problems(self) -> list[LayoutError]:
        room = self.card_size[0] - 2 * PADDING
        found = []
        for card in self.deck.cards:
            for side in ("front", "back"):
                title = self.title(card, side)
                needed = pdfmetrics.stringWidth(title, _font(), TITLE_SIZE)
                if needed > room:
                    found.append(LayoutError(
                        f"deck '{self.deck.id}', card '{card.id}', {side}: text '{title}' needs "
                        f"{needed:.0f} pt but the box is {room:.0f} pt wide",
                        card.position, field="title"))
        return found

    @property
    def tried_faces(self) -> int:
        return len({self.face_key(card, side) for card in self.deck.cards for side in ("front", "back")})


def write_deck(folder: Path, cards: list[dict], back: str | None = "Shared Back",
               name: str = "Test Deck", rules: str = "") -> Path:
    """A deck file in ``folder`` with the given cards (``{"name":..., "count":..., "back":...}``)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [f"deck:\n  name: {name}\n", "fields:\n  name: {type: text, required: true}\n"]
    if back is not None:
        lines.append(f"back:\n  name: {back}\n")
    lines.append("cards:\n")
    for index, card in enumerate(cards):
        entry = f"  - {{id: c{index + 1}, name: \"{card['name']}\", count: {card.get('count', 1)}"
        if "back" in card:
            entry += f", back: {{name: \"{card['back']}\"}}"
        lines.append(entry + "}\n")
    if rules:
        lines.append(rules)
    path = folder / "deck.yaml"
    path.write_text("".join(lines))
    return path


def numbered_deck(folder: Path, distinct: int, copies: int, **kwargs) -> Deck:
    """A deck of ``distinct`` cards named "Card 1".. each with ``copies`` copies."""
    cards = [{"name": f"Card {n}", "count": copies} for n in range(1, distinct + 1)]
    return load_deck(write_deck(folder, cards, **kwargs))


def read_manifest(path: Path) -> dict:
    import json

    return json.loads(path.read_text())


FORM_PLACEMENT = re.compile(rb"q 1 0 0 1 (-?[\d.]+) (-?[\d.]+) cm /(\S+) Do Q")


def placed_forms(pdf: Path) -> list[list[tuple[str, float, float]]]:
    """Per page, every form placed with a translation: (form name, x, y)."""
    from pypdf import PdfReader

    pages = []
    for page in PdfReader(pdf).pages:
        contents = page.get_contents()
        assert contents is not None, "a page without content"
        content = contents.get_data()
        pages.append([(name.decode(), float(x), float(y))
                      for x, y, name in FORM_PLACEMENT.findall(content)])
    return pages


def embedded_fonts(pdf: Path) -> dict[str, bool]:
    """Every font a page or form uses: its name and whether its program is embedded."""
    from pypdf import PdfReader

    found: dict[str, bool] = {}

    def visit(resources) -> None:
        resources = resources.get_object() if resources is not None else {}
        for font in (resources.get("/Font") or {}).values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            found[str(font["/BaseFont"])] = any(key in descriptor for key in
                                                ("/FontFile", "/FontFile2", "/FontFile3"))
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form":
                visit(xobject.get("/Resources"))

    for page in PdfReader(pdf).pages:
        visit(page.get("/Resources"))
    return found
