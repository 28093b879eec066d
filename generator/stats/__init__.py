"""Stats stage: how a deck will play, in numbers.

Pure functions over the deck model, one module a job:

* :mod:`~generator.stats.spec`: the deck's ``stats:`` section, checked;
* :mod:`~generator.stats.composition`: counts and shares by any field;
* :mod:`~generator.stats.odds`: exact (hypergeometric) draw odds;
* :mod:`~generator.stats.dice`: roll odds against card rewards;
* :mod:`~generator.stats.simulation`: seeded runs of a deck's game plugin;
* :mod:`~generator.stats.analysis`: all of the above for one deck;
* :mod:`~generator.stats.tables` and :mod:`~generator.stats.report`: text, JSON, PDF and PNG.

Callers import from the module that does the job, so ``check``, which reads only the
``stats:`` section and prepares its questions, never loads the analysis or the simulation.
"""
