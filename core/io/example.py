"""The bundled example worksheet (``resources/example.xlsx``): the seed's cases
A-F (:mod:`core.model.examples`) as an audited workbook.

``python -m core.io.example [OUT]`` writes it again from the seed's cases.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from core.io.workbook import export_workbook, read_workbook
from core.model.document import Document
from core.model.examples import EXAMPLE_WORKBOOK, seed_document

__all__ = ["load_example", "write_example"]


def load_example() -> Document:
    """The bundled example worksheet (``resources/example.xlsx``)."""
    return read_workbook(EXAMPLE_WORKBOOK)


def write_example(argv: Sequence[str] | None = None) -> int:
    """``python -m core.io.example [OUT]``: write the seed's cases as a workbook."""
    p = argparse.ArgumentParser(prog="python -m core.io.example")
    p.add_argument("output", nargs="?", default=str(EXAMPLE_WORKBOOK))
    args = p.parse_args(argv)
    export_workbook(seed_document(), Path(args.output))
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(write_example())
