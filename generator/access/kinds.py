"""The kinds of warning the access checks report: the names a deck's ``accept:`` entries use.

Kept apart from the checks so that reading a deck file (which refuses an
``accept:`` entry naming a kind that does not exist) loads nothing else.
"""

CONTRAST = "contrast"
COLOUR_BLIND = "colour-blind"

ACCEPTABLE_KINDS = (CONTRAST, COLOUR_BLIND)
"""The warnings a deck can accept with a reason; errors never can."""
