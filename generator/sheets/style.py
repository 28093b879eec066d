"""Paper sizes and the look of print sheets, read from ``sheets.yaml``.

Everything a person printing cards might want to change (which papers exist,
how long a crop mark is, how small the footer is) lives in ``sheets.yaml``
beside this module; this module turns it into dataclasses in points. Its lengths
are read as a layout's are (:mod:`generator.render.units`), a bare number in points.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from generator.boxes import EPSILON
from generator.errors import InputError, Position, printable
from generator.loading import Document, load_yaml
from generator.render.units import MAX_LENGTH, POINTS_PER_UNIT, read_length
from generator.render.units import MM as MM  # sheets measure in it; imported from here by their callers

STYLE_FILE = Path(__file__).with_name("sheets.yaml")

PAPER_SIZE_PATTERN = re.compile(
    r"^\s*(\d+(?:\.\d+)?)\s*[x×]\s*(\d+(?:\.\d+)?)\s*(pt|mm|cm|in)?\s*$", re.IGNORECASE)

ORIENTATIONS = ("portrait", "landscape")

LARGEST_PAPER = MAX_LENGTH
"""PDF pages may be at most 200 inches (5080 mm) a side; larger pages do not display or print."""


@dataclass(repr=False, eq=False)
class Paper:
    """A sheet of paper as it lies on the page: width and height in points."""

    name: str
    label: str
    width: float
    height: float

    @property
    def orientation(self) -> str:
        """Portrait when the sides are upright or square, landscape when wider than tall."""
        return "landscape" if self.width > self.height else "portrait"

    def turned(self, orientation: str) -> Paper:
        """The same paper turned to ``orientation`` ("portrait" or "landscape")."""
        if orientation == self.orientation:
            return self
        return Paper(self.name, self.label, self.height, self.width)

    def describe(self) -> str:
        return f"{self.label} {self.orientation}"


@dataclass(repr=False, eq=False)
class LineStyle:
    """How a kind of line is stroked: width in points, gray level, dash pattern."""

    width: float
    gray: float
    dash: tuple[float, ...] = ()


@dataclass(repr=False, eq=False)
class MarkStyle:
    """Crop marks: their longest and shortest length, distances, and stroke."""

    length: float
    shortest: float
    gap: float
    edge: float
    line: LineStyle


@dataclass(repr=False, eq=False)
class FooterStyle:
    """The footer under each sheet: its type size, baseline and gray, and the draft label."""

    size: float
    baseline: float
    gray: float
    smallest: float
    """The least size the footer shrinks to so as to stay below the cards of a page that
    leaves it too little room; a page with less room has no footer."""
    draft_label: str = "DRAFT"
    draft_rgb: tuple[float, float, float] = (0.8, 0.1, 0.1)

    @property
    def top(self) -> float:
        """The highest point the footer's letters reach, from the bottom paper edge (at most:
        a footer set smaller reaches less high)."""
        return self.baseline + self.size


@dataclass(repr=False, eq=False)
class SheetStyle:
    """Everything ``sheets.yaml`` says, in points."""

    papers: dict[str, Paper]
    default_paper: str
    default_margin: float
    default_gutter: float
    marks: MarkStyle
    cut_lines: LineStyle
    fold_line: LineStyle
    footer: FooterStyle


def settings_of(document: Document) -> tuple[Callable[..., object], Callable[..., float]]:
    """The readers of a sheets data file (``sheets.yaml``, ``cutters.yaml``): the setting at
    some keys, and a length there (bare numbers are points); either raises an
    :class:`InputError` at the setting's line when it is missing or malformed."""

    def setting(*keys: str) -> object:
        node = document.data
        for key in keys:
            if not isinstance(node, dict) or key not in node:
                raise InputError("missing setting", document.at(*keys[:-1]), keys[-1])
            node = node[key]
        return node

    def length(*keys: str) -> float:
        return read_length(setting(*keys), "pt", document.at(*keys), keys[-1])

    return setting, length


def load_style(path: Path = STYLE_FILE) -> SheetStyle:
    """Read ``sheets.yaml`` (or another file of the same shape). Lengths without a unit are
    points; a setting missing or malformed is an :class:`InputError` at its line."""
    document = load_yaml(path)
    data = document.data
    setting, length = settings_of(document)

    def gray(*keys: str) -> float:
        value = setting(*keys)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise InputError(f"expected a gray level from 0 (black) to 1 (white), found '{value}'",
                             document.at(*keys), keys[-1])
        return float(value)

    def line(section: str) -> LineStyle:
        dash = data[section].get("dash", [])
        if not isinstance(dash, list):
            raise InputError("expected a list of lengths such as [3pt, 2pt]", document.at(section, "dash"), "dash")
        return LineStyle(
            width=length(section, "width"),
            gray=gray(section, "gray"),
            dash=tuple(read_length(step, "pt", document.at(section, "dash", index), "dash")
                       for index, step in enumerate(dash)),
        )

    papers = {name: _read_paper(document, name) for name in data["papers"]}
    default_paper = str(setting("defaults", "paper"))
    if default_paper not in papers:
        raise InputError(f"no paper named '{default_paper}'", document.at("defaults", "paper"), "paper")
    return SheetStyle(
        papers=papers,
        default_paper=default_paper,
        default_margin=length("defaults", "margin"),
        default_gutter=length("defaults", "gutter"),
        marks=MarkStyle(
            length=length("marks", "length"),
            shortest=length("marks", "shortest"),
            gap=length("marks", "gap"),
            edge=length("marks", "edge"),
            line=line("marks"),
        ),
        cut_lines=line("cut_lines"),
        fold_line=line("fold_line"),
        footer=FooterStyle(
            size=length("footer", "size"),
            baseline=length("footer", "baseline"),
            gray=gray("footer", "gray"),
            smallest=length("footer", "smallest"),
            draft_label=str(data["footer"].get("draft_label", "DRAFT")),
            draft_rgb=_rgb(data["footer"].get("draft_rgb", [0.8, 0.1, 0.1]), document.at("footer", "draft_rgb")),
        ),
    )


def _rgb(value: object, position: Position) -> tuple[float, float, float]:
    """A colour as three numbers from 0 to 1."""
    if not (isinstance(value, list) and len(value) == 3 and all(
            isinstance(part, (int, float)) and not isinstance(part, bool) and 0 <= part <= 1 for part in value)):
        raise InputError("expected a colour as [red, green, blue], each from 0 to 1", position, "draft_rgb")
    return (float(value[0]), float(value[1]), float(value[2]))


def _read_paper(document: Document, name: str) -> Paper:
    spec = document.data["papers"][name]
    keys = ("papers", name)
    if not isinstance(spec, dict):
        raise InputError("a paper is a mapping with width and height", document.at(*keys), name)
    width = read_length(spec.get("width"), "pt", document.at(*keys, "width"), "width")
    height = read_length(spec.get("height"), "pt", document.at(*keys, "height"), "height")
    return Paper(name=name, label=str(spec.get("label", name)), width=width, height=height)


def find_paper(spec: str, orientation: str, style: SheetStyle) -> Paper:
    """The paper a user names: a known size (``a4``, ``letter``) or ``WIDTHxHEIGHT[unit]``.

    A custom size without a unit is in millimetres (``200x280``); ``8.5x14in``
    and ``612x1008pt`` name their unit. The result is turned to ``orientation``.
    """
    key = spec.strip().lower()
    if key in style.papers:
        paper = style.papers[key]
    else:
        match = PAPER_SIZE_PATTERN.match(key)
        if not match:
            known = ", ".join(sorted(style.papers))
            raise ValueError(f"unknown paper '{printable(spec)}'; use one of {known} "
                             "or a size such as 200x280mm or 8.5x14in")
        unit = POINTS_PER_UNIT[(match.group(3) or "mm").lower()]
        width, height = float(match.group(1)) * unit, float(match.group(2)) * unit
        if width <= 0 or height <= 0:
            raise ValueError(f"paper sides must be longer than zero, found '{printable(spec)}'")
        paper = Paper(name=key, label=key, width=min(width, height), height=max(width, height))
    if paper.height > LARGEST_PAPER + EPSILON:  # 5080 mm is 14,400.000000000002 pt in floating point
        raise ValueError(f"paper '{printable(spec)}' is larger than a PDF page may be: at most 5080 mm "
                         "(200 in) a side")
    if orientation not in ORIENTATIONS:
        raise ValueError(f"orientation is portrait or landscape, found '{printable(orientation)}'")
    return paper.turned(orientation)
