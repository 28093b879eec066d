"""The promise of ``deckpress check``: if it passes a deck, no other command refuses it with its
default options; if another command would refuse it, check says so, with the same message at
the same file and line.

Each deck here starts as the one ``deckpress new`` makes and is broken in one way. The
options that only the other commands know (another paper, a fold, a resolution) are the one
exception, and a refusal there is one line with exit status 2.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_run import CARDS, Run, deckpress, place_of
from hostile_support import new_deck

from generator.deck.model import MAX_ID_BYTES

LONG_TEXT = " ".join(["This sentence is far too long for the body of a card."] * 12)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def without_rules(folder: Path) -> None:
    """Drop the deck's composition rules, so the refusal under test is the only one."""
    path = folder / "deck.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[:text.index("\nrules:")] + "\n", encoding="utf-8")


def text_too_long(folder: Path) -> None:
    edit(folder / "deck.yaml", 'name: Archer, power: 2, text: "', f'name: Archer, power: 2, text: "{LONG_TEXT} ')


def every_count_zero(folder: Path) -> None:
    without_rules(folder)
    path = folder / "deck.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("count: 4", "count: 0").replace("count: 6", "count: 0")
                    .replace("count: 3", "count: 0").replace("count: 2", "count: 0"), encoding="utf-8")
    (folder / "rules.md").unlink()  # its card reference would have no cards to show


def card_larger_than_the_paper(folder: Path) -> None:
    edit(folder / "layout.yaml", "size: poker", "size: [250mm, 250mm]")


def glyph_no_font_has(folder: Path) -> None:
    edit(folder / "deck.yaml", "name: Troll,", 'name: "\u30c8\u30ed\u30eb",')


def unknown_layout_key(folder: Path) -> None:
    edit(folder / "layout.yaml", "    icon_scale: 1.3", "    icon_scael: 1.3")


def broken_picture(folder: Path) -> None:
    (folder / "art").mkdir()
    (folder / "art" / "troll.png").write_text("not a picture", encoding="utf-8")
    edit(folder / "layout.yaml", '    icon: "{{ type }}"\n    box: [25%, 23%, 50%, 37%]\n    colour: accent\n',
         '    image: "art/troll.png"\n    box: [25%, 23%, 50%, 37%]\n')


def misspelt_directive(folder: Path) -> None:
    edit(folder / "rules.md", "{{ components by=type }}", "{{ componants by=type }}")


def cover_name_no_font_has(folder: Path) -> None:
    edit(folder / "deck.yaml", 'deck:\n  name: "Demo"', 'deck:\n  name: "Demo \u6f22"')


def stats_draw_not_a_number(folder: Path) -> None:
    with (folder / "deck.yaml").open("a", encoding="utf-8") as deck:
        deck.write("stats:\n  draw: nine\n")


def question_draws_too_many(folder: Path) -> None:
    with (folder / "deck.yaml").open("a", encoding="utf-8") as deck:
        deck.write("stats:\n  questions:\n    - {name: all in hand, draw: 99, need: {where: {type: hero}}}\n")


def translation_left_unfinished(folder: Path) -> None:
    """A French translation of one card name, and French rules."""
    (folder / "lang").mkdir()
    (folder / "lang" / "fr.yaml").write_text("cards:\n  knight: {name: Chevalier}\n", encoding="utf-8")
    (folder / "rules.fr.md").write_text("# Aper\u00e7u\n\nUn jeu.\n", encoding="utf-8")


BUILD = ("build", "--quiet")
BOOKLET = ("booklet", "--quiet")
STATS = ("stats", "--quiet")
REPORT = ("stats", "--quiet", "--report")
PNG = ("export", "--quiet", "--jobs", "1", "--png")
TTS = ("export", "--quiet", "--jobs", "1", "--tts")
OUT = object()
"""Where a command's --out, --report, --png or --tts folder goes in its arguments."""

REFUSALS: list[tuple[Callable[[Path], None], tuple, tuple]] = [
    (text_too_long, BUILD + ("--out", OUT), ()),
    (text_too_long, PNG + (OUT,), ()),
    (every_count_zero, BUILD + ("--out", OUT), ()),
    (every_count_zero, TTS + (OUT,), ()),
    (card_larger_than_the_paper, BUILD + ("--out", OUT), ()),
    (card_larger_than_the_paper, BUILD + ("--duplex", "short", "--out", OUT), ()),
    (glyph_no_font_has, TTS + (OUT,), ()),
    (glyph_no_font_has, BOOKLET + ("--out", OUT), ()),
    (unknown_layout_key, BUILD + ("--duplex", "fold", "--out", OUT), ()),
    (broken_picture, PNG + (OUT,), ()),
    (misspelt_directive, BOOKLET + ("--out", OUT), ()),
    (cover_name_no_font_has, BOOKLET + ("--out", OUT), ()),
    (stats_draw_not_a_number, STATS, ()),
    (question_draws_too_many, REPORT + (OUT,), ()),
]


def command_line(arguments: tuple, folder: Path, out: Path) -> list:
    """The command's words with the deck after the command name and ``out`` for OUT."""
    words = [out if word is OUT else word for word in arguments]
    return [words[0], folder, *words[1:]]


def said(run: Run) -> list[str]:
    """Every line a run printed, on either stream, without the ``error: `` in front."""
    return [line.removeprefix("error: ") for line in (run.stdout + run.stderr).splitlines() if line.strip()]


def refusals(run: Run) -> list[str]:
    """The problems a refused command names, without its "deck 'x' has N problems" summary."""
    return [line for line in said(run) if "problems; nothing was" not in line]


def foreseen(refusal: str, check_lines: list[str]) -> bool:
    """Check says the command's refusal word for word; one the command gives without a place
    (the paper is an option), check gives at the place that set it, naming its field."""
    placed = re.compile(rf".*: {re.escape(refusal)}( \(\w+\))?")
    return any(line == refusal or placed.fullmatch(line) for line in check_lines)


@pytest.mark.parametrize("breakage, arguments, check_options", REFUSALS,
                         ids=[f"{breakage.__name__}-{' '.join(a for a in arguments if isinstance(a, str))}"
                              for breakage, arguments, _ in REFUSALS])
def test_check_refuses_what_each_command_refuses_at_the_same_place(tmp_path, breakage, arguments, check_options):
    folder = new_deck(tmp_path)
    breakage(folder)
    out = tmp_path / "out"
    command = deckpress(*command_line(arguments, folder, out))
    assert command.exit_code in (1, 2), command.stdout + command.stderr
    check = deckpress("check", folder, *check_options)
    assert check.exit_code == max(check.exit_code, command.exit_code) != 0, check.stdout + check.stderr
    missed = [refusal for refusal in refusals(command) if not foreseen(refusal, said(check))]
    assert refusals(command) and not missed, f"check missed {missed}; it said {said(check)}"
    assert not out.exists()  # refused before anything was written


@pytest.mark.parametrize("arguments", [BUILD + ("--out", OUT), BOOKLET + ("--out", OUT), TTS + (OUT,)],
                         ids=["build", "booklet", "export-tts"])
def test_an_unfinished_translation_is_refused_by_check_at_the_text_the_command_names(tmp_path, arguments):
    folder = new_deck(tmp_path)
    translation_left_unfinished(folder)
    run = deckpress(*command_line(arguments, folder, tmp_path / "out"), "--lang", "fr")
    [refusal] = run.error_lines
    # One line a deck: how many texts are missing, where the first is, and that check lists them.
    assert run.exit_code == 1 and "`deckpress check --lang fr` lists them all" in refusal
    first = refusal.split(" at ")[-1].split(";")[0]
    check = deckpress("check", folder, "--lang", "fr")
    assert check.exit_code == 1
    assert any(line.startswith(f"{first}: the deck's name has no translation") for line in said(check)), check.stdout
    assert not (tmp_path / "out").exists()


def test_a_card_too_large_for_the_paper_is_placed_at_its_layouts_size(tmp_path):
    folder = new_deck(tmp_path)
    card_larger_than_the_paper(folder)
    build = deckpress("build", folder, "--out", tmp_path / "out", "--quiet")
    check = deckpress("check", folder)
    message = ("a 250.0 x 250.0 mm card does not fit on A4 portrait with 5 mm margins; "
               "choose a larger paper or a smaller margin")
    assert (build.exit_code, build.error_lines) == (2, [f"error: {message}"])
    size = place_of(folder / "layout.yaml", "size: [250mm")
    assert check.exit_code == 2 and f"error: {size}: {message} (size)" in check.error_lines, check.stderr


def test_a_card_too_large_for_the_paper_is_placed_at_the_decks_card_size_when_it_sets_one(tmp_path):
    folder = tmp_path / "cards" / "big"
    folder.mkdir(parents=True)
    (folder / "deck.yaml").write_text("deck: {name: Big, card_size: [500mm, 500mm]}\ncards: [{id: a}]\n")
    check = deckpress("check", folder)
    assert check.exit_code == 2
    assert (f"error: {folder / 'deck.yaml'}:1:19: a 500.0 x 500.0 mm card does not fit on A4 portrait with 5 mm "
            "margins; choose a larger paper or a smaller margin (card_size)") in check.error_lines, check.stderr


def test_a_card_too_large_sized_by_the_layout_it_extends_is_placed_there_not_at_card_size(tmp_path):
    folder = new_deck(tmp_path)
    edit(folder / "layout.yaml", "size: poker", "extends: base")
    (folder / "base.yaml").write_text("# the family's size\nsize: [250mm, 250mm]\n")
    edit(folder / "deck.yaml", "\ndeck:\n", "\ndeck:\n  card_size: [250mm, 250mm]\n")  # agrees with the layout
    check = deckpress("check", folder)
    assert check.exit_code == 2
    assert (f"error: {folder / 'base.yaml'}:2:1: a 250.0 x 250.0 mm card does not fit on A4 portrait with 5 mm "
            "margins; choose a larger paper or a smaller margin (size)") in check.error_lines, check.stderr


@pytest.mark.parametrize("size, arguments", [
    ("[150mm, 250mm]", ("build", "--duplex", "fold")),
    ("[200mm, 280mm]", ("build", "--paper", "letter")),
    ("[200mm, 280mm]", ("build", "--margin", "20")),
    ("[200mm, 280mm]", ("export", "--dpi", "1200", "--png")),
])
def test_refusals_that_hang_on_an_option_check_does_not_take_are_one_line_exit_2(tmp_path, size, arguments):
    folder = new_deck(tmp_path)
    edit(folder / "layout.yaml", "size: poker", f"size: {size}")
    (folder / "rules.md").unlink()  # the booklet's card reference is not what this is about
    assert deckpress("check", folder).exit_code == 0
    run = deckpress(arguments[0], folder, *arguments[1:], tmp_path / "out", "--quiet")
    assert run.exit_code == 2 and len(run.error_lines) == 1, run.stderr
    assert "Traceback" not in run.stderr and not (tmp_path / "out").exists()


def every_command(folder: Path, out: Path, lang: tuple[str, ...] = ()) -> dict[str, list]:
    """Every command that reads a deck, with its default options (and the duplex modes that
    lay out the sheets differently), each writing into its own folder under ``out``."""
    return {
        "build": ["build", folder, "--out", out / "build", *lang],
        "build --duplex short": ["build", folder, "--duplex", "short", "--out", out / "short", *lang],
        "build --duplex fold": ["build", folder, "--duplex", "fold", "--out", out / "fold", *lang],
        "booklet": ["booklet", folder, "--out", out / "booklet", *lang],
        "stats": ["stats", folder, *lang],
        "stats --report": ["stats", folder, "--report", out / "report" / "stats", *lang],
        "export --png": ["export", folder, "--png", out / "png", "--jobs", "1", *lang],
        "export --tts": ["export", folder, "--tts", out / "tts", "--jobs", "1", *lang],
    }


DECKS = [(CARDS / game, ()) for game in sorted(path.name for path in CARDS.iterdir() if (path / "deck.yaml").is_file())]
DECKS += [(CARDS / game, ("--lang", code.stem)) for game, _ in list(DECKS)
          for code in sorted((CARDS / game / "lang").glob("*.yaml"))]


@pytest.mark.parametrize("folder, lang", DECKS + [(None, ())],
                         ids=[f"{folder.name}{''.join(lang)}" for folder, lang in DECKS] + ["new"])
def test_when_check_passes_no_other_command_refuses_the_deck(tmp_path, folder, lang):
    folder = folder or new_deck(tmp_path)
    check = deckpress("check", folder, *lang)
    assert check.exit_code == 0, check.stdout + check.stderr
    refused = {name: run.stderr for name, words in every_command(folder, tmp_path / "out", lang).items()
               if (run := deckpress(*words, "--quiet")).exit_code != 0}
    assert not refused, refused


def test_ids_of_the_longest_length_check_allows_name_every_output_file(tmp_path):
    folder = new_deck(tmp_path)
    edit(folder / "deck.yaml", "{id: knight,", f"{{id: {'k' * MAX_ID_BYTES},")
    edit(folder / "deck.yaml", 'deck:\n  name: "Demo"', f'deck:\n  name: "Demo"\n  id: {"d" * MAX_ID_BYTES}')
    check = deckpress("check", folder)
    assert check.exit_code == 0, check.stdout + check.stderr
    refused = {name: run.stderr for name, words in every_command(folder, tmp_path / "out").items()
               if (run := deckpress(*words, "--quiet")).exit_code != 0}
    assert not refused, refused
    assert (tmp_path / "out" / "png" / f"{'k' * MAX_ID_BYTES}-front.png").is_file()
