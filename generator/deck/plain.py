"""Text that prints as it is written: the value of a field declared ``markup: false``.

Card text is read as light markup (``**bold**``, ``:coin:``; see
:mod:`generator.render.markup`). Text that came from elsewhere (a spreadsheet of
another tool, a list of party-game prompts) may hold stars, colons and brackets
that mean nothing of the kind, so a field can be declared plain::

    fields:
      text: {type: text, markup: false}

Its values are :class:`PlainText`: an ordinary string everywhere (compared,
hashed, written to JSON and YAML as the string it is), which a layout's text
templates recognise and escape where they print it, so the card shows every
character as written. A string made from it by a template's filter that only
changes letter case or trims spaces (``upper``, ``title``, ``trim``) stays plain;
text joined to other text is the layout's own, and read as markup.
"""

from __future__ import annotations

from typing import Any, SupportsIndex


class PlainText(str):
    """A field's text that is never read as markup."""

    __slots__ = ()

    def __str__(self) -> str:  # str() of it stays plain, as templates call str() on what they print
        return self

    def upper(self) -> PlainText:
        return PlainText(str.upper(self))

    def lower(self) -> PlainText:
        return PlainText(str.lower(self))

    def title(self) -> PlainText:
        return PlainText(str.title(self))

    def capitalize(self) -> PlainText:
        return PlainText(str.capitalize(self))

    def swapcase(self) -> PlainText:
        return PlainText(str.swapcase(self))

    def casefold(self) -> PlainText:
        return PlainText(str.casefold(self))

    def strip(self, chars: str | None = None) -> PlainText:
        return PlainText(str.strip(self, chars))

    def lstrip(self, chars: str | None = None) -> PlainText:
        return PlainText(str.lstrip(self, chars))

    def rstrip(self, chars: str | None = None) -> PlainText:
        return PlainText(str.rstrip(self, chars))

    def __getitem__(self, key: SupportsIndex | slice) -> PlainText:
        return PlainText(str.__getitem__(self, key))


def plain(value: Any) -> Any:
    """``value`` as plain text when it is text (a number or yes/no has no markup to escape)."""
    return PlainText(value) if isinstance(value, str) and not isinstance(value, PlainText) else value
