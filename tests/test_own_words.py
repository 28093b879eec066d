"""The bundled games' booklets, card texts and translations are in our own words:
no run of 8 words repeats the seed drafts, ignoring case and punctuation."""

from pathlib import Path

import own_words
import pytest
from own_words import WINDOW, draft_fingerprints, fingerprint_file_text, our_texts, read_fingerprints, repeats

SEEDS = own_words.find_seeds()
needs_seeds = pytest.mark.skipif(SEEDS is None, reason="the seed drafts are not on this machine")

MADE_UP_DRAFT = """\
THE GAME. Shuffle the deck; then each player draws five cards, face down!
On your turn you may trade one card with the player on your left.
"""


def test_no_text_of_ours_repeats_a_draft():
    prints = read_fingerprints()
    found = [r.describe() for path in our_texts() for r in repeats(path, prints)]
    assert found == []


def test_every_game_text_is_checked():
    checked = {path.relative_to(own_words.ROOT).as_posix() for path in our_texts()}
    for game in ("cereal-killer", "gold-rush", "tiki", "goblins"):
        assert {f"cards/{game}/rules.md", f"cards/{game}/deck.yaml"} <= checked
    translations = {p.relative_to(own_words.ROOT).as_posix() for p in own_words.ROOT.glob("cards/*/lang/*.yaml")}
    translations |= {p.relative_to(own_words.ROOT).as_posix() for p in own_words.ROOT.glob("cards/*/rules.*.md")}
    assert translations <= checked


def test_fingerprint_file_holds_hashes_only():
    text = own_words.FINGERPRINTS.read_text(encoding="utf-8")
    prints = read_fingerprints()
    assert len(prints) > 1000  # four drafts of several pages each
    assert all(len(p) == own_words.HASH_CHARS and set(p) <= set("0123456789abcdef") for p in prints)
    assert text == fingerprint_file_text(prints)  # sorted, one a line, nothing else


@needs_seeds
def test_fingerprint_file_is_up_to_date_with_the_drafts():
    assert read_fingerprints() == draft_fingerprints(SEEDS), "run: python tests/own_words.py"


def made_up_seeds(tmp_path: Path) -> set[str]:
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "000_game.txt").write_text(MADE_UP_DRAFT, encoding="utf-8")
    (seeds / "README.md").write_text("Not a draft: shuffle the deck then each player draws five cards.")
    return draft_fingerprints(seeds)


def test_a_copied_run_is_caught_whatever_its_case_and_punctuation(tmp_path):
    prints = made_up_seeds(tmp_path)
    booklet = tmp_path / "rules.md"
    booklet.write_text("# Setup\n\nFirst, *shuffle* the deck. Then each Player draws\nfive cards ({{ count }}), "
                       "face-down.\n", encoding="utf-8")
    [repeat] = repeats(booklet, prints)
    assert repeat.line == 3
    assert repeat.words == "shuffle the deck then each player draws five cards face down"
    assert repeat.describe() == f"{booklet}:3: repeats a draft: '{repeat.words}'"


def test_apostrophes_and_curly_quotes_read_alike(tmp_path):
    prints = made_up_seeds(tmp_path)
    cards = tmp_path / "deck.yaml"
    cards.write_text("text: \"you may trade one card with the player on your left\"\n", encoding="utf-8")
    assert [r.words for r in repeats(cards, prints)] == ["you may trade one card with the player on your left"]


def test_seven_words_in_a_row_are_our_own(tmp_path):
    prints = made_up_seeds(tmp_path)
    short = tmp_path / "rules.md"
    short.write_text("Now shuffle the deck; then each player draws a hand.\n", encoding="utf-8")
    assert len("shuffle the deck then each player draws".split()) == WINDOW - 1
    assert repeats(short, prints) == []


def test_the_readme_beside_the_drafts_is_not_a_draft(tmp_path):
    prints = made_up_seeds(tmp_path)
    note = tmp_path / "rules.md"
    note.write_text("Not a draft: shuffle the deck then each player draws five cards.", encoding="utf-8")
    # Only the draft's own run counts; the README's wording around it adds nothing.
    assert [r.words for r in repeats(note, prints)] == ["shuffle the deck then each player draws five cards"]


@needs_seeds
def test_a_draft_sentence_pasted_into_a_booklet_is_caught(tmp_path):
    """The real fingerprints catch a sentence of each draft pasted into a real booklet."""
    prints = read_fingerprints()
    for draft in sorted(SEEDS.glob("*.txt")):
        lines = [line for line in draft.read_text(encoding="utf-8").splitlines() if len(line.split()) >= 12]
        pasted = lines[len(lines) // 2].upper()
        booklet = tmp_path / f"{draft.stem}.md"
        original = (own_words.ROOT / "cards" / "tiki" / "rules.md").read_text(encoding="utf-8")
        booklet.write_text(original + "\n" + pasted + "\n", encoding="utf-8")
        found = repeats(booklet, prints)
        assert [r.line for r in found] == [original.count("\n") + 2], draft.name
