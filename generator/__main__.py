"""``python -m generator`` runs the same CLI as the ``deckpress`` command."""

from generator.cli import main

if __name__ == "__main__":
    main()
