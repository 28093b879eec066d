"""``check --for SHOP`` and ``build --for SHOP``: what the shop would reject in a deck.

One check, made for the shop asked for, that runs the deck side of the shop's rules
(:mod:`generator.shops.faces`) on every laid-out face and, for a shop taking an image a
face, makes sure no two images get one file name (:mod:`generator.shops.folder`).
``check --for`` runs it after every other check; ``build --for`` runs it with the checks
it always runs, so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable

from generator.errors import InputError
from generator.findings import Finding, findings_from
from generator.shops.choice import ShopChoice
from generator.shops.faces import deck_findings
from generator.shops.folder import name_clashes, shop_faces
from generator.verdict.subject import Check, Subject


def shop_check(choice: ShopChoice) -> Check:
    """The check of a deck against the shop ``choice`` names."""

    def check_shop(subject: Subject) -> Iterable[Finding]:
        if subject.deck is None or subject.renderer is None:
            return ()
        try:
            preset = choice.preset(subject.deck.folder)
            inks = choice.inks(preset)
        except InputError as error:
            return findings_from(error, "input")
        subject.counts["shop"] = 1
        found = deck_findings(subject.renderer, preset, inks)
        if preset.output == "image-per-face":
            found += name_clashes(shop_faces(subject.renderer, preset), preset)
        return found

    return check_shop
