"""How long a rules file's words, headings and tables may be, and how wide its tables,
checked where the booklet reads them and where ``check`` does (without loading the PDF
libraries)."""

from __future__ import annotations

from collections.abc import Callable

from generator.deck.model import Deck
from generator.errors import InputError, Position
from generator.words import PLURAL_RULE

MAX_WORD_LENGTH = 200
"""Characters in one word (text between spaces) of a rules file. The longest words and
web addresses in a rulebook stay under a hundred; reportlab breaks an overlong word letter
by letter, which is slow for a long one, and cannot fit it in a table cell."""

MAX_HEADING_LENGTH = 200
"""Characters in a heading: a few lines at most, so a heading always fits on one page and
in the contents; a longer one is a paragraph that lost its blank line."""

MAX_TABLE_ROWS = 500
"""Rows of one booklet table (a Markdown table or a ``{{ cardtable }}``), header aside: ten
pages of them. reportlab lays out the rest of a table again at every page it breaks, so
the work grows with the square of the rows. A longer list is better split by a heading,
or a ``where=`` picking fewer cards."""

CELL_PADDING = 4
"""Points of space left and right of the text in a table cell."""

MIN_COLUMN_WIDTH = 3 * CELL_PADDING
"""The narrowest a table column is made, empty or not: its padding and a little text."""


def column_need(longest_word: float) -> float:
    """The width a table column needs to print its longest word (``longest_word`` points) whole:
    the word, its padding and a point of slack (reportlab wraps a line that fits only to the
    last decimal), never less than :data:`MIN_COLUMN_WIDTH`."""
    return max(MIN_COLUMN_WIDTH, longest_word + 2 * CELL_PADDING + 1)

MIN_COLUMN_TEXT = 14
"""Points of text width a table column needs at the least (about two letters); a table
whose columns cannot all get this much does not fit the page and is refused."""

Where = Callable[[str], Position]
"""The position of a piece of text (the first place it appears in the block being read)."""


def check_words(raw: str, where: Where) -> None:
    """Refuse a word longer than MAX_WORD_LENGTH, at the word."""
    longest = max(raw.split(), key=len, default="")
    if len(longest) > MAX_WORD_LENGTH:
        raise InputError(f"a word of {len(longest):,} characters ('{longest[:20]}...'); words are at most "
                         f"{MAX_WORD_LENGTH} characters, put spaces in it", where(longest[:40]), field="text")


def check_heading(plain: str, position: Position) -> None:
    if len(plain) > MAX_HEADING_LENGTH:
        raise InputError(f"a heading of {len(plain):,} characters; headings are at most "
                         f"{MAX_HEADING_LENGTH} (is a blank line missing after it?)", position, field="heading")


def check_table_rows(rows: int, position: Position | None, field: str = "table") -> None:
    if rows > MAX_TABLE_ROWS:
        raise InputError(f"a table of {rows:,} rows; a booklet table has at most {MAX_TABLE_ROWS} "
                         "(split it under headings, or pick fewer cards with where=)", position, field=field)


def first_unprintable(text: str, printable: Callable[[str], bool]) -> str | None:
    """The first character (in reading order) of ``text`` the booklet cannot print, if any.
    Each distinct character is looked up once, however long the text."""
    return next((character for character in dict.fromkeys(text)
                 if character not in "\n\t" and not printable(character)), None)


def check_glyphs(raw: str, printable: Callable[[str], bool], where: Where) -> None:
    """Refuse the first character the booklet font cannot print."""
    character = first_unprintable(raw, printable)
    if character is not None:
        raise InputError(f"no booklet font has '{character}' (U+{ord(character):04X}); "
                         "use another character", where(character), field="text")


def check_columns(columns: int, width: float, position: Position | None, field: str = "table") -> None:
    """Refuse a table of more columns than fit side by side in ``width`` points."""
    fitting = int(width // (2 * CELL_PADDING + MIN_COLUMN_TEXT))
    if columns > fitting:
        raise InputError(f"a table of {columns} columns does not fit the page: "
                         f"at most {fitting} fit side by side", position, field=field)


def cover_problems(deck: Deck, printable: Callable[[str], bool]) -> list[InputError]:
    """The deck's own words the booklet's cover prints (its name and designer), each with a
    character no booklet font has. The cards may draw such a name in a font of the deck's
    own; the booklet's fonts are its own, so the cover would print an empty box."""
    problems = []
    for key, text in (("name", deck.name), ("designer", deck.info.get("designer"))):
        character = first_unprintable(str(text or ""), printable)
        if character is not None:
            problems.append(InputError(
                f"the booklet's cover prints the deck's {key} '{text}', and no booklet font has "
                f"'{character}' (U+{ord(character):04X}); use another character", deck.source.at("deck", key),
                field=key))
    return problems


PHRASES_PRINTED_ELSEWHERE = frozenset({"booklet_title", "booklet_subject", "untranslated"})
"""Phrases of :mod:`generator.words` the booklet's fonts never print: the PDF's title and
subject are its document information, which a reader shows in its own font, and a draft's
marked text is drawn on the cards, in the layout's fonts."""


def phrase_problems(deck: Deck, printable: Callable[[str], bool]) -> list[InputError]:
    """Each phrase the deck's translation gives under ``words:`` that the booklet prints (its
    cover, headings, table headers, captions, the printing note) with a character no booklet
    font has, at the phrase's line. The shipped tables of phrases are deckpress's own, and
    print (a test holds them to it), so a deck as written has none to check."""
    translation = deck.translation
    if translation is None:
        return []
    problems = []
    for key, phrase in translation.words.items():
        if key == PLURAL_RULE or key in PHRASES_PRINTED_ELSEWHERE:
            continue
        for text in phrase.values() if isinstance(phrase, dict) else (phrase,):
            character = first_unprintable(text, printable)
            if character is not None:
                problems.append(InputError(
                    f"the booklet prints the phrase {key} '{text}', and no booklet font has "
                    f"'{character}' (U+{ord(character):04X}); use another character",
                    translation.word_positions.get(key, Position(translation.path)), field=key))
                break
    return problems
