"""The shop a command was asked for (``--for SHOP``), found once for each place it is looked up.

A deck or its project may have a preset of its own under the name asked for
(:func:`~generator.shops.presets.find_preset`), so the preset is found deck by deck;
its inks (the ICC transforms) are made once a preset, however many decks use it.
"""

from __future__ import annotations

from pathlib import Path

from generator.shops.inks import PressInks
from generator.shops.presets import Preset, find_preset, is_preset_file


class ShopChoice:
    """``--for NAME``: the preset each deck gets under that name, and each preset's inks."""

    def __init__(self, name: str, drawing: bool = False) -> None:
        """A preset named by its file is read now, so a mistake in it is said once, not once a deck.
        ``drawing``: the shop's files are drawn after the checks (``build --for``), whose inks
        then keep the art they convert for it."""
        self.name = name
        self.drawing = drawing
        self._presets: dict[Path, Preset] = {}
        self._inks: dict[Path, PressInks] = {}
        self._file = find_preset(name) if is_preset_file(name) else None

    def preset(self, deck_folder: Path | None) -> Preset:
        """The preset for a deck in ``deck_folder`` (raises InputError for an unknown or broken one)."""
        if self._file is not None:
            return self._file
        key = (deck_folder or Path(".")).resolve()
        if key not in self._presets:
            self._presets[key] = find_preset(self.name, deck_folder)
        return self._presets[key]

    def inks(self, preset: Preset) -> PressInks | None:
        """The press's inks for a CMYK preset (None for an RGB one), made once a preset file."""
        if not preset.is_cmyk:
            return None
        key = preset.path.resolve()
        if key not in self._inks:
            self._inks[key] = PressInks(preset, keep_art=self.drawing)
        return self._inks[key]
