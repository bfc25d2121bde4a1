"""The bundled example (the seed's cases A-F) from the command line.

``ndcg-worksheet example [--format csv|xlsx]`` prints the path of the
bundled example inside this installation (a clone's ``resources/``, an
installed wheel's ``core/resources``), so the commands can take it where
there is no clone: ``ndcg-worksheet evaluate "$(ndcg-worksheet example)"``.

``python -m app.cli.example [OUT]`` (in a clone) writes the bundled example
workbook (``resources/example.xlsx``) again from the seed's cases A-F.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, TextIO

from app.cli.options import Parser
from core.model.examples import EXAMPLE_PATH, EXAMPLE_WORKBOOK

__all__ = ["EXAMPLE_FORMATS", "add_example_parser", "cmd_example", "write_example"]

#: The bundled example by format: the worksheet CSV and the audited workbook
#: (the one the editor opens without a file).
EXAMPLE_FORMATS = {"csv": EXAMPLE_PATH, "xlsx": EXAMPLE_WORKBOOK}


def add_example_parser(sub: Any) -> None:
    """The ``example`` command, on the parser's commands ``sub``."""
    p = sub.add_parser(
        "example", help="print the path of the bundled example (the seed's cases A-F)",
        description="Print the path of the bundled example in this installation, for the "
        "commands to take it without a clone: ndcg-worksheet evaluate \"$(ndcg-worksheet "
        "example)\" --k 1 --k 2 --k all. It belongs to the installation: copy it to edit it.")
    p.add_argument("--format", choices=list(EXAMPLE_FORMATS), default="csv",
                   help="csv (default): the worksheet CSV; xlsx: the audited workbook the "
                   "editor opens without a file")
    p.set_defaults(func=cmd_example)


def cmd_example(args: argparse.Namespace, out: TextIO) -> int:
    """Print the bundled example's path (read it, or copy it to edit it:
    it belongs to the installation)."""
    print(EXAMPLE_FORMATS[args.format], file=out)
    return 0


def write_example(argv: Sequence[str] | None = None) -> int:
    """Write the seed's cases as an audited workbook; returns the exit status."""
    from pathlib import Path

    from core.engine.evaluation import evaluate
    from core.io.workbook import export_workbook
    from core.model.examples import seed_document

    p = Parser(prog="python -m app.cli.example")
    p.add_argument("output", nargs="?", default=str(EXAMPLE_WORKBOOK))
    args = p.parse_args(argv)
    export_workbook(evaluate(seed_document()), Path(args.output))
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(write_example())
