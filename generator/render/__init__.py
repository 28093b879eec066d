"""Card faces: layout templates, fonts, icons, text fitting and drawing.

``load_renderer(deck)`` gives a :class:`Renderer` that knows the deck's card
size and bleed, tells which faces are drawn identically (``face_key``), checks
that every face can be laid out (``validate``) and draws a face onto a
reportlab canvas (``draw``). The stages inside, in the order a face goes
through them:

- :mod:`~generator.render.units`: lengths in mm, in, pt and percentages
- :mod:`~generator.render.fonts`: the font registry and families (embedded TrueType only)
- :mod:`~generator.render.icons`: vector icons, drawn from shape data or SVG files
- :mod:`~generator.render.svg`: SVG art and icons, checked as untrusted, drawn as paths
- :mod:`~generator.render.images`: raster art, bounded before decoding, downsampled to print
  resolution
- :mod:`~generator.render.paint`: named, hex and field-chosen colours
- :mod:`~generator.render.templating`: Jinja2 in the sandbox, compiled once per layout
- :mod:`~generator.render.layout`: layout files, ``extends``, elements in points
- :mod:`~generator.render.markup`: ``**bold**``, ``*italic*``, ``:icon:`` and ``[word]{.style}``
  in card text, parsed into spans
- :mod:`~generator.render.runs`: spans -> words of runs in their fonts, measured (the one
  place that decides which font draws a run)
- :mod:`~generator.render.text`: titles shrink onto one line, body text wraps and shrinks
- :mod:`~generator.render.plan`: one face's fields -> the exact things to draw
- :mod:`~generator.render.draw`: a plan onto a canvas
"""

from generator.render.renderer import Renderer, face_context, load_renderer

__all__ = ["Renderer", "face_context", "load_renderer"]
