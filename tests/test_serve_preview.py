"""The preview's snapshots: the faces shown, what a save re-draws, problems, print positions."""

import io
import json
from pathlib import Path

from cli_run import CARDS, deckpress
from PIL import Image
from serve_support import edit, line_of

from generator.cli.watch import watched_roots
from generator.scaffold import create_deck
from generator.serve.images import FaceImages
from generator.serve.preview import DeckPreview


def new_preview(tmp_path: Path) -> tuple[DeckPreview, Path]:
    folder = create_deck(tmp_path / "cards", "space-race")
    preview = DeckPreview(folder / "deck.yaml", watched_roots)
    preview.refresh()
    return preview, folder


def tokens(preview: DeckPreview) -> dict[str, str]:
    """Token by (first card, side) of every face shown."""
    drawable = preview.snapshot.drawable
    return {f"{face.card.id}:{face.side}": drawable.token(face) for face in drawable.faces}


def draw_all(preview: DeckPreview, images: FaceImages) -> None:
    snapshot = preview.snapshot
    for token, face in snapshot.faces_by_token.items():
        assert images.png(token, snapshot.drawable.renderer, face.card, face.side).startswith(b"\x89PNG")


def test_each_distinct_face_once_with_its_copies_and_the_manifest_title(tmp_path):
    preview, folder = new_preview(tmp_path)
    faces = preview.snapshot.drawable.faces
    fronts = [face for face in faces if face.side == "front"]
    backs = [face for face in faces if face.side == "back"]
    assert [face.card.id for face in fronts] == ["knight", "archer", "goblin", "troll", "dragon",
                                                 "fireball", "shield"]
    assert len(backs) == 1 and backs[0].copies == 26 and len(backs[0].cards) == 7  # the shared back, once
    assert {face.card.id: face.copies for face in fronts}["goblin"] == 6

    assert deckpress("build", folder, "--out", tmp_path / "out", "--quiet").exit_code == 0
    manifest = json.loads((tmp_path / "out" / "space-race.json").read_text())
    printed = {(placement["card"], placement["face"]): placement["title"] for placement in manifest["placements"]}
    for face in faces:
        for card in face.cards:
            assert printed[(card.id, face.side)] == face.title


def test_a_save_redraws_only_the_faces_it_changed(tmp_path):
    preview, folder = new_preview(tmp_path)
    images = FaceImages()
    draw_all(preview, images)
    assert images.drawn == 8
    before = tokens(preview)

    earlier = preview.snapshot.drawable
    edit(folder / "deck.yaml", "name: Knight", "name: Paladin")
    preview.refresh()
    after = tokens(preview)
    assert [face for face in before if before[face] != after[face]] == ["knight:front"]
    later = preview.snapshot.drawable
    laid_out_again = [f"{face.card.id}:{face.side}" for face in later.faces
                      if later.renderer.plan(face.card, face.side)
                      is not earlier.renderer.plan(face.card, face.side)]
    assert laid_out_again == ["knight:front"]
    draw_all(preview, images)
    assert images.drawn == 9  # the renamed front, and nothing else

    edit(folder / "deck.yaml", "{id: goblin, count: 6", "{id: goblin, count: 5")
    edit(folder / "deck.yaml", "total: 26", "total: 25")
    preview.refresh()
    draw_all(preview, images)
    assert images.drawn == 9  # a count is not drawn on a face


def test_a_layout_edit_redraws_every_face(tmp_path):
    preview, folder = new_preview(tmp_path)
    before = tokens(preview)
    earlier = preview.snapshot.drawable
    edit(folder / "layout.yaml", 'hero: "#2d63b3"', 'hero: "#1f8f4e"')
    preview.refresh()
    after = tokens(preview)
    assert after.keys() == before.keys()
    assert all(after[face] != before[face] for face in before)
    later = preview.snapshot.drawable
    assert not any(later.renderer.plan(face.card, face.side) is earlier.renderer.plan(face.card, face.side)
                   for face in later.faces)  # a layout edit lays every face out again


def test_a_broken_save_keeps_the_last_good_faces_until_it_is_fixed(tmp_path):
    preview, folder = new_preview(tmp_path)
    deck_file = folder / "deck.yaml"
    edit(deck_file, "{id: knight, count: 4", "{id: knight, count: four")
    snapshot = preview.refresh()
    assert snapshot.stale
    assert [face.card.id for face in snapshot.drawable.faces][:2] == ["knight", "archer"]
    (problem,) = [problem for problem in snapshot.problems if problem.is_error]
    assert problem.position.path == deck_file and problem.position.line == line_of(deck_file, "count: four")
    assert "expected a whole number" in problem.message
    (shown,) = [shown for shown in json.loads(snapshot.payload)["problems"] if shown["severity"] == "error"]
    assert f"deck.yaml:{problem.position.line}:" in shown["where"]
    assert shown["card"] == "knight"  # the broken line is the Knight's entry: linked to its (last good) card

    edit(deck_file, "count: four", "count: 4")
    snapshot = preview.refresh()
    assert not snapshot.stale and not snapshot.has_errors


def test_broken_rules_and_faces_that_do_not_fit_are_listed_with_their_cards(tmp_path):
    preview, folder = new_preview(tmp_path)
    deck_file = folder / "deck.yaml"
    edit(deck_file, "{id: goblin, count: 6", "{id: goblin, count: 7")
    edit(deck_file, "total: 26", "total: 27")
    edit(deck_file, 'text: "[Cancel]{.keyword} a spell played on you."}',
         "text: " + "Cancel a spell played on you. " * 40 + "}")
    snapshot = preview.refresh()
    assert not snapshot.stale  # the deck loads: its cards are current, problems beside them
    page = json.loads(snapshot.payload)
    fit, rule = [problem for problem in page["problems"] if problem["severity"] == "error"]  # in file order
    assert rule["where"].endswith(f"deck.yaml:{line_of(deck_file, 'copies: {max: 6}')}")
    assert "found goblin x7" in rule["message"] and rule["card"] == "goblin"
    assert f"deck.yaml:{line_of(deck_file, 'id: shield')}:" in fit["where"]
    assert "fit" in fit["message"] and (fit["card"], fit["side"]) == ("shield", "front")
    assert page["errors"] == 2
    assert page["downloads"]["print"] is None  # build would refuse this deck
    # the face is shown as a draft prints it: cut off at its smallest size, marked in red
    shield = next(face for face in snapshot.drawable.faces if face.card.id == "shield")
    token = snapshot.drawable.token(shield)
    image = Image.open(io.BytesIO(FaceImages().png(token, snapshot.drawable.renderer, shield.card, "front")))
    colours = image.convert("RGB").getcolors(maxcolors=image.width * image.height)
    assert any(red > 180 and green < 80 and blue < 80 for _, (red, green, blue) in colours)


def test_the_page_lists_exactly_what_check_finds_even_for_text_drawn_cut_off(tmp_path):
    preview, folder = new_preview(tmp_path)
    # Far too long for its box: the page draws it cut off, and the lines cut away lie
    # over the card's dark edge, which must not be measured as behind the text.
    edit(folder / "deck.yaml", 'text: "[Cancel]{.keyword} a spell played on you."}',
         "text: " + "Cancel a spell played on you. " * 40 + "}")
    page = json.loads(preview.refresh().payload)
    run = deckpress("check", folder, "--format", "json")
    checked = json.loads(run.stdout)["decks"][0]["findings"]
    assert [(problem["kind"], problem["where"], problem["message"]) for problem in page["problems"]] == [
        (finding["kind"], f"{finding['file']}:{finding['line']}:{finding['column']}", finding["message"])
        for finding in checked]
    assert [finding["kind"] for finding in checked] == ["fit"]


def test_print_positions_are_the_ones_the_build_manifest_has(tmp_path):
    preview, folder = new_preview(tmp_path)
    snapshot = preview.snapshot
    assert deckpress("build", folder, "--out", tmp_path / "out", "--quiet").exit_code == 0
    manifest = json.loads((tmp_path / "out" / "space-race.json").read_text())
    placed = {(p["card"], p["copy"], p["face"]): (p["page"], p["trim_box"]) for p in manifest["placements"]}
    spots = snapshot.drawable.print_plan.spots
    assert sum(len(copies) for copies in spots.values()) == manifest["cards"] == 26  # three sheets
    for card_id, copies in spots.items():
        for copy, front, back in copies:
            assert (front.page, front.box.rounded()) == placed[(card_id, copy, "front")]
            assert (back.page, back.box.rounded()) == placed[(card_id, copy, "back")]
    # nine cards a sheet, three by three; a long-edge back mirrors the columns
    copy, front, back = spots["archer"][0]
    assert (front.page, front.row, front.column) == (1, 2, 2)
    assert (back.page, back.row, back.column) == (2, 2, 2)
    copy, front, back = spots["archer"][2]
    assert (front.page, front.row, front.column) == (1, 3, 1)
    assert (back.page, back.row, back.column) == (2, 3, 3)


def test_a_translated_deck_shows_its_translated_faces(tmp_path):
    from generator.deck import load_deck
    from generator.deck.translation import load_translated_deck
    from generator.render import load_renderer

    preview = DeckPreview(CARDS / "tiki" / "deck.yaml", watched_roots, lang="fr")
    snapshot = preview.refresh()
    deck = load_translated_deck(CARDS / "tiki", "fr")
    renderer = load_renderer(deck)
    english = {card.fields.get("name") for card in load_deck(CARDS / "tiki").cards}
    titles = [face.title for face in snapshot.drawable.faces]
    assert titles == [renderer.title(face.card, face.side) for face in snapshot.drawable.faces]
    assert set(titles) != english
    assert json.loads(snapshot.payload)["downloads"]["print"] == "/download/tiki/tiki.fr.pdf"


def test_a_broken_layout_keeps_the_last_good_faces_until_it_is_fixed(tmp_path):
    preview, folder = new_preview(tmp_path)
    layout = folder / "layout.yaml"
    edit(layout, "safe: 3.5mm", "safe: lots")
    snapshot = preview.refresh()
    assert snapshot.stale and len(snapshot.drawable.faces) == 8
    (problem,) = [problem for problem in snapshot.problems if problem.is_error]
    assert problem.position.path.name == "layout.yaml" and problem.position.line == line_of(layout, "safe: lots")
    assert json.loads(snapshot.payload)["downloads"]["print"] is None

    edit(layout, "safe: lots", "safe: 3.5mm")
    snapshot = preview.refresh()
    assert not snapshot.stale and not snapshot.has_errors


def test_a_save_made_while_the_deck_reloads_is_read_too(tmp_path):
    import threading
    import time

    from generator.serve.app import Broadcaster
    from generator.serve.server import PreviewWatcher

    preview, folder = new_preview(tmp_path)
    deck_file = folder / "deck.yaml"
    reload = preview.refresh
    names_read: list[str] = []

    def refresh_while_saving():
        snapshot = reload()
        names_read.append(next(face.title for face in snapshot.drawable.faces if face.card.id == "knight"))
        if len(names_read) == 1:  # the designer saves again while the first save is being read
            edit(deck_file, "name: Paladin", "name: Templar")
        return snapshot

    preview.refresh = refresh_while_saving
    watcher = PreviewWatcher([preview], FaceImages(), Broadcaster(), report=lambda line: None)
    times = {preview.id: preview.watched_files()}  # taken before the save, however late the thread starts
    stopped = threading.Event()

    def watch():
        while not stopped.wait(0.05):
            watcher.look(times)

    thread = threading.Thread(target=watch)
    thread.start()
    try:
        edit(deck_file, "name: Knight", "name: Paladin")
        deadline = time.monotonic() + 30
        while len(names_read) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stopped.set()
        thread.join()
    assert names_read == ["Paladin", "Templar"]
