"""Print-shop presets are data: one YAML file a shop, each number with its source, read
as untrusted input (one error line, exit 2, for an unknown key or a number out of range)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.deck.model import MAX_ID_BYTES
from generator.errors import EXIT_INPUT, InputError
from generator.loading import load_yaml
from generator.render.units import MM
from generator.shops.presets import BUNDLED_PRESETS, KEYS, bundled_preset_names, find_preset, load_preset

NUMBERS = ("cards", "bleed", "safe", "dpi", "ink_limit", "black")


def test_the_bundled_presets_are_the_three_the_issue_asks_for():
    assert bundled_preset_names() == ["drivethrucards", "press-3mm", "thegamecrafter"]


def test_drivethrucards_asks_for_poker_cards_with_an_eighth_inch_bleed_in_cmyk():
    preset = find_preset("drivethrucards")
    assert preset.name == "DriveThruCards"
    assert preset.cards == {"poker": (180.0, 252.0)}
    assert (preset.bleed, preset.safe, preset.dpi) == (9.0, 9.0, 300)
    assert (preset.colour, preset.ink_limit, preset.black) == ("cmyk", 240.0, (60.0, 40.0, 40.0, 100.0))
    assert (preset.standard, preset.output, preset.order) == ("PDF/X-1a:2003", "pdf-per-deck", ("back", "front"))
    assert preset.profile is not None and preset.profile.is_file()


def test_the_game_crafter_takes_rgb_images_with_a_quarter_inch_safe_zone():
    preset = find_preset("thegamecrafter")
    assert (preset.output, preset.colour, preset.safe, preset.bleed) == ("image-per-face", "rgb", 18.0, 9.0)
    assert preset.fits_card((63.5 * MM, 88.9 * MM)) == "poker"
    assert preset.fits_card((63 * MM, 88 * MM)) is None


def test_the_generic_press_preset_is_3mm_bleed_pdf_x4_for_fogra39():
    preset = find_preset("press-3mm")
    assert preset.bleed == pytest.approx(3 * MM)
    assert (preset.standard, preset.condition, preset.cards) == ("PDF/X-4", "FOGRA39", {})
    assert preset.fits_card((123.0, 456.0)) == "any"


@pytest.mark.parametrize("name", ["drivethrucards", "press-3mm", "thegamecrafter"])
def test_every_number_in_a_bundled_preset_names_its_source(name):
    data = load_yaml(BUNDLED_PRESETS / f"{name}.yaml").data
    given = [key for key in NUMBERS if key in data]
    assert given and [key for key in given if key not in data["sources"]] == []


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


RGB_PRESET = "name: Test shop\nbleed: 3mm\nsafe: 4mm\ndpi: 300\ncolour: rgb\noutput: image-per-face\n"


def refused(path: Path) -> InputError:
    with pytest.raises(InputError) as caught:
        load_preset(path)
    assert caught.value.exit_code == EXIT_INPUT
    assert "\n" not in str(caught.value)
    return caught.value


def test_an_unknown_key_is_one_line_naming_its_place_and_the_nearest_key(tmp_path):
    path = write(tmp_path, "shop.yaml", RGB_PRESET + "bleeds: 2mm\n")
    error = refused(path)
    assert str(error).startswith(f"{path}:7:1: unknown preset setting 'bleeds'; did you mean 'bleed'?")


@pytest.mark.parametrize("line, message", [
    ("bleed: 30mm", "must lie between 0 and 10 mm, found '30mm'"),
    ("safe: -1mm", "must lie between 0 and 20 mm"),
    ("dpi: 5000", "must be at most 1,200, found 5,000"),
    ("colour: cmy", "expected one of rgb, cmyk, found 'cmy'"),
    ("output: pdf", "expected one of pdf-per-deck, image-per-face"),
])
def test_a_number_or_word_out_of_range_is_refused_where_it_is_written(tmp_path, line, message):
    key = line.split(":")[0]
    text = "\n".join(line if row.startswith(f"{key}:") else row for row in RGB_PRESET.splitlines()) + "\n"
    error = refused(write(tmp_path, "shop.yaml", text))
    assert message in error.message and error.field == key


def test_a_cmyk_preset_needs_its_ink_limit_and_black_within_it(tmp_path):
    base = ("name: Press\nbleed: 3mm\nsafe: 3mm\ndpi: 300\ncolour: cmyk\noutput: pdf-per-deck\n"
            "profile: fogra39-300.icc\ncondition: FOGRA39\nstandard: PDF/X-4\n")
    assert "must give ink_limit" in refused(write(tmp_path, "a.yaml", base + "black: [0, 0, 0, 100]\n")).message
    error = refused(write(tmp_path, "b.yaml", base + "ink_limit: 240\nblack: [100, 100, 100, 100]\n"))
    assert "black uses 400% ink, more than the preset's ink_limit of 240%" in error.message
    assert "ink_limit" in refused(write(tmp_path, "c.yaml", base + "ink_limit: 500\nblack: [0,0,0,100]\n")).field


def test_a_profile_must_stay_beside_the_preset(tmp_path):
    text = ("name: Press\nbleed: 3mm\nsafe: 3mm\ndpi: 300\ncolour: cmyk\noutput: pdf-per-deck\nink_limit: 300\n"
            "black: [0, 0, 0, 100]\nprofile: ../../etc/passwd\ncondition: X\nstandard: PDF/X-4\n")
    assert refused(write(tmp_path / "shops", "p.yaml", text)).field == "profile"


def test_a_source_for_a_setting_that_does_not_exist_is_refused(tmp_path):
    error = refused(write(tmp_path, "shop.yaml", RGB_PRESET + "sources: {bled: my ruler}\n"))
    assert "unknown preset setting 'bled'" in error.message


def test_a_deck_or_its_project_may_bring_its_own_preset_found_before_the_bundled_ones(tmp_path):
    deck = tmp_path / "project" / "cards" / "game"
    deck.mkdir(parents=True)
    write(tmp_path / "project" / "shops", "local-shop.yaml", RGB_PRESET)
    write(deck / "shops", "thegamecrafter.yaml", RGB_PRESET.replace("Test shop", "Own TGC"))
    assert find_preset("local-shop", deck).name == "Test shop"
    assert find_preset("thegamecrafter", deck).name == "Own TGC"
    assert find_preset("thegamecrafter").name == "The Game Crafter"
    assert find_preset(str(tmp_path / "project" / "shops" / "local-shop.yaml")).id == "local-shop"


def test_an_unknown_shop_lists_the_known_ones(tmp_path):
    with pytest.raises(InputError) as caught:
        find_preset("drivethru")
    assert "unknown shop 'drivethru'; did you mean 'drivethrucards'?" in caught.value.message
    assert "known: drivethrucards, press-3mm, thegamecrafter" in caught.value.message
    with pytest.raises(InputError) as caught:
        find_preset("xyzzy", tmp_path)
    assert "unknown shop 'xyzzy'; expected one of: drivethrucards, press-3mm, thegamecrafter; or add " \
           "shops/xyzzy.yaml beside the deck" == caught.value.message


@pytest.mark.parametrize("asked, quoted", [("Café", "Café"), ("ca\x1b[2Jfé", "ca\\x1b[2Jfé")])
def test_a_name_that_is_no_shop_name_is_quoted_as_written_with_its_controls_escaped(asked, quoted):
    with pytest.raises(InputError) as caught:
        find_preset(asked)
    assert caught.value.message.startswith(f"'{quoted}' is not a shop name: use lower-case letters")
    assert caught.value.exit_code == EXIT_INPUT


def test_preset_keys_are_documented_in_the_module():
    from generator.shops import presets

    assert all(key in (presets.__doc__ or "") or key in {"description", "registry", "naming", "shared_back",
                                                          "image_format", "cards"} for key in KEYS)


CONTROL = "which a file name in the shop's folder may not"
WINDOWS = "which Windows does not allow in a file name: the shop's folder could not be unpacked there"
DEVICE = "is a name Windows keeps for a device: the shop's folder could not be unpacked there"


@pytest.mark.parametrize("line, message", [
    ('naming: "{card}\\x1b]0;x\\x07{side}"', f"naming holds the control character '\\x1b', {CONTROL}"),
    ('shared_back: "back\\u202egnp"', f"shared_back holds the control character '\\u202e', {CONTROL}"),
    ('shared_back: "all\\nbacks"', f"shared_back holds the control character '\\n', {CONTROL}"),
    ('naming: "{card}\\u0085{side}"', f"naming holds the control character '\\x85', {CONTROL}"),
    ('naming: "{card}?{side}"', f"naming holds '?', {WINDOWS}"),
    ('naming: "{card}: {side}"', f"naming holds ':', {WINDOWS}"),
    ('shared_back: "back*"', f"shared_back holds '*', {WINDOWS}"),
    ('shared_back: "NUL"', f"shared_back 'NUL' {DEVICE}"),
    ('shared_back: "com1"', f"shared_back 'com1' {DEVICE}"),
])
def test_what_names_a_file_is_refused_at_its_line_unless_every_system_takes_it(tmp_path, line, message):
    """A control character, or what Windows refuses: the folder is unpacked wherever the shop is."""
    path = write(tmp_path, "shop.yaml", RGB_PRESET + line + "\n")
    key = line.split(":")[0]
    assert str(refused(path)) == f"{path}:7:1: {message} ({key})"


def test_what_names_a_file_must_fit_a_file_name_for_the_longest_card_id(tmp_path):
    at_most = "x" * (255 - MAX_ID_BYTES - len("front.jpg"))
    assert load_preset(write(tmp_path, "a.yaml", RGB_PRESET + f"naming: {at_most}{{card}}{{side}}\n"
                                                              "image_format: jpeg\n")).naming.startswith("x")
    error = refused(write(tmp_path, "b.yaml", RGB_PRESET + f"naming: x{at_most}{{card}}{{side}}\n"
                                                         "image_format: jpeg\n"))
    assert error.message == ("naming makes file names of up to 256 bytes (with .jpg, for a card id of 128 "
                             "characters, the longest an id may be); a file name holds at most 255 bytes of UTF-8")
    error = refused(write(tmp_path, "c.yaml", RGB_PRESET + "shared_back: " + "\U0001f0a0" * 63 + "\n"))
    assert (error.field, error.position.line) == ("shared_back", 7)
    assert error.message.startswith("shared_back makes a file name of 256 bytes (with .png)")


def test_a_name_that_only_starts_like_a_windows_device_is_a_file_name(tmp_path):
    assert load_preset(write(tmp_path, "shop.yaml", RGB_PRESET + "shared_back: console\n")).shared_back == "console"
