"""Dice odds are exact (checked by enumerating every roll) and rewards are lined up against them."""

from collections import Counter
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from cli_run import deckpress

from generator.deck import load_deck
from generator.stats.analysis import analyse
from generator.stats.dice import parse_dice

ROOT = Path(__file__).resolve().parents[1]


def enumerate_rolls(*sides: int, constant: int = 0) -> dict[int, Fraction]:
    """Every outcome of the dice, one by one."""
    outcomes = list(product(*(range(1, s + 1) for s in sides)))
    totals = Counter(sum(faces) + constant for faces in outcomes)
    return {total: Fraction(n, len(outcomes)) for total, n in sorted(totals.items())}


@pytest.mark.parametrize("text, sides, constant", [
    ("2d6", (6, 6), 0),
    ("d20", (20,), 0),
    ("3d6+2", (6, 6, 6), 2),
    ("1d6 + 1d4 - 1", (6, 4), -1),
    ("4D3", (3, 3, 3, 3), 0),
])
def test_distribution_matches_enumeration(text, sides, constant):
    assert parse_dice(text).distribution() == enumerate_rolls(*sides, constant=constant)


def test_two_d6_is_the_familiar_triangle():
    chances = parse_dice("2d6").distribution()
    assert chances[7] == Fraction(6, 36) and chances[2] == chances[12] == Fraction(1, 36)
    assert sum(chances.values()) == 1


@pytest.mark.parametrize("text", ["", "2x6", "d", "2d1", "0d6", "2d6+", "6", "21d6", "d6 d6"])
def test_unreadable_dice_are_refused(text):
    with pytest.raises(ValueError):
        parse_dice(text)


def test_cereal_killer_rewards_against_2d6_odds():
    stats = analyse(load_deck(ROOT / "cards" / "cereal-killer"))
    report = stats.dice
    rows = {row.roll: row for row in report.rows}
    assert sorted(rows) == list(range(2, 13))
    expected = enumerate_rolls(6, 6)
    for roll, row in rows.items():
        assert row.chance == expected[roll]
        assert row.cards == 9
    assert rows[2].reward == rows[12].reward == 500
    assert rows[7].payout == pytest.approx(50 * 6 / 36)
    # Equal payout per roll: even_reward x chance is the same for every roll.
    payouts = {round(row.even_reward * float(row.chance), 9) for row in report.rows}
    assert len(payouts) == 1
    # 9 is as hard as 5 and harder than 6 and 8, but pays only $50.
    assert report.tracks_difficulty is False
    pairs = {(m.harder.roll, m.easier.roll) for m in report.mismatches}
    assert pairs == {(9, 5), (9, 6), (9, 8)}


def test_rewards_that_rise_with_difficulty_track_it(tmp_path):
    path = tmp_path / "deck.yaml"
    cards = "\n".join(f"  - {{id: r{roll}, name: R{roll}, roll: {roll}, reward: {100 // (6 - abs(7 - roll))}}}"
                      for roll in range(2, 13))
    path.write_text("deck: {name: Rolls}\ncards:\n" + cards
                    + "\nstats:\n  dice: {field: roll, dice: 2d6, value: reward}\n")
    report = analyse(load_deck(path)).dice
    assert report.tracks_difficulty is True
    assert report.mismatches == ()
    assert report.rank_correlation == pytest.approx(1.0)


def test_a_roll_the_dice_cannot_show_is_reported(tmp_path):
    path = tmp_path / "deck.yaml"
    path.write_text("deck: {name: Rolls}\ncards:\n  - {id: a, name: A, roll: 1}\n  - {id: b, name: B, roll: 7}\n"
                    "stats:\n  dice: {field: roll, dice: 2d6}\n")
    report = analyse(load_deck(path)).dice
    assert [row.roll for row in report.rows] == [7]
    assert report.unreachable == ((1, ("a",)),)


@pytest.mark.parametrize("files", [
    {"cards.csv": "id,name,roll,reward,qty\nimp,Imp,7,3,2\nogre,Ogre,9,1,2\n",
     "deck.yaml": "deck: {name: Sheet Dice, players: 2}\ncards: {from: cards.csv}\n"
                  "stats: {dice: {field: roll, dice: 2d6, value: reward}}\n"},
    {"deck.yaml": "deck: {name: Sheet Dice, players: 2}\nfields: {name: text, roll: text, reward: text}\ncards:\n"
                  "  - {id: imp, name: Imp, roll: '7', reward: '3', count: 2}\n"
                  "  - {id: ogre, name: Ogre, roll: ' 9', reward: '1.0', count: 2}\n"
                  "stats: {dice: {field: roll, dice: 2d6, value: reward}}\n"},
], ids=["spreadsheet without fields", "text fields"])
def test_rolls_and_rewards_written_as_text_get_their_odds(tmp_path, files):
    """A spreadsheet's cells are text unless the deck types them, so a roll of 7 there is
    the text '7': stats reads it as the roll it names, not as a roll 2d6 can never show."""
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    stats = deckpress("stats", tmp_path, "--quiet")
    assert stats.exit_code == 0, stats.stderr
    assert "can never roll" not in stats.stdout + stats.stderr
    table = stats.stdout.split("\nDice:", 1)[1].splitlines()[2:4]  # below the title and the header
    assert [line.split()[:5] for line in table] == [["7", "6/36", "6.0", "2", "3"], ["9", "4/36", "9.0", "2", "1"]]
    assert "9 (4/36) pays 1, less than the easier 7 (6/36) at 3" in stats.stdout


def test_a_reward_no_chart_can_draw_is_refused_by_check_and_stats_at_its_card(tmp_path):
    """A reward near the float maximum once passed check and crashed stats --report inside
    the chart library; it is one line at the card, exit 2, from check and stats alike."""
    path = tmp_path / "deck.yaml"
    path.write_text("deck: {name: Big, players: 2}\nfields: {name: text, roll: int, reward: number}\ncards:\n"
                    "  - {id: imp, name: Imp, roll: 7, reward: 1.7e+308}\n"
                    "  - {id: ogre, name: Ogre, roll: 9, reward: 1}\n"
                    "stats: {dice: {field: roll, dice: 2d6, value: reward}}\n")
    line = (f"error: {path}:4:5: card 'imp': a dice reward is at most 1,000,000,000,000,000 either way, "
            "found 1.7e+308 (reward)")
    check = deckpress("check", path)
    assert check.exit_code == 2 and line in check.error_lines, check.stdout + check.stderr
    report = tmp_path / "report"
    stats = deckpress("stats", path, "--quiet", "--report", report)
    assert (stats.exit_code, stats.error_lines) == (2, [line])
    assert not list(tmp_path.glob("report*"))
