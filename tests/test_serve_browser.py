"""The preview page in a real browser: headless Chromium (Debian's package) driven by Playwright.

Without a browser these tests are skipped on a developer's machine and fail in CI
(CI=true), where `make test` installs one. Set DECKPRESS_SCREENSHOTS to a folder
to keep screenshots of the page at each step.
"""

import json
import os
import time
from pathlib import Path

import pytest
from cli_run import CARDS, deckpress
from serve_support import CHROMIUM, CHROMIUM_FLAGS, WAIT_MS, chromium, edit, line_of, running_server

from generator.deck import load_deck
from generator.render import load_renderer
from generator.scaffold import create_deck


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """Started first, so that Chromium starts while the decks load."""
    root = tmp_path_factory.mktemp("project")
    folder = create_deck(root / "cards", "space-race")
    with running_server(folder, CARDS / "gold-rush", cwd=root) as server:
        server.deck_file = folder / "deck.yaml"
        server.root = root
        yield server


@pytest.fixture(scope="module")
def open_page(server, browser):
    """One page on the space-race deck, opened once: every test after the first sees it live."""
    page = new_page(browser)
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(server.url + "/#deck=space-race")
    page.wait_for_selector(".tile img", timeout=WAIT_MS)
    page.evaluate("window.loadedOnce = true")  # gone if the page ever reloads
    yield page
    page.close()


@pytest.fixture
def page(open_page, server):
    """The open page; afterwards the deck file is put back and the page shown as it was."""
    original = server.deck_file.read_text()
    yield open_page
    assert open_page.errors == []
    assert open_page.evaluate("window.loadedOnce") is True
    if open_page.locator("#detail").is_visible():
        open_page.keyboard.press("Escape")
    open_page.locator("#filter").fill("")
    open_page.click('.segmented button[data-side="all"]')
    if server.deck_file.read_text() != original:
        before = server.deck("space-race")["version"]
        server.deck_file.write_text(original)
        version = server.wait_for_reload("space-race", before)["version"]
        open_page.wait_for_selector(f'#grid[data-version="{version}"]', state="attached", timeout=WAIT_MS)


def new_page(browser):
    # Playwright's waiting runs its own script in the page, which the page's policy (scripts
    # from the server only) would refuse; the policy itself is tested on the server's headers.
    return browser.new_page(viewport={"width": 1400, "height": 900}, bypass_csp=True)


def screenshot(page, name: str) -> None:
    folder = os.environ.get("DECKPRESS_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def alt_texts(page) -> list[str]:
    return page.locator("#grid .tile img").evaluate_all("images => images.map(image => image.alt)")


def visible_titles(page) -> list[str]:
    return page.locator("#grid .tile:visible img").evaluate_all("images => images.map(image => image.alt)")


def test_every_face_is_shown_with_its_title_as_alt_text(server, browser):
    deck = load_deck(CARDS / "gold-rush")
    renderer = load_renderer(deck)
    titles: dict[str, str] = {}
    for card in deck.cards:
        for side in ("front", "back"):
            titles.setdefault(renderer.face_key(card, side), renderer.title(card, side))
    # This page keeps the server's content policy: the preview must work under it, with no error.
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    console_errors: list[str] = []
    page.on("console", lambda message: console_errors.append(message.text) if message.type == "error" else None)
    page.goto(server.url + "/#deck=gold-rush")
    page.locator("#grid .tile").nth(len(titles) - 1).wait_for(timeout=WAIT_MS)
    assert sorted(alt_texts(page)) == sorted(titles.values())
    first = page.locator("#grid .tile img").first
    deadline = time.monotonic() + WAIT_MS / 1000
    while not first.evaluate("image => image.complete && image.naturalWidth > 0"):
        assert time.monotonic() < deadline, "the first card's image never loaded"
        time.sleep(0.05)
    assert page.locator("#grid .tile .badge").first.inner_text() == "×3"  # three Cinder Whelps
    assert console_errors == []
    screenshot(page, "gold-rush")
    page.close()


def test_a_rename_saved_to_the_deck_appears_without_reloading(page, server):
    old_image = page.locator('img[alt="Knight"]').get_attribute("src")
    edit(server.deck_file, "name: Knight", "name: Paladin")
    page.wait_for_selector('#grid img[alt="Paladin"]', timeout=WAIT_MS)
    assert 'img[alt="Knight"]' not in page.content() and page.locator('img[alt="Knight"]').count() == 0
    renamed = page.locator('#grid img[alt="Paladin"]')
    assert renamed.get_attribute("src") != old_image
    page.wait_for_function("image => image.complete && image.naturalWidth > 0",
                           arg=renamed.element_handle(), timeout=WAIT_MS)
    assert len(alt_texts(page)) == 8  # the other faces are still there, as they were
    screenshot(page, "renamed")


def test_a_broken_save_shows_where_keeps_the_old_cards_and_recovers(page, server):
    edit(server.deck_file, "{id: knight, count: 4", "{id: knight, count: four")
    line = line_of(server.deck_file, "count: four")
    problem = page.locator("#problems li", has_text=f"deck.yaml:{line}:")
    problem.wait_for(timeout=WAIT_MS)
    assert "expected a whole number" in problem.inner_text()
    assert "stale" in page.locator("#grid").get_attribute("class")
    assert page.locator("#stale").is_visible()
    assert "Knight" in alt_texts(page) and len(alt_texts(page)) == 8  # the last good cards stay
    assert page.locator("#download-print").get_attribute("aria-disabled") == "true"
    screenshot(page, "broken")

    edit(server.deck_file, "count: four", "count: 4")
    page.wait_for_selector("#grid:not(.stale)", timeout=WAIT_MS)
    page.wait_for_selector("#problems li.error", state="detached", timeout=WAIT_MS)
    assert page.locator("#download-print").get_attribute("aria-disabled") is None


def test_the_filter_narrows_the_grid(page):
    assert len(visible_titles(page)) == 8
    filter_box = page.locator("#filter")
    filter_box.fill("type = monster")
    assert sorted(visible_titles(page)) == ["Dragon", "Goblin", "Troll"]
    filter_box.fill("type in hero,spell")
    assert sorted(visible_titles(page)) == ["Archer", "Fireball", "Knight", "Shield"]
    filter_box.fill("type = monster and power >= 3")
    assert sorted(visible_titles(page)) == ["Dragon", "Troll"]
    filter_box.fill("defeat")
    assert sorted(visible_titles(page)) == ["Fireball", "Knight"]
    filter_box.fill("colour = red")
    assert "no field 'colour'" in page.locator("#filter-note").inner_text()
    filter_box.fill("")
    page.click('.segmented button[data-side="back"]')
    assert visible_titles(page) == ["Space Race"]
    assert page.locator("#count").inner_text() == "1 of 8 faces"


def test_a_search_finds_a_back_only_by_its_own_text(page):
    filter_box = page.locator("#filter")
    filter_box.fill("goblin")  # a card's id, which the shared back is printed for too
    assert visible_titles(page) == ["Goblin"]
    filter_box.fill("space race")  # what the shared back prints
    assert visible_titles(page) == ["Space Race"]


def test_a_card_opens_with_its_fields_copies_and_place_on_the_sheets(page, server):
    assert deckpress("build", server.deck_file, "--out", server.root / "out", "--quiet").exit_code == 0
    manifest = json.loads((server.root / "out" / "space-race.json").read_text())
    goblins = [p for p in manifest["placements"] if p["card"] == "goblin" and p["face"] == "front"]

    page.locator("#grid .tile", has=page.locator('img[alt="Goblin"]')).click()
    dialog = page.locator("#detail")
    dialog.wait_for(state="visible", timeout=WAIT_MS)
    assert page.locator("#detail-title").inner_text() == "Goblin"
    assert page.locator("#detail-copies").inner_text().startswith("6 copies")
    assert "power" in page.locator("#detail-fields").inner_text()
    spots = page.locator("#detail-spots li").all_inner_texts()
    assert len(spots) == 6
    assert [spot.split("page ")[1].split(",")[0] for spot in spots] == [str(p["page"]) for p in goblins]
    assert page.locator("#guides .trim").count() == 2 and page.locator("#guides .safe").count() == 2
    assert page.locator("#guides .bleed").count() == 1
    screenshot(page, "detail")
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden", timeout=WAIT_MS)


def test_a_broken_rule_links_to_its_card(page, server):
    edit(server.deck_file, "{id: goblin, count: 6", "{id: goblin, count: 7")
    problem = page.locator("#problems li", has_text="copies")
    problem.wait_for(timeout=WAIT_MS)
    assert f"deck.yaml:{line_of(server.deck_file, 'copies: {max: 6}')}" in problem.inner_text()
    assert not page.locator("#grid").get_attribute("class").count("stale")  # the cards are current
    problem.locator("button").click()
    page.locator("#detail").wait_for(state="visible", timeout=WAIT_MS)
    assert page.locator("#detail-title").inner_text() == "Goblin"
    screenshot(page, "rule-broken")


def test_warnings_are_listed_apart_from_errors(page, server):
    # An accept: entry that matches no warning is itself a warning (and the deck's only one).
    server.deck_file.write_text(server.deck_file.read_text()
                                + "accept:\n  - contrast: {card: knight}\n    reason: checked by eye\n")
    warnings = page.locator("#problems li.warning")
    warnings.first.wait_for(timeout=WAIT_MS)
    assert "accepts a contrast warning (card: knight)" in warnings.first.inner_text()
    assert page.locator("#problems li.error").count() == 0
    assert page.locator("#problem-count").get_attribute("class") == "pill warning"
    assert page.locator("#download-print").get_attribute("aria-disabled") is None  # warnings do not stop a build
    edit(server.deck_file, "{id: goblin, count: 6", "{id: goblin, count: 7")
    page.locator("#problems li.error").first.wait_for(timeout=WAIT_MS)
    assert page.locator("#problem-count").get_attribute("class") == "pill error"
    assert page.locator("#problems li.warning").count() == warnings.count()
    screenshot(page, "errors-and-warnings")


def test_deck_text_is_shown_as_text_never_run_as_page_code(page, server):
    hostile = "Knight <img src=x onerror=window.hacked=1>"
    edit(server.deck_file, "name: Knight,", f'name: "{hostile}",')
    page.locator("#grid .tile .name", has_text="<img").wait_for(timeout=WAIT_MS)
    assert page.locator("#grid .tile .name", has_text="<img").first.inner_text() == hostile
    assert page.locator("#grid .tile .name img").count() == 0
    assert page.evaluate("window.hacked") is None


def test_the_download_buttons_still_download_from_the_preview_s_own_page(page, server):
    with page.expect_download(timeout=WAIT_MS * 3) as download:
        page.click("#download-print")
    assert Path(download.value.path()).read_bytes().startswith(b"%PDF")


def test_a_page_elsewhere_cannot_make_the_preview_draw_or_build(browser, server):
    """A page of another site that frames the preview's addresses gets 403 for each, with the
    headers Chromium itself sends (Sec-Fetch-Site: cross-site). The other site is another name of
    this machine, and a browser of its own lets it reach the preview: Chromium otherwise asks the
    user before a page of another site reaches a loopback address at all, and others do not."""
    deck = server.deck("space-race")
    targets = [server.url + deck["faces"][-1]["image"], server.url + deck["downloads"]["print"]]
    lenient = browser.browser_type.launch(executable_path=str(CHROMIUM), args=[
        *CHROMIUM_FLAGS, "--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests"])
    try:
        page = lenient.new_page()
        elsewhere = "http://localhost:9/"  # answered by the route below: nothing listens there
        page.route(elsewhere, lambda route: route.fulfill(
            content_type="text/html", body="".join(f'<iframe src="{target}"></iframe>' for target in targets)))
        answers: dict[str, int] = {}
        page.on("response", lambda response: answers.__setitem__(response.url, response.status))
        page.goto(elsewhere, wait_until="load")
        deadline = time.monotonic() + WAIT_MS / 1000
        while not all(url in answers for url in targets):
            assert time.monotonic() < deadline, answers
            page.wait_for_timeout(50)
        assert {url: answers[url] for url in targets} == dict.fromkeys(targets, 403)
    finally:
        lenient.close()


def test_a_deck_folder_named_with_url_characters_shows_its_cards_and_downloads(browser, tmp_path):
    """A folder name holding '#', '?', '%', a space and an accent is one check and build take:
    every card image loads, and the Print PDF button downloads the deck's PDF under its name."""
    folder = create_deck(tmp_path / "cards", "moon")
    odd = folder.rename(folder.with_name("moon#2 ?%25é"))
    with running_server(odd, cwd=tmp_path) as server:
        page = new_page(browser)
        page.goto(server.url + "/")
        images = page.locator("#grid .tile img")
        images.first.wait_for(timeout=WAIT_MS)
        deadline = time.monotonic() + WAIT_MS / 1000
        while not images.evaluate_all("all => all.every(image => image.complete && image.naturalWidth > 0)"):
            assert time.monotonic() < deadline, "a card's image never loaded"
            time.sleep(0.05)
        assert images.count() == len(server.deck("moon#2 ?%25é")["faces"])
        with page.expect_download(timeout=WAIT_MS * 3) as download:
            page.click("#download-print")
        assert download.value.suggested_filename == "moon#2 _%25é.pdf"  # Chromium saves '?' as '_'
        assert Path(download.value.path()).read_bytes().startswith(b"%PDF")
        page.close()
