"""Simulations are seeded and reproducible, plugins run only when asked, and Goblins plays by its rules."""

import importlib.util
import json
import re
import sys
from dataclasses import replace
from pathlib import Path

from click.testing import CliRunner

from generator.cli import cli
from generator.deck import load_deck
from generator.stats.simulation import load_plugin, run, wilson_interval
from generator.stats.spec import read_stats_spec

ROOT = Path(__file__).resolve().parents[1]
GOBLINS = ROOT / "cards" / "goblins"


def goblins_run(games: int, seed: int, policy: str = "greedy"):
    deck = load_deck(GOBLINS)
    spec = read_stats_spec(deck).simulation
    return run(load_plugin(deck, spec), deck, spec, games=games, seed=seed, policy=policy)


def test_same_seed_same_games_different_seed_different_sample():
    first, again, other = goblins_run(150, 5), goblins_run(150, 5), goblins_run(150, 6)
    assert first.outcomes == again.outcomes
    assert first.outcomes != other.outcomes
    assert first.games == 150


def test_each_game_is_fixed_by_seed_and_number_alone():
    """A longer run starts with exactly the games of a shorter one, so any game can be replayed."""
    assert goblins_run(100, 9).outcomes[:40] == goblins_run(40, 9).outcomes


def test_goblins_games_end_within_the_rules():
    result = goblins_run(300, 1)
    # Six goblins start in hand and a turn removes at most one: no win before turn 6.
    assert min(result.winning_turns) >= 6
    # The booklet's solo game ends after 15 turns; a loss names the goblins left, its score.
    assert max(result.winning_turns) <= 15
    lost = [o for o in result.outcomes if not o.won]
    assert lost and all(o.turns == 15 for o in lost)
    assert all(re.fullmatch(r"lost with [1-9] goblins? in hand", o.ending) for o in lost)
    assert 0 < result.wins < result.games


def test_the_simulated_turn_limit_is_the_booklets():
    deck = load_deck(GOBLINS)
    limit = read_stats_spec(deck).simulation.options["max_turns"]
    assert limit == load_goblins_module().TURN_LIMIT == 15
    booklet = " ".join((GOBLINS / "rules.md").read_text(encoding="utf-8").split())
    assert f"at most **{limit} turns**" in booklet


def test_a_longer_game_wins_more_often():
    deck = load_deck(GOBLINS)
    spec = read_stats_spec(deck).simulation
    longer = replace(spec, options={**spec.options, "max_turns": 30})
    plugin = load_plugin(deck, spec)
    short, long = run(plugin, deck, spec, games=300, seed=1), run(plugin, deck, longer, games=300, seed=1)
    assert short.wins < long.wins
    assert max(long.winning_turns) > 15 and all(o.turns == 30 for o in long.outcomes if not o.won)


def test_greedy_beats_random_play():
    assert goblins_run(300, 2, "greedy").wins > goblins_run(300, 2, "random").wins


def load_goblins_module():
    spec = importlib.util.spec_from_file_location("goblins_rules_under_test", GOBLINS / "simulate.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look the module up
    spec.loader.exec_module(module)
    return module


def goblins_table():
    rules = load_goblins_module()
    deck = load_deck(GOBLINS)
    number = {card.id: i for i, card in enumerate(deck.cards)}
    return rules, rules.prepare(deck, {}), lambda card_id, side: rules.face(number[card_id], side)


def test_a_goblins_turn_flips_rhymes_and_takes_the_symbol():
    rules, table, lying = goblins_table()
    G, F = rules.GOBLIN, rules.FAIRY
    hand = [lying("nappy-hour", G)]  # Nappy Hour: 'our', Moon
    circle = [
        lying("old-man-sock", F),  # Pixie Power: rhymes ('our'), flips to Old Man Sock (Sun): stays
        lying("chicken-pock", F),  # Lemon Loop: 'oop', Sun: stays
        lying("goblin-soup", G),   # Goblin Soup: 'oop', Moon: taken as it lies
    ]
    new_hand, new_circle = rules.take_turn(table, hand, circle, 0)
    assert new_hand == [lying("goblin-soup", G)]
    assert new_circle == [lying("old-man-sock", G), lying("chicken-pock", F), lying("nappy-hour", G)]
    assert rules.goblins_after(table, hand, circle, 0, 1) == rules.goblins(table, new_hand) == 1


def test_a_star_card_flips_the_whole_circle():
    rules, table, lying = goblins_table()
    G, F = rules.GOBLIN, rules.FAIRY
    hand = [lying("dusty-dour", G)]  # Star, 'our', Sun
    circle = [lying("cobweb-shock", G), lying("spidery-glue", F)]
    # Cobweb Shock flips to Willow Sue (Frog): stays; Sweet and Sour flips to Spidery Glue (Sun): taken.
    new_hand, new_circle = rules.take_turn(table, hand, circle, 0)
    assert new_hand == [lying("spidery-glue", G)]
    assert new_circle == [lying("cobweb-shock", F), lying("dusty-dour", G)]


def test_wilson_interval_matches_published_values():
    interval = wilson_interval(50, 100)
    assert (round(interval.low, 4), round(interval.high, 4)) == (0.4038, 0.5962)
    assert round(wilson_interval(0, 10).high, 4) == 0.2775


PLUGIN_DECK = """\
deck: {name: Coin}
cards:
  - {id: heads, name: Heads, count: 2}
stats:
  simulate: {plugin: coin.py, games: 20, seed: 4}
"""

COIN_PLUGIN = """\
'''Coin flips: win on heads.'''
from pathlib import Path
from generator.stats.simulation import Outcome

Path(__file__).with_name("ran.txt").write_text("plugin code ran")
POLICIES = {"flip": "flip a coin"}

def prepare(deck, options):
    return deck.total

def play(prepared, rng, policy):
    {body}
"""


def coin_deck(tmp_path: Path, body: str = "return Outcome(won=rng.random() < 0.5, turns=1)") -> Path:
    (tmp_path / "deck.yaml").write_text(PLUGIN_DECK)
    (tmp_path / "coin.py").write_text(COIN_PLUGIN.replace("{body}", body))
    return tmp_path


def test_plugin_runs_only_with_simulate(tmp_path):
    folder = coin_deck(tmp_path)
    result = CliRunner().invoke(cli, ["stats", str(folder)])
    assert result.exit_code == 0, result.output
    assert not (folder / "ran.txt").exists()
    assert "pass --simulate only for decks you trust" in result.output

    result = CliRunner().invoke(cli, ["stats", str(folder), "--simulate", "--quiet", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert (folder / "ran.txt").exists()
    simulation = json.loads(result.output)["decks"][0]["simulation"]
    assert simulation["games"] == 20 and simulation["seed"] == 4 and simulation["policy"] == "flip"
    low, high = simulation["win_rate"]["ci95"]
    assert low <= simulation["win_rate"]["estimate"] <= high


def test_help_says_simulate_runs_deck_code():
    result = CliRunner().invoke(cli, ["stats", "--help"])
    assert "--simulate" in result.output and "decks you trust" in result.output


def test_a_crashing_plugin_is_one_line_with_its_file_and_line(tmp_path):
    folder = coin_deck(tmp_path, "return 1 / 0")
    result = CliRunner().invoke(cli, ["stats", str(folder), "--simulate", "--quiet"])
    assert result.exit_code == 2
    assert f"{folder.resolve() / 'coin.py'}:12: game 0 (seed 4) failed: ZeroDivisionError" in result.output
    assert "Traceback" not in result.output


def test_unknown_policy_is_named(tmp_path):
    folder = coin_deck(tmp_path)
    result = CliRunner().invoke(cli, ["stats", str(folder), "--simulate", "--policy", "flipp"])
    assert result.exit_code == 2
    assert "plugin has no policy 'flipp'; did you mean 'flip'?" in result.output
