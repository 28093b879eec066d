"""The cutting machine's test sheet (``calibrate --cutter``), read back as a user and a cutter would.

The marks are checked against the published Silhouette geometry written out here independently
of the product (an L's arm centre lines meet ``inset`` from both edges, each arm ``thickness``
thick; the square's outer corner ``inset`` from both edges), the cut against the rectangle the
marks enclose, the text against the marks' clear margin and the guides, and the sheet's build
line by running it.
"""

import dataclasses
import importlib
import re
import shlex
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import ezdxf
import pdfplumber
import pytest
from click.testing import CliRunner
from ezdxf import bbox
from reportlab.pdfbase.pdfmetrics import stringWidth
from sheets_support import FrameRenderer, read_manifest, write_deck

from generator.boxes import Box
from generator.cli import cli
from generator.errors import InputError
from generator.sheets.calibration import CALIBRATED_OPTIONS, CUT_TEST_SIZE, CalibratedBuild, plan_cutter_calibration
from generator.sheets.cutting import cutter_settings, load_cutters
from generator.sheets.forms import sheet_font
from generator.sheets.geometry import SheetSettings, SheetSettingsError, plan_layout
from generator.sheets.style import MM, ORIENTATIONS, find_paper, load_style

STYLE = load_style()
CUTTERS = load_cutters()
BUILD = dataclasses.replace(SheetSettings.default(STYLE), gutter=CUTTERS.gutter)
"""What ``build --cutter`` prints with, given no margin or gutter: what the sheet's build line runs."""
CLEAR = 1.5 * MM
FEEDER = 15.875
"""The Auto Sheet Feeder's inset, 0.625 in (silhouette-card-maker issue 173)."""
SVG = "{http://www.w3.org/2000/svg}"
TIKI = Path(__file__).resolve().parent.parent / "cards" / "tiki"
"""A bundled deck of poker cards, the size whose build the sheet's marks are chosen for."""


def run(*args):
    return CliRunner().invoke(cli, [*map(str, args)])


def calibrate(tmp_path, *args):
    out = tmp_path / "cal.pdf"
    return run("calibrate", "--out", out, *args), out


def read_sheet(pdf_path):
    """What the page shows: its size, the black fills (marks), the grey and black outlines
    around the card, and each word with its box (points, bottom-left origin)."""
    with pdfplumber.open(pdf_path) as pdf:
        [page] = pdf.pages
        height = float(page.height)

        def box(o):
            return Box(o["x0"], height - o["bottom"], o["x1"] - o["x0"], o["bottom"] - o["top"])

        fills = [box(r) for r in page.rects if r["fill"] and r.get("non_stroking_color") in (0, [0], (0,), [0.0])]
        outlines = [box(o) for o in page.rects + page.curves if not o["fill"]]
        words = [(w["text"], box(w)) for w in page.extract_words()]
        lines = page.extract_text().splitlines()
    return float(page.width), height, fills, outlines, words, lines


def expected_marks(width, height, cutter, inset, thickness, length, square=5 * MM):
    """Each mark's ink as rectangles, from the published geometry."""
    half = thickness / 2
    boxes = []
    for corner, kind in CUTTERS.cutters[cutter].corners:
        right, top = corner.endswith("right"), corner.startswith("top")
        if kind == "square":
            boxes.append(Box(width - inset - square if right else inset, height - inset - square if top else inset,
                             square, square))
            continue
        cx, cy = (width - inset if right else inset), (height - inset if top else inset)
        sx, sy = (-1 if right else 1), (-1 if top else 1)
        level = (cx - sx * half, cx + sx * length, cy - half, cy + half)
        upright = (cx - half, cx + half, cy + sy * half, cy + sy * length)
        for x0, x1, y0, y1 in (level, upright):
            boxes.append(Box(min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0)))
    return boxes


def same(box, other, tolerance=0.02):
    return all(abs(a - b) < tolerance for a, b in zip(box.rounded(), other.rounded(), strict=True))


def mark_zones(fills, width, height):
    """Each mark's bounds grown by the clear margin: the ink in one corner of the page together."""
    corners = {}
    for box in fills:
        corners.setdefault((box.x < width / 2, box.y < height / 2), []).append(box)
    zones = []
    for group in corners.values():
        x0, y0 = min(b.x for b in group), min(b.y for b in group)
        x1, y1 = max(b.right for b in group), max(b.top for b in group)
        zones.append(Box(x0, y0, x1 - x0, y1 - y0).grown(CLEAR - 0.01))  # touching it is keeping clear
    return zones


def cut_box(pdf_path, page_height):
    """The cut path's box in points, bottom-left origin, from the cut file beside the sheet: a DXF
    (mm, y up), or an SVG (mm, y down; its path is absolute M, H, V, A and Z commands, the arcs
    quarter circles inside the corners)."""
    if pdf_path.with_suffix(".cut.dxf").exists():
        [polyline] = ezdxf.readfile(pdf_path.with_suffix(".cut.dxf")).modelspace().query('LWPOLYLINE[layer=="cut"]')
        extents = bbox.extents([polyline])
        return Box(extents.extmin.x * MM, extents.extmin.y * MM, extents.size.x * MM, extents.size.y * MM)
    root = ElementTree.parse(pdf_path.with_suffix(".cut.svg")).getroot()
    [path] = [p for g in root.iter(f"{SVG}g") if g.get("id") == "cut" for p in g.iter(f"{SVG}path")]
    tokens = re.findall(r"[MHVAZ]|-?[\d.]+", path.get("d"))
    x = y = 0.0
    points, index = [], 0
    while index < len(tokens):
        command, index = tokens[index], index + 1
        taken = {"M": 2, "H": 1, "V": 1, "A": 7, "Z": 0}[command]
        values = [float(v) for v in tokens[index:index + taken]]
        index += taken
        if command in "MA":
            x, y = values[-2:]
        elif command == "H":
            x = values[0]
        elif command == "V":
            y = values[0]
        points.append((x, y))
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return Box(min(xs) * MM, page_height - max(ys) * MM, (max(xs) - min(xs)) * MM, (max(ys) - min(ys)) * MM)


def assert_sheet_is_sound(pdf_path, cutter, inset_mm, thickness_mm=1.0):
    """The marks where the cutter looks for them; the cut inside them; nothing printed within
    the clear margin of a mark, on the guides or on other text, or off the page."""
    width, height, fills, outlines, words, lines = read_sheet(pdf_path)
    length = float(re.search(r"length ([\d.]+) mm", " ".join(lines)).group(1)) * MM
    expected = expected_marks(width, height, cutter, inset_mm * MM, thickness_mm * MM, length)
    assert len(fills) == len(expected)
    assert all(any(same(box, found) for found in fills) for box in expected), "marks off the published geometry"
    inset, half = inset_mm * MM, thickness_mm * MM / 2
    inside_marks = Box(inset + half, inset + half, width - 2 * (inset + half), height - 2 * (inset + half))
    cut = cut_box(pdf_path, height)
    assert cut.width == pytest.approx(63 * MM, abs=0.05) and cut.height == pytest.approx(88 * MM, abs=0.05)
    assert cut.inside(inside_marks), "the cutter cuts only inside its marks"
    guides = max((o for o in outlines if abs(o.width - 65 * MM) < 3 * MM), key=lambda o: o.width)
    assert guides.width == pytest.approx(65 * MM, abs=0.1)
    zones = mark_zones(fills, width, height)
    assert len(zones) == len(CUTTERS.cutters[cutter].corners)
    assert not any(guides.overlaps(zone) for zone in zones)
    page = Box(0, 0, width, height)
    for index, (text, box) in enumerate(words):
        assert box.inside(page.grown(-4 * MM)), f"{text!r} runs off the page"
        assert not box.overlaps(guides), f"{text!r} prints on the guides"
        assert not any(box.overlaps(zone) for zone in zones), f"{text!r} prints beside a mark"
        assert not any(box.overlaps(other) for _, other in words[index + 1:]), f"{text!r} overlaps other text"
    return lines


def build_line(lines):
    """The sheet's build command, its wrapped lines joined again."""
    start = next(i for i, line in enumerate(lines) if line.startswith("4. Then build: "))
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("Silhouette, "))
    return " ".join(lines[start:end]).removeprefix("4. Then build: ")


# ----------------------------------------------------------------------------- the inset

@pytest.mark.parametrize("paper", ["a4", "a3", "letter", "a5"])
@pytest.mark.parametrize("cutter", ["silhouette", "silhouette-4"])
def test_the_auto_sheet_feeder_inset_gives_a_sound_sheet(tmp_path, paper, cutter):
    result, out = calibrate(tmp_path, "--cutter", cutter, "--mark-inset", FEEDER, "--paper", paper)
    assert result.exit_code == 0, result.output
    assert_sheet_is_sound(out, cutter, FEEDER)


@pytest.mark.parametrize("options", [
    ("--paper", "a5", "--orientation", "landscape"),              # too short for the text above the card
    ("--paper", "a5", "--orientation", "landscape", "--mark-inset", "25"),
    ("--paper", "a4", "--mark-inset", "60"),                      # the text leaves the marks' rectangle
    ("--paper", "b5", "--orientation", "landscape", "--mark-inset", "43.5"),
    ("--paper", "a5", "--mark-length", "20"),
])
def test_deep_insets_and_short_papers_give_a_sound_sheet(tmp_path, options):
    result, out = calibrate(tmp_path, "--cutter", "silhouette", *options)
    assert result.exit_code == 0, result.output
    inset = float(options[options.index("--mark-inset") + 1]) if "--mark-inset" in options else 10.0
    assert_sheet_is_sound(out, "silhouette", inset)


def test_the_instructions_follow_the_marks_down(tmp_path):
    """The top marks' arms keep the room a 10 mm inset gives them, whatever the inset."""
    lengths, gaps = [], []
    for inset in (10, FEEDER, 20):
        result, out = calibrate(tmp_path / str(inset), "--cutter", "silhouette", "--mark-inset", inset,
                                "--mark-length", 10)
        assert result.exit_code == 0, result.output
        width, height, fills, _, words, lines = read_sheet(out)
        lengths.append(re.search(r"length ([\d.]+) mm", " ".join(lines)).group(1))
        title = next(box for text, box in words if text == "Cutter")
        gaps.append(round((height - title.top) / MM - inset, 1))
    assert lengths == ["10"] * 3
    assert len(set(gaps)) == 1


def test_calibrate_takes_every_inset_build_takes_for_the_card_it_cuts():
    """On every known paper, either way up, from the least inset to the deepest at which a build
    still fits a poker card between the marks: the calibration sheet fits too, and nothing on
    it overlaps (its plan, read as drawn)."""
    font = sheet_font()
    checked = 0
    for cutter in CUTTERS.cutters:
        for name in STYLE.papers:
            for orientation in ORIENTATIONS:
                paper = find_paper(name, orientation, STYLE)
                inset = 10.0
                while True:
                    marks = cutter_settings(CUTTERS, cutter, inset, choose_orientation=False)
                    settings = dataclasses.replace(SheetSettings.default(STYLE), paper=paper, cutter=marks,
                                                   gutter=CUTTERS.gutter)
                    try:
                        plan_layout(settings, CUT_TEST_SIZE, 0.0)
                    except SheetSettingsError:
                        break
                    plan = plan_cutter_calibration(paper, marks, 3 * MM, "svg", CalibratedBuild(
                        frozenset(CALIBRATED_OPTIONS), ("--duplex", "short")), build=settings)
                    registration, guides = plan.sheet.registration, plan.guides[-1][0]
                    assert plan.sheet.trims[0].inside(registration.rectangle)
                    assert not registration.touches(guides) and registration.settings.inset == inset * MM
                    lines = [Box(label.x, label.y - 0.3 * label.size, stringWidth(label.text, font, label.size),
                                 1.3 * label.size) for label in plan.text]
                    for index, line in enumerate(lines):
                        assert not registration.touches(line) and not line.overlaps(guides), (name, orientation, inset)
                        assert line.inside(Box(0, 0, paper.width, paper.height).grown(-4 * MM))
                        assert not any(line.overlaps(other) for other in lines[index + 1:])
                    checked += 1
                    inset += 2.5
    assert checked > 400


# ----------------------------------------------------------------------------- refusals

def suggestions(message):
    return dict(re.findall(r"(--mark-inset|--paper|--orientation) (\S+?)(?:,|$)", message))


@pytest.mark.parametrize("options, expected", [
    (("--paper", "a5", "--mark-inset", "45"), {"--mark-inset": "42", "--paper": "b5"}),
    (("--paper", "a4", "--mark-inset", "80"), {"--mark-inset": "73", "--paper": "tabloid"}),
    (("--paper", "a5", "--orientation", "landscape", "--mark-inset", "30"),
     {"--mark-inset": "29.5", "--orientation": "portrait", "--paper": "b5"}),
    # long, thin arms: insets from 15.5 to 27 mm do not fit where 27.5 to 29.8 do
    (("--paper", "a5", "--orientation", "landscape", "--mark-length", "20", "--mark-thickness", "0.3",
      "--mark-inset", "30"), {"--mark-inset": "29.8", "--paper": "b5"}),
    (("--paper", "100x140"), {"--paper": "a5"}),
    (("--paper", "1000x60"), {"--paper": "148x1000mm"}),
])
def test_a_sheet_that_does_not_fit_names_changes_that_make_it_fit(tmp_path, options, expected):
    result, out = calibrate(tmp_path, "--cutter", "silhouette", *options)
    assert result.exit_code == 2
    [message] = result.output.splitlines()
    assert message.startswith("error: the cutter calibration sheet (a 63 x 88 mm card to cut, its guides and "
                              "instructions) does not fit on ")
    assert "A5 portrait or larger" not in message
    assert suggestions(message) == expected
    assert not list(tmp_path.iterdir())
    given = find_paper(options[1], "portrait", STYLE)
    for option, value in expected.items():
        changed = list(options)
        if option in changed:
            changed[changed.index(option) + 1] = value
        else:
            changed += [option, value]
        if option == "--paper":  # never a smaller paper than the one given
            larger = find_paper(value, "portrait", STYLE)
            assert larger.width >= given.width and larger.height >= given.height
        followed, _ = calibrate(tmp_path / option.strip("-"), "--cutter", "silhouette", *changed)
        assert followed.exit_code == 0, (changed, followed.output)


def test_the_suggested_inset_is_the_largest_that_fits(tmp_path):
    result, _ = calibrate(tmp_path, "--cutter", "silhouette", "--paper", "a5", "--mark-inset", "45")
    suggested = float(suggestions(result.output.strip())["--mark-inset"])
    paper = find_paper("a5", "portrait", STYLE)
    plan_cutter_calibration(paper, cutter_settings(CUTTERS, "silhouette", suggested), 3 * MM, "svg", build=BUILD)
    with pytest.raises(InputError):
        plan_cutter_calibration(paper, cutter_settings(CUTTERS, "silhouette", suggested + 0.1), 3 * MM, "svg",
                                build=BUILD)


# ----------------------------------------------------------------------------- the build line

@pytest.fixture
def frame_renderer(monkeypatch):
    command_module = importlib.import_module("generator.cli.build")
    monkeypatch.setattr(command_module, "load_renderer", lambda deck, **options: FrameRenderer(deck))


def build_from_sheet(tmp_path, lines):
    """Run the sheet's build line, as a user would paste it, on a small deck; its manifest."""
    words = shlex.split(build_line(lines))
    assert words[:2] == ["deckpress", "build"]
    deck = write_deck(tmp_path / "deck", [{"name": "Card 1", "count": 3}])
    out = tmp_path / "built"
    result = run("build", *words[2:], deck, "--out", out)
    assert result.exit_code == 0, result.output
    [manifest] = out.glob("*.json")
    return read_manifest(manifest)


def test_the_build_line_carries_the_marks_and_paper_calibrated(tmp_path, frame_renderer):
    result, out = calibrate(tmp_path, "--cutter", "silhouette-4", "--mark-inset", "12", "--mark-thickness", "0.5",
                            "--paper", "letter")
    assert result.exit_code == 0, result.output
    lines = assert_sheet_is_sound(out, "silhouette-4", 12, 0.5)
    assert build_line(lines) == ("deckpress build --cutter silhouette-4 --paper letter --orientation landscape "
                                 "--mark-inset 12 --mark-length 20 --mark-thickness 0.5 --cut-file svg")
    manifest = build_from_sheet(tmp_path, lines)
    assert (manifest["paper"]["name"], manifest["paper"]["orientation"]) == ("letter", "landscape")
    cutter = manifest["cutter"]
    assert (cutter["name"], cutter["inset_mm"], cutter["length_mm"], cutter["thickness_mm"]) == \
        ("silhouette-4", 12, 20, 0.5)
    assert manifest["cut_file"].endswith(".cut.svg")


def test_every_option_build_also_takes_is_carried_and_the_long_line_wraps_on_the_page(tmp_path, frame_renderer):
    options = ["--cutter", "silhouette", "--paper", "a5", "--orientation", "portrait", "--mark-inset", FEEDER,
               "--mark-length", "12.5", "--mark-thickness", "0.75", "--cut-file", "dxf", "--corner-radius", "2.5",
               "--duplex", "short", "--back-offset", "0.25,-1.5"]
    result, out = calibrate(tmp_path, *options)
    assert result.exit_code == 0, result.output
    lines = assert_sheet_is_sound(out, "silhouette", FEEDER, 0.75)
    start = next(i for i, line in enumerate(lines) if line.startswith("4. Then build: "))
    assert not lines[start + 1].startswith("Silhouette, "), "a line this long wraps"
    words = shlex.split(build_line(lines))
    assert sorted(words[2:]) == sorted(map(str, options))
    manifest = build_from_sheet(tmp_path, lines)
    assert (manifest["paper"]["name"], manifest["paper"]["orientation"]) == ("a5", "portrait")
    cutter = manifest["cutter"]
    assert (cutter["inset_mm"], cutter["length_mm"], cutter["thickness_mm"]) == (15.875, 12.5, 0.75)
    assert manifest["corner_radius_mm"] == 2.5 and manifest["cut_file"].endswith(".cut.dxf")
    assert manifest["duplex"] == "short" and manifest["back_offset_mm"] == [0.25, -1.5]


def test_the_build_line_is_quoted_for_a_shell(tmp_path):
    result, out = calibrate(tmp_path, "--cutter", "silhouette", "--paper", "200 x 280")
    assert result.exit_code == 0, result.output
    line = build_line(read_sheet(out)[5])
    assert "--paper '200 x 280'" in line
    assert shlex.split(line)[4:6] == ["--paper", "200 x 280"]


def test_without_options_the_build_line_names_only_what_a_build_chooses_for_itself(tmp_path):
    result, out = calibrate(tmp_path, "--cutter", "silhouette")
    assert result.exit_code == 0, result.output
    assert build_line(read_sheet(out)[5]) == \
        "deckpress build --cutter silhouette --orientation landscape --mark-length 7 --cut-file svg"


# ----------------------------------------------------------------------------- what the build prints

def what_to_type(lines):
    """What the calibration sheet tells the cutter's software: the paper as it lies (the title's
    end) and the marks' settings line, as a build's page label joins them."""
    text = " ".join(lines)  # a narrow column wraps them
    paper = re.match(r"Cutter calibration: Silhouette, \d marks, (.+? (?:portrait|landscape)) 1\. ", text).group(1)
    [marks] = re.findall(r"Silhouette, \d marks: inset [\d.]+ mm, length [\d.]+ mm, thickness [\d.]+ mm", text)
    return f"{paper}, {marks}"


def build_tiki(out, *options):
    """Build the bundled deck with ``options``; its first page's label naming the marks, and its manifest."""
    result = run("build", TIKI, *options, "--out", out, "--quiet")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(out / "tiki.pdf") as pdf:
        [label] = [line for line in pdf.pages[0].extract_text().splitlines() if "marks: inset" in line]
    return label, read_manifest(out / "tiki.json")


def placed_fronts(manifest):
    return sorted(tuple(p["trim_box"]) for p in manifest["placements"] if p["page"] == 1)


@pytest.mark.parametrize("paper, orientation, length", [
    ("a4", "landscape", 7), ("letter", "portrait", 20), ("a3", "portrait", 17.7)])
def test_the_sheet_calibrates_what_the_build_it_names_prints(tmp_path, paper, orientation, length):
    """The designer types the orientation and the marks' inset and length into the cutter's
    software from the sheet: the build the sheet names prints those, and so does a plain build
    of a poker deck, whose own choice they are."""
    result, out = calibrate(tmp_path, "--cutter", "silhouette", "--paper", paper)
    assert result.exit_code == 0, result.output
    lines = assert_sheet_is_sound(out, "silhouette", 10)  # the marks drawn at the length the sheet states
    width, height = read_sheet(out)[:2]
    assert (width > height) == (orientation == "landscape")
    typed = what_to_type(lines)
    assert typed.endswith(f" {orientation}, Silhouette, 3 marks: inset 10 mm, length {length:g} mm, thickness 1 mm")
    named = shlex.split(build_line(lines))
    named_label, named_manifest = build_tiki(tmp_path / "named", *named[2:])
    plain_label, plain_manifest = build_tiki(tmp_path / "plain", "--cutter", "silhouette", "--paper", paper)
    for label, manifest in ((named_label, named_manifest), (plain_label, plain_manifest)):
        assert label.endswith(typed)
        assert manifest["paper"]["orientation"] == orientation
        assert (manifest["cutter"]["inset_mm"], manifest["cutter"]["length_mm"]) == (10, length)
    assert placed_fronts(named_manifest) == placed_fronts(plain_manifest)


def test_where_the_text_leaves_no_room_for_the_builds_arms_the_sheet_names_shorter_ones(tmp_path):
    """A5 turned landscape with the Auto Sheet Feeder's inset: four 20 mm L marks leave the text
    too little room, so the sheet's arms are shorter, and the build it names prints those, with
    the same cards a plain build prints."""
    result, out = calibrate(tmp_path, "--cutter", "silhouette-4", "--paper", "a5", "--mark-inset", FEEDER)
    assert result.exit_code == 0, result.output
    lines = assert_sheet_is_sound(out, "silhouette-4", FEEDER)
    typed = what_to_type(lines)
    assert typed == "A5 landscape, Silhouette, 4 marks: inset 15.88 mm, length 19.5 mm, thickness 1 mm"
    named = shlex.split(build_line(lines))
    assert named[2:] == ["--cutter", "silhouette-4", "--paper", "a5", "--orientation", "landscape",
                         "--mark-inset", "15.875", "--mark-length", "19.5", "--cut-file", "svg"]
    named_label, named_manifest = build_tiki(tmp_path / "named", *named[2:])
    assert named_label.endswith(typed)
    plain_label, plain_manifest = build_tiki(tmp_path / "plain", "--cutter", "silhouette-4", "--paper", "a5",
                                             "--mark-inset", FEEDER)
    assert "A5 landscape" in plain_label and plain_manifest["cutter"]["length_mm"] == 20
    assert placed_fronts(named_manifest) == placed_fronts(plain_manifest)
