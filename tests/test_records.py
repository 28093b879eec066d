"""Records print as dataclasses print, and are told apart by identity."""

from dataclasses import dataclass, field

import pytest

from generator.records import record


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
