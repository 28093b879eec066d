"""Records: the dataclasses that carry data from one stage of the pipeline to the next.

Most of the package's classes are records: plan operations, styles, fitted lines, rules,
reports. Each is compared by identity, and those the stages share (a face's plan, a
layout's styles) are not changed once made; a few are filled in while they are built
(a layout's fonts, say). ``@record`` makes such a
dataclass as cheaply as Python allows, which matters twice over: ``deckpress`` defines
about a hundred of them at every start, and makes tens of them for every card face.

- Not ``frozen``. A frozen dataclass compiles its own ``__setattr__`` and
  ``__delattr__`` when its class is defined (together about 10% of a whole ``check``),
  and its ``__init__`` sets every field through ``object.__setattr__``, which makes each
  record three times slower to create. Read-only is kept by convention: nothing assigns
  a shared record's field.
- No ``__eq__`` or ``__hash__``: nothing compares two records by value, so identity does.
- One ``__repr__`` shared by all records instead of one compiled for each class; it
  prints what a dataclass's own would.

Values that are compared or used as keys (``Position``, ``Box``, ``Card``, ``Finding``,
``Span``, a font ``Face``) stay ``@dataclass(frozen=True)``, as do the results the
commands return (a build's ``PressResult``, an export's, the stats'), which are made a
few times a run.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from reprlib import recursive_repr
from typing import Any, TypeVar

RecordClass = TypeVar("RecordClass", bound=type)


def record(cls: RecordClass | None = None, /, **options: Any) -> Any:
    """Make ``cls`` a record: a dataclass compared by identity, with the shared repr.

    Use it bare (``@record``) or with dataclass options (``@record(kw_only=True)``).
    """

    def make(cls: RecordClass) -> RecordClass:
        made = dataclass(cls, eq=False, repr=False, **options)
        if "__repr__" not in cls.__dict__:
            made.__repr__ = _record_repr
        return made

    return make if cls is None else make(cls)


@recursive_repr()
def _record_repr(self: Any) -> str:
    """``Name(field=value, ...)``, as a dataclass's generated ``__repr__`` writes it (``...`` for
    a record met again inside itself)."""
    shown = ", ".join(f"{field.name}={getattr(self, field.name)!r}" for field in fields(self) if field.repr)
    return f"{type(self).__qualname__}({shown})"

