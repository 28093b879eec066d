"""What a build's manifest records of the deck it printed, so a later build can reprint
only what changed (``build --changed-from OLD.json``, for a deck that is not in git).

Every build keeps each card's count and a fingerprint of what each of its faces draws
(:func:`deck_record`); :func:`read_manifest_record` reads that record back. A fingerprint
is made from what a face draws (:class:`~generator.iterations.drawing.FaceDrawing`: its
shapes and text in place, and the contents of the files it draws from), never from dates or
where a file is kept; the names a designer gives (the layout, its elements, the art, fonts and
icons drawn) are part of it, so renaming one reprints its faces. It is made with the deck's
version as the build prints it; comparing, the deck is drawn again with the recorded version,
so a new version alone changes no face.

Every build imports this module, so it stands apart from the comparison of two decks
(:mod:`generator.iterations.comparison`), which only a reprint needs.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from generator.deck.model import MAX_COPIES, MAX_TOTAL_CARDS, Deck
from generator.errors import InputError, Position, printable
from generator.iterations.drawing import Canon, ElementDrawing, FaceDrawing
from generator.loading import read_text
from generator.render.renderer import SIDES, Renderer
from generator.revisions import DISK, reading_from
from generator.sheets.manifest import CardRecord, DeckRecord
from generator.sheets.style import ORIENTATIONS

FINGERPRINTS = "drawing-1"
"""How a manifest's face fingerprints are made (see :func:`fingerprint`). A manifest whose
fingerprints were made another way cannot be compared with: its faces would all seem changed."""

FINGERPRINT_CHARACTERS = 32
"""Hex digits of a fingerprint kept: 128 bits, far past any chance of two faces colliding."""

MAX_PRINTED_MANIFEST_BYTES = 512 * 1024 * 1024
"""The largest manifest ``--changed-from`` reads (into memory, whole). A build of 100,000
copies writes about 70 MB; a file much larger is not a manifest. It bounds the cards the
manifest lists too (each is a line of it)."""


def fingerprint(face: FaceDrawing, elements: dict[int, tuple[ElementDrawing, str]]) -> str:
    """What a face draws, hashed: its layout, size, each element's shapes and text in place and
    the names and contents of the files, fonts and icons they draw from (not where those are kept).
    ``elements`` keeps each element's own hash for the next face (faces share many elements)."""
    hashed = []
    for element in face.elements:
        known = elements.get(id(element))
        if known is None or known[0] is not element:
            drawn = (element.element, element.shape,
                     tuple((resource.kind, resource.name, resource.digest) for resource in element.resources))
            known = elements[id(element)] = (element, hashlib.sha256(repr(drawn).encode("utf-8")).hexdigest())
        hashed.append(known[1])
    whole = repr((face.layout, face.size, face.problem, tuple(hashed)))
    return hashlib.sha256(whole.encode("utf-8")).hexdigest()[:FINGERPRINT_CHARACTERS]


def face_fingerprints(deck: Deck, renderer: Renderer,
                      advance: Callable[[], None] | None = None) -> dict[tuple[str, str], str]:
    """(card id, side) -> the fingerprint of what that face draws with ``renderer``."""
    canon = Canon(renderer, DISK)
    elements: dict[int, tuple[ElementDrawing, str]] = {}
    found = {}
    for card in deck.cards:
        for side in SIDES:
            found[card.id, side] = fingerprint(canon.face(card, side), elements)
        if advance is not None:
            advance()
    return found


def deck_record(deck: Deck, renderer: Renderer, advance: Callable[[], None] | None = None) -> DeckRecord:
    """Every card of the deck, its count and its faces' fingerprints: what a manifest keeps so
    that a later build can tell what changed since (``build --changed-from``)."""
    prints = face_fingerprints(deck, renderer, advance)
    return DeckRecord(FINGERPRINTS, tuple(
        CardRecord(card.id, printable(renderer.title(card, "front")), card.count,
                   prints[card.id, "front"], prints[card.id, "back"]) for card in deck.cards))


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class PrintedCopy:
    """What a manifest says of the copy its build printed: the deck's version, and its cards."""

    deck: str
    version: str | None
    lang: str | None
    cards: tuple[CardRecord, ...]
    paper: str | None = None
    """How the copy was printed, as far as the manifest says: its paper's name, ..."""
    orientation: str | None = None
    """... the paper's orientation ("portrait", "landscape"), ..."""
    duplex: str | None = None
    bleed: bool | None = None
    """... whether it printed bleed, ..."""
    back_offset_mm: tuple[float, float] | None = None
    """... and the back offset in millimetres, as ``--back-offset`` takes it."""


def read_manifest_record(path: Path) -> PrintedCopy:
    """The record a build kept at the end of its manifest. Raises InputError (one line, exit 2)
    for a file that is not a manifest, or one written before manifests kept the record."""
    with reading_from(DISK):  # a manifest is a build's output, on the disk even beside a deck read at a revision
        text = read_text(path, MAX_PRINTED_MANIFEST_BYTES)
    where = Position(path)
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"not a manifest: malformed JSON ({error.msg})",
                         Position(path, error.lineno, error.colno)) from None
    except RecursionError:
        raise InputError("not a manifest: JSON nested deeper than a manifest ever is", where) from None
    except ValueError:  # a number of thousands of digits, which Python refuses to read
        raise InputError("not a manifest: it holds a number too long to read", where) from None
    if not isinstance(manifest, dict) or "placements" not in manifest or not isinstance(manifest.get("deck"), str):
        raise InputError("not a manifest deckpress wrote (no 'deck' and 'placements')", where)
    if "fingerprints" not in manifest or "deck_cards" not in manifest or "version" not in manifest:
        raise InputError("this manifest does not record what each face draws (it was written before builds "
                         "kept that record), so it cannot tell what changed; build the deck in full once, or "
                         "use --changed-since REV in git",
                         where, field="fingerprints")
    if manifest["fingerprints"] != FINGERPRINTS:
        raise InputError(f"its faces were fingerprinted as '{printable(str(manifest['fingerprints']))}', not "
                         f"'{FINGERPRINTS}' as this deckpress does; build the deck in full once", where,
                         field="fingerprints")
    found_paper = manifest.get("paper")
    paper: dict[str, Any] = found_paper if isinstance(found_paper, dict) else {}
    bleed: Any = manifest.get("bleed")
    offset: Any = manifest.get("back_offset_mm")
    return PrintedCopy(manifest["deck"], _text_or_none(manifest, "version", where),
                       _text_or_none(manifest, "lang", where), _cards(manifest["deck_cards"], where),
                       paper=str(paper["name"]) if "name" in paper else None,
                       orientation=paper["orientation"] if paper.get("orientation") in ORIENTATIONS else None,
                       duplex=str(manifest["duplex"]) if isinstance(manifest.get("duplex"), str) else None,
                       bleed=bleed > 0 if _is_number(bleed) else None,
                       back_offset_mm=(float(offset[0]), float(offset[1]))
                       if isinstance(offset, list) and len(offset) == 2 and all(map(_is_number, offset)) else None)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _text_or_none(manifest: dict[str, Any], key: str, where: Position) -> str | None:
    value = manifest.get(key)
    if value is not None and not isinstance(value, str):
        raise InputError(f"'{key}' must be text or null in a manifest", where, field=key)
    return value


def _cards(raw: Any, where: Position) -> tuple[CardRecord, ...]:
    if not isinstance(raw, list):
        raise InputError("'deck_cards' must be a list of cards", where, field="deck_cards")
    cards = []
    seen: set[str] = set()
    total = 0
    for index, entry in enumerate(raw):
        if not (isinstance(entry, dict) and all(isinstance(entry.get(key), str) for key in ("card", "front", "back"))
                and isinstance(entry.get("count"), int) and not isinstance(entry.get("count"), bool)
                and 0 <= entry["count"] <= MAX_COPIES and entry["card"]):
            raise InputError(f"card {index + 1} of 'deck_cards' is not {{card, title, count, front, back}} "
                             f"with a count of 0 to {MAX_COPIES:,}", where, field="deck_cards")
        if entry["card"] in seen:
            raise InputError(f"card {index + 1} of 'deck_cards' lists '{printable(entry['card'])}' again", where,
                             field="deck_cards")
        seen.add(entry["card"])
        total += entry["count"]
        if total > MAX_TOTAL_CARDS:
            raise InputError(f"'deck_cards' lists more than {MAX_TOTAL_CARDS:,} cards, more than a deck may hold",
                             where, field="deck_cards")
        cards.append(CardRecord(entry["card"], printable(str(entry.get("title", entry["card"]))),
                                entry["count"], entry["front"], entry["back"]))
    return tuple(cards)
