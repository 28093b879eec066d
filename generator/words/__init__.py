"""The words deckpress itself prints on a deck's booklet (and a draft's cards), in the deck's language.

A rules booklet says more than its ``rules.md``: "A game for 2 to 4 players" on
the cover, "In the box", "Contents", captions under the cards, how to print and
fold. Those phrases live in one table a language (``en.yaml``, ``fr.yaml`` ... in
this folder), so a translated deck's booklet speaks its language throughout, and
a deck's ``lang/<code>.yaml`` may change any phrase (or give them all, for a
language with no table here) under ``words:``.

Phrases fill in ``{name}`` placeholders only: the text comes from deck files,
which are untrusted, so no format language (``{0.__class__}``) is interpreted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Any

from generator.errors import InputError, Position, describe_value, did_you_mean, not_text
from generator.loading import Document, load_yaml
from generator.reading import Problems

WORDS_DIR = Path(__file__).parent
SOURCE_LANGUAGE = "en"
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
PLURAL_FORMS = ("one", "other")
PLURAL_RULE = "plural_one"
MAX_PHRASE_CHARS = 500
"""A phrase is a line of a cover or a caption; far longer is a mistake, and would
overflow the page it is printed on."""


@dataclass(repr=False, eq=False)
class Words:
    """The phrases of one language, ready to fill in."""

    code: str
    phrases: Mapping[str, Any]  # key -> text, or {"one": text, "other": text}
    plural_one: frozenset[int]

    def __call__(self, key: str, n: int | None = None, **values: Any) -> str:
        """The phrase ``key`` with its placeholders filled; ``n`` picks the plural form."""
        phrase = self.phrases[key]
        if isinstance(phrase, dict):
            phrase = phrase["one" if n in self.plural_one else "other"]
        if n is not None:
            values["n"] = n
        return PLACEHOLDER.sub(lambda match: str(values.get(match.group(1), match.group(0))), phrase)

    def join(self, items: list[str]) -> str:
        """"1, 2 and 3" in this language."""
        if len(items) < 2:
            return "".join(items)
        return self("list_and", items=", ".join(items[:-1]), last=items[-1])


def words_for(deck: Any) -> Words:
    """The words for ``deck``'s booklet: its translation's language (with the phrases
    its ``lang/<code>.yaml`` changes), or English for a deck as written."""
    translation = getattr(deck, "translation", None)
    if translation is None:
        return _shipped(SOURCE_LANGUAGE)
    return merged(translation.code, translation.words)


def merged(code: str, overrides: Mapping[str, Any]) -> Words:
    """The shipped table for ``code`` (English where there is none) with ``overrides`` on top."""
    base = _shipped(code) if (WORDS_DIR / f"{code}.yaml").is_file() else _shipped(SOURCE_LANGUAGE)
    if not overrides:
        return base
    phrases = {**base.phrases, **{key: value for key, value in overrides.items() if key != PLURAL_RULE}}
    plural_one = frozenset(overrides.get(PLURAL_RULE, base.plural_one))
    return Words(code, phrases, plural_one)


def shipped_languages() -> list[str]:
    """Codes of the languages deckpress has a table for."""
    return sorted(path.stem for path in WORDS_DIR.glob("*.yaml"))


@cache
def _shipped(code: str) -> Words:
    document = load_yaml(WORDS_DIR / f"{code}.yaml")
    reference = document.data if code == SOURCE_LANGUAGE else _shipped(SOURCE_LANGUAGE).phrases
    phrases = read_phrases(document, (), reference, complete=True)
    return Words(code, {k: v for k, v in phrases.items() if k != PLURAL_RULE},
                 frozenset(phrases[PLURAL_RULE]))


def read_phrases(document: Document, keys: tuple, reference: Mapping[str, Any] | None = None,
                 complete: bool = False) -> dict[str, Any]:
    """Check the phrases at ``keys`` of ``document`` against the English table.

    Each key must be one English has, in the same shape (text, or one/other
    forms) and with no placeholder English does not fill in. ``complete``
    tables (the shipped ones) must give every phrase. Every bad phrase is
    raised together (an :class:`~generator.errors.InputErrors`), so a
    translator fixes them all in one round, not one a run.
    """
    reference = reference if reference is not None else _shipped(SOURCE_LANGUAGE).phrases
    data = document.data
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    if not isinstance(data, dict):
        raise InputError(f"words must be a mapping of 'phrase: text' lines, found {describe_value(data)}",
                         document.at(*keys), field="words")
    known = set(reference) | {PLURAL_RULE}
    problems = Problems()
    phrases: dict[str, Any] = {}
    for key, value in data.items():
        phrase = problems.attempt(partial(_entry, key, value, reference, known, document.at(*keys, key)), None)
        if phrase is not None:
            phrases[key] = phrase
    missing = sorted(known - set(data))  # a phrase given but bad is reported as bad, not as missing
    if complete and missing:
        problems.add(InputError(f"phrase '{missing[0]}' is missing", document.at(*keys), field=missing[0]))
    problems.raise_any()
    return phrases


def _entry(key: Any, value: Any, reference: Mapping[str, Any], known: set[str], where: Position) -> Any:
    """One line of a table of phrases, checked: a phrase, or the list of numbers ``plural_one`` gives."""
    if key not in known:
        raise InputError(f"unknown phrase '{key}'{did_you_mean(str(key), known)}", where, field=str(key))
    if key == PLURAL_RULE:
        if not (isinstance(value, list) and all(isinstance(n, int) and not isinstance(n, bool) for n in value)):
            raise InputError("plural_one lists the numbers that take the 'one' form, e.g. [1]", where, field=key)
        return value
    return _phrase(key, value, reference.get(key), where)


def _phrase(key: str, value: Any, english: Any, where: Position) -> Any:
    if isinstance(english, dict):
        if not (isinstance(value, dict) and set(value) == set(PLURAL_FORMS)):
            raise InputError(f"'{key}' has two forms, like {{one: \"{english['one']}\", other: "
                             f"\"{english['other']}\"}}", where, field=key)
        return {form: _phrase(key, value[form], english[form], where) for form in PLURAL_FORMS}
    if not isinstance(value, str) or not value.strip():
        raise InputError(not_text(value), where, field=key)
    if len(value) > MAX_PHRASE_CHARS:
        raise InputError(f"a phrase of {len(value):,} characters; at most {MAX_PHRASE_CHARS}", where, field=key)
    allowed = set(PLACEHOLDER.findall(english)) if isinstance(english, str) else set()
    unknown = sorted(set(PLACEHOLDER.findall(value)) - allowed)
    if unknown:
        offered = ", ".join(f"{{{name}}}" for name in sorted(allowed)) or "none"
        raise InputError(f"'{key}' cannot fill in {{{unknown[0]}}} (it offers {offered})", where, field=key)
    return value


__all__ = ["Words", "merged", "read_phrases", "shipped_languages", "words_for"]
