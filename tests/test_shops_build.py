"""``build DECK --for SHOP`` writes what the shop takes, read back as the shop would read it;
``check --for SHOP`` finds what the shop rejects, and ``build --for`` refuses the same."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import colorspacious
import pdfplumber
import pytest
from cli_run import CARDS, deckpress
from PIL import Image, ImageCms
from pypdf import PdfReader
from shops_support import RGB_OPERATOR, add_element, colour_spaces, decoded_streams, fonts, small_deck

from generator.deck.model import MAX_ID_BYTES, load_deck
from generator.errors import LayoutError
from generator.render import load_renderer
from generator.shops import inks as inks_module
from generator.shops.inks import INTENT, PressInks
from generator.shops.presets import BUNDLED_PROFILES, find_preset
from generator.shops.press import press_for_shop


@pytest.fixture(scope="module")
def cereal_killer_dtc(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dtc")
    run = deckpress("build", CARDS / "cereal-killer", "--for", "drivethrucards", "--out", out, "--quiet")
    assert run.exit_code == 0, run.stderr
    return out / "cereal-killer.drivethrucards.pdf"


def test_drivethrucards_gets_two_pages_a_card_of_the_card_with_its_bleed(cereal_killer_dtc):
    reader = PdfReader(cereal_killer_dtc)
    total = load_deck(CARDS / "cereal-killer" / "deck.yaml").total
    assert len(reader.pages) == 2 * total == 304
    for page in reader.pages:
        assert [float(v) for v in page.mediabox] == [0, 0, 198, 270]
        assert [float(v) for v in page.trimbox] == [9, 9, 189, 261]  # 180 x 252 pt, centred
        assert [float(v) for v in page.bleedbox] == [0, 0, 198, 270]


def test_each_card_is_its_back_then_its_front(cereal_killer_dtc):
    deck = load_deck(CARDS / "cereal-killer" / "deck.yaml")
    first = deck.cards[0]
    with pdfplumber.open(cereal_killer_dtc) as pdf:
        texts = [pdf.pages[index].extract_text() or "" for index in range(4)]
    back_title = deck.name.upper().split()[0]
    assert back_title in texts[0] and back_title in texts[2]
    assert first.fields["name"].split()[0] in texts[1] and first.fields["name"].split()[0] in texts[3]
    assert first.fields["name"].split()[0] not in texts[0]


def test_the_file_is_pdf_x1a_with_a_cmyk_output_intent_and_no_rgb_anywhere(cereal_killer_dtc):
    data = cereal_killer_dtc.read_bytes()
    reader = PdfReader(cereal_killer_dtc)
    assert data.startswith(b"%PDF-1.4")
    info = reader.metadata
    assert info["/GTS_PDFXVersion"] == "PDF/X-1a:2003" and info["/Trapped"] == "/False"
    intent = reader.trailer["/Root"]["/OutputIntents"][0].get_object()
    assert intent["/S"] == "/GTS_PDFX" and intent["/OutputConditionIdentifier"] == "CGATS TR 003"
    profile = intent["/DestOutputProfile"].get_object()
    assert profile["/N"] == 4
    assert ImageCms.ImageCmsProfile(io.BytesIO(profile.get_data())).profile.xcolor_space.strip() == "CMYK"
    for obj, stream in decoded_streams(reader):
        if obj.get("/Subtype") in ("/Image", None) and obj.get("/N") == 4:
            continue  # the profile itself
        assert b"/DeviceRGB" not in stream and not RGB_OPERATOR.search(stream), obj
    assert b"/DeviceRGB" not in data
    assert "/DeviceRGB" not in colour_spaces(reader)


def test_every_font_is_embedded(cereal_killer_dtc):
    found = fonts(PdfReader(cereal_killer_dtc))
    assert found and all(found.values()), found


def test_colours_come_back_from_the_press_profile_close_to_the_rgb_original():
    """Converted through the profile and back, a layout's colour is the colour designed, not washed out."""
    inks = PressInks(find_preset("drivethrucards"))
    back = ImageCms.buildTransform(inks.profile, ImageCms.createProfile("sRGB"), "CMYK", "RGB", INTENT)
    for hex_colour in ("#b3261e", "#2d63b3", "#845a4c", "#f3e3c3", "#4d7c2a"):
        rgb = tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
        cmyk = inks.colour(hex_colour)
        assert inks.total(cmyk) <= 240 + 1.6
        pixel = Image.new("CMYK", (1, 1), tuple(round(part * 255) for part in
                                                 (cmyk.cyan, cmyk.magenta, cmyk.yellow, cmyk.black)))
        returned = ImageCms.applyTransform(pixel, back).getpixel((0, 0))
        # CAM02-UCS distance: about 1 is the least difference seen side by side; the most saturated
        # red a 240% press cannot reach loses a little of its depth, nothing looks washed out.
        assert colorspacious.deltaE(rgb, returned, input_space="sRGB255") < 6, (hex_colour, returned)
    assert (inks.colour("#000000").cyan, inks.colour("#000000").black) == (0.6, 1.0)  # the shop's rich black


def test_the_same_deck_builds_the_same_bytes(tmp_path, cereal_killer_dtc):
    deck = small_deck(tmp_path)
    first, second = tmp_path / "a", tmp_path / "b"
    for out in (first, second):
        assert deckpress("build", deck, "--for", "drivethrucards", "--out", out, "-q").exit_code == 0
    assert (first / "demo.drivethrucards.pdf").read_bytes() == (second / "demo.drivethrucards.pdf").read_bytes()


def test_the_game_crafter_gets_one_825_by_1125_image_a_face_named_after_it(tmp_path):
    run = deckpress("build", CARDS / "goblins", "--for", "thegamecrafter", "--out", tmp_path)
    assert run.exit_code == 0, run.stderr
    folder = tmp_path / "goblins.thegamecrafter"
    deck = load_deck(CARDS / "goblins" / "deck.yaml")
    expected = {f"{card.id}-{side}.png" for card in deck.cards if card.count for side in ("front", "back")}
    assert {path.name for path in folder.iterdir() if not path.name.startswith(".")} == expected
    for path in folder.glob("*.png"):
        with Image.open(path) as image:
            assert image.size == (825, 1125) and image.mode == "RGB"
    assert f"wrote {folder} ({len(expected)} images, {deck.total} cards) for The Game Crafter" in run.stdout


def test_the_game_crafter_s_images_are_the_same_drawn_on_one_core_or_several(tmp_path):
    renderer = load_renderer(load_deck(CARDS / "goblins"))
    preset = find_preset("thegamecrafter")
    folders = []
    for jobs in (1, 2):
        result = press_for_shop(renderer, preset, None, tmp_path / str(jobs), jobs=jobs)
        folders.append({path.name: path.read_bytes() for path in result.path.iterdir()})
    assert len(folders[0]) > 10 and folders[0] == folders[1]


def test_a_shared_back_is_one_image(tmp_path):
    assert deckpress("build", CARDS / "cereal-killer", "--for", "thegamecrafter", "--out", tmp_path,
                     "-q").exit_code == 0
    names = {path.name for path in (tmp_path / "cereal-killer.thegamecrafter").glob("*.png")}
    assert "back.png" in names and not any(name.endswith("-back.png") for name in names)


def deck_of_rows(root: Path, rows: str) -> Path:
    """The small deck with its cards read from cards.csv (``rows`` under its header line) and one rule."""
    deck = small_deck(root)
    (deck / "cards.csv").write_text("id,name,type,power,text,qty,back.name\n" + rows, encoding="utf-8")
    path = deck / "deck.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[:text.index("\ncards:")] + "\ncards: {from: cards.csv}\n"
                    "rules:\n  - {total: 4, message: four cards}\n", encoding="utf-8")
    return deck


def test_each_card_with_a_back_of_its_own_gets_its_back_and_the_rest_share_back_png(tmp_path):
    deck = deck_of_rows(tmp_path, "a,Alpha,hero,1,Hit.,1,Event\nb,Beta,hero,2,Hit.,1,\n"
                                  "c,Gamma,monster,3,,1,Event\nd,Delta,spell,,Zap.,1,Demo\n")
    run = deckpress("build", deck, "--for", "thegamecrafter", "--out", tmp_path / "out")
    assert run.exit_code == 0, run.stderr
    folder = tmp_path / "out" / "demo.thegamecrafter"
    images = {path.name: path.read_bytes() for path in folder.iterdir() if not path.name.startswith(".")}
    # a and c have the same back of their own, each its file; d's own back is drawn as the deck's back is
    assert sorted(images) == ["a-back.png", "a-front.png", "b-front.png", "back.png", "c-back.png",
                              "c-front.png", "d-front.png"]
    assert images["a-back.png"] == images["c-back.png"] != images["back.png"]
    assert f"wrote {folder} (7 images, 4 cards) for The Game Crafter" in run.stdout


def test_cards_without_a_back_of_their_own_showing_different_backs_each_get_theirs(tmp_path):
    deck = deck_of_rows(tmp_path, "a,Alpha,hero,1,Hit.,1,\nb,Beta,hero,2,Hit.,1,\n"
                                  "c,Gamma,monster,3,,1,\nd,Delta,spell,,Zap.,1,\n")
    add_element(deck, """  - name: back-id
    when: "side == 'back'"
    text: "{{ card.id }}"
    box: [40%, 80%, 20%, 5%]
""")
    assert deckpress("build", deck, "--for", "thegamecrafter", "--out", tmp_path / "out", "-q").exit_code == 0
    names = sorted(path.name for path in (tmp_path / "out" / "demo.thegamecrafter").glob("*.png"))
    assert names == sorted(f"{card}-{side}.png" for card in "abcd" for side in ("front", "back"))


@pytest.mark.parametrize("shop", ["drivethrucards", "thegamecrafter"])
def test_every_bundled_deck_passes_the_shops_checks(shop):
    run = deckpress("check", CARDS, "--for", shop)
    assert run.exit_code == 0, run.stdout + run.stderr


TOO_CLOSE = """  - name: corner-note
    when: "side == 'front'"
    text: "NOTE"
    box: [2mm, 40%, 20mm, 4mm]
    size: 6
"""


def test_check_names_the_card_element_and_how_far_text_reaches_into_the_unsafe_margin(tmp_path):
    deck = small_deck(tmp_path)
    add_element(deck, TOO_CLOSE.replace("2mm", "4mm"))  # inside the layout's own 3.5 mm, not DriveThru's 3.175
    assert deckpress("check", deck, "--for", "drivethrucards").exit_code == 0
    run = deckpress("check", deck, "--for", "thegamecrafter", "--format", "json")
    assert run.exit_code == 1
    findings = [each for each in json.loads(run.stdout)["decks"][0]["findings"] if each["kind"] == "shop"]
    note = next(each for each in findings if each["element"] == "corner-note")
    assert note["rule"] == "safe-zone" and note["card"] == "knight" and note["reach_mm"] == pytest.approx(2.35)
    assert "text 'corner-note' on card 'knight' (front) reaches 2.35 mm into The Game Crafter's unsafe margin" \
        in note["message"]
    assert note["file"] == str(deck / "layout.yaml")


def test_build_for_a_shop_refuses_what_check_for_it_refuses_and_writes_nothing(tmp_path):
    deck = small_deck(tmp_path)
    add_element(deck, TOO_CLOSE.replace("2mm", "4mm"))
    run = deckpress("build", deck, "--for", "thegamecrafter", "--out", tmp_path / "out")
    assert run.exit_code == 1
    assert "reaches 2.35 mm into The Game Crafter's unsafe margin" in run.stderr
    assert not (tmp_path / "out").exists()


def test_transparency_is_refused_for_pdf_x1a_naming_card_and_element_and_allowed_in_pdf_x4(tmp_path):
    deck = small_deck(tmp_path)
    add_element(deck, """  - name: glow
    when: "type == 'spell'"
    ellipse: [30%, 30%, 40%, 20%]
    fill: gold
    opacity: 0.5
""")
    run = deckpress("check", deck, "--for", "drivethrucards")
    assert run.exit_code == 1
    assert "'glow' on card 'fireball' (front) has opacity 0.5; PDF/X-1a:2003 (DriveThruCards) allows no " \
           "transparency" in run.stdout
    assert deckpress("build", deck, "--for", "drivethrucards", "--out", tmp_path / "x1a").exit_code == 1
    assert not (tmp_path / "x1a").exists()
    assert deckpress("build", deck, "--for", "press-3mm", "--out", tmp_path / "x4", "-q").exit_code == 0
    reader = PdfReader(tmp_path / "x4" / "demo.press-3mm.pdf")
    assert reader.metadata["/GTS_PDFXVersion"] == "PDF/X-4"
    assert b"GTS_PDFXVersion>PDF/X-4" in reader.trailer["/Root"]["/Metadata"].get_object().get_data()


def see_through_png(path: Path, size: tuple[int, int], alpha: int = 255) -> Path:
    Image.new("RGBA", size, (40, 120, 200, alpha)).save(path)
    return path


def write_art(deck: Path, size: tuple[int, int]) -> None:
    """The art of :func:`hero_and_monster_art`: a see-through PNG and a JPEG photo of ``size`` pixels."""
    see_through_png(deck / "art.png", size)
    Image.new("RGB", size, (200, 60, 40)).save(deck / "photo.jpg", quality=95)


def hero_and_monster_art(tmp_path: Path, size: tuple[int, int]) -> Path:
    """The small deck with raster art in a 20 x 10 mm box: a PNG on heroes, a JPEG on monsters."""
    deck = small_deck(tmp_path)
    write_art(deck, size)
    add_element(deck, """  - name: art
    when: "type == 'hero'"
    image: art.png
    box: [21.75mm, 55mm, 20mm, 10mm]
  - name: photo
    when: "type == 'monster'"
    image: photo.jpg
    box: [21.75mm, 55mm, 20mm, 10mm]
""")
    return deck


def test_raster_art_becomes_cmyk_and_low_resolution_art_is_named(tmp_path):
    deck = hero_and_monster_art(tmp_path, (200, 100))
    run = deckpress("check", deck, "--for", "drivethrucards")
    assert run.exit_code == 1
    assert "image 'art.png' of 'art' on card 'knight' (front) prints at 254 dpi (200 x 100 pixels over " \
           "20 x 10 mm); DriveThruCards asks for 300 dpi: use an image of at least 237 x 119 pixels" in run.stdout
    assert "image 'photo.jpg' of 'photo' on card 'goblin' (front)" in run.stdout
    write_art(deck, (1200, 600))
    assert deckpress("check", deck, "--for", "drivethrucards").exit_code == 0
    assert deckpress("build", deck, "--for", "drivethrucards", "--out", tmp_path / "out", "-q").exit_code == 0
    reader = PdfReader(tmp_path / "out" / "demo.drivethrucards.pdf")
    images = [obj for obj, _ in decoded_streams(reader) if obj.get("/Subtype") == "/Image"]
    assert {str(image["/ColorSpace"]) for image in images} == {"/DeviceCMYK"}
    # JPEG art stays JPEG (a CMYK one), the rest is stored losslessly
    assert {str(image["/Filter"][-1] if isinstance(image["/Filter"], list) else image["/Filter"])
            for image in images} == {"/FlateDecode", "/DCTDecode"}


def test_build_for_a_cmyk_shop_converts_each_image_once_and_embeds_what_the_check_measured(
        tmp_path, monkeypatch):
    """The shop's ink check and the drawing share each image's resampled CMYK pixels; with no
    room kept for them (MAX_KEPT_ART_BYTES), the drawing converts them again, to the same bytes."""
    deck = hero_and_monster_art(tmp_path, (1200, 600))
    decoded: list[str] = []
    real = inks_module.decoded_art

    def counted(path, resample, resample_filter):
        decoded.append(Path(path).name)
        return real(path, resample, resample_filter)

    monkeypatch.setattr(inks_module, "decoded_art", counted)
    assert deckpress("build", deck, "--for", "drivethrucards", "--out", tmp_path / "shared", "-q").exit_code == 0
    assert sorted(decoded) == ["art.png", "photo.jpg"]
    decoded.clear()
    monkeypatch.setattr(inks_module, "MAX_KEPT_ART_BYTES", 0)
    assert deckpress("build", deck, "--for", "drivethrucards", "--out", tmp_path / "again", "-q").exit_code == 0
    assert sorted(decoded) == ["art.png", "art.png", "photo.jpg", "photo.jpg"]
    shared = (tmp_path / "shared" / "demo.drivethrucards.pdf").read_bytes()
    assert shared == (tmp_path / "again" / "demo.drivethrucards.pdf").read_bytes()
    decoded.clear()
    assert deckpress("check", deck, "--for", "drivethrucards").exit_code == 0
    assert sorted(decoded) == ["art.png", "photo.jpg"]


def test_art_measured_twice_in_one_build_is_converted_and_kept_once(tmp_path, monkeypatch):
    """Two decks of one ``build --for`` showing one image alike share the press's inks: the
    second measure finds the art kept, and the drawing takes it once."""
    art = see_through_png(tmp_path / "art.png", (300, 200))
    decoded: list[Path] = []
    real = inks_module.decoded_art
    monkeypatch.setattr(inks_module, "decoded_art", lambda *args: decoded.append(args[0]) or real(*args))
    inks = PressInks(find_preset("drivethrucards"), keep_art=True)
    first, second = inks.art(art, None), inks.art(art, None)
    assert second is first and decoded == [art]
    inks.conversion()(art, None)
    inks.conversion()(art, None)  # taken: the next drawing converts it anew
    assert decoded == [art, art]


def test_soft_edged_art_is_refused_for_pdf_x1a(tmp_path):
    deck = small_deck(tmp_path)
    see_through_png(deck / "art.png", (1200, 600), alpha=128)
    add_element(deck, """  - name: art
    when: "type == 'hero'"
    image: art.png
    box: [21.75mm, 55mm, 20mm, 10mm]
""")
    run = deckpress("check", deck, "--for", "drivethrucards")
    assert run.exit_code == 1 and "'art' on card 'knight' (front) shows 'art.png', an image with soft" in run.stdout
    assert deckpress("build", deck, "--for", "press-3mm", "--out", tmp_path / "x4", "-q").exit_code == 0
    reader = PdfReader(tmp_path / "x4" / "demo.press-3mm.pdf")
    images = [obj for obj, _ in decoded_streams(reader) if obj.get("/Subtype") == "/Image"]
    assert any("/SMask" in image for image in images)


def test_a_card_size_the_shop_does_not_print_is_named(tmp_path):
    deck = small_deck(tmp_path)
    layout = deck / "layout.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace("size: poker", "size: tarot"), encoding="utf-8")
    run = deckpress("check", deck, "--for", "drivethrucards")
    assert run.exit_code == 1
    assert "DriveThruCards prints poker (63.5 x 88.9 mm) cards; deck 'demo' has 69.9 x 120.7 mm cards" in run.stdout
    assert deckpress("check", deck, "--for", "press-3mm").exit_code == 0  # the generic press prints any size


def test_sheet_options_and_unknown_shops_are_usage_errors(tmp_path):
    run = deckpress("build", CARDS / "tiki", "--for", "drivethrucards", "--paper", "letter", "--out", tmp_path)
    assert run.exit_code == 2 and "--paper shapes print sheets" in run.stderr
    run = deckpress("build", CARDS / "tiki", "--for", "drivethru", "--out", tmp_path)
    assert run.exit_code == 2 and "unknown shop 'drivethru'; did you mean 'drivethrucards'?" in run.stderr
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("option", [["--paper", "letter"], ["--cutter", "silhouette"], ["--duplex", "short"],
                                    ["--orientation", "landscape"], ["--cutter", "silhouette-4"]])
def test_check_for_a_shop_refuses_the_sheet_options_build_for_it_refuses(tmp_path, option):
    """check is the contract: it must not pass a command line build then refuses."""
    expected = f"{option[0]} shapes print sheets"
    built = deckpress("build", CARDS / "tiki", "--for", "drivethrucards", *option, "--out", tmp_path)
    checked = deckpress("check", CARDS / "tiki", "--for", "drivethrucards", *option)
    assert (built.exit_code, checked.exit_code) == (2, 2)
    assert expected in built.stderr and expected in checked.stderr
    assert deckpress("check", CARDS / "tiki", *option).exit_code == 0  # without --for they are check's to take


def test_a_deck_brings_its_own_preset(tmp_path):
    deck = small_deck(tmp_path)
    (deck / "shops").mkdir()
    (deck / "shops" / "local.yaml").write_text(
        "name: Local copy shop\nbleed: 2mm\nsafe: 3mm\ndpi: 300\ncolour: rgb\noutput: image-per-face\n"
        "naming: '{side}-of-{card}'\nshared_back: all-backs\nimage_format: jpeg\n", encoding="utf-8")
    assert deckpress("build", deck, "--for", "local", "--out", tmp_path / "out", "-q").exit_code == 0
    names = sorted(path.name for path in (tmp_path / "out" / "demo.local").glob("*.jpg"))
    assert "all-backs.jpg" in names and "front-of-knight.jpg" in names
    with Image.open(tmp_path / "out" / "demo.local" / "front-of-knight.jpg") as image:
        assert image.size == (round((63.5 + 4) / 25.4 * 300), round((88.9 + 4) / 25.4 * 300))


def test_gradients_and_svg_art_are_drawn_in_the_press_inks(tmp_path):
    deck = small_deck(tmp_path)  # its icons are SVG files
    add_element(deck, """  - name: sheen
    when: "type == 'spell'"
    rect: [30%, 62%, 40%, 3mm]
    fill: {linear: [gold, "#fff4c0", gold], angle: 90}
""")
    assert deckpress("build", deck, "--for", "drivethrucards", "--out", tmp_path / "out", "-q").exit_code == 0
    pdf = tmp_path / "out" / "demo.drivethrucards.pdf"
    reader = PdfReader(pdf)
    shadings = [obj for obj, _ in decoded_streams(reader)] + [
        reader.get_object(number) for number in range(1, int(reader.trailer["/Size"]))
        if isinstance(reader.get_object(number), dict) and "/ShadingType" in reader.get_object(number)]
    assert any(str(each.get("/ColorSpace")) == "/DeviceCMYK" for each in shadings if "/ShadingType" in each)
    assert deckpress("preflight", pdf, "--for", "drivethrucards").exit_code == 0


def art_deck(root: Path, ink_limit: int, cards: tuple[tuple[str, str], ...] = (("d2", "stripe.png"),),
             elements: str = "") -> Path:
    """A one-layout deck showing each card's ``art/<file>`` on its front in a 40 mm box, with a preset
    of its own, ``shops/mid-ink.yaml``: DriveThruCards' with another ink limit (200 at least) and
    a rich black within it."""
    deck = root / "dark"
    (deck / "art").mkdir(parents=True, exist_ok=True)
    (deck / "shops").mkdir(exist_ok=True)
    (deck / "dark.yaml").write_text(
        "size: poker\nunits: mm\nelements:\n"
        '  - {name: bg, rect: card, fill: "#eeeeee", bleed: true}\n'
        '  - {name: title, text: "{{ name }}", box: [8, 8, 47.5, 8], size: 12}\n'
        "  - {name: pic, when: \"side == 'front'\", image: \"art/{{ art }}\", box: [10, 25, 40, 40]}\n"
        + elements, encoding="utf-8")
    listed = "".join(f"  - {{id: {card}, name: {card.upper()}, art: {file}}}\n" for card, file in cards)
    (deck / "deck.yaml").write_text("deck: {name: Dark, players: 2, layout: dark}\nfields:\n  name: text\n"
                                    f"  art: text\ncards:\n{listed}", encoding="utf-8")
    (deck / "shops" / "mid-ink.yaml").write_text(
        f"name: Mid ink shop\nbleed: 0.125in\nsafe: 0.125in\ndpi: 300\ncolour: cmyk\nink_limit: {ink_limit}\n"
        f"black: {[50, 40, 40, 100] if ink_limit >= 230 else [40, 30, 30, 100]}\n"
        "profile: cgats-tr003-240.icc\ncondition: CGATS TR 003\n"
        "standard: PDF/X-1a:2003\noutput: pdf-per-deck\norder: [back, front]\n", encoding="utf-8")
    return deck


def stripe_png(path: Path) -> None:
    """800 x 800 light grey pixels crossed by a 10 px stripe of (16, 16, 16): 216% ink at most."""
    image = Image.new("RGB", (800, 800), (240, 240, 240))
    image.paste((16, 16, 16), (395, 0, 405, 800))
    image.save(path)


def embedded_ink(pdf: Path) -> list[float]:
    """The most ink each image of the file puts down, as a shop's preflight reads it."""
    reader = PdfReader(pdf)
    totals = []
    for obj, data in decoded_streams(reader):
        if obj.get("/Subtype") != "/Image":
            continue
        filters = obj["/Filter"] if isinstance(obj["/Filter"], list) else [obj["/Filter"]]
        if filters[-1] == "/DCTDecode":
            with Image.open(io.BytesIO(data)) as picture:
                samples = list(picture.convert("CMYK").get_flattened_data())
        else:
            raw = obj.get_data()
            samples = [tuple(raw[index:index + 4]) for index in range(0, len(raw) - 3, 4)]
        totals.append(100 * max(sum(pixel) for pixel in samples) / 255)
    return totals


def test_art_downsampled_for_a_shop_puts_down_no_more_ink_than_its_darkest_pixel(tmp_path):
    deck = art_deck(tmp_path, ink_limit=230)
    stripe_png(deck / "art" / "stripe.png")
    assert deckpress("check", deck, "--for", "mid-ink").exit_code == 0
    run = deckpress("build", deck, "--for", "mid-ink", "--out", tmp_path / "out", "-q")
    assert run.exit_code == 0, run.stderr
    # no halo beside the stripe: the darkest embedded pixel is the stripe's own 216%
    assert embedded_ink(tmp_path / "out" / "dark.mid-ink.pdf") == [pytest.approx(216.5, abs=0.5)]


@pytest.mark.parametrize("suffix", ["png", "jpg"])
def test_check_for_a_shop_measures_the_ink_of_art_as_the_file_embeds_it(tmp_path, suffix):
    """Stripes of two colours of 178% ink at most (as drawn) mix, once downsampled, into a
    purple of more ink than either: check names it, with the ink the file would have."""
    deck = art_deck(tmp_path, ink_limit=200, cards=(("d2", f"mix.{suffix}"), ("d3", f"mix.{suffix}")))
    image = Image.new("RGB", (800, 800), (84, 30, 53))
    for x in range(0, 800, 7):
        image.paste((21, 26, 246), (x, 0, x + 3, 800))
    image.save(deck / "art" / f"mix.{suffix}", quality=95)
    run = deckpress("check", deck, "--for", "mid-ink", "--format", "json")
    assert run.exit_code == 1
    (finding,) = [each for each in json.loads(run.stdout)["decks"][0]["findings"] if each["kind"] == "shop"]
    assert finding["rule"] == "ink-limit" and (finding["card"], finding["element"]) == ("d2", "pic")
    assert finding["file"] == str(deck / "dark.yaml") and finding["line"] == 6
    assert f"image 'mix.{suffix}' of 'pic' on card 'd2' (front) prints with up to {finding['ink']:.0f}% ink " \
           "once downsampled to 473 x 473 pixels, more than Mid ink shop's 200% (and on 1 more face)" \
           in finding["message"]
    assert deckpress("build", deck, "--for", "mid-ink", "--out", tmp_path / "refused").exit_code == 1
    assert not (tmp_path / "refused").exists()
    # at a limit just above what check measured, both pass, and the file holds exactly that ink
    art_deck(tmp_path, ink_limit=int(finding["ink"]) + 1, cards=(("d2", f"mix.{suffix}"),))
    assert deckpress("check", deck, "--for", "mid-ink").exit_code == 0
    run = deckpress("build", deck, "--for", "mid-ink", "--out", tmp_path / "out", "-q")
    assert run.exit_code == 0, run.stderr
    assert embedded_ink(tmp_path / "out" / "dark.mid-ink.pdf") == [pytest.approx(finding["ink"], abs=0.05)]


def test_build_s_own_preflight_names_the_card_element_and_file_not_names_inside_the_pdf(tmp_path):
    deck = art_deck(tmp_path, ink_limit=200)
    stripe_png(deck / "art" / "stripe.png")
    renderer = load_renderer(load_deck(deck))
    preset = find_preset("mid-ink", deck)
    with pytest.raises(LayoutError) as refused:  # what check --for stops before build gets here
        press_for_shop(renderer, preset, PressInks(preset), tmp_path / "out")
    assert str(refused.value) == (
        f"{deck / 'dark.yaml'}:6:5: the PDF made for Mid ink shop fails its own preflight on card 'd2' (front), "
        "page 2: image 'stripe.png' of 'pic' puts down 216% ink, more than Mid ink shop's 200% (ink-limit); "
        "nothing was written")
    assert not (tmp_path / "out").exists()


def test_shop_findings_merge_only_the_same_problem_on_many_faces(tmp_path):
    deck = art_deck(tmp_path, ink_limit=200, cards=(("a1", "ghost.svg"), ("a2", "ghost.svg"),
                                                        ("a3", "ghost3.svg")),
                    elements='  - {name: rim, rect: [2, 2, 59.5, 84.9], stroke: "#101010", fill: none}\n'
                             '  - {name: seal, rect: [50, 75, 5, 5], fill: "#101010"}\n')
    (deck / "art" / "ghost.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><circle cx="50" cy="50" r="40" '
        'fill="#224488" fill-opacity="0.5"/></svg>', encoding="utf-8")
    (deck / "art" / "ghost3.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect x="10" y="10" width="80" '
        'height="80" fill="rgba(10,200,10,0.3)"/></svg>', encoding="utf-8")
    run = deckpress("check", deck, "--for", "mid-ink")
    assert run.exit_code == 1
    lines = [line for line in run.stdout.splitlines() if "see-through" in line or "ink, more" in line]
    assert len(lines) == 4, run.stdout
    assert "'pic' on card 'a1' (front) draws 'ghost.svg', SVG art that paints a see-through colour " \
           "(#224488, alpha 0.50);" in lines[0] and lines[0].endswith("(and on 1 more face)")
    assert "'pic' on card 'a3' (front) draws 'ghost3.svg', SVG art that paints a see-through colour " \
           "(#0ac80a, alpha 0.30);" in lines[1] and "more face" not in lines[1]
    # one colour over the limit painted by two elements: a line for each, each counting its faces
    assert any(line.startswith(f"{deck / 'dark.yaml'}:7:5: #101010 of 'rim' on card 'a1' (front) prints with")
               and line.endswith("(and on 3 more faces)") for line in lines)  # 3 fronts, 1 back
    assert any(line.startswith(f"{deck / 'dark.yaml'}:8:5: #101010 of 'seal' on card 'a1' (front)")
               for line in lines)


IMAGE_PRESET = "name: Local\nbleed: 2mm\nsafe: 3mm\ndpi: 300\ncolour: rgb\noutput: image-per-face\nimage_format: png\n"


def own_preset(deck: Path, text: str, name: str = "local") -> Path:
    (deck / "shops").mkdir(exist_ok=True)
    path = deck / "shops" / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("settings, line, written", [
    ("shared_back: knight-front\n", 8, "would both be written as knight-front.png"),
    ("naming: '{side}-of-{card}'\nshared_back: front-of-troll\n", 9, "would both be written as front-of-troll.png"),
    ("shared_back: Knight-Front\n", 8, "would be written as knight-front.png and Knight-Front.png, one file on "
                                      "macOS and Windows"),
])
def test_an_image_named_as_another_face_is_refused_at_the_preset_line_and_nothing_is_written(
        tmp_path, settings, line, written):
    deck = small_deck(tmp_path)
    preset = own_preset(deck, IMAGE_PRESET + settings)
    message = (f"{preset}:{line}:1: card '{'troll' if 'troll' in settings else 'knight'}' (front) and the deck's "
               f"back {written}")
    check = deckpress("check", deck, "--for", "local")
    assert check.exit_code == 1
    [error] = [each for each in check.stdout.splitlines() if each.startswith(f"{preset}:")]
    assert error.startswith(message), check.stdout
    assert error.endswith("one would replace the other; give each image a file name of its own (shared_back)")
    build = deckpress("build", deck, "--for", "local", "--out", tmp_path / "out")
    assert build.exit_code == 1 and message in build.stderr
    assert not (tmp_path / "out").exists()


def test_a_card_counted_out_of_the_print_clashes_with_no_image(tmp_path):
    deck = small_deck(tmp_path)
    path = deck / "deck.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("{id: knight, count: 4", "{id: knight, count: 0"),
                    encoding="utf-8")
    own_preset(deck, IMAGE_PRESET + "shared_back: knight-front\n")
    run = deckpress("build", deck, "--for", "local", "--no-check", "--out", tmp_path / "out", "-q")
    assert run.exit_code == 0, run.stderr
    names = sorted(path.name for path in (tmp_path / "out" / "demo.local").glob("*.png"))
    assert "knight-front.png" in names and "back.png" not in names and len(names) == 7  # six fronts, the back


def test_a_naming_at_the_longest_a_file_name_may_be_builds_for_the_longest_card_id(tmp_path):
    deck = small_deck(tmp_path)
    path = deck / "deck.yaml"
    long_id = "k" * MAX_ID_BYTES
    path.write_text(path.read_text(encoding="utf-8").replace("{id: knight,", f"{{id: {long_id},"), encoding="utf-8")
    # 255 bytes: 118 bytes before the id, the id, "front" and ".png"
    own_preset(deck, IMAGE_PRESET + f"naming: '{'é' * 59}{{card}}{{side}}'\n")
    run = deckpress("build", deck, "--for", "local", "--out", tmp_path / "out", "-q")
    assert run.exit_code == 0, run.stderr
    name = f"{'é' * 59}{long_id}front.png"
    assert len(name.encode("utf-8")) == 255  # the longest file name ext4 and APFS hold
    assert (tmp_path / "out" / "demo.local" / name).is_file()


def check_and_build_for_local(deck: Path, out: Path) -> tuple:
    """``check --for local`` and ``build --for local`` of ``deck``: the two must refuse alike."""
    return (deckpress("check", deck, "--for", "local"), deckpress("build", deck, "--for", "local", "--out", out))


@pytest.mark.parametrize("settings, line", [
    ("naming: '" + "{card}" * 32 + "{side}'\n", 8),
    ("naming: '" + "é" * 186 + "{card}{side}'\n", 8),
    ("shared_back: '" + "é" * 126 + "'\n", 8),
])
def test_a_naming_too_long_for_a_file_name_is_refused_by_check_before_build_fails(tmp_path, settings, line):
    deck = small_deck(tmp_path)
    preset = own_preset(deck, IMAGE_PRESET + settings)
    key = settings.split(":")[0]
    for run in check_and_build_for_local(deck, tmp_path / "out"):
        assert run.exit_code == 2
        [error] = [each for each in (run.stdout + run.stderr).splitlines() if f"{preset}:" in each]
        assert f"{preset}:{line}:1: {key} makes " in error and "a file name holds at most 255 bytes of UTF-8" in error
        assert error.endswith(f"({key})") and ".tmp" not in error
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("settings", ['naming: "{card}\\0{side}"\n', 'shared_back: "all\\0backs"\n'])
def test_a_nul_in_a_file_name_is_refused_at_its_line(tmp_path, settings):
    deck = small_deck(tmp_path)
    preset = own_preset(deck, IMAGE_PRESET + settings)
    key = settings.split(":")[0]
    for run in check_and_build_for_local(deck, tmp_path / "out"):
        assert run.exit_code == 2
        assert f"{preset}:8:1: {key} holds the control character '\\x00', which a file name in the shop's " \
               f"folder may not ({key})" in run.stdout + run.stderr
    assert not (tmp_path / "out").exists()


CMYK_PRESET = ("name: Local CMYK\nbleed: 3mm\nsafe: 3mm\ndpi: 300\ncolour: cmyk\nink_limit: 300\n"
               "black: [60, 40, 40, 100]\ncondition: FOGRA39\nstandard: PDF/X-4\noutput: pdf-per-deck\n"
               "profile: damaged.icc\n")


def truncated(data: bytes) -> bytes:
    return data[:2000]


def flipped(data: bytes) -> bytes:
    return data[:1000] + bytes(byte ^ 0xFF for byte in data[1000:])


@pytest.mark.parametrize("damage", [truncated, flipped])
def test_a_damaged_icc_profile_is_one_line_at_the_preset_profile(tmp_path, damage):
    deck = small_deck(tmp_path)
    preset = own_preset(deck, CMYK_PRESET, "press")
    source = BUNDLED_PROFILES / "fogra39-300.icc"
    (deck / "shops" / "damaged.icc").write_bytes(damage(source.read_bytes()))
    expected = (f"{preset}:11:1: the ICC profile damaged.icc is damaged: LittleCMS cannot convert colours "
                "through it (cannot build transform) (profile)")
    for run in (deckpress("check", deck, "--for", "press"),
                deckpress("build", deck, "--for", "press", "--out", tmp_path / "out")):
        assert run.exit_code == 2 and run.error_lines == [f"error: {expected}"]
    assert not (tmp_path / "out").exists()


def test_an_icc_profile_checked_out_as_its_lfs_pointer_is_named_so(tmp_path):
    deck = small_deck(tmp_path)
    preset = own_preset(deck, CMYK_PRESET, "press")
    content = (BUNDLED_PROFILES / "fogra39-300.icc").read_bytes()
    (deck / "shops" / "damaged.icc").write_bytes(
        f"version https://git-lfs.github.com/spec/v1\noid sha256:{hashlib.sha256(content).hexdigest()}\n"
        f"size {len(content)}\n".encode())
    run = deckpress("check", deck, "--for", "press")
    assert run.exit_code == 2
    assert run.error_lines == [f"error: {preset}:11:1: the ICC profile damaged.icc cannot be read (it is a Git LFS "
                               "pointer: the file's content was never fetched; git lfs pull fetches it) (profile)"]



@pytest.mark.parametrize("output", ["image-per-face", "pdf-per-deck"])
def test_a_preset_named_too_long_for_its_files_is_refused_by_check_before_build_fails(tmp_path, output):
    """The preset's file name names the shop's files: 240 letters passed check, then build failed
    naming a hidden temporary file; 64 bytes fit beside the longest deck id."""
    deck = small_deck(tmp_path)
    text = IMAGE_PRESET.replace("image-per-face", output).replace("image_format: png\n", "") \
        if output == "pdf-per-deck" else IMAGE_PRESET
    long_name = "p" * 240
    preset = own_preset(deck, text, long_name)
    for run in (deckpress("check", deck, "--for", long_name),
                deckpress("build", deck, "--for", long_name, "--out", tmp_path / "out")):
        assert run.exit_code == 2
        assert run.error_lines == [f"error: {preset}: a preset's file name names the files the shop gets "
                                   "(<deck>.<shop>.pdf), so it is at most 64 bytes without .yaml; this one is 240"]
    assert not (tmp_path / "out").exists()
    own_preset(deck, text, "p" * 64)
    assert deckpress("build", deck, "--for", "p" * 64, "--out", tmp_path / "out", "-q").exit_code == 0
