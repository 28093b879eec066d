"""Tiki solitaire: shuffle the 40 monsters and play a row on Tiki until it holds 10 strength.

The game as the beta rules describe it:

* Setup: shuffle the 40-card deck, draw 3 cards.
* A turn: draw 1 card; burn as many cards as you like, drawing 1 for each;
  play 1 card beside Tiki; win if the row's strength adds up to 10 or more.
* A card fits if it shares the last card's value or colour. Value 0 is wild:
  it fits any value and takes the previous card's value. If nothing in hand
  fits, you must still play a card, and the whole row is discarded first.
* You lose when you must draw from an empty deck, or when the burn pile holds
  10 or more burn points.

Card effects are modelled from their printed text (the EFFECTS table below);
an effect whose text is not in the table is ignored and listed in the report.

Policies (how the simulated player decides):

* ``greedy``: play the strongest card that fits (a wild last, keeping it for
  emergencies); when nothing fits and the row already holds 4 or more strength,
  burn the cheapest card to dig for one, as long as the burn pile stays below 10;
* ``timid``: the same, but never burn;
* ``random``: play any card that fits (any card when none does), never burn.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from generator.stats.simulation import Outcome

TITLE = "Tiki solitaire"
POLICIES = {
    "greedy": "strongest fitting card; burn the cheapest card to save a row worth 4+",
    "timid": "strongest fitting card; never burn",
    "random": "any fitting card (any card when none fits); never burn",
}

HAND_SIZE = 3
WIN_STRENGTH = 10
BURN_LIMIT = 10
SAVE_ROW_WORTH = 4
WILD = 0

# Printed effect text -> what the simulation does. A play effect holds while its card is
# the last one on Tiki (the deck's field description says so), so the text may omit it.
EFFECTS = {
    "Draw 1 more card.": "draw",
    "Move 1 other card from the burn pile to the discard pile.": "unburn",
    "Take the top card of the discard pile into your hand.": "recover",
    "Look at the top 3 cards of the deck and put them back in any order.": "arrange",
    "You may play one more card this turn, if it matches.": "extra_play",
    "Any card matches it, whatever its value and colour.": "any_next",
    "Cards you burn go to the discard pile instead of the burn pile.": "free_burn",
    "Draw 2 cards instead of 1 at the start of your turn.": "double_draw",
    "You cannot burn cards.": "no_burn",
    "You cannot burn cards while this is the last card on Tiki.": "no_burn",
}


@dataclass(frozen=True)
class Monster:
    """One card of the 40-card deck, with its effects already read."""

    name: str
    value: int
    colour: str
    strength: int
    burn: int
    on_burn: str | None
    while_last: str | None


@dataclass(frozen=True)
class Table:
    """The deck ready to shuffle, and the printed effects the simulation cannot play."""

    monsters: tuple[Monster, ...]
    notes: tuple[str, ...] = ()


@dataclass
class Game:
    """Everything on the table during one game. The row holds (card, value it counts as)."""

    deck: list[Monster]
    hand: list[Monster] = field(default_factory=list)
    row: list[tuple[Monster, int]] = field(default_factory=list)
    burned: list[Monster] = field(default_factory=list)
    discard: list[Monster] = field(default_factory=list)

    @property
    def last(self) -> tuple[Monster, int] | None:
        return self.row[-1] if self.row else None

    @property
    def last_effect(self) -> str | None:
        return self.row[-1][0].while_last if self.row else None

    @property
    def strength(self) -> int:
        return sum(card.strength for card, _ in self.row)

    @property
    def burn_points(self) -> int:
        return sum(card.burn for card in self.burned)


class Lost(Exception):
    """The game is lost; the message says why."""


def prepare(deck, options: dict) -> Table:
    """The monsters of the deck (every card with a value), with their effects looked up."""
    monsters, unknown = [], []
    for card in deck.cards:
        fields = card.fields
        if fields.get("value") is None:
            continue  # the Tiki card itself
        effects = []
        for key in ("burn_effect", "play_effect"):
            text = fields.get(key)
            effects.append(EFFECTS.get(text) if text else None)
            if text and text not in EFFECTS:
                unknown.append(f"{fields.get('name', card.id)}: {text}")
        monster = Monster(str(fields.get("name", card.id)), int(fields["value"]), str(fields.get("colour")),
                          int(fields.get("strength") or 0), int(fields.get("burn") or 0), *effects)
        monsters.extend([monster] * card.count)
    notes = tuple(f"effect not simulated: {text}" for text in unknown)
    return Table(tuple(monsters), notes)


def play(table: Table, rng: random.Random, policy: str) -> Outcome:
    """One game from a fresh shuffle."""
    deck = list(table.monsters)
    rng.shuffle(deck)
    game = Game(deck=deck)
    turn = 0
    try:
        draw(game, HAND_SIZE)
        while True:
            turn += 1
            draw(game, 2 if game.last_effect == "double_draw" else 1)
            if policy == "greedy":
                burn_for_a_fit(game, rng)
            play_card(game, choose(game, policy, rng))
            if game.strength < WIN_STRENGTH and game.last_effect == "extra_play" and fitting(game):
                # Magma Ogre, last in the row: one more card this turn, only one that matches (the extra
                # play is optional and never breaks the row).
                play_card(game, choose(game, policy, rng))
            if game.strength >= WIN_STRENGTH:
                return Outcome(won=True, turns=turn, ending="won")
    except Lost as reason:
        return Outcome(won=False, turns=turn, ending=str(reason))


def draw(game: Game, count: int) -> None:
    for _ in range(count):
        if not game.deck:
            raise Lost("deck ran out")
        game.hand.append(game.deck.pop())


def fits(game: Game, card: Monster) -> bool:
    """Whether ``card`` may follow the last card of the row."""
    if game.last is None:
        return True
    last, value = game.last
    if last.while_last == "any_next":
        return True
    return card.value == WILD or value == WILD or card.value == value or card.colour == last.colour


def fitting(game: Game) -> list[Monster]:
    return [card for card in game.hand if fits(game, card)]


def choose(game: Game, policy: str, rng: random.Random) -> Monster:
    """The card to play next."""
    candidates = fitting(game)
    if policy == "random":
        return rng.choice(candidates or game.hand)
    if candidates:
        # Strongest first; a wild only when nothing else fits, since it rescues later rows.
        return max(candidates, key=lambda c: (c.strength, c.value != WILD, c.value))
    return min(game.hand, key=lambda c: (c.strength, c.burn))  # the row breaks: start it cheaply


def play_card(game: Game, card: Monster) -> None:
    """Put ``card`` on Tiki, discarding the row first if it does not fit."""
    if not fits(game, card):
        game.discard.extend(c for c, _ in game.row)
        game.row.clear()
    game.hand.remove(card)
    value = card.value
    if value == WILD and game.row:
        value = game.row[-1][1]  # a wild counts as the value before it
    game.row.append((card, value))


def burn_for_a_fit(game: Game, rng: random.Random) -> None:
    """Burn cheap cards, one at a time, while nothing fits and the row is worth saving."""
    while (game.row and not fitting(game) and game.strength >= SAVE_ROW_WORTH
           and game.last_effect != "no_burn" and game.hand):
        card = min(game.hand, key=lambda c: (c.burn, c.strength))
        free = game.last_effect == "free_burn"
        if not free and game.burn_points + card.burn >= BURN_LIMIT:
            return
        burn(game, card, free)


def burn(game: Game, card: Monster, free: bool) -> None:
    """Burn ``card``, apply its burn effect, and draw its replacement."""
    game.hand.remove(card)
    (game.discard if free else game.burned).append(card)
    if game.burn_points >= BURN_LIMIT:
        raise Lost("burned out")
    if card.on_burn == "unburn" and any(c is not card for c in game.burned):
        heaviest = max((c for c in game.burned if c is not card), key=lambda c: c.burn)
        game.burned.remove(heaviest)
        game.discard.append(heaviest)
    elif card.on_burn == "recover" and game.discard:
        game.hand.append(game.discard.pop())
    elif card.on_burn == "arrange":
        arrange_top(game)
    draw(game, 2 if card.on_burn == "draw" else 1)


def arrange_top(game: Game) -> None:
    """Put the top three cards back with the strongest fitting card on top."""
    top = game.deck[-3:]
    del game.deck[-3:]
    top.sort(key=lambda c: (fits(game, c), c.strength))  # the last is drawn first
    game.deck.extend(top)
