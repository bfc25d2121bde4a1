"""What the annotators' sheet tests share (tests/test_annotator_corpus.py,
test_annotator_qrels.py, test_annotator_surveys.py,
test_annotator_workbooks.py): the corpus of sheets as they really arrive
(tests/data/annotators/, its expected grades) and the command line run."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main

#: The corpus and the grades each sheet was written from (expected.json).
DATA = Path(__file__).parent / "data" / "annotators"
EXPECTED: dict[str, dict[str, Any]] = json.loads((DATA / "expected.json").read_text("utf-8"))
SHEETS = sorted(EXPECTED)


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
