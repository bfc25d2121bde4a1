"""A lifted query's cells read with the factor that brings them back
(" x 2^-1023") while its block is lifted, and as any block's once a grade of
the normal range typed into it lifts it no more: checked as a spreadsheet
shows them, by Gnumeric's ``ssconvert --recalc`` (the text of each cell as
displayed, conditional formats applied). A missing ``ssconvert`` fails."""

from __future__ import annotations

import csv
import shutil
import subprocess
from pathlib import Path

import pytest

from core.engine.evaluation import evaluate
from core.io.workbook import export_workbook
from core.io.workbook.layout import SHEETS
from tests.libreoffice import edit
from tests.test_workbook_libreoffice import (
    TINY_CONVENTIONS,
    _grade_rows,
    _set_cells,
    tiny_document,
)


def shown(path: Path, folder: Path) -> list[list[str]]:
    """The Candidates sheet's cells as Gnumeric shows them, recalculated."""
    exe = shutil.which("ssconvert")
    if exe is None:
        raise FileNotFoundError("ssconvert not found: install gnumeric")
    out = folder / f"{path.stem}_%s.csv"
    subprocess.run([exe, "--recalc", "-S", "-T", "Gnumeric_stf:stf_assistant", "-O",
                    "format=preserve separator=;", str(path), str(out)],
                   check=True, capture_output=True, timeout=120)
    sheet = folder / f"{path.stem}_{SHEETS['candidates']}.csv"
    with open(sheet, encoding="utf-8", newline="") as fh:
        return list(csv.reader(fh, delimiter=";"))


@pytest.mark.parametrize("suffix", ["xlsx", "ods"])
def test_a_lifted_blocks_label_follows_its_grades(tmp_path: Path, suffix: str) -> None:
    """Grades 1e-323, 5e-324, 1e-323 (lifted by 2^1023): the ideal
    contribution, tie-averaged gain and its product read '8.8818E-16 x
    2^-1023'. A grade 3 typed in the block's first row: its factor is 1,
    and its cells read with four decimals as any block's, 3.0000 (the
    label stayed: '3.0000E+00 x 2^-1023', a number 2^1023 times too small);
    the other lifted blocks keep theirs. The .ods typed in LibreOffice and
    saved there, which keeps the condition (a style:map on the formula)."""
    doc = tiny_document()
    path = tmp_path / f"tiny.{suffix}"
    export_workbook(evaluate(doc, TINY_CONVENTIONS), path)
    typed = tmp_path / f"typed.{suffix}"
    if suffix == "xlsx":
        _set_cells(path, typed, {f"F{_grade_rows(path, doc)[0]}": 3.0})
    else:  # typed in LibreOffice, which keeps the condition as it saves
        edit([(path, typed, [{"op": "set", "sheet": SHEETS["candidates"], "cell": "F2",
                              "value": 3.0}])])
    lifted = [row[14] for row in shown(path, tmp_path)[1:]]
    assert lifted[:3] == ["8.8818E\u221216 x 2^-1023", "5.6038E\u221216 x 2^-1023",
                          "2.2204E\u221216 x 2^-1023"]
    rows = shown(typed, tmp_path)[1:]
    assert [(r[14], r[23], r[24]) for r in rows[:3]] == [
        ("3.0000", "3.0000", "3.0000"), ("0.0000", "0.0000", "0.0000"),
        ("0.0000", "0.0000", "0.0000")]
    # (LibreOffice keeps 15 digits of a number: 5e-324 saved moves the
    # tied block's last digits; its label stays)
    assert all(r[c].endswith(" x 2^-1023") for r in rows[3:10] for c in (14, 23, 24))
    assert [r[14] for r in rows[10:]] == ["2.0000", "0.6309", "0.0000"]  # (whole grades)
