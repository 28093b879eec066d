"""Running ``deckpress serve`` in its own process for the preview's tests, as a designer would."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

TIMEOUT = 60  # seconds; generous for a busy CI machine, never reached when it works


@dataclass
class Server:
    process: subprocess.Popen
    lines: queue.Queue[str]
    seen: list[str] = field(default_factory=list)
    _url: str = ""

    @property
    def url(self) -> str:
        """The address it announced (without the trailing slash), once it is serving."""
        if not self._url:
            announced = self.wait_for_line("serving")
            self._url = re.search(r"(http://\S+?)/? ", announced).group(1)
        return self._url

    def wait_for_line(self, wanted: str) -> str:
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.5)
            except queue.Empty:
                if self.process.poll() is not None:
                    break
                continue
            self.seen.append(line)
            if wanted in line:
                return line
        raise AssertionError(f"no line with {wanted!r}; saw {self.seen}")

    def get(self, path: str) -> bytes:
        with urllib.request.urlopen(self.url + path, timeout=TIMEOUT) as response:
            return response.read()

    def deck(self, deck_id: str) -> dict:
        decks = json.loads(self.get("/api/decks"))["decks"]
        return next(deck for deck in decks if deck["id"] == deck_id)

    def wait_for_reload(self, deck_id: str, after: int) -> dict:
        """The deck once the server has reloaded it since version ``after`` and shows it
        current and free of errors."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            deck = self.deck(deck_id)
            if deck["version"] > after and not deck["stale"] and not deck["errors"]:
                return deck
            time.sleep(0.05)
        raise AssertionError(f"{deck_id} was not reloaded without errors: {deck['version']}, {deck['stale']}, "
                             f"{deck['problems']}")


async def asgi_get(app, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """``GET path`` (as the server decodes it) through the ASGI application ``app``, as the server
    would hand it over, addressed to 127.0.0.1:8000: the status and the whole body."""
    sent: list[dict] = []
    asked: list[bool] = []
    answered = asyncio.Event()

    async def receive() -> dict:
        if not asked:  # the request, then the client leaves once the answer is complete
            asked.append(True)
            return {"type": "http.request", "body": b"", "more_body": False}
        await answered.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)
        if message["type"] == "http.response.body" and not message.get("more_body"):
            answered.set()

    header_values = {"host": "127.0.0.1:8000", **(headers or {})}
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 50000),
             "headers": [(name.encode(), value.encode()) for name, value in header_values.items()]}
    await app(scope, receive, send)
    start = next(message for message in sent if message["type"] == "http.response.start")
    return start["status"], b"".join(message.get("body", b"") for message in sent
                                     if message["type"] == "http.response.body")


def edit(path: Path, old: str, new: str) -> None:
    """Save ``path`` with ``old`` replaced by ``new``, as a designer's editor would."""
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def line_of(path: Path, text: str) -> int:
    """The number of the first line of ``path`` holding ``text``."""
    return next(number for number, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def _read_lines(stream, lines: queue.Queue[str]) -> None:
    for line in stream:
        lines.put(line.rstrip("\n"))


@contextlib.contextmanager
def running_server(*decks: Path | str, cwd: Path, options: tuple[str, ...] = ()) -> Iterator[Server]:
    """``deckpress serve DECKS --port 0`` until the block ends, then Ctrl-C.

    The block starts while the decks are still loading (other set-up can go on
    meanwhile); the server's ``url`` waits until it is serving."""
    process = subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", *map(str, decks), "--port", "0", *options],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_read_lines, args=(process.stdout, lines), daemon=True).start()
    server = Server(process, lines)
    try:
        yield server
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]
WAIT_MS = 20_000  # generous for a busy CI machine; a save shows within a second when idle


def chromium() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, for a module's ``browser`` fixture; skips the
    module without them (fails under CI=true, where `make test` has installed both)."""
    try:
        from playwright.sync_api import sync_playwright  # noqa: PLC0415  (browser tests only)
    except ImportError:
        sync_playwright = None
    if sync_playwright is None or not CHROMIUM.exists():
        missing = "Playwright for Python" if sync_playwright is None else str(CHROMIUM)
        if os.environ.get("CI") == "true":
            pytest.fail(f"the browser tests need {missing}; `make test` installs it")
        pytest.skip(f"no {missing}: `make test` installs it")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS)
        yield browser
        browser.close()
