"""Errors every stage raises, and the exit codes the CLI maps them to.

A designer sees one line per problem, in the form editors and terminals turn
into links: ``path:line:column: what is wrong (field)``. Stages raise these
exceptions; only the CLI prints them and picks the exit code.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path

EXIT_OK = 0
EXIT_RULES = 1
"""A deck breaks its own rules, or a card cannot be laid out."""
EXIT_INPUT = 2
"""A file is unreadable or malformed, or the command line is wrong."""

CONTROL_CHARACTERS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What a terminal acts on instead of showing (C0 and C1 controls: ESC starts sequences that
retitle or clear it, BEL rings), what breaks a message's one line (line and paragraph
separators), and what reorders it (bidirectional embeddings, overrides and isolates). Text
quoted from a deck shows these as escapes, never raw."""
_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_RAW_IN_JSON = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""The control characters JSON leaves raw in its strings (it escapes those below U+0020 itself)."""


def printable(text: str, keep: str = "") -> str:
    """``text`` with each of :data:`CONTROL_CHARACTERS` written as an escape (``\\x1b``,
    ``\\n``, ``\\u202e``), apart from those in ``keep`` (``"\\n\\t"`` for text of several
    lines). Every message quoting input passes through here, so a shared deck cannot drive
    the designer's terminal; escaping twice changes nothing."""
    if not CONTROL_CHARACTERS.search(text):
        return text
    return CONTROL_CHARACTERS.sub(lambda found: _escape(found.group(), keep), text)


def _escape(character: str, keep: str) -> str:
    if character in keep:
        return character
    code = ord(character)
    return _SHORT_ESCAPES.get(character) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def printable_json(text: str) -> str:
    """JSON text with the controls it may still hold raw (:data:`_RAW_IN_JSON`, found only
    inside its strings) written as ``\\u`` escapes: the same data, and nothing a terminal acts on."""
    return _RAW_IN_JSON.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


@dataclass(frozen=True)
class Position:
    """Where something stands in a source file (1-based line and column)."""

    path: Path
    line: int = 0
    column: int = 0

    def order(self) -> tuple[str, int, int]:
        """Sorts positions by file as messages name it (:meth:`shown_path`), then line, then column."""
        return (shown_path(self.path), self.line, self.column)

    def shown_path(self) -> str:
        """The file as messages name it: below the working folder, from there, so a layout found
        by its absolute path reads as the deck file named on the command line (``cards/x/...``)."""
        return printable(shown_path(self.path))  # a file name in a shared folder is input too

    def __str__(self) -> str:
        path = self.shown_path()
        if self.line and self.column:
            return f"{path}:{self.line}:{self.column}"
        if self.line:
            return f"{path}:{self.line}"
        return path


def shown_path(path: Path) -> str:
    """``path`` relative to the working folder when it is an absolute path inside it (or leads
    there through a symbolic link, as a layout found by its real path does); else as it is."""
    if not path.is_absolute():
        return str(path)
    try:
        here = Path.cwd()
    except OSError:  # no working folder any more
        return str(path)
    return _from(path, here)


@lru_cache(maxsize=256)
def _from(path: Path, here: Path) -> str:
    """:func:`shown_path` of an absolute path from the folder ``here``; kept, as the findings of
    one deck name a few files many times (each sorted and printed by its name)."""
    for candidate in (path, Path(os.path.realpath(path))):
        if candidate.is_relative_to(here):
            return str(candidate.relative_to(here))
    return str(path)


class DeckpressError(Exception):
    """Base for errors shown to the user as one line, with an exit code."""

    exit_code = EXIT_INPUT

    def __init__(self, message: str, position: Position | None = None, field: str | None = None):
        message = printable(message)  # the one place every error's text passes: see printable
        super().__init__(message)
        self.message = message
        self.position = position
        self.field = printable(field) if field else field

    def __str__(self) -> str:
        where = f"{self.position}: " if self.position else ""
        what = f" ({self.field})" if self.field else ""
        return f"{where}{self.message}{what}"


class InputError(DeckpressError):
    """A file is missing, unreadable, or not a valid deck, layout or rules file."""

    exit_code = EXIT_INPUT


class LayoutError(DeckpressError):
    """A card cannot be drawn as its layout asks (text does not fit, missing glyph)."""

    exit_code = EXIT_RULES


class ProblemGroup:
    """Several independent problems found in one pass, each reported on its own line.

    Mixed into :class:`InputErrors` and :class:`LayoutErrors` so code that catches
    one kind of error still catches a group of them. The group's position and
    message are its first problem's; its exit code is the highest of them.
    """

    errors: tuple[DeckpressError, ...]

    def __init__(self, errors: Iterable[DeckpressError]):
        flat = [each for error in errors for each in each_error(error)]
        if not flat:
            raise ValueError("a problem group needs at least one problem")
        first = flat[0]
        DeckpressError.__init__(self, first.message, first.position, first.field)  # type: ignore[arg-type]
        self.errors = tuple(flat)
        self.exit_code = max(error.exit_code for error in flat)

    def __str__(self) -> str:
        return "\n".join(str(error) for error in self.errors)


class InputErrors(ProblemGroup, InputError):
    """Every malformed part of one input found in one pass (every bad card, not the first)."""


class LayoutErrors(ProblemGroup, LayoutError):
    """Every face that cannot be laid out, not only the first."""


def each_error(error: DeckpressError) -> tuple[DeckpressError, ...]:
    """The single problems inside ``error`` (itself, unless it is a group)."""
    return getattr(error, "errors", None) or (error,)


def place_order(position: Position | None) -> tuple[str, int, int]:
    """What sorts problems into file order (:meth:`Position.order`); no place sorts first."""
    return position.order() if position is not None else ("", 0, 0)


def in_file_order(errors: Iterable[DeckpressError]) -> list[DeckpressError]:
    """``errors`` by file, line and column (those without a position first; ties keep their order)."""
    return sorted(errors, key=lambda error: place_order(error.position))


def together(errors: Iterable[DeckpressError]) -> DeckpressError:
    """One error standing for every problem found in one pass: the problem itself when there
    is one, else a group (:class:`LayoutErrors` when each is a layout problem, else
    :class:`InputErrors`). A problem found twice (a bad text default, read by every text
    element) is said once."""
    unique = list({str(each): each for error in errors for each in each_error(error)}.values())
    if len(unique) == 1:
        return unique[0]
    if all(isinstance(error, LayoutError) for error in unique):
        return LayoutErrors(unique)
    return InputErrors(unique)


def describe_value(value: object) -> str:
    """A value as a designer wrote it, for 'expected X, found Y' messages."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"'{str(value).lower()}' (yes/no)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, date):  # a datetime is one too
        return f"the date {value}"  # YAML reads 2024-01-01 as a date unless it is quoted
    return f"'{value}'"


def value_text(value: object) -> str:
    """A field's value as tables, charts and comparisons name it."""
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """"1 card", "2 cards"; ``nouns`` for a plural that is not ``noun`` + s ("copies")."""
    return f"{count} {noun}" if count == 1 else f"{count} {nouns or noun + 's'}"


def page_ranges(pages: Sequence[int]) -> str:
    """``[1, 2, 3, 7]`` -> ``pages 1-3, 7``."""
    if not pages:
        return ""
    text = ", ".join(f"{first}" if first == last else f"{first}-{last}" for first, last in consecutive_runs(pages))
    return f"{'page' if len(pages) == 1 else 'pages'} {text}"


def consecutive_runs(numbers: Iterable[int]) -> list[tuple[int, int]]:
    """``[1, 2, 3, 7]`` -> ``[(1, 3), (7, 7)]``: each run of consecutive numbers, first and last."""
    runs: list[tuple[int, int]] = []
    for number in sorted(set(numbers)):
        if runs and number == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], number)
        else:
            runs.append((number, number))
    return runs


def quoting_hint(value: object) -> str:
    """'; write it in quotes' for a value YAML read as something other than text only because
    it was left unquoted (7, yes, 2024-01-01) where text was wanted; nothing for a missing
    value, a list or a mapping, which quotes would not mend."""
    if value is None or isinstance(value, (str, dict, list)):
        return ""
    return "; write it in quotes"


def not_text(value: object) -> str:
    """'expected text, found ...' for ``value`` where text was wanted, with the quoting hint."""
    return f"expected text, found {describe_value(value)}{quoting_hint(value)}"


def did_you_mean(word: str, choices: Iterable[object]) -> str:
    """'; did you mean X?' for a near miss, else '; expected one of: ...'."""
    names = sorted(map(str, choices))
    import difflib  # noqa: PLC0415  (only a mistake needs it; loading it is 0.2% of every check)

    close = difflib.get_close_matches(word, names, n=1)
    if close:
        return f"; did you mean '{close[0]}'?"
    return f"; expected one of: {', '.join(names)}"
