"""The addresses the page fetches, made from deck ids, face tokens and file names.

A deck's id is its folder's name unless it declares one, so it may hold any
character a folder name can: ``#``, ``?``, ``%``, spaces, letters of any script.
Each part of an address is percent-encoded whole, so a browser neither cuts it
at ``#`` or ``?`` nor reads ``%`` as the start of an escape; the server hands
the routes each part decoded, as it was before encoding.
"""

from __future__ import annotations

from urllib.parse import quote


def address(*parts: str) -> str:
    """``/part/part/...``, each part percent-encoded (``/`` included) as UTF-8."""
    return "".join("/" + quote(part, safe="") for part in parts)
