"""Stats stage: how a deck will play, in numbers.

Pure functions over the deck model, one module a job:

* :mod:`~generator.stats.spec`: the deck's ``stats:`` section, checked;
* :mod:`~generator.stats.composition`: counts and shares by any field;
* :mod:`~generator.stats.odds`: exact (hypergeometric) draw odds;
* :mod:`~generator.stats.dice`: roll odds against card rewards;
* :mod:`~generator.stats.simulation`: seeded runs of a deck's game plugin;
* :mod:`~generator.stats.analysis`: all of the above for one deck;
* :mod:`~generator.stats.tables` and :mod:`~generator.stats.report`: text, JSON, PDF and PNG.
"""

import importlib

_EXPORTS = {"DeckStats": "analysis", "Request": "analysis", "analyse": "analysis", "Outcome": "simulation"}
"""Names the package offers and the module each lives in. They are imported on first use,
so ``check``, which reads only the ``stats:`` section, never loads the analysis."""


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'generator.stats' has no attribute {name!r}")
    return getattr(importlib.import_module(f"generator.stats.{_EXPORTS[name]}"), name)


__all__ = ["DeckStats", "Outcome", "Request", "analyse"]
