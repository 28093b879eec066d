"""Write ``cards.xlsx`` for the Lantern Crawl test deck, as another card tool's tutorial ships it.

The workbook is what a designer brings from elsewhere: one sheet of cards with a bold header
row of capitalised names (``Name``, ``Qty``), numbers stored as numbers, blank cells where a
card has no value, and Excel's two empty default sheets, ``Sheet2`` and ``Sheet3``, left in.
``python tests/decks/workbook/make_workbook.py`` writes it again.
"""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Font

HEADER = ("Name", "Type", "Attack", "Defence", "Art", "Text", "Qty")
CARDS = [
    ("Lamplighter", "Hero", 2, 3, "lantern", "Look at the top card of the dungeon.", 2),
    ("Sellsword", "Hero", 3, 2, "sword", "Fights first.", 2),
    ("Shieldbearer", "Hero", 1, 4, "shield", "Blocks the first hit each turn.", 2),
    ("Cave Rat", "Monster", 1, 1, "fang", None, 4),
    ("Tunnel Troll", "Monster", 4, 3, "fang", "Can only be hit by a Hero with 3 or more Attack.", 1),
    ("Healing Draught", "Item", None, None, "potion", "Heal 2. Then discard this card.", 3),
    ("Iron Buckler", "Item", None, 2, "shield", "Add 2 to Defence: 1 :shield: per fight.", 2),
]


def write_workbook(path: Path) -> None:
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "Cards"
    sheet.append(HEADER)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in CARDS:
        sheet.append(row)
    workbook.create_sheet("Sheet2")
    workbook.create_sheet("Sheet3")
    workbook.save(path)


if __name__ == "__main__":
    write_workbook(Path(__file__).with_name("cards.xlsx"))
