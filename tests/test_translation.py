"""Translated decks: ``lang/<code>.yaml`` read back from the PDFs, manifests and errors a user sees."""

from __future__ import annotations

import json
from pathlib import Path

import pdfplumber
import pytest
from cli_run import CARDS, deckpress

from generator.booklet.style import font_has_glyph
from generator.words import merged, shipped_languages

DECK = """\
deck: {name: Quest, players: 2}
fields:
  name: {type: text, required: true}
  power: {type: int}
  kind: {choices: [hero, beast]}
  text: text
back: {name: Quest}
cards:
  - {id: knight, name: Knight, kind: hero, power: 3, text: Strike twice.}
  - {id: dragon, count: 2, name: Dragon, kind: beast, power: 9, text: Burn a card.}
  - {id: coin, name: Coin, text: Flip it., back: {name: Tails}}
rules:
  - total: 4
    message: four cards
"""

FRENCH_TEXTS = """\
deck: {name: Quête}
back: {name: Quête}
cards:
  knight: {name: Chevalier, text: Frappez deux fois.}
  dragon: {name: Dragonne, text: Brûlez une carte.}
  coin: {name: Pièce, text: Lancez-la., back: {name: Pile}}
"""
FRENCH = FRENCH_TEXTS + "choices: {kind: {hero: héros, beast: bête}}\n"

RULES = "# Overview\n\nA game of {{ total }} cards.\n"
RULES_FR = "# Aperçu\n\n{{ name }} : un jeu de {{ total }} cartes.\n"


def make_deck(tmp_path: Path, translations: dict[str, str] | None = None, deck: str = DECK) -> Path:
    folder = tmp_path / "cards" / "quest"
    (folder / "lang").mkdir(parents=True)
    (folder / "deck.yaml").write_text(deck, encoding="utf-8")
    (folder / "rules.md").write_text(RULES, encoding="utf-8")
    (folder / "rules.fr.md").write_text(RULES_FR, encoding="utf-8")
    for code, text in (translations if translations is not None else {"fr": FRENCH}).items():
        (folder / "lang" / f"{code}.yaml").write_text(text, encoding="utf-8")
    return folder


def pdf_text(path: Path) -> str:
    with pdfplumber.open(path) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)


def written(tmp_path: Path, *command: str | Path) -> list[str]:
    """Run a command that writes into ``tmp_path/out``; the names of the files it wrote."""
    out = tmp_path / "out"
    run = deckpress(*command, "--out", out, "--quiet")
    assert run.exit_code == 0, run.stderr
    return sorted(path.name for path in out.iterdir())


def test_build_with_lang_prints_translated_titles_into_its_own_pdf_and_manifest(tmp_path):
    folder = make_deck(tmp_path)
    out = tmp_path / "out"
    assert written(tmp_path, "build", folder, "--lang", "fr") == ["quest.fr.json", "quest.fr.pdf"]
    text = pdf_text(out / "quest.fr.pdf")
    for title in ("Chevalier", "Dragonne", "Pièce", "Pile", "Quête"):
        assert title in text
    assert "Knight" not in text and "Tails" not in text
    manifest = json.loads((out / "quest.fr.json").read_text(encoding="utf-8"))
    assert manifest["deck"] == "quest" and manifest["lang"] == "fr" and manifest["name"] == "Quête"
    titles = {(p["card"], p["face"]): p["title"] for p in manifest["placements"]}
    assert titles[("knight", "front")] == "Chevalier"
    assert titles[("coin", "back")] == "Pile"
    assert titles[("dragon", "back")] == "Quête"
    dragon = next(p for p in manifest["placements"] if p["card"] == "dragon")
    assert dragon["fields"]["power"] == 9 and dragon["fields"]["kind"] == "beast"  # values stay
    assert len(manifest["placements"]) == 8  # counts stay: 4 cards, front and back


def test_without_lang_the_deck_builds_as_written(tmp_path):
    folder = make_deck(tmp_path)
    out = tmp_path / "out"
    assert written(tmp_path, "build", folder) == ["quest.json", "quest.pdf"]
    assert "Knight" in pdf_text(out / "quest.pdf")
    assert "lang" not in json.loads((out / "quest.json").read_text())


def test_check_lang_reports_every_untranslated_text_by_card_and_field(tmp_path):
    partial = FRENCH.replace("  dragon: {name: Dragonne, text: Brûlez une carte.}\n", "") \
                    .replace("back: {name: Quête}\n", "").replace(", back: {name: Pile}", "")
    folder = make_deck(tmp_path, {"fr": partial})
    run = deckpress("check", folder, "--lang", "fr")
    assert run.exit_code == 1
    assert "FAIL  quest.fr: Quête" in run.stdout
    lines = [line for line in run.stdout.splitlines() if "has no translation" in line]
    assert len(lines) == 4, run.stdout
    deck_file = folder / "deck.yaml"
    assert lines[0].startswith(f"{deck_file}:7:")  # the shared back's name, where it is written
    assert "card 'dragon' field 'name'" in lines[1] and lines[1].startswith(f"{deck_file}:10:")
    assert "card 'dragon' field 'text'" in lines[2]
    assert "card 'coin' (back) field 'name'" in lines[3]
    assert all(str(folder / "lang" / "fr.yaml") in line for line in lines)


def test_check_lang_finds_a_translation_that_does_not_fit_its_card(tmp_path):
    long_name = "Chevalier " * 40
    folder = make_deck(tmp_path, {"fr": FRENCH.replace("name: Chevalier,", f"name: {long_name.strip()},")})
    run = deckpress("check", folder, "--lang", "fr")
    assert run.exit_code == 1
    assert "card 'knight', front" in run.stdout and "does not fit" in run.stdout
    assert "element 'title'" in run.stdout
    # The text that does not fit is written in the translation: the finding points there.
    [finding] = [line for line in run.stdout.splitlines() if "does not fit" in line]
    assert finding.startswith(f"{folder / 'lang' / 'fr.yaml'}:4:")
    pile = make_deck(tmp_path / "back", {"fr": FRENCH.replace("back: {name: Pile}", f"back: {{name: {long_name}}}")})
    [back] = [line for line in deckpress("check", pile, "--lang", "fr").stdout.splitlines() if "does not fit" in line]
    assert back.startswith(f"{pile / 'lang' / 'fr.yaml'}:6:") and "card 'coin', back" in back


def test_a_build_refuses_an_incomplete_translation_and_writes_nothing(tmp_path):
    folder = make_deck(tmp_path, {"fr": FRENCH.replace("  knight: {name: Chevalier, text: Frappez deux fois.}\n",
                                                       "")})
    out = tmp_path / "out"
    run = deckpress("build", folder, "--lang", "fr", "--out", out)
    assert run.exit_code == 1
    assert "2 texts of deck 'quest' have no translation" in run.stderr
    assert "card 'knight' field 'name'" in run.stderr and "deckpress check --lang fr" in run.stderr
    assert not out.exists()


def test_check_lang_all_checks_the_deck_and_every_translation(tmp_path):
    german = FRENCH.replace("Quête", "Suche").replace("Chevalier", "Ritter")
    folder = make_deck(tmp_path, {"fr": FRENCH, "de": german})
    (folder / "rules.de.md").write_text("# Überblick\n", encoding="utf-8")
    run = deckpress("check", folder, "--lang", "all")
    assert run.exit_code == 0, run.stdout + run.stderr
    assert [line.split(":")[0] for line in run.stdout.splitlines()] == ["ok    quest", "ok    quest.de",
                                                                         "ok    quest.fr"]
    report = json.loads(deckpress("check", folder, "--lang", "all", "--format", "json").stdout)
    assert [entry.get("lang") for entry in report["decks"]] == [None, "de", "fr"]


@pytest.mark.parametrize("translation, line, message", [
    ("cards:\n  knigth: {name: Chevalier}\n", 2, "no card with id 'knigth'"),
    ("cards:\n  knight:\n    nmae: Chevalier\n", 3, "unknown field 'nmae'; did you mean 'name'?"),
    ("cards:\n  knight: {power: 4}\n", 2, "'power' is an int field; only text fields are translated"),
    ("cards:\n  knight: {kind: héros}\n", 2, "'kind' is a choice field"),
    ("cards:\n  knight: {back: {name: Pile}}\n", 2, "card 'knight' has no back of its own"),
    ("deck: {name: Quête}\ncartes: {}\n", 2, "unknown section 'cartes'"),
    ("deck: {designer: Moi}\n", 1, "unknown deck text 'designer'"),
    ("cards:\n  knight: {name: ''}\n", 2, "expected text"),
])
def test_a_translation_mistake_names_file_line_and_field(tmp_path, translation, line, message):
    folder = make_deck(tmp_path, {"fr": translation})
    for command in (["check"], ["build", "--out", tmp_path / "out"]):
        run = deckpress(*command, folder, "--lang", "fr")
        assert run.exit_code == 2, run.stdout + run.stderr
        errors = [text for text in (run.stdout + run.stderr).splitlines() if text.startswith("error:")]
        assert len(errors) == 1
        assert errors[0].startswith(f"error: {folder / 'lang' / 'fr.yaml'}:{line}:")
        assert message in errors[0]
    assert not (tmp_path / "out").exists()


def test_every_mistake_of_a_translation_is_reported_in_one_run(tmp_path):
    folder = make_deck(tmp_path, {"fr": "cards: {knight: {nme: 5}, nobody: {name: X}, dragon: {kind: hero}}\n"
                                         "choices: {power: {3: trois}, kind: {elf: Elfe}}\n"})
    fr = folder / "lang" / "fr.yaml"
    for command in (["check"], ["build", "--out", tmp_path / "out"]):
        run = deckpress(*command, folder, "--lang", "fr")
        assert run.exit_code == 2, run.stdout + run.stderr
        assert [line.split(": ", 2)[1:] for line in run.error_lines if str(fr) in line] == [
            [f"{fr}:1:18", "unknown field 'nme'; did you mean 'name'? (nme)"],
            [f"{fr}:1:27", f"no card with id 'nobody' in {folder / 'deck.yaml'}; expected one of: coin, "
                           "dragon, knight (nobody)"],
            [f"{fr}:1:55", "'kind' is a choice field; only text fields are translated (values, choices and "
                           "counts stay as the deck has them) (kind)"],
            [f"{fr}:2:11", "'power' is not a choice field of the deck; expected one of: kind (power)"],
            [f"{fr}:2:37", "'elf' is not one of the choices of 'kind' (hero, beast) (kind)"]]
    assert not (tmp_path / "out").exists()


def test_every_bad_phrase_of_a_translation_s_words_is_reported_in_one_run(tmp_path):
    """A translator fixing the booklet's phrases sees every mistake at once, beside the file's others."""
    folder = make_deck(tmp_path, {"fr": "cards: {nobody: {name: X}}\nwords:\n  in_the_box: \"{zz}\"\n"
                                        "  nosuchword: hi\n  booklet_title: \"{nom}\"\n  contents: 5\n"})
    fr = folder / "lang" / "fr.yaml"
    run = deckpress("check", folder, "--lang", "fr")
    assert run.exit_code == 2, run.stdout + run.stderr
    assert "FAIL  quest.fr: 5 problems" in run.stdout
    said = [line.split(": ", 2)[1:] for line in run.error_lines]
    assert [[place, message.split("; expected one of")[0]] for place, message in said] == [
        [f"{fr}:1:9", f"no card with id 'nobody' in {folder / 'deck.yaml'}"],
        [f"{fr}:3:3", "'in_the_box' cannot fill in {zz} (it offers none) (in_the_box)"],
        [f"{fr}:4:3", "unknown phrase 'nosuchword'"],
        [f"{fr}:5:3", "'booklet_title' cannot fill in {nom} (it offers {name}) (booklet_title)"],
        [f"{fr}:6:3", "expected text, found the number 5; write it in quotes (contents)"]]


def test_check_lang_all_says_which_translation_fails(tmp_path):
    folder = make_deck(tmp_path, {"fr": FRENCH, "de": "cards: {knigth: {name: Ritter}}\n"})
    (folder / "rules.de.md").write_text("# Überblick\n", encoding="utf-8")
    run = deckpress("check", folder, "--lang", "all")
    assert run.exit_code == 2
    assert [line.split(":")[0] for line in run.stdout.splitlines()] == ["ok    quest", "FAIL  quest.de",
                                                                         "ok    quest.fr"]
    assert "FAIL  quest.de: 1 problem\n" in run.stdout
    [error] = run.error_lines
    assert "no card with id 'knigth'" in error


def test_an_unknown_language_or_a_code_that_is_not_one_is_refused(tmp_path):
    folder = make_deck(tmp_path)
    run = deckpress("build", folder, "--lang", "it", "--out", tmp_path / "out")
    assert run.exit_code == 2
    assert "no translation 'it' (translations: fr)" in run.stderr
    for code in ("../fr", "fr.yaml", "FR FR"):
        run = deckpress("build", folder, "--lang", code, "--out", tmp_path / "out")
        assert run.exit_code == 2 and "is not a language code" in run.stderr, code
    run = deckpress("build", folder, "--lang", "all", "--out", tmp_path / "out")
    assert run.exit_code == 2 and "--lang all is for check" in run.stderr


def test_a_translation_outside_the_deck_folder_is_refused(tmp_path):
    folder = make_deck(tmp_path, {})
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(FRENCH, encoding="utf-8")
    (folder / "lang" / "fr.yaml").symlink_to(outside)
    run = deckpress("check", folder, "--lang", "fr")
    assert run.exit_code == 2 and "points outside the deck folder" in run.stderr


def test_layout_texts_are_translated_by_element_name(tmp_path):
    folder = make_deck(tmp_path, {"fr": FRENCH + "layout:\n  fields: \"{{ text }} (force {{ power }})\"\n"})
    out = tmp_path / "out"
    assert deckpress("build", folder, "--lang", "fr", "--out", out, "--quiet").exit_code == 0
    text = pdf_text(out / "quest.fr.pdf")
    assert "Frappez deux fois. (force 3)" in text
    assert "power: 3" not in text


def test_an_unknown_layout_element_or_a_broken_translated_template_is_an_error(tmp_path):
    folder = make_deck(tmp_path, {"fr": FRENCH_TEXTS + "layout:\n  titel: Titre\n"})
    run = deckpress("check", folder, "--lang", "fr")
    assert run.exit_code == 2
    assert f"{folder / 'lang' / 'fr.yaml'}:8:" in run.stderr
    assert "no element named 'titel' in layout generic; did you mean 'title'?" in run.stderr
    folder = make_deck(tmp_path / "two", {"fr": FRENCH_TEXTS + "layout:\n  fields: \"{{ pouvoir }}\"\n"})
    run = deckpress("check", folder, "--lang", "fr")
    assert run.exit_code == 2
    assert f"{folder / 'lang' / 'fr.yaml'}:8:" in run.stderr and "pouvoir" in run.stderr


def test_booklet_with_lang_reads_the_translated_rules_and_names_its_files(tmp_path):
    folder = make_deck(tmp_path)
    out = tmp_path / "out"
    assert written(tmp_path, "booklet", folder, "--lang", "fr") == ["quest-rules-booklet.fr.pdf",
                                                                    "quest-rules.fr.pdf"]
    text = pdf_text(out / "quest-rules.fr.pdf")
    assert "Aperçu" in text and "Quête : un jeu de 4 cartes." in text
    (folder / "rules.fr.md").unlink()
    run = deckpress("booklet", folder, "--lang", "fr", "--out", out, "--quiet")
    assert run.exit_code == 2 and "no rules.fr.md beside the deck" in run.stderr


def test_export_with_lang_names_its_files_after_the_translation(tmp_path):
    folder = make_deck(tmp_path)
    out = tmp_path / "tts"
    run = deckpress("export", folder, "--lang", "fr", "--tts", out, "--quiet")
    assert run.exit_code == 0, run.stderr
    names = sorted(path.name for path in out.iterdir() if not path.name.startswith("."))
    assert "quest.fr.json" in names and "quest.fr-faces-1.png" in names
    saved = json.loads((out / "quest.fr.json").read_text(encoding="utf-8"))
    assert "Chevalier" in json.dumps(saved, ensure_ascii=False)


def test_stats_report_with_lang_is_named_after_the_translation(tmp_path):
    folder = make_deck(tmp_path)
    reports = tmp_path / "stats"
    reports.mkdir()
    run = deckpress("stats", folder, "--lang", "fr", "--report", reports, "--quiet")
    assert run.exit_code == 0, run.stderr
    assert sorted(path.name for path in reports.iterdir()) == ["quest-stats.fr.pdf", "quest-stats.fr.png"]
    assert "Quête" in pdf_text(reports / "quest-stats.fr.pdf")


def test_decklist_names_are_translated_and_an_unknown_decklist_is_an_error(tmp_path):
    deck = DECK + "decklists:\n  duel: {name: Duel of two, cards: {knight: 1, dragon: 1}}\n"
    folder = make_deck(tmp_path, {"fr": FRENCH}, deck=deck)
    (folder / "rules.fr.md").write_text("# Listes\n\n{{ decklists }}\n", encoding="utf-8")
    run = deckpress("check", folder, "--lang", "fr")
    assert run.exit_code == 1
    assert f"{folder / 'deck.yaml'}:16:" in run.stdout and "decklist 'duel' name has no translation" in run.stdout
    (folder / "lang" / "fr.yaml").write_text(FRENCH + "decklists:\n  duel: {name: Duel à deux}\n",
                                            encoding="utf-8")
    assert deckpress("check", folder, "--lang", "fr").exit_code == 0
    assert "quest-rules.fr.pdf" in written(tmp_path, "booklet", folder, "--lang", "fr")
    assert "Duel à deux" in pdf_text(tmp_path / "out" / "quest-rules.fr.pdf")
    (folder / "lang" / "fr.yaml").write_text(FRENCH + "decklists:\n  duell: {name: Duel}\n", encoding="utf-8")
    run = deckpress("check", folder, "--lang", "fr")
    assert run.exit_code == 2 and "no decklist 'duell'" in run.stderr and "did you mean 'duel'?" in run.stderr


def test_a_french_booklet_speaks_french_on_its_cover_tables_and_captions(tmp_path):
    rules = ("# Matériel\n\n{{ components by=kind }}\n\n"
             "{{ cardtable columns=name,kind,count headers=\"Nom,Sorte,Nombre\" }}\n\n"
             "{{ cards side=both }}\n")
    folder = make_deck(tmp_path, {"fr": FRENCH})
    (folder / "rules.fr.md").write_text(rules, encoding="utf-8")
    assert "quest-rules.fr.pdf" in written(tmp_path, "booklet", folder, "--lang", "fr")
    text = pdf_text(tmp_path / "out" / "quest-rules.fr.pdf")
    for phrase in ("Un jeu pour 2 joueurs", "Contenu de la boîte", "4 cartes", "1 carte héros",
                   "2 cartes bête", "Livret de règles", "Chevalier héros", "Dragonne bête 2",
                   "Dragonne ×2", "dos : Pile", "dos des autres cartes", "Cartes Sorte Détail", "en tout"):
        assert phrase in text, phrase
    for english in ("A game for", "In the box", "Rules booklet", "back:", "Hero", "Beast", "in all"):
        assert english not in text, english
    note = pdf_text(tmp_path / "out" / "quest-rules-booklet.fr.pdf")
    assert "Imprimez en recto verso" in note


def test_a_translation_may_change_the_booklet_phrases_for_its_language(tmp_path):
    italian = FRENCH + ("words:\n  plural_one: [1]\n  game_for: \"Un gioco per {players}\"\n"
                        "  players: {one: \"{n} giocatore\", other: \"{n} giocatori\"}\n")
    folder = make_deck(tmp_path, {"it": italian})
    (folder / "rules.it.md").write_text("# Regole\n", encoding="utf-8")
    assert "quest-rules.it.pdf" in written(tmp_path, "booklet", folder, "--lang", "it")
    text = pdf_text(tmp_path / "out" / "quest-rules.it.pdf")
    assert "Un gioco per 2 giocatori" in text
    assert "In the box" in text  # a language with no table of its own falls back to English


@pytest.mark.parametrize("words, line, message", [
    ("  rules_boklet: Règles\n", 9, "unknown phrase 'rules_boklet'; did you mean 'rules_booklet'?"),
    ("  game_for: \"Pour {joueurs}\"\n", 9, "'game_for' cannot fill in {joueurs} (it offers {players})"),
    ("  players: \"{n} joueurs\"\n", 9, "'players' has two forms"),
    ("  game_for: \"{0.__class__}\"\n", 9, None),
])
def test_a_mistake_in_the_booklet_phrases_is_an_error_with_its_line(tmp_path, words, line, message):
    folder = make_deck(tmp_path, {"fr": FRENCH + "words:\n" + words})
    run = deckpress("booklet", folder, "--lang", "fr", "--out", tmp_path / "out")
    if message is None:  # no format language: the text prints as written
        assert run.exit_code == 0, run.stderr
        assert "{0.__class__}" in pdf_text(tmp_path / "out" / "quest-rules.fr.pdf")
        return
    assert run.exit_code == 2
    assert run.stderr.startswith(f"error: {folder / 'lang' / 'fr.yaml'}:{line}:") and message in run.stderr


@pytest.mark.parametrize("translation, place, message", [
    # the cover's "In the box", a heading of the booklet's own
    (FRENCH + "words:\n  in_the_box: \"Dans la bo\u00eete \u4f60\u597d\"\n", ("lang/fr.yaml", 9, 3),
     "the booklet prints the phrase in_the_box 'Dans la bo\u00eete \u4f60\u597d', and no booklet font has '\u4f60'"),
    # the cover's count of cards, either form of a plural
    (FRENCH + "words:\n  cards: {one: \"{n} carte\", other: \"{n} \u5f20\"}\n", ("lang/fr.yaml", 9, 3),
     "the booklet prints the phrase cards '{n} \u5f20'"),
    # the printing note, in the margin of the folding booklet's first sheet
    (FRENCH + "words:\n  printing_note: \"Imprimez \u5370\"\n", ("lang/fr.yaml", 9, 3), "(U+5370)"),
    # a choice label: the components table's groups and the cover's
    (FRENCH_TEXTS + "choices: {kind: {hero: h\u00e9ros, beast: \u602a\u7269}}\n", ("rules.fr.md", 3, 1),
     "no booklet font has '\u602a' (U+602A)"),
])
def test_a_translated_text_no_booklet_font_prints_is_refused_by_check_and_booklet(tmp_path, translation, place,
                                                                                     message):
    """The booklet printed an empty box for each such character, while both passed."""
    folder = make_deck(tmp_path, {"fr": translation})
    (folder / "rules.fr.md").write_text("# Mat\u00e9riel\n\n{{ components by=kind }}\n", encoding="utf-8")
    booklet = deckpress("booklet", folder, "--lang", "fr", "--out", tmp_path / "out", "--quiet")
    check = deckpress("check", folder, "--lang", "fr")
    file, line, column = place
    assert booklet.exit_code == 2, booklet.stdout + booklet.stderr
    [refusal] = booklet.error_lines
    assert refusal.startswith(f"error: {folder / file}:{line}:{column}: ") and message in refusal, refusal
    assert check.exit_code == 2 and check.error_lines == [refusal], check.stdout + check.stderr
    assert not (tmp_path / "out").exists()


def test_every_phrase_deckpress_gives_prints_in_the_booklet_fonts():
    """A translation's own phrases are checked for characters the booklet lacks; the shipped
    tables are not, so they hold to it here."""
    for code in shipped_languages():
        for key, phrase in merged(code, {}).phrases.items():
            for text in phrase.values() if isinstance(phrase, dict) else (phrase,):
                assert all(font_has_glyph(character) for character in text), (code, key, text)


def test_choice_labels_must_name_a_choice_field_and_its_choices(tmp_path):
    folder = make_deck(tmp_path, {"fr": FRENCH_TEXTS + "choices:\n  kind: {heros: héros}\n"})
    run = deckpress("check", folder, "--lang", "fr")
    assert run.exit_code == 2 and "'heros' is not one of the choices of 'kind' (hero, beast)" in run.stderr
    folder = make_deck(tmp_path / "two", {"fr": FRENCH_TEXTS + "choices:\n  power: {3: trois}\n"})
    run = deckpress("check", folder, "--lang", "fr")
    assert run.exit_code == 2 and "'power' is not a choice field of the deck; expected one of: kind" in run.stderr


# --- the bundled French Tiki ---------------------------------------------------------------

TIKI = CARDS / "tiki"


def test_every_bundled_deck_and_translation_checks():
    run = deckpress("check", CARDS, "--lang", "all")
    assert run.exit_code == 0, run.stdout + run.stderr
    assert "ok    tiki.fr: Tiki, 41 cards" in run.stdout


def test_the_french_tiki_prints_french_faces_and_the_same_cards(tmp_path):
    assert written(tmp_path, "build", TIKI, "--lang", "fr") == ["tiki.fr.json", "tiki.fr.pdf"]
    text = pdf_text(tmp_path / "out" / "tiki.fr.pdf")
    for words in ("Ogre de magma", "Croque-Fées", "Sphinx oracle", "3 PASTILLES ROUGES", "1 PASTILLE BLEUE",
                  "JOKER", "FORCE", "FLAMMES", "JOUEZ CONTRE MOI", "Quand vous la brûlez"):
        assert words in text, words
    for english in ("Ember Imp", "STRENGTH", "BURN", "DOTS", "When burned", "While last"):
        assert english not in text, english
    french = json.loads((tmp_path / "out" / "tiki.fr.json").read_text(encoding="utf-8"))
    titles = {p["card"]: p["title"] for p in french["placements"] if p["face"] == "front"}
    assert titles["oracle-sphinx"] == "Sphinx oracle" and titles["tiki"] == "Tiki"
    assert written(tmp_path / "en", "build", TIKI) == ["tiki.json", "tiki.pdf"]
    english = json.loads((tmp_path / "en" / "out" / "tiki.json").read_text(encoding="utf-8"))
    assert [(p["card"], p["face"], p["page"], p["trim_box"]) for p in french["placements"]] == \
           [(p["card"], p["face"], p["page"], p["trim_box"]) for p in english["placements"]]


def test_the_french_tiki_booklet_is_french(tmp_path):
    assert written(tmp_path, "booklet", TIKI, "--lang", "fr") == ["tiki-rules-booklet.fr.pdf", "tiki-rules.fr.pdf"]
    text = pdf_text(tmp_path / "out" / "tiki-rules.fr.pdf")
    for words in ("Un jeu pour 1 joueur", "40 cartes monstre", "Mise en place", "Sommaire",
                  "Rokh du soleil ardent 9 jaune 2 3"):
        assert words in text, words


def test_stats_of_the_french_tiki_simulate_the_same_game(tmp_path):
    args = ("--simulate", "--games", "200", "--seed", "3", "--format", "json", "--quiet")
    french = json.loads(deckpress("stats", TIKI, "--lang", "fr", *args).stdout)["decks"][0]
    english = json.loads(deckpress("stats", TIKI, *args).stdout)["decks"][0]
    assert french.pop("name") == english.pop("name") == "Tiki"
    assert french == english  # the plugin reads the deck as written; the numbers do not change


def test_check_lang_asks_for_the_translated_rules_when_the_deck_has_rules(tmp_path):
    folder = make_deck(tmp_path)
    (folder / "rules.fr.md").unlink()
    run = deckpress("check", folder, "--lang", "fr")
    assert run.exit_code == 1
    assert f"{folder / 'rules.fr.md'}: the deck has rules.md but no rules.fr.md" in run.stdout
    assert written(tmp_path, "build", folder, "--lang", "fr") == ["quest.fr.json", "quest.fr.pdf"]
    (folder / "rules.md").unlink()
    assert deckpress("check", folder, "--lang", "fr").exit_code == 0


def test_a_draft_prints_untranslated_texts_in_the_source_wording_marked(tmp_path):
    partial = FRENCH.replace("  dragon: {name: Dragonne, text: Brûlez une carte.}\n", "")
    folder = make_deck(tmp_path, {"fr": partial})
    run = deckpress("build", folder, "--lang", "fr", "--draft", "--out", tmp_path / "out", "--quiet")
    assert run.exit_code == 0, run.stderr
    assert "card 'dragon' field 'name' has no translation" in run.stderr  # listed, not refused
    text = pdf_text(tmp_path / "out" / "quest.fr.pdf")
    assert "[à traduire] Dragon" in text and "Chevalier" in text
    manifest = json.loads((tmp_path / "out" / "quest.fr.json").read_text(encoding="utf-8"))
    titles = {p["card"]: p["title"] for p in manifest["placements"] if p["face"] == "front"}
    assert titles["dragon"] == "[à traduire] Dragon" and titles["knight"] == "Chevalier"
    assert deckpress("build", folder, "--lang", "fr", "--out", tmp_path / "final").exit_code == 1


PICKING_BY_NAME = DECK.replace("rules:\n", """\
rules:
  - count: {where: {name: Dragon}, exact: 2}
    message: two dragons
  - count: {where: {back.name: Tails}, exact: 1}
    message: one coin
  - faces: {field: name, where: {name: Coin}, relation: different}
    message: the coin has two sides
  - expr: "cards | selectattr('name', 'equalto', 'Knight') | list | length == 1"
    message: one knight
""") + """\
stats:
  questions:
    - {name: a dragon, draw: 2, from: {name: [Knight, Dragon]}, need: {where: {name: Dragon}}}
"""


def test_a_translated_deck_keeps_the_rules_that_pick_cards_by_their_texts(tmp_path):
    # The rules and stats questions pick cards by name as deck.yaml writes it; French prints
    # other names, and a translation must not break the deck's own rules.
    folder = make_deck(tmp_path, {"fr": FRENCH}, deck=PICKING_BY_NAME)
    run = deckpress("check", folder, "--lang", "all")
    assert run.exit_code == 0, run.stdout + run.stderr
    assert "ok    quest.fr: Quête, 4 cards, 5 rules checked" in run.stdout
    assert written(tmp_path, "build", folder, "--lang", "fr") == ["quest.fr.json", "quest.fr.pdf"]
    assert "Dragonne" in pdf_text(tmp_path / "out" / "quest.fr.pdf")


def test_a_broken_rule_reads_the_same_in_every_language(tmp_path):
    folder = make_deck(tmp_path, {"fr": FRENCH}, deck=PICKING_BY_NAME.replace("exact: 2", "exact: 3"))
    run = deckpress("check", folder, "--lang", "all")
    assert run.exit_code == 1
    broken = (f"{folder / 'deck.yaml'}:13: count (two dragons): expected exactly 3 cards matching "
              "name=Dragon, found 2 [cards: dragon]")
    assert run.stdout.splitlines() == ["FAIL  quest: Quest, 4 cards, 5 rules checked, 5 faces laid out: 1 problem",
                                       broken,
                                       "FAIL  quest.fr: Quête, 4 cards, 5 rules checked, 5 faces laid out: 1 problem",
                                       broken]


def test_a_translated_booklet_picks_cards_by_the_deck_files_values(tmp_path):
    folder = make_deck(tmp_path, {"fr": FRENCH})
    (folder / "rules.fr.md").write_text(
        "# Cartes\n\n{{ count name=Dragon }} dragonnes, {{ kinds back.name=Tails }} pièce.\n\n"
        "{{ cardtable name=Knight,Coin columns=name,power headers=\"Nom,Force\" }}\n", encoding="utf-8")
    assert deckpress("check", folder, "--lang", "fr").exit_code == 0
    assert "quest-rules.fr.pdf" in written(tmp_path, "booklet", folder, "--lang", "fr")
    text = pdf_text(tmp_path / "out" / "quest-rules.fr.pdf")
    assert "2 dragonnes, 1 pièce." in text
    assert "Chevalier 3" in text and "Pièce" in text and "Dragonne" not in text  # picked in deck.yaml's words


def test_build_only_picks_cards_by_the_deck_files_values_in_any_language(tmp_path):
    folder = make_deck(tmp_path, {"fr": FRENCH})
    assert written(tmp_path, "build", folder, "--lang", "fr", "--only", "name=Knight") == \
        ["quest.fr.only.json", "quest.fr.only.pdf"]
    manifest = json.loads((tmp_path / "out" / "quest.fr.only.json").read_text(encoding="utf-8"))
    assert {(p["card"], p["title"]) for p in manifest["placements"] if p["face"] == "front"} == \
        {("knight", "Chevalier")}
    run = deckpress("build", folder, "--lang", "fr", "--only", "name=Chevalier", "--out", tmp_path / "none")
    assert run.exit_code == 2 and "--only name=Chevalier matches no card of deck 'quest'" in run.stderr
