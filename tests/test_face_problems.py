"""A face with several problems reports them all in one run.

``check`` promises every problem at once; a face whose title does not fit and whose picture
is missing must say both, not the first, so the designer does not mend one, run again and
only then hear of the next (nor meet it first from ``build``).
"""

from __future__ import annotations

import json
from pathlib import Path

from cli_run import Run, deckpress
from hostile_support import new_deck
from PIL import Image

LONG_NAME = "Knight of the Very Long and Extraordinarily Verbose Order of the Interminable Title"
CARDS = ("knight", "archer", "goblin", "troll", "dragon", "fireball", "shield")


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def deck_with_art(tmp_path: Path) -> Path:
    """The deck ``new`` makes, each front showing ``art/<card id>.png`` below its icon: it passes check."""
    folder = new_deck(tmp_path)
    (folder / "art").mkdir()
    for card in CARDS:
        Image.new("RGB", (60, 40), (200, 100, 50)).save(folder / "art" / f"{card}.png")
    edit(folder / "layout.yaml", '    icon: "{{ type }}"\n    box: [25%, 23%, 50%, 37%]\n    colour: accent\n',
         '    icon: "{{ type }}"\n    box: [25%, 23%, 50%, 17%]\n    colour: accent\n'
         "  - name: art\n    when: \"side == 'front'\"\n    image: \"art/{{ card.id }}.png\"\n"
         "    box: [25%, 41%, 50%, 20%]\n")
    assert deckpress("check", folder).exit_code == 0
    return folder


def knight_title_too_long(folder: Path) -> None:
    edit(folder / "deck.yaml", "name: Knight,", f'name: "{LONG_NAME}",')


def findings(folder: Path) -> tuple[int, list[dict]]:
    run = deckpress("check", folder, "--format", "json")
    report = json.loads(run.stdout)
    decks = report if isinstance(report, list) else report.get("decks", [report])
    return run.exit_code, [finding for deck in decks for finding in deck["findings"]]


def said(run: Run) -> list[str]:
    """Every line a run printed, on either stream, without the ``error: `` in front."""
    return [line.removeprefix("error: ") for line in (run.stdout + run.stderr).splitlines() if line.strip()]


def problem_lines(run: Run) -> list[str]:
    """The problems a run names, without its summary lines."""
    return [line for line in said(run) if ": deck '" in line]


def test_a_face_whose_title_does_not_fit_and_whose_art_is_missing_reports_both(tmp_path):
    folder = deck_with_art(tmp_path)
    knight_title_too_long(folder)
    (folder / "art" / "knight.png").unlink()
    code, found = findings(folder)
    assert code == 1
    assert [(f["card"], f["side"], f["element"], f["kind"]) for f in found] == [
        ("knight", "front", "title", "fit"), ("knight", "front", "art", "layout")]
    assert "does not fit" in found[0]["message"] and "image 'art/knight.png' not found" in found[1]["message"]
    assert all(f["file"].endswith("deck.yaml") and f["line"] for f in found)

    check = deckpress("check", folder)
    assert check.exit_code == 1 and "2 problems" in check.stdout
    for arguments in (("build", "--quiet"), ("build", "--quiet", "--draft")):
        build = deckpress(*arguments, folder, "--out", tmp_path / "out")
        assert build.exit_code == 1 and not (tmp_path / "out").exists()
        # build refuses what check reports, no more and no less (a draft only adds how it would print the text)
        named = [line.replace("; the draft prints it at its minimum size, cut off and marked in red", "")
                 for line in problem_lines(build)]
        assert named == problem_lines(check), arguments


def test_a_broken_picture_shown_on_two_faces_is_one_problem_beside_each_faces_others(tmp_path):
    folder = deck_with_art(tmp_path)
    knight_title_too_long(folder)
    edit(folder / "layout.yaml", 'image: "art/{{ card.id }}.png"',
         "image: \"{{ 'art/broken.png' if type == 'hero' else 'art/' ~ card.id ~ '.png' }}\"")
    (folder / "art" / "broken.png").write_text("not a picture", encoding="utf-8")
    edit(folder / "layout.yaml", 'icon: "{{ type }}"', "icon: \"{{ 'shield' if type == 'hero' else type }}\"")
    code, found = findings(folder)
    assert code == 2  # a broken file is malformed input
    faces = sorted((f["card"], f["element"], f["kind"]) for f in found)
    assert faces == [("archer", "picture", "layout"),
                     ("knight", "art", "input"), ("knight", "picture", "layout"), ("knight", "title", "fit")]
    assert sum("broken.png" in f["message"] for f in found) == 1
    assert [(f["file"], f["line"] or 0, f["column"] or 0) for f in found] == sorted(
        (f["file"], f["line"] or 0, f["column"] or 0) for f in found)  # in file and line order
    assert all("no icon named 'shield'" in f["message"] for f in found if f["element"] == "picture")


def test_a_face_with_a_glyph_no_font_has_and_a_missing_icon_reports_both(tmp_path):
    folder = deck_with_art(tmp_path)
    edit(folder / "deck.yaml", "name: Troll,", 'name: "\u30c8\u30ed\u30eb",')
    edit(folder / "layout.yaml", 'icon: "{{ type }}"', "icon: \"{{ 'troll' if name != 'Goblin' else type }}\"")
    code, found = findings(folder)
    assert code == 2  # the rules booklet's captions print the name too: no booklet font has it
    troll = [(f["element"], f["kind"]) for f in found if f["card"] == "troll"]
    assert troll == [("title", "layout"), ("picture", "layout")]
    assert any("no icon named 'troll'" in f["message"] for f in found if f["card"] == "troll")
    # every other front but the goblin's misses its icon too, each face reported once
    assert sorted(f["card"] for f in found if f["element"] == "picture") == sorted(set(CARDS) - {"goblin"})
