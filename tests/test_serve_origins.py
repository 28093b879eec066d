"""`deckpress serve` and pages of other sites: a page elsewhere may link to the preview, but a
request it makes for a download, a face image, the decks or their events is refused (403)
before any work is done; the preview's own page, and clients that say nothing of where they
come from, are answered as before."""

from __future__ import annotations

import asyncio
import http.client
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from serve_support import TIMEOUT, asgi_get, running_server

from generator.cli.watch import watched_roots
from generator.scaffold import create_deck
from generator.serve.app import Broadcaster, allowed_hosts, create_app
from generator.serve.downloads import Lease
from generator.serve.origins import foreign_request
from generator.serve.preview import DeckPreview

OWN = {"host": "127.0.0.1:8000"}
EVIL = "http://evil.example"


@pytest.mark.parametrize("path, headers, refused", [
    ("/download/demo/demo.pdf", {"sec-fetch-site": "cross-site"}, True),
    ("/download/demo/demo.pdf", {"sec-fetch-site": "same-site"}, True),  # another port of the same host
    ("/download/demo/demo.pdf", {"origin": EVIL}, True),
    ("/download/demo/demo.pdf", {"origin": "null"}, True),  # a sandboxed frame
    ("/download/demo/demo.pdf", {"origin": "http://127.0.0.1:8001"}, True),
    ("/download/demo/demo.pdf", {"origin": "https://127.0.0.1:8000"}, True),
    ("/download/demo/demo.pdf", {"origin": "http://127.0.0.1:8000", "sec-fetch-site": "cross-site"}, True),
    ("/faces/demo/abc.png", {"sec-fetch-site": "cross-site"}, True),
    ("/api/decks", {"origin": EVIL}, True),
    ("/events", {"sec-fetch-site": "cross-site"}, True),
    ("/download/demo/demo.pdf", {"sec-fetch-site": "same-origin"}, False),
    ("/download/demo/demo.pdf", {"sec-fetch-site": "none"}, False),  # typed or bookmarked
    ("/download/demo/demo.pdf", {"origin": "http://127.0.0.1:8000"}, False),
    ("/download/demo/demo.pdf", {}, False),  # curl, an older browser
    ("/", {"sec-fetch-site": "cross-site", "origin": EVIL}, False),  # a link to the preview opens it
    ("/static/preview.js", {"sec-fetch-site": "cross-site"}, False),
])
def test_which_requests_count_as_coming_from_another_site(path, headers, refused):
    assert (foreign_request(path, {**OWN, **headers}, "http") is not None) == refused


def test_default_ports_may_be_written_or_left_out():
    assert foreign_request("/api/decks", {"host": "localhost", "origin": "http://localhost:80"}, "http") is None
    assert foreign_request("/api/decks", {"host": "localhost:80", "origin": "http://localhost"}, "http") is None
    assert foreign_request("/api/decks", {"host": "[::1]:8000", "origin": "http://[::1]:8000"}, "http") is None
    assert foreign_request("/api/decks", {"host": "localhost", "origin": "http://localhost:x"}, "http") is not None


# -- the application itself: refused requests do no work -------------------------------------

class Recording:
    """Stands in for the face images and the downloads, and counts what they were asked to make."""

    def __init__(self, folder: Path):
        self.made: list[str] = []
        self.drawing = None
        self.pdf = folder / "made.pdf"
        self.pdf.write_bytes(b"%PDF-1.4\n%%EOF\n")

    def png(self, token, renderer, card, side) -> bytes:
        self.made.append(f"face {card.id} {side}")
        return b"\x89PNG"

    def file(self, deck_id, snapshot, kind) -> Lease:
        self.made.append(f"download {kind}")
        return Lease(self.pdf, lambda: None)


def request(app, path: str, headers: dict[str, str]) -> tuple[int, bytes]:
    """``GET path`` through the ASGI application, as the server would hand it over."""
    return asyncio.run(asgi_get(app, path, {**OWN, **headers}))


@pytest.fixture(scope="module")
def application(tmp_path_factory):
    root = tmp_path_factory.mktemp("origins")
    preview = DeckPreview(create_deck(root / "cards", "space-race") / "deck.yaml", watched_roots)
    preview.refresh()
    recording = Recording(root)
    app = create_app({preview.id: preview}, recording, recording, Broadcaster(), allowed_hosts("127.0.0.1"))
    snapshot = preview.snapshot
    face = next(iter(snapshot.faces_by_token))
    return app, recording, {"face": f"/faces/space-race/{face}.png",
                            "print": "/download/space-race/space-race.pdf"}


@pytest.mark.parametrize("what", ["face", "print"])
@pytest.mark.parametrize("headers", [{"sec-fetch-site": "cross-site"}, {"origin": EVIL},
                                     {"sec-fetch-site": "same-site", "origin": "http://127.0.0.1:9999"}])
def test_a_request_from_another_site_is_refused_before_any_work(application, what, headers):
    app, recording, paths = application
    recording.made.clear()
    status, body = request(app, paths[what], headers)
    assert status == 403 and b"another site" in body
    assert recording.made == []


@pytest.mark.parametrize("what, made", [("face", "face knight front"), ("print", "download print")])
def test_the_preview_page_s_own_requests_still_do_the_work(application, what, made):
    app, recording, paths = application
    for headers in ({"sec-fetch-site": "same-origin"}, {"origin": "http://127.0.0.1:8000"}, {}):
        recording.made.clear()
        status, _ = request(app, paths[what], headers)
        assert status == 200 and recording.made == [made], headers


# -- the real server -----------------------------------------------------------------------------

def raw_get(url: str, path: str, headers: dict[str, str]) -> tuple[int, bytes]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=TIMEOUT)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_the_server_refuses_a_cross_site_download_and_serves_its_own_page(tmp_path):
    folder = create_deck(tmp_path / "cards", "space-race")
    with running_server(folder, cwd=tmp_path) as server:
        own = server.url  # http://127.0.0.1:PORT
        deck = server.deck("space-race")
        pdf = deck["downloads"]["print"]
        status, body = raw_get(own, pdf, {"Origin": EVIL, "Sec-Fetch-Site": "cross-site"})
        assert status == 403 and not body.startswith(b"%PDF")
        assert raw_get(own, deck["faces"][0]["image"], {"Sec-Fetch-Site": "cross-site"})[0] == 403
        assert raw_get(own, "/api/decks", {"Origin": EVIL})[0] == 403
        status, page = raw_get(own, "/", {"Sec-Fetch-Site": "cross-site"})  # a link from elsewhere opens the page
        assert status == 200 and b"<html" in page.lower()
        status, body = raw_get(own, pdf, {"Origin": own, "Sec-Fetch-Site": "same-origin"})
        assert status == 200 and body.startswith(b"%PDF")
