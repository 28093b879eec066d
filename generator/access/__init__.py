"""Cards everyone can read: contrast and colour-blind checks, and simulated vision.

- :mod:`~generator.access.contrast`: every text element of every distinct face
  against the colour painted behind it (WCAG 2 contrast ratio), read from the
  renderer's plan (:mod:`~generator.access.backdrop` finds what is behind);
- :mod:`~generator.access.colourblind`: colours a layout picks by a card's
  field, compared pair by pair as protanopes, deuteranopes and tritanopes see
  them (Machado et al. 2009; CAM02-UCS distance);
- :mod:`~generator.verdict.access`: both as warnings in the verdict ``check`` gives;
- :mod:`~generator.access.accepting`: a deck's ``accept:`` entries applied to warnings;
- :mod:`~generator.access.simulation`: images recoloured as those players see
  them, for ``export --png --simulate``;
- :mod:`~generator.access.colours`: the formulas and thresholds, with their sources.
"""
