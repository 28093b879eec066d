"""Requests a page elsewhere may not make: anything that sets the preview to work.

A web page open in the designer's browser can send requests to the preview
(``<img src="http://127.0.0.1:8000/download/...">``). It cannot read the
answers (the browser keeps them from it), but each one would draw faces or build
a deck on the designer's machine. Browsers say where a request comes from: the
``Sec-Fetch-Site`` header (``same-origin``, ``same-site``, ``cross-site``, or
``none`` for an address typed or bookmarked) and, for many requests, ``Origin``.
A request for anything but the page and its packaged assets is refused when
either says it comes from another site; a request naming neither (a command-line
client, an older browser) is answered as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

OPEN_PATHS = ("/",)
"""Addresses any page may link to: the preview page itself, which does no work to answer."""
OPEN_PREFIXES = ("/static/",)
"""The page's packaged assets, answered from memory."""
FOREIGN_FETCH_SITES = {"cross-site", "same-site"}
"""``Sec-Fetch-Site`` values of a request made by a page of another origin (``same-site`` is
another port or subdomain of the same host: still not the preview's own page)."""
DEFAULT_PORTS = {"http": 80, "https": 443}


def foreign_request(path: str, headers: Mapping[str, str], scheme: str) -> str | None:
    """Why a request for ``path`` with ``headers`` (names in lower case) is refused as coming
    from another site, or None when it may be answered."""
    if path in OPEN_PATHS or path.startswith(OPEN_PREFIXES):
        return None
    fetch_site = headers.get("sec-fetch-site", "").strip().lower()
    if fetch_site in FOREIGN_FETCH_SITES:
        return f"the request comes from another site (Sec-Fetch-Site: {fetch_site})"
    origin = headers.get("origin")
    if origin is not None and not same_origin(origin, scheme, headers.get("host", "")):
        return "the request comes from another site (its Origin is not this server)"
    return None


def same_origin(origin: str, scheme: str, host: str) -> bool:
    """Whether ``origin`` (``http://127.0.0.1:8000``; ``null`` from a sandboxed page) is this
    server as the request's ``Host`` header names it, default ports written or not."""
    try:
        theirs, ours = urlsplit(origin.strip()), urlsplit(f"{scheme}://{host}")
        their_port, our_port = theirs.port, ours.port
    except ValueError:  # a port that is not a number
        return False
    if not theirs.hostname or theirs.scheme != scheme or theirs.path or theirs.query:
        return False
    default = DEFAULT_PORTS.get(scheme)
    return (theirs.hostname == ours.hostname
            and (their_port or default) == (our_port or default))
