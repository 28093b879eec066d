"""Records print as dataclasses print, and are told apart by identity."""

import inspect
from dataclasses import FrozenInstanceError, dataclass, field, fields, replace

import pytest

from generator.records import record, value


@record
class Slot:
    name: str
    size: float = 1.0
    hidden: list = field(default_factory=list, repr=False)
    inside: object = None


@dataclass(eq=False)
class PlainSlot:
    name: str
    size: float = 1.0
    hidden: list = field(default_factory=list, repr=False)
    inside: object = None


def test_a_record_prints_as_the_same_dataclass_would():
    assert repr(Slot("title", 2.5, [1])) == repr(PlainSlot("title", 2.5, [1])).replace("PlainSlot", "Slot")


def test_a_record_that_holds_itself_prints_without_end():
    slot = Slot("loop")
    slot.inside = slot
    assert repr(slot) == "Slot(name='loop', size=1.0, inside=...)"


def test_records_are_told_apart_by_identity_and_hashed_by_it():
    first, second = Slot("title"), Slot("title")
    assert first != second and first == first
    assert len({first, second}) == 2


def test_a_record_keeps_its_own_repr_and_takes_dataclass_options():
    @record(kw_only=True)
    class Named:
        name: str

        def __repr__(self) -> str:
            return f"<{self.name}>"

    assert repr(Named(name="x")) == "<x>"
    with pytest.raises(TypeError):
        Named("x")  # keyword only


def _records_of_the_package() -> list[type]:
    """Every class the package makes with ``@record``: their ``__init__`` is templated."""
    import importlib
    import pkgutil

    import generator

    found = []
    for module_info in pkgutil.walk_packages(generator.__path__, "generator."):
        module = importlib.import_module(module_info.name)
        found += [value for value in vars(module).values()
                  if isinstance(value, type) and value.__module__ == module.__name__
                  and getattr(value.__init__, "__code__", None) is not None
                  and value.__init__.__code__.co_filename == "<record>"]
    return found


def _dataclass_twin(cls: type) -> type:
    """A plain dataclass with the same fields, for the ``__init__`` ``dataclass`` compiles."""
    namespace = {"__annotations__": {}}
    for each in fields(cls):
        namespace["__annotations__"][each.name] = each.type
        namespace[each.name] = field(default=each.default, default_factory=each.default_factory,
                                     kw_only=each.kw_only)
    if hasattr(cls, "__post_init__"):
        namespace["__post_init__"] = lambda self: None
    return dataclass(type(cls.__name__, (), namespace), eq=False)


def test_every_record_of_the_package_takes_what_its_dataclass_would():
    records = _records_of_the_package()
    assert len(records) > 70
    for cls in records:
        twin = _dataclass_twin(cls)
        assert str(inspect.signature(cls.__init__)) == str(inspect.signature(twin.__init__)), cls
        assert cls.__init__.__annotations__ == twin.__init__.__annotations__, cls


def test_a_record_sets_its_fields_and_makes_fresh_defaults():
    first, second = Slot("title", inside=3), Slot("text", 0.5)
    assert (first.name, first.size, first.hidden, first.inside) == ("title", 1.0, [], 3)
    assert (second.name, second.size, second.inside) == ("text", 0.5, None)
    assert first.hidden is not second.hidden


def test_a_record_is_refused_what_its_dataclass_would_be_with_the_same_words():
    for arguments, keywords in [((), {}), (("a", 1, [], None, 5), {}), (("a",), {"nme": 1}),
                                (("a",), {"name": "b"})]:
        with pytest.raises(TypeError) as ours:
            Slot(*arguments, **keywords)
        with pytest.raises(TypeError) as theirs:
            PlainSlot(*arguments, **keywords)
        assert str(ours.value) == str(theirs.value).replace("PlainSlot", "Slot")


def test_a_record_calls_its_post_init_once_after_its_fields_are_set():
    @record
    class Counted:
        name: str
        seen: list = field(default_factory=list)

        def __post_init__(self) -> None:
            self.seen.append(self.name)

    assert Counted("x").seen == ["x"]


def test_a_record_subclass_takes_its_bases_fields_first():
    @record(kw_only=True)
    class Base:
        name: str
        size: int = 1

    @record(kw_only=True)
    class Child(Base):
        colour: str = "black"

    child = Child(name="x", colour="red")
    assert (child.name, child.size, child.colour) == ("x", 1, "red")
    assert list(inspect.signature(Child).parameters) == ["name", "size", "colour"]


def test_what_no_record_template_covers_is_refused_when_the_class_is_defined():
    with pytest.raises(TypeError, match="non-default argument 'late' follows default argument"):
        @record
        class Misordered:
            early: int = 1
            late: int

    with pytest.raises(TypeError, match="records and values take plain fields only"):
        @record
        class Hidden:
            shown: int
            kept: list = field(default_factory=list, init=False)

    with pytest.raises(TypeError, match="unexpected keyword argument 'frozen'"):  # that is a @value
        @record(frozen=True)
        class Fixed:
            name: str


@value
class Spot:
    name: str
    size: float = 1.0
    note: str = field(default="", compare=False)


@dataclass(frozen=True)
class PlainSpot:
    name: str
    size: float = 1.0
    note: str = field(default="", compare=False)


def test_a_value_is_equal_and_hashed_as_the_same_frozen_dataclass_would_be():
    assert Spot("a", 2.0, "x") == Spot("a", 2.0, "y")  # the note is not compared
    assert Spot("a") != Spot("b") and Spot("a") != Spot("a", 3.0)
    assert Spot("a") != PlainSpot("a") and Spot("a") != ("a", 1.0)
    assert len({Spot("a"), Spot("a", note="y"), Spot("b")}) == 2
    assert repr(Spot("a")) == repr(PlainSpot("a")).replace("PlainSpot", "Spot")
    assert replace(Spot("a", 2.0), name="b") == Spot("b", 2.0)


def test_a_value_refuses_to_change_as_a_frozen_dataclass_does():
    for spot in (Spot("a"), PlainSpot("a")):
        with pytest.raises(FrozenInstanceError, match="cannot assign to field 'name'"):
            spot.name = "b"
        with pytest.raises(FrozenInstanceError, match="cannot delete field 'size'"):
            del spot.size
    assert Spot("a").name == "a"


def test_a_value_with_one_field_or_none_is_compared_by_them():
    @value
    class One:
        name: str

    @value
    class Empty:
        pass

    assert One("a") == One("a") != One("b") and hash(One("a")) == hash(One("a"))
    assert Empty() == Empty() and len({Empty(), Empty()}) == 1


def test_a_value_hashes_as_the_same_frozen_dataclass():
    @value
    class One:
        number: int

    @dataclass(frozen=True)
    class PlainOne:
        number: int

    assert hash(One(7)) == hash(PlainOne(7)) and hash(Spot("a", 2.0)) == hash(PlainSpot("a", 2.0))


def test_records_and_values_are_dataclasses_to_the_dataclasses_module():
    import dataclasses

    assert dataclasses.is_dataclass(Slot) and dataclasses.is_dataclass(Spot("a"))
    assert [(each.name, each.default, each.repr) for each in fields(Slot)] == [
        ("name", dataclasses.MISSING, True), ("size", 1.0, True), ("hidden", dataclasses.MISSING, False),
        ("inside", None, True)]
    assert fields(Slot)[2].default_factory is list
    assert replace(Slot("a", inside=1), size=3.0).size == 3.0
    assert dataclasses.asdict(Spot("a", note="n")) == {"name": "a", "size": 1.0, "note": "n"}
    assert Slot.size == 1.0 and "hidden" not in Slot.__dict__  # class defaults as dataclass leaves them


def test_a_record_refuses_what_is_not_a_plain_field():
    from typing import ClassVar

    with pytest.raises(TypeError, match="records and values take plain fields only"):
        @record
        class Counted:
            total: ClassVar[int] = 0

    with pytest.raises(ValueError, match="mutable default"):
        @record
        class Shared:
            items: list = []


def test_a_value_survives_pickling_and_copying():
    import copy
    import pickle

    spot = Spot("a", 2.0, "n")
    for again in (pickle.loads(pickle.dumps(spot)), copy.copy(spot), copy.deepcopy(spot)):
        assert again == spot and again.note == "n" and again is not spot


def test_a_value_hashes_the_fields_a_frozen_dataclass_would():
    @value
    class Tagged:
        name: str
        tag: str = field(default="", hash=False)

    @dataclass(frozen=True)
    class PlainTagged:
        name: str
        tag: str = field(default="", hash=False)

    assert hash(Tagged("a", "x")) == hash(Tagged("a", "y")) == hash(PlainTagged("a", "x"))
    assert Tagged("a", "x") != Tagged("a", "y")  # still compared


def test_a_value_that_writes_its_own_equality_stays_hashable_as_a_frozen_dataclass_does():
    @value
    class Loose:
        name: str

        def __eq__(self, other):
            return isinstance(other, Loose) and self.name.lower() == other.name.lower()

    assert Loose("A") == Loose("a") and hash(Loose("a")) == hash(Loose("a"))


def test_a_dataclass_may_inherit_from_a_value_only_frozen():
    with pytest.raises(TypeError, match="cannot inherit non-frozen dataclass from a frozen one"):
        @dataclass
        class Looser(Spot):
            extra: int = 0

    @dataclass(frozen=True)
    class Firmer(Spot):
        extra: int = 0

    assert Firmer("a", extra=2).extra == 2
