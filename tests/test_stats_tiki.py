"""The Tiki solitaire plugin follows the beta rules: matching, wilds, broken rows, burning."""

import importlib.util
import sys
from pathlib import Path

from generator.deck import load_deck
from generator.stats.simulation import load_plugin, run
from generator.stats.spec import read_stats_spec

TIKI = Path(__file__).resolve().parents[1] / "cards" / "tiki"


def tiki_rules():
    spec = importlib.util.spec_from_file_location("tiki_rules_under_test", TIKI / "simulate.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look the module up
    spec.loader.exec_module(module)
    table = module.prepare(load_deck(TIKI), {})
    by_name = {card.name: card for card in table.monsters}
    return module, table, by_name


def test_every_printed_effect_is_simulated():
    _, table, by_name = tiki_rules()
    assert len(table.monsters) == 40
    assert table.notes == ()
    assert by_name["Volcano Titan"].while_last == "no_burn"
    assert by_name["Ember Imp"].on_burn == "draw"


def test_value_or_colour_fits_and_a_wild_takes_the_value_before_it():
    rules, _, card = tiki_rules()
    game = rules.Game(deck=[], hand=[card["FairyCrushers"], card["Barnacle Brat"], card["Reef Crab"]])
    rules.play_card(game, card["FairyCrushers"])          # red 3
    assert rules.fits(game, card["Barnacle Brat"])          # blue 3: same value
    assert not rules.fits(game, card["Reef Crab"])          # blue 2: neither
    game.hand.append(card["Mimic Octopus"])                 # blue 0: wild
    rules.play_card(game, card["Mimic Octopus"])
    assert game.row[-1][1] == 3                             # counts as a 3 now
    assert rules.fits(game, card["Reef Crab"])              # blue like the wild


def test_a_card_that_does_not_fit_discards_the_row():
    rules, _, card = tiki_rules()
    game = rules.Game(deck=[], hand=[card["Lava Hound"], card["Moss Ogre"], card["Reef Crab"]])
    rules.play_card(game, card["Lava Hound"])               # red 5
    rules.play_card(game, card["Moss Ogre"])                # green 5 fits by value
    rules.play_card(game, card["Reef Crab"])                # blue 2 fits neither
    assert [c.name for c, _ in game.row] == ["Reef Crab"]
    assert [c.name for c in game.discard] == ["Lava Hound", "Moss Ogre"]


def test_burning_adds_points_and_draws_a_replacement():
    rules, _, card = tiki_rules()
    game = rules.Game(deck=[card["Dust Devil"]], hand=[card["Soot Sprite"]],
                      burned=[card["Lava Hound"], card["Tide Troll"]])
    rules.burn(game, card["Soot Sprite"], free=False)
    assert game.burn_points == 3 + 3 + 2
    assert [c.name for c in game.hand] == ["Dust Devil"]
    # Puddle Nymph moves the heaviest other burned card to the discard pile.
    game.hand.append(card["Puddle Nymph"])
    game.deck.append(card["Reef Crab"])
    rules.burn(game, card["Puddle Nymph"], free=False)
    assert game.burn_points == 3 + 2 + 1


def test_runs_are_seeded_and_end_by_the_rules():
    deck = load_deck(TIKI)
    spec = read_stats_spec(deck).simulation
    plugin = load_plugin(deck, spec)
    first = run(plugin, deck, spec, games=200, seed=3)
    assert first.outcomes == run(plugin, deck, spec, games=200, seed=3).outcomes
    assert first.outcomes != run(plugin, deck, spec, games=200, seed=4).outcomes
    assert set(first.endings()) <= {"won", "deck ran out", "burned out"}
    # 3 cards in hand and 1 draw a turn: the 40-card deck runs dry by turn 38.
    assert all(o.turns <= 38 for o in first.outcomes)
    assert 0 < first.wins < first.games
