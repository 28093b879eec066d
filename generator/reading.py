"""Typed reading of a loaded YAML document, with every failure naming its position.

Deck files, their ``stats:`` section and other YAML the stages read are all
checked the same way: ask for a value at a key path as the type you need, and
get either that value or an :class:`InputError` that says
``path:line:column: expected a whole number, found 'nine' (count)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from generator.errors import (
    DeckpressError,
    InputError,
    Position,
    describe_value,
    did_you_mean,
    not_text,
    quoting_hint,
    together,
)
from generator.loading import Document, KeyPath

T = TypeVar("T")


class Problems:
    """Problems found while reading one file, kept so a single pass reports every
    independent one (every card with a bad field, not only the first)."""

    def __init__(self) -> None:
        self.errors: list[DeckpressError] = []

    def attempt(self, read: Callable[[], T], default: T) -> T:
        """``read()``, or ``default`` when it fails (its error is kept for later)."""
        try:
            return read()
        except InputError as error:
            self.errors.append(error)
            return default

    def add(self, error: DeckpressError) -> None:
        self.errors.append(error)

    def raise_any(self) -> None:
        """Raise every problem kept so far, together (see :func:`~generator.errors.together`),
        if there is one."""
        if self.errors:
            raise together(self.errors)


class Reader:
    """Reads the part of ``document`` under ``root`` (a key path; the whole file by default)."""

    def __init__(self, document: Document, root: KeyPath = ()) -> None:
        self.document = document
        self.root = root

    def get(self, keys: KeyPath) -> Any:
        """The value at ``keys``, or None when any step is missing."""
        node = self.document.data
        for key in self.root + keys:
            if isinstance(node, dict) and key in node:
                node = node[key]
            elif isinstance(node, list) and isinstance(key, int) and key < len(node):
                node = node[key]
            else:
                return None
        return node

    def position(self, keys: KeyPath) -> Position:
        return self.document.at(*self.root, *keys)

    def fail(self, keys: KeyPath, message: str, field_name: str | None = None) -> InputError:
        """An error at ``keys``, named after the innermost mapping key unless told otherwise."""
        if field_name is None:
            path = self.root + keys
            field_name = next((str(key) for key in reversed(path) if isinstance(key, str)), None)
        return InputError(message, self.position(keys), field=field_name)

    def mapping(self, keys: KeyPath, what: str, required: bool = False) -> dict[Any, Any]:
        """A mapping; a missing one is empty unless ``required``."""
        value = self.get(keys)
        if value is None and not required:
            return {}
        if not isinstance(value, dict):
            raise self.fail(keys, f"{what} must be a mapping of 'key: value' lines, "
                                  f"found {describe_value(value)}")
        return value

    def require_text_key(self, keys: KeyPath, names: str) -> None:
        """Refuse the last key of ``keys`` unless it is text. YAML reads an unquoted ``1``,
        ``yes``, ``~`` or ``2024-01-01`` as a number, yes/no, nothing or a date, none of which
        can name a field or a setting (templates take names as keywords)."""
        if not isinstance(keys[-1], str):
            raise self.key_not_text(keys, names)

    def key_not_text(self, keys: KeyPath, names: str) -> InputError:
        """The error at the line of the last key of ``keys``, a key that is not text."""
        key = keys[-1]
        return self.fail(keys, f"{names} are text, found {describe_value(key)}{quoting_hint(key)}")

    def sequence(self, keys: KeyPath, what: str) -> list[Any]:
        """A list; a missing one is empty."""
        value = self.get(keys)
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.fail(keys, f"{what} must be a list ('- ' items), found {describe_value(value)}")
        return value

    def string(self, keys: KeyPath, required: bool = False) -> str | None:
        """Non-blank text, or None when missing and not ``required``."""
        value = self.get(keys)
        if value is None and not required:
            return None
        if value is None:
            raise self.fail(keys, "missing required value")
        if not isinstance(value, str) or not value.strip():
            raise self.fail(keys, not_text(value))
        return value

    def text(self, keys: KeyPath) -> str:
        """Non-blank text that must be written at ``keys``."""
        text = self.string(keys, required=True)
        assert text is not None  # a required text is there, or string() raised
        return text

    def integer(self, keys: KeyPath, minimum: int | None = None, maximum: int | None = None) -> int | None:
        """A whole number within bounds, or None when missing."""
        value = self.get(keys)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(keys, f"expected a whole number, found {describe_value(value)}")
        if minimum is not None and value < minimum:
            raise self.fail(keys, f"must be at least {minimum}, found {value}")
        if maximum is not None and value > maximum:
            raise self.fail(keys, f"must be at most {maximum:,}, found {value:,}")
        return value

    def known_keys(self, keys: KeyPath, allowed: set[str], what: str) -> None:
        """Refuse keys outside ``allowed``, suggesting the nearest one."""
        for key in self.mapping(keys, what):
            if key not in allowed:
                raise self.fail(keys + (key,), f"unknown {what} '{key}'{did_you_mean(str(key), allowed)}")
