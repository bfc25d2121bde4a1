"""``python -m app.cli.example [OUT]``: write the bundled example workbook
(``resources/example.xlsx``) again from the seed's cases A-F."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from core.engine.evaluation import evaluate
from core.io.workbook import export_workbook
from core.model.examples import EXAMPLE_WORKBOOK, seed_document

__all__ = ["write_example"]


def write_example(argv: Sequence[str] | None = None) -> int:
    """Write the seed's cases as an audited workbook; returns the exit status."""
    p = argparse.ArgumentParser(prog="python -m app.cli.example")
    p.add_argument("output", nargs="?", default=str(EXAMPLE_WORKBOOK))
    args = p.parse_args(argv)
    export_workbook(evaluate(seed_document()), Path(args.output))
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(write_example())
