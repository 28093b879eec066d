"""A broken translation file (``lang/<code>.yaml``) is named, with the line of its own text
at fault, not the deck file it translates."""

from __future__ import annotations

from cli_run import place_of
from hostile_support import deckpress, new_deck, refused, set_layout_text, within


def test_unbalanced_markup_in_a_translated_title_is_reported_at_the_translations_line(tmp_path):
    deck = new_deck(tmp_path)
    set_layout_text(deck, "title", "Demo")
    set_layout_text(deck, "body", "{{ title }}")  # prints the deck's title field, 'name'
    (deck / "lang").mkdir()
    translation = deck / "lang" / "fr.yaml"
    translation.write_text('cards:\n  knight: {name: "**Chevalier"}\n', encoding="utf-8")
    at = place_of(translation, 'name: "**Chevalier"')
    message = "card 'knight', front: unbalanced '**': bold opened at character 1 is never closed in \"**Chevalier\""
    checked = deckpress("check", deck, "--lang", "fr")
    assert checked.exit_code == 1
    assert [line for line in checked.stdout.splitlines() if "unbalanced '**'" in line] == [
        f"{at}: deck 'demo', {message} (write \\* for a star) (element 'body' of layout 'layout' at "
        f"{place_of(deck / 'layout.yaml', 'name: body')})"]
    with within():
        line = refused(deckpress("build", deck, "--lang", "fr", "--out", tmp_path / "out", "--quiet"), (1,),
                       message)
    assert line.startswith(f"error: {at}: ")


def test_unbalanced_markup_printed_as_the_title_is_reported_at_the_title_field(tmp_path):
    deck = new_deck(tmp_path)
    set_layout_text(deck, "title", "Demo")
    set_layout_text(deck, "body", "{{ title }}")
    source = deck / "deck.yaml"
    source.write_text(source.read_text(encoding="utf-8").replace("name: Knight", "name: '**Knight'"),
                      encoding="utf-8")
    checked = deckpress("check", deck)
    assert checked.exit_code == 1
    assert [line.split(": deck ")[0] for line in checked.stdout.splitlines() if "unbalanced '**'" in line] == [
        place_of(source, "name: '**Knight'")]
