"""Print shops: what a print-on-demand shop or an offset printer takes, and proof of it.

- :mod:`~generator.shops.presets`: one YAML file a shop (``shops/presets/``, or a
  deck's or project's own ``shops/``), with the source of each number.
"""
