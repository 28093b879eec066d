"""The web application: the page, its packaged assets, face images, live updates, downloads.

Every address is one of a fixed few. Images are found by token among the faces
the decks show, downloads by name among the three files a deck has, assets by
name among the files packaged in ``static/``: no part of a request is ever
joined onto a path, so nothing outside what the preview renders can be read.
Responses forbid scripts, styles and images from anywhere but the page's own
server, and requests must name the host the server listens as, so a web page
elsewhere cannot read the decks through the browser (DNS rebinding); nor can it
make the preview draw or build, even blind: requests for anything but the page
and its assets that a browser says come from another site are refused
(:mod:`generator.serve.origins`).
"""

from __future__ import annotations

import asyncio
import ipaddress
import threading
from collections.abc import AsyncIterator, Callable
from importlib.resources import files
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from generator.errors import DeckpressError
from generator.serve.addresses import address
from generator.serve.downloads import Downloads, Lease
from generator.serve.images import FaceImages
from generator.serve.origins import foreign_request
from generator.serve.preview import DeckPreview, download_links

KEEPALIVE_SECONDS = 15.0
"""An event stream idle this long gets a comment line, so proxies and browsers keep it open."""

MEDIA_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
               ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml"}

T = TypeVar("T")

SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; "
                               "script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class Broadcaster:
    """Wakes every open event stream when a deck's snapshot changes.

    Snapshots are made in the watching thread; :meth:`publish` hands the news to
    the server's event loop, where the streams wait.
    """

    def __init__(self) -> None:
        self.stopping = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None

    def publish(self) -> None:
        """Safe from any thread, and from a signal handler."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._wake)

    def stop(self) -> None:
        """End every stream, so the server can shut down at once."""
        self.stopping = True
        self.publish()

    async def until_stopped(self) -> None:
        """Return once :meth:`stop` is called."""
        while not self.stopping:
            await self.wait(KEEPALIVE_SECONDS)

    async def wait(self, timeout: float) -> bool:
        """Wait until the next publish (True) or ``timeout`` seconds (False)."""
        if self._event is None:
            self._loop = asyncio.get_running_loop()
            self._event = asyncio.Event()
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
            return True
        except asyncio.TimeoutError:
            return False

    def _wake(self) -> None:
        if self._event is not None:
            woken, self._event = self._event, asyncio.Event()
            woken.set()


class Stopping(Exception):
    """The server was asked to stop while a request's work was still going on."""


async def in_background(broadcaster: Broadcaster, work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` on a thread of its own, awaited until it is done or the server stops
    (then :class:`Stopping`, at once).

    Drawing a face or building a booklet cannot be interrupted: at Ctrl-C the request
    answers that the server is stopping, and the thread (a daemon) is left to end with
    the process rather than hold up its exit, as a worker of the server's thread pool would.
    """
    loop = asyncio.get_running_loop()
    result: asyncio.Future = loop.create_future()

    def settle(value: Any, error: BaseException | None) -> None:
        if result.done():  # given up on: the server stopped first
            return
        if error is not None:
            result.set_exception(error)
        else:
            result.set_result(value)

    def run() -> None:
        try:
            value, error = work(*args), None
        except Exception as failure:  # handed to the request, which reports it
            value, error = None, failure
        try:
            loop.call_soon_threadsafe(settle, value, error)
        except RuntimeError:  # the server has stopped and its loop is closed: nobody is waiting
            pass

    threading.Thread(target=run, name="deckpress-draw", daemon=True).start()
    stopped = asyncio.ensure_future(broadcaster.until_stopped())
    try:
        await asyncio.wait({result, stopped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopped.cancel()
    if not result.done():
        result.cancel()
        raise Stopping()
    return result.result()


def packaged_assets() -> dict[str, tuple[bytes, str]]:
    """Name -> (bytes, media type) for every file in the package's ``static/`` folder."""
    assets = {}
    for entry in files("generator.serve").joinpath("static").iterdir():
        suffix = "." + entry.name.rsplit(".", 1)[-1]
        if entry.is_file() and suffix in MEDIA_TYPES:
            assets[entry.name] = (entry.read_bytes(), MEDIA_TYPES[suffix])
    return assets


def is_loopback(host: str) -> bool:
    """Whether an address (or ``localhost``) is reachable only from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def allowed_hosts(host: str) -> list[str]:
    """Host names a request may carry: this machine's names when listening on loopback, else any.

    Refusing other names keeps a web page elsewhere from reaching the preview by
    pointing its own name at this machine (DNS rebinding). An IPv6 address comes
    in brackets in a Host header, as in ``[::1]:8000``.
    """
    if not is_loopback(host):
        return ["*"]
    if ":" in host:
        return sorted({url_host(host), "localhost"})
    return sorted({host, "127.0.0.1", "localhost"})


def url_host(host: str) -> str:
    """``host`` as a URL or a Host header writes it: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host else host


def create_app(previews: dict[str, DeckPreview], images: FaceImages, downloads: Downloads,
               broadcaster: Broadcaster, hosts: list[str]) -> Starlette:
    """The ASGI application serving ``previews`` (deck id -> preview)."""
    assets = packaged_assets()

    async def page(request: Request) -> Response:
        return asset_response("index.html")

    async def asset(request: Request) -> Response:
        return asset_response(request.path_params["name"])

    def asset_response(name: str) -> Response:
        if name not in assets:
            return not_found()
        content, media_type = assets[name]
        return Response(content, media_type=media_type, headers={"Cache-Control": "no-cache"})

    async def decks(request: Request) -> Response:
        body = "[" + ",".join(preview.snapshot.payload for preview in previews.values()) + "]"
        return Response('{"decks": ' + body + "}", media_type="application/json",
                        headers={"Cache-Control": "no-store"})

    async def events(request: Request) -> Response:
        return StreamingResponse(event_stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store"})

    async def event_stream() -> AsyncIterator[str]:
        sent: dict[str, int] = {}
        yield "retry: 1000\n\n"  # reconnect quickly after the server restarts
        while not broadcaster.stopping:
            for deck_id, preview in previews.items():
                snapshot = preview.snapshot
                if sent.get(deck_id) != snapshot.version:
                    sent[deck_id] = snapshot.version
                    yield f"event: deck\ndata: {snapshot.payload}\n\n"
            if not await broadcaster.wait(KEEPALIVE_SECONDS) and not broadcaster.stopping:
                yield ": still here\n\n"

    async def face_image(request: Request) -> Response:
        preview = previews.get(request.path_params["deck"])
        name = request.path_params["name"]
        if preview is None or not name.endswith(".png"):
            return not_found()
        token = name[:-len(".png")]
        snapshot = preview.snapshot
        face = snapshot.faces_by_token.get(token)
        if face is None or snapshot.drawable is None:
            return not_found()
        try:
            data = await in_background(broadcaster, images.png, token, snapshot.drawable.renderer, face.card,
                                       face.side)
        except DeckpressError:
            return not_found()
        except Stopping:
            return stopping()
        # A token names one drawing for good: the browser may keep it as long as it likes.
        return Response(data, media_type="image/png",
                        headers={"Cache-Control": "public, max-age=31536000, immutable"})

    async def download(request: Request) -> Response:
        deck_id = request.path_params["deck"]
        preview = previews.get(deck_id)
        if preview is None:
            return not_found()
        snapshot = preview.snapshot
        links = {link: kind for kind, link in download_links(deck_id, snapshot).items() if link}
        kind = links.get(address("download", deck_id, request.path_params["name"]))
        if kind is None:
            return PlainTextResponse("not available now: the deck has no such file, or problems to fix "
                                     "first (see the page)", status_code=404)
        try:
            lease = await in_background(broadcaster, downloads.file, deck_id, snapshot, kind)
        except DeckpressError as error:
            return PlainTextResponse(f"error: {error}", status_code=409)
        except Stopping:
            return stopping()
        return LeasedFileResponse(lease, media_type="application/pdf", filename=lease.path.name,
                                  headers={"Cache-Control": "no-store"})

    routes = [
        Route("/", page),
        Route("/static/{name}", asset),
        Route("/api/decks", decks),
        Route("/events", events),
        Route("/faces/{deck}/{name}", face_image),
        Route("/download/{deck}/{name}", download),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=hosts), Middleware(SecurityHeaders),
                  Middleware(ForeignRequests)]
    return Starlette(routes=routes, middleware=middleware)


def not_found() -> Response:
    return PlainTextResponse("not found", status_code=404)


def stopping() -> Response:
    return PlainTextResponse("the preview server is stopping", status_code=503,
                             headers={"Connection": "close", "Retry-After": "1"})


class LeasedFileResponse(FileResponse):
    """A built download, sent from its file, which is given back once the response is sent
    or the client goes away: until then a save cannot delete it (see :class:`Lease`)."""

    def __init__(self, lease: Lease, **options: Any) -> None:
        super().__init__(lease.path, **options)
        self.lease = lease

    async def __call__(self, scope, receive, send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.lease.release()


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every response."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(name.lower().encode(), value.encode()) for name, value in SECURITY_HEADERS.items()]
                message = dict(message, headers=headers)
            await send(message)

        await self.app(scope, receive, send_with_headers)


class ForeignRequests:
    """Answers 403, without doing the work, a request that a page of another site made for
    anything but the preview page and its assets (see :func:`foreign_request`)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
            reason = foreign_request(scope["path"], headers, scope.get("scheme", "http"))
            if reason is not None:
                response = PlainTextResponse(f"refused: {reason}; open the preview's own page to see and "
                                             "download the decks", status_code=403)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
