"""``check`` finds what ``booklet`` would refuse in a rules file, without making the booklet.

The promise is "if check passes, booklet does not refuse the deck": each broken rules
file below is refused by both, and check names the same file, line, column and problem.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import reportlab
from cli_run import deckpress
from hostile_support import new_deck
from reportlab.pdfbase.ttfonts import TTFont
from test_booklet import DECK, WIDE_TABLE, WORDY_TABLE, make_deck

from generator.verdict.booklet import ASCII_WIDTHS

LONG_TEXT = " ".join(f"word{number}" for number in range(2500))
"""A cell or quote of 2,500 words: taller than a page however wide it is."""


def refusals(tmp_path, rules: str):
    folder = make_deck(tmp_path, rules)
    booklet = deckpress("booklet", folder, "--out", tmp_path / "out", "--quiet")
    check = deckpress("check", folder)
    return folder, booklet, check


@pytest.mark.parametrize("rules", [
    "# Rules\n\nIntro.\n\n{{ componants }}\n",
    "Text\nwith {{ count colour=red }} in it.\n",
    "{{ value nobody power }}\n",
    "{{ cards side=top }}\n",
    "{{ cards width=400mm }}\n",
    "{{ cards kind=Dragon }}\n",
    "A sentence then {{ components }} mid-line.\n",
    "{{ components by=kind Troll=\"Trolls\" }}\n",
    "{{ components by=colour }}\n",
    "Unclosed {{ count kind=\"Fairy }}\n",
    "Chinese \u6f22 is in no booklet font.\n",
    "- a list\n- with a \u6f22 character\n",
    "> An example with {{ kinds kind=Troll }} in it.\n",
    "{{ decklists }}\n",
    "# Cards\n\n{{ cardtable columns= }}\n",
    "{{ cardtable columns=name,power headers=Name }}\n",
    "{{ cardtable columns=name sort=colour }}\n",
    "{{ cardtable columns=name format=power:x{} }}\n",
    "{{ cardtable power=99 columns=name }}\n",
    "{{ cards power=99 }}\n",
    "{{ cardtable columns=" + ",".join(["name"] * 40) + " }}\n",
    WIDE_TABLE,
    WORDY_TABLE,
    "> " + WORDY_TABLE.replace("\n", "\n> "),
    "| a | b | c |\n|---|---|---|\n| Pneumonoultramicroscopic | Incomprehensibilities | "
    "Antidisestablishmentarianism |\n| x | y | Überextraordinarily |\n",
    "> | " + " | ".join(f"c{n}" for n in range(18)) + " |\n> |" + "---|" * 18 + "\n",
    # fourteen empty columns, each made as wide as the narrowest column, beside one long word
    "| " + "W" * 21 + " |" + " |" * 14 + "\n|" + "---|" * 15 + "\n| x |" + " |" * 14 + "\n",
    "# Art\n\nSome text.\n\n![goblin](art/missing.png)\n",
    "Icon ![x](../secret.png) inline.\n",
    "{{ pagebreak }} {{ pagebreak }}\n",
    "# Rules\n\n| a | b |\n|---|---|\n| x | y |\n| " + LONG_TEXT + " | z |\n",
    "| a |\n|---|\n| x |\n| &#28450; by its number |\n",
    "# Rules\n\n> " + LONG_TEXT + "\n",
    "# Rules\n\n> An example.\n>\n> " + "\n> ".join([LONG_TEXT[:1200]] * 4) + "\n",
])
def test_check_refuses_what_booklet_refuses_at_the_same_place(tmp_path, rules):
    folder, booklet, check = refusals(tmp_path, rules)
    assert booklet.exit_code == 2, booklet.stdout + booklet.stderr
    [refusal] = booklet.error_lines
    assert check.exit_code == 2, check.stdout + check.stderr
    assert refusal in check.error_lines, check.stderr
    assert f"{folder / 'rules.md'}:" in refusal


def test_a_row_of_cards_taller_than_a_page_is_refused_at_the_directive(tmp_path):
    from hostile_support import new_deck

    folder = new_deck(tmp_path, "space")
    layout = folder / "layout.yaml"
    layout.write_text(layout.read_text().replace("size: poker", "size: [40mm, 120mm]", 1))
    (folder / "rules.md").write_text("# T\n\nA tall card.\n\n> {{ cards width=100mm }}\n\n{{ cards width=100mm }}\n")
    booklet = deckpress("booklet", folder, "--out", tmp_path / "out", "--quiet")
    check = deckpress("check", folder)
    assert booklet.exit_code == 2
    [refusal] = booklet.error_lines
    assert f"{folder / 'rules.md'}:5:3: a row of cards is taller than a page (870 pt" in refusal
    assert check.exit_code == 2
    assert check.error_lines == [refusal, refusal.replace(":5:3:", ":7:1:")]  # every one, in one run
    assert not (tmp_path / "out").exists()


def test_a_card_reference_in_an_example_box_of_a_deck_whose_layout_is_broken(tmp_path):
    """Without card layouts no row of cards can be measured; check reports the layout, and no crash."""
    from hostile_support import new_deck

    folder = new_deck(tmp_path, "space")
    layout = folder / "layout.yaml"
    layout.write_text(layout.read_text().replace("size: poker", "size: [40mm", 1))
    (folder / "rules.md").write_text("# T\n\n> {{ cards }}\n")
    check = deckpress("check", folder)
    assert check.exit_code == 2
    [error] = check.error_lines
    assert f"{layout}:" in error and "YAML syntax error" in error


def test_booklet_reports_every_card_in_its_reference_that_does_not_fit(tmp_path):
    from hostile_support import new_deck

    folder = new_deck(tmp_path, "space")
    deck = folder / "deck.yaml"
    long = " ".join(["Enormous"] * 60)
    deck.write_text(deck.read_text().replace("name: Goblin,", f"name: Goblin {long},")
                    .replace("name: Troll,", f"name: Troll {long},"))
    booklet = deckpress("booklet", folder, "--out", tmp_path / "out", "--quiet")
    assert booklet.exit_code == 1
    assert [line.split("card ")[1].split(",")[0] for line in booklet.error_lines] == ["'goblin'", "'troll'"]
    assert all("does not fit" in line for line in booklet.error_lines)
    assert not (tmp_path / "out").exists()
    build = deckpress("build", folder, "--out", tmp_path / "out", "--quiet")
    assert set(booklet.error_lines) < set(build.error_lines)


def test_a_decklist_description_taller_than_a_page(tmp_path):
    deck_text = DECK + "decklists:\n  long: {name: Long, description: " + LONG_TEXT + ", cards: {grub: 1}}\n"
    folder = make_deck(tmp_path, "# Decks\n\n{{ decklists }}\n", deck_text)
    booklet = deckpress("booklet", folder, "--out", tmp_path / "out", "--quiet")
    check = deckpress("check", folder)
    assert booklet.exit_code == 2
    [refusal] = booklet.error_lines
    assert "row 2 of the table is taller than a page" in refusal
    assert check.exit_code == 2 and refusal in check.error_lines


def test_a_picture_that_is_not_one(tmp_path):
    folder = make_deck(tmp_path, "![art](art.png)\n")
    (folder / "art.png").write_bytes(b"not a picture at all")
    check = deckpress("check", folder)
    assert check.exit_code == 2
    [error] = check.error_lines
    assert error.startswith(f"error: {folder / 'rules.md'}:1:") and "is not a readable image" in error


def test_every_problem_of_a_rules_file_in_one_run(tmp_path):
    rules = ("# Rules\n\n{{ componants }}\n\nWith {{ count colour=red }} cards.\n\n"
             "{{ cardtable columns= }}\n\nA kanji: \u6f22 here.\n\n![x](missing.png)\n\n"
             "Mid {{ components }} line.\n")
    folder, booklet, check = refusals(tmp_path, rules)
    assert len(booklet.error_lines) == 1  # the booklet stops at the first
    rules_file = folder / "rules.md"
    assert [line.split(": ")[1] for line in check.error_lines] == [
        f"{rules_file}:3:1", f"{rules_file}:5:6", f"{rules_file}:7:1", f"{rules_file}:9:10",
        f"{rules_file}:11:6", f"{rules_file}:13:5"]
    assert check.stdout.startswith("FAIL  tiny: Tiny Test Game")


def test_a_sound_rules_file_passes_and_the_booklet_is_made(tmp_path):
    rules = ("# Rules\n\n{{ components by=kind }}\n\nThere are {{ count kind=Goblin }} goblins for "
             "{{ players }}.\n\n> An example: {{ value grub power }} power.\n\n"
             "{{ cardtable columns=count,name,power sort=-power }}\n")
    folder, booklet, check = refusals(tmp_path, rules)
    assert check.exit_code == 0, check.stdout + check.stderr
    assert booklet.exit_code == 0, booklet.stdout + booklet.stderr


def test_check_reads_a_directive_as_the_booklet_prints_it(tmp_path):
    """Each extra of a components list is its own line, so words do not run on across the ';':
    both refuse the 150-letter word for its column, not a word of 251 letters."""
    rules = "{{ components extra=\"" + "x" * 150 + ";" + "y" * 100 + "\" }}\n"
    folder, booklet, check = refusals(tmp_path, rules)
    assert booklet.exit_code == 2 and check.exit_code == 2, booklet.stderr + check.stderr
    assert booklet.error_lines == check.error_lines
    [refusal] = booklet.error_lines
    assert "column 2 of the table" in refusal and "'xxxx" in refusal and "251" not in refusal


def test_without_a_rules_file_there_is_nothing_to_check(tmp_path):
    folder = make_deck(tmp_path, "")
    (folder / "rules.md").unlink()
    assert deckpress("check", folder).exit_code == 0


@pytest.mark.parametrize("rules", [
    "# Rules\n\n{{ components by=colour }}\n\nSome text.\n\n{{ cards side=top }}\n\n{{ decklists }}\n",
    "# Rules\n\nText {{ count colour=red }}.\n\n{{ cardtable columns=name,power headers=Name }}\n",
    "# Rules\n\n{{ components }}\n\n{{ cardtable columns=count,name }}\n",
])
def test_rules_without_markdown_structure_skip_the_parse_and_find_the_same(tmp_path, monkeypatch, rules):
    from generator.deck import load_deck
    from generator.verdict import booklet

    deck = load_deck(make_deck(tmp_path, rules))
    bounds = booklet.text_bounds(booklet.DEFAULT_PAPER)
    assert booklet._plain(booklet.expand_inline(rules, booklet.rules_path(deck), deck, []),
                          lambda character: True, bounds)
    quick = booklet.booklet_findings(deck)
    monkeypatch.setattr(booklet, "_plain", lambda *arguments: False)
    assert booklet.booklet_findings(deck) == quick


@pytest.mark.parametrize("game", ["cereal-killer", "goblins", "gold-rush", "tiki"])
def test_bundled_rules_pass_either_way(monkeypatch, game):
    from cli_run import CARDS

    from generator.deck import load_deck
    from generator.verdict import booklet

    deck = load_deck(CARDS / game)
    assert booklet.booklet_findings(deck) == []
    monkeypatch.setattr(booklet, "_plain", lambda *arguments: False)
    assert booklet.booklet_findings(deck) == []


def test_plain_ascii_is_printable_without_asking_the_fonts():
    from generator.booklet.style import EXAMPLE_BOX_RULE, font_has_glyph, load_style, text_bounds
    from generator.verdict.booklet import _printable

    assert all(font_has_glyph(chr(code)) and _printable(chr(code)) for code in range(32, 127))
    for character in "\u00e9\u2192\u2603\U0001f600\x07":
        assert _printable(character) == font_has_glyph(character)
    style = load_style()
    for paper in style.papers:
        bounds = text_bounds(paper)
        assert bounds.width == style.papers[paper].page[0] - style.margins.inner - style.margins.outer
        assert bounds.box_inset == 2 * style.box_padding + EXAMPLE_BOX_RULE


FRENCH = """\
deck: {name: Petit jeu}
back: {name: Petit dos}
cards:
  grub: {name: Larve}
  pip: {name: Pépin}
  dew: {name: Rosée}
  nova: {name: Nova}
choices:
  kind: {Goblin: Gobelin, Fairy: Fée, Star: Étoile}
"""


def test_a_translated_card_table_with_the_field_names_as_headers_is_reported(tmp_path):
    folder = make_deck(tmp_path, "# Rules\n")
    (folder / "lang").mkdir()
    (folder / "lang" / "fr.yaml").write_text(FRENCH)
    (folder / "rules.fr.md").write_text("# Règles\n\n{{ cardtable columns=name,kind,power }}\n\n"
                                        "{{ cardtable columns=count,name headers=\"Cartes,Nom\" }}\n\n"
                                        "{{ cardtable columns=count }}\n")
    check = deckpress("check", folder, "--lang", "fr")
    assert check.exit_code == 1, check.stdout + check.stderr
    [finding] = [line for line in check.stdout.splitlines() if "rules.fr.md" in line]
    assert finding.startswith(f"{folder / 'rules.fr.md'}:3:1: ")
    assert "field names (Name, Kind, Power) untranslated" in finding and "headers=" in finding
    assert deckpress("check", folder).exit_code == 0


def test_check_s_table_of_character_widths_is_true_of_the_booklet_s_fonts():
    """check estimates a table word's width from ASCII_WIDTHS instead of reading the fonts; the
    estimate must never fall short of the widest face, and must stay close, or every table is
    measured the slow way."""
    folder = Path(reportlab.__file__).parent / "fonts"
    faces = [TTFont(f"Width{index}", str(folder / name))
             for index, name in enumerate(("Vera.ttf", "VeraBd.ttf", "VeraIt.ttf", "VeraBI.ttf"))]
    for code in range(32, 127):
        widest = max(face.stringWidth(chr(code), 1) for face in faces)
        assert widest <= ASCII_WIDTHS[code - 32] < widest + 0.011, chr(code)


FACTION_DECK = {
    "  text: text\n": "  text: text\n  faction: {choices: [\u7ea2, blue]}\n",
    "name: Knight,": "name: Knight, faction: \u7ea2,",
}
"""A choice field whose value 红 no booklet font has; the starter layout does not print it, so
the cards pass, and the booklet prints it wherever a directive shows the field."""


def faction_deck(tmp_path: Path, rules: str) -> Path:
    folder = new_deck(tmp_path, "space")
    deck = folder / "deck.yaml"
    text = deck.read_text(encoding="utf-8")
    for old, new in FACTION_DECK.items():
        text = text.replace(old, new, 1)
    deck.write_text(text + "decklists:\n  duel: {name: Duel, cards: {knight: 2, goblin: 3}}\n", encoding="utf-8")
    (folder / "rules.md").write_text(rules, encoding="utf-8")
    return folder


@pytest.mark.parametrize("rules, character", [
    # the components table's groups, and the cover's "In the box" (4 红 cards)
    ("# A\n\n{{ components by=faction }}\n", "\u7ea2"),
    ("# A\n\n{{ decklists by=faction }}\n", "\u7ea2"),  # a column's header
    ("# A\n\n{{ components by=type hero=\"\u82f1\u96c4 cards\" }}\n", "\u82f1"),  # a group renamed
    ("# A\n\n{{ cardtable columns=name,power headers=\"Name,\u529b\" }}\n", "\u529b"),
])
def test_a_text_a_block_directive_prints_that_no_booklet_font_has_is_refused_by_both(tmp_path, rules, character):
    """A choice value, a renamed group, a header: the booklet printed an empty box in their place
    (on the cover too) where a card table's cells were refused."""
    folder = faction_deck(tmp_path, rules)
    booklet = deckpress("booklet", folder, "--out", tmp_path / "out", "--quiet")
    check = deckpress("check", folder)
    assert booklet.exit_code == 2, booklet.stdout + booklet.stderr
    [refusal] = booklet.error_lines
    assert refusal.startswith(f"error: {folder / 'rules.md'}:3:") and f"no booklet font has '{character}'" in refusal
    assert check.exit_code == 2 and refusal in check.error_lines, check.stdout + check.stderr
    assert not (tmp_path / "out").exists()


def test_a_caption_no_booklet_font_prints_is_refused_by_both(tmp_path):
    """The cards may print a title in a font of the deck's choosing (DejaVu Serif has the
    arrowhead \u02ef); the caption under its picture is set in the booklet's fonts, which lack it."""
    folder = faction_deck(tmp_path, "# A\n\n{{ cards type=hero }}\n")
    layout = folder / "layout.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace("DejaVuSans", "DejaVuSerif"), encoding="utf-8")
    deck = folder / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("name: Knight,", "name: Knight \u02ef,"),
                    encoding="utf-8")
    booklet = deckpress("booklet", folder, "--out", tmp_path / "out", "--quiet")
    check = deckpress("check", folder)
    assert booklet.exit_code == 2, booklet.stdout + booklet.stderr
    [refusal] = booklet.error_lines
    assert refusal.startswith(f"error: {folder / 'rules.md'}:3:") and "no booklet font has '\u02ef'" in refusal
    assert check.exit_code == 2 and check.error_lines == [refusal], check.stdout + check.stderr
