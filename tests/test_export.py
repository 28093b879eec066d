"""``deckpress export --png``: card images a user can send to a print service or look at."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_run import CARDS, deckpress
from PIL import Image

import generator.exports.contact as contact_module
from generator.deck.model import load_deck
from generator.exports.backs import back_file_name
from generator.exports.contact import contact_sheet, contact_tiles, plan_grid
from generator.exports.raster import PRINT_BLEED, Raster, rasterise_face, with_bleed
from generator.render import load_renderer

RED, GREEN, BLUE, YELLOW = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)

LAYOUT = """\
size: poker
bleed: 3mm
colours:
  ground: {field: colour, map: {red: "#ff0000", green: "#00ff00", blue: "#0000ff"}, default: "#ffff00"}
elements:
  - {name: background, rect: card, fill: ground, bleed: true}
  - {name: title, text: "{{ name }}", box: [5, 5, 53.5, 10], size: 12}
"""

SHARED_BACK_CARDS = """\
back:
  name: Test Deck
  colour: blue
cards:
  - {id: ogre, count: 3, name: Ogre, colour: red}
  - {id: imp, name: Imp, colour: green}
  - {id: ghost, count: 0, name: Ghost, colour: red}
"""

DOUBLE_SIDED_CARDS = """\
cards:
  - {id: sun, name: Sun, colour: red, back: {name: Moon, colour: blue}}
  - {id: frog, count: 2, name: Frog, colour: green, back: {name: Toad}}
"""

TWO_BACK_CARDS = """\
cards:
  - {id: who, count: 2, name: Who, colour: red, back: {name: Question, colour: blue}}
  - {id: what, name: What, colour: red, back: {name: Question, colour: blue}}
  - {id: aye, name: "Yes", colour: green, back: {name: Answer, colour: yellow}}
  - {id: nay, name: "No", colour: green, back: {name: Answer, colour: yellow}}
  - {id: maybe, name: Maybe, colour: green, back: {name: Answer, colour: yellow}}
"""
"""A party game's question and answer cards: each names its back, and the deck shows two."""


def make_deck(tmp_path: Path, cards: str = SHARED_BACK_CARDS, layout: str = LAYOUT, name: str = "test") -> Path:
    """A project in tmp_path (cards/<name>/deck.yaml, layouts/plain.yaml); returns the deck folder."""
    folder = tmp_path / "cards" / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "deck.yaml").write_text(
        "deck:\n  name: Test Deck\n  layout: plain\n"
        "fields:\n  name: {type: text, required: true}\n  colour: {choices: [red, green, blue, yellow]}\n"
        + cards)
    layouts = tmp_path / "layouts"
    layouts.mkdir(exist_ok=True)
    (layouts / "plain.yaml").write_text(layout)
    return folder


def png_names(folder: Path) -> list[str]:
    """Every file in ``folder`` but the exports' own manifests (leftover temporary files included)."""
    return sorted(path.name for path in folder.iterdir()
                  if not (path.name.startswith(".deckpress-") and path.name.endswith(".json")))


def centre(image: Image.Image) -> tuple[int, int, int]:
    return image.getpixel((image.width // 2, image.height // 2))


# --- sizes --------------------------------------------------------------------------------------

def test_poker_card_with_bleed_at_300_dpi_is_825_by_1125(tmp_path):
    deck = make_deck(tmp_path, "back: {name: Back}\ncards:\n  - {id: ogre, name: Ogre, colour: red}\n")
    run = deckpress("export", deck, "--png", tmp_path / "out", "--bleed", "--quiet")
    assert run.exit_code == 0, run.stderr
    for name in ("ogre-front.png", "test.back.png"):
        with Image.open(tmp_path / "out" / name) as image:
            assert image.size == (825, 1125)
            assert image.mode == "RGB"
            assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)


def test_without_bleed_the_png_is_the_trimmed_card(tmp_path):
    deck = make_deck(tmp_path)
    assert deckpress("export", deck, "--png", tmp_path / "out", "--dpi", "150", "-q").exit_code == 0
    with Image.open(tmp_path / "out" / "ogre-front.png") as image:
        assert image.size == (375, 525)  # 2.5 x 3.5 in at 150 dpi


@pytest.mark.parametrize("dpi, bleed, size", [(72, False, (180, 252)), (72, True, (198, 270)),
                                              (40, True, (110, 150)), (96, False, (240, 336))])
def test_png_size_follows_dpi_and_bleed(tmp_path, dpi, bleed, size):
    deck = make_deck(tmp_path)
    args = ["export", deck, "--png", tmp_path / "out", "--dpi", str(dpi), "-q"] + (["--bleed"] if bleed else [])
    assert deckpress(*args).exit_code == 0
    for name in ("ogre-front.png", "imp-front.png", "test.back.png"):
        with Image.open(tmp_path / "out" / name) as image:
            assert image.size == size


def test_bleed_art_reaches_the_edge_of_the_image(tmp_path):
    # The layout bleeds 3 mm; print services want 1/8 in (3.175 mm): the corners must still be art.
    deck = make_deck(tmp_path)
    assert deckpress("export", deck, "--png", tmp_path / "out", "--bleed", "--dpi", "300", "-q").exit_code == 0
    with Image.open(tmp_path / "out" / "ogre-front.png") as image:
        width, height = image.size
        for corner in ((0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)):
            assert image.getpixel(corner) == RED


# --- file names and contents ------------------------------------------------------------------

def test_one_png_per_face_shared_back_once_plus_contact_sheet(tmp_path):
    deck = make_deck(tmp_path)
    run = deckpress("export", deck, "--png", tmp_path / "out", "--dpi", "20")
    assert run.exit_code == 0, run.stderr
    # ghost has count 0: not in the printed deck, so no image
    assert png_names(tmp_path / "out") == ["imp-front.png", "ogre-front.png", "test.back.png", "test.contact-sheet.png"]
    assert "3 card images" in run.stdout and "test.contact-sheet.png" in run.stdout


def test_each_image_shows_its_own_face(tmp_path):
    deck = make_deck(tmp_path)
    assert deckpress("export", deck, "--png", tmp_path / "out", "--dpi", "30", "-q").exit_code == 0
    expected = {"ogre-front.png": RED, "imp-front.png": GREEN, "test.back.png": BLUE}
    for name, colour in expected.items():
        with Image.open(tmp_path / "out" / name) as image:
            assert centre(image) == colour, name


@pytest.mark.parametrize("paint, expected", [
    # White at 50% over the blue ground, and a gradient from red to red: what the PDF shows.
    ('fill: "#ffffff80"', (128, 128, 255)),
    ("fill: {linear: ['#ff0000', '#ff0000']}", RED),
])
def test_see_through_paint_and_gradients_show_in_the_images_as_on_the_sheet(tmp_path, paint, expected):
    """Faces are placed as forms; a form that does not name its transparency states and shadings
    in its resources paints see-through colours opaque and gradients not at all."""
    layout = LAYOUT + f"  - {{name: veil, rect: [10, 20, 43.5, 50], {paint}}}\n"
    deck = make_deck(tmp_path, layout=layout)
    assert deckpress("export", deck, "--png", tmp_path / "out", "--dpi", "30", "-q").exit_code == 0
    with Image.open(tmp_path / "out" / "test.back.png") as image:
        assert centre(image) == pytest.approx(expected, abs=2)


def test_double_sided_cards_get_a_back_image_each(tmp_path):
    deck = make_deck(tmp_path, DOUBLE_SIDED_CARDS)
    assert deckpress("export", deck, "--png", tmp_path / "out", "--dpi", "20", "-q").exit_code == 0
    assert png_names(tmp_path / "out") == ["frog-back.png", "frog-front.png", "sun-back.png", "sun-front.png",
                                           "test.contact-sheet.png"]
    with Image.open(tmp_path / "out" / "sun-back.png") as image:
        assert centre(image) == BLUE
    with Image.open(tmp_path / "out" / "frog-back.png") as image:
        assert centre(image) == YELLOW  # no colour on the toad side: the layout's default


def test_each_back_several_cards_share_is_written_once_named_by_its_face_key(tmp_path):
    folder = make_deck(tmp_path, TWO_BACK_CARDS)
    run = deckpress("export", folder, "--png", tmp_path / "out", "--dpi", "20")
    assert run.exit_code == 0, run.stderr
    renderer = load_renderer(load_deck(folder))
    deck = renderer.deck
    question, answer = (renderer.face_key(deck.card(card), "back") for card in ("who", "aye"))
    backs = [name for name in png_names(tmp_path / "out") if not name.endswith("-front.png")]
    assert backs == sorted([f"test.back-{question}.png", f"test.back-{answer}.png", "test.contact-sheet.png"])
    assert "7 card images" in run.stdout  # five fronts and two backs, not ten
    with Image.open(tmp_path / "out" / f"test.back-{question}.png") as image:
        assert centre(image) == BLUE
    with Image.open(tmp_path / "out" / f"test.back-{answer}.png") as image:
        assert centre(image) == YELLOW


def test_identical_backs_written_by_each_card_are_one_shared_back(tmp_path):
    cards = ("cards:\n  - {id: a, name: A, back: {name: Same}}\n  - {id: b, name: B, back: {name: Same}}\n"
             "  - {id: c, name: C, back: {name: Own}}\n")
    run = deckpress("export", make_deck(tmp_path, cards), "--png", tmp_path / "out", "--dpi", "20", "-q")
    assert run.exit_code == 0, run.stderr
    assert png_names(tmp_path / "out") == ["a-front.png", "b-front.png", "c-back.png", "c-front.png", "test.back.png",
                                           "test.contact-sheet.png"]


def test_two_decks_exported_into_one_folder_keep_their_own_back_and_contact_sheet(tmp_path):
    red = make_deck(tmp_path, "back: {name: Red, colour: red}\ncards:\n  - {id: ogre, name: Ogre, colour: red}\n",
                    name="red")
    blue = make_deck(tmp_path, "back: {name: Blue, colour: blue}\ncards:\n  - {id: imp, name: Imp, colour: green}\n",
                     name="blue")
    out = tmp_path / "out"
    for deck in (red, blue):
        run = deckpress("export", deck, "--png", out, "--dpi", "20")
        assert run.exit_code == 0, run.stderr
    assert f"blue.contact-sheet.png in {out}" in run.stdout
    assert png_names(out) == ["blue.back.png", "blue.contact-sheet.png", "imp-front.png", "ogre-front.png",
                              "red.back.png", "red.contact-sheet.png"]
    with Image.open(out / "red.back.png") as red_back, Image.open(out / "blue.back.png") as blue_back:
        assert (centre(red_back), centre(blue_back)) == (RED, BLUE)
    colours = []
    for name in ("red", "blue"):
        with Image.open(out / f"{name}.contact-sheet.png") as sheet:
            colours.append({colour for _, colour in sheet.convert("RGB").getcolors(1_000_000)})
    assert BLUE not in colours[0] and GREEN not in colours[0] and BLUE in colours[1] and GREEN in colours[1]
    assert deckpress("export", red, "--png", out, "--dpi", "20", "-q").exit_code == 0  # again: the other deck stays
    assert {"blue.back.png", "blue.contact-sheet.png", "imp-front.png"} <= set(png_names(out))


def test_a_back_file_name_too_long_for_the_disk_is_named_by_a_digest():
    key = "a" * 300 + "_0123456789abcdef0123"
    name = back_file_name("back-", key)
    assert name.startswith("back-") and name.endswith(".png") and len(name) == len("back-.png") + 20
    assert back_file_name("back-", "plain_0123456789abcdef0123") == "back-plain_0123456789abcdef0123.png"


def test_same_input_same_bytes(tmp_path):
    deck = make_deck(tmp_path)
    for out in ("first", "second"):
        assert deckpress("export", deck, "--png", tmp_path / out, "--tts", tmp_path / f"{out}-tts",
                         "--dpi", "20", "-q").exit_code == 0
    for name in png_names(tmp_path / "first"):
        assert (tmp_path / "first" / name).read_bytes() == (tmp_path / "second" / name).read_bytes(), name
    for name in ("test-faces-1.png", "test-back.png"):
        assert (tmp_path / "first-tts" / name).read_bytes() == (tmp_path / "second-tts" / name).read_bytes()


def test_png_files_carry_no_timestamp(tmp_path):
    deck = make_deck(tmp_path)
    assert deckpress("export", deck, "--png", tmp_path / "out", "--dpi", "20", "-q").exit_code == 0
    data = (tmp_path / "out" / "ogre-front.png").read_bytes()
    assert b"tIME" not in data and b"tEXt" not in data


# --- the contact sheet --------------------------------------------------------------------------

def test_contact_sheet_captions_every_printed_card_with_its_count_then_the_back(tmp_path):
    renderer = load_renderer(load_deck(make_deck(tmp_path)))
    tiles = contact_tiles(renderer)
    assert [(tile.name, tile.count, tile.sides) for tile in tiles] == [
        ("Ogre", "3 copies", ("front",)), ("Imp", "1 copy", ("front",)), ("Back", "all 4 cards", ("back",))]


def test_contact_sheet_shows_both_sides_of_double_sided_cards(tmp_path):
    renderer = load_renderer(load_deck(make_deck(tmp_path, DOUBLE_SIDED_CARDS)))
    tiles = contact_tiles(renderer)
    assert [(tile.name, tile.count, tile.sides) for tile in tiles] == [
        ("Sun / Moon", "1 copy", ("front", "back")), ("Frog / Toad", "2 copies", ("front", "back"))]


def test_a_shared_back_is_one_tile_beside_the_double_sided_cards_own_backs(tmp_path):
    cards = ("back: {name: Shared, colour: blue}\ncards:\n  - {id: ogre, count: 3, name: Ogre, colour: red}\n"
             "  - {id: sun, name: Sun, colour: green, back: {name: Moon, colour: yellow}}\n")
    deck = make_deck(tmp_path, cards)
    renderer = load_renderer(load_deck(deck))
    assert [(tile.name, tile.count, tile.sides) for tile in contact_tiles(renderer)] == [
        ("Ogre", "3 copies", ("front",)), ("Sun / Moon", "1 copy", ("front", "back")), ("Back", "3 cards", ("back",))]
    assert deckpress("export", deck, "--png", tmp_path / "out", "--dpi", "20", "-q").exit_code == 0
    grid = plan_grid(3, renderer.card_size, 2)
    face_width = renderer.card_size[0] * contact_module.THUMB_SCALE
    scale = 96 / 72
    with Image.open(tmp_path / "out" / "test.contact-sheet.png") as sheet:
        sheet = sheet.convert("RGB")
        assert sheet.size == (round(grid.size[0] * scale), round(grid.size[1] * scale))

        def face(index: int, side: int) -> tuple[int, int, int]:
            left, top = grid.origin(index)
            middle = (left + side * (face_width + contact_module.PAIR_GAP) + face_width / 2, top + grid.thumb[1] / 2)
            return sheet.getpixel(tuple(round(length * scale) for length in middle))

        # the ogre's front, the shared back not beside it; the sun and its moon; the shared back once
        assert [face(0, 0), face(0, 1), face(1, 0), face(1, 1), face(2, 0)] == [
            RED, tuple(round(channel * 255) for channel in contact_module.BACKGROUND.rgb()), GREEN, YELLOW, BLUE]


def test_contact_sheet_ends_with_a_tile_for_each_shared_back(tmp_path):
    renderer = load_renderer(load_deck(make_deck(tmp_path, TWO_BACK_CARDS)))
    tiles = contact_tiles(renderer)
    assert [(tile.name, tile.count, tile.sides) for tile in tiles][-2:] == [
        ("Back: Question", "3 cards", ("back",)), ("Back: Answer", "3 cards", ("back",))]
    assert all(tile.sides == ("front",) for tile in tiles[:-2]) and len(tiles) == 7


def test_a_large_contact_sheet_drawn_in_bands_shows_what_one_page_would(tmp_path, monkeypatch):
    cards = "back: {name: Back, colour: blue}\ncards:\n" + "".join(
        f"  - {{id: card-{number}, name: Card {number}, colour: {('red', 'green', 'yellow')[number % 3]}}}\n"
        for number in range(40))
    renderer = load_renderer(load_deck(make_deck(tmp_path, cards)))
    whole = contact_sheet(renderer, dpi=30)
    drawn: list[str] = []
    original = contact_module._draw_tile
    monkeypatch.setattr(contact_module, "_draw_tile", lambda canvas, renderer, tile, *rest: (
        drawn.append(tile.name), original(canvas, renderer, tile, *rest)))
    monkeypatch.setattr(contact_module, "BAND_TILE_ROWS", 1)  # a band for each row of tiles
    banded = contact_sheet(renderer, dpi=30)
    grid = plan_grid(41, renderer.card_size)
    assert len(contact_module.band_breaks(grid, whole.size)) == grid.rows - 1 > 3
    assert sorted(drawn) == sorted({*drawn}) and len(drawn) == 41  # each tile once, in its band alone
    assert banded.tobytes() == whole.tobytes()  # the bands meet between rows of tiles


def test_a_contact_sheet_past_its_pixel_budget_is_drawn_coarser(tmp_path, monkeypatch):
    cards = "back: {name: Back}\ncards:\n" + "".join(
        f"  - {{id: card-{number}, name: Card {number}}}\n" for number in range(30))
    renderer = load_renderer(load_deck(make_deck(tmp_path, cards)))
    monkeypatch.setattr(contact_module, "MAX_CONTACT_PIXELS", 200_000)
    sheet = contact_sheet(renderer)
    assert 150_000 < sheet.width * sheet.height <= 200_000


def test_contact_sheet_grid_holds_every_tile_and_draws_each_card(tmp_path):
    deck = make_deck(tmp_path)
    assert deckpress("export", deck, "--png", tmp_path / "out", "--dpi", "20", "-q").exit_code == 0
    renderer = load_renderer(load_deck(deck))
    grid = plan_grid(3, renderer.card_size)
    assert grid.columns * grid.rows >= 3
    with Image.open(tmp_path / "out" / "test.contact-sheet.png") as sheet:
        sheet = sheet.convert("RGB")
        assert sheet.size == (round(grid.size[0] * 96 / 72), round(grid.size[1] * 96 / 72))
        scale = 96 / 72
        for index, colour in enumerate((RED, GREEN, BLUE)):  # ogre, imp, then the back
            left, top = grid.origin(index)
            middle = ((left + grid.thumb[0] / 2) * scale, (top + grid.thumb[1] / 2) * scale)
            assert sheet.getpixel(tuple(map(round, middle))) == colour


def test_every_bundled_deck_exports_its_faces(tmp_path):
    for game in ("cereal-killer", "goblins", "gold-rush", "tiki"):
        deck = load_deck(CARDS / game)
        out = tmp_path / game
        run = deckpress("export", CARDS / game, "--png", out, "--dpi", "10", "-q")
        assert run.exit_code == 0, run.stderr
        printed = [card for card in deck.cards if card.count > 0]
        own_backs = [card for card in printed if card.back is not None]  # every back the bundled decks name differs
        shared = any(card.back is None for card in printed)
        expected = {f"{card.id}-front.png" for card in printed} | {f"{card.id}-back.png" for card in own_backs}
        expected |= {f"{game}.back.png"} if shared else set()
        assert set(png_names(out)) == expected | {f"{game}.contact-sheet.png"}, game


# --- rasterising ----------------------------------------------------------------------------------

def test_raster_sizes_round_to_whole_pixels():
    assert Raster.at_dpi((180.00000000000003, 252.00000000000003), PRINT_BLEED, 300).size_px == (825, 1125)
    assert Raster.at_dpi((126.14, 180.0), 0.0, 300).size_px == (526, 750)


def test_a_renderer_without_the_print_bleed_is_refused(tmp_path):
    deck = load_deck(make_deck(tmp_path))
    renderer = load_renderer(deck)  # bleeds 3 mm, not 1/8 in
    raster = Raster.at_dpi(renderer.card_size, PRINT_BLEED, 20)
    with pytest.raises(ValueError):
        rasterise_face(renderer, deck.card("ogre"), "front", raster)
    image = rasterise_face(with_bleed(renderer, PRINT_BLEED), deck.card("ogre"), "front", raster)
    assert image.size == raster.size_px


# --- mistakes -------------------------------------------------------------------------------------

def test_a_card_that_cannot_be_laid_out_stops_before_any_file_is_written(tmp_path):
    layout = LAYOUT.replace("size: 12}", "size: 12, min_size: 11}")
    cards = SHARED_BACK_CARDS.replace("name: Imp,", "name: Imp the Unbelievably Long-Winded Pest of Mount Doom,")
    deck = make_deck(tmp_path, cards, layout)
    run = deckpress("export", deck, "--png", tmp_path / "out", "--tts", tmp_path / "tts")
    assert run.exit_code == 1
    assert len(run.error_lines) == 1 and "card 'imp'" in run.error_lines[0]
    assert "deck.yaml:" in run.error_lines[0]
    assert not (tmp_path / "out").exists() and not (tmp_path / "tts").exists()


@pytest.mark.parametrize("args, message", [
    ([], "--png DIR, --tts DIR or both"),
    (["--tts", "out", "--bleed"], "--bleed applies to --png"),
    (["--tts", "out", "--dpi", "100"], "--dpi applies to --png"),
    (["--png", "out", "--dpi", "5"], "--dpi"),
])
def test_usage_mistakes_exit_2(tmp_path, args, message):
    deck = make_deck(tmp_path)
    run = deckpress("export", deck, *args)
    assert run.exit_code == 2
    assert message in run.stderr


def test_missing_deck_is_one_line_exit_2(tmp_path):
    run = deckpress("export", tmp_path / "nowhere", "--png", tmp_path / "out")
    assert run.exit_code == 2
    assert run.error_lines == [f"error: {tmp_path / 'nowhere'}: no such deck file or folder"]


def test_a_folder_of_several_decks_is_refused(tmp_path):
    make_deck(tmp_path, name="one")
    make_deck(tmp_path, name="two")
    run = deckpress("export", tmp_path / "cards", "--png", tmp_path / "out")
    assert run.exit_code == 2
    assert "export takes one deck" in run.stderr


def test_quiet_prints_nothing(tmp_path):
    deck = make_deck(tmp_path)
    run = deckpress("export", deck, "--png", tmp_path / "out", "--tts", tmp_path / "tts", "--dpi", "20", "--quiet")
    assert run.exit_code == 0
    assert run.stdout == "" and run.stderr == ""


def test_help_explains_bleed_and_sharing_tts_decks():
    text = " ".join(deckpress("export", "--help").stdout.split())
    assert "1/8 in (3.175 mm)" in text and "825x1125" in text
    assert "file://" in text and "upload DIR's images and export again with --url-base" in text
    assert "--tts-split FIELD" in text


@pytest.mark.parametrize("target", [["--png", "out"], ["--tts", "tts"], ["--png", "out", "--tts", "tts"]])
def test_a_deck_whose_counts_are_all_0_is_refused_like_build(tmp_path, target):
    deck = make_deck(tmp_path, "back: {name: B}\ncards:\n  - {id: gone, count: 0, name: Gone}\n"
                               "  - {id: lost, count: 0, name: Lost}\n")
    run = deckpress("export", deck, *[tmp_path / arg if arg in ("out", "tts") else arg for arg in target])
    assert run.exit_code == 2
    assert len(run.error_lines) == 1
    assert "nothing to print: every card's count is 0" in run.error_lines[0]
    assert f"{deck / 'deck.yaml'}:" in run.error_lines[0] and "(count)" in run.error_lines[0]
    assert not (tmp_path / "out").exists() and not (tmp_path / "tts").exists()
    build = deckpress("build", deck, "--out", tmp_path / "pdf")
    assert build.exit_code == 2 and "nothing to print" in build.stderr
