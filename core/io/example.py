"""The bundled example worksheet (``resources/example.xlsx``): the seed's cases
A-F (:mod:`core.model.examples`) as an audited workbook.

``python -m app.cli.example [OUT]`` writes it again from the seed's cases.
"""

from __future__ import annotations

from core.io.workbook import read_workbook
from core.model.document import Document
from core.model.examples import EXAMPLE_WORKBOOK

__all__ = ["load_example"]


def load_example() -> Document:
    """The bundled example worksheet (``resources/example.xlsx``)."""
    return read_workbook(EXAMPLE_WORKBOOK)
