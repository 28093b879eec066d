"""The files of an image-a-face shop's folder: which face each image shows, under which name.

:func:`shop_faces` names every image ``build --for`` writes, and :func:`name_clashes`
is the shop check that two of them never get one file name, run on those very names
(``check --for`` and ``build --for`` alike), so one face can never be written over
another. A preset's ``naming:`` and ``shared_back:`` are each a plain file name
(:func:`~generator.shops.presets.load_preset` says so); which names a deck's faces
get, and whether two meet, depends on its card ids and backs.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from generator.deck.model import Card
from generator.errors import EXIT_RULES
from generator.exports.printed import printed_cards
from generator.findings import Finding
from generator.render import Renderer
from generator.shops.faces import KIND
from generator.shops.presets import Preset


@dataclass(repr=False, eq=False)
class ShopImage:
    """One image of an image-a-face shop's folder: the face it shows and its file name."""

    filename: str
    card: Card
    side: str
    shared: bool = False
    """Whether it is the deck's back (named by ``shared_back``), not one card's face."""

    def described(self) -> str:
        """The face as a message names it: "card 'knight' (front)", "the deck's back"."""
        return "the deck's back" if self.shared else f"card '{self.card.id}' ({self.side})"


def shop_faces(renderer: Renderer, preset: Preset) -> list[ShopImage]:
    """The images an image-a-face preset gets, each with its file name: every printed card's
    front, and its back unless that is the deck's back, in deck order; then the deck's back
    once, under the preset's ``shared_back`` name.

    A shop such as The Game Crafter takes one back for the deck and a back for each card that
    has another, so the name must say which card a back belongs to: each card whose back
    differs from the deck's gets its own file, even when other cards' backs are drawn the same
    (written once a card, drawn once). A card then goes with ``<card>-back`` if that file is
    there, else with the deck's back. The deck's back is the one every card without a back of
    its own shows (:func:`deck_back_key`); a card whose own back is drawn just like it shows it."""
    suffix = preset.image_suffix
    printed = printed_cards(renderer.deck)
    deck_back = deck_back_key(renderer, printed)
    files: list[ShopImage] = []
    showing_deck_back: Card | None = None
    for card in printed:
        files.append(ShopImage(preset.naming.format(card=card.id, side="front") + suffix, card, "front"))
        if deck_back is not None and renderer.face_key(card, "back") == deck_back:
            showing_deck_back = showing_deck_back or card
        else:
            files.append(ShopImage(preset.naming.format(card=card.id, side="back") + suffix, card, "back"))
    if showing_deck_back is not None:
        files.append(ShopImage(preset.shared_back + suffix, showing_deck_back, "back", shared=True))
    return files


def deck_back_key(renderer: Renderer, printed: Sequence[Card]) -> str | None:
    """The face key of the back the printed cards without a back of their own show; None when
    every card has its own, or when those cards' backs are drawn differently (a back layout
    that prints the card's count), so that no one image is the deck's back."""
    keys = {renderer.face_key(card, "back") for card in printed if card.back is None}
    return next(iter(keys)) if len(keys) == 1 else None


def same_file(name: str) -> str:
    """What two file names share when they name one file wherever the folder goes: letter case
    and the Unicode form of accents apart (macOS ignores both by default and Windows letter case,
    so ``Back.png`` would overwrite ``back.png`` there, whatever system built the folder)."""
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", name).casefold())


def name_clashes(images: Sequence[ShopImage], preset: Preset) -> list[Finding]:
    """An error for each image whose file name an earlier image of the folder already has (as
    :func:`same_file` compares them): written one after the other, the second would replace
    the first, and the shop would get one face fewer, a front showing the deck's back. Each is
    placed at the preset's ``shared_back`` when the deck's back is one of the two and the preset
    sets it, else at its ``naming``, the setting that made the name."""
    first: dict[str, ShopImage] = {}
    found = []
    for image in images:
        earlier = first.setdefault(same_file(image.filename), image)
        if earlier is image:
            continue
        written = (f"would both be written as {image.filename}" if image.filename == earlier.filename
                   else f"would be written as {earlier.filename} and {image.filename}, one file on macOS and "
                        "Windows, which ignore letter case (and macOS how an accent is encoded)")
        key = ("shared_back" if (image.shared or earlier.shared) and "shared_back" in preset.positions
               else "naming")
        found.append(Finding(
            kind=KIND, exit_code=EXIT_RULES, position=preset.at(key), card=earlier.card.id, side=earlier.side,
            message=f"{earlier.described()} and {image.described()} {written}: one would replace the other; "
                    f"give each image a file name of its own ({key})",
            details={"rule": "file-name", "shop": preset.id, "file_name": image.filename}))
    return found
