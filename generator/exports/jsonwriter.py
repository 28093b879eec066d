"""JSON written piece by piece from data, as ``json.dumps(value, indent=2, ensure_ascii=False)`` writes it.

A Tabletop Simulator saved object lists every physical card: a deck of 100,000
copies is some 150 MB of JSON. It is written here as it is encoded, with two
kinds of value the json module has not got, so that nothing large is ever held:

- :class:`Items`: a list whose items are made only as they are written (the
  deck's ``DeckIDs`` and ``ContainedObjects``);
- :class:`Shared`: a mapping written many times (one card's entry, the same for
  each of its copies), encoded once at each depth it is written at;
  :class:`Joined` writes mappings one after the other as one object (a copy's
  own GUID, then its card's shared entry).

Every key and every value is encoded by the json module itself; text from the
deck is never put into other text nor searched for, so whatever it holds (NUL,
quotes, ``%s``, control characters) it comes back out of the file unchanged.
A string holding a lone surrogate (which UTF-8 cannot carry) is written with
``\\u`` escapes instead, and reads back the same.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

INDENT = "  "
"""Two spaces a level, as Tabletop Simulator indents its own saves."""
_TEXT = json.JSONEncoder(ensure_ascii=False)
_ASCII = json.JSONEncoder(ensure_ascii=True)


@dataclass(repr=False, eq=False)
class Items:
    """A list made as it is written: ``make()`` gives its items each time it is called."""

    make: Callable[[], Iterable[Any]]


@dataclass(repr=False, eq=False)
class Shared:
    """A mapping written many times at the same depth: its members are encoded once per depth."""

    members: Mapping[str, Any]
    _encoded: dict[int, str] = field(default_factory=dict, repr=False)

    def encoded(self, level: int) -> str:
        """The members as written inside an object at ``level`` (no braces), made once."""
        text = self._encoded.get(level)
        if text is None:
            text = self._encoded[level] = ",".join(_key(key, level) + "".join(pieces(member, level + 1))
                                                   for key, member in self.members.items())
        return text


@dataclass(repr=False, eq=False)
class Joined:
    """One JSON object holding the members of each part in turn (dicts or :class:`Shared`)."""

    parts: tuple[Mapping[str, Any] | Shared, ...]


def scalar(value: Any) -> str:
    """A string, number, boolean or None as JSON; strings keep their characters (not ``\\u`` escapes)."""
    if isinstance(value, str):
        text = _TEXT.encode(value)
        if not text.isascii():
            try:
                text.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate, which UTF-8 cannot carry: written escaped
                return _ASCII.encode(value)
        return text
    if value is None or isinstance(value, (bool, int, float)):
        return _TEXT.encode(value)
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def pieces(value: Any, level: int = 0) -> Iterator[str]:
    """``value`` as JSON text, piece by piece; joined, the pieces are what ``json.dumps(value,
    indent=2, ensure_ascii=False)`` gives for plain data."""
    if isinstance(value, Items):
        yield from _items(value.make(), level)
    elif isinstance(value, (list, tuple)):
        yield from _items(value, level)
    elif isinstance(value, (Mapping, Shared, Joined)):
        parts = value.parts if isinstance(value, Joined) else (value,)
        yield from _object(parts, level)
    else:
        yield scalar(value)


def _items(items: Iterable[Any], level: int) -> Iterator[str]:
    inner = "\n" + INDENT * (level + 1)
    before = "[" + inner
    for item in items:
        if isinstance(item, (str, int, float, bool)) or item is None:
            yield before + scalar(item)
        else:
            yield before
            yield from pieces(item, level + 1)
        before = "," + inner
    yield "[]" if before.startswith("[") else "\n" + INDENT * level + "]"


def _object(parts: Iterable[Mapping[str, Any] | Shared], level: int) -> Iterator[str]:
    opened = False
    for part in parts:
        if isinstance(part, Shared):
            text = part.encoded(level)
            if text:
                yield ("," if opened else "{") + text
                opened = True
            continue
        for key, member in part.items():
            yield ("," if opened else "{") + _key(key, level)
            opened = True
            yield from pieces(member, level + 1)
    yield "\n" + INDENT * level + "}" if opened else "{}"


def _key(key: Any, level: int) -> str:
    """A member's key of an object at ``level``, on a line of its own, up to its value."""
    if not isinstance(key, str):
        raise TypeError(f"a JSON key is text, not {type(key).__name__}")
    return "\n" + INDENT * (level + 1) + scalar(key) + ": "
