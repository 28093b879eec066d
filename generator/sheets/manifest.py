"""The layout manifest: where every physical card face is on the printed sheets, as JSON.

Print shops, cutting machines and tests read it. The file is one JSON object:
the settings first (paper, card size, duplex mode, back offset), then
``placements``, one line per card face in page order::

    {"deck":"cereal-killer","card":"frankenflakes","face":"front",
     "title":"Frankenflakes","copy":3,"page":2,
     "trim_box":[x,y,width,height],"rotation":0,"fields":{...}}

Lengths are PDF points with the origin at the page's bottom-left corner.
A build for a cutting machine adds ``cutter`` (its marks' settings, each mark's
``ink`` rectangles and ``box``, and the ``rectangle`` they enclose, which every
card lies in), the ``corner_radius`` of the cut paths and the ``cut_file``'s name.
``fonts`` maps each font family the faces use to where each face's file came from
(``{"DejaVuSans": {"regular": "deckpress:DejaVuSans.ttf", ...}}``; a font installed on
the computer by its absolute path), so two builds that differ between machines can
be told apart.
``rotation`` is how far the face is turned within its trim box, in degrees
anticlockwise: 180 for backs below a fold line running across the page
(``--duplex fold``), so a folded card reads upright turned over sideways;
0 everywhere else.
``version`` is the deck's version (its ``deck: version:``, else its files' last git
commit, ``null`` when neither is known), the one printed on every face and in the footers.
After the placements, ``deck_cards`` lists every card of the deck (not only those these sheets
print) with its ``count`` and a ``front`` and ``back`` fingerprint of what each face draws,
under ``fingerprints`` (the way they were made): ``build --changed-from`` compares a deck
with the copy a manifest describes by them. A build that prints only some copies says so:
``only`` (the selectors it was given) or ``reprint`` (what to take out of the printed deck
and what its sheets add, as its first pages say; see :mod:`generator.sheets.instructions`).
``fields`` are the fields printed on that face. Placements are written as
they are made, so a manifest of 100,000 cards never sits in memory whole, and
written without spaces: a deck of many copies repeats each line many times.
What every copy of a face shares, and what every card in one slot of the
sheet shares, is formatted once (:meth:`ManifestWriter.face_parts`,
:meth:`ManifestWriter.position`); a placement only adds its copy and page.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, TextIO

from generator.sheets.cutting import Registration
from generator.sheets.geometry import SheetLayout
from generator.sheets.style import MM

COMPACT = (",", ":")
"""JSON separators without spaces."""


@dataclass(frozen=True, eq=False, repr=False)
class CardRecord:
    """One card of the deck as a build draws it: what ``build --changed-from`` compares. The manifest's
    ``deck_cards`` lists its fields as they are, in this order."""

    card: str
    title: str
    count: int
    front: str
    """A fingerprint of everything the front draws (equal fingerprints, equal faces)."""
    back: str


@dataclass(frozen=True, eq=False, repr=False)
class DeckRecord:
    """Every card of the deck with its faces' fingerprints, made the way ``scheme`` names."""

    scheme: str
    cards: Sequence[CardRecord]


def back_offset_mm(layout: SheetLayout) -> tuple[float, float]:
    """The back offset the sheets print with, in millimetres as ``--back-offset`` takes it and the
    manifest records it (``back_offset_mm``)."""
    offset_x, offset_y = layout.settings.back_offset
    return round(offset_x / MM, 3) + 0.0, round(offset_y / MM, 3) + 0.0


def manifest_header(deck_id: str, deck_name: str, layout: SheetLayout, cards: int,
                    pages: int, lang: str | None = None, cut_file: str | None = None,
                    fonts: dict[str, dict[str, str]] | None = None, version: str | None = None,
                    run: dict[str, Any] | None = None) -> dict[str, Any]:
    """The settings at the top of a manifest (``lang``: the translation printed, if any;
    ``cut_file``: the name of the cut file written beside it, if any; ``fonts``: where each
    font family's files came from, if known; ``version``: the deck's; ``run``: what a build
    that prints only some copies says of them, ``{"only": [...]}`` or ``{"reprint": {...}}``)."""
    paper = layout.paper
    offset_x, offset_y = layout.settings.back_offset
    cutting = layout.registration is not None or cut_file is not None
    return {
        "deck": deck_id,
        "name": deck_name,
        "version": version,
        **({"lang": lang} if lang else {}),
        "units": "pt",
        "paper": {"name": paper.name, "orientation": paper.orientation,
                  "width": round(paper.width, 3), "height": round(paper.height, 3)},
        "card_size": [round(layout.card_width, 3), round(layout.card_height, 3)],
        "bleed": round(layout.bleed, 3),
        "duplex": layout.duplex,
        "back_offset": [round(offset_x, 3) + 0.0, round(offset_y, 3) + 0.0],
        "back_offset_mm": list(back_offset_mm(layout)),
        "cards_per_sheet": layout.cards_per_sheet,
        "cards": cards,
        "pages": pages,
        **({"draft": True} if layout.settings.draft else {}),
        **({"cutter": cutter_header(layout.registration)} if layout.registration else {}),
        **({"cut_file": cut_file} if cut_file else {}),
        **({"corner_radius": round(layout.settings.corner_radius, 3) + 0.0,
            "corner_radius_mm": round(layout.settings.corner_radius / MM, 3) + 0.0} if cutting else {}),
        **({"fonts": fonts} if fonts is not None else {}),
        **(run or {}),
    }


def cutter_header(registration: Registration) -> dict[str, Any]:
    """The registration marks of every front page: their settings, each mark's ink rectangles and
    bounds, and the rectangle they enclose (points, as every box of the manifest)."""
    settings = registration.settings
    return {
        "name": settings.cutter.name,
        "label": settings.cutter.label,
        "inset_mm": round(settings.inset / MM, 3),
        "thickness_mm": round(settings.thickness / MM, 3),
        "length_mm": round(registration.length / MM, 3),
        "clear_mm": round(settings.clear / MM, 3),
        "rectangle": registration.rectangle.rounded(),
        "marks": [{"kind": mark.kind, "corner": mark.corner, "box": mark.bounds.rounded(),
                   "ink": [box.rounded() for box in mark.ink]} for mark in registration.marks],
    }


UNICODE_JSON = json.JSONEncoder(ensure_ascii=False, default=str, separators=COMPACT)
"""The encoder of titles and fields: compact, non-ASCII kept as it is, anything else as
text. Made once: ``json.dumps`` with options makes a new encoder every call."""


class ManifestWriter:
    """Writes the header, then placements a page at a time, then closes the JSON."""

    def __init__(self, stream: TextIO, header: dict[str, Any]):
        self._stream = stream
        self._separator = "\n"
        settings = ",".join(f"{json.dumps(key)}:{json.dumps(value, ensure_ascii=False, separators=COMPACT)}"
                            for key, value in header.items())
        stream.write(f'{{{settings},"placements":[')

    @staticmethod
    def face_parts(deck_id: str, card_id: str, face: str, title: str,
                   fields: dict[str, Any]) -> tuple[str, str]:
        """The parts of a placement line that every copy of a face shares (made once, reused)."""
        head = (f'{{"deck":{json.dumps(deck_id)},"card":{json.dumps(card_id)},'
                f'"face":"{face}","title":{UNICODE_JSON.encode(title)},')
        tail = f',"fields":{UNICODE_JSON.encode(fields)}}}'
        return head, tail

    @staticmethod
    def position(trim_box: list[float], rotation: int = 0) -> str:
        """The part of a placement line that every card in one slot shares: where it is."""
        return f'"trim_box":[{",".join(map(repr, trim_box))}],"rotation":{rotation}'

    @staticmethod
    def placement(parts: tuple[str, str], copy: int, page: int, position: str) -> str:
        """One placement: a face's parts (:meth:`face_parts`) around its copy, page and position."""
        head, tail = parts
        return f'{head}"copy":{copy},"page":{page},{position}{tail}'

    def add(self, placements: list[str]) -> None:
        """Write placements made by :meth:`placement` (a page's worth), one a line."""
        if placements:
            self._stream.write(self._separator + ",\n".join(placements))
            self._separator = ",\n"

    def close(self, record: DeckRecord | None = None) -> None:
        """End the placements; then the deck's cards and their fingerprints, when given, one a line."""
        if record is None:
            self._stream.write("\n]}\n")
            return
        cards = ",\n".join(UNICODE_JSON.encode(asdict(card)) for card in record.cards)
        self._stream.write(f'\n],"fingerprints":{json.dumps(record.scheme)},"deck_cards":[\n{cards}\n]}}\n')
