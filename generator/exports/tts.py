"""Tabletop Simulator export: deck sheets, the back, and a saved object that loads them.

Tabletop Simulator (TTS) builds a custom deck from a *deck sheet*: one image
holding up to 10 x 7 card faces in a grid, read left to right, top to bottom.
Each card in the game names its picture by ``CardID = deck number * 100 +
slot``, where the deck number picks a sheet (a key of ``CustomDeck``) and the
slot counts from 0 at the top-left. The last slot of every sheet is kept free:
TTS may show it as the *hidden card* (what others see of a card in your hand);
we fill it with the shared back, and set ``BackIsHidden`` so TTS shows the back.

Cards that share one back get a single back image. Cards with backs of their
own (Goblins' fairy sides) get back sheets with the very same grid, and
``UniqueBack``: the back of slot 7 is slot 7 of the back sheet.

Every card drawn the same takes one slot, however many copies the deck holds;
the saved object lists every physical copy (``DeckIDs`` and one entry in
``ContainedObjects`` each, titled with the card's name), so the deck in TTS has
exactly the deck's counts.

Images are referenced by ``file://`` URLs, which work on the computer that
exported them. To share the deck, upload the images (TTS's Cloud Manager or
any image host) and replace the URLs in the JSON.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from generator.deck.model import Card
from generator.exports.printed import printed_cards
from generator.exports.raster import POINTS_PER_INCH, Raster, png_bytes
from generator.exports.staging import StagedFolder
from generator.render import Renderer

MAX_COLUMNS, MAX_ROWS = 10, 7
"""The largest grid TTS reads from one sheet."""
MIN_COLUMNS, MIN_ROWS = 2, 2
"""TTS's custom deck dialog asks for at least 2 x 2."""
MAX_SHEET_PIXELS = 4096
"""Longest side of a sheet: larger textures fail to load on many graphics cards."""
HIDDEN_FILL = (90, 90, 90)
"""The hidden-card slot when there is no shared back to put there."""
EMPTY_FILL = (255, 255, 255)
SLOT_NUMBER_BASE = 100
"""CardID = deck number * 100 + slot."""

CARD_STATE_DEFAULTS: dict[str, Any] = {
    "Description": "",
    "ColorDiffuse": {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259},
    "Locked": False,
    "Grid": True,
    "Snap": True,
    "Autoraise": True,
    "Sticky": True,
    "Tooltip": True,
    "GridProjection": False,
    "HideWhenFaceDown": True,
    "SidewaysCard": False,
    "LuaScript": "",
    "LuaScriptState": "",
    "XmlUI": "",
}
"""Settings TTS writes for every card and deck it saves; ours are the game's defaults."""
FACE_DOWN = {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
             "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}
"""Where the deck appears when loaded: at the table's centre, face down."""
SAVED_OBJECT_ENCODER = json.JSONEncoder(indent=2, ensure_ascii=False)
"""Indented as TTS writes its own saves, so the URLs are easy to find and replace."""
JSON_BYTES_PER_WRITE = 1 << 20
"""The encoder yields tiny pieces; gathered into writes of about a megabyte, a large deck saves
quickly and never sits in memory whole."""
DECK_IDS, CONTAINED, GUID_MARK = "\0deck ids\0", "\0contained objects\0", "\0guid\0"
"""Stand-ins for what :func:`saved_object_text` writes itself (no deck's text holds a NUL)."""
LIST_ITEMS_PER_WRITE = 1024
"""Card entries (a kilobyte or so each) written at a time: quick, and little held in memory."""
LIST_ITEM_INDENT, LIST_END_INDENT = " " * 8, " " * 6
"""Where the encoder puts the items of the deck's lists, and their closing bracket
(``ObjectStates`` -> the deck -> its lists: four and three levels of two spaces)."""


@dataclass(frozen=True)
class Sheet:
    """One deck sheet: a grid of faces, its back, and the TTS deck number they go under."""

    number: int
    columns: int
    rows: int
    cards: tuple[Card, ...]  # one card for each slot in use, in slot order
    face_path: Path
    back_path: Path          # a back sheet (unique backs) or the one shared back image

    @property
    def hidden_slot(self) -> int:
        return self.columns * self.rows - 1

    def card_id(self, slot: int) -> int:
        return self.number * SLOT_NUMBER_BASE + slot


@dataclass(frozen=True)
class TtsExport:
    """Everything a TTS export writes, decided before anything is drawn."""

    renderer: Renderer
    folder: Path
    card_px: tuple[int, int]
    unique_back: bool
    sheets: tuple[Sheet, ...]
    card_ids: dict[str, int]   # card id -> its CardID
    json_path: Path

    @property
    def raster(self) -> Raster:
        """Faces are drawn straight at sheet size (no bleed: TTS shows the trimmed card)."""
        width = self.renderer.card_size[0]
        return Raster(self.renderer.card_size, 0.0, self.card_px, dpi=self.card_px[0] * POINTS_PER_INCH / width)

    @property
    def shared_back_path(self) -> Path | None:
        return None if self.unique_back else self.sheets[0].back_path

    @property
    def steps(self) -> int:
        """Units of work for a progress bar: each face drawn, each file written."""
        slots = sum(len(sheet.cards) for sheet in self.sheets)
        faces = 2 * slots if self.unique_back else slots + 1
        files = 2 * len(self.sheets) if self.unique_back else len(self.sheets) + 1
        return faces + files + 1  # + the saved object


def card_pixels(card_size: tuple[float, float]) -> tuple[int, int]:
    """The largest card (keeping its proportions) of which a full 10 x 7 sheet fits 4096 px."""
    width, height = card_size
    scale = min(MAX_SHEET_PIXELS // MAX_COLUMNS / width, MAX_SHEET_PIXELS // MAX_ROWS / height)
    return (min(round(width * scale), MAX_SHEET_PIXELS // MAX_COLUMNS),
            min(round(height * scale), MAX_SHEET_PIXELS // MAX_ROWS))


def choose_grid(slots: int, card_px: tuple[int, int]) -> tuple[int, int]:
    """The smallest grid (columns, rows) with ``slots`` slots, the squarest image among equals."""
    width, height = card_px
    candidates = [(columns, rows)
                  for columns in range(MIN_COLUMNS, MAX_COLUMNS + 1)
                  for rows in range(MIN_ROWS, MAX_ROWS + 1)
                  if columns * rows >= slots]
    if not candidates:
        raise ValueError(f"{slots} slots do not fit one sheet")
    return min(candidates, key=lambda grid: (grid[0] * grid[1], abs(grid[0] * width - grid[1] * height),
                                             grid[1]))


def plan_tts_export(renderer: Renderer, folder: Path | str) -> TtsExport:
    """Sheets, grids and CardIDs for the deck; file names start with the deck's id."""
    deck = renderer.deck
    folder = Path(folder)
    printed = printed_cards(deck)
    unique_back = len({renderer.face_key(card, "back") for card in printed}) > 1
    slot_of: dict[tuple[str, str], int] = {}
    slot_cards: list[Card] = []
    card_slot: dict[str, int] = {}
    for card in printed:
        key = (renderer.face_key(card, "front"), renderer.face_key(card, "back") if unique_back else "")
        if key not in slot_of:
            slot_of[key] = len(slot_cards)
            slot_cards.append(card)
        card_slot[card.id] = slot_of[key]
    card_px = card_pixels(renderer.card_size)
    per_sheet = MAX_COLUMNS * MAX_ROWS - 1  # the last slot stays free for the hidden card
    sheets: list[Sheet] = []
    card_ids: dict[str, int] = {}
    for start in range(0, len(slot_cards), per_sheet):
        number = len(sheets) + 1
        cards = tuple(slot_cards[start:start + per_sheet])
        columns, rows = choose_grid(len(cards) + 1, card_px)
        back_path = (folder / f"{deck.output_name}-backs-{number}.png" if unique_back
                     else folder / f"{deck.output_name}-back.png")
        sheet = Sheet(number, columns, rows, cards, folder / f"{deck.output_name}-faces-{number}.png",
                      back_path)
        sheets.append(sheet)
        for card in printed:
            if start <= card_slot[card.id] < start + per_sheet:
                card_ids[card.id] = sheet.card_id(card_slot[card.id] - start)
    return TtsExport(renderer, folder, card_px, unique_back, tuple(sheets), card_ids,
                     folder / f"{deck.output_name}.json")


def compose_sheet(faces: list[Image.Image], columns: int, rows: int, card_px: tuple[int, int],
                  hidden: Image.Image | None) -> Image.Image:
    """Faces in slot order on a white RGB grid; the last slot gets ``hidden`` or a grey card."""
    width, height = card_px
    sheet = Image.new("RGB", (columns * width, rows * height), EMPTY_FILL)
    for slot, face in enumerate(faces):
        row, column = divmod(slot, columns)
        sheet.paste(face, (column * width, row * height))
    row, column = divmod(columns * rows - 1, columns)
    sheet.paste(hidden if hidden is not None else Image.new("RGB", card_px, HIDDEN_FILL),
                (column * width, row * height))
    return sheet


def custom_deck_entry(sheet: Sheet, unique_back: bool) -> dict[str, Any]:
    """One ``CustomDeck`` value: where the sheet and its back are and how the grid is cut."""
    return {
        "FaceURL": sheet.face_path.resolve().as_uri(),
        "BackURL": sheet.back_path.resolve().as_uri(),
        "NumWidth": sheet.columns,
        "NumHeight": sheet.rows,
        "BackIsHidden": True,
        "UniqueBack": unique_back,
        "Type": 0,  # a rectangular card
    }


def saved_object(export: TtsExport) -> dict[str, Any]:
    """The saved-object JSON: one deck (or a lone card) holding every copy of every card."""
    shared = _card_entries(export)
    cards = [{"GUID": guid, **shared[card.id]} for guid, card in _copies(export)]
    if len(cards) == 1:
        return _saved(export, cards[0])
    return _saved(export, _deck_state(export, [card["CardID"] for card in cards], cards))


def saved_object_text(export: TtsExport) -> Iterator[str]:
    """:func:`saved_object` as :data:`SAVED_OBJECT_ENCODER` writes it, piece by piece.

    The deck's two long lists (one CardID and one card entry a copy) are written
    here rather than by the encoder: each card's entry is formatted once and
    its copies differ only in their GUID, so a deck of many copies is written
    quickly and never held in memory whole.
    """
    copies = list(_copies(export))
    if len(copies) == 1:
        yield from SAVED_OBJECT_ENCODER.iterencode(saved_object(export))
        return
    shared = _card_entries(export)
    entries = {card_id: _entry_template(entry) for card_id, entry in shared.items()}
    lists = {json.dumps(DECK_IDS): lambda: (str(shared[card.id]["CardID"]) for _, card in copies),
             json.dumps(CONTAINED): lambda: (entries[card.id] % json.dumps(guid) for guid, card in copies)}
    separator = ",\n" + LIST_ITEM_INDENT
    for chunk in SAVED_OBJECT_ENCODER.iterencode(_saved(export, _deck_state(export, DECK_IDS, CONTAINED))):
        if chunk not in lists:
            yield chunk
            continue
        items, before = lists[chunk](), "[\n" + LIST_ITEM_INDENT
        while batch := list(itertools.islice(items, LIST_ITEMS_PER_WRITE)):
            yield before + separator.join(batch)
            before = separator
        yield "\n" + LIST_END_INDENT + "]"


def _card_entries(export: TtsExport) -> dict[str, dict[str, Any]]:
    """Each printed card's entry in the saved object, without its GUID (each copy has its own)."""
    entries = {sheet.number: custom_deck_entry(sheet, export.unique_back) for sheet in export.sheets}
    shared: dict[str, dict[str, Any]] = {}
    for card in printed_cards(export.renderer.deck):
        card_id = export.card_ids[card.id]
        number = card_id // SLOT_NUMBER_BASE
        shared[card.id] = {
            "Name": "Card",
            "Transform": dict(FACE_DOWN),
            "Nickname": export.renderer.title(card, "front"),
            "GMNotes": card.id,
            **CARD_STATE_DEFAULTS,
            "Hands": True,
            "CardID": card_id,
            "CustomDeck": {str(number): entries[number]},
        }
    return shared


def _copies(export: TtsExport) -> Iterator[tuple[str, Card]]:
    """(GUID, card) for every physical card, in deck order."""
    deck = export.renderer.deck
    guids = _unique_guids(deck.id, taken={_guid(deck.id, "deck")})
    return ((guid, card) for guid, (card, _copy) in zip(guids, deck.copies(), strict=False))  # the GUIDs never end


def _entry_template(entry: dict[str, Any]) -> str:
    """A card entry as the encoder writes it inside the deck's list, with ``%s`` for its GUID."""
    text = json.dumps({"GUID": GUID_MARK, **entry}, indent=SAVED_OBJECT_ENCODER.indent, ensure_ascii=False)
    return text.replace("%", "%%").replace(json.dumps(GUID_MARK), "%s").replace("\n", "\n" + LIST_ITEM_INDENT)


def _deck_state(export: TtsExport, deck_ids: Any, contained: Any) -> dict[str, Any]:
    deck = export.renderer.deck
    entries = {sheet.number: custom_deck_entry(sheet, export.unique_back) for sheet in export.sheets}
    return {
        "GUID": _guid(deck.id, "deck"),
        "Name": "DeckCustom",
        "Transform": dict(FACE_DOWN),
        "Nickname": deck.name,
        "GMNotes": deck.id,
        **CARD_STATE_DEFAULTS,
        "Hands": False,
        "DeckIDs": deck_ids,
        "CustomDeck": {str(number): entry for number, entry in entries.items()},
        "ContainedObjects": contained,
    }


def _saved(export: TtsExport, state: dict[str, Any]) -> dict[str, Any]:
    deck = export.renderer.deck
    return {
        "SaveName": deck.name,
        "GameMode": "",
        "Date": "",
        "Gravity": 0.5,
        "PlayArea": 0.5,
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": [state],
        "TabStates": {},
        "VersionNumber": "",
    }


def tts_faces(export: TtsExport) -> list[tuple[Card, str]]:
    """Every face the sheets show, in the order :class:`SheetWriter` takes them: the shared
    back (if cards share one), then each sheet's fronts, then its backs (if cards have their own)."""
    faces = [] if export.unique_back else [(export.sheets[0].cards[0], "back")]
    for sheet in export.sheets:
        for side in ("front", "back") if export.unique_back else ("front",):
            faces.extend((card, side) for card in sheet.cards)
    return faces


class SheetWriter:
    """Takes the faces of :func:`tts_faces` one by one and stages each image as soon as it is
    complete: the back, then each sheet; the saved object comes last (:meth:`finish`)."""

    def __init__(self, export: TtsExport, staged: StagedFolder):
        self._export = export
        self._staged = staged
        self._shared_back: Image.Image | None = None
        self._waiting = [(sheet, side) for sheet in export.sheets
                         for side in (("front", "back") if export.unique_back else ("front",))]
        self._faces: list[Image.Image] = []

    def add(self, face: Image.Image) -> list[Path]:
        """One more face; the paths of the images it completed (staged, to be committed)."""
        export = self._export
        shared_back = export.shared_back_path
        if shared_back is not None and self._shared_back is None:
            self._shared_back = face
            return [self._staged.write_bytes(shared_back.name, png_bytes(face))]
        self._faces.append(face)
        sheet, side = self._waiting[0]
        if len(self._faces) < len(sheet.cards):
            return []
        self._waiting.pop(0)
        image = compose_sheet(self._faces, sheet.columns, sheet.rows, export.card_px, self._shared_back)
        self._faces = []
        path = sheet.face_path if side == "front" else sheet.back_path
        return [self._staged.write_bytes(path.name, png_bytes(image))]

    def finish(self) -> Path:
        """Stage the saved object, once every sheet is staged."""
        export = self._export
        if self._waiting:
            raise RuntimeError("the saved object is written after every sheet")
        with self._staged.stream(export.json_path.name) as stream:
            # Written as it is encoded: for a deck of many copies the text runs to many megabytes.
            pending, size = [], 0
            for chunk in saved_object_text(export):
                pending.append(chunk)
                size += len(chunk)
                if size >= JSON_BYTES_PER_WRITE:
                    stream.write("".join(pending).encode("utf-8"))
                    pending, size = [], 0
            stream.write("".join(pending).encode("utf-8") + b"\n")
        return export.json_path


def tts_staging(export: TtsExport) -> StagedFolder:
    """Where a TTS export's files wait until all of them are drawn."""
    return StagedFolder(export.folder, export.renderer.deck.output_name, "tts")




def _guid(deck_id: str, what: object) -> str:
    """A stable six-hex-digit GUID, as TTS writes them."""
    return hashlib.sha1(f"{deck_id}/{what}".encode()).hexdigest()[:6]


def _unique_guids(deck_id: str, taken: set[str]) -> Iterator[str]:
    """GUIDs for copy 0, 1, 2, ...: stable, and different from each other and from ``taken``.

    Six hex digits clash now and then in a deck of many thousand copies; the
    copy then takes the next free GUID in its own sequence (``<index>.1``, ...).
    """
    taken = set(taken)
    for index in itertools.count():
        guid, retry = _guid(deck_id, index), 0
        while guid in taken:
            retry += 1
            guid = _guid(deck_id, f"{index}.{retry}")
        taken.add(guid)
        yield guid
