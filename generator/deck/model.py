"""The deck model: loaded YAML checked field by field and turned into dataclasses.

A deck file has these top-level sections (only ``deck`` and ``cards`` are
required)::

    deck:       name, players, layout, title_field ...   (about the game)
    fields:     the card fields and their types           (the card database's columns)
    back:       the shared card back                      (fields of the back face)
    cards:      the cards, each listed once with a count  (the rows; or {from: cards.csv})
    decklists:  named decks built from the card pool      (constructed games)
    rules:      the composition rules                     (read by generator.deck.rules)
    stats:      questions for ``deckpress stats``         (read by generator.stats)
    accept:     warnings the designer has looked at and accepts, each with a reason
    fonts:      {system: true} lets the layouts name fonts installed on the computer
                (read by generator.render.fonts)

Every error names the file, line, column and field, so a designer can jump
straight to the mistake.
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from generator.deck.plain import plain
from generator.deck.sources import read_cards_from
from generator.deck.spreadsheet import Header
from generator.errors import (
    DeckpressError,
    InputError,
    InputErrors,
    Position,
    describe_value,
    did_you_mean,
    each_error,
    not_text,
    together,
)
from generator.findings import ACCEPTABLE_KINDS
from generator.loading import Document, load_yaml, read_text
from generator.paths import resolve_inside
from generator.reading import Problems, Reader

if TYPE_CHECKING:
    from generator.deck.translation import Translation

DECK_FILENAME = "deck.yaml"
RULES_FILENAME = "rules.md"
"""The rules the booklet is made of, beside the deck file (see :func:`rules_path`)."""

SECTIONS = {"deck", "fields", "back", "cards", "decklists", "rules", "stats", "accept", "fonts"}
DECK_KEYS = {"id", "name", "players", "layout", "title_field", "designer", "version",
             "description", "card_size"}
FIELD_KEYS = {"type", "required", "default", "choices", "min", "max", "description", "markup"}
FIELD_TYPES = {"text", "int", "number", "bool", "choice"}
RESERVED_CARD_KEYS = {"id", "count", "back"}
RULE_OPTION_KEYS = {"message", "scope", "name", "decklist"}
MAX_COPIES = 100_000
"""Copies of one card. A typo of a few extra zeros is caught here, with its line."""
MAX_TOTAL_CARDS = 1_000_000
"""Physical cards in a deck (or a decklist) in all: ten times the largest deck the
benchmarks build. Past this, a PDF or an export would exhaust memory long before
anyone could print it, so the deck is refused at load time instead."""

ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
MAX_ID_BYTES = 128
"""Bytes (UTF-8) in a card or deck id. Ids become file names and a file name holds at
most 255 bytes; the longest a command makes around an id adds about 65 to a deck id
(an export's hidden ``..deckpress-<id>.<lang>-tts.json.<pid>-xxxxxxxx.tmp``, a booklet's
``.<id>-rules-booklet.<lang>.pdf.<pid>-xxxxxxxx.tmp``, with a language code of up to 21
characters) and 11 to a card id (``<id>-front.png``). 128 leaves room for every one."""
KIND_PATTERN = re.compile(r"^[a-z][a-z-]*$")
MAX_VERSION_CHARACTERS = 40
"""Characters in a deck's ``version:``. It is printed small on every face, so a printed
iteration can be told from the next; "0.4", "2024-06 playtest 3" or a commit id fit."""
ACCEPT_MATCH_KEYS = {"card", "side", "element", "field"}
"""What an ``accept:`` entry may pin a warning down by; a key left out matches anything."""
BACK_PREFIX = "back."
"""How a flat name (a spreadsheet's column, a selector's key) names a field of a card's own
back: ``back.name``."""

Settled = tuple[frozenset[str], frozenset[str]]
"""Field names a spreadsheet's header has already said are wrong for every row, on a card's
front and on its own back (a column that is no field, a required field without a column)."""
NOTHING_SETTLED: Settled = (frozenset(), frozenset())

Written = TypeVar("Written")
Built = TypeVar("Built")


@dataclass(repr=False, eq=False)
class FieldSpec:
    """One column of the card database: its type and what values it allows.

    ``markup`` False (``markup: false``) makes its text plain: printed as written, stars,
    colons and brackets included (see :mod:`generator.deck.plain`)."""

    name: str
    type: str = "text"
    required: bool = False
    default: Any = None
    choices: tuple[Any, ...] = ()
    min: float | None = None
    max: float | None = None
    markup: bool = True


@dataclass(repr=False, eq=False)
class Card:
    """A distinct card: its front fields, its own back (if double-sided) and its copies."""

    id: str
    count: int
    fields: dict[str, Any]
    back: dict[str, Any] | None
    position: Position
    written: Card | None = field(default=None, repr=False)
    """On a translated deck, this card as the deck file gives it (see :meth:`as_written`);
    None when the card is as written."""

    def face(self, side: str, shared_back: dict[str, Any] | None = None) -> dict[str, Any] | None:
        """The fields printed on ``side`` ("front" or "back") of this card."""
        if side == "front":
            return self.fields
        return self.back if self.back is not None else shared_back

    def as_written(self) -> Card:
        """This card with the faces the deck file gives it, its count and all else its own.

        What picks cards (selectors, rules) reads these, never the printed texts: a
        translation changes only what is printed, so its rules hold as the deck's do and
        ``where: {name: Knight}`` picks the Knight in French too."""
        if self.written is None:
            return self
        return dataclasses.replace(self, fields=self.written.fields, back=self.written.back, written=None)


@dataclass(repr=False, eq=False)
class Decklist:
    """A named selection of cards from the pool, with its own copy counts."""

    id: str
    name: str
    counts: dict[str, int]
    position: Position
    description: str = ""


@dataclass(repr=False, eq=False)
class RuleSpec:
    """One composition rule as written: its kind, its parameters and its message.

    It runs on the card pool (``scope`` "deck"), on every decklist ("decklists"), or on the
    one decklist ``decklist`` names (``decklist: first-game``; ``scope`` is then "decklist")."""

    kind: str
    params: Any
    message: str
    scope: str
    position: Position
    index: int
    decklist: str | None = None

    @property
    def label(self) -> str:
        """How reports name the rule: its kind, then its message in brackets if it has one."""
        return self.kind + (f" ({self.message})" if self.message else "")


@dataclass(repr=False, eq=False)
class Acceptance:
    """A warning the deck accepts: its kind, what it must match, and why it is fine.

    ``accept: [{contrast: {card: tiki, element: back-name}, reason: ...}]``
    """

    kind: str
    match: dict[str, str]
    reason: str
    position: Position


@dataclass(repr=False, eq=False)
class Deck:
    """A validated deck: everything later stages need, with positions for errors."""

    id: str
    name: str
    path: Path
    players: tuple[int, int]
    layout: dict[str, str]
    title_field: str
    fields: dict[str, FieldSpec]
    cards: list[Card]
    shared_back: dict[str, Any] | None
    decklists: list[Decklist]
    rules: list[RuleSpec]
    stats: dict[str, Any]
    info: dict[str, Any]
    source: Document = field(repr=False)
    translation: Translation | None = field(default=None, repr=False)
    """The ``lang/<code>.yaml`` applied to the texts (generator.deck.translation), if any."""
    accepted: list[Acceptance] = field(default_factory=list)
    """Warnings the deck accepts (its ``accept:`` section), applied by generator.access.accepting."""
    version: str | None = None
    """Which iteration of the deck this is: its ``deck: version:``, else (once the verdict
    stamps it) the short id of the last commit touching its files, ``+`` when changed since;
    None when neither says. Layouts print it as ``{{ deck.version }}``."""

    @property
    def folder(self) -> Path:
        """The deck's folder as an absolute path: layouts, fonts, images and rules are found
        from it, so the working directory plays no part (``path`` stays as the user wrote
        it, for messages)."""
        return absolute_folder(self.path)

    @property
    def lang(self) -> str | None:
        """The language code of the translation applied, or None for the deck as written."""
        return self.translation.code if self.translation else None

    @property
    def output_name(self) -> str:
        """What files built from this deck are named after: ``tiki``, or ``tiki.fr`` translated."""
        return f"{self.id}.{self.lang}" if self.lang else self.id

    @cached_property
    def total(self) -> int:
        """Physical cards in the deck. Summed once: a deck is not changed after loading
        (a changed deck is a new one, made with ``dataclasses.replace``)."""
        return sum(card.count for card in self.cards)

    def as_written(self) -> Deck:
        """The deck with the values its deck file gives: its name and texts, its shared back and
        its cards' faces (:meth:`Card.as_written`) as written, its rules, counts, version and
        all else its own; the deck itself when it is not translated. Its rules are judged on
        this, so a translation is the same game."""
        if self.translation is None:
            return self
        written = self.translation.written
        return dataclasses.replace(self, name=written.name, info=written.info, shared_back=written.shared_back,
                                   cards=[card.as_written() for card in self.cards], translation=None)

    def card(self, card_id: str) -> Card:
        return self._by_id[card_id]

    def title(self, face_fields: dict[str, Any] | None) -> str:
        """The title printed on a face: the value of the deck's title field."""
        if not face_fields:
            return ""
        return str(face_fields.get(self.title_field, ""))

    def __post_init__(self) -> None:
        self._by_id = {card.id: card for card in self.cards}


def find_deck_file(target: Path) -> Path:
    """A deck is named by its folder or its YAML file; return the YAML file."""
    return target / DECK_FILENAME if target.is_dir() else target


def rules_path(deck: Deck) -> Path:
    """``rules.md`` beside the deck, or ``rules.<lang>.md`` for a translated deck."""
    return deck.folder / (f"rules.{deck.lang}.md" if deck.lang else RULES_FILENAME)


def has_rules_file(deck: Deck) -> bool:
    """Whether something is at :func:`rules_path`: a file, or a link or folder that reading it
    then refuses (so a deck with a broken rules file is not taken for a deck without rules)."""
    path = rules_path(deck)
    return path.exists() or path.is_symlink()


def load_deck(target: Path | str) -> Deck:
    """Load and validate the deck at ``target`` (a deck folder or a deck file)."""
    return build_deck(load_yaml(find_deck_file(Path(target))))


class DeckProblems(InputErrors):
    """Every problem of a deck file that cannot be loaded, with the deck as far as it was read.

    ``partial`` holds the fields, the rules and the cards read whole (a bad one is left out),
    so a later stage can still judge what needs no more than that (the rules as written, see
    :func:`generator.deck.rules.rule_problems`). It is None when a field declaration is bad,
    because everything else is typed by the fields and would be judged against the wrong
    ones, and when a deck that declares no fields has left a card out.
    """

    def __init__(self, errors: Iterable[DeckpressError], partial: Deck | None):
        super().__init__(each_error(together(errors)))  # a problem found twice is said once
        self.partial = partial


def build_deck(document: Document) -> Deck:
    """Validate a loaded document and build the :class:`Deck` it describes.

    Independent mistakes are all reported together (every bad field, card, decklist
    and rule), as a :class:`DeckProblems`; cards are read only once the fields they are
    typed by are sound, decklists only once every card's id is known.
    """
    reader = Reader(document)
    problems = Problems()
    data = reader.mapping((), "deck file")
    problems.attempt(lambda: reader.known_keys((), SECTIONS, "section"), None)
    missing = [section for section in ("deck", "cards") if section not in data]
    if missing:
        names = " and ".join(f"'{section}'" for section in missing)
        problems.add(InputError(f"missing required section{'s' if len(missing) > 1 else ''} {names}",
                                document.at(), field=None if len(missing) > 1 else missing[0]))
    info: dict[str, Any] = {}
    name = ""
    version = None
    if "deck" in data:
        info = problems.attempt(lambda: reader.mapping(("deck",), "deck"), {})
        problems.attempt(lambda: reader.known_keys(("deck",), DECK_KEYS, "deck setting"), None)
        name = problems.attempt(lambda: reader.text(("deck", "name")), "")
        problems.attempt(lambda: _read_id(reader, ("deck", "id"), "deck id"), None)
        version = problems.attempt(lambda: _read_version(reader), None)
    if not info.get("id"):
        problems.attempt(lambda: _check_id_length(reader, (), "deck id (its folder's or file's name)",
                                                  deck_id(document.path),
                                                  hint="; give the deck a shorter 'id:' under 'deck:'"), None)
    before = len(problems.errors)
    fields = _read_fields(reader, problems)
    fields_sound = len(problems.errors) == before
    title_field = problems.attempt(lambda: _read_title_field(reader, fields), "name") if fields_sound else "name"
    players = problems.attempt(lambda: _read_players(reader), (1, 1))
    layout: dict[str, str] = problems.attempt(lambda: _read_layout(reader), {})
    rules = _read_rules(reader, problems)
    stats: dict[str, Any] = problems.attempt(lambda: reader.mapping(("stats",), "stats") if "stats" in data else {},
                                             {})
    accepted = _read_acceptances(reader, problems)
    shared_back = None
    cards: list[Card] = []
    decklists: list[Decklist] = []
    every_card_read = False
    if fields_sound and "cards" in data:  # cards are typed by the fields: read them only when those are sound
        shared_back = problems.attempt(lambda: _read_face(reader, ("back",), fields) if "back" in data else None,
                                       None)
        sheet = None
        if isinstance(data["cards"], dict):
            sheet = problems.attempt(lambda: _load_card_sheet(reader, fields, problems), None)
        if sheet is not None or not isinstance(data["cards"], dict):  # else no cards can be read
            cards, card_ids = _read_cards(reader, fields, problems, sheet.settled if sheet else NOTHING_SETTLED)
            # A decklist is judged only when every row's id is known: one naming a card whose
            # row could not be read would be taken for one naming no card.
            if card_ids is not None and (sheet is None or sheet.rows_whole):
                decklists = _read_decklists(reader, card_ids, problems)
                _check_rule_decklists(reader, rules, decklists, problems)
                every_card_read = len(cards) == len(card_ids)
        if sheet is not None:
            problems.errors = _naming_the_deck(problems.errors, sheet.path, document)
    deck = Deck(
        id=deck_id(document.path, info.get("id")),
        name=name,
        path=document.path,
        players=players,
        layout=layout,
        title_field=title_field,
        fields=fields,
        cards=cards,
        shared_back=shared_back,
        decklists=decklists,
        rules=rules,
        stats=stats,
        info=dict(info),
        source=document,
        accepted=accepted,
        version=version,
    )
    if problems.errors:
        # What a rule may name is the declared fields, else the fields the cards use: with a
        # card left out, a rule naming a field only it has would be taken for one naming none.
        raise DeckProblems(problems.errors, deck if fields_sound and (fields or every_card_read) else None)
    return deck


def _read_id(reader: Reader, keys: tuple[Any, ...], what: str) -> str | None:
    """The ``id:`` at ``keys``, if one is written: a deck's names its output files instead of its
    folder, a card's its exported faces (``<id>-front.png``), so it becomes part of file names."""
    value = reader.string(keys)
    if value is not None:
        if not ID_PATTERN.match(value):
            raise reader.fail(keys, f"{what} '{value}' may use only a-z, 0-9, '-' and '_'")
        _check_id_length(reader, keys, what, value)
    return value


def _written_number(reader: Reader, keys: tuple[str, ...]) -> str | None:
    """The number at ``keys`` as the file writes it (``1.10``, where YAML read 1.1), for the
    message that asks for it in quotes; None when the file cannot be read back or the number
    does not stand where its position says."""
    where = reader.position(keys)
    try:
        line = read_text(where.path).splitlines()[where.line - 1]
    except (DeckpressError, IndexError):
        return None
    key = re.escape(str(keys[-1]))  # the position is the key's: the number follows it
    found = re.compile(rf"(?:{key}\s*:\s*)?({_NUMBER_AT})").match(line, max(where.column - 1, 0))
    return found.group(1) if found else None


_NUMBER_AT = r"[-+]?(?:\d[\d_]*)?\.?\d[\d_]*(?:[eE][-+]?\d+)?|[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)"
"""A YAML number with a point (``1.10``, ``.5``, ``1e3``, ``.inf``) where a value starts."""


def _read_version(reader: Reader) -> str | None:
    """``deck: version:``, text (or a whole number) short enough to print on every face.

    A number with a point is refused: YAML reads ``version: 1.10`` as the number 1.1, and
    the cards would print "1.1"."""
    keys = ("deck", "version")
    value = reader.get(keys)
    if value is None:
        return None
    if isinstance(value, float):
        written = _written_number(reader, keys) or str(value)
        dropped = (f", and would print {value}" if written != str(value)
                   else " (as a number it would lose zeros: 1.10 prints 1.1)")
        raise reader.fail(keys, f"version {written} is a number to YAML, not text{dropped}; "
                                f"write it in quotes: version: \"{written}\"")
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or not value.strip():
        raise reader.fail(keys, not_text(value))
    text = value.strip()
    if any(ord(char) < 32 or ord(char) == 127 for char in text):
        raise reader.fail(keys, f"version {text!r} holds a line break or control character; it is printed "
                                "on one line of every face")
    if len(text) > MAX_VERSION_CHARACTERS:
        raise reader.fail(keys, f"version '{text[:20]}...' is {len(text)} characters long; it is printed small "
                                f"on every face, so at most {MAX_VERSION_CHARACTERS}")
    return text


def _check_id_length(reader: Reader, keys: tuple[Any, ...], what: str, value: str, hint: str = "") -> None:
    """Refuse an id too long to name the files made from it (see :data:`MAX_ID_BYTES`)."""
    size = len(value.encode("utf-8"))
    if size > MAX_ID_BYTES:
        raise reader.fail(keys, f"{what} '{value[:20]}...' is {size} bytes long; ids name output files, "
                                f"so at most {MAX_ID_BYTES} bytes{hint}", field_name="id")


def _read_title_field(reader: Reader, fields: dict[str, FieldSpec]) -> str:
    title_field = reader.string(("deck", "title_field")) or "name"
    if fields and title_field not in fields:
        raise InputError(f"title field '{title_field}' is not a declared field",
                         reader.document.at("deck", "title_field"), field="title_field")
    return title_field


def deck_id(path: Path, declared: str | None = None) -> str:
    """A deck's id names its output files: its ``deck: id:`` if it declares one, else its
    folder's name (``cards/tiki/deck.yaml`` is ``tiki``, wherever it is run from, ``.``
    included), else the file's name for a deck file called something else."""
    if declared:
        return declared
    if path.name == DECK_FILENAME:
        return absolute_folder(path).name or "deck"  # a deck at the file system's root
    return path.stem


def absolute_folder(path: Path) -> Path:
    """The folder holding ``path``, made absolute from the working directory without
    following symlinks (a deck file linked from elsewhere still belongs to its own folder)."""
    return Path(os.path.abspath(path)).parent


def slugify(text: str) -> str:
    """A card id from a card name: lower case, words joined by hyphens."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug or "card"


def _read_players(reader: Reader) -> tuple[int, int]:
    value = reader.get(("deck", "players"))
    if value is None:
        return (1, 1)
    if isinstance(value, dict):
        reader.known_keys(("deck", "players"), {"min", "max"}, "player setting")
        low = reader.integer(("deck", "players", "min"), minimum=1) or 1
        high = reader.integer(("deck", "players", "max"), minimum=1) or low
    else:
        low = high = reader.integer(("deck", "players"), minimum=1) or 1  # not None: the value is there
    if high < low:
        raise reader.fail(("deck", "players"), f"max players ({high}) is below min ({low})")
    return (low, high)


def _read_layout(reader: Reader) -> dict[str, str]:
    value = reader.get(("deck", "layout"))
    if value is None:
        return {}
    if isinstance(value, str):
        return {"front": value, "back": value}
    layout = reader.mapping(("deck", "layout"), "layout")
    reader.known_keys(("deck", "layout"), {"front", "back"}, "layout face")
    return {side: reader.text(("deck", "layout", side)) for side in layout}


def _read_each(problems: Problems, entries: Iterable[Written], read: Callable[[Written], Built]) -> list[Built]:
    """``read(entry)`` for each entry, in order; one that fails is kept in ``problems`` and left out."""
    found = [problems.attempt(partial(read, entry), None) for entry in entries]
    return [each for each in found if each is not None]


def _read_fields(reader: Reader, problems: Problems) -> dict[str, FieldSpec]:
    written: dict[Any, Any] = problems.attempt(lambda: reader.mapping(("fields",), "fields"), {})
    return {spec.name: spec for spec in _read_each(problems, written.items(), lambda item: _read_field(reader, *item))}


def _read_field(reader: Reader, name: Any, spec: Any) -> FieldSpec:
    keys = ("fields", name)
    reader.require_text_key(keys, "field names")
    if name in RESERVED_CARD_KEYS:
        raise reader.fail(keys, f"'{name}' is reserved and cannot be a field name")
    if isinstance(spec, str):
        spec = {"type": spec}
    elif spec is None:
        spec = {}
    elif not isinstance(spec, dict):
        raise reader.fail(keys, f"a field is a type name or a mapping, found {describe_value(spec)}")
    else:
        reader.known_keys(keys, FIELD_KEYS, "field setting")
    kind = spec.get("type", "choice" if "choices" in spec else "text")
    if not isinstance(kind, str) or kind not in FIELD_TYPES:
        raise reader.fail(keys + ("type",) if "type" in spec else keys,
                          f"unknown field type '{kind}'{did_you_mean(str(kind), FIELD_TYPES)}")
    choices = spec.get("choices", ())
    if kind == "choice" and not (isinstance(choices, list) and choices):
        raise reader.fail(keys, "a choice field needs a non-empty 'choices' list")
    for bound in ("min", "max"):
        if bound in spec and (isinstance(spec[bound], bool) or not isinstance(spec[bound], (int, float))
                              or isinstance(spec[bound], float) and not math.isfinite(spec[bound])):
            raise reader.fail(keys + (bound,), f"expected a number, found {describe_value(spec[bound])}")
    if spec.get("min") is not None and spec.get("max") is not None and spec["max"] < spec["min"]:
        # No value fits; every card's would be reported instead of the one line at fault.
        raise reader.fail(keys + ("max",), f"max ({spec['max']}) is below min ({spec['min']})", field_name=name)
    markup = spec.get("markup", True)
    if not isinstance(markup, bool):
        raise reader.fail(keys + ("markup",), f"markup is true or false, found {describe_value(markup)}")
    default = spec.get("default")
    return FieldSpec(
        name=name,
        type=kind,
        required=bool(spec.get("required", False)),
        default=default if markup else plain(default),
        choices=tuple(choices or ()),
        min=spec.get("min"),
        max=spec.get("max"),
        markup=markup,
    )


def _read_face(reader: Reader, keys: tuple[Any, ...], fields: dict[str, FieldSpec],
               front: bool = False, problems: Problems | None = None,
               settled: Collection[str] = ()) -> dict[str, Any]:
    """Check one face's fields against the declared types; fill in defaults.

    With ``problems``, every bad field of the face is kept there (and left out of the
    face) instead of the first one raising. ``settled`` names what a spreadsheet's header
    has already said is wrong for every row (a column that is no field, a required field
    without a column): a face is not told so again.
    """
    raw = reader.mapping(keys, "a card face")
    face: dict[str, Any] = {}
    skip = RESERVED_CARD_KEYS if front else set()
    own = problems or Problems()
    unknown = False
    for name, value in raw.items():
        if name in skip:
            continue
        if not isinstance(name, str):  # YAML's unquoted 7 or yes: no field has such a name
            unknown = True
            own.add(reader.key_not_text(keys + (name,), "field names"))
        elif not fields:  # an undeclared database keeps values as written
            face[name] = value
        elif name not in fields:
            if name not in settled:
                unknown = True
                own.add(reader.fail(keys + (name,), f"unknown field '{name}'{did_you_mean(str(name), set(fields))}"))
        elif front and fields[name].required and _blank(value):
            # 'name: ~' or 'name: ""' leaves the field as empty as leaving it out does
            own.add(reader.fail(keys + (name,), f"missing required field '{name}'"))
            face[name] = None
        else:
            try:  # not own.attempt: a closure for every field of every card shows in large decks
                face[name] = _check_value(reader, keys + (name,), fields[name], value)
            except InputError as error:
                own.add(error)
                face[name] = None
    for spec in fields.values():
        if spec.name in face:
            continue
        if front and spec.required:
            if not unknown and spec.name not in settled:  # an unknown field is likely the missing one, mistyped
                own.add(reader.fail(keys, f"missing required field '{spec.name}'", field_name=spec.name))
        elif spec.default is not None:
            face[spec.name] = spec.default
    if problems is None:
        own.raise_any()
    return face


def _blank(value: Any) -> bool:
    """Whether a written value holds nothing: null, or text of only spaces."""
    return value is None or isinstance(value, str) and not value.strip()


class _IdUnknown(Exception):
    """A card's problems are already kept, and its id cannot be told: it has none written and
    the name it would come from is bad."""




FIELD_TYPE_WANTED = {"int": "a whole number", "number": "a number", "bool": "yes/no (true or false)"}
"""What each field type asks for, as an error says it (a choice lists its choices; text is
worded by :func:`~generator.errors.not_text`)."""


def _fits(spec: FieldSpec, value: Any) -> bool:
    """Whether ``value`` has the type ``spec`` declares; a bool is no number or text here."""
    if spec.type == "choice":
        return value in spec.choices
    if spec.type == "bool":
        return isinstance(value, bool)
    if isinstance(value, bool):
        return False
    if spec.type == "text":
        return isinstance(value, (str, int, float))
    return isinstance(value, int) or spec.type == "number" and isinstance(value, float)


def _check_value(reader: Reader, keys: tuple[Any, ...], spec: FieldSpec, value: Any) -> Any:
    if value is None:
        return None
    if not _fits(spec, value):
        if spec.type == "text":  # says how to write an unquoted date or yes/no as text
            raise reader.fail(keys, not_text(value))
        wanted = ("one of " + ", ".join(map(str, spec.choices)) if spec.type == "choice"
                  else FIELD_TYPE_WANTED[spec.type])  # worded only on failure: choices join slowly
        raise reader.fail(keys, f"expected {wanted}, found {describe_value(value)}")
    if spec.type == "text":
        return str(value) if spec.markup else plain(str(value))
    if spec.type == "choice" and not spec.markup:  # a plain field's choice prints as written too
        return plain(value)
    if isinstance(value, float) and not math.isfinite(value):
        # .nan and .inf are YAML numbers, but no card can show them and JSON cannot hold them.
        raise reader.fail(keys, f"expected a finite number, found {value}")
    if spec.min is not None and value < spec.min:
        raise reader.fail(keys, f"must be at least {spec.min}, found {value}")
    if spec.max is not None and value > spec.max:
        raise reader.fail(keys, f"must be at most {spec.max}, found {value}")
    return value


def _read_cards(reader: Reader, fields: dict[str, FieldSpec], problems: Problems,
                settled: Settled) -> tuple[list[Card], set[str] | None]:
    """Every card read whole, each bad one reported (all its bad fields) and left out; and
    the id of every row, a bad card's too, or None when the card list cannot be read or is
    empty, or some row's id cannot be told or is an earlier card's: that row was meant to be
    a card whose id is unknown, and a decklist naming it would be told it names none, so
    decklists are then not judged.

    A card with a bad value still claims its id, so a later card with the same id is a
    duplicate whether or not the first one's values are sound."""
    cards: list[Card] = []
    seen: dict[str, Position] = {}
    ids_known = True
    rows: list[Any] = problems.attempt(lambda: reader.sequence(("cards",), "cards"), [])
    if not rows and not problems.errors:
        problems.add(reader.fail(("cards",), "a deck needs at least one card"))
    for index, row in enumerate(rows):
        before = len(problems.errors)
        try:
            card = _read_card(reader, fields, index, row, seen, problems, settled)
        except InputError as error:
            problems.add(error)
            ids_known = False
            continue
        except _IdUnknown:
            ids_known = False
            continue
        if len(problems.errors) == before:
            cards.append(card)
    if not problems.errors:
        _check_total(reader, ("cards",), sum(card.count for card in cards))
    return cards, set(seen) if ids_known and rows else None


def _read_card(reader: Reader, fields: dict[str, FieldSpec], index: int, row: Any,
               seen: dict[str, Position], problems: Problems, settled: Settled) -> Card:
    """One card as far as it can be read, its problems kept in ``problems``, its id claimed in
    ``seen``. Raises InputError when the row is no card or its id is bad or taken."""
    keys = ("cards", index)
    reader.mapping(keys, "a card", required=True)  # an empty '- ' item is no card
    before = len(problems.errors)
    fronts = _read_face(reader, keys, fields, front=True, problems=problems, settled=settled[0])
    card_id = _read_id(reader, keys + ("id",), "card id")
    if card_id is None:
        if "name" in row and not fronts.get("name") and len(problems.errors) > before:
            raise _IdUnknown()  # its id would come from a name that could not be read
        card_id = slugify(str(fronts.get("name", "") or f"card-{index + 1}"))
        _check_id_length(reader, keys, "card id", card_id, hint="; give the card a shorter 'id:' than its name")
    if card_id in seen:  # which id this card was meant to have is unknown too
        raise reader.fail(keys + ("id",) if "id" in row else keys,
                          f"duplicate card id '{card_id}' (first at line {seen[card_id].line})")
    seen[card_id] = reader.document.at(*keys)
    count = None
    try:
        count = reader.integer(keys + ("count",), minimum=0)
        if count is not None and count > MAX_COPIES:
            raise reader.fail(keys + ("count",), f"at most {MAX_COPIES:,} copies, found {count:,}")
    except InputError as error:
        problems.add(error)
    back = _read_face(reader, keys + ("back",), fields, problems=problems, settled=settled[1]) \
        if "back" in row else None
    return Card(id=card_id, count=1 if count is None else count,
                fields=fronts, back=back, position=seen[card_id])


def _check_total(reader: Reader, keys: tuple[Any, ...], total: int) -> None:
    """Refuse a deck whose copies add up past :data:`MAX_TOTAL_CARDS`."""
    if total > MAX_TOTAL_CARDS:
        raise reader.fail(keys, f"{total:,} cards in all; a deck holds at most {MAX_TOTAL_CARDS:,}",
                          field_name=keys[-1])


@dataclass(repr=False, eq=False)
class _CardSource:
    """The file a deck reads its cards from (``cards: {from: cards.csv}``), and what reading it
    has already said for every row."""

    path: Path
    settled: Settled
    """What the header's problems cover, so no row is told again (see :func:`_judge_columns`)."""
    rows_whole: bool
    """Whether every row became a card: a row with a cell that cannot be read is left out,
    and with it its id."""


def _load_card_sheet(reader: Reader, fields: dict[str, FieldSpec], problems: Problems) -> _CardSource:
    """``cards: {from: cards.csv}`` (or .xlsx, .json, .yaml): read the cards and put them where a
    YAML list would be.

    Each cell's position replaces the YAML one, so errors point into the spreadsheet; a
    cell that cannot be read is kept in ``problems`` and its row left out, and a column
    that names no field is kept there once, at its header cell.
    """
    reader.known_keys(("cards",), {"from", "sheet"}, "cards setting")
    reference = reader.text(("cards", "from"))
    sheet_name = reader.string(("cards", "sheet"))
    document = reader.document
    resolve_inside(absolute_folder(document.path), reference, document.at("cards", "from"), field="from")
    path = document.path.parent / reference  # inside the folder, checked; named as the deck names it
    named_at = document.at("cards", "sheet" if sheet_name is not None else "from")
    cell_problems: list[InputError] = []
    try:
        rows, positions, header = read_cards_from(path, sheet_name, named_at, fields, cell_problems)
    except InputError as error:
        raise _naming_the_deck([error], path, document)[0] from None
    column_problems, settled = _judge_columns(header, fields) if header is not None else ([], NOTHING_SETTLED)
    for problem in column_problems + cell_problems:
        problems.add(problem)
    document.data["cards"] = rows
    for keys, position in positions.items():
        document.positions[("cards",) + keys] = position
    return _CardSource(path, settled, rows_whole=not cell_problems)


def _judge_columns(header: Header, fields: dict[str, FieldSpec]) -> tuple[list[InputError], Settled]:
    """A spreadsheet's columns, judged once for the whole sheet instead of on every row: a
    column that names no field is reported at its header cell with the names it may have;
    when every column names one, a required field no column holds is reported at the header
    row. Returns those problems, and the names (of such columns and such fields) the rows are
    then not judged on again, on a card's front and on its own back."""
    if not fields:
        return [], NOTHING_SETTLED  # an undeclared database takes every column for a field
    unknown = [(key, cell) for key, cell in header.cells.items() if key in header.filled
               and key not in RESERVED_CARD_KEYS and key.removeprefix(BACK_PREFIX) not in fields]
    found = []
    for key, cell in unknown:
        names = ({BACK_PREFIX + name for name in fields} if key.startswith(BACK_PREFIX)
                 else set(fields) | {"id", "count"})
        found.append(InputError(f"unknown column '{key}'{did_you_mean(key, names)}", cell, field=key))
    backs = [key.removeprefix(BACK_PREFIX) for key, _ in unknown if key.startswith(BACK_PREFIX)]
    fronts = [key for key, _ in unknown if not key.startswith(BACK_PREFIX)]
    absent = [spec.name for spec in fields.values() if spec.required and spec.name not in header.cells]
    if not fronts:  # else a front column that names no field is likely the missing one, mistyped
        found.extend(InputError(f"no column holds the required field '{name}'", header.row, field=name)
                     for name in absent)
    return found, (frozenset(fronts + absent), frozenset(backs))


def _naming_the_deck(errors: list[DeckpressError], sheet: Path, document: Document) -> list[DeckpressError]:
    """Errors found in a spreadsheet also say where the deck reads it: ``[from deck.yaml:6]``."""
    at = document.at("cards", "from")
    named = []
    for error in errors:
        if error.position is not None and error.position.path == sheet:
            what = f"{error.message} ({error.field})" if error.field else error.message
            error = InputError(f"{what} [from {at.path}:{at.line}]", error.position)
        named.append(error)
    return named


def _read_decklists(reader: Reader, card_ids: set[str], problems: Problems) -> list[Decklist]:
    """Every decklist, each bad one reported and left out."""
    written: dict[Any, Any] = problems.attempt(lambda: reader.mapping(("decklists",), "decklists"), {})
    return _read_each(problems, written, lambda list_id: _read_decklist(reader, list_id, card_ids))


def _read_decklist(reader: Reader, list_id: Any, card_ids: set[str]) -> Decklist:
    keys = ("decklists", list_id)
    reader.mapping(keys, "a decklist", required=True)
    reader.known_keys(keys, {"name", "cards", "description"}, "decklist setting")
    counts: dict[str, int] = {}
    for card_id in reader.mapping(keys + ("cards",), "a decklist's cards"):
        if card_id not in card_ids:
            raise reader.fail(keys + ("cards", card_id),
                              f"no card with id '{card_id}'{did_you_mean(str(card_id), card_ids)}")
        counts[card_id] = reader.integer(keys + ("cards", card_id), minimum=0, maximum=MAX_COPIES) or 0
    _check_total(reader, keys + ("cards",), sum(counts.values()))
    return Decklist(id=str(list_id), name=reader.string(keys + ("name",)) or str(list_id),
                    counts=counts, position=reader.document.at(*keys),
                    description=reader.string(keys + ("description",)) or "")


def _read_rules(reader: Reader, problems: Problems) -> list[RuleSpec]:
    written: list[Any] = problems.attempt(lambda: reader.sequence(("rules",), "rules"), [])
    return _read_each(problems, enumerate(written), lambda item: _read_rule(reader, *item))


def _read_rule(reader: Reader, index: int, entry: Any) -> RuleSpec:
    keys = ("rules", index)
    entry = reader.mapping(keys, "a rule", required=True)  # an empty '- ' item is no rule
    for key in entry:
        reader.require_text_key(keys + (key,), "rule settings")
    kinds = [key for key in entry if key not in RULE_OPTION_KEYS]
    if len(kinds) != 1:
        found = ", ".join(map(str, kinds)) or "none"
        raise reader.fail(keys, f"a rule names exactly one kind of check, found {found}")
    kind = kinds[0]
    scope = entry.get("scope", "deck")
    if scope not in ("deck", "decklists"):
        raise reader.fail(keys + ("scope",), f"scope is 'deck' or 'decklists', found {describe_value(scope)}")
    decklist = reader.string(keys + ("decklist",))
    if decklist is not None:
        if "scope" in entry:
            raise reader.fail(keys + ("scope",), "a rule runs on the decklist it names or on a scope; "
                                                 "leave out 'scope' or 'decklist'")
        scope = "decklist"
    message = reader.string(keys + ("message",)) or ""
    return RuleSpec(kind=str(kind), params=entry[kind], message=message, scope=scope,
                    position=reader.document.at(*keys + (kind,)), index=index, decklist=decklist)


def _check_rule_decklists(reader: Reader, rules: list[RuleSpec], decklists: list[Decklist],
                          problems: Problems) -> None:
    """A rule's ``decklist:`` names one of the deck's decklists."""
    known = [decklist.id for decklist in decklists]
    for rule in rules:
        if rule.decklist is not None and rule.decklist not in known:
            found = did_you_mean(rule.decklist, known) if known else " (the deck has no decklists)"
            problems.add(reader.fail(("rules", rule.index, "decklist"), f"no decklist '{rule.decklist}'{found}"))


def _read_acceptances(reader: Reader, problems: Problems) -> list[Acceptance]:
    """``accept:`` entries: one warning kind each, with what it matches and a reason."""
    written: list[Any] = problems.attempt(lambda: reader.sequence(("accept",), "accept"), [])
    return _read_each(problems, enumerate(written), lambda item: _read_acceptance(reader, *item))


def _read_acceptance(reader: Reader, index: int, entry: Any) -> Acceptance:
    keys = ("accept", index)
    entry = reader.mapping(keys, "an accepted warning", required=True)
    kinds = [key for key in entry if key != "reason"]
    if len(kinds) != 1 or not KIND_PATTERN.match(str(kinds[0])):
        found = ", ".join(map(str, kinds)) or "none"
        raise reader.fail(keys, "an accepted warning names one kind of warning (contrast, "
                                f"colour-blind, ...) and a reason, found {found}")
    kind = str(kinds[0])
    if kind not in ACCEPTABLE_KINDS:
        raise reader.fail(keys + (kind,), f"unknown kind of warning '{kind}'{did_you_mean(kind, ACCEPTABLE_KINDS)}")
    match = reader.mapping(keys + (kind,), f"what the accepted {kind} warning matches")
    reader.known_keys(keys + (kind,), ACCEPT_MATCH_KEYS, "match")
    for key, value in match.items():
        if isinstance(value, (dict, list)) or value is None:
            raise reader.fail(keys + (kind, key), f"expected one value, found {describe_value(value)}")
    reason = reader.string(keys + ("reason",))
    if reason is None:
        raise reader.fail(keys, f"say why the {kind} warning is fine: add reason: ...",
                          field_name="reason")
    return Acceptance(kind=kind, match={str(key): str(value) for key, value in match.items()},
                      reason=reason.strip(), position=reader.document.at(*keys))
