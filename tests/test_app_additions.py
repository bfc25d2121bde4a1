"""The editor's save keeps what a reviewer added to the workbook in a
spreadsheet (a sheet of their own, a column right of the Candidates sheet,
each cell on its candidate's row whatever order the rows were sorted in),
and asks before dropping what it cannot write again (a chart): "Save a
copy" or "Save anyway"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.chart import BarChart, Reference
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QPushButton

from core.engine.evaluation import evaluate
from core.io.workbook import SHEETS, export_workbook, read_workbook
from core.model.document import GradeState
from core.model.examples import seed_document
from tests.test_app_files import _finish, _window
from tests.test_app_window import type_grade
from tests.test_workbook_additions import _key_rows, _sort_candidates


@pytest.fixture
def reviewed(tmp_path: Path) -> Path:
    """The seed's workbook as a reviewer saved it: a sheet "My notes", a
    column "my comment" with two cells, the Candidates rows sorted by source id."""
    book = tmp_path / "reviewed.xlsx"
    export_workbook(evaluate(seed_document()), book)
    wb = openpyxl.load_workbook(book)
    wb.create_sheet("My notes")["A1"] = "ask Ann about case-B"
    ws = wb[SHEETS["candidates"]]
    rows = _key_rows(ws)
    ws["AB1"] = "my comment"
    ws.cell(rows[("case-A", "A")], 28).value = "check this"
    ws.cell(rows[("case-B", "C")], 28).value = "off-topic?"
    _sort_candidates(ws, 2)
    wb.save(book)
    return book


def _row_of(doc: Any, query: str, source: str) -> int:
    return next(i for i in range(len(doc)) if doc.query_ids[int(doc.query[i])] == query
                and doc.source_id[i] == source)


def test_a_grade_typed_and_saved_keeps_their_sheet_and_column(qtbot: Any, reviewed: Path):
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(reviewed))
    doc = window.document
    i = _row_of(doc, "case-B", "C")
    assert (doc.grade[i], doc.state[i]) == (0.0, GradeState.NUMBER)
    window.set_query(doc.query_index("case-B"))
    row = window.grid_model.row_of(i)
    assert row is not None
    type_grade(qtbot, window, row, "2")
    assert window.document.grade[i] == 2.0
    assert ops.save(blocking=True)

    wb = openpyxl.load_workbook(reviewed)
    assert wb["My notes"]["A1"].value == "ask Ann about case-B"
    ws = wb[SHEETS["candidates"]]
    rows = _key_rows(ws)
    assert ws["AB1"].value == "my comment"
    assert ws.cell(rows[("case-A", "A")], 28).value == "check this"
    assert ws.cell(rows[("case-B", "C")], 28).value == "off-topic?"
    assert sum(ws.cell(r, 28).value is not None for r in range(2, ws.max_row + 1)) == 2
    again = read_workbook(reviewed)
    assert again.grade[_row_of(again, "case-B", "C")] == 2.0


def _with_chart(book: Path) -> None:
    wb = openpyxl.load_workbook(book)
    mine = wb["My notes"]
    mine["A2"] = 3
    chart = BarChart()
    chart.add_data(Reference(mine, min_col=1, min_row=2, max_row=2))
    mine.add_chart(chart, "C3")
    wb.save(book)


def _answer(qtbot: Any, button: str, seen: list[str]) -> None:
    """Click ``button`` of the question box once it shows."""
    def click() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, click)
            return
        seen.append(box.text())
        next(b for b in box.findChildren(QPushButton) if b.text() == button).click()

    QTimer.singleShot(0, click)


def test_a_chart_is_named_before_saving_and_save_anyway_keeps_the_rest(
        qtbot: Any, reviewed: Path):
    _with_chart(reviewed)
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(reviewed))
    assert window.set_grade(0, 2.0, GradeState.NUMBER)
    seen: list[str] = []
    _answer(qtbot, "Save anyway", seen)
    assert ops.save(blocking=True)
    assert len(seen) == 1
    assert "charts, images or shapes in sheet 'My notes'" in seen[0]
    wb = openpyxl.load_workbook(reviewed)
    assert (wb["My notes"]["A1"].value, wb["My notes"]["A2"].value) == (
        "ask Ann about case-B", 3)
    assert wb["My notes"]._charts == []


def test_save_a_copy_leaves_the_file_with_its_chart(
        qtbot: Any, reviewed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    _with_chart(reviewed)
    before = reviewed.read_bytes()
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(reviewed))
    assert window.set_grade(0, 2.0, GradeState.NUMBER)
    copy = tmp_path / "copy.xlsx"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(
        lambda *a, **k: (str(copy), "Excel workbook (*.xlsx)")))
    seen: list[str] = []
    _answer(qtbot, "Save a copy…", seen)
    assert not ops.save(blocking=True)  # not over the file ...
    qtbot.waitUntil(lambda: copy.exists(), timeout=10_000)  # ... but as a copy
    qtbot.waitUntil(lambda: window.path == copy, timeout=10_000)
    assert reviewed.read_bytes() == before
    assert openpyxl.load_workbook(copy)["My notes"]["A1"].value == "ask Ann about case-B"
    assert read_workbook(copy).grade[0] == 2.0


def test_the_annotators_sheet_sorted_and_renamed_opens_quiet_and_saves_as_renamed(
        qtbot: Any, tmp_path: Path):
    """A reviewer sorted the Annotators sheet and renamed it (its defined
    name carried along, as Excel and LibreOffice do): the editor opens it
    without a word (no edit), and a save writes the record again under
    their name, with no second Annotators sheet."""
    from core.io.workbook import reopened
    from tests.test_workbook_annotators import HEADER, ROWS, imported, sheet_values
    from tests.test_workbook_annotators_moved import renamed, rewrite

    book = tmp_path / "annot.xlsx"
    export_workbook(evaluate(imported(tmp_path)), book)
    rewrite(book, book, ROWS[::-1])
    renamed(book, book, "Who gave what")
    window, ops = _window(qtbot)
    _finish(qtbot, ops.open_path(book))
    found = reopened(window.document)
    assert found is not None
    assert found.empty, found.lines()
    assert window.outside_edits is None or not window.outside_edits.isVisible()
    from core.io.workbook.additions import lost_by_replacing

    assert lost_by_replacing(book) == []  # nothing to ask before saving (its formats are ours)
    assert ops.save(blocking=True)
    names = openpyxl.load_workbook(book).sheetnames
    assert "Who gave what" in names
    assert SHEETS["annotators"] not in names
    assert sheet_values(book, "Who gave what") == [HEADER, *ROWS]
