"""Running the preview: a listening socket, the ASGI server and the thread that watches files.

uvicorn serves the application on a socket opened here (so a port already in
use is a one-line error before anything starts, and the address printed is the
one really bound). A thread polls each deck's files, as ``deckpress watch``
does, remakes the snapshot of each deck whose own files changed (a layout
only another deck reads is not one of them) and tells the open pages as each
deck is done. Ctrl-C ends the event streams first, so the server stops at once.
"""

from __future__ import annotations

import errno
import logging
import signal
import socket
import sys
import tempfile
import threading
import time
import webbrowser
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click
import h11
import uvicorn

from generator.errors import InputError, printable
from generator.iterations.revision import revision_of
from generator.serve.app import Broadcaster, allowed_hosts, create_app, is_loopback, url_host
from generator.serve.downloads import Downloads
from generator.serve.images import FaceImages
from generator.serve.preview import DeckPreview
from generator.watching import MAX_SETTLE_LOOKS, SETTLE_SECONDS, CutShortNotice, Snapshot, changed_files

if TYPE_CHECKING:  # only serve --since reads the decks at a revision (see read_baselines)
    from generator.iterations.following import Baseline

WATCH_INTERVAL = 0.25
"""Seconds between looks at the decks' files: a save shows on the page well within a second."""

SHUTDOWN_GRACE = 1
"""Seconds (whole, as uvicorn takes them) a request still running at Ctrl-C gets to finish
before it is cut off. Requests waiting on a drawing or a download answer at once that the
server is stopping, so only a client slow to read its answer is ever waited for this long."""

WATCHER_GRACE = 0.2
"""Seconds the file watcher gets at Ctrl-C to end before the process exits without it. A
deck it is reloading then is dropped half read (it is a daemon thread, and says nothing
once stopped): the preview is stopping, and nobody will look at that snapshot."""


class OneLine(logging.Formatter):
    """The server's own log records, one line each, never a traceback: a fault while
    answering a request is said as ``ERROR: Exception in ASGI application (Type: message)``,
    as the watcher says a reload it could not do. The terminal is the designer's, beside
    their editor; the line names what went wrong, and the page goes on working."""

    def format(self, record: logging.LogRecord) -> str:
        line = record.getMessage().strip()
        error = record.exc_info[1] if record.exc_info else None
        if error is not None:
            line += f" ({type(error).__name__}: {error})"
        return printable(f"{record.levelname}: {line}")


class AlreadyAnswered(logging.Filter):
    """Drops the error logged when the application answers a request the server has already
    answered and closed. A request whose body is malformed (a broken chunk) gets uvicorn's
    own 400 and a warning line, while the application, which had its headers, still answers
    it; h11 refuses that second answer (a LocalProtocolError). The client has its 400, and
    there is nothing more for the designer to see."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, h11.LocalProtocolError)


LOG_CONFIG = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"one_line": {"()": OneLine}},
    "filters": {"already_answered": {"()": AlreadyAnswered}},
    "handlers": {"terminal": {"class": "logging.StreamHandler", "stream": "ext://sys.stderr",
                              "formatter": "one_line", "filters": ["already_answered"]}},
    "loggers": {"uvicorn": {"handlers": ["terminal"], "level": "INFO", "propagate": False}},
}
"""How uvicorn logs (in place of its own configuration, which prints tracebacks)."""


@dataclass(repr=False, eq=False)
class Listening:
    """Where the server listens."""

    host: str
    port: int

    @property
    def url(self) -> str:
        return f"http://{url_host(self.host)}:{self.port}/"


def open_socket(host: str, port: int) -> tuple[socket.socket, Listening]:
    """A listening TCP socket on ``host``:``port`` (0: any free port); InputError if it cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        sock = socket.create_server((host, port), family=family)
    except socket.gaierror:
        raise InputError(f"--host {host}: no such address on this machine") from None
    except OSError as error:
        reason = "it is in use; choose another with --port" if error.errno == errno.EADDRINUSE else \
            (error.strerror or str(error))
        raise InputError(f"cannot listen on {host} port {port}: {reason}") from None
    bound_host, bound_port = sock.getsockname()[:2]
    return sock, Listening(bound_host, bound_port)


class PreviewWatcher:
    """Polls each deck's files and refreshes the decks whose files changed."""

    def __init__(self, previews: list[DeckPreview], images: FaceImages, broadcaster: Broadcaster,
                 report: Callable[[str], None]):
        self._previews = previews
        self._images = images
        self._broadcaster = broadcaster
        self._report = report
        self._stop = threading.Event()
        self._notices = {preview.id: CutShortNotice() for preview in previews}

    def run(self) -> None:
        times = {preview.id: preview.watched_files() for preview in self._previews}
        for preview in self._previews:
            self._tell_cut_short(preview)
        while not self._stop.wait(WATCH_INTERVAL):
            self.look(times)

    def look(self, times: dict[str, Snapshot]) -> None:
        """Reload each deck whose own files differ from ``times`` (deck id -> the files as
        last read), and tell the open pages as soon as each deck is done."""
        for preview in self._previews:
            now = preview.watched_files()
            self._tell_cut_short(preview)
            if now == times[preview.id] or self._stop.is_set():
                continue
            now = self._settled(preview, now)
            changed = sorted({path.name for path in changed_files(times[preview.id], now)})
            self._refresh(preview, changed)
            times[preview.id] = _baseline(preview.watched_files(), now)
            shown = {token for each in self._previews for token in each.snapshot.faces_by_token}
            self._images.keep_only(shown.__contains__)
            self._broadcaster.publish()

    def stop(self) -> None:
        self._stop.set()

    def _tell_cut_short(self, preview: DeckPreview) -> None:
        """Say once that a look at the deck's files stopped at MAX_WATCHED_ENTRIES, and again
        only after a look has seen every file."""
        line = self._notices[preview.id].line(preview.cut_short_in)
        if line is not None:
            self._say(f"{preview.id}: {line}")

    def _settled(self, preview: DeckPreview, now: Snapshot) -> Snapshot:
        """The deck's files' times once they stand still for SETTLE_SECONDS (at most MAX_SETTLE_LOOKS looks)."""
        for _ in range(MAX_SETTLE_LOOKS):
            if self._stop.wait(SETTLE_SECONDS):
                break
            again = preview.watched_files()
            if again == now:
                break
            now = again
        return now

    def _say(self, line: str) -> None:
        if not self._stop.is_set():  # nothing after "stopped"
            self._report(line)

    def _refresh(self, preview: DeckPreview, changed: list[str]) -> None:
        started = time.perf_counter()
        try:
            with self._images.drawing:  # loading registers fonts with reportlab, which draws images
                snapshot = preview.refresh()
        except Exception as error:  # a fault of ours must not end the preview: say it, keep watching
            self._say(f"{preview.id}: could not reload ({type(error).__name__}: {error})")
            return
        errors = sum(problem.is_error for problem in snapshot.problems)
        outcome = "broken, showing the last good cards" if snapshot.stale else \
            f"{errors} error(s)" if errors else "ok"
        self._say(f"{preview.id}: {', '.join(changed)} changed; reloaded in "
                     f"{time.perf_counter() - started:.2f}s ({outcome})")


def _baseline(after: Snapshot, read: Snapshot) -> Snapshot:
    """What the next look compares with: the files as they were when the deck was read.

    A file saved while the deck was being reloaded then differs at the next look
    and is read again. Files the reload newly brought under watch (the deck may
    name other layouts now) start from how they are after it.
    """
    return {path: read.get(path, times) for path, times in after.items()}


class _Server(uvicorn.Server):
    """uvicorn's server, which also ends the event streams when asked to stop."""

    def __init__(self, config: uvicorn.Config, broadcaster: Broadcaster):
        super().__init__(config)
        self._broadcaster = broadcaster

    def handle_exit(self, sig, frame) -> None:
        super().handle_exit(sig, frame)
        self._broadcaster.stop()


def _stop_on_terminate() -> None:
    """Make SIGTERM stop the server as Ctrl-C does, cleaning up, rather than killing it outright.

    uvicorn takes over both signals while it runs and sends them on once it has
    shut down; this handler turns the forwarded SIGTERM into the same stop.
    """
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, signal.default_int_handler)


def serve_decks(paths: list[Path], host: str, port: int, roots: Callable[[Path], list[Path]],
                lang: str | None = None, open_browser: bool = False, quiet: bool = False,
                since: str | None = None) -> None:
    """Load the decks, listen on ``host``:``port`` and serve until Ctrl-C (or SIGTERM).

    ``since``: a git revision; each deck is read as it was then, before anything listens (an
    InputError when it cannot be: no git, no repository, no such revision, a malformed file),
    and the page marks the faces that changed since."""
    baselines = read_baselines(paths, since, quiet) if since is not None else {}
    sock, listening = open_socket(host, port)
    _stop_on_terminate()
    try:
        # A booklet still being built when the server stops may write into the folder as it goes.
        with sock, tempfile.TemporaryDirectory(prefix="deckpress-serve-", ignore_cleanup_errors=True) as folder:
            previews = [DeckPreview(path, roots, lang, baselines.get(path)) for path in paths]
            _serve(sock, listening, previews, Path(folder), open_browser, quiet)
    except KeyboardInterrupt:
        pass  # uvicorn hands Ctrl-C on once it has shut down; stopping is what was asked
    click.echo("stopped")


def read_baselines(paths: list[Path], revision: str, quiet: bool) -> dict[Path, Baseline]:
    """Each deck as it was at ``revision``; InputError for the first that cannot be read there.
    Every revision is looked up before any deck is read, so a mistyped one is said at once."""
    from generator.iterations.following import Baseline  # noqa: PLC0415  (the comparison loads only for --since)

    sources = {path: revision_of(path, revision) for path in paths}
    with click.progressbar(paths, label=f"Reading decks at {printable(revision)}", hidden=quiet,
                           file=sys.stderr) as bar:
        return {path: Baseline(path, sources[path]) for path in bar}


def _serve(sock: socket.socket, listening: Listening, previews: list[DeckPreview], downloads_folder: Path,
           open_browser: bool, quiet: bool) -> None:
    with click.progressbar(previews, label="Loading decks", hidden=quiet, file=sys.stderr) as bar:
        for preview in bar:
            preview.refresh()
    broadcaster = Broadcaster()
    images = FaceImages()

    def report(line: str) -> None:
        if not quiet:
            click.echo(f"{time.strftime('%H:%M:%S')} {printable(line)}")  # a line may quote the deck

    watcher = PreviewWatcher(previews, images, broadcaster, report)
    app = create_app({preview.id: preview for preview in previews}, images, Downloads(downloads_folder, images.drawing),
                     broadcaster, allowed_hosts(listening.host))
    config = uvicorn.Config(app, log_config=LOG_CONFIG, log_level="warning", access_log=False, lifespan="off",
                            timeout_graceful_shutdown=SHUTDOWN_GRACE)
    server = _Server(config, broadcaster)
    thread = threading.Thread(target=watcher.run, name="deckpress-watch", daemon=True)
    thread.start()
    try:
        click.echo(f"serving {len(previews)} deck(s) at {listening.url} (Ctrl-C stops)")
        if not is_loopback(listening.host):
            click.echo(f"note: listening on {listening.host}: other machines on your network can see "
                       "these decks", err=True)
        if open_browser:
            threading.Timer(0.3, webbrowser.open, args=(listening.url,)).start()
        server.run(sockets=[sock])
    finally:
        watcher.stop()
        thread.join(timeout=WATCHER_GRACE)
