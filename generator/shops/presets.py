"""Print-shop presets: what one shop takes, read from one YAML file a shop.

A preset names the card sizes a shop prints, the bleed and safe zone it asks for,
the resolution of art, the colour it wants (``rgb``, or ``cmyk`` with a total ink
limit, what black becomes, an ICC profile and the output condition it stands for,
and the PDF/X standard the file must meet), and the form of the upload: one PDF
a deck (``pdf-per-deck``, faces in ``order``) or one image a face
(``image-per-face``). Its ``sources:`` say where each setting comes from: a page
of the shop's, or why a number was chosen where no page says::

    name: DriveThruCards
    cards: {poker: [2.5in, 3.5in]}
    bleed: 0.125in
    safe: 0.125in
    dpi: 300
    colour: cmyk
    ink_limit: 240
    black: [60, 40, 40, 100]
    profile: cgats-tr003-240.icc
    condition: CGATS TR 003
    standard: PDF/X-1a:2003
    output: pdf-per-deck
    order: [back, front]
    sources:
      bleed: https://help.drivethrupartners.com/...

The bundled presets live in ``generator/shops/presets/``. A deck may bring its
own in ``cards/<game>/shops/<name>.yaml`` and a project in ``<project>/shops/``;
they are looked up in that order, deck first, as layouts are. A preset is read
as untrusted input: an unknown key or a number out of range is one error line
naming the file, line and setting (exit 2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.deck.model import MAX_ID_BYTES
from generator.errors import CONTROL_CHARACTERS, InputError, Position, did_you_mean, printable
from generator.loading import load_yaml
from generator.paths import MAX_FILE_NAME_BYTES, resolve_inside
from generator.reading import Reader
from generator.render.layout import MAX_BLEED_MM
from generator.render.units import MM, UnitError, to_points

BUNDLED_PRESETS = Path(__file__).parent / "presets"
BUNDLED_PROFILES = Path(__file__).parent / "profiles"
PRESET_FOLDER = "shops"
"""The folder beside a deck (``cards/<game>/shops/``) or in a project that holds its own presets."""
PRESET_SUFFIX = ".yaml"
NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]*$")

COLOURS = ("rgb", "cmyk")
OUTPUTS = ("pdf-per-deck", "image-per-face")
SIDES = ("front", "back")
IMAGE_FORMATS = ("png", "jpeg")
IMAGE_SUFFIXES = {"png": ".png", "jpeg": ".jpg"}
"""What an image a face's file name ends in, by the preset's ``image_format``."""
STANDARDS = ("PDF/X-1a:2003", "PDF/X-4")
"""The PDF/X standards a CMYK preset may ask for (:mod:`generator.shops.rules` says what each demands)."""

KEYS = {"name", "description", "cards", "bleed", "safe", "dpi", "colour", "ink_limit", "black", "profile",
        "condition", "registry", "standard", "output", "order", "naming", "shared_back", "image_format",
        "sources"}
CMYK_KEYS = ("ink_limit", "black", "profile", "condition", "standard")
"""What a CMYK preset must say, and an RGB one may not."""

MAX_SAFE_MM = 20.0
"""A safe zone wider than this leaves a poker card a third of its width: shops ask for 3 to 6.4 mm."""
MIN_CARD_MM, MAX_CARD_MM = 10.0, 500.0
"""Card sides a shop prints: from a tiny token to a game board; outside that range is a typo."""
MIN_PRESET_DPI, MAX_PRESET_DPI = 100, 1200
"""Print resolutions shops ask for are 300 dpi; 1200 at poker size is already 12 megapixels a face."""
MIN_INK_LIMIT, MAX_INK_LIMIT = 100, 400
"""Total ink in percent: one full ink is 100, all four inks full are 400."""
MAX_PROFILE_BYTES = 8_000_000
"""An output profile with a fine colour table is a few hundred kilobytes; more is not a profile."""
MAX_PRESET_NAME_BYTES = 64
"""Bytes (UTF-8) of a preset's file name without ``.yaml``: the shop's name in the files it
gets (``<deck>.<lang>.<shop>.pdf``, the folder ``<deck>.<shop>/`` and the hidden files staged
for them), which with a deck id of :data:`~generator.deck.model.MAX_ID_BYTES` and a language
code stay within a file name's 255 bytes."""
MAX_TEXT = 200
"""Characters of a preset's name, condition or naming pattern: a line, not a page."""
NAMING_FIELDS = ("{card}", "{side}")

WINDOWS_FORBIDDEN = re.compile(r'[<>:"|?*]')
"""Characters Windows refuses in a file name: a shop's folder is zipped and opened on any
system, and a file named ``why?-front.png`` could not be unpacked there."""

WINDOWS_DEVICES = re.compile(r"(?i)^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$")
"""Names Windows keeps for its devices, with any extension: ``nul.png`` is no file there."""


@dataclass(repr=False, eq=False)
class Preset:
    """One shop's requirements, lengths in points, inks in percent."""

    id: str
    """The name it is asked for by (``drivethrucards``): its file's name."""
    name: str
    """The shop's name as people write it (``DriveThruCards``)."""
    path: Path
    cards: dict[str, tuple[float, float]]
    """Card sizes the shop prints (width, height), by name; empty when it prints any size."""
    bleed: float
    safe: float
    """How far inside the cut important text, icons and art must stay."""
    dpi: int
    colour: str
    output: str
    order: tuple[str, ...] = ("front", "back")
    """For a PDF a deck: the faces of each card, page by page."""
    naming: str = "{card}-{side}"
    """For images a face: each file's name (without its suffix)."""
    shared_back: str = "back"
    """For images a face: the name of the back every card without its own shares."""
    image_format: str = "png"
    ink_limit: float | None = None
    black: tuple[float, float, float, float] | None = None
    """What pure black (#000000) becomes, C, M, Y, K in percent."""
    profile: Path | None = None
    condition: str | None = None
    """The output condition the profile characterizes, as the ICC registry names it (``FOGRA39``)."""
    registry: str = "http://www.color.org"
    standard: str | None = None
    description: str = ""
    sources: dict[str, str] = field(default_factory=dict)
    positions: dict[str, Position] = field(default_factory=dict, compare=False)
    """Where each setting is written, for findings that blame the preset."""

    def at(self, key: str) -> Position:
        """Where ``key`` is set in the preset file (the file itself when it is not)."""
        return self.positions.get(key, Position(self.path))

    @property
    def owner(self) -> str:
        """The shop's name as an owner: "The Game Crafter's", "DriveThruCards'"."""
        return f"{self.name}'" if self.name.endswith("s") else f"{self.name}'s"

    @property
    def image_suffix(self) -> str:
        """What each image's file name ends in (``.png``, ``.jpg``)."""
        return IMAGE_SUFFIXES[self.image_format]

    @property
    def is_cmyk(self) -> bool:
        return self.colour == "cmyk"

    def fits_card(self, size: tuple[float, float]) -> str | None:
        """The name of the shop's card size matching ``size`` (points, either way up), or
        None; every size matches a preset that names none."""
        if not self.cards:
            return "any"
        for name, (width, height) in self.cards.items():
            for w, h in ((width, height), (height, width)):
                if abs(w - size[0]) <= CARD_TOLERANCE and abs(h - size[1]) <= CARD_TOLERANCE:
                    return name
        return None


CARD_TOLERANCE = 0.5 * MM
"""How far a card may be from a shop's size and still be that size (63.5 mm against 2.5 in, rounded)."""


def preset_folders(deck_folder: Path | None) -> list[Path]:
    """Where preset names are looked up, in order: the deck's ``shops/``, its project's
    ``shops/`` (``<project>/cards/<game>/``), then the bundled presets."""
    folders = []
    if deck_folder is not None:
        folders += [deck_folder / PRESET_FOLDER, deck_folder.parent.parent / PRESET_FOLDER]
    return [*folders, BUNDLED_PRESETS]


def bundled_preset_names() -> list[str]:
    return sorted(path.stem for path in BUNDLED_PRESETS.glob(f"*{PRESET_SUFFIX}"))


def is_preset_file(shop: str) -> bool:
    """Whether ``--for`` names a preset file rather than a shop."""
    return shop.endswith(PRESET_SUFFIX) or "/" in shop


def find_preset(shop: str, deck_folder: Path | None = None, output: str | None = None) -> Preset:
    """The preset ``shop`` names: a file (``my-shop.yaml``, ``shops/x.yaml``) or a name looked
    up in :func:`preset_folders`. An unknown name is an error listing the known ones; with
    ``output`` (``preflight`` reads PDFs) only those writing that output are offered, and without
    a deck folder the way out is a preset file, since there is no deck to put one beside."""
    if is_preset_file(shop):
        return load_preset(Path(shop))
    if not NAME_PATTERN.match(shop):
        raise InputError(f"'{shown(shop)}' is not a shop name: use lower-case letters, digits and '-' "
                         f"(or a preset file ending in {PRESET_SUFFIX})", field="for")
    folders = preset_folders(deck_folder)
    for folder in folders:
        path = folder / f"{shop}{PRESET_SUFFIX}"
        if path.is_file():
            return load_preset(path)
    known = sorted({path.stem for folder in folders for path in folder.glob(f"*{PRESET_SUFFIX}")
                    if output is None or _writes(path, output)})
    hint = did_you_mean(shop, known)
    if hint.startswith("; did you mean"):  # the nearest, then all of them
        hint += f" (known: {', '.join(known)})"
    own = (f"add {PRESET_FOLDER}/{shop}{PRESET_SUFFIX} beside the deck" if deck_folder is not None
           else f"name a preset file of your own (a path ending in {PRESET_SUFFIX})")
    raise InputError(f"unknown shop '{shop}'{hint}; or {own}", field="for")


def _writes(path: Path, output: str) -> bool:
    """Whether the preset at ``path`` writes ``output``; a preset that cannot be read is left out
    of the names offered (it is reported when it is asked for)."""
    try:
        return load_preset(path).output == output
    except InputError:
        return False


def load_preset(path: Path) -> Preset:
    """Read and check the preset file at ``path``; raises :class:`InputError` (exit 2)."""
    size = len(path.stem.encode("utf-8", errors="surrogateescape"))
    if size > MAX_PRESET_NAME_BYTES:
        raise InputError(f"a preset's file name names the files the shop gets (<deck>.<shop>.pdf), so it is at "
                         f"most {MAX_PRESET_NAME_BYTES} bytes without {PRESET_SUFFIX}; this one is {size}",
                         Position(path))
    document = load_yaml(path)
    reader = Reader(document)
    reader.mapping((), "a shop preset", required=True)
    reader.known_keys((), KEYS, "preset setting")
    colour = _choice(reader, "colour", COLOURS)
    output = _choice(reader, "output", OUTPUTS)
    for key in CMYK_KEYS:
        given = reader.get((key,)) is not None
        if colour == "cmyk" and not given:
            raise reader.fail((), f"a cmyk preset must give {key}", key)
        if colour == "rgb" and given:
            raise reader.fail((key,), f"{key} is for cmyk presets; this one is rgb")
    if output == "image-per-face" and colour == "cmyk":
        raise reader.fail(("colour",), "images a face are rgb: shops that take images convert them "
                                       "themselves; a cmyk file is a pdf-per-deck")
    settings: dict[str, Any] = {
        "cards": _cards(reader),
        "bleed": _length(reader, "bleed", 0.0, MAX_BLEED_MM * MM),
        "safe": _length(reader, "safe", 0.0, MAX_SAFE_MM * MM),
        "dpi": _integer(reader, "dpi", MIN_PRESET_DPI, MAX_PRESET_DPI),
        "colour": colour,
        "output": output,
    }
    if output == "pdf-per-deck":
        settings["order"] = _order(reader)
    else:
        for key in ("naming", "shared_back"):
            value = _text(reader, key)
            if value is not None:
                settings[key] = value
        settings["image_format"] = _choice(reader, "image_format", IMAGE_FORMATS, default="png")
        _check_naming(reader, settings.get("naming", Preset.naming), settings.get("shared_back", Preset.shared_back),
                      IMAGE_SUFFIXES[settings["image_format"]])
    if colour == "cmyk":
        ink_limit = _number(reader, "ink_limit", MIN_INK_LIMIT, MAX_INK_LIMIT)
        settings.update(ink_limit=ink_limit, black=_black(reader, ink_limit),
                        profile=_profile(reader, path), condition=_text(reader, "condition"),
                        standard=_choice(reader, "standard", STANDARDS))
        registry = _text(reader, "registry")
        if registry is not None:
            settings["registry"] = registry
    name = _text(reader, "name", required=True)
    assert name is not None, "required"
    return Preset(id=path.stem, name=name, path=path, description=_text(reader, "description") or "",
                  sources=_sources(reader), positions={str(key): document.at(key) for key in document.data},
                  **settings)


def shown(text: str) -> str:
    """Text from the command line or a file, as written but with control characters escaped
    (:func:`~generator.errors.printable`), shortened."""
    escaped = printable(text)
    return escaped if len(escaped) <= 60 else escaped[:57] + "..."


def _choice(reader: Reader, key: str, choices: tuple[str, ...], default: str | None = None) -> str:
    value = reader.get((key,))
    if value is None and default is not None:
        return default
    if value is None:
        raise reader.fail((), f"missing {key}: one of {', '.join(choices)}", key)
    if value not in choices:
        raise reader.fail((key,), f"expected one of {', '.join(choices)}, found '{shown(str(value))}'"
                                  f"{did_you_mean(str(value), choices)}")
    return str(value)


def _text(reader: Reader, key: str, required: bool = False) -> str | None:
    value = reader.string((key,), required=required)
    if value is not None and len(value) > MAX_TEXT:
        raise reader.fail((key,), f"is {len(value):,} characters; a preset's {key} may have at most {MAX_TEXT}")
    return value


def _points(reader: Reader, keys: tuple[Any, ...], value: Any) -> float:
    try:
        return to_points(value, "mm")
    except UnitError as error:
        raise reader.fail(keys, str(error)) from None


def _length(reader: Reader, key: str, least: float, most: float) -> float:
    value = reader.get((key,))
    if value is None:
        raise reader.fail((), f"missing {key}: a length such as 3mm or 0.125in", key)
    points = _points(reader, (key,), value)
    if not least - 1e-9 <= points <= most + 1e-9:
        raise reader.fail((key,), f"must lie between {least / MM:g} and {most / MM:g} mm, found '{shown(str(value))}'")
    return points


def _number(reader: Reader, key: str, least: float, most: float) -> float:
    value = reader.get((key,))
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise reader.fail((key,), f"expected a number from {least:g} to {most:g}, found '{shown(str(value))}'")
    if not least <= value <= most:  # also refuses nan
        raise reader.fail((key,), f"must lie between {least:g} and {most:g}, found {value:g}")
    return float(value)


def _integer(reader: Reader, key: str, least: int, most: int) -> int:
    value = reader.get((key,))
    if value is None:
        raise reader.fail((), f"missing {key}: the print resolution of art, in dots per inch", key)
    number = reader.integer((key,), least, most)
    assert number is not None, "given"
    return number


def _cards(reader: Reader) -> dict[str, tuple[float, float]]:
    cards = reader.mapping(("cards",), "cards (the card sizes the shop prints)")
    sizes: dict[str, tuple[float, float]] = {}
    for name, size in cards.items():
        keys = ("cards", name)
        reader.require_text_key(keys, "card size names")
        if not isinstance(size, list) or len(size) != 2:
            raise reader.fail(keys, "a card size is [width, height], such as [2.5in, 3.5in]")
        points = tuple(_points(reader, (*keys, index), side) for index, side in enumerate(size))
        for index, side in enumerate(points):
            if not MIN_CARD_MM * MM <= side <= MAX_CARD_MM * MM:
                raise reader.fail((*keys, index), f"a card side must lie between {MIN_CARD_MM:g} and "
                                                  f"{MAX_CARD_MM:g} mm, found {side / MM:.1f} mm")
        sizes[str(name)] = (points[0], points[1])
    return sizes


def _order(reader: Reader) -> tuple[str, ...]:
    value = reader.get(("order",))
    if value is None:
        return Preset.order
    if not isinstance(value, list) or sorted(map(str, value)) != sorted(SIDES):
        raise reader.fail(("order",), "order lists each face of a card once, in print order: "
                                      "[front, back] or [back, front]")
    return tuple(map(str, value))


def _check_naming(reader: Reader, naming: str, shared_back: str, suffix: str) -> None:
    """``naming`` and ``shared_back`` name files in the shop's folder: each must make a plain
    file name every system takes (no separator, no control character, not hidden, nothing
    Windows refuses, since the folder is opened wherever the shop is) and one short
    enough for any deck, :data:`MAX_FILE_NAME_BYTES` with the suffix for the longest card id
    (:data:`MAX_ID_BYTES`), so that a build never fails on a name ``check --for`` passed.
    Whether two faces of a deck get one name is the deck's to say (the shop check)."""
    if not all(part in naming for part in NAMING_FIELDS):
        raise reader.fail(("naming",), f"naming must hold {' and '.join(NAMING_FIELDS)}, so every face "
                                       f"has a file of its own; found '{shown(naming)}'")
    longest_side = max(SIDES, key=len)
    for key, value, longest in (
            ("naming", naming.replace("{card}", "c").replace("{side}", "s"),
             naming.replace("{card}", "x" * MAX_ID_BYTES).replace("{side}", longest_side) + suffix),
            ("shared_back", shared_back, shared_back + suffix)):
        control = CONTROL_CHARACTERS.search(value)
        if control is not None:
            raise reader.fail((key,), f"{key} holds the control character '{printable(control.group())}', "
                                      "which a file name in the shop's folder may not")
        if "/" in value or "\\" in value or value.startswith(".") or "{" in value or "}" in value:
            raise reader.fail((key,), f"{key} names a file in the shop's folder: no '/', no leading '.', "
                                      "and no braces besides {card} and {side}")
        windows = WINDOWS_FORBIDDEN.search(value)
        if windows is not None:
            raise reader.fail((key,), f"{key} holds '{windows.group()}', which Windows does not allow in a "
                                      "file name: the shop's folder could not be unpacked there")
        if key == "shared_back" and WINDOWS_DEVICES.match(longest):
            raise reader.fail((key,), f"shared_back '{shown(value)}' is a name Windows keeps for a device: "
                                      "the shop's folder could not be unpacked there")
        size = len(longest.encode("utf-8"))
        if size > MAX_FILE_NAME_BYTES:
            made = (f"file names of up to {size:,} bytes (with {suffix}, for a card id of {MAX_ID_BYTES} "
                    "characters, the longest an id may be)" if key == "naming"
                    else f"a file name of {size:,} bytes (with {suffix})")
            raise reader.fail((key,), f"{key} makes {made}; a file name holds at most {MAX_FILE_NAME_BYTES} "
                                      "bytes of UTF-8")


def _black(reader: Reader, ink_limit: float) -> tuple[float, float, float, float]:
    value = reader.get(("black",))
    if not isinstance(value, list) or len(value) != 4:
        raise reader.fail(("black",), "black is what #000000 prints as: [C, M, Y, K] in percent, "
                                      "such as [60, 40, 40, 100]")
    inks = []
    for index, ink in enumerate(value):
        if isinstance(ink, bool) or not isinstance(ink, (int, float)) or not 0 <= ink <= 100:
            raise reader.fail(("black", index), f"each ink is a percentage from 0 to 100, found '{shown(str(ink))}'")
        inks.append(float(ink))
    if sum(inks) > ink_limit + 1e-9:
        raise reader.fail(("black",), f"black uses {sum(inks):g}% ink, more than the preset's ink_limit of "
                                      f"{ink_limit:g}%")
    return (inks[0], inks[1], inks[2], inks[3])


def _profile(reader: Reader, path: Path) -> Path:
    """The ICC profile: a bundled one by its file name, else a file inside the preset's folder."""
    name = reader.text(("profile",))
    bundled = BUNDLED_PROFILES / name
    if "/" not in name and bundled.is_file():
        profile = bundled
    else:
        profile = resolve_inside(path.parent, name, reader.position(("profile",)), field="profile")
        if not profile.is_file():
            known = ", ".join(sorted(each.name for each in BUNDLED_PROFILES.glob("*.icc")))
            raise reader.fail(("profile",), f"no ICC profile '{shown(name)}' beside the preset or among "
                                            f"the bundled ones ({known})")
    size = profile.stat().st_size
    if size > MAX_PROFILE_BYTES:
        raise reader.fail(("profile",), f"the profile is {size:,} bytes; at most {MAX_PROFILE_BYTES:,}")
    return profile


def _sources(reader: Reader) -> dict[str, str]:
    """``sources:``: for a setting, where its value comes from. Each key names a setting."""
    sources = reader.mapping(("sources",), "sources (where each setting comes from)")
    found: dict[str, str] = {}
    for key, value in sources.items():
        reader.require_text_key(("sources", key), "setting names")
        if key not in KEYS - {"sources"}:
            raise reader.fail(("sources", key), f"unknown preset setting '{key}'"
                                                 f"{did_you_mean(str(key), KEYS - {'sources'})}")
        if not isinstance(value, str) or not value.strip():
            raise reader.fail(("sources", key), "a source is text: the page it comes from, or why it was chosen")
        found[str(key)] = value
    return found
