"""A broken translation file (``lang/<code>.yaml``) is named, with the line of its own text
at fault, not the deck file it translates."""

from __future__ import annotations

from cli_run import place_of
from hostile_support import deckpress, new_deck, refused, set_layout_text, within


def test_unknown_markup_in_a_translated_title_is_reported_at_the_translations_line(tmp_path):
    deck = new_deck(tmp_path)
    set_layout_text(deck, "title", "Demo")
    set_layout_text(deck, "body", "{{ title }}")  # prints the deck's title field, 'name'
    (deck / "lang").mkdir()
    translation = deck / "lang" / "fr.yaml"
    translation.write_text('cards:\n  knight: {name: "Chevalier :swrd:"}\n', encoding="utf-8")
    at = place_of(translation, 'name: "Chevalier :swrd:"')
    message = "card 'knight', front: unknown icon ':swrd:' in \"Chevalier :swrd:\""
    checked = deckpress("check", deck, "--lang", "fr")
    assert checked.exit_code == 1
    assert [line for line in checked.stdout.splitlines() if "unknown icon" in line] == [
        f"{at}: deck 'demo', {message}; did you mean 'sword'? (element 'body' of layout 'layout' at "
        f"{place_of(deck / 'layout.yaml', 'name: body')})"]
    with within():
        line = refused(deckpress("build", deck, "--lang", "fr", "--out", tmp_path / "out", "--quiet"), (1,),
                       message)
    assert line.startswith(f"error: {at}: ")


def test_unknown_markup_printed_as_the_title_is_reported_at_the_title_field(tmp_path):
    deck = new_deck(tmp_path)
    set_layout_text(deck, "title", "Demo")
    set_layout_text(deck, "body", "{{ title }}")
    source = deck / "deck.yaml"
    source.write_text(source.read_text(encoding="utf-8").replace("name: Knight", "name: 'Knight :swrd:'"),
                      encoding="utf-8")
    checked = deckpress("check", deck)
    assert checked.exit_code == 1
    assert [line.split(": deck ")[0] for line in checked.stdout.splitlines() if "unknown icon" in line] == [
        place_of(source, "name: 'Knight :swrd:'")]


def test_a_translation_that_is_a_named_pipe_is_refused_as_one_without_waiting(tmp_path):
    import os

    deck = new_deck(tmp_path)
    (deck / "lang").mkdir()
    translation = deck / "lang" / "fr.yaml"
    os.mkfifo(translation)
    said = f"error: {translation}: is a named pipe, not a file that can be read"
    for command in (("check", deck, "--lang", "fr"), ("check", deck, "--lang", "all"),
                    ("build", deck, "--lang", "fr", "--out", tmp_path / "out", "--quiet")):
        with within():
            run = deckpress(*command)
        assert run.exit_code == 2 and said in run.error_lines, (command, run.stderr)
        assert "no translation" not in run.stdout + run.stderr
    assert not (tmp_path / "out").exists()
    translation.unlink()
    run = deckpress("check", deck, "--lang", "fr")  # a translation that is missing is still told so
    assert run.exit_code == 2 and f"error: {translation}: no translation 'fr' (translations: none); write it " \
        f"in {translation} (lang)" in run.error_lines
