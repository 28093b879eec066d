"""The bundled decks carry every fact of their seed rules drafts.

The expected values below are typed from the seed documents, not read from the
deck files, so a slip in either one shows up here.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest
from cli_run import CARDS, deckpress

from generator.deck import load_deck


@pytest.fixture(scope="module")
def cereal():
    return load_deck(CARDS / "cereal-killer")


@pytest.fixture(scope="module")
def goblins():
    return load_deck(CARDS / "goblins")


@pytest.fixture(scope="module")
def gold_rush():
    return load_deck(CARDS / "gold-rush")


@pytest.fixture(scope="module")
def tiki():
    return load_deck(CARDS / "tiki")


def copies_by(deck, **wanted) -> int:
    """Physical cards whose front fields hold all the wanted values."""
    return sum(card.count for card in deck.cards
               if all(card.fields.get(name) == value for name, value in wanted.items()))


def test_every_bundled_deck_passes_its_own_rules():
    run = deckpress("check", CARDS)
    assert run.exit_code == 0, run.stdout + run.stderr
    passed = [line for line in run.stdout.splitlines() if line.startswith("ok")]
    for name in ("cereal-killer", "goblins", "gold-rush", "tiki"):
        assert any(f" {name}: " in line for line in passed)


# --- I Want To Be A Cereal Killer (seed 000) ------------------------------------------

CEREAL_MONSTERS = {  # 2d6 roll: (name, reward in dollars)
    2: ("Prince Kracula Krunch", 500),
    3: ("Rancid Fruit Freaks", 350),
    4: ("Haunted House Drearios", 200),
    5: ("Honey Nutso Wackos", 125),
    6: ("Raging Rude Rice Pops", 75),
    7: ("Frankenflakes", 50),
    8: ("Wolfman Wheatoriums", 75),
    9: ("Special Xtra Kreeps", 50),
    10: ("Whacked-Out Wheat Puffs", 200),
    11: ("Casket Crunchies", 350),
    12: ("Marauding Monsters of Mueslix", 500),
}


def test_cereal_killer_has_152_cards(cereal):
    assert cereal.total == 152


def test_cereal_monsters_nine_of_each_roll_with_seed_names_and_rewards(cereal):
    monsters = [card for card in cereal.cards if card.fields["type"] == "monster"]
    assert sum(card.count for card in monsters) == 99
    found = {card.fields["roll"]: (card.fields["name"], card.fields["reward"]) for card in monsters}
    assert found == CEREAL_MONSTERS
    assert {card.count for card in monsters} == {9}


@pytest.mark.parametrize("kind, name, count", [
    ("broken-shelf", "Broken Shelf", 7),
    ("shelf-repair", "Shelf Repair", 7),
    ("unbreakable-shelf", "Unbreakable Shelf", 3),
])
def test_cereal_shelf_cards(cereal, kind, name, count):
    assert copies_by(cereal, type=kind) == count
    assert {card.fields["name"] for card in cereal.cards if card.fields["type"] == kind} == {name}


def test_cereal_spilled_milk_four_of_each_trade(cereal):
    spills = [card for card in cereal.cards if card.fields["type"] == "spilled-milk"]
    trades = Counter()
    for card in spills:
        trades[(card.fields["mine"], card.fields["theirs"])] += card.count
    assert trades == {("most", "least"): 4, ("least", "least"): 4,
                      ("most", "most"): 4, ("least", "most"): 4}


def test_cereal_late_breakfast_free_rolls(cereal):
    rolls = Counter()
    for card in cereal.cards:
        if card.fields["type"] == "late-breakfast":
            rolls[card.fields["free_rolls"]] += card.count
    assert rolls == {1: 10, 2: 7, 3: 3}
    assert sum(rolls.values()) == 20


def test_cereal_shares_one_back(cereal):
    assert cereal.shared_back is not None
    assert all(card.back is None for card in cereal.cards)


# --- Goblins Drool, Fairies Rule! (seed 004) -------------------------------------------

RHYMING_GUIDE = {  # group: (four goblin names, four fairy names)
    "our": (["Dusty Dour", "Nappy Hour", "Needs a Shower", "Cringe and Cower"],
            ["Petal Flower", "Sweet and Sour", "Dewdrop Shower", "Pixie Power"]),
    "ock": (["Chicken Pock", "Cobweb Shock", "Cuckoo Clock", "Old Man Sock"],
            ["Candy Rock", "Poppy Smock", "Hickory Dock", "Goldie Lock"]),
    "oop": (["Gobble T. Goop", "Dastardly Droop", "Salamander Snoop", "Goblin Soup"],
            ["Lemon Loop", "Rainbow Swoop", "Hula Hoop", "Vanilla Scoop"]),
    "ew": (["Earwax Stew", "Spidery Glue", "Full Moon Moo", "O.P. You"],
           ["Baby Blue", "Willow Sue", "Morning Dew", "Penny Clue"]),
    "elly": (["Nervous Nelly", "Vermin Vermicelli", "He So Smelly", "Big Big Belly"],
             ["Kokopelli", "Snowflake Shelly", "Lucky O\u2019Kelly", "P.B. and Jelly"]),
}
OPPOSITE_SYMBOL = {"sun": "moon", "moon": "sun", "mushroom": "frog", "frog": "mushroom"}


def test_goblins_twenty_double_sided_cards(goblins):
    assert goblins.total == 20
    assert len(goblins.cards) == 20
    assert all(card.count == 1 and card.back is not None for card in goblins.cards)
    assert all(card.fields["side"] == "goblin" and card.back["side"] == "fairy"
               for card in goblins.cards)


def test_goblins_use_the_forty_names_of_the_rhyming_guide_once(goblins):
    goblin_names = Counter(card.fields["name"] for card in goblins.cards)
    fairy_names = Counter(card.back["name"] for card in goblins.cards)
    expected_goblins = {name for group in RHYMING_GUIDE.values() for name in group[0]}
    expected_fairies = {name for group in RHYMING_GUIDE.values() for name in group[1]}
    assert len(expected_goblins | expected_fairies) == 40
    assert set(goblin_names) == expected_goblins and set(goblin_names.values()) == {1}
    assert set(fairy_names) == expected_fairies and set(fairy_names.values()) == {1}


def test_goblins_each_name_sits_in_its_rhyme_group(goblins):
    for card in goblins.cards:
        goblin_group = card.fields["group"]
        fairy_group = card.back["group"]
        assert card.fields["name"] in RHYMING_GUIDE[goblin_group][0], card.id
        assert card.back["name"] in RHYMING_GUIDE[fairy_group][1], card.id


def test_goblins_every_ordered_pair_of_different_groups_once(goblins):
    pairs = [(card.fields["group"], card.back["group"]) for card in goblins.cards]
    assert sorted(pairs) == sorted(permutations(RHYMING_GUIDE, 2))


def test_goblins_sun_backs_moon_and_mushroom_backs_frog(goblins):
    for card in goblins.cards:
        assert card.back["symbol"] == OPPOSITE_SYMBOL[card.fields["symbol"]], card.id


def test_goblins_four_star_cards(goblins):
    stars = [card for card in goblins.cards if card.fields["star"]]
    assert len(stars) == 4
    assert all(card.back["star"] for card in stars)


@pytest.mark.parametrize("players, dealt", [(1, 12), (2, 12), (3, 16), (4, 20)])
def test_goblins_deal_for_each_player_count(goblins, players, dealt):
    """Seed deal: one Star goblin each, then 3 goblins each and 4 fairies (solo: 5 and 6)."""
    stars = sum(card.count for card in goblins.cards if card.fields["star"])
    others = goblins.total - stars
    more_goblins, fairies = (5, 6) if players == 1 else (3 * players, 4)
    assert stars >= players
    assert others >= more_goblins + fairies
    assert players + more_goblins + fairies == dealt
    if players == 4:
        assert dealt == goblins.total  # the four-player deal uses every card


# --- Gold Rush! (seed 001) -------------------------------------------------------------

TREASURE_SUMMONS = {
    "Burning Treasure": "dragon",
    "Cursed Treasure": "ghost",
    "Magical Treasure": "sorcerer",
    "Aquatic Treasure": "sea",
    "Holy Treasure": "angel",
    "Corrupted Treasure": "demon",
}


def test_gold_rush_monsters_of_all_six_types_with_costs(gold_rush):
    monsters = [card for card in gold_rush.cards if card.fields["type"] == "monster"]
    assert {card.fields["monster_type"] for card in monsters} == set(TREASURE_SUMMONS.values())
    for card in monsters:
        assert isinstance(card.fields.get("cost"), int) and card.fields["cost"] >= 1, card.id
        assert card.fields.get("text"), card.id


def test_gold_rush_six_treasures_each_summoning_its_own_type(gold_rush):
    treasures = [card for card in gold_rush.cards if card.fields["type"] == "treasure"]
    assert {card.fields["treasure"] for card in treasures} == set(TREASURE_SUMMONS)
    for card in treasures:
        assert card.fields["summons"] == TREASURE_SUMMONS[card.fields["treasure"]], card.id


def test_gold_rush_has_runes_with_effects(gold_rush):
    runes = [card for card in gold_rush.cards if card.fields["type"] == "rune"]
    assert len(runes) >= 6
    assert all(card.fields.get("text") for card in runes)


def test_gold_rush_has_two_starter_decklists(gold_rush):
    assert len(gold_rush.decklists) == 2


@pytest.mark.parametrize("index", [0, 1])
def test_gold_rush_decklist_obeys_construction_rules(gold_rush, index):
    decklist = gold_rush.decklists[index]
    cards = {card_id: (gold_rush.card(card_id), n) for card_id, n in decklist.counts.items() if n}
    size = sum(n for _, n in cards.values())
    assert 40 <= size <= 50
    assert sum(n for card, n in cards.values() if card.fields["type"] == "treasure") <= 15
    assert max(n for _, n in cards.values()) <= 3
    monster_types = {card.fields["monster_type"] for card, _ in cards.values()
                     if card.fields["type"] == "monster"}
    summonable = {TREASURE_SUMMONS[card.fields["treasure"]] for card, _ in cards.values()
                  if card.fields["type"] == "treasure"}
    assert monster_types and monster_types <= summonable


def test_gold_rush_starters_cover_all_six_types(gold_rush):
    types = {gold_rush.card(card_id).fields.get("monster_type")
             for decklist in gold_rush.decklists for card_id in decklist.counts}
    assert set(TREASURE_SUMMONS.values()) <= types


def test_gold_rush_one_printed_pool_builds_both_starters(gold_rush):
    needed = Counter()
    for decklist in gold_rush.decklists:
        needed.update(decklist.counts)
    for card_id, n in needed.items():
        assert gold_rush.card(card_id).count >= n, card_id


def test_gold_rush_breaking_a_construction_rule_is_reported(tmp_path):
    """A starter with a fourth copy of a card fails `check` on that decklist."""
    text = (CARDS / "gold-rush" / "deck.yaml").read_text(encoding="utf-8")
    broken = text.replace("      cinder-whelp: 3\n", "      cinder-whelp: 4\n", 1)
    assert broken != text
    folder = tmp_path / "cards" / "gold-rush"  # beside the project's layouts, as check lays out faces
    folder.mkdir(parents=True)
    (tmp_path / "layouts").symlink_to(CARDS.parent / "layouts")
    (folder / "deck.yaml").write_text(broken, encoding="utf-8")
    run = deckpress("check", folder)
    assert run.exit_code == 1, run.stdout + run.stderr
    assert "decklist 'fire-and-flood'" in run.stdout
    assert "at most 3 copies" in run.stdout and "cinder-whelp x4" in run.stdout


# --- Tiki (seed 003) -------------------------------------------------------------------

def test_tiki_card_and_forty_card_deck(tiki):
    tiki_cards = [card for card in tiki.cards if card.fields["type"] == "tiki"]
    deck = [card for card in tiki.cards if card.fields["type"] != "tiki"]
    assert sum(card.count for card in tiki_cards) == 1
    assert sum(card.count for card in deck) == 40
    assert tiki.total == 41


def test_tiki_every_card_has_kind_strength_and_burn(tiki):
    for card in tiki.cards:
        if card.fields["type"] == "tiki":
            continue
        for name in ("value", "colour", "strength", "burn"):
            assert card.fields.get(name) is not None, f"{card.id} lacks {name}"


def test_tiki_has_wild_zero_value_cards(tiki):
    wilds = [card for card in tiki.cards if card.fields.get("value") == 0]
    assert len(wilds) >= 2


def test_tiki_some_cards_carry_burn_and_in_play_effects(tiki):
    assert any(card.fields.get("burn_effect") for card in tiki.cards)
    assert any(card.fields.get("play_effect") for card in tiki.cards)


def test_tiki_keeps_the_seed_example_card(tiki):
    """The seed's example: FairyCrushers show 3 red dots."""
    crushers = [card for card in tiki.cards if card.fields["name"] == "FairyCrushers"]
    assert len(crushers) == 1
    assert (crushers[0].fields["value"], crushers[0].fields["colour"]) == (3, "red")


def test_tiki_deck_holds_enough_strength_to_win(tiki):
    strength = sum(card.fields["strength"] * card.count for card in tiki.cards
                   if card.fields["type"] != "tiki")
    assert strength >= 10
