"""Terminal escapes in a shared deck: text that would retitle, clear or ring the designer's
terminal (``ESC ]0;...BEL``, ``ESC [2J``) reaches every command's output written as escapes
(``\\x1b``), never raw, in errors, glyph errors, summaries, reports, JSON and the preview."""

from __future__ import annotations

import json

import pytest
from hostile_support import deckpress, new_deck, refused, within

from generator.cli.watch import watched_roots
from generator.errors import InputError, Position, printable, printable_json
from generator.findings import Finding
from generator.serve.preview import DeckPreview

HOSTILE = "\\e]0;pwned\\a\\e[2J"
"""As YAML's double quotes write it: ESC ] 0 ; pwned BEL ESC [ 2 J."""
SHOWN = "\\x1b]0;pwned\\x07\\x1b[2J"
"""How every message shows it."""
RAW = ("\x1b", "\x07", "\x9b")


def edit(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def assert_nothing_raw(run) -> None:
    for character in RAW:
        assert character not in run.stdout and character not in run.stderr, (run.stdout, run.stderr)


@pytest.mark.parametrize("command", [
    ("check",), ("build", "--quiet"), ("booklet", "--quiet"), ("stats",), ("export", "--quiet", "--png"),
])
def test_a_field_value_holding_terminal_escapes_is_quoted_escaped_by_every_command(tmp_path, command):
    deck = new_deck(tmp_path)
    edit(deck / "deck.yaml", "type: spell, name: Shield", f'type: "{HOSTILE}", name: Shield')
    extra = {"build": ("--out", tmp_path / "out"), "booklet": ("--out", tmp_path / "out"),
             "export": (tmp_path / "png",)}.get(command[0], ())
    with within():
        run = deckpress(command[0], deck, *command[1:], *extra)
    assert_nothing_raw(run)
    line = refused(run, (2,), f"found '{SHOWN}' (type)")
    assert line.startswith(f"error: {deck / 'deck.yaml'}:")


def test_check_as_json_keeps_the_text_and_shows_it_escaped(tmp_path):
    deck = new_deck(tmp_path)
    edit(deck / "deck.yaml", "type: spell, name: Shield", f'type: "{HOSTILE}", name: Shield')
    run = deckpress("check", deck, "--format", "json")
    assert run.exit_code == 2
    assert_nothing_raw(run)
    finding, = json.loads(run.stdout)["decks"][0]["findings"]
    assert f"found '{SHOWN}'" in finding["message"]


def test_a_glyph_error_shows_the_character_escaped(tmp_path):
    deck = new_deck(tmp_path)
    edit(deck / "deck.yaml", "name: Shield", 'name: "Sh\\e[31mield"')
    # check also finds the rules booklet's card captions, which print the name too (exit 2)
    for command, status in ((("check",), 2), (("build", "--out", tmp_path / "out", "--quiet"), 1)):
        with within():
            run = deckpress(*command, deck)
        assert run.exit_code == status
        assert_nothing_raw(run)
        assert "card 'shield', front: font 'DejaVuSans-Bold' has no glyph for '\\x1b' (U+001B)" in \
            run.stdout + run.stderr


def test_a_deck_name_holding_escapes_is_shown_escaped_in_summaries_and_reports(tmp_path):
    deck = new_deck(tmp_path)
    edit(deck / "deck.yaml", 'name: "Demo"', 'name: "De\\e]0;pwned\\amo\\x9b2J"')
    check = deckpress("check", deck)  # fails: no font has a glyph for ESC (the booklet's cover prints the name)
    assert "FAIL  demo: De\\x1b]0;pwned\\x07mo\\x9b2J, 26 cards" in check.stdout
    stats = deckpress("stats", deck)
    assert stats.exit_code == 0 and "demo: De\\x1b]0;pwned\\x07mo\\x9b2J, 26 cards" in stats.stdout
    as_json = deckpress("stats", deck, "--format", "json")  # JSON leaves C1 controls raw; not here
    assert "\\u009b" in as_json.stdout
    assert json.loads(as_json.stdout)["decks"][0]["name"] == "De\x1b]0;pwned\x07mo\x9b2J"  # the data kept
    for run in (check, stats, as_json):
        assert_nothing_raw(run)


def test_a_rule_message_holding_escapes_is_shown_escaped(tmp_path):
    deck = new_deck(tmp_path)
    edit(deck / "deck.yaml", "message: the deck has 26 cards", f'message: "{HOSTILE}"')
    edit(deck / "deck.yaml", "total: 26", "total: 27")
    run = deckpress("check", deck)
    assert run.exit_code == 1
    assert_nothing_raw(run)
    assert SHOWN in run.stdout


def test_import_quotes_a_cell_escaped(tmp_path):
    sheet = tmp_path / "cards.csv"
    sheet.write_text("name,count\nKnight,2\nOgre,\x1b]0;pwned\x07\n", encoding="utf-8")
    run = deckpress("import", sheet, "--out", tmp_path / "deck.yaml")
    assert_nothing_raw(run)
    refused(run, (2,), f"{sheet}:3:", "found '\\x1b]0;pwned\\x07' (count)")


def test_a_folder_name_holding_escapes_is_shown_escaped(tmp_path):
    deck = new_deck(tmp_path).rename(tmp_path / "cards" / "x\x1b]0;pwned\x07y")
    edit(deck / "deck.yaml", "total: 26", "total: 27")
    run = deckpress("check", deck)
    assert run.exit_code == 1
    assert_nothing_raw(run)
    assert "FAIL  x\\x1b]0;pwned\\x07y: Demo" in run.stdout
    assert f"{tmp_path}/cards/x\\x1b]0;pwned\\x07y/deck.yaml:" in run.stdout


def test_the_preview_lists_problems_escaped(tmp_path):
    deck = new_deck(tmp_path)
    edit(deck / "deck.yaml", "type: spell, name: Shield", f'type: "{HOSTILE}", name: Shield')
    preview = DeckPreview(deck / "deck.yaml", watched_roots)
    snapshot = preview.refresh()
    assert not any(character in snapshot.payload for character in RAW)
    messages = [problem["message"] for problem in json.loads(snapshot.payload)["problems"]]
    assert any(f"found '{SHOWN}'" in message for message in messages), messages


def test_messages_escape_every_control_character_once():
    assert printable("a\x1b[2Jb\x07\x00\x7f\x85\x9b\u2028\u202e\ttab\nnew") == \
        "a\\x1b[2Jb\\x07\\x00\\x7f\\x85\\x9b\\u2028\\u202e\\ttab\\nnew"
    assert printable(printable("\x1b")) == "\\x1b"
    assert printable("Łódź: **bold** :coin: \\x1b") == "Łódź: **bold** :coin: \\x1b"
    assert printable("one\ntwo\tcolumn\x1b", keep="\n\t") == "one\ntwo\tcolumn\\x1b"
    assert json.loads(printable_json(json.dumps({"a": "\x9b\u2028"}, ensure_ascii=False, indent=2))) == \
        {"a": "\x9b\u2028"}
    error = InputError("found '\x1b]0;x\x07'", Position(__import__("pathlib").Path("a\x1b.yaml"), 1, 2), "ty\x1bpe")
    assert str(error) == "a\\x1b.yaml:1:2: found '\\x1b]0;x\\x07' (ty\\x1bpe)"
    finding = Finding("rule", "\x1b[2J", None, accepted="because\x07")
    assert finding.line() == "\\x1b[2J (accepted: because\\x07)"


@pytest.mark.parametrize("command", [("check",), ("stats",)])
def test_a_line_break_in_a_deck_name_cannot_forge_a_line_of_output(tmp_path, command):
    """Every line a command prints is one line: a name holding a line break shows it as \\n,
    so a shared deck cannot print an ``error:`` line the tool never wrote."""
    deck = new_deck(tmp_path)
    edit(deck / "deck.yaml", 'name: "Demo"', 'name: "Demo\\nerror: forged"')
    run = deckpress(command[0], deck, *command[1:])
    lines = (run.stdout + run.stderr).splitlines()
    assert not any(line.startswith("error: forged") for line in lines), lines
    if command[0] == "check":
        assert lines[0].startswith("ok    demo: Demo\\nerror: forged, 26 cards"), lines  # a name, shown on one line
