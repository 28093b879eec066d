"""Print shops: what a print-on-demand shop or an offset printer takes, and proof of it.

- :mod:`~generator.shops.presets`: one YAML file a shop (``shops/presets/``, or a deck's
  or project's own ``shops/``), the source of each number beside it;
- :mod:`~generator.shops.rules`: the one table of what a shop rejects a file for, and
  what each PDF/X standard demands;
- :mod:`~generator.shops.faces`: the deck's side of the rules (``check --for``);
- :mod:`~generator.shops.inks`: sRGB colours and images into the press's CMYK (LittleCMS);
- :mod:`~generator.shops.pdf`, :mod:`~generator.shops.pdfx`, :mod:`~generator.shops.press`:
  the shop's file, one face a page or one image a face (``build --for``);
- :mod:`~generator.shops.preflight`: the file's side of the rules, for any PDF
  (``deckpress preflight``).
"""
