"""The live preview: a local web page showing every deck's cards as they print.

One more reader of the renderer, like the exports; it holds no deck logic of
its own. The pieces, in the order data flows:

- :mod:`~generator.serve.dependencies`: which watched files each deck is made from;
- :mod:`~generator.serve.faces` and :mod:`~generator.serve.printing`: the
  distinct faces of a deck and where each card lands on the print sheets;
- :mod:`~generator.serve.preview`: one deck's snapshot, remade on every save,
  keeping the last good cards while a file is broken;
- :mod:`~generator.serve.since`: with ``--since REV``, the faces that print
  differently since a git revision, and why (compared by
  :mod:`generator.iterations`, as ``diff`` compares);
- :mod:`~generator.serve.images`: face images from the print renderer;
- :mod:`~generator.serve.downloads`: the print PDF and booklets, on demand;
- :mod:`~generator.serve.app` (guarded by :mod:`~generator.serve.origins`) and
  :mod:`~generator.serve.server`: the web application and the server and file watching that run it.

The page itself (``static/``) is plain HTML, CSS and JavaScript shipped in the
package: it works offline and loads nothing from elsewhere.
"""

from generator.serve.server import serve_decks

__all__ = ["serve_decks"]
