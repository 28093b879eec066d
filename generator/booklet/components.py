"""What is in the box, counted from the deck file: the components list and cover summary.

Pure functions over the deck model, so the booklet can never disagree with
the cards: change a count in ``deck.yaml`` and the next booklet says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.deck.model import Card, Deck
from generator.words import Words, words_for


@dataclass(repr=False, eq=False)
class ComponentGroup:
    """Cards sharing one value of the grouping field, e.g. every ``category: Shelf`` card."""

    label: str
    count: int
    cards: tuple[Card, ...]
    words: Words  # the deck's language, for the line
    renamed: bool = False  # the rules file gave the label ("Star cards"); else it is the field value
    unset: bool = False  # the cards that leave the grouping field empty ("Other")

    @property
    def line(self) -> str:
        """The group as a sentence fragment: "99 Cereal Monster cards", "1 Shelf card".

        A field value names a kind, not a number of things ("Shelf", "Spilled
        Milk"), so it reads as "N <kind> cards"; a label the rules file chose
        ("Monsters", "Star cards") is printed as written.
        """
        if self.renamed:
            return f"{self.count} {self.label}"
        if self.unset:
            return self.words("other_cards", self.count)
        return self.words("group_cards", self.count, label=self.label)


@dataclass(repr=False, eq=False)
class Components:
    """The deck's contents: a headline ("152 cards"), its groups, and anything else needed."""

    headline: str
    groups: tuple[ComponentGroup, ...]
    extras: tuple[str, ...]


def value_label(value: Any) -> str:
    """How a field value reads in a booklet: yes/no for booleans, '' when the card
    leaves the field empty, text otherwise."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def card_headline(deck: Deck) -> str:
    """``"152 cards"``, or ``"20 double-sided cards"`` when every card has its own back."""
    double_sided = deck.cards and all(card.back is not None for card in deck.cards)
    return words_for(deck)("double_sided_cards" if double_sided else "cards", deck.total)


def choice_label(deck: Deck, field_name: str, value: Any) -> str | None:
    """How the deck's translation labels a choice value, if it does: a deck as written has
    no translation, and needs not load the translations' module to say so."""
    if deck.translation is None:
        return None
    from generator.deck import translation  # noqa: PLC0415  (only a translated deck needs it)

    return translation.choice_label(deck, field_name, value)


def choice_text(deck: Deck, field_name: str, value: Any) -> str | None:
    """A choice value as the booklet's tables print it: as the deck's translation labels it,
    else capitalised (``hero`` as Hero); None for a value that is no choice of the field."""
    spec = deck.fields.get(field_name)
    if spec is None or value not in spec.choices:
        return None
    label = choice_label(deck, field_name, value)
    if label is not None:
        return label
    return value[:1].upper() + value[1:] if isinstance(value, str) else None


def group_cards(deck: Deck, by: str | None, labels: dict[str, str]) -> tuple[ComponentGroup, ...]:
    """Cards grouped by the value of field ``by``, in the order the deck first lists them.

    ``labels`` renames groups: keys are field values as they read (``"true"`` for a
    boolean reads ``"yes"``, so both spellings are accepted). Otherwise a group is
    named by its value, as the deck's translation labels it if it does; a choice value is
    capitalised, as card tables print it.
    """
    if by is None:
        return ()
    members: dict[str, list[Card]] = {}  # in the order the deck first has each value
    for card in deck.cards:
        if card.count:
            members.setdefault(value_label(card.fields.get(by)), []).append(card)
    words = words_for(deck)
    return tuple(
        ComponentGroup(label=labels.get(key) or choice_text(deck, by, cards[0].fields.get(by)) or key
                       or words("other_column"),
                       count=sum(card.count for card in cards), cards=tuple(cards),
                       renamed=key in labels, unset=not key, words=words)
        for key, cards in members.items()
    )


def group_values(deck: Deck, by: str) -> set[str]:
    """Every value of ``by`` as it reads, for checking a directive's labels."""
    return {value_label(card.fields.get(by)) for card in deck.cards}


def describe_group(group: ComponentGroup, deck: Deck) -> str:
    """A short breakdown of a group: which cards and how many of each.

    "7 Broken Shelf, 7 Shelf Repair, 3 Unbreakable Shelf" when the kinds have
    different names and are few; "11 kinds, 9 of each", "16 different cards" or
    "3 kinds: 10, 7 and 3 copies" otherwise.
    """
    kinds = group.cards
    if len(kinds) == 1:
        return deck.title(kinds[0].fields)
    titles = [deck.title(card.fields) for card in kinds]
    counts = [card.count for card in kinds]
    singles = set(counts) == {1}
    if len(set(titles)) == len(titles) and len(kinds) <= 4:
        if singles:
            return ", ".join(titles)
        return ", ".join(f"{count} {title}" for count, title in zip(counts, titles, strict=True))
    words = words_for(deck)
    if singles:
        return words("different_cards", len(kinds))
    if len(set(counts)) == 1:
        return words("kinds_of_each", kinds=len(kinds), copies=counts[0])
    if len(kinds) > 4:
        return words("kinds_copies_each", kinds=len(kinds), low=min(counts), high=max(counts))
    return words("kinds_copies", kinds=len(kinds), counts=words.join([str(count) for count in counts]))


def components(deck: Deck, by: str | None = None, labels: dict[str, str] | None = None,
               extras: tuple[str, ...] = ()) -> Components:
    """The deck's components, grouped by field ``by`` (or not grouped)."""
    return Components(headline=card_headline(deck), groups=group_cards(deck, by, labels or {}),
                      extras=tuple(extras))


def players_label(deck: Deck) -> str:
    """``"2 players"``, ``"1 to 4 players"``, ``"1 player"``."""
    low, high = deck.players
    if low == high:
        return words_for(deck)("players", low)
    return words_for(deck)("players_range", low=low, high=high)


def extras_option(directive_options: dict[str, str]) -> tuple[str, ...]:
    """The ``extra="Two dice; a pencil"`` of a components directive, one line an item."""
    return tuple(part.strip() for part in directive_options.get("extra", "").split(";") if part.strip())

