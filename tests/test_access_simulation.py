"""Images recoloured as players with a colour-vision deficiency see them."""

from __future__ import annotations

import numpy
import pytest
from colorspacious import cspace_convert
from PIL import Image

from generator.access.simulation import SIMULATIONS, simulate_image

RED, GREEN, BLUE = (198, 47, 42), (60, 141, 63), (45, 99, 179)


def expected(rgb: tuple[int, int, int], cvd_type: str) -> tuple[int, ...]:
    """The colour as colorspacious's Machado et al. 2009 model gives it, at full severity."""
    space = {"name": "sRGB1+CVD", "cvd_type": cvd_type, "severity": 100}
    seen = numpy.clip(cspace_convert(numpy.array(rgb) / 255, space, "sRGB1"), 0, 1)
    return tuple(int(value) for value in numpy.rint(seen * 255))


@pytest.mark.parametrize("deficiency, cvd_type", [("protanopia", "protanomaly"),
                                                  ("deuteranopia", "deuteranomaly"),
                                                  ("tritanopia", "tritanomaly")])
def test_every_pixel_becomes_the_colour_the_model_gives(deficiency, cvd_type):
    image = Image.new("RGBA", (30, 10), (255, 255, 255, 255))
    image.paste(RED + (255,), (0, 0, 10, 10))
    image.paste(GREEN + (128,), (10, 0, 20, 10))
    image.paste(BLUE + (255,), (20, 0, 30, 10))
    seen = simulate_image(image, deficiency)
    assert seen.size == image.size and seen.mode == "RGBA"
    assert seen.getpixel((5, 5)) == expected(RED, cvd_type) + (255,)
    assert seen.getpixel((15, 5)) == expected(GREEN, cvd_type) + (128,)  # transparency is kept
    assert seen.getpixel((25, 5)) == expected(BLUE, cvd_type) + (255,)


def test_deuteranopia_brings_the_issues_red_and_green_together():
    image = Image.new("RGB", (2, 1))
    image.putpixel((0, 0), RED)
    image.putpixel((1, 0), GREEN)
    seen = simulate_image(image, "deuteranopia")
    before = sum(abs(a - b) for a, b in zip(RED, GREEN, strict=True))
    after = sum(abs(a - b) for a, b in zip(seen.getpixel((0, 0)), seen.getpixel((1, 0)), strict=True))
    assert after < before / 3
    assert seen.mode == "RGB"


def test_the_three_deficiencies_are_offered():
    assert SIMULATIONS == ("protanopia", "deuteranopia", "tritanopia")


def test_export_shows_every_image_as_the_deficiency_sees_it(tmp_path):
    from cli_run import CARDS, deckpress

    plain, seen = tmp_path / "plain", tmp_path / "deutan"
    assert deckpress("export", CARDS / "tiki", "--png", plain, "--dpi", "40", "--quiet").exit_code == 0
    run = deckpress("export", CARDS / "tiki", "--png", seen, "--dpi", "40", "--simulate", "deuteranopia")
    assert run.exit_code == 0, run.stderr
    assert "as seen with deuteranopia" in run.stdout
    assert sorted(path.name for path in seen.iterdir()) == sorted(path.name for path in plain.iterdir())
    for name in ("ember-imp-front.png", "spore-pixie-front.png", "tiki.back.png", "tiki.contact-sheet.png"):
        with Image.open(plain / name) as before, Image.open(seen / name) as after:
            before, after = before.convert("RGB"), after.convert("RGB")
            assert after.size == before.size
            for point in ((2, 2), (before.width // 2, before.height // 3), (before.width - 3, before.height - 3)):
                assert after.getpixel(point) == expected(before.getpixel(point), "deuteranomaly"), (name, point)
    # The red card's edge and the green card's edge, far apart before, nearly meet after.
    with Image.open(plain / "ember-imp-front.png") as red, Image.open(plain / "spore-pixie-front.png") as green:
        apart_before = sum(abs(a - b) for a, b in zip(red.convert("RGB").getpixel((2, 2)),
                                                      green.convert("RGB").getpixel((2, 2)), strict=True))
    with Image.open(seen / "ember-imp-front.png") as red, Image.open(seen / "spore-pixie-front.png") as green:
        apart_after = sum(abs(a - b) for a, b in zip(red.convert("RGB").getpixel((2, 2)),
                                                     green.convert("RGB").getpixel((2, 2)), strict=True))
    assert apart_after < apart_before / 3


def test_simulate_goes_with_png_images_only(tmp_path):
    from cli_run import CARDS, deckpress

    run = deckpress("export", CARDS / "tiki", "--tts", tmp_path, "--simulate", "protanopia")
    assert run.exit_code == 2 and "--simulate applies to --png images only" in run.stderr
    run = deckpress("export", CARDS / "tiki", "--png", tmp_path, "--simulate", "achromatopsia")
    assert run.exit_code == 2 and "'achromatopsia' is not one of" in run.stderr


def test_the_simulated_contact_sheet_says_which_deficiency_it_shows(tmp_path):
    from cli_run import CARDS, deckpress
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from generator.exports.contact import CONTACT_DPI, MARGIN, NOTE_SIZE

    plain, seen = tmp_path / "plain", tmp_path / "deutan"
    assert deckpress("export", CARDS / "tiki", "--png", plain, "--dpi", "20", "--quiet").exit_code == 0
    assert deckpress("export", CARDS / "tiki", "--png", seen, "--dpi", "20", "--quiet",
                     "--simulate", "deuteranopia").exit_code == 0
    scale = CONTACT_DPI / 72  # pixels a point

    def note_end(path) -> int:
        """The right end of the ink on the line under the deck's name, in pixels."""
        with Image.open(path) as sheet:
            sheet = sheet.convert("RGB")
            ground = sheet.getpixel((1, 1))
            rows = range(round((MARGIN + 26 - NOTE_SIZE) * scale), round((MARGIN + 26 + 2) * scale))
            return max(x for y in rows for x in range(sheet.width)
                       if sum(abs(a - b) for a, b in zip(sheet.getpixel((x, y)), ground, strict=True)) > 60)

    label = "; colours as seen with deuteranopia (simulated)"
    added = note_end(seen / "tiki.contact-sheet.png") - note_end(plain / "tiki.contact-sheet.png")
    assert abs(added - stringWidth(label, "Vera", NOTE_SIZE) * scale) < 4
