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

from generator.deck.model import MAX_COPIES, MAX_TOTAL_CARDS, MAX_VERSION_CHARACTERS, Deck
from generator.deck.translation import CODE_PATTERN
from generator.errors import InputError, Position, describe_value, printable
from generator.iterations.drawing import Canon, ElementDrawing, FaceDrawing
from generator.loading import read_text
from generator.render.layout import MAX_BLEED_MM
from generator.render.renderer import SIDES, Renderer
from generator.revisions import DISK, reading_from
from generator.sheets.geometry import DUPLEX_MODES, MAX_BACK_OFFSET_MM
from generator.sheets.manifest import CardRecord, DeckRecord
from generator.sheets.style import MM, ORIENTATIONS, SheetStyle, find_paper

FINGERPRINTS = "drawing-1"
"""How a manifest's face fingerprints are made (see :func:`fingerprint`). A manifest whose
fingerprints were made another way cannot be compared with: its faces would all seem changed."""

FINGERPRINT_CHARACTERS = 32
"""Hex digits of a fingerprint kept: 128 bits, far past any chance of two faces colliding."""

MAX_PRINTED_MANIFEST_BYTES = 512 * 1024 * 1024
"""The largest manifest ``--changed-from`` reads (into memory, whole). A build of 100,000
copies writes about 70 MB; a file much larger is not a manifest. It bounds the cards the
manifest lists too (each is a line of it)."""

REPRINT = "reprint"
"""The part of a reprint's manifest that says what its sheets add. Its ``deck_cards`` are the deck
as the box holds it once they are put in (so it becomes the printed copy's manifest), not what
its sheets held."""

SHOWN_CHARACTERS = 60
"""The most of a manifest's value an error quotes."""


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
    """The cards the printed copy holds, each ``count`` the copies of it held: those its sheets
    printed, or for a reprint's manifest the deck once the reprint is put in."""
    paper: str | None = None
    """How the copy was printed, as far as the manifest says: its paper's name, ..."""
    orientation: str | None = None
    """... the paper's orientation ("portrait", "landscape"), ..."""
    duplex: str | None = None
    bleed: bool | None = None
    """... whether it printed bleed, ..."""
    back_offset_mm: tuple[float, float] | None = None
    """... and the back offset in millimetres, as ``--back-offset`` takes it."""


def read_manifest_record(path: Path, style: SheetStyle) -> PrintedCopy:
    """The record a build kept at the end of its manifest, and how its copy was printed. Raises
    InputError (one line naming the field, exit 2) for a file that is not a manifest, one written
    before manifests kept the record, or one holding a value no build writes: a setting it gives
    must be one build takes (``style``'s papers, the duplex modes, the back offset's limit), as
    the deck is drawn again with its version and the note on other sheets gives its settings as
    options. A setting it leaves out is not compared."""
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
    paper, orientation = _paper(manifest, where, style)
    cards = _cards(manifest["deck_cards"], where)
    return PrintedCopy(manifest["deck"], _version(manifest, where), _lang(manifest, where),
                       cards if REPRINT in manifest else _held(manifest["placements"], cards, where),
                       paper=paper, orientation=orientation,
                       duplex=_duplex(manifest, where), bleed=_bleed(manifest, where),
                       back_offset_mm=_back_offset_mm(manifest, where))


def _found(value: object) -> str:
    """A manifest's value as an error quotes it: as JSON writes it (a list or mapping only named),
    escaped, and cut short (the file may be anyone's)."""
    text = describe_value(value) if isinstance(value, list | dict) else printable(json.dumps(value, ensure_ascii=False))
    return text if len(text) <= SHOWN_CHARACTERS else text[:SHOWN_CHARACTERS - 3] + "..."


def _is_number(value: object) -> bool:
    """A JSON number that is finite (an integer always is, however long; a float may be inf)."""
    return isinstance(value, int) and not isinstance(value, bool) or isinstance(value, float) and math.isfinite(value)


def _version(manifest: dict[str, Any], where: Position) -> str | None:
    """The version the printed copy shows, null for none; text as a deck's ``version:`` may be,
    since the deck is drawn again with it."""
    value = manifest["version"]
    if value is None:
        return None
    if not (isinstance(value, str) and value.strip() == value and 0 < len(value) <= MAX_VERSION_CHARACTERS
            and not any(ord(character) < 32 or ord(character) == 127 for character in value)):
        raise InputError(f"'version' must be null or text of 1 to {MAX_VERSION_CHARACTERS} characters on one "
                         f"line, as a deck's version is; found {_found(value)}", where, field="version")
    return value


def _lang(manifest: dict[str, Any], where: Position) -> str | None:
    """The translation printed (None: the deck as written), a code as ``--lang`` takes it."""
    value = manifest.get("lang")
    if value is not None and not (isinstance(value, str) and CODE_PATTERN.match(value)):
        raise InputError(f"'lang' must be a language code such as fr, de or pt-BR, as --lang takes it; "
                         f"found {_found(value)}", where, field="lang")
    return value


def _paper(manifest: dict[str, Any], where: Position, style: SheetStyle) -> tuple[str | None, str | None]:
    """The paper's name and orientation, each one ``--paper`` and ``--orientation`` take (the
    note on other paper gives them as options)."""
    if "paper" not in manifest:
        return None, None
    paper = manifest["paper"]
    if not isinstance(paper, dict) or not isinstance(paper.get("name"), str):
        raise InputError(f"'paper' must be {{name, orientation, ...}} with the paper's name as text; found "
                         f"{_found(paper)}", where, field="paper")
    orientation = paper.get("orientation")
    if orientation not in ORIENTATIONS:
        raise InputError(f"the paper's orientation must be {' or '.join(ORIENTATIONS)}; found "
                         f"{_found(orientation)}", where, field="paper")
    try:
        find_paper(paper["name"], orientation, style)
    except ValueError as error:
        raise InputError(f"'paper': {error}", where, field="paper") from None
    return paper["name"], orientation


def _duplex(manifest: dict[str, Any], where: Position) -> str | None:
    """The duplex mode, one ``--duplex`` takes."""
    if "duplex" not in manifest:
        return None
    value = manifest["duplex"]
    if value not in DUPLEX_MODES:
        raise InputError(f"'duplex' must be one of {', '.join(DUPLEX_MODES)}, as --duplex takes it; found "
                         f"{_found(value)}", where, field="duplex")
    return str(value)


def _bleed(manifest: dict[str, Any], where: Position) -> bool | None:
    """Whether the copy printed bleed: the manifest gives its width in points, at most the widest a
    layout may have."""
    if "bleed" not in manifest:
        return None
    value = manifest["bleed"]
    widest = MAX_BLEED_MM * MM
    if not (_is_number(value) and 0 <= value <= round(widest, 3) + 0.001):
        raise InputError(f"'bleed' must be the bleed printed in points, from 0 to {widest:.3f} "
                         f"({MAX_BLEED_MM:g} mm, the widest a layout may have); found {_found(value)}",
                         where, field="bleed")
    return bool(value > 0)


def _back_offset_mm(manifest: dict[str, Any], where: Position) -> tuple[float, float] | None:
    """The back offset in millimetres, within the limit ``--back-offset`` keeps."""
    if "back_offset_mm" not in manifest:
        return None
    value = manifest["back_offset_mm"]
    if not (isinstance(value, list) and len(value) == 2 and all(map(_is_number, value))):
        raise InputError(f"'back_offset_mm' must be two numbers in millimetres, like [0.5, -1.2]; found "
                         f"{_found(value)}", where, field="back_offset_mm")
    if not all(abs(part) <= MAX_BACK_OFFSET_MM for part in value):
        shown = ",".join(map(_found, value))
        raise InputError(f"'back_offset_mm' is {shown}: each part must lie between -{MAX_BACK_OFFSET_MM:g} and "
                         f"{MAX_BACK_OFFSET_MM:g} mm, as --back-offset takes it", where, field="back_offset_mm")
    return float(value[0]), float(value[1])


def _held(placements: Any, cards: tuple[CardRecord, ...], where: Position) -> tuple[CardRecord, ...]:
    """The cards of the deck the sheets held (a build with ``--only`` prints some), each with as
    many copies as the placements place: a card they left out is none of the printed copy's."""
    if not isinstance(placements, list):
        raise InputError("'placements' must be a list of the faces the sheets hold", where, field="placements")
    counts = {card.card: card.count for card in cards}
    held: dict[str, set[int]] = {}
    for index, placement in enumerate(placements):
        card, copy = (placement.get("card"), placement.get("copy")) if isinstance(placement, dict) else (None, None)
        if not (isinstance(card, str) and isinstance(copy, int) and not isinstance(copy, bool)):
            raise InputError(f"placement {index + 1} does not say which card and copy it prints, so the manifest "
                             "cannot tell which copies its sheets held; build the deck in full once",
                             where, field="placements")
        if not 1 <= copy <= counts.get(card, 0):
            raise InputError(f"placement {index + 1} prints copy {_found(copy)} of {_found(card)}, which "
                             f"'deck_cards' lists with {counts.get(card, 0):,} copies", where, field="placements")
        held.setdefault(card, set()).add(copy)
    return tuple(dataclasses.replace(card, count=len(held[card.card])) for card in cards if card.card in held)


def _cards(raw: Any, where: Position) -> tuple[CardRecord, ...]:
    if not isinstance(raw, list):
        raise InputError("'deck_cards' must be a list of cards", where, field="deck_cards")
    cards = []
    seen: set[str] = set()
    total = 0
    for index, entry in enumerate(raw):
        if not (isinstance(entry, dict) and all(isinstance(entry.get(key), str) for key in ("card", "front", "back"))
                and isinstance(entry.get("title", ""), str)
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
        cards.append(CardRecord(entry["card"], printable(entry["title"] if "title" in entry else entry["card"]),
                                entry["count"], entry["front"], entry["back"]))
    return tuple(cards)
