"""Which of the watched files a deck's preview is made from, so a save reloads only the decks it concerns.

Each deck is watched as ``deckpress watch`` watches it: its own folder (the deck,
its rules, images, spreadsheets, translations), the project's ``layouts/`` and
the fonts. The layouts folder is shared by every deck, yet a deck reads from it
only the layouts it names and those they extend: a save there concerns the deck
when the file bears one of those names (a new file of that name may take the
place of one found further along the search path). Other files there (an
icon's picture, say) are taken to concern every deck, as is everything else
watched.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.deck.model import Deck
from generator.errors import DeckpressError
from generator.loading import load_yaml
from generator.render.layout import BUILTIN_LAYOUTS_DIR, LAYOUT_SUFFIX, MAX_EXTENDS, find_layout
from generator.render.renderer import SIDES, Renderer, layout_search_path, side_layouts


@dataclass(repr=False, eq=False)
class Dependencies:
    """The layouts a deck reads, and the shared folders they are looked up in."""

    layouts: frozenset[str]
    shared_folders: tuple[Path, ...]

    def concern(self, path: Path) -> bool:
        """True when a change to ``path`` (one of the watched files) can change the deck's preview."""
        if path.suffix != LAYOUT_SUFFIX:
            return True
        resolved = path.resolve()
        if not any(folder in resolved.parents for folder in self.shared_folders):
            return True
        return path.stem in self.layouts


def deck_dependencies(deck: Deck, renderer: Renderer | None) -> Dependencies:
    """What the deck reads from the shared layout folders: the layouts ``renderer`` was loaded
    from (each :attr:`~generator.render.layout.Layout.files`), or, while the deck's layouts do
    not load (``renderer`` None), those their ``extends`` chains name."""
    search = layout_search_path(deck)
    own, builtin = deck.folder.resolve(), BUILTIN_LAYOUTS_DIR.resolve()
    shared = tuple(folder.resolve() for folder in search if folder.resolve() not in (own, builtin))
    names = layout_names(deck, search) if renderer is None else frozenset(
        path.stem for layout in renderer.layouts.values() for path in layout.files if path.suffix == LAYOUT_SUFFIX)
    return Dependencies(names, shared)


def layout_names(deck: Deck, search: list[Path]) -> frozenset[str]:
    """The layouts the deck names and every layout they extend, by name.

    A layout that cannot be found or read ends its chain here: its name is
    watched, and the save that mends it reloads the deck and follows the chain on.
    At most ``MAX_EXTENDS`` names a side are followed, as many as the layout check reads for
    the front's chain and the back's together.
    """
    names: set[str] = set()
    waiting = list(side_layouts(deck).values())
    while waiting and len(names) < len(SIDES) * MAX_EXTENDS:
        name = waiting.pop()
        if name in names:
            continue
        names.add(name)
        try:
            data = load_yaml(find_layout(name, search, confined=(deck.folder,))).data
        except DeckpressError:
            continue
        parent = data.get("extends") if isinstance(data, dict) else None
        if isinstance(parent, str):
            waiting.append(parent)
    return frozenset(names)
