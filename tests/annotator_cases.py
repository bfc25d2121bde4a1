"""What the annotators' sheet tests share (tests/test_annotator_corpus.py,
test_annotator_qrels.py, test_annotator_surveys.py,
test_annotator_workbooks.py, test_annotator_import.py,
test_annotator_consensus.py, test_annotator_guess.py,
test_annotator_cells.py): the corpus of sheets as they really arrive
(tests/data/annotators/, its expected grades), the command line run, a
table of rows as read and the grade states' letters."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from core.model.document import GradeState

#: The corpus and the grades each sheet was written from (expected.json).
DATA = Path(__file__).parent / "data" / "annotators"
EXPECTED: dict[str, dict[str, Any]] = json.loads((DATA / "expected.json").read_text("utf-8"))
SHEETS = sorted(EXPECTED)
#: The grade states, by their first letters.
U, N, R = GradeState.UNKNOWN, GradeState.NUMBER, GradeState.UNRATEABLE


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """The command line run on ``args``: exit code, output, error output."""
    out = io.StringIO()
    code = main(args, out)
    return code, out.getvalue(), capsys.readouterr().err


def write_csv(path: Path, rows: list[list[Any]]) -> Path:
    """``rows`` written as a CSV file at ``path``."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path


def read_table_from_rows(rows: list[list[object]]):  # type: ignore[no-untyped-def]
    """``rows`` as the table the import reads of a file ``t.csv``."""
    from core.io.annotator.model import Table

    return Table(file="t.csv", rows=[list(r) for r in rows])
