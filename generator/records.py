"""Records and values: the dataclasses that carry data from one stage of the pipeline to the next.

Most of the package's classes are **records**: plan operations, styles, fitted lines,
rules, reports. Each is compared by identity, and those the stages share (a face's plan,
a layout's styles) are not changed once made; a few are filled in while they are built
(a layout's fonts, say). The classes whose instances are compared or used as keys
(``Position``, ``Box``, ``Card``, ``Finding``, ``Span``, a font ``Face``) and the results
the commands return are **values**: frozen, equal when their fields are, hashed by them.

``@record`` and ``@value`` make such dataclasses as cheaply as Python allows, which
matters twice over: ``deckpress`` defines over a hundred of them at every start, and
makes tens of them for every card face. ``dataclass`` writes each class's methods as
source and compiles them one by one: about a fifth of a millisecond for an ``__init__``,
four more compilations for a frozen class. Together that was a seventh of a whole
``check``. Here nothing is compiled for a class:

- ``__init__`` is made from a template (:func:`_init_template`). Two classes whose fields
  are alike in kind (plain or made by a factory, positional or keyword-only) have
  ``__init__``s that differ only in their names, so a template is compiled once for each
  such shape and a class's ``__init__`` is the template's code with the names put in. It
  behaves as the dataclass's own would: the same signature, defaults, factories, error
  messages and ``__post_init__`` call. What no template covers (an ``init=False`` field,
  an ``InitVar``) is refused when the class is defined.
- ``__repr__``, and a value's ``__eq__``, ``__hash__``, ``__setattr__`` and
  ``__delattr__``, are functions shared by every class; they read the class's fields.
- The fields are collected as ``dataclass`` collects them, without its search of every
  annotation for ``ClassVar``, ``InitVar`` and ``KW_ONLY`` (:func:`_keep_books`), so
  records and values stay dataclasses: ``fields()``, ``replace()`` and ``asdict()``
  work on them.

A record is not frozen: a frozen class's ``__init__`` sets every field through
``object.__setattr__``, which makes it three times slower to create, and a face makes
many records. Read-only is kept by convention: nothing assigns a shared record's field.
"""

from __future__ import annotations

import builtins
import copy
import dataclasses
import inspect
import sys
from dataclasses import MISSING, Field, FrozenInstanceError, dataclass, fields
from functools import cache
from operator import attrgetter
from reprlib import recursive_repr
from types import CodeType, FunctionType
from typing import Any, Callable, TypeVar

DataClass = TypeVar("DataClass", bound=type)


def record(cls: DataClass | None = None, /, *, kw_only: bool = False) -> Any:
    """Make ``cls`` a record: a dataclass compared by identity, with the shared repr.

    Use it bare (``@record``) or with keyword-only fields (``@record(kw_only=True)``).
    """

    def make(cls: DataClass) -> DataClass:
        return _made(cls, kw_only, _RECORD_PARAMS, frozen=False)

    return make if cls is None else make(cls)


def value(cls: DataClass | None = None, /, *, kw_only: bool = False) -> Any:
    """Make ``cls`` a value: a frozen dataclass, equal to another of its class whose
    compared fields are equal, hashed by those fields, printed as a dataclass prints.

    Use it bare (``@value``) or with keyword-only fields (``@value(kw_only=True)``).
    """

    def make(cls: DataClass) -> DataClass:
        made = _made(cls, kw_only, _VALUE_PARAMS, frozen=True)
        every = fields(made)
        made._compared_fields = _fields_getter(  # type: ignore[attr-defined]
            [field.name for field in every if field.compare])
        made._hashed_fields = _fields_getter(  # type: ignore[attr-defined]
            [field.name for field in every if (field.compare if field.hash is None else field.hash)])
        _set_unless_defined(made, "__eq__", _value_eq)
        if made.__dict__.get("__hash__", _value_hash) is None and "__eq__" in made.__dict__:
            del made.__hash__  # the None Python gives a class that writes __eq__, as dataclass replaces it
        _set_unless_defined(made, "__hash__", _value_hash)
        _set_unless_defined(made, "__setattr__", _refuse_change)
        _set_unless_defined(made, "__delattr__", _refuse_deletion)
        return made

    return make if cls is None else make(cls)


def _made(cls: DataClass, kw_only: bool, params: Any, frozen: bool) -> DataClass:
    """``cls`` with the dataclass bookkeeping (its fields, ``fields()``, ``replace()``),
    a templated ``__init__`` and the shared ``__repr__``."""
    if _can_keep_books(cls):
        made = _keep_books(cls, kw_only)
    else:
        made = dataclass(cls, init=False, repr=False, eq=False, kw_only=kw_only)
    made.__dataclass_params__ = params  # type: ignore[attr-defined]
    if "__init__" not in made.__dict__:  # as dataclass does: a class's own __init__ is kept
        made.__init__ = _templated_init(made, frozen)
    _set_unless_defined(made, "__repr__", _record_repr)
    if not made.__doc__:  # as dataclass documents a class that does not
        made.__doc__ = made.__name__ + str(inspect.signature(made)).replace(" -> None", "")
    return made


# The marks dataclass leaves on a class and on each of its fields. Where a later Python
# keeps them elsewhere, dataclass itself does the bookkeeping (see _can_keep_books).
# A record's say it is neither compared nor frozen; a value's say it is both, so a
# dataclass may not inherit from a value without being frozen too.
# (The class has a docstring, or dataclass would write it one from inspect.signature: 6 ms.)
_RECORD_PARAMS = dataclass(type("_Record", (), {"__doc__": "A record."}), init=False, repr=False,
                           eq=False).__dataclass_params__
_RECORD_PARAMS.init = True  # taken from a class made without compiling an __init__ it does not need
_VALUE_PARAMS = copy.copy(_RECORD_PARAMS)
_VALUE_PARAMS.repr = _VALUE_PARAMS.eq = _VALUE_PARAMS.frozen = True
_FIELD_KIND = getattr(dataclasses, "_FIELD", None)
_NOT_PLAIN = ("ClassVar", "InitVar", "KW_ONLY")


def _can_keep_books(cls: type) -> bool:
    return _FIELD_KIND is not None and "__annotations__" in cls.__dict__


def _keep_books(cls: DataClass, kw_only: bool) -> DataClass:
    """What ``dataclass(cls, init=False, repr=False, eq=False)`` does, for plain fields.

    ``dataclass`` looks up every field's annotation, three times, in case it names
    ``ClassVar``, ``InitVar`` or ``KW_ONLY``: with over a hundred classes defined at
    each start, that was most of a record's cost. A record names none of them, which
    is checked once here, in the annotation's text."""
    collected: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        collected.update(getattr(base, "__dataclass_fields__", {}))
    for name, annotation in cls.__dict__["__annotations__"].items():
        if any(marker in str(annotation) for marker in _NOT_PLAIN):
            raise _not_plain(cls, name)
        default = getattr(cls, name, MISSING)
        made = default if isinstance(default, Field) else dataclasses.field(default=default)
        made.name, made.type = name, annotation
        made._field_type = _FIELD_KIND  # type: ignore[attr-defined]
        if made.kw_only is MISSING:
            made.kw_only = kw_only
        if made.default is not MISSING and type(made.default).__hash__ is None:
            raise ValueError(f"mutable default {type(made.default)} for field {name} is not allowed: "
                             "use default_factory")
        if isinstance(default, Field):  # the class keeps the plain default, as with dataclass
            if made.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, made.default)
        collected[name] = made
    cls.__dataclass_fields__ = collected  # type: ignore[attr-defined]
    cls.__match_args__ = tuple(name for name, made in collected.items() if made.init and not made.kw_only)
    return cls


def _not_plain(cls: type, name: str) -> TypeError:
    return TypeError(f"{cls.__qualname__}.{name}: records and values take plain fields only; "
                     "make the class a @dataclass")


def _set_unless_defined(cls: type, name: str, method: Callable) -> None:
    # As dataclass does: a method the class writes itself is kept.
    if name not in cls.__dict__:
        setattr(cls, name, method)


@recursive_repr()
def _record_repr(self: Any) -> str:
    """``Name(field=value, ...)``, as a dataclass's generated ``__repr__`` writes it (``...`` for
    a record met again inside itself)."""
    shown = ", ".join(f"{field.name}={getattr(self, field.name)!r}" for field in fields(self) if field.repr)
    return f"{type(self).__qualname__}({shown})"


def _value_eq(self: Any, other: Any) -> Any:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return self._compared_fields(self) == self._compared_fields(other)


def _value_hash(self: Any) -> int:
    return hash(self._hashed_fields(self))


def _fields_getter(names: list[str]) -> Any:
    """A function of an instance giving the tuple of these fields, which a frozen
    dataclass compares and hashes (so a value's hash is the dataclass's)."""
    if len(names) > 1:
        return attrgetter(*names)  # unlike a function, it stays unbound on the class
    if names:
        one = attrgetter(names[0])
        return staticmethod(lambda instance: (one(instance),))
    return staticmethod(lambda instance: ())


def _refuse_change(self: Any, name: str, _: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _refuse_deletion(self: Any, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


# Names the templates use beside the placeholders, which no field may take.
_NO_VALUE_NAME = "__record_no_value__"
_FACTORY_NAME = "__record_factory_{}__"
_SET_NAME = "__record_set__"


class _Factory:
    """The default of a field made by a factory; it prints as a dataclass's does."""

    def __repr__(self) -> str:
        return "<factory>"


_NO_VALUE = _Factory()

# One field's place in a template: whether its default comes from a factory, and
# whether it is keyword-only.
Shape = tuple[tuple[bool, bool], ...]


def _templated_init(cls: type, frozen: bool) -> FunctionType:
    """``cls.__init__`` as ``dataclass`` would compile it, made from the template for its
    shape with the fields' names put in."""
    in_init = list(fields(cls))
    _check_templates_cover(cls, in_init)
    template = _init_template(tuple((field.default_factory is not MISSING, field.kw_only is True)
                                    for field in in_init),
                              post_init=hasattr(cls, "__post_init__"), frozen=frozen)
    renamed = {placeholder: field.name for index, field in enumerate(in_init)
               for placeholder in (f"p{index}", f"a{index}")}
    code = template.replace(co_names=tuple(renamed.get(name, name) for name in template.co_names),
                            co_varnames=tuple(renamed.get(name, name) for name in template.co_varnames),
                            co_consts=tuple(renamed.get(const, const) if isinstance(const, str) else const
                                            for const in template.co_consts),
                            **_qualified(cls))
    scope = {"__builtins__": builtins, _NO_VALUE_NAME: _NO_VALUE, _SET_NAME: object.__setattr__,
             **{_FACTORY_NAME.format(index): field.default_factory
                for index, field in enumerate(in_init) if field.default_factory is not MISSING}}
    init = FunctionType(code, scope, "__init__")
    init.__defaults__ = tuple(_default_of(field) for field in in_init
                              if not field.kw_only and _has_default(field)) or None
    init.__kwdefaults__ = {field.name: _default_of(field) for field in in_init
                           if field.kw_only and _has_default(field)} or None
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__annotations__ = {**{field.name: field.type for field in in_init}, "return": None}
    return init


def _check_templates_cover(cls: type, in_init: list[Field]) -> None:
    """Refuse a class no template can make an ``__init__`` for, and, as ``dataclass``
    does, a positional field without a default after one with."""
    for field in in_init:
        if not field.init or "InitVar" in str(field.type) or field.name in ("self", _NO_VALUE_NAME, _SET_NAME):
            raise _not_plain(cls, field.name)
    seen_default = False
    for field in in_init:
        if field.kw_only:
            continue
        if _has_default(field):
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {field.name!r} follows default argument")


def _has_default(field: Field) -> bool:
    return field.default is not MISSING or field.default_factory is not MISSING


def _default_of(field: Field) -> Any:
    return _NO_VALUE if field.default_factory is not MISSING else field.default


def _qualified(cls: type) -> dict[str, str]:
    # Python 3.10's code objects have no qualified name; its messages use the plain one.
    if sys.version_info < (3, 11):
        return {}
    return {"co_qualname": f"{cls.__qualname__}.__init__"}


@cache
def _init_template(shape: Shape, post_init: bool, frozen: bool) -> CodeType:
    """The code of an ``__init__`` for fields of this shape: parameter ``p<i>`` sets
    attribute ``a<i>``, or that field's factory does when it is left out. A frozen
    class's is set past its refusing ``__setattr__``, as a frozen dataclass's is."""
    positional = [f"p{index}" for index, (_, keyword) in enumerate(shape) if not keyword]
    keyword = [f"p{index}" for index, (_, keyword) in enumerate(shape) if keyword]
    signature = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    body = []
    for index, (made_by_factory, _) in enumerate(shape):
        given = (f"{_FACTORY_NAME.format(index)}() if p{index} is {_NO_VALUE_NAME} else p{index}"
                 if made_by_factory else f"p{index}")
        body.append(f"{_SET_NAME}(self, 'a{index}', {given})" if frozen else f"self.a{index} = {given}")
    if post_init:
        body.append("self.__post_init__()")
    source = f"def __init__({signature}):\n" + "".join(f"    {line}\n" for line in body or ["pass"])
    return next(const for const in compile(source, "<record>", "exec").co_consts
                if isinstance(const, CodeType))
