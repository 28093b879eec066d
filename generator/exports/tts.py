"""Tabletop Simulator export: deck sheets, backs, and a saved object that loads them.

Tabletop Simulator (TTS) builds a custom deck from a *deck sheet*: one image
holding up to 10 x 7 card faces in a grid, read left to right, top to bottom.
Each card in the game names its picture by ``CardID = deck number * 100 +
slot``, where the deck number picks a sheet (a key of ``CustomDeck``) and the
slot counts from 0 at the top-left. With ``BackIsHidden`` TTS shows a card's
back as its *hidden card* (what others see of a card in your hand), so every
one of the 70 slots holds a card (Berserk Games' knowledge base,
custom-content/custom-deck.md).

**Piles.** A deck whose cards show different backs (a party game's question
and answer cards) is exported as one TTS deck per back that several cards
share (see :mod:`~generator.exports.backs`), each a pile of its own, side by
side; cards whose backs are their own (Goblins' fairy sides) make one more
pile, with back sheets of the very same grid and ``UniqueBack``: the back of
slot 7 is slot 7 of the back sheet. ``--tts-split FIELD`` makes one pile per
value of a field instead. Each pile's sheets have their own deck numbers, so
every CardID in the saved object is different.

**Sizes.** TTS reads sheets up to 4096 px a side (knowledge base,
custom-content/asset-resolution.md). A pile on one sheet gets the grid whose
cards come out largest within that, so small decks are sharp; a pile of more
than 70 cards has full 10 x 7 sheets with cards sized for those, and a last
sheet just large enough for the rest.

**Shape.** ``Type`` 0 is a card with rounded corners, 1 one with square
corners: 1 is written only when the deck's layouts say ``corner_radius: 0``.

Every card drawn the same takes one slot, however many copies the deck holds;
the saved object lists every physical copy (``DeckIDs`` and one entry in
``ContainedObjects`` each, titled with the card's name), so the deck in TTS has
exactly the deck's counts. The JSON is built from data by the json module
(:mod:`~generator.exports.jsonwriter`): no text of the deck is put into other
text, so a title may hold anything.

Images are referenced by ``file://`` URLs, which work on the computer that
exported them, or, with ``--url-base``, by the address they will have once the
folder is uploaded there.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from generator.deck.model import Card
from generator.exports.backs import SharedBack, back_file_name, sort_backs
from generator.exports.bands import Band, png_from_bands
from generator.exports.jsonwriter import Items, Joined, Shared, pieces
from generator.exports.printed import printed_cards
from generator.exports.raster import POINTS_PER_INCH, Raster
from generator.exports.staging import StagedFolder
from generator.render import Renderer

MAX_COLUMNS, MAX_ROWS = 10, 7
"""The largest grid TTS reads from one sheet."""
SLOTS_PER_SHEET = MAX_COLUMNS * MAX_ROWS
MIN_COLUMNS, MIN_ROWS = 1, 1
"""The smallest grid written: TTS's knowledge base sets no least Width or Height for a custom deck,
and tools that write saved objects use 1 x 1 and 2 x 1 sheets, so a lone card gets a sheet of
its own and two cards one row, each card as large as 4096 px allows."""
MAX_SHEET_PIXELS = 4096
"""Longest side of a sheet: TTS's knowledge base asks for images under 4096 x 4096, as larger
textures fail to load on many graphics cards."""
SLOT_NUMBER_BASE = 100
"""CardID = deck number * 100 + slot."""
CARD_TYPE_ROUNDED, CARD_TYPE_SQUARE = 0, 1
"""``CustomDeck.Type``: 0 RectangleRounded, 1 Rectangle (tts-deckconverter's tts/structs.go)."""
MAX_PILES = 100
"""Piles in one saved object. Each is a deck sheet at least, and TTS lays them out on its table;
a split that makes more (a field that differs on every card) is a mistake. Without --tts-split, a
deck with more different shared backs than this is exported as one pile with back sheets."""
PILES_PER_ROW, PILE_SPACING = 10, (3.0, 4.0)
"""Piles are laid out in rows of ten, this far apart (TTS units, x and z): a card at scale 1
is about 2.2 by 3 units, so neighbouring piles do not touch and do not merge."""
MAX_URL_BASE_LENGTH = 2000
"""Characters in ``--url-base``: longer addresses fail in many browsers and servers."""

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
"""Where a pile appears when loaded, face down: the first at the table's centre."""
JSON_BYTES_PER_WRITE = 1 << 20
"""The saved object is written in pieces of about a megabyte: a large deck saves quickly and
never sits in memory whole."""


@dataclass(repr=False, eq=False)
class Grid:
    """One image an export writes: faces in a grid, left to right, top to bottom."""

    path: Path
    columns: int
    rows: int
    card_px: tuple[int, int]
    faces: tuple[tuple[Card, str], ...]  # (card, side) for each slot in use, in slot order

    @property
    def size_px(self) -> tuple[int, int]:
        return (self.columns * self.card_px[0], self.rows * self.card_px[1])

    def row_faces(self, row: int) -> tuple[tuple[Card, str], ...]:
        return self.faces[row * self.columns:(row + 1) * self.columns]


@dataclass(repr=False, eq=False)
class Sheet:
    """One deck sheet of a pile: its faces, its back, and the TTS deck number they go under."""

    number: int
    faces: Grid
    back: Grid  # a back sheet with the same grid (unique backs), or the pile's one back image
    unique_back: bool

    @property
    def columns(self) -> int:
        return self.faces.columns

    @property
    def rows(self) -> int:
        return self.faces.rows

    def card_id(self, slot: int) -> int:
        return self.number * SLOT_NUMBER_BASE + slot


@dataclass(repr=False, eq=False)
class Pile:
    """One TTS deck of the saved object (a lone card if it holds one copy)."""

    name: str                  # its nickname in TTS
    cards: tuple[Card, ...]    # the printed cards it holds, in deck order
    sheets: tuple[Sheet, ...]


@dataclass(repr=False, eq=False)
class TtsExport:
    """Everything a TTS export writes, decided before anything is drawn."""

    renderer: Renderer
    folder: Path
    piles: tuple[Pile, ...]
    images: tuple[Grid, ...]   # every image, each once, in the order they are written
    card_ids: dict[str, int]   # card id -> its CardID
    json_path: Path
    card_type: int = CARD_TYPE_ROUNDED
    url_base: str | None = None  # checked by check_url_base; None for file:// URLs

    @property
    def sheets(self) -> tuple[Sheet, ...]:
        return tuple(sheet for pile in self.piles for sheet in pile.sheets)

    def raster(self, image: Grid) -> Raster:
        """Faces are drawn straight at their slot's size (no bleed: TTS shows the trimmed card)."""
        width = self.renderer.card_size[0]
        return Raster(self.renderer.card_size, 0.0, image.card_px, dpi=image.card_px[0] * POINTS_PER_INCH / width)

    def url(self, path: Path) -> str:
        """Where TTS finds an image the export writes."""
        if self.url_base is None:
            return path.resolve().as_uri()
        return self.url_base + quote(path.name)

    @property
    def steps(self) -> int:
        """Units of work for a progress bar: each band drawn (a row of cards of an image), each
        file written."""
        return sum(image.rows for image in self.images) + len(self.images) + 1  # + the saved object


# --- planning ---------------------------------------------------------------------------------------


def card_pixels(card_size: tuple[float, float], columns: int = MAX_COLUMNS, rows: int = MAX_ROWS) -> tuple[int, int]:
    """The largest card (keeping its proportions) of which ``columns`` x ``rows`` fit 4096 px a side."""
    width, height = card_size
    most_wide, most_high = MAX_SHEET_PIXELS // columns, MAX_SHEET_PIXELS // rows
    scale = min(most_wide / width, most_high / height)
    return (max(1, min(round(width * scale), most_wide)), max(1, min(round(height * scale), most_high)))


def _grids(slots: int) -> list[tuple[int, int]]:
    """Every grid (columns, rows) with at least ``slots`` slots; ValueError if none has."""
    grids = [(columns, rows) for columns in range(MIN_COLUMNS, MAX_COLUMNS + 1)
             for rows in range(MIN_ROWS, MAX_ROWS + 1) if columns * rows >= slots]
    if not grids:
        raise ValueError(f"{slots} slots do not fit one sheet")
    return grids


def choose_grid(slots: int, card_px: tuple[int, int]) -> tuple[int, int]:
    """The smallest grid (columns, rows) with ``slots`` slots for cards of ``card_px``, the
    squarest image among equals."""
    width, height = card_px
    return min(_grids(slots), key=lambda grid: (grid[0] * grid[1], abs(grid[0] * width - grid[1] * height), grid[1]))


def sharpest_grid(slots: int, card_size: tuple[float, float]) -> tuple[int, int]:
    """The grid with ``slots`` slots whose cards are largest within 4096 px a side; among
    equals the one with fewest slots, then fewest rows."""
    def sharpness(grid: tuple[int, int]) -> tuple[int, int, int]:
        width, height = card_pixels(card_size, *grid)
        return (-width * height, grid[0] * grid[1], grid[1])

    return min(_grids(slots), key=sharpness)


def pile_grids(slots: int, card_size: tuple[float, float]) -> tuple[tuple[int, int], list[tuple[int, int, int]]]:
    """A pile's card size and its sheets' (columns, rows, slots used) for ``slots`` different faces."""
    if slots <= SLOTS_PER_SHEET:
        columns, rows = sharpest_grid(slots, card_size)
        return card_pixels(card_size, columns, rows), [(columns, rows, slots)]
    card_px = card_pixels(card_size)
    sheets = [(MAX_COLUMNS, MAX_ROWS, SLOTS_PER_SHEET)] * (slots // SLOTS_PER_SHEET)
    rest = slots % SLOTS_PER_SHEET
    if rest:
        sheets.append((*choose_grid(rest, card_px), rest))
    return card_px, sheets


@dataclass(repr=False, eq=False)
class _Group:
    """The cards of one pile before it is laid out: their label and their shared back, if one."""

    label: str
    cards: tuple[Card, ...]
    back: SharedBack | None


def _groups(renderer: Renderer, printed: list[Card], split: str | None) -> list[_Group]:
    """The piles' cards: by shared back (see the module docstring), or by ``split`` field."""
    backs = sort_backs(renderer, printed)
    if split is None:
        piles = len(backs.shared) + (1 if backs.own else 0)
        if piles == 1 or piles > MAX_PILES:
            return [_Group("", tuple(printed), backs.shared[0] if piles == 1 and not backs.own else None)]
        groups = [_Group(renderer.title(back.card, "back") or f"back {number}", back.cards, back)
                  for number, back in enumerate(backs.shared, 1)]
        if backs.own:
            groups.append(_Group("double-sided", backs.own, None))
        place = {card.id: index for index, card in enumerate(printed)}
        return sorted(groups, key=lambda group: place[group.cards[0].id])
    by_value: dict[str, list[Card]] = {}
    labels: dict[str, str] = {}
    for card in printed:
        value = card.fields.get(split)
        key = repr(value)
        labels.setdefault(key, f"no {split}" if value in (None, "") else str(value))
        by_value.setdefault(key, []).append(card)
    if len(by_value) > MAX_PILES:
        raise ValueError(f"--tts-split {split} makes {len(by_value):,} piles, one for each of its values; "
                         f"at most {MAX_PILES} can be laid out")
    groups = []
    for key, cards in by_value.items():
        keys = {backs.key_of[card.id] for card in cards}
        groups.append(_Group(labels[key] if len(by_value) > 1 else "", tuple(cards),
                             SharedBack(keys.pop(), tuple(cards)) if len(keys) == 1 else None))
    return groups


def plan_tts_export(renderer: Renderer, folder: Path | str, split: str | None = None,
                    url_base: str | None = None) -> TtsExport:
    """Piles, sheets, grids and CardIDs for the deck; file names start with the deck's id.

    ``split`` names a field: one pile per value (ValueError if there would be more than
    :data:`MAX_PILES`). ``url_base`` must have passed :func:`check_url_base`.
    """
    deck = renderer.deck
    folder = Path(folder)
    name = deck.output_name
    groups = _groups(renderer, printed_cards(deck), split)
    shared_keys = {group.back.key for group in groups if group.back is not None}
    back_images: dict[str, Grid] = {}
    images: list[Grid] = []
    piles: list[Pile] = []
    card_ids: dict[str, int] = {}
    number = 0
    for group in groups:
        unique = group.back is None
        slot_of: dict[tuple[str, str], int] = {}
        slot_cards: list[Card] = []
        card_slots: dict[str, int] = {}  # card id -> its slot in the pile
        for card in group.cards:
            key = (renderer.face_key(card, "front"), renderer.face_key(card, "back") if unique else "")
            slot = slot_of.setdefault(key, len(slot_cards))
            card_slots[card.id] = slot
            if slot == len(slot_cards):
                slot_cards.append(card)
        card_px, grids = pile_grids(len(slot_cards), renderer.card_size)
        shared_back = None
        if group.back is not None:
            shared_back = back_images.get(group.back.key)
            if shared_back is None:
                back_name = f"{name}-back.png" if len(shared_keys) == 1 else back_file_name(f"{name}-back-",
                                                                                            group.back.key)
                shared_back = back_images[group.back.key] = Grid(folder / back_name, 1, 1, card_px,
                                                                 ((group.back.card, "back"),))
                images.append(shared_back)
        sheets = []
        start = 0
        for columns, rows, used in grids:
            number += 1
            cards = slot_cards[start:start + used]
            faces = Grid(folder / f"{name}-faces-{number}.png", columns, rows, card_px,
                         tuple((card, "front") for card in cards))
            back = (Grid(folder / f"{name}-backs-{number}.png", columns, rows, card_px,
                         tuple((card, "back") for card in cards)) if shared_back is None else shared_back)
            images.extend((faces, back) if shared_back is None else (faces,))
            sheets.append(Sheet(number, faces, back, shared_back is None))
            start += used
        for card in group.cards:
            sheet_index, slot = divmod(card_slots[card.id], SLOTS_PER_SHEET)
            card_ids[card.id] = sheets[sheet_index].card_id(slot)
        label = f"{deck.name}: {group.label}" if group.label else deck.name
        piles.append(Pile(label, group.cards, tuple(sheets)))
    square = all(layout.corner_radius == 0 for layout in renderer.layouts.values())
    return TtsExport(renderer, folder, tuple(piles), tuple(images), card_ids, folder / f"{name}.json",
                     CARD_TYPE_SQUARE if square else CARD_TYPE_ROUNDED, url_base)


def check_url_base(url: str) -> str:
    """``url`` as the base of image addresses (ending in ``/``); ValueError saying what is wrong.

    Only web addresses (http or https, with a host) are taken: TTS fetches images from
    them, and the address is written into a file others load. Control characters and
    spaces, which no address holds, are refused rather than written.
    """
    if len(url) > MAX_URL_BASE_LENGTH:
        raise ValueError(f"is {len(url):,} characters long; at most {MAX_URL_BASE_LENGTH:,}")
    bad = next((character for character in url if ord(character) <= 0x20 or 0x7F <= ord(character) <= 0x9F), None)
    if bad is not None:
        raise ValueError(f"holds {_shown(bad)}, which no web address does")
    if not url.isascii():
        raise ValueError("holds characters outside ASCII; write the address as a browser copies it, "
                         "percent-encoded")
    try:
        parts = urlsplit(url)
        _ = parts.port  # a port that is not a number raises ValueError
    except ValueError as error:
        raise ValueError(f"is not a web address ({error})") from None
    if parts.scheme.lower() not in ("http", "https"):
        written = f"{parts.scheme}:" if parts.scheme else "nothing"
        raise ValueError(f"must start with http:// or https://, not {written}")
    if not parts.hostname:
        raise ValueError("names no host (as in https://example.com/decks/)")
    if parts.username is not None or parts.password is not None:
        raise ValueError("holds a user name or password, which everyone given the deck would see")
    if parts.query or parts.fragment or url.endswith(("?", "#")):
        raise ValueError("is a folder's address: file names go at its end, so it has no '?' or '#' part")
    return url if url.endswith("/") else url + "/"


def _shown(character: str) -> str:
    return "a space" if character == " " else f"the control character \\x{ord(character):02x}"


# --- the saved object ----------------------------------------------------------------------------------


def custom_deck_entry(export: TtsExport, sheet: Sheet) -> dict[str, Any]:
    """One ``CustomDeck`` value: where the sheet and its back are and how the grid is cut."""
    return {
        "FaceURL": export.url(sheet.faces.path),
        "BackURL": export.url(sheet.back.path),
        "NumWidth": sheet.columns,
        "NumHeight": sheet.rows,
        "BackIsHidden": True,
        "UniqueBack": sheet.unique_back,
        "Type": export.card_type,
    }


def saved_object_text(export: TtsExport) -> Iterator[str]:
    """The saved object, every pile and every copy, as ``json.dumps(..., indent=2, ensure_ascii=False)``
    writes it, piece by piece. The long lists (a CardID and an entry for each copy) are made as they are written,
    and each card's entry is encoded once for all its copies, so a deck of many copies is
    written quickly and never held in memory whole."""
    return pieces(_saved(export))


def _saved(export: TtsExport) -> dict[str, Any]:
    deck = export.renderer.deck
    pile_guids = [_guid(deck.id, "deck" if index == 0 else f"deck/{index}") for index in range(len(export.piles))]
    guids = _unique_guids(deck.id, taken=set(pile_guids))  # taken by the copies of the piles in turn
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
        "ObjectStates": [_pile_state(export, pile, index, pile_guids[index], guids)
                         for index, pile in enumerate(export.piles)],
        "TabStates": {},
        "VersionNumber": "",
    }


def _pile_state(export: TtsExport, pile: Pile, index: int, guid: str, guids: Iterator[str]) -> dict[str, Any]:
    """A pile's object state: a deck holding every copy, its GUIDs the next of ``guids``, or a
    lone card (with the pile's own GUID)."""
    deck = export.renderer.deck
    row, column = divmod(index, PILES_PER_ROW)
    where = {**FACE_DOWN, "posX": column * PILE_SPACING[0], "posZ": 0.0 - row * PILE_SPACING[1]}
    entries = {sheet.number: custom_deck_entry(export, sheet) for sheet in pile.sheets}
    shared = {card.id: _card_entry(export, card, entries) for card in pile.cards}
    if sum(card.count for card in pile.cards) == 1:
        return {"GUID": guid, **shared[pile.cards[0].id], "Transform": where}

    def copies() -> Iterator[Card]:
        return (card for card in pile.cards for _copy in range(card.count))

    def copy_ids() -> Iterator[int]:
        return (export.card_ids[card.id] for card in copies())

    def contained() -> Iterator[Joined]:
        entry_of = {card_id: Shared(entry) for card_id, entry in shared.items()}
        # The copies first: zip stops at their end without taking one more GUID.
        return (Joined(({"GUID": card_guid}, entry_of[card.id]))
                for card, card_guid in zip(copies(), guids, strict=False))

    description = deck.info.get("description")
    return {
        "GUID": guid,
        "Name": "DeckCustom",
        "Transform": where,
        "Nickname": pile.name,
        "GMNotes": deck.id,
        **CARD_STATE_DEFAULTS,
        "Description": description if isinstance(description, str) else "",
        "SidewaysCard": _sideways(export),
        "Hands": False,
        "DeckIDs": Items(copy_ids),
        "CustomDeck": {str(number): entry for number, entry in entries.items()},
        "ContainedObjects": Items(contained),
    }


def _sideways(export: TtsExport) -> bool:
    """Whether the cards are wider than tall: TTS then zooms in on them (Alt) turned that way."""
    width, height = export.renderer.card_size
    return width > height


def _card_entry(export: TtsExport, card: Card, entries: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """A printed card's entry in the saved object, without its GUID (each copy has its own)."""
    card_id = export.card_ids[card.id]
    number = card_id // SLOT_NUMBER_BASE
    return {
        "Name": "Card",
        "Transform": FACE_DOWN,
        "Nickname": export.renderer.title(card, "front"),
        "GMNotes": card.id,
        **CARD_STATE_DEFAULTS,
        "SidewaysCard": _sideways(export),
        "Hands": True,
        "CardID": card_id,
        "CustomDeck": {str(number): entries[number]},
    }


def _guid(deck_id: str, what: object) -> str:
    """A stable six-hex-digit GUID, as TTS writes them."""
    return hashlib.sha1(f"{deck_id}/{what}".encode()).hexdigest()[:6]


def _unique_guids(deck_id: str, taken: set[str]) -> Iterator[str]:
    """GUIDs for copy 0, 1, 2, ...: stable, and different from each other and from ``taken``.

    Six hex digits clash now and then in a deck of many thousand copies; the
    copy then takes the next free GUID in its own sequence (``<index>.1``, ...).
    Which GUIDs are taken is kept as one bit each of the 16,777,216 there are (2 MB),
    whatever the number of copies.
    """
    used = bytearray(1 << 21)
    for guid in taken:
        value = int(guid, 16)
        used[value >> 3] |= 1 << (value & 7)
    for index in itertools.count():
        guid, retry = _guid(deck_id, index), 0
        while used[int(guid, 16) >> 3] & (1 << (int(guid, 16) & 7)):
            retry += 1
            guid = _guid(deck_id, f"{index}.{retry}")
        value = int(guid, 16)
        used[value >> 3] |= 1 << (value & 7)
        yield guid


# --- writing -----------------------------------------------------------------------------------------------


class SheetWriter:
    """Takes the bands of :attr:`TtsExport.images` in order, a row of cards each, and stages each
    image as soon as its last band is in; the saved object comes last (:meth:`finish`)."""

    def __init__(self, export: TtsExport, staged: StagedFolder):
        self._export = export
        self._staged = staged
        self._waiting = list(export.images)[::-1]
        self._bands: list[Band] = []

    def add(self, band: Band) -> list[Path]:
        """One more band; the path of the image it completed, if it did (staged, to be committed)."""
        image = self._waiting[-1]
        self._bands.append(band)
        if len(self._bands) < image.rows:
            return []
        self._waiting.pop()
        data = png_from_bands(image.size_px, self._bands)
        self._bands = []
        return [self._staged.write_bytes(image.path.name, data)]

    def finish(self) -> Path:
        """Stage the saved object, once every image is staged."""
        export = self._export
        if self._waiting:
            raise RuntimeError("the saved object is written after every sheet")
        with self._staged.stream(export.json_path.name) as stream:
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
