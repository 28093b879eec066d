"""Translated decks: ``lang/<code>.yaml`` beside a deck gives its printed texts in another language.

A translation replaces words only. Counts, values, choices and rules stay as the
deck file has them, so a translated deck is the same game and every later stage
(rules, layout, sheets, booklet, exports) works on it unchanged. Each translated
card keeps the card as written (``Card.written``) and the translation the deck as
written, and whatever picks cards reads those values, never the printed texts
(:meth:`Card.as_written`, :meth:`Deck.as_written`)::

    # cards/tiki/lang/fr.yaml
    deck: {name: Tiki}                       # the deck's own name (and description)
    back: {name: Tiki}                       # the shared back's text fields
    cards:                                   # by card id: its text fields ...
      ember-imp: {name: Diablotin des braises, burn_effect: Piochez 1 carte de plus.}
      dusty-dour: {name: Poussière, back: {name: Roc sucré}}   # ... and its own back
    decklists:
      starter: {name: Débutant}
    choices:                                 # how choice values read in the booklet's tables
      colour: {red: rouge, blue: bleu}
    layout:                                  # texts the layout itself prints, by element name
      strength-label: FORCE
    words:                                   # phrases deckpress prints (generator/words/)
      rules_booklet: Les règles

:func:`translate_deck` reads the file and gives the translated :class:`Deck`; a
text the translation leaves out keeps its source wording and is listed in
``deck.translation.untranslated``, for ``check --lang`` to report (and a draft
build to print marked). The layout texts are applied where layouts are loaded
(:func:`translate_layouts`), because only there are the element names known.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from generator.deck.model import Card, Deck, Decklist, load_deck
from generator.deck.plain import plain
from generator.errors import EXIT_RULES, DeckpressError, InputError, Position, describe_value, did_you_mean, plural
from generator.loading import Document, load_yaml
from generator.paths import resolve_inside
from generator.reading import Problems, Reader
from generator.words import read_phrases, words_for

LANG_FOLDER = "lang"
"""Translations live in ``<deck folder>/lang/<code>.yaml``."""
ALL_LANGUAGES = "all"
"""``--lang all``: the deck as written, then every translation it has."""
CODE_PATTERN = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}$")
"""A language code such as ``fr``, ``pt-BR`` or ``zh-Hant``. It becomes part of file
names, so nothing else is accepted: no dots, slashes or spaces."""
SECTIONS = {"deck", "back", "cards", "decklists", "choices", "layout", "words"}
DECK_TEXTS = ("name", "description")
DECKLIST_TEXTS = ("name", "description")
MAX_LANGUAGES = 100
"""Translations one deck may carry. ``check --lang all`` checks each in full, so a
folder stuffed with thousands of files would make one command run for hours."""


@dataclass(repr=False, eq=False)
class Untranslated:
    """A text the deck prints that its translation leaves out."""

    what: str            # "card 'ember-imp' field 'burn_effect'", "the deck's name"
    field: str
    position: Position   # where the source text is written
    card: str | None = None
    side: str | None = None

    def message(self, translation_path: Path) -> str:
        return f"{self.what} has no translation in {translation_path}"


@dataclass(repr=False, eq=False)
class LayoutText:
    """A layout element's text in the translation's language, and where it is written."""

    text: str
    position: Position


@dataclass(repr=False, eq=False)
class Translation:
    """What a translated deck carries besides its translated texts."""

    code: str
    path: Path
    layout_texts: dict[str, LayoutText]
    untranslated: tuple[Untranslated, ...]
    written: Deck
    """The deck as its deck file gives it, before translating: its rules are judged on its
    values (:meth:`Deck.as_written`), not on the translated texts."""
    choice_labels: dict[str, dict[Any, str]] = dataclasses.field(default_factory=dict)
    words: dict[str, Any] = dataclasses.field(default_factory=dict)
    """Phrases of the booklet this translation changes (see :mod:`generator.words`)."""
    word_positions: dict[str, Position] = dataclasses.field(default_factory=dict)
    """Where the translation writes each phrase it changes: one the booklet cannot print is
    pointed at there."""
    positions: dict[tuple[str | None, str, str], Position] = dataclasses.field(default_factory=dict)
    """Where the translation writes each face text it gives, by (card id, side, field); the
    card id is None for the shared back. A text that does not fit is pointed at there."""


class TranslationError(InputError):
    """A translation file is malformed: an unknown card or field, a value that is not text."""


class IncompleteTranslation(DeckpressError):
    """A translated deck is to be printed while some of its texts have no translation yet."""

    exit_code = EXIT_RULES


def check_code(code: str) -> str:
    """Refuse anything but a plain language code (it becomes part of file names)."""
    if code == ALL_LANGUAGES or not CODE_PATTERN.match(code):
        raise InputError(f"'{code}' is not a language code such as fr, de or pt-BR", field="lang")
    return code


def languages(deck_folder: Path) -> list[str]:
    """The codes of every translation in the deck's ``lang/`` folder, sorted."""
    folder = deck_folder / LANG_FOLDER
    if not folder.is_dir():
        return []
    codes = sorted(path.stem for path in folder.glob("*.yaml")
                   if CODE_PATTERN.match(path.stem) and path.stem != ALL_LANGUAGES)
    if len(codes) > MAX_LANGUAGES:
        raise InputError(f"{len(codes)} translations; a deck carries at most {MAX_LANGUAGES}",
                         Position(folder), field="lang")
    return codes


def translate_deck(deck: Deck, code: str | None) -> Deck:
    """The deck with the texts of ``lang/<code>.yaml``; the deck itself when ``code`` is None."""
    if code is None:
        return deck
    path = deck.folder / LANG_FOLDER / f"{check_code(code)}.yaml"
    if not path.exists() and not path.is_symlink():  # a pipe or folder of that name is refused when read
        known = ", ".join(languages(deck.folder)) or "none"
        raise InputError(f"no translation '{code}' (translations: {known}); write it in {path}",
                         Position(path), field="lang")
    resolve_inside(deck.folder, f"{LANG_FOLDER}/{code}.yaml", Position(path), field="lang")
    return apply_translation(deck, code, load_yaml(path))


def load_translated_deck(target: Path | str, code: str | None) -> Deck:
    """Load the deck at ``target`` and apply its translation ``code`` (None: as written)."""
    return translate_deck(load_deck(target), code)


def require_translated(deck: Deck) -> Deck:
    """The deck, if its translation leaves no text out; else :class:`IncompleteTranslation`."""
    if deck.translation is None or not deck.translation.untranslated:
        return deck
    missing = deck.translation.untranslated
    first = min(missing, key=lambda entry: (entry.position.line, entry.position.column))
    raise IncompleteTranslation(
        f"{plural(len(missing), 'text')} of deck '{deck.id}' ha{'ve' if len(missing) > 1 else 's'} "
        f"no translation in {deck.translation.path}, the first {first.what} at {first.position}; "
        f"`deckpress check --lang {deck.lang}` lists them all", Position(deck.translation.path),
        field="lang")


def apply_translation(deck: Deck, code: str, document: Document) -> Deck:
    """Check a loaded translation file against ``deck`` and give the translated deck."""
    reader = Reader(document)
    data = reader.mapping((), "a translation file")
    problems = Problems()  # every mistake of the file is reported in one run, not the first
    _known_keys(reader, (), SECTIONS, "section", problems)
    texts = _Texts(deck, reader, problems)
    deck_texts = texts.deck_section()
    shared_back = texts.shared_back()
    cards = [problems.attempt(partial(texts.card, index, card), card) for index, card in enumerate(deck.cards)]
    texts.refuse_unknown("cards", {card.id for card in deck.cards}, "card with id")
    decklists = [problems.attempt(partial(texts.decklist, decklist), decklist) for decklist in deck.decklists]
    texts.refuse_unknown("decklists", {decklist.id for decklist in deck.decklists}, "decklist")
    layout_texts = _layout_texts(reader, problems) if "layout" in data else {}
    choice_labels = _choice_labels(reader, deck, problems)
    texts.untranslated += _unlabelled_choices(deck, choice_labels)
    words: dict[str, Any] = {}
    if "words" in data:
        words = problems.attempt(lambda: read_phrases(document, ("words",)), {})
    problems.raise_any()
    translation = Translation(code=code, path=document.path, layout_texts=layout_texts,
                              untranslated=tuple(texts.untranslated), choice_labels=choice_labels, words=words,
                              word_positions={key: document.at("words", key) for key in words},
                              positions=texts.positions, written=deck)
    info = {**deck.info, **deck_texts}
    return dataclasses.replace(deck, name=info["name"], info=info, cards=cards, shared_back=shared_back,
                               decklists=decklists, translation=translation)


def mark_untranslated(deck: Deck) -> Deck:
    """For draft prints: every text the translation leaves out, in the source wording marked
    as the ``untranslated`` phrase of the deck's language says ("[à traduire] Draw a card."),
    so a proofreader sees at once what is still to do."""
    if deck.translation is None or not deck.translation.untranslated:
        return deck
    words = words_for(deck)
    wanted: dict[tuple[str | None, str | None], set[str]] = {}
    for entry in deck.translation.untranslated:
        wanted.setdefault((entry.card, entry.side), set()).add(entry.field)

    def marked(face: dict[str, Any], card: str | None, side: str | None) -> dict[str, Any]:
        names = wanted.get((card, side))
        if not names:
            return face
        return {name: words("untranslated", text=value) if name in names else value
                for name, value in face.items()}

    cards = [dataclasses.replace(card, fields=marked(card.fields, card.id, "front"),
                                 back=None if card.back is None else marked(card.back, card.id, "back"))
             for card in deck.cards]
    name = marked({"name": deck.name}, None, None)["name"]
    shared_back = None if deck.shared_back is None else marked(deck.shared_back, None, "back")
    return dataclasses.replace(deck, name=name, info={**deck.info, "name": name}, cards=cards,
                               shared_back=shared_back)


def translate_layouts(deck: Deck, layouts: list[Any]) -> None:
    """Put the translation's element texts into the deck's raw (uncompiled) layouts.

    ``layouts`` are :class:`generator.render.layout.RawLayout` objects; each
    element named in the translation's ``layout:`` section gets the translated
    text, and its position in the translation file, so a template error points
    there. A name that no layout of the deck has is an error.
    """
    if deck.translation is None or not deck.translation.layout_texts:
        return
    texts = deck.translation.layout_texts
    found: set[str] = set()
    for layout in layouts:
        for element in layout.elements:
            text = texts.get(element.name)
            if text is None:
                continue
            if "text" not in element.values:
                raise TranslationError(f"element '{element.name}' of layout '{layout.name}' prints no "
                                       "text to translate", text.position, field=element.name)
            units = element.values["text"].units
            element.values["text"] = type(element.values["text"])(text.text, text.position, units)
            element.position = text.position  # what the element prints is now written there
            found.add(element.name)
    named = {element.name for layout in layouts for element in layout.elements if element.name}
    for name, text in texts.items():
        if name not in found:
            raise TranslationError(f"no element named '{name}' in layout "
                                   f"{', '.join(sorted({layout.name for layout in layouts}))}"
                                   f"{did_you_mean(name, named)}", text.position, field=name)


def choice_label(deck: Deck, field_name: str, value: Any) -> str | None:
    """How a choice value reads in the translated deck's booklet, if its translation says."""
    if deck.translation is None:
        return None
    return deck.translation.choice_labels.get(field_name, {}).get(value)


def text_position(deck: Deck, card: str | None, side: str, name: str) -> Position | None:
    """Where the translation writes field ``name`` of a face (``card`` None: the shared back),
    if it gives that text."""
    if deck.translation is None:
        return None
    return deck.translation.positions.get((card, side, name))


# --- reading the file ---------------------------------------------------------------------


def _known_keys(reader: Reader, keys: tuple[Any, ...], allowed: set[str] | tuple[str, ...], what: str,
                problems: Problems) -> None:
    for key in reader.mapping(keys, what):
        if key not in allowed:
            problems.add(TranslationError(f"unknown {what} '{key}'{did_you_mean(str(key), allowed)}",
                                   reader.position(keys + (key,)), field=str(key)))


def _layout_texts(reader: Reader, problems: Problems) -> dict[str, LayoutText]:
    texts = {}
    for name in reader.mapping(("layout",), "layout"):
        text = problems.attempt(partial(_text, reader, ("layout", name)), None)
        if text is not None:
            texts[str(name)] = LayoutText(text, reader.position(("layout", name)))
    return texts


def _choice_labels(reader: Reader, deck: Deck, problems: Problems) -> dict[str, dict[Any, str]]:
    """``choices: {colour: {red: rouge}}``: only declared choice fields, only their choices."""
    labels: dict[str, dict[Any, str]] = {}
    for name in reader.mapping(("choices",), "choices"):
        spec = deck.fields.get(name)
        if spec is None or spec.type != "choice":
            choice_fields = sorted(field.name for field in deck.fields.values() if field.type == "choice")
            problems.add(TranslationError(f"'{name}' is not a choice field of the deck"
                                          f"{did_you_mean(str(name), choice_fields) if choice_fields else ''}",
                                          reader.position(("choices", name)), field=str(name)))
            continue
        labels[name] = {}
        what = "a choice field's labels"
        given: dict[Any, Any] = problems.attempt(partial(reader.mapping, ("choices", name), what), {})
        for value in given:
            if value not in spec.choices:
                problems.add(TranslationError(f"'{value}' is not one of the choices of '{name}' "
                                              f"({', '.join(map(str, spec.choices))})",
                                              reader.position(("choices", name, value)), field=str(name)))
                continue
            label = problems.attempt(partial(_text, reader, ("choices", name, value)), None)
            if label is not None:
                labels[name][value] = label
    return labels


def _unlabelled_choices(deck: Deck, labels: dict[str, dict[Any, str]]) -> list[Untranslated]:
    """Each choice value of words (not a number) a card has that the translation gives no label:
    the booklet's tables would print it in the deck's own language. It is missing where the
    choice is written."""
    faces = [card.fields for card in deck.cards] + [card.back or {} for card in deck.cards] + [deck.shared_back or {}]
    return [Untranslated(f"choice '{value}' of field '{spec.name}'", spec.name,
                         deck.source.at("fields", spec.name, "choices", index))
            for spec in deck.fields.values() if spec.type == "choice"
            for index, value in enumerate(spec.choices)
            if isinstance(value, str) and value not in labels.get(spec.name, {})
            and any(face.get(spec.name) == value for face in faces)]


def _text(reader: Reader, keys: tuple[Any, ...]) -> str:
    """A translated text: non-blank text (a bare number such as 10 reads as text too)."""
    value = reader.get(keys)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return reader.text(keys)


class _Texts:
    """Reads the translation section by section against the deck, noting what it leaves out."""

    def __init__(self, deck: Deck, reader: Reader, problems: Problems):
        self.deck = deck
        self.reader = reader
        self.problems = problems
        self.untranslated: list[Untranslated] = []
        self.positions: dict[tuple[str | None, str, str], Position] = {}
        self.cards_given = reader.mapping(("cards",), "cards")

    def deck_section(self) -> dict[str, str]:
        source = {"name": self.deck.name, **self.deck.info}
        return self.named_texts(("deck",), DECK_TEXTS, "deck text", source, "the deck's")

    def named_texts(self, keys: tuple[Any, ...], names: tuple[str, ...], what: str, source: dict[str, Any],
                    owner: str) -> dict[str, str]:
        """The deck's or a decklist's own texts (name, description) that the translation gives."""
        _known_keys(self.reader, keys, names, what, self.problems)
        given = self.reader.mapping(keys, what)
        texts = {}
        for name in names:
            if name in given:
                text = self.problems.attempt(partial(_text, self.reader, keys + (name,)), None)
                if text is not None:
                    texts[name] = text
            elif source.get(name):
                self.untranslated.append(Untranslated(f"{owner} {name}", name, self.deck.source.at(*keys, name)))
        return texts

    def shared_back(self) -> dict[str, Any] | None:
        if self.deck.shared_back is None:
            if "back" in self.reader.document.data:
                self.problems.add(TranslationError("the deck has no shared back to translate",
                                                   self.reader.position(("back",)), field="back"))
            return None
        return self.face(("back",), self.deck.shared_back, ("back",), None, "back", "the back")

    def card(self, index: int, card: Card) -> Card:
        keys = ("cards", card.id)
        given = self.reader.mapping(keys, "a card's texts") if card.id in self.cards_given else {}
        source_keys = ("cards", index)
        fields = self.face(keys, card.fields, source_keys, card.id, "front", f"card '{card.id}'",
                           skip=frozenset({"back"}))
        if card.back is None:
            if "back" in given:
                self.problems.add(TranslationError(f"card '{card.id}' has no back of its own to translate",
                                                   self.reader.position(keys + ("back",)), field="back"))
            return dataclasses.replace(card, fields=fields, written=card)
        back = self.face(keys + ("back",), card.back, source_keys + ("back",), card.id, "back",
                         f"card '{card.id}' (back)")
        return dataclasses.replace(card, fields=fields, back=back, written=card)

    def refuse_unknown(self, section: str, known: set[str], what: str) -> None:
        """A card id or decklist id the deck does not have is a typo in the translation."""
        for key in self.reader.mapping((section,), section):
            if key not in known:
                self.problems.add(TranslationError(f"no {what} '{key}' in {self.deck.path}"
                                                   f"{did_you_mean(str(key), known) if known else ''}",
                                                   self.reader.position((section, key)), field=str(key)))

    def decklist(self, decklist: Decklist) -> Decklist:
        source = self.deck.source.data.get("decklists", {}).get(decklist.id)
        texts = self.named_texts(("decklists", decklist.id), DECKLIST_TEXTS, "decklist text",
                                 source if isinstance(source, dict) else {}, f"decklist '{decklist.id}'")
        return dataclasses.replace(decklist, name=texts.get("name", decklist.name),
                                   description=texts.get("description", decklist.description))

    def face(self, keys: tuple[Any, ...], source: dict[str, Any], source_keys: tuple[Any, ...], card: str | None,
             side: str, what: str, skip: frozenset[str] = frozenset()) -> dict[str, Any]:
        """One face's fields with the translated texts in place of the source ones."""
        given = self.reader.mapping(keys, "a card's texts")
        translated = dict(source)
        for name in given:
            if name in skip:
                continue
            text = self.problems.attempt(partial(self._translated, keys + (name,), name, source, what), None)
            if text is not None:
                translated[name] = text
                self.positions[(card, side, name)] = self.reader.position(keys + (name,))
        for name, value in source.items():
            if name not in given and self._is_text(name, value) and value.strip():
                self.untranslated.append(Untranslated(f"{what} field '{name}'", name,
                                                      self.deck.source.at(*source_keys, name),
                                                      card=card, side=side))
        return translated

    def _is_text(self, name: str, value: Any) -> bool:
        spec = self.deck.fields.get(name)
        return isinstance(value, str) and (spec is None or spec.type == "text")

    def _translated(self, keys: tuple[Any, ...], name: str, source: dict[str, Any], what: str) -> str:
        """The translation of field ``name`` at ``keys``, once it is known to translate a text."""
        self._check_translatable(keys, name, source, what)
        spec = self.deck.fields.get(name)
        text = _text(self.reader, keys)
        return plain(text) if spec is not None and not spec.markup else text  # as plain as the field

    def _check_translatable(self, keys: tuple[Any, ...], name: str, source: dict[str, Any], what: str) -> None:
        self.reader.require_text_key(keys, "field names")
        spec = self.deck.fields.get(name)
        if self.deck.fields and spec is None:
            raise TranslationError(f"unknown field '{name}'{did_you_mean(str(name), self.deck.fields)}",
                                   self.reader.position(keys), field=name)
        if spec is not None and spec.type != "text":
            article = "an" if spec.type[:1] in "aeiou" else "a"
            raise TranslationError(f"'{name}' is {article} {spec.type} field; only text fields are translated "
                                   "(values, choices and counts stay as the deck has them)",
                                   self.reader.position(keys), field=name)
        value = source.get(name)
        if value in (None, ""):
            raise TranslationError(f"{what} has no '{name}' to translate", self.reader.position(keys),
                                   field=name)
        if not self._is_text(name, value):
            raise TranslationError(f"'{name}' holds {describe_value(value)}, not text; only texts are "
                                   "translated", self.reader.position(keys), field=name)


__all__ = ["ALL_LANGUAGES", "LANG_FOLDER", "IncompleteTranslation", "Translation", "TranslationError",
           "Untranslated", "apply_translation", "check_code", "choice_label", "languages", "load_translated_deck",
           "mark_untranslated", "require_translated", "text_position", "translate_deck", "translate_layouts"]
