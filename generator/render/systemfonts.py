"""Fonts installed on this computer, found by family name through fontconfig.

A deck or layout that says ``fonts: {system: true}`` may name a family that no
fonts folder has (``font: Liberation Serif``). :func:`find_system_family` asks
fontconfig's ``fc-list`` for the files of exactly that family (fontconfig
compares names without regard to case or spaces, and never substitutes another
family, as ``fc-match`` would) and picks its regular, bold, italic and
bold-italic faces: of the static fonts of each style, the one nearest normal
width and the style's usual weight, a ``.ttf`` file before any other.

The answer depends on the machine, which is why a deck must opt in and why the
manifest records the file each family came from. The files found are still a
stranger's: the registry checks them as it checks a deck's own fonts.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

FC_LIST = "fc-list"
"""fontconfig's command that lists the fonts matching a pattern."""
FONTCONFIG_TIMEOUT = 20.0
"""Seconds one ``fc-list`` may take. It answers from fontconfig's cache at once; the first
run on a machine builds that cache, which takes a few seconds with many fonts installed.
A fontconfig that hangs must not hang the build."""
MAX_FONTCONFIG_OUTPUT = 1024 * 1024
"""Bytes of ``fc-list`` output read for one family: a family's faces take a few hundred
bytes each, so more is a fontconfig gone wrong, not a family."""
MAX_SYSTEM_FAMILIES = 16
"""Distinct system families one deck may ask for. Each is one ``fc-list`` run; a deck uses
a handful of families, and a layout naming hundreds would be hundreds of processes."""
MAX_FAMILY_NAME = 100
"""Characters in a family name asked of fontconfig; real names are a few words."""
FAMILY_NAME = re.compile(r"^\w[\w .'&+()-]*$")
"""What a family name asked of fontconfig may hold: letters (of any script), digits, spaces
and a little punctuation, never a comma (fontconfig's list separator) or a control character."""
FORMAT = "%{file}\\t%{index}\\t%{weight}\\t%{slant}\\t%{width}\\n"
"""One line of ``fc-list`` output a font: its file, face index, weight, slant and width."""
REGULAR_WEIGHT = 80
BOLD_WEIGHT = 200
BOLD_FROM = 180
"""fontconfig's weights: regular 80, semibold 180, bold 200. Semibold and heavier are bold."""
NORMAL_WIDTH = 100
ITALIC_SLANT = 100
"""fontconfig's slants: 0 upright, 100 italic, 110 oblique."""
TRUETYPE_SUFFIX = ".ttf"


class SystemFontError(ValueError):
    """A family fontconfig cannot give, and why (said in words a designer can act on)."""


@dataclass(frozen=True)
class InstalledFont:
    """One static font file fontconfig lists for a family."""

    path: Path
    weight: int
    slant: int
    width: int

    @property
    def style(self) -> tuple[bool, bool]:
        return self.weight >= BOLD_FROM, self.slant > 0

    def distance(self, bold: bool) -> tuple[int, int, int, bool, str]:
        """How far from the face wanted: width, then weight, then slant; a .ttf file first."""
        return (abs(self.width - NORMAL_WIDTH), abs(self.weight - (BOLD_WEIGHT if bold else REGULAR_WEIGHT)),
                abs(self.slant - ITALIC_SLANT) if self.slant else 0,
                self.path.suffix.lower() != TRUETYPE_SUFFIX, str(self.path))


def check_family_name(name: str) -> None:
    """Refuse a name fontconfig could read as a pattern rather than a family (:class:`SystemFontError`)."""
    if len(name) > MAX_FAMILY_NAME or not FAMILY_NAME.match(name):
        raise SystemFontError(f"{name[:MAX_FAMILY_NAME]!r} is not a font family name (letters, digits, spaces "
                              f"and - . ' & + ( ), at most {MAX_FAMILY_NAME} characters)")


def find_system_family(name: str) -> dict[tuple[bool, bool], Path]:
    """The installed family ``name``'s face files by (bold, italic); the regular face is always
    there. Raises :class:`SystemFontError` when fontconfig is absent, fails or has no such family."""
    check_family_name(name)
    fonts = parse_listing(list_family(name))
    faces = pick_faces(fonts)
    if (False, False) not in faces:
        if fonts:
            raise SystemFontError(f"the installed font family '{name}' has no regular face that deckpress can "
                                  "use (only bold or slanted ones, or variable fonts)")
        raise SystemFontError(f"no font family '{name}' is installed on this computer (fontconfig's {FC_LIST} "
                              "lists none); install it, or copy its .ttf file into the deck's fonts/ folder")
    return faces


def list_family(name: str) -> str:
    """What ``fc-list`` says of the family ``name`` (one line a font, see :data:`FORMAT`)."""
    pattern = ":family=" + re.sub(r"([^\w])", r"\\\1", name)  # every other character escaped: a literal name
    try:
        done = subprocess.run([FC_LIST, "--format", FORMAT, pattern], capture_output=True,
                              timeout=FONTCONFIG_TIMEOUT, check=False)
    except FileNotFoundError:
        raise SystemFontError(f"system fonts are found with fontconfig's {FC_LIST}, which is not installed "
                              f"here; install fontconfig, or copy the font's .ttf file into the deck's "
                              "fonts/ folder") from None
    except subprocess.TimeoutExpired:
        raise SystemFontError(f"fontconfig's {FC_LIST} gave no answer within {FONTCONFIG_TIMEOUT:g} seconds") \
            from None
    except OSError as error:
        raise SystemFontError(f"fontconfig's {FC_LIST} cannot be run ({error.strerror or error})") from None
    if done.returncode != 0:
        raise SystemFontError(f"fontconfig's {FC_LIST} failed (exit status {done.returncode})")
    if len(done.stdout) > MAX_FONTCONFIG_OUTPUT:
        raise SystemFontError(f"fontconfig's {FC_LIST} listed over {MAX_FONTCONFIG_OUTPUT:,} bytes of fonts "
                              "for one family")
    return done.stdout.decode("utf-8", "replace")


def parse_listing(text: str) -> list[InstalledFont]:
    """The static fonts of a listing: a face index 0 with one weight, slant and width each.
    A variable font (a weight range) or a named instance of one (index above 0) is left out:
    deckpress would print its default instance whatever the style asked."""
    fonts = []
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) != 5 or parts[1] != "0" or not all(part.isdigit() for part in parts[2:]):
            continue
        fonts.append(InstalledFont(Path(parts[0]), int(parts[2]), int(parts[3]), int(parts[4])))
    return fonts


def pick_faces(fonts: list[InstalledFont]) -> dict[tuple[bool, bool], Path]:
    """For each style some font has, the nearest font of it (see :meth:`InstalledFont.distance`)."""
    return {style: min((font for font in fonts if font.style == style), key=lambda font: font.distance(style[0])).path
            for style in sorted({font.style for font in fonts})}
