"""A broken or hostile rules.md ends the booklet with one error line at its line, at once,
and writes neither PDF."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import broken_pngs, deckpress, new_deck, png_declaring, refused, within

from generator.booklet import MAX_RULES_BYTES
from generator.booklet.limits import MAX_HEADING_LENGTH, MAX_TABLE_ROWS, MAX_WORD_LENGTH
from generator.render.images import MAX_IMAGE_PIXELS


def booklet(tmp_path: Path, rules: str, files: dict[str, Path] | None = None):
    deck = new_deck(tmp_path)
    (deck / "rules.md").write_text(rules, encoding="utf-8")
    for name, source in (files or {}).items():
        (deck / name).write_bytes(source.read_bytes())
    out = tmp_path / "out"
    with within():
        run = deckpress("booklet", deck, "--out", out, "--quiet")
    return deck, out, run


def line(number: int) -> str:
    return f"rules.md:{number}:"


@pytest.mark.parametrize("name, rules, where, message", [
    ("a long word in a table cell", "# Rules\n\n| a | b |\n|---|---|\n| " + "x" * 20_000 + " | y |\n",
     line(5), "a word of 20,000 characters"),
    ("a long heading", "# " + "h" * 20_000 + "\n\ntext\n", line(1), "a heading of 20,000 characters"),
    ("a 60,000-character word", "# Rules\n\n" + "w" * 60_000 + "\n", line(3),
     "a word of 60,000 characters"),
    ("a long word in a list", "# Rules\n\n- one\n- " + "y" * (MAX_WORD_LENGTH + 1) + "\n", line(4),
     f"words are at most {MAX_WORD_LENGTH} characters"),
    ("a long word in code", "# Rules\n\n```\n" + "z" * 5000 + "\n```\n", line(4), "a word of 5,000"),
    ("a table row taller than a page", "# Rules\n\n| a |\n|---|\n| ok |\n| " + "word " * 3000 + "|\n",
     line(6), "row 3 of the table is taller than a page"),
    ("an example box taller than a page", "# Rules\n\n> " + "word " * 9000 + "\n", line(3),
     "the example box is taller than a page"),
])
def test_oversized_text_is_refused_at_its_line(tmp_path, name, rules, where, message):
    deck, out, run = booklet(tmp_path, rules)
    error = refused(run, (2,), message)
    assert f"{deck / 'rules.md'}:" in error and where in error
    assert not out.exists()


def test_text_just_within_the_limits_makes_a_booklet(tmp_path):
    rules = ("# " + "Long heading " * (MAX_HEADING_LENGTH // 13) + "\n\n"
             "x" * MAX_WORD_LENGTH + "\n\n| a | b |\n|---|---|\n| x | y |\n\n"  # no table cell holds such a word
             "> " + "word " * 300 + "\n")
    _, out, run = booklet(tmp_path, rules)
    assert run.exit_code == 0, run.stderr
    assert sorted(path.name for path in out.iterdir()) == ["demo-rules-booklet.pdf", "demo-rules.pdf"]


def test_a_rules_file_over_the_size_limit_is_refused(tmp_path):
    deck, out, run = booklet(tmp_path, "# Rules\n\n" + "word " * (MAX_RULES_BYTES // 5 + 10))
    refused(run, (2,), str(deck / "rules.md"), f"the limit is {MAX_RULES_BYTES:,}")
    assert not out.exists()


@pytest.mark.parametrize("kind", ["truncated", "damaged", "not a picture"])
@pytest.mark.parametrize("placement, where", [("block", 5), ("inline", 7)])
def test_a_broken_picture_is_named_with_its_line(tmp_path, kind, placement, where):
    picture = broken_pngs(tmp_path / "pictures")[kind]
    rules = "# Rules\n\nSome text.\n\n"
    rules += "![art](pic.png)\n" if placement == "block" else "Plain text.\n\nAn icon ![i](pic.png) here.\n"
    deck, out, run = booklet(tmp_path, rules, {"pic.png": picture})
    error = refused(run, (2,), "image 'pic.png'", "not a readable image" if kind != "not a picture"
                    else "not a format deckpress reads")
    assert f"{deck / 'rules.md'}:{where}:" in error
    assert "ImageReader" not in run.stderr and not out.exists()


@pytest.mark.parametrize("side", [13_000, 30_000])
def test_a_picture_with_too_many_pixels_is_refused_before_it_is_decoded(tmp_path, side):
    bomb = png_declaring(tmp_path / "bomb.png", side, side)
    deck, out, run = booklet(tmp_path, "# Rules\n\n![big](pic.png)\n", {"pic.png": bomb})
    error = refused(run, (2,), "image 'pic.png'", f"more than the {MAX_IMAGE_PIXELS // 1_000_000} megapixels")
    assert f"{deck / 'rules.md'}:3:" in error
    assert "warn" not in run.stderr.lower() and not out.exists()


@pytest.mark.parametrize("rules, message", [
    ("# Rules\n\n| a | b |\n|---|---|\n| " + "x" * 20_000 + " | y |\n", "a word of 20,000 characters"),
    ("# " + "h" * 20_000 + "\n\ntext\n", "a heading of 20,000 characters"),
    ("# Rules\n\n![big](pic.png)\n", "more than the"),
])
def test_check_refuses_what_the_booklet_would(tmp_path, rules, message):
    deck = new_deck(tmp_path)
    (deck / "rules.md").write_text(rules, encoding="utf-8")
    png_declaring(deck / "pic.png", 30_000, 30_000)
    with within():
        error = refused(deckpress("check", deck), (2,), message)
    assert f"{deck / 'rules.md'}:" in error


def table(rows: int) -> str:
    rows_text = "".join(f"| {n} | p{n} |\n" for n in range(rows))
    return "# Rules\n\nThe turn order.\n\n| turn | who |\n|---|---|\n" + rows_text


def test_a_table_of_thousands_of_rows_ends_at_once_in_booklet_and_check(tmp_path):
    deck, out, run = booklet(tmp_path, table(3000))  # laid out, it took 28 s
    error = refused(run, (2,), f"a table of 3,000 rows; a booklet table has at most {MAX_TABLE_ROWS}")
    assert f"{deck / 'rules.md'}:5:" in error and not out.exists()
    with within():
        refused(deckpress("check", deck), (2,), f"{deck / 'rules.md'}:5:", "a table of 3,000 rows")


def test_a_table_at_the_row_limit_makes_a_booklet(tmp_path):
    _, out, run = booklet(tmp_path, table(MAX_TABLE_ROWS))
    assert run.exit_code == 0, run.stderr
    assert (out / "demo-rules.pdf").exists()


def test_a_card_table_of_too_many_cards_is_refused_by_check_and_booklet(tmp_path):
    deck = new_deck(tmp_path)
    text = (deck / "deck.yaml").read_text().split("\ncards:")[0]
    cards = "".join(f"  - {{id: knight-{n}, count: 1, type: hero, name: Knight {n}, power: 3}}\n"
                    for n in range(MAX_TABLE_ROWS + 1))
    (deck / "deck.yaml").write_text(text + "\ncards:\n" + cards)
    (deck / "rules.md").write_text("# Rules\n\nEvery card:\n\n{{ cardtable columns=name,power }}\n")
    for command in (("check", deck), ("booklet", deck, "--out", tmp_path / "out", "--quiet")):
        with within(60):
            error = refused(deckpress(*command), (2,), f"a table of {MAX_TABLE_ROWS + 1} rows")
        assert f"{deck / 'rules.md'}:5:" in error
    assert not (tmp_path / "out").exists()


def deck_of_distinct_cards(tmp_path, count: int, rules: str):
    deck = new_deck(tmp_path)
    text = (deck / "deck.yaml").read_text().split("\ncards:")[0]
    cards = "".join(f"  - {{id: knight-{n}, count: 1, type: hero, name: Knight {n}, power: 3}}\n"
                    for n in range(count))
    (deck / "deck.yaml").write_text(text + "\ncards:\n" + cards)
    (deck / "rules.md").write_text(rules)
    return deck


def test_a_components_table_over_the_row_limit_is_refused_at_its_line_by_check_and_booklet(tmp_path):
    # a row a name, and the total: one row too many
    deck = deck_of_distinct_cards(tmp_path, MAX_TABLE_ROWS, "# Rules\n\n{{ components by=name }}\n")
    for command in (("check", deck), ("booklet", deck, "--out", tmp_path / "out", "--quiet")):
        with within(60):
            error = refused(deckpress(*command), (2,), f"a table of {MAX_TABLE_ROWS + 1} rows")
        assert f"{deck / 'rules.md'}:3:1:" in error
    assert not (tmp_path / "out").exists()


def test_a_components_table_at_the_row_limit_passes_check_and_makes_a_booklet(tmp_path):
    deck = deck_of_distinct_cards(tmp_path, MAX_TABLE_ROWS - 2,
                                  "# Rules\n\n{{ components by=name extra=\"A pencil\" }}\n")
    with within(60):
        assert deckpress("check", deck).exit_code == 0
        run = deckpress("booklet", deck, "--out", tmp_path / "out", "--quiet")
    assert run.exit_code == 0, run.stderr
    assert (tmp_path / "out" / "demo-rules.pdf").exists()


def test_a_rules_md_that_is_a_folder_is_refused_as_one(tmp_path):
    deck = new_deck(tmp_path)
    (deck / "rules.md").unlink()
    (deck / "rules.md").mkdir()
    out = tmp_path / "out"
    with within():
        run = deckpress("booklet", deck, "--out", out, "--quiet")
    assert refused(run, (2,), "is a folder") == f"error: {deck / 'rules.md'}: is a folder, not a file that can be read"
    assert not out.exists()
