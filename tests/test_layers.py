"""The layers of ``generator``: a package imports from its own floor and the floors below it,
never from a floor above, and no two packages import each other, not even through others.

Every import counts: at the top of a module, inside a function, or for type checking
only. The floors, from the bottom (:data:`FLOORS`):

0. the ground modules (``generator/*.py``: errors, paths, findings, loading, reading ...),
   the template sandbox, the words deckpress prints and where a deck's files are read
   from (the disk or a git revision);
1. the deck model; 2. the card renderer; 3. sheets and access checks;
4. booklets, stats, exports and print shops; 5. the verdict; 6. the preview server, the
   new-deck scaffold, the schemas and the comparison of a deck's iterations; 7. the command
   line, and ``python -m generator``.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

GENERATOR = Path(__file__).resolve().parent.parent / "generator"

GROUND = "(ground)"
"""Stands for every module directly in ``generator/`` (but ``__main__``) in :data:`FLOORS`."""

FLOORS = (
    {GROUND, "sandbox", "words", "revisions"},
    {"deck"},
    {"render"},
    {"sheets", "access"},
    {"booklet", "stats", "exports", "shops"},
    {"verdict"},
    {"serve", "scaffold", "schema", "iterations"},
    {"cli", "__main__"},
)

Places = dict[tuple[str, str], list[str]]
"""(importer, imported) -> every ``generator/...py:line`` of an import between them."""


def unit_of(root: Path, dotted: str) -> str:
    """The package (``deck``) or ground module (``errors``) a dotted module name belongs to;
    ``generator`` for the package's own ``__init__``."""
    parts = dotted.split(".")
    if len(parts) > 1 and ((root / parts[1]).is_dir() or (root / f"{parts[1]}.py").is_file()):
        return parts[1]
    return "generator"


def floor_of(root: Path, unit: str) -> int | None:
    """The floor a package or ground module stands on, None for a package no floor names."""
    ground = unit != "__main__" and not (root / unit).is_dir()
    for number, floor in enumerate(FLOORS):
        if (GROUND if ground else unit) in floor:
            return number
    return None


def module_name(root: Path, path: Path) -> list[str]:
    """``generator/deck/model.py`` -> ["generator", "deck", "model"]; a package's
    ``__init__.py`` is the package itself."""
    parts = [root.name, *path.relative_to(root).with_suffix("").parts]
    return parts[:-1] if parts[-1] == "__init__" else parts


def imported(root: Path, path: Path, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The dotted names of the ``generator`` modules (or their packages) ``node`` imports."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if alias.name.split(".")[0] == root.name]
    if node.level:  # relative: from the module's own package, up one more for each extra dot
        package = module_name(root, path)[:None if path.name == "__init__.py" else -1]
        base = package[:len(package) - node.level + 1]
        module = ".".join(base + ([node.module] if node.module else []))
    else:
        module = node.module or ""
    if module.split(".")[0] != root.name:
        return []
    if module == root.name:  # from generator import paths, __version__
        return [f"{module}.{alias.name}" for alias in node.names]
    return [module]


def import_places(root: Path) -> Places:
    """Every import from one package (or ground module) of ``root`` to another."""
    places: Places = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        source = unit_of(root, ".".join(module_name(root, path)))
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for dotted in imported(root, path, node):
                target = unit_of(root, dotted)
                if target != source:
                    places[source, target].append(f"{path.relative_to(root.parent)}:{node.lineno}")
    return places


def upward(root: Path, places: Places) -> list[str]:
    """Each import from a floor below the floor of what it imports, and each unit with no floor."""
    problems = []
    units = {unit for edge in places for unit in edge}
    for unit in sorted(unit for unit in units if floor_of(root, unit) is None):
        problems.append(f"{root.name}/{unit}: '{unit}' stands on no floor: add it to FLOORS in {Path(__file__).name}")
    for (source, target), where in sorted(places.items()):
        low, high = floor_of(root, source), floor_of(root, target)
        if low is not None and high is not None and high > low:
            problems.extend(f"{place}: {source} (floor {low}) imports {target}, a floor above it (floor {high})"
                            for place in where)
    return problems


def circles(places: Places) -> list[str]:
    """The shortest circle of imports through each unit that is in one, each circle once,
    with the first import of each of its steps."""
    imports: dict[str, set[str]] = defaultdict(set)
    for source, target in places:
        imports[source].add(target)
    found: dict[frozenset[tuple[str, str]], str] = {}
    for start in sorted(imports):
        circle = shortest_way(imports, start, start)
        if circle is None:
            continue
        steps = list(zip(circle, circle[1:], strict=False))
        found.setdefault(frozenset(steps), f"circle {' -> '.join(circle)}: " + ", ".join(
            f"{places[step][0]} ({step[0]} -> {step[1]})" for step in steps))
    return list(found.values())


def shortest_way(imports: dict[str, set[str]], start: str, end: str) -> list[str] | None:
    """The shortest chain of imports from ``start`` to ``end`` (at least one step), or None."""
    ways = {target: [start, target] for target in imports[start]}
    waiting = sorted(ways)
    while waiting:
        unit = waiting.pop(0)
        if unit == end:
            return ways[unit]
        for target in sorted(imports.get(unit, ())):
            if target not in ways:
                ways[target] = ways[unit] + [target]
                waiting.append(target)
    return None


def layer_problems(root: Path) -> list[str]:
    """Every import up a floor or in a circle in the package at ``root``, one line each."""
    places = import_places(root)
    return upward(root, places) + circles(places)


def test_no_package_imports_from_a_floor_above_or_in_a_circle():
    problems = layer_problems(GENERATOR)
    assert not problems, "\n".join(problems)


def test_an_import_up_a_floor_and_a_circle_are_named_by_file_and_line(tmp_path):
    root = tmp_path / "generator"
    for package, text in {"deck": "from generator.render.plan import Op\n",
                          "render": "import generator.deck.model\n"}.items():
        (root / package).mkdir(parents=True)
        (root / package / "__init__.py").write_text(f'"""{package}"""\n\n\ndef late():\n    {text}')
    (root / "errors.py").write_text("from . import paths\n")
    (root / "paths.py").write_text("from .errors import Position\n")
    problems = layer_problems(root)
    deck, render = "generator/deck/__init__.py", "generator/render/__init__.py"
    assert problems == [
        f"{deck}:5: deck (floor 1) imports render, a floor above it (floor 2)",
        f"circle deck -> render -> deck: {deck}:5 (deck -> render), {render}:5 (render -> deck)",
        "circle errors -> paths -> errors: generator/errors.py:1 (errors -> paths), "
        "generator/paths.py:1 (paths -> errors)",
    ]
