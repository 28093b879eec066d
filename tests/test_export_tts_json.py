"""The Tabletop Simulator saved object is built from data: text in the deck cannot rewrite it.

An earlier export wrote the JSON around placeholders (``\\0guid\\0``, ``\\0deck ids\\0``) that a
card's title could hold too: the export crashed, or a deck's name came out as its list of cards.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from cli_run import deckpress
from test_export import make_deck

from generator.deck.model import load_deck
from generator.exports import load_export_renderer, plan_tts_export
from generator.exports.jsonwriter import Items, Joined, Shared, pieces
from generator.exports.tts import saved_object_text

HOSTILE = [
    "\0guid\0", "\0deck ids\0", "\0contained objects\0",       # the old placeholders
    "%s", "%d %% %(name)s %", "{0} {{ }}",                     # format strings
    '"quoted" \'single\'', "back\\slash \\u0041 \\n",          # JSON's own escapes, as text
    "\x01\x02\x07\x08\x0b\x0c\x0e\x1b[2J\x1f\x7f",             # control characters
    "</script><script>alert(1)</script> <!-- -->",             # markup
    "𝄞 🂡 \U0010fffd",                                         # beyond the Basic Multilingual Plane
    "",                                                        # nothing at all
]
"""Text no JSON writer should let change the document, in every string of the saved object."""
PLAIN_LAYOUT = """\
size: poker
elements:
  - {name: ground, rect: card, fill: "#3050c0", bleed: true, when: "name != 'never'"}
"""
"""Draws no text, so the titles need no glyphs (they only go into the saved object), but reads
the title: each card's face, and each back, is a face of its own."""


def yaml_quoted(text: str) -> str:
    """``text`` as a YAML double-quoted scalar: escapes for what YAML will not hold raw."""
    escaped = "".join(f"\\x{ord(character):02x}" if ord(character) < 0x20 or ord(character) == 0x7F
                      else "\\\\" if character == "\\" else '\\"' if character == '"' else character
                      for character in text)
    return f'"{escaped}"'


def hostile_deck(tmp_path: Path) -> Path:
    """Every hostile text as a card's title, the deck's name and description, and each back's title."""
    deck_name = "".join(HOSTILE)
    cards = "".join(f"  - {{id: card-{index}, count: 2, name: {yaml_quoted(text or 'x')},"
                    f" back: {{name: {yaml_quoted(HOSTILE[index % 2] + ' back')}}}}}\n"
                    for index, text in enumerate(HOSTILE))
    folder = make_deck(tmp_path, "cards:\n" + cards, PLAIN_LAYOUT)
    deck_file = folder / "deck.yaml"
    deck_file.write_text(deck_file.read_text().replace(
        "  name: Test Deck\n", f"  name: {yaml_quoted(deck_name)}\n  description: {yaml_quoted(deck_name)}\n"))
    return folder


def strings(value: object, path: str = "") -> list[tuple[str, str]]:
    """Every string in a JSON value, with where it is (``ObjectStates.0.Nickname``)."""
    if isinstance(value, str):
        return [(path, value)]
    if isinstance(value, dict):
        return [found for key, item in value.items() for found in strings(item, f"{path}.{key}".lstrip("."))]
    if isinstance(value, list):
        return [found for index, item in enumerate(value) for found in strings(item, f"{path}.{index}")]
    return []


def test_every_string_of_the_saved_object_round_trips_whatever_it_holds(tmp_path):
    folder = hostile_deck(tmp_path)
    assert deckpress("check", folder).exit_code == 0
    run = deckpress("export", folder, "--tts", tmp_path / "tts", "-q")
    assert run.exit_code == 0, run.stderr
    saved = json.loads((tmp_path / "tts" / "test.json").read_text(encoding="utf-8"))
    deck = load_deck(folder)
    renderer = load_export_renderer(deck)
    deck_name = "".join(HOSTILE)
    titles = {card.id: renderer.title(card, "front") for card in deck.cards}
    # A title reads as one line (control characters that break lines are spaces); the rest is kept.
    assert [titles[f"card-{index}"] for index in range(8)] == HOSTILE[:8]
    back_titles = [HOSTILE[0] + " back", HOSTILE[1] + " back"]
    assert saved["SaveName"] == deck_name
    piles = saved["ObjectStates"]
    assert [pile["Nickname"] for pile in piles] == [f"{deck_name}: {title}" for title in back_titles]
    checked = 0
    for path, text in strings(saved):
        key = path.rsplit(".", 1)[-1]
        if path in ("SaveName", "ObjectStates.0.Nickname", "ObjectStates.1.Nickname"):
            continue  # above
        if ".ContainedObjects." in path and key == "Nickname":
            card = path.split(".")[3]
            assert text == titles[piles[int(path.split(".")[1])]["ContainedObjects"][int(card)]["GMNotes"]]
        elif key == "Description" and ".ContainedObjects." not in path:
            assert text == deck_name
        elif key == "GMNotes":
            assert text in titles or text == deck.id
        elif key in ("FaceURL", "BackURL"):
            assert (tmp_path / "tts" / Path(unquote(urlsplit(text).path)).name).exists()
        elif key == "GUID":
            assert len(text) == 6 and int(text, 16) >= 0
        elif key == "Name":
            assert text == ("Card" if ".ContainedObjects." in path else "DeckCustom")
        else:
            assert text == "", path  # the game's settings, empty
        checked += 1
    assert checked > 10 * len(HOSTILE) * 2  # ten strings and more for each of the 2 copies of every card
    copies = [card for pile in piles for card in pile["ContainedObjects"]]
    assert sorted(card["Nickname"] for card in copies) == sorted(2 * list(titles.values()))


def test_deck_ids_and_cards_stay_lists_whatever_the_deck_is_named(tmp_path):
    """The deck named after a placeholder exported with its Nickname replaced by the list of cards."""
    folder = make_deck(tmp_path, "back: {name: B}\ncards:\n  - {id: a, count: 2, name: A}\n"
                                 "  - {id: b, name: \"\\0guid\\0\"}\n", PLAIN_LAYOUT)
    deck_file = folder / "deck.yaml"
    deck_file.write_text(deck_file.read_text().replace("name: Test Deck", 'name: "\\0contained objects\\0"'))
    run = deckpress("export", folder, "--tts", tmp_path / "tts", "-q")
    assert run.exit_code == 0, run.stderr
    [state] = json.loads((tmp_path / "tts" / "test.json").read_text())["ObjectStates"]
    assert state["Nickname"] == "\0contained objects\0"
    assert state["DeckIDs"] == [100, 100, 101]
    assert [card["Nickname"] for card in state["ContainedObjects"]] == ["A", "A", "\0guid\0"]


@pytest.mark.parametrize("value", [
    {"a": HOSTILE, "b": {text: text for text in HOSTILE}, "c": [], "d": {}, "e": [1, 2.5, True, None, {"x": []}],
     "f": [[[]]], "g": 0.713235259, "h": -0.0, "i": 10 ** 20},
    [], {}, "", 0, [{}], [[], {}],
])
def test_the_writer_writes_what_the_json_module_writes(value):
    assert "".join(pieces(value)) == json.dumps(value, indent=2, ensure_ascii=False)


def test_lazy_lists_and_shared_entries_write_what_plain_data_would():
    entry = {"Name": "Card", "Nickname": "\0guid\0 %s", "Transform": {"x": 1.0}, "Tags": []}
    shared = Shared(entry)
    lazy = {"list": Items(lambda: (Joined(({"GUID": guid}, shared)) for guid in HOSTILE)), "ids": Items(lambda: []),
            "nested": [Items(lambda: iter([1, 2]))]}
    plain = {"list": [{"GUID": guid, **entry} for guid in HOSTILE], "ids": [], "nested": [[1, 2]]}
    assert "".join(pieces(lazy)) == json.dumps(plain, indent=2, ensure_ascii=False)


def test_a_lone_surrogate_is_written_escaped_and_reads_back_the_same():
    text = "".join(pieces({"name": "lone \ud800 half"}))
    text.encode("utf-8")  # a file's UTF-8 can carry it
    assert json.loads(text) == {"name": "lone \ud800 half"}


def test_the_export_writes_the_saved_object_it_describes(tmp_path):
    renderer = load_export_renderer(load_deck(hostile_deck(tmp_path)))
    export = plan_tts_export(renderer, tmp_path / "tts")
    text = "".join(saved_object_text(export))
    assert text == json.dumps(json.loads(text), indent=2, ensure_ascii=False)
