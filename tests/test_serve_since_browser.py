"""``serve --since REV`` in a real browser: the marks appear on the faces that changed, say
why as text, follow each save, and "Changed only" hides the rest.

Headless Chromium (Debian's package) driven by Playwright, as in test_serve_browser.py:
skipped without a browser on a developer's machine, failed in CI. Set
DECKPRESS_SCREENSHOTS to a folder to keep screenshots of the page at each step.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from iterations_support import edit, project
from serve_support import WAIT_MS, chromium, running_server

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


def screenshot(page, name: str) -> None:
    folder = os.environ.get("DECKPRESS_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def tile(page, title: str):
    return page.locator("#grid .tile", has=page.locator(f'img[alt="{title}"]'))


def test_changed_faces_are_marked_with_why_and_changed_only_hides_the_rest(tmp_path: Path, browser):
    project(tmp_path)
    deck = tmp_path / "cards" / "game" / "deck.yaml"
    with running_server("cards/game", cwd=tmp_path, options=("--since", "HEAD")) as server:
        # The page keeps the server's content policy: the marks must work under it, with no error.
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        page.goto(server.url + "/")
        page.wait_for_selector("#grid .tile img", timeout=WAIT_MS)
        assert page.locator("#since-panel").is_visible()
        assert page.locator("#since-revision").inner_text() == "HEAD"
        assert page.locator("#grid .tile.since").count() == 0
        assert page.locator("#since-summary").inner_text() == "Nothing prints differently since HEAD."

        # Text quoted from the deck is shown as text: markup in it makes no element.
        edit(deck, "text: Smash.", 'text: "Smash <img src=x onerror=window.pwned=1> twice."')
        edit(deck, "  - {id: troll, name: Troll, text: Regrow., strength: 4}\n", "")
        ogre = tile(page, "Ogre")
        ogre.locator(".since-tag").wait_for(timeout=WAIT_MS)
        page.wait_for_selector("#since-removed li", timeout=WAIT_MS)
        assert page.locator("#grid .tile.since").count() == 1
        assert ogre.locator(".since-tag").inner_text().lower() == "changed"
        assert ogre.locator(".reason").inner_text() == "text changed"
        assert page.locator("#since-removed li").inner_text().startswith("Troll ×1")
        assert "HEAD:cards/game/deck.yaml:" in page.locator("#since-removed li .where").inner_text()
        outline = ogre.locator(".face").evaluate("face => getComputedStyle(face).outlineStyle")
        assert outline == "solid"
        screenshot(page, "since-marked")

        page.click("#changed-only")
        assert page.locator("#changed-only").get_attribute("aria-pressed") == "true"
        shown = page.locator("#grid .tile:visible img").evaluate_all("images => images.map(image => image.alt)")
        assert shown == ["Ogre"]
        assert page.locator("#count").inner_text().startswith("1 of ")
        screenshot(page, "since-changed-only")

        ogre.click()
        details = page.locator("#detail-since")
        details.wait_for(timeout=WAIT_MS)
        assert details.locator(".eyebrow").inner_text().lower() == "changed since head"
        assert 'text: "Smash." -> "Smash <img src=x onerror=window.pwned=1> twice."' in details.inner_text()
        assert page.locator("#detail-since img, #since-panel img, #grid figcaption img").count() == 0
        assert page.evaluate("window.pwned") is None
        screenshot(page, "since-detail")
        page.keyboard.press("Escape")

        # A new card appears marked, the marks following the save; the filter still applies.
        edit(deck, "art: art/golem.png}\n",
             "art: art/golem.png}\n  - {id: wisp, name: Wisp, text: Fly away., strength: 1}\n")
        wisp = tile(page, "Wisp")
        wisp.locator(".since-tag").wait_for(timeout=WAIT_MS)
        assert wisp.locator(".reason").inner_text() == "new card"
        assert "since-new" in (wisp.get_attribute("class") or "")
        shown = page.locator("#grid .tile:visible img").evaluate_all("images => images.map(image => image.alt)")
        assert shown == ["Ogre", "Wisp"]

        page.click("#changed-only")
        assert page.locator("#changed-only").get_attribute("aria-pressed") == "false"
        assert page.locator("#grid .tile:visible").count() == 5  # imp, ogre, golem, wisp and the shared back
        screenshot(page, "since-new-card")
        assert errors == []
        page.close()
