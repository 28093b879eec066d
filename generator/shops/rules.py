"""What a shop's file must be: the one table of rules that ``check --for``, ``build --for``
and ``preflight`` share.

Each :class:`Rule` names one thing a shop rejects a file for. ``check --for SHOP``
finds what a deck would break before anything is drawn (a card size the shop does
not print, text in the unsafe margin, art below the shop's resolution, transparency
where the standard forbids it, ink over the limit); ``build --for SHOP`` refuses
what ``check`` finds, draws the file so that it keeps every rule, and runs
``preflight``'s reading of the finished file before putting it in place; and
``deckpress preflight FILE.pdf --for SHOP`` reads any PDF against the rules the
file can show. A finding names its rule by its ``id``.

:data:`STANDARDS` holds what each PDF/X standard demands of a file (ISO 15930-4 for
PDF/X-1a:2003, ISO 15930-7 for PDF/X-4): the PDF version, the identification keys,
whether transparency is allowed, and which colour spaces may be used.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.shops.presets import Preset


@dataclass(repr=False, eq=False)
class Standard:
    """What one PDF/X standard asks of a file."""

    name: str
    version_key: str
    """The ``GTS_PDFXVersion`` it is identified by."""
    conformance_key: str | None
    """The ``GTS_PDFXConformance`` written beside it, for the standards that have one."""
    pdf_version: str
    """The PDF version the file is written as: at most this for PDF/X-1a, at least for PDF/X-4."""
    transparency: bool
    needs_xmp: bool
    colour_spaces: frozenset[str]
    """The colour spaces content, images and shadings may use (besides Pattern and Indexed of these)."""


DEVICE_CMYK_SPACES = frozenset({"DeviceCMYK", "DeviceGray", "Separation", "DeviceN"})

STANDARDS = {
    "PDF/X-1a:2003": Standard("PDF/X-1a:2003", "PDF/X-1a:2003", "PDF/X-1a:2003", "1.4", transparency=False,
                              needs_xmp=False, colour_spaces=DEVICE_CMYK_SPACES),
    "PDF/X-4": Standard("PDF/X-4", "PDF/X-4", None, "1.6", transparency=True, needs_xmp=True,
                        colour_spaces=DEVICE_CMYK_SPACES | {"ICCBased", "Lab", "CalGray", "CalRGB"}),
}


def standard_of(preset: Preset) -> Standard:
    """The PDF/X standard a CMYK preset asks for."""
    assert preset.standard is not None, "a cmyk preset names its standard"
    return STANDARDS[preset.standard]


@dataclass(repr=False, eq=False)
class Rule:
    """One thing a shop rejects a file for."""

    id: str
    says: str
    """The rule, as a designer reads it."""
    deck: bool
    """``check --for`` finds it in a deck (and ``build --for`` refuses the deck)."""
    file: bool
    """``preflight`` finds it in a PDF."""
    cmyk_only: bool = False
    """Only for CMYK presets (PDF/X)."""


RULES = (
    Rule("card-size", "the cards are a size the shop prints, each page the card with its bleed", deck=True,
         file=True),
    Rule("trim-box", "every page has a TrimBox the size of the card, with the bleed around it", deck=False,
         file=True),
    Rule("bleed-box", "every page has a BleedBox holding the TrimBox, within the MediaBox", deck=False, file=True),
    Rule("safe-zone", "text, icons and art stay inside the safe zone, clear of the cut", deck=True, file=False),
    Rule("resolution", "raster art has at least the shop's resolution at its printed size", deck=True,
         file=False),
    Rule("colour", "colours only in the inks the standard allows: no RGB, Lab or RGB profiles", deck=False,
         file=True, cmyk_only=True),
    Rule("transparency", "no transparency where the standard forbids it: opacity, see-through colours, "
                         "soft-edged art", deck=True, file=True, cmyk_only=True),
    Rule("ink-limit", "no colour puts down more ink than the shop's total ink limit", deck=True, file=True,
         cmyk_only=True),
    Rule("fonts", "every font is embedded", deck=False, file=True, cmyk_only=True),
    Rule("output-intent", "an OutputIntent (GTS_PDFX) with the press's CMYK profile and output condition",
         deck=False, file=True, cmyk_only=True),
    Rule("pdfx-keys", "the PDF/X identification keys of the standard the shop asks for", deck=False, file=True,
         cmyk_only=True),
    Rule("pdf-version", "the PDF version the standard allows", deck=False, file=True, cmyk_only=True),
    Rule("encryption", "the file is not encrypted", deck=False, file=True),
    Rule("resources", "every font, image, form, pattern, shading, colour space and graphics state the pages "
                      "name is in the file", deck=False, file=True),
)


def rules_for(preset: Preset) -> tuple[Rule, ...]:
    """The rules a preset's files are held to."""
    return tuple(rule for rule in RULES if preset.is_cmyk or not rule.cmyk_only)
