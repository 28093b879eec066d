"""The layouts page of the documentation names every key the layout schema (and so the loader) knows,
each with a default and an example, so a designer never has to read the code to find one."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from generator.cli import cli

PAGE = Path(__file__).resolve().parents[1] / "docs" / "reference" / "layouts.md"
HEADING = "## Every key"
CODE = re.compile(r"`([^`]+)`")


def schema_keys(node: Any) -> set[str]:
    """Every property name anywhere in a JSON Schema: top-level settings, element keys, nested ones."""
    found: set[str] = set()
    if isinstance(node, dict):
        found |= set(node.get("properties", {}))
        for value in node.values():
            found |= schema_keys(value)
    elif isinstance(node, list):
        for value in node:
            found |= schema_keys(value)
    return found


def reference_rows() -> list[list[str]]:
    """The cells of each row of the reference's table (the header and rule left out)."""
    text = PAGE.read_text(encoding="utf-8")
    assert HEADING in text, f"docs/reference/layouts.md has no '{HEADING}' section"
    section = text.split(HEADING, 1)[1]
    section = re.split(r"^#{1,3} ", section, maxsplit=1, flags=re.MULTILINE)[0]
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in section.splitlines() if line.startswith("|")]
    return rows[2:]


def test_the_layout_reference_names_every_key_the_schema_knows():
    schema = json.loads(CliRunner().invoke(cli, ["schema", "layout"]).output)
    keys = schema_keys(schema)
    assert {"valign", "icon_scale", "fonts", "system", "linear"} <= keys  # the walk reaches nested keys
    documented = {name for row in reference_rows() for name in CODE.findall(row[0])}
    assert keys - documented == set(), "keys the layouts page does not list"
    assert documented - keys == set(), "keys the layouts page lists that layouts do not have"


def test_each_key_of_the_reference_has_where_a_default_and_an_example():
    rows = reference_rows()
    assert len(rows) > 40
    for row in rows:
        assert len(row) == 4 and all(row), row
        assert "`" in row[3], row  # the example is written as the layout would write it
