"""Directives: ``{{ name option=value ... }}`` in a rules file, filled in from the deck.

A rules file is Markdown plus directives, so the booklet never has to repeat a
number the deck file already knows. Two kinds:

*Inline* directives become text wherever they stand, even mid-sentence::

    The deck has {{ total }} cards, {{ count type=spilled-milk }} of them Spilled Milk.
    A game for {{ players }}; it needs {{ players min }} to start.
    Prince Kracula Krunch pays ${{ value prince-kracula-krunch reward }}.

*Block* directives stand alone on a line and become a whole block::

    {{ components by=category extra="Two six-sided dice" }}
    {{ cardtable type=monster columns=roll,name,reward sort=roll }}
    {{ cards category=Shelf side=both width=22mm }}
    {{ decklists by=type }}
    {{ pagebreak }}

Options that are not the directive's own settings pick cards, like a deck
file's ``where:`` (``type=monster``, ``roll=2,12`` for "2 or 12", ``back.side=fairy``);
``has=burn_effect`` keeps cards with a value in that field, and
``decklist=ID`` counts the copies in one decklist instead of the printed pool.
Values with spaces go in double quotes. An unknown directive, option or field
is an error naming the file, line and column.
"""

from __future__ import annotations

import dataclasses
import re
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.booklet.components import (
    Components,
    choice_text,
    components,
    describe_group,
    extras_option,
    group_values,
    players_label,
    value_label,
)
from generator.booklet.style import MM, to_points
from generator.deck.model import Card, Deck, Decklist
from generator.deck.selectors import Selector, parse_selector
from generator.errors import InputError, Position
from generator.render.markup import readable
from generator.words import Words, words_for

DIRECTIVE = re.compile(r"\{\{(.*?)\}\}")


@dataclass(repr=False, eq=False)
class Directive:
    """One ``{{ ... }}`` as written: its name, arguments and where it stands."""

    name: str
    arguments: tuple[str, ...]
    options: dict[str, str]
    position: Position
    source: str
    """The directive as written, braces and all."""
    end_column: int
    """The column just past its closing braces."""

    def fail(self, message: str) -> InputError:
        return InputError(message, self.position, field=self.name)


@dataclass(repr=False, eq=False)
class Spec:
    """What a directive accepts: its own options and whether it also picks cards."""

    kind: str  # "inline" or "block"
    options: frozenset[str] = frozenset()
    arguments: int = 0
    selects_cards: bool = False
    free_labels: bool = False  # components: other options rename groups
    words: tuple[str, ...] = ()  # plain words it may take instead of its arguments


SPECS: dict[str, Spec] = {
    "name": Spec("inline"),
    "players": Spec("inline", words=("bare", "min", "max")),
    "total": Spec("inline", selects_cards=True),
    "count": Spec("inline", selects_cards=True),
    "kinds": Spec("inline", selects_cards=True),
    "value": Spec("inline", arguments=2),
    "components": Spec("block", frozenset({"by", "extra"}), free_labels=True),
    "decklists": Spec("block", frozenset({"by"}), free_labels=True),
    "cardtable": Spec("block", frozenset({"columns", "headers", "sort", "format"}), selects_cards=True),
    "cards": Spec("block", frozenset({"side", "width"}), selects_cards=True),
    "pagebreak": Spec("block"),
}
"""Every directive a rules file may use. The booklet guide in the README lists them."""


def scan(text: str, path: Path, problems: list[InputError] | None = None) -> list[Directive]:
    """Every directive in ``text``, parsed and checked for known names, in reading order.

    With ``problems``, a directive that cannot be read is kept there and left out,
    so ``check`` reports every one; without, the first raises.
    """
    found = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        for match in DIRECTIVE.finditer(line):
            position = Position(path, line_number, match.start() + 1)
            try:
                found.append(parse(match.group(1), position, match.group(0), match.end()))
            except InputError as error:
                if problems is None:
                    raise
                problems.append(error)
    return found


def parse(inner: str, position: Position, source: str, end_column: int) -> Directive:
    """``" count type=monster "`` -> Directive(name="count", options={"type": "monster"})."""
    try:
        words = shlex.split(inner)
    except ValueError as error:
        raise InputError(f"cannot read directive {source!r}: {error}", position) from None
    if not words:
        raise InputError("empty directive '{{ }}'", position)
    name, rest = words[0], words[1:]
    if name not in SPECS:
        known = ", ".join(sorted(SPECS))
        raise InputError(f"unknown directive '{name}'; known directives: {known}", position, field=name)
    spec = SPECS[name]
    arguments = tuple(word for word in rest if "=" not in word)
    options: dict[str, str] = {}
    for word in rest:
        if "=" in word:
            key, value = word.split("=", 1)
            if key in options:
                raise InputError(f"option '{key}' given twice", position, field=name)
            options[key] = value
    if spec.words and arguments:
        if len(arguments) > 1 or arguments[0] not in spec.words:
            raise InputError(f"'{name}' takes nothing or one of {', '.join(spec.words)}, found "
                             f"{' '.join(arguments)}", position, field=name)
    elif len(arguments) != spec.arguments:
        expected = f"{spec.arguments} plain argument(s)" if spec.arguments else "no plain arguments"
        raise InputError(f"'{name}' takes {expected}, found {len(arguments)}: {' '.join(arguments)}",
                         position, field=name)
    directive = Directive(name, arguments, options, position, source, end_column)
    if not (spec.selects_cards or spec.free_labels):
        extra = sorted(set(options) - spec.options)
        if extra:
            allowed = f"options: {', '.join(sorted(spec.options))}" if spec.options else "it takes no options"
            raise directive.fail(f"unknown option '{extra[0]}'; {allowed}")
    return directive


def coerce(raw: str) -> Any:
    """A directive value as the deck stores it: numbers, yes/no, or text; commas make a list."""
    if "," in raw:
        return [coerce(part.strip()) for part in raw.split(",")]
    if re.fullmatch(r"-?\d+", raw):
        return int(raw)
    if raw.lower() in ("true", "yes"):
        return True
    if raw.lower() in ("false", "no"):
        return False
    return raw


PICKING_OPTIONS = frozenset({"decklist", "has"})
"""Options every card-picking directive takes besides field filters:
``decklist=ID`` counts copies in that decklist instead of the printed pool;
``has=field1,field2`` keeps only cards that have a value for those fields."""


def card_filter(directive: Directive, deck: Deck) -> Selector:
    """The cards a directive picks: every option that is not one of its own settings."""
    own = SPECS[directive.name].options | PICKING_OPTIONS
    where = {key: coerce(value) for key, value in directive.options.items() if key not in own}
    return parse_selector(where or None, deck, directive.position)


def picked_cards(directive: Directive, deck: Deck) -> list[Card]:
    """The cards a directive picks, each with its count in the pool or the named decklist."""
    selector = card_filter(directive, deck)
    cards = [card for card in deck.cards if selector.matches(card)]
    required = [name.strip() for name in directive.options.get("has", "").split(",") if name.strip()]
    for name in required:
        check_field(directive, deck, name)
    cards = [card for card in cards if all(card_value(card, name) not in (None, "") for name in required)]
    list_id = directive.options.get("decklist")
    if list_id is None:
        return cards
    decklist = find_decklist(directive, deck, list_id)
    return [dataclasses.replace(card, count=decklist.counts[card.id])
            for card in cards if decklist.counts.get(card.id)]


def find_decklist(directive: Directive, deck: Deck, list_id: str) -> Decklist:
    decklist = next((entry for entry in deck.decklists if entry.id == list_id), None)
    if decklist is None:
        known = ", ".join(entry.id for entry in deck.decklists) or "none"
        raise directive.fail(f"no decklist '{list_id}' (decklists: {known})")
    return decklist


@dataclass(repr=False, eq=False)
class Column:
    """One column of a card table: its default header and how to read a card's value."""

    header: str
    value: Callable[[Card], Any]


def table_column(directive: Directive, deck: Deck, name: str) -> Column:
    """A ``columns=`` entry: a field, ``back.field``, ``count``, ``id`` or ``decklist:ID``.

    ``decklist:ID`` shows the copies of each card in that decklist.
    """
    if name.startswith("decklist:"):
        decklist = find_decklist(directive, deck, name.removeprefix("decklist:"))
        return Column(decklist.name, lambda card: decklist.counts.get(card.id) or None)
    check_field(directive, deck, name)
    header = words_for(deck)("cards_column") if name == "count" else column_header(name)
    return Column(header, lambda card: card_value(card, name))


def column_header(name: str) -> str:
    """The header a field's column prints without ``headers=``: its name, ``back.power_level``
    as "Back power level"."""
    words = name.replace("back.", "back ").replace("_", " ")
    return words[:1].upper() + words[1:]


def column_formats(directive: Directive, columns: list[str]) -> dict[str, str]:
    """``format="group:-{},star:Star"`` -> {"group": "-{}", "star": "Star"}.

    A format is the text a column prints for each card, ``{}`` standing for the
    card's value: rhyme endings print as ``-our``, a yes/no field as "Star"
    (or nothing when no). Without a format, values print as the card shows them.
    """
    raw = directive.options.get("format", "")
    formats = {}
    for entry in filter(None, (part.strip() for part in raw.split(","))):
        name, colon, template = entry.partition(":")
        if not colon or not template:
            raise directive.fail(f"format entry '{entry}' should read column:text, e.g. group:-{{}}")
        if name not in columns:
            raise directive.fail(f"format names '{name}', which is not one of the columns "
                                 f"({', '.join(columns)})")
        formats[name] = template
    return formats


def component_labels(directive: Directive, deck: Deck) -> dict[str, str]:
    """``components`` options other than by/extra rename groups: ``true="Star cards"``."""
    labels = {key: value for key, value in directive.options.items()
              if key not in SPECS["components"].options}
    if not labels:
        return {}
    by = directive.options.get("by")
    if by is None:
        raise directive.fail(f"unknown option '{next(iter(labels))}'; options: by, extra, "
                             "and group labels once 'by' is given")
    values = group_values(deck, by)
    aliases = {"true": "yes", "false": "no"}
    renamed = {}
    for key, label in labels.items():
        value = aliases.get(key.lower(), key)
        if value not in values:
            raise directive.fail(f"'{key}' is not a value of field '{by}' "
                                 f"(values: {', '.join(sorted(values))})")
        renamed[value] = label
    return renamed


def check_field(directive: Directive, deck: Deck, name: str) -> None:
    """Refuse a field name the deck does not have (column names, sort keys, 'by')."""
    bare = name.removeprefix("back.")
    known = set(deck.fields) | {key for card in deck.cards for key in card.fields}
    known |= {key for card in deck.cards for key in (card.back or {})}
    if bare not in known | {"id", "count"}:
        raise directive.fail(f"the deck has no field '{name}'")


def card_value(card: Card, name: str) -> Any:
    """A card's value for a column: ``count``, ``id``, a front field or a ``back.`` field."""
    if name == "count":
        return card.count
    if name == "id":
        return card.id
    if name.startswith("back."):
        return (card.back or {}).get(name[5:])
    return card.fields.get(name)


# --- what the block directives show ------------------------------------------


def components_of(directive: Directive, deck: Deck) -> Components:
    """What a ``{{ components }}`` lists: the deck's cards, grouped by its ``by=`` field, and
    its extras."""
    by = directive.options.get("by")
    if by is not None:
        check_field(directive, deck, by)
    return components(deck, by, component_labels(directive, deck), extras_option(directive.options))


@dataclass(repr=False, eq=False, slots=True)
class Cell:
    """A cell of a block directive's table: its text, in bold or not, and a smaller line under it.
    A card's text (``card``) is card markup: its bold, italic, line breaks and icons print as on
    the card."""

    text: str
    bold: bool = False
    note: str = ""
    card: bool = False


@dataclass(repr=False, eq=False)
class DirectiveTable:
    """What a ``{{ components }}``, ``{{ decklists }}`` or ``{{ cardtable }}`` prints: its
    headers, whether each column holds numbers (printed to the right) and a row of cells (None:
    blank) for each entry. ``shares`` fixes each column's share of the text width; without,
    the columns share it by their texts."""

    headers: list[str]
    numeric: list[bool]
    rows: Sequence[Sequence[Cell | None]]
    shares: tuple[float, ...] | None = None

    @property
    def printed(self) -> list[str]:
        """Every text the table prints, as it reads (a card text without its markup), to be
        checked as the rules file's own text is: its headers and cells come from the rules
        file, the deck (choice values, titles, descriptions) and the translation (labels,
        phrases), and the booklet's fonts must have each of their characters."""
        cells = [cell for row in self.rows for cell in row if cell is not None]
        return [*self.headers, *(readable(cell.text) if cell.card else cell.text for cell in cells),
                *(cell.note for cell in cells if cell.note)]


def directive_table(directive: Directive, deck: Deck) -> DirectiveTable:
    """The table a table directive prints (see :class:`DirectiveTable`)."""
    return {"components": _components_table, "decklists": _decklists_table,
            "cardtable": _card_table}[directive.name](directive, deck)


def _components_table(directive: Directive, deck: Deck) -> DirectiveTable:
    contents = components_of(directive, deck)
    words = words_for(deck)
    rows: list[list[Cell | None]]
    if contents.groups:
        rows = [[Cell(str(group.count)), Cell(group.label), Cell(describe_group(group, deck))]
                for group in contents.groups]
    else:
        rows = [[Cell(str(card.count)), Cell(deck.title(card.fields)), None] for card in deck.cards if card.count]
    rows.append([Cell(str(deck.total), bold=True), Cell(words("in_all"), bold=True), None])
    rows += [[None, Cell(extra), None] for extra in contents.extras]
    return DirectiveTable([words("cards_column"), words("kind_column"), words("details_column")],
                          [True, False, False], rows, shares=(0.14, 0.36, 0.50))


def _decklists_table(directive: Directive, deck: Deck) -> DirectiveTable:
    """Each decklist with its size, split by a field (``by=type``: monsters, treasures...): a
    column for each of its values, in the order the cards first have it."""
    if not deck.decklists:
        raise directive.fail("the deck has no decklists")
    by = directive.options.get("by")
    values: dict[str, Any] = {}  # each value as it reads -> as the deck has it
    labels: dict[str, str] = {}
    if by is not None:
        check_field(directive, deck, by)
        labels = component_labels(directive, deck)
        for card in deck.cards:
            values.setdefault(value_label(card.fields.get(by)), card.fields.get(by))
    rows: list[list[Cell | None]] = []
    for decklist in deck.decklists:
        totals = [sum(decklist.counts.values())]
        for value in values:
            totals.append(sum(copies for card_id, copies in decklist.counts.items()
                              if value_label(deck.card(card_id).fields.get(by or "")) == value))
        rows.append([Cell(decklist.name, bold=True, note=decklist.description),
                     *(Cell(str(total)) for total in totals)])
    words = words_for(deck)
    headers = [labels.get(value) or choice_text(deck, by or "", raw) or value.capitalize() or words("other_column")
               for value, raw in values.items()]
    return DirectiveTable([words("deck_column"), words("cards_column"), *headers], [False] + [True] * (1 + len(values)),
                          rows)


def card_table_columns(directive: Directive, deck: Deck) -> list[str]:
    """The columns a ``{{ cardtable }}`` prints, in order: its ``columns=``, else the count and
    each card's title."""
    return [name.strip() for name in directive.options.get("columns", f"count,{deck.title_field}").split(",")
            if name.strip()]


def _card_table(directive: Directive, deck: Deck) -> DirectiveTable:
    names = card_table_columns(directive, deck)
    if not names:
        raise directive.fail("'columns=' names no columns; list fields, e.g. columns=count,name")
    columns = [table_column(directive, deck, name) for name in names]
    formats = column_formats(directive, names)
    headers = directive.options.get("headers")
    titles = [part.strip() for part in headers.split(",")] if headers else [column.header for column in columns]
    if len(titles) != len(columns):
        raise directive.fail(f"{len(columns)} columns but {len(titles)} headers")
    cards = [card for card in picked_cards(directive, deck) if card.count]
    if not cards:
        raise directive.fail("picks no cards")
    sort = directive.options.get("sort")
    if sort:
        key = table_column(directive, deck, sort.lstrip("-"))
        cards.sort(key=lambda card: _sort_key(key.value(card)), reverse=sort.startswith("-"))
    words = words_for(deck)
    rows = [[shown(deck, name, column.value(card), formats.get(name), words)
             for name, column in zip(names, columns, strict=True)] for card in cards]
    return DirectiveTable(titles, [_is_numeric([column.value(card) for card in cards]) for column in columns], rows)


def shown(deck: Deck, column: str, value: Any, template: str | None, words: Words) -> Cell:
    """A card's value as a table prints it, the way the card says it: its text as card markup.

    Values of a field with fixed choices (``dragon``, ``red``) are stored in
    lower case but printed capitalised (or as the translation labels them); yes/no
    fields print Yes or a dash. A column format (``group:-{}``) prints its text
    instead, with the raw value in place of ``{}``; a no-value prints nothing.
    """
    if template is not None:
        filled = "" if value is True else str(value)
        return Cell("" if value is None or value is False else template.replace("{}", filled))
    spec = deck.fields.get(column.removeprefix("back."))
    choice = choice_text(deck, spec.name, value) if spec is not None else None
    if choice is not None:
        return Cell(choice)
    if value is None:
        return Cell("–")
    if isinstance(value, bool):
        return Cell(words("yes_cell") if value else "–")
    if isinstance(value, str):
        # A plain field (markup: false) prints as written, as on the card.
        return Cell(value, card=spec is None or spec.markup)
    return Cell(str(value))


def _is_numeric(values: list[Any]) -> bool:
    """A column of numbers (blanks allowed) is right-aligned."""
    present = [value for value in values if value is not None]
    return bool(present) and all(isinstance(value, (int, float)) and not isinstance(value, bool)
                                 for value in present)


def _sort_key(value: Any) -> tuple[int, Any, str]:
    # Numbers before text, blanks last, so mixed columns still sort.
    if value is None:
        return (2, 0, "")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return (0, value, "")
    return (1, 0, str(value))


MIN_CARD_PICTURE_WIDTH = 5 * MM
"""The narrowest a ``{{ cards }}`` picture may be drawn: smaller, a card is a speck."""


def card_reference(directive: Directive, deck: Deck, text_width: float) -> tuple[tuple[str, ...], float | None,
                                                                                 list[Card]]:
    """What a ``{{ cards }}`` shows: the sides, the printed width of a card (None: the style's),
    which must fit ``text_width``, and the cards it picks."""
    side = directive.options.get("side", "front")
    sides = {"front": ("front",), "back": ("back",), "both": ("front", "back")}.get(side)
    if sides is None:
        raise directive.fail(f"side is front, back or both, found '{side}'")
    width = None
    if "width" in directive.options:
        try:
            width = to_points(directive.options["width"], "width")
        except InputError as error:
            raise directive.fail(error.message) from None
        if width < MIN_CARD_PICTURE_WIDTH:
            raise directive.fail(f"width {directive.options['width']} is too small to show a card; "
                                 f"at least {MIN_CARD_PICTURE_WIDTH / MM:g} mm")
        if width > text_width:
            raise directive.fail(f"width {directive.options['width']} does not fit the page: at most "
                                 f"{text_width / MM:.0f} mm, the width of its text")
    cards = picked_cards(directive, deck)
    if not any(card.count for card in cards):
        raise directive.fail("picks no cards")
    return sides, width, cards


def caption_words(deck: Deck, card: Card, side: str) -> str:
    """The words of the caption under a picture of ``card``'s ``side``: its title
    ("Frankenflakes") under a front, "back: Candy Rock" under a card's own back; the shared
    back is the back of all cards, or of all other cards when some have their own. A front's
    caption adds its copies ("×9"), in characters of the booklet's own."""
    title = deck.title(card.face(side, deck.shared_back))
    if side == "front":
        return title
    if card.back is None:
        # "all cards" only when it is true: some cards may have a back of their own
        own_backs = any(other.back is not None for other in deck.cards if other.count)
        return words_for(deck)("card_back_others" if own_backs else "card_back_all")
    return words_for(deck)("back_caption", title=title)


def captions_words(deck: Deck, cards: Sequence[Card], sides: Sequence[str]) -> str:
    """The words of every caption a ``{{ cards }}`` of ``cards`` and ``sides`` may print, for
    checking as the rules file's own text is: the titles and phrases come from the deck and
    its translation, and the booklet's fonts must have each of their characters."""
    return " ".join(caption_words(deck, card, side) for card in cards if card.count for side in sides)


# --- inline directives ----------------------------------------------------------


def _total(directive: Directive, deck: Deck) -> str:
    return str(sum(card.count for card in picked_cards(directive, deck)))


def _kinds(directive: Directive, deck: Deck) -> str:
    return str(sum(1 for card in picked_cards(directive, deck) if card.count))


def players_text(deck: Deck, form: tuple[str, ...]) -> str:
    """``{{ players }}`` reads "2 to 4 players"; ``bare`` drops the word ("2 to 4", so
    "for {{ players bare }} players" reads right); ``min`` and ``max`` give one number."""
    low, high = deck.players
    chosen = form[0] if form else ""
    if chosen == "min":
        return str(low)
    if chosen == "max":
        return str(high)
    if chosen == "bare":
        return str(low) if low == high else words_for(deck)("players_range_bare", low=low, high=high)
    return players_label(deck)


def _value(directive: Directive, deck: Deck) -> str:
    card_id, field_name = directive.arguments
    try:
        card = deck.card(card_id)
    except KeyError:
        raise directive.fail(f"no card with id '{card_id}'") from None
    check_field(directive, deck, field_name)
    value = card_value(card, field_name)
    if value is None:
        raise directive.fail(f"card '{card_id}' has no value for '{field_name}'")
    return str(value)


INLINE: dict[str, Callable[[Directive, Deck], str]] = {
    "name": lambda directive, deck: deck.name,
    "players": lambda directive, deck: players_text(deck, directive.arguments),
    "total": _total,
    "count": _total,
    "kinds": _kinds,
    "value": _value,
}


@dataclass(repr=False, eq=False)
class ExpandedSource:
    """A rules file with inline directives replaced by their text.

    ``blocks`` maps a line number to the block directive standing on it, for the
    Markdown stage to turn into flowables; ``used`` records the ones it placed,
    so a block directive stranded mid-paragraph can be reported.
    """

    text: str
    blocks: dict[int, Directive]
    used: set[int] = field(default_factory=set)


def expand_inline(text: str, path: Path, deck: Deck,
                  problems: list[InputError] | None = None) -> ExpandedSource:
    """Fill in every inline directive; collect the block ones by line.

    With ``problems``, each directive that fails is kept there (and left as written)
    instead of the first one raising.
    """
    directives = scan(text, path, problems)
    lines = text.splitlines()
    blocks: dict[int, Directive] = {}
    # Replace right to left on each line so earlier columns stay valid.
    for directive in sorted(directives, key=lambda d: (d.position.line, -d.position.column)):
        line_index = directive.position.line - 1
        try:
            if SPECS[directive.name].kind == "block":
                if directive.position.line in blocks:
                    raise directive.fail("only one block directive fits on a line")
                blocks[directive.position.line] = directive
                continue
            replacement = escape_markdown(one_line(INLINE[directive.name](directive, deck)))
        except InputError as error:
            if problems is None:
                raise
            problems.append(error)
            continue
        line = lines[line_index]
        start = directive.position.column - 1
        lines[line_index] = line[:start] + replacement + line[directive.end_column:]
    return ExpandedSource(text="\n".join(lines) + "\n", blocks=blocks)


def one_line(text: str) -> str:
    """A filled-in value as one line of prose: each line break (with the spaces around it) one
    space, as Markdown shows a break inside a paragraph. A value stays on its directive's line,
    so every line after it keeps its number: the block directives found by line, and the
    positions of problems."""
    parts = text.splitlines()
    return text if len(parts) < 2 else " ".join(part.strip() for part in parts if part.strip())


def escape_markdown(text: str) -> str:
    """Backslash the characters Markdown would read as formatting in a filled-in value."""
    return re.sub(r"([\\`*_\[\]{}<>#|!])", r"\\\1", text)
