"""`deckpress serve` as a server: where it listens, what it refuses, downloads, stopping."""

import asyncio
import http.client
import json
import signal
import socket
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from cli_run import CARDS, deckpress
from pypdf import PdfReader
from serve_support import TIMEOUT, asgi_get, edit, running_server

from generator.cli.watch import watched_roots
from generator.scaffold import create_deck
from generator.serve.app import Broadcaster, allowed_hosts, create_app
from generator.serve.downloads import Downloads
from generator.serve.images import FaceImages
from generator.serve.preview import DeckPreview

OUTSIDE_PATHS = [
    "/../../etc/passwd",
    "/%2e%2e/%2e%2e/etc/passwd",
    "/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
    "/..%2f..%2f..%2fetc%2fpasswd",
    "/static/../../etc/passwd",
    "/static/..%2f..%2fetc%2fpasswd",
    "/static/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    "/static/..%252f..%252fetc%252fpasswd",
    "/static/%2Fetc%2Fpasswd",
    "/static/..%5c..%5cetc%5cpasswd",
    "/static//etc/passwd",
    "//etc/passwd",
    "/static/preview.js/../../../etc/passwd",
    "/faces/space-race/..%2f..%2f..%2fetc%2fpasswd",
    "/faces/space-race/..%2fdeck.yaml",
    "/download/space-race/..%2f..%2f..%2fetc%2fpasswd",
    "/download/space-race/deck.yaml",
    "/cards/space-race/deck.yaml",
    "/deck.yaml",
    "/static/%00",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("serve")
    folder = create_deck(root / "cards", "space-race")
    with running_server(folder, cwd=root) as server:
        server.folder = folder
        server.root = root
        yield server


def raw_get(url: str, path: str, host: str | None = None) -> tuple[int, bytes]:
    """GET ``path`` exactly as written, no normalising by the client."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=TIMEOUT)
    try:
        connection.putrequest("GET", path, skip_host=host is not None)
        if host is not None:
            connection.putheader("Host", host)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def listening_addresses(port: int) -> set[str]:
    """Local addresses (hex, as the kernel lists them) with a socket listening on ``port``."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            local, state = row.split()[1], row.split()[3]
            address, hex_port = local.rsplit(":", 1)
            if state == "0A" and int(hex_port, 16) == port:
                found.add(address)
    return found


def test_listens_on_loopback_only_by_default(server):
    parts = urlsplit(server.url)
    assert parts.hostname == "127.0.0.1"
    assert raw_get(server.url, "/")[0] == 200
    if Path("/proc/net/tcp").exists():
        assert listening_addresses(parts.port) == {"0100007F"}  # 127.0.0.1, and nothing else


@pytest.mark.parametrize("path", OUTSIDE_PATHS)
def test_requests_for_anything_else_are_refused(server, path):
    status, body = raw_get(server.url, path)
    assert status in (400, 404), (path, status)
    assert b"root:" not in body and b"Knight" not in body


def test_its_own_assets_and_images_are_served(server):
    status, body = raw_get(server.url, "/static/preview.js")
    assert status == 200 and b"EventSource" in body
    with urllib.request.urlopen(server.url + "/", timeout=TIMEOUT) as response:
        policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy  # nothing from elsewhere
    face = server.deck("space-race")["faces"][0]
    status, body = raw_get(server.url, face["image"])
    assert status == 200 and body.startswith(b"\x89PNG")


def test_a_request_naming_another_host_is_refused(server):
    """A page elsewhere that re-points its own name at 127.0.0.1 gets nothing (DNS rebinding)."""
    status, body = raw_get(server.url, "/api/decks", host="evil.example")
    assert status == 400 and b"Knight" not in body


def _ipv6_loopback_available() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not _ipv6_loopback_available(), reason="this machine has no IPv6 loopback")
def test_listening_on_ipv6_loopback_refuses_other_host_names(tmp_path):
    """On ::1 the preview is as private as on 127.0.0.1: its own names only, and no 'network' note."""
    folder = create_deck(tmp_path / "cards", "space-race")
    with running_server(folder, cwd=tmp_path, options=("--host", "::1")) as server:
        assert server.url.startswith("http://[::1]:")
        assert raw_get(server.url, "/api/decks", host="evil.example")[0] == 400
        port = urlsplit(server.url).port
        for own_name in (f"[::1]:{port}", f"localhost:{port}"):
            status, body = raw_get(server.url, "/api/decks", host=own_name)
            assert status == 200 and b"space-race" in body
    printed = server.seen + list(server.lines.queue)  # everything the server said, once it stopped
    assert not [line for line in printed if "other machines" in line]


def test_downloads_are_built_on_demand_outside_the_project(server):
    deck = server.deck("space-race")
    pdf = server.get(deck["downloads"]["print"])
    assert pdf.startswith(b"%PDF")
    assert deckpress("build", server.folder, "--out", server.root / "expected", "--quiet").exit_code == 0
    expected = PdfReader(server.root / "expected" / "space-race.pdf")
    assert len(PdfReader(__import__("io").BytesIO(pdf)).pages) == len(expected.pages)
    assert server.get(deck["downloads"]["booklet"]).startswith(b"%PDF")
    assert not (server.root / "build").exists()  # nothing written into the designer's build/


def test_a_save_while_a_download_is_answered_leaves_it_whole(tmp_path):
    """The deck is saved, and the saved deck downloaded from another tab, just as an earlier
    download's file is ready: that download is still the whole PDF of the deck as it was (not
    a 500 because the save removed its file), and the next one is the saved deck's."""
    folder = create_deck(tmp_path / "cards", "moon")
    assert deckpress("build", folder, "--out", tmp_path / "before", "--quiet").exit_code == 0
    preview = DeckPreview(folder / "deck.yaml", watched_roots)
    preview.refresh()
    images = FaceImages()
    downloads = Downloads(tmp_path / "served", images.drawing)
    build = downloads.file

    def build_then_save_and_build_again(deck_id, snapshot, kind):
        ready = build(deck_id, snapshot, kind)
        if snapshot.version == 1:  # the first download, its file ready, not sent yet
            edit(folder / "deck.yaml", "Archer, power: 2,", "Archer, power: 7,")
            preview.refresh()
            build(deck_id, preview.snapshot, kind)  # another tab downloads the saved deck
        return ready

    downloads.file = build_then_save_and_build_again
    app = create_app({preview.id: preview}, images, downloads, Broadcaster(), allowed_hosts("127.0.0.1"))

    async def download_twice() -> list[tuple[int, bytes]]:
        return [await asgi_get(app, "/download/moon/moon.pdf") for _ in range(2)]

    (status, before), (status_after, after) = asyncio.run(download_twice())
    assert status == 200 and before == (tmp_path / "before" / "moon.pdf").read_bytes()
    assert deckpress("build", folder, "--out", tmp_path / "after", "--quiet").exit_code == 0
    assert status_after == 200 and after == (tmp_path / "after" / "moon.pdf").read_bytes() != before


def test_a_malformed_chunked_request_is_refused_in_at_most_a_line_each(tmp_path):
    """A request whose chunked body is malformed gets a 400; the serve terminal shows at most a
    line for each, never a traceback."""
    folder = create_deck(tmp_path / "cards", "moon")
    with running_server(folder, cwd=tmp_path, options=("--quiet",)) as server:
        parts = urlsplit(server.url)
        for _ in range(3):
            with socket.create_connection((parts.hostname, parts.port), timeout=TIMEOUT) as client:
                client.sendall(f"GET /api/decks HTTP/1.1\r\nHost: {parts.netloc}\r\n"
                               "Transfer-Encoding: chunked\r\n\r\nzz\r\n".encode())
                assert client.recv(65536).startswith(b"HTTP/1.1 400 ")
        assert json.loads(server.get("/api/decks"))["decks"][0]["id"] == "moon"  # still serving
        server.process.send_signal(signal.SIGINT)
        server.wait_for_line("stopped")
    said = [line for line in server.seen if not line.startswith(("serving ", "stopped"))]
    assert "Traceback" not in "\n".join(said) and len(said) <= 3, said


def test_a_port_in_use_is_a_one_line_error(tmp_path):
    folder = create_deck(tmp_path / "cards", "space-race")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = deckpress("serve", folder, "--port", str(port))
    assert run.exit_code == 2
    assert run.error_lines == [f"error: cannot listen on 127.0.0.1 port {port}: "
                               "it is in use; choose another with --port"]


def test_ctrl_c_during_downloads_stops_at_once_without_a_traceback(tmp_path):
    with running_server(CARDS / "gold-rush", CARDS / "tiki", cwd=tmp_path) as server:
        answers: list[tuple[int, bytes]] = []

        def download(path: str) -> None:
            try:
                answers.append((200, server.get(path)))
            except urllib.error.HTTPError as error:
                answers.append((error.code, error.read()))

        assert server.url  # waits until it is serving
        requests = [threading.Thread(target=download, args=(f"/download/{deck}/{deck}-rules-booklet.pdf",))
                    for deck in ("gold-rush", "tiki")]
        for request in requests:
            request.start()
        time.sleep(0.3)  # both booklets are being built
        server.process.send_signal(signal.SIGINT)
        started = time.monotonic()
        assert server.process.wait(timeout=TIMEOUT) == 0
        stopped_in = time.monotonic() - started
        server.wait_for_line("stopped")
        for request in requests:
            request.join(TIMEOUT)
    output = "\n".join(server.seen)
    assert "Traceback" not in output and "ERROR" not in output, output
    assert stopped_in < 5  # an idle server stops in half a second; a booklet build is not waited for
    assert sorted(answers) == [(503, b"the preview server is stopping")] * 2


def test_ctrl_c_stops_the_server_while_a_page_is_listening(server):
    """Last in this file: it stops the server the other tests share."""
    parts = urlsplit(server.url)
    stream = socket.create_connection((parts.hostname, parts.port), timeout=TIMEOUT)
    stream.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    received = b""
    while b"event: deck" not in received:
        chunk = stream.recv(65536)
        assert chunk, received
        received += chunk
    server.process.send_signal(signal.SIGINT)
    started = time.monotonic()
    assert server.process.wait(timeout=TIMEOUT) == 0
    assert time.monotonic() - started < 15  # stops now, not when the page goes away (never)
    server.wait_for_line("stopped")
    stream.close()
