"""Copy, Paste grades, Fill down and Find, driven by real key clicks on the main window."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QLineEdit, QTableView

from app.clipboard_actions import cell_text, install_clipboard_actions
from app.find import columns_said, install_find
from app.models.candidates import GridColumn
from app.settings import Settings
from app.window import MainWindow
from core.io.example import load_example
from core.model.document import Document, GradeState
from tests.appboxes import Boxes

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
L = math.log2(3)


@pytest.fixture
def shown(boxes: Boxes) -> list[str]:
    """Message boxes' texts (tests/appboxes.py: never modal in tests)."""
    return boxes.shown


def _model_order(window: MainWindow) -> None:
    """The grid's columns shown in the model's order (the tests count
    Shift+Right presses by it; a test moves its own)."""
    header = window.grid.horizontalHeader()
    for visual in range(header.count()):
        header.moveSection(header.visualIndex(visual), visual)


@pytest.fixture
def window(qtbot: Any) -> MainWindow:
    Settings().reviewer = "ana"
    win = MainWindow(load_example())
    qtbot.addWidget(win, before_close_func=lambda w: w.session.mark_saved())
    win.clipboard_actions = install_clipboard_actions(win)
    win.find_bar = install_find(win)
    _model_order(win)
    win.resize(1200, 700)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    win.grid.setFocus()
    return win


def active_window(qtbot: Any, doc: Document) -> MainWindow:
    """A window on ``doc`` for reviewer ana, its clipboard actions
    installed, shown and active (the context its shortcuts need)."""
    Settings().reviewer = "ana"
    win = MainWindow(doc)
    qtbot.addWidget(win, before_close_func=lambda w: w.session.mark_saved())
    install_clipboard_actions(win)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)  # the shortcuts' context
    return win


def _go(window: MainWindow, row: int, col: int) -> QTableView:
    grid = window.grid
    grid.setCurrentIndex(grid.model().index(row, col))
    grid.setFocus()
    return grid


def _grades(window: MainWindow) -> list[str]:
    model = window.grid.model()
    return [cell_text(model.index(r, GridColumn.GRADE).data()) for r in range(model.rowCount())]


def test_cell_text_keeps_full_precision():
    assert cell_text(0.1 + 0.2) == "0.30000000000000004"
    assert cell_text(1 / L) == repr(1 / L)
    assert cell_text(None) == ""
    assert cell_text(float("nan")) == ""
    assert cell_text(3) == "3"
    assert cell_text("unknown") == "unknown"
    # A whole number reads as typed: a grade of 2 is "2", not "2.0".
    assert cell_text(2.0) == "2"
    assert cell_text(-1.0) == "-1"
    assert cell_text(2.5) == "2.5"
    assert cell_text(1e300) == "1e+300"  # beyond exact integers: repr


def test_copy_a_rectangle_with_full_precision(qtbot: Any, window: MainWindow):
    grid = _go(window, 0, GridColumn.SOURCE)
    qtbot.keyClick(grid, Qt.Key.Key_Down, SHIFT)
    for _ in range(GridColumn.DISCOUNT - GridColumn.SOURCE):
        qtbot.keyClick(grid, Qt.Key.Key_Right, SHIFT)
    qtbot.keyClick(grid, Qt.Key.Key_C, CTRL)
    text = QGuiApplication.clipboard().text()
    rows = [line.split("\t") for line in text.split("\n")[:-1]]
    assert text.endswith("\n")
    # case-A in ranked order: B (score 3, grade 1), then A (score 2, grade 3).
    # (the reviewer's note, empty, between the grade state and the gain)
    assert [r[:7] for r in rows] == [
        ["B", "v1", "3", "1", "number", "", "1"],
        ["A", "v1", "2", "3", "number", "", "3"],
    ]
    assert rows[0][7] == "1"
    assert float(rows[1][7]) == pytest.approx(1 / L, rel=1e-15)
    assert len(rows[1][7]) >= 17  # not the grid's rounded 0.6309


def test_copy_takes_the_columns_as_shown(qtbot: Any, window: MainWindow):
    """The editor shows Grade after Source (before Version and Score: a
    moved section); Source and Grade selected with Shift+Right copy those
    two, in that order. Under Xvfb the installed editor copied Source,
    Version, Score and Grade: the columns between them in the model."""
    header = window.grid.horizontalHeader()
    header.moveSection(header.visualIndex(GridColumn.GRADE), GridColumn.SOURCE + 1)
    grid = _go(window, 0, GridColumn.SOURCE)
    source = grid.visualRect(grid.model().index(0, GridColumn.SOURCE)).center()
    qtbot.mouseClick(grid.viewport(), Qt.MouseButton.LeftButton, pos=source)
    qtbot.keyClick(grid, Qt.Key.Key_Right, SHIFT)
    qtbot.keyClick(grid, Qt.Key.Key_Down, SHIFT)
    qtbot.keyClick(grid, Qt.Key.Key_C, CTRL)
    assert QGuiApplication.clipboard().text() == "B\t1\nA\t3\n"


def test_paste_a_column_of_grades_is_one_undo_step(qtbot: Any, window: MainWindow,
                                                   shown: list[str]):
    QGuiApplication.clipboard().setText("2\r\nN/A\r\npartial support\r\n")  # from Excel
    grid = _go(window, 0, GridColumn.GRADE)
    before = window.session.position
    qtbot.keyClick(grid, Qt.Key.Key_V, CTRL)
    assert shown == []
    doc = window.document
    members = {doc.source_id[i]: i for i in doc.members(0)}
    assert doc.grade[members["B"]] == 2.0
    assert doc.state[members["A"]] == GradeState.UNRATEABLE
    assert doc.grade[members["C"]] == 1.0
    assert window.session.position == before + 1
    assert [a.note for a in doc.audit[-3:]] == ["pasted"] * 3
    assert doc.original_grade[members["A"]] == 3.0  # raw grades untouched
    window.session.undo()
    assert (doc.grade[members["B"]], doc.grade[members["A"]], doc.grade[members["C"]]) == (
        1.0, 3.0, 0.0)
    assert doc.state[members["A"]] == GradeState.NUMBER


def test_a_50_cell_paste_is_one_re_evaluation_and_so_is_its_undo(
        qtbot: Any, monkeypatch: pytest.MonkeyPatch, shown: list[str]):
    import core.session

    n = 60
    doc = Document.from_columns(query=["q"] * n, source_id=[f"https://x.org/{i}" for i in range(n)],
                                score=[float(n - i) for i in range(n)], grade=[None] * n)
    win = active_window(qtbot, doc)
    calls = {"reevaluate": 0, "evaluate": 0, "summary": 0, "navigator": 0}
    real_re, real_ev = core.session.reevaluate, core.session.evaluate
    monkeypatch.setattr(core.session, "reevaluate", lambda *a, **kw: (
        calls.__setitem__("reevaluate", calls["reevaluate"] + 1), real_re(*a, **kw))[1])
    monkeypatch.setattr(core.session, "evaluate", lambda *a: (
        calls.__setitem__("evaluate", calls["evaluate"] + 1), real_ev(*a))[1])
    show, navigate = win.summary_panel.show_query, win.navigator.set_evaluation
    monkeypatch.setattr(win.summary_panel, "show_query", lambda *a: (
        calls.__setitem__("summary", calls["summary"] + 1), show(*a))[1])
    monkeypatch.setattr(win.navigator, "set_evaluation", lambda *a, **k: (
        calls.__setitem__("navigator", calls["navigator"] + 1), navigate(*a, **k))[1])
    QGuiApplication.clipboard().setText("".join(f"{i % 4}\r\n" for i in range(50)))
    grid = _go(win, 0, GridColumn.GRADE)
    qtbot.keyClick(grid, Qt.Key.Key_V, CTRL)
    assert shown == []
    assert win.document.grade[:50].tolist() == [float(i % 4) for i in range(50)]
    assert calls == {"reevaluate": 1, "evaluate": 0, "summary": 1, "navigator": 1}
    assert win.session.position == 1
    qtbot.keyClick(grid, Qt.Key.Key_Z, CTRL)
    assert np.isnan(win.document.grade[:50]).all()
    assert calls == {"reevaluate": 2, "evaluate": 0, "summary": 2, "navigator": 2}
    qtbot.keyClick(grid, Qt.Key.Key_Z, CTRL | SHIFT)
    assert calls == {"reevaluate": 3, "evaluate": 0, "summary": 3, "navigator": 3}
    assert len(win.document.audit) == 150  # 50 pasted, 50 undone, 50 redone


def test_a_paste_with_bad_cells_applies_nothing_and_names_them(qtbot: Any, window: MainWindow,
                                                               shown: list[str]):
    QGuiApplication.clipboard().setText("2\nbogus\n0.87\n")
    grid = _go(window, 0, GridColumn.GRADE)
    grades = _grades(window)
    count = window.session.position
    qtbot.keyClick(grid, Qt.Key.Key_V, CTRL)
    assert _grades(window) == grades
    assert window.session.position == count
    assert len(shown) == 1
    assert shown[0].startswith("Nothing was pasted: 2 cells are not grades.")
    assert "pasted row 2 (grid row 2, A): 'bogus': not a grade" in shown[0]
    assert "pasted row 3 (grid row 3, C): '0.87': 0.87 is not a grade of the rubric" in shown[0]
    QGuiApplication.clipboard().setText("2\nbogus\n")  # one: the noun and verb agree
    qtbot.keyClick(grid, Qt.Key.Key_V, CTRL)
    assert shown[1].startswith("Nothing was pasted: 1 cell is not a grade.\n")


def test_paste_refuses_too_many_rows_and_several_columns(qtbot: Any, window: MainWindow,
                                                         shown: list[str]):
    grid = _go(window, 1, GridColumn.GRADE)
    QGuiApplication.clipboard().setText("1\n2\n3\n")
    qtbot.keyClick(grid, Qt.Key.Key_V, CTRL)
    QGuiApplication.clipboard().setText("1\t2\n")
    qtbot.keyClick(grid, Qt.Key.Key_V, CTRL)
    grid = _go(window, 2, GridColumn.GRADE)
    QGuiApplication.clipboard().setText("1\n2\n")
    qtbot.keyClick(grid, Qt.Key.Key_V, CTRL)
    assert shown == [
        "The paste has 3 rows but only 2 candidates follow the selected row; nothing was pasted.",
        "Paste one column of grades: the clipboard holds 2 columns.",
        "The paste has 2 rows but only 1 candidate follows the selected row; nothing was pasted.",
    ]
    assert window.session.position == 0


def test_one_value_fills_a_selected_block(qtbot: Any, window: MainWindow, shown: list[str]):
    grid = _go(window, 0, GridColumn.GRADE)
    qtbot.keyClick(grid, Qt.Key.Key_Down, SHIFT)
    QGuiApplication.clipboard().setText("unknown\n")
    qtbot.keyClick(grid, Qt.Key.Key_V, CTRL)
    assert shown == []
    assert _grades(window)[:2] == ["unknown", "unknown"]


def test_fill_down(qtbot: Any, window: MainWindow):
    grid = _go(window, 0, GridColumn.GRADE)
    qtbot.keyClick(grid, Qt.Key.Key_Down, SHIFT)
    qtbot.keyClick(grid, Qt.Key.Key_Down, SHIFT)
    qtbot.keyClick(grid, Qt.Key.Key_D, CTRL)
    assert _grades(window) == ["1", "1", "1"]
    assert window.session.position == 1
    window.session.undo()
    assert _grades(window) == ["1", "3", "0"]
    # One cell: the grade above comes down.
    grid = _go(window, 2, GridColumn.GRADE)
    qtbot.keyClick(grid, Qt.Key.Key_D, CTRL)
    assert _grades(window) == ["1", "3", "3"]


def test_copy_then_paste_round_trips_grades_between_queries(qtbot: Any, window: MainWindow,
                                                            shown: list[str]):
    window.set_query(window.document.query_index("case-D-doubled"))
    grid = _go(window, 0, GridColumn.GRADE)
    qtbot.keyClick(grid, Qt.Key.Key_Down, SHIFT)
    qtbot.keyClick(grid, Qt.Key.Key_Down, SHIFT)
    qtbot.keyClick(grid, Qt.Key.Key_C, CTRL)
    assert QGuiApplication.clipboard().text() == "2\n6\n0\n"
    window.set_query(window.document.query_index("case-F-unknown"))
    grid = _go(window, 0, GridColumn.GRADE)
    QGuiApplication.clipboard().setText("3.0\n1.0\n0.0\n")
    qtbot.keyClick(grid, Qt.Key.Key_V, CTRL)
    assert shown == []
    assert _grades(window) == ["3", "1", "0"]  # the unknown is now judged


# -- find ----------------------------------------------------------------------------------
def test_find_jumps_through_queries_and_sources(qtbot: Any, window: MainWindow):
    qtbot.keyClick(window.grid, Qt.Key.Key_F, CTRL)
    field = window.findChild(QLineEdit, "findField")
    assert field.isVisible()
    assert QApplication.focusWidget() is field
    qtbot.keyClicks(field, "case-e")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert window.current_query_id == "case-E"
    bar = window.find_bar
    assert bar.status.text() == "1 of 1, in Query"
    field.clear()
    qtbot.keyClicks(field, "x")  # source X of case-E only
    qtbot.keyClick(field, Qt.Key.Key_Return)
    doc = window.document
    assert window.current_query_id == "case-E"
    assert doc.source_id[window.grid_model.candidate(window.grid.currentIndex().row())] == "X"
    field.clear()
    qtbot.keyClicks(field, "C")  # source C in 8 queries, query ids case-C, case-…
    matches = bar.matches()
    first = matches[0]
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert bar.position == 0
    assert window.current_query == first[0]
    qtbot.keyClick(field, Qt.Key.Key_Return)
    qtbot.keyClick(field, Qt.Key.Key_Return, SHIFT)  # back
    assert bar.position == 0
    qtbot.keyClick(field, Qt.Key.Key_Return, SHIFT)  # wraps to the last
    assert bar.position == len(matches) - 1
    assert window.current_query == matches[-1][0]
    qtbot.keyClick(field, Qt.Key.Key_Escape)
    assert not bar.isVisible()
    assert QApplication.focusWidget() is window.grid


def test_find_searches_the_reviewers_notes_and_says_which_column_matched(
        qtbot: Any, window: MainWindow):
    """Find searched query and source ids only: a reviewer searching the
    note they wrote ("ask the lead") found nothing. Now a note matches, its
    cell made current, and the bar says which column matched."""
    doc = window.document
    q = int(doc.query_index("case-C"))
    i = int(doc.members(q)[1])
    assert window.set_note(i, "Two pages in one: Ask the lead\nbefore grading")
    window.set_query(0)
    qtbot.keyClick(window.grid, Qt.Key.Key_F, CTRL)
    field = window.findChild(QLineEdit, "findField")
    qtbot.keyClicks(field, "ask the lead")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    bar = window.find_bar
    assert bar.status.text() == "1 of 1, in Note"
    assert window.current_query == q
    index = window.grid.currentIndex()
    assert window.grid_model.candidate(index.row()) == i
    assert index.column() == GridColumn.NOTE
    # a source id matching says so, its grade cell current
    field.clear()
    qtbot.keyClicks(field, "x")  # source X of case-E only
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert bar.status.text() == "1 of 1, in Source"
    assert window.grid.currentIndex().column() == GridColumn.GRADE
    # a note holding the source's id too: both said
    x = int(window.grid_model.candidate(window.grid.currentIndex().row()))
    assert window.set_note(x, "x marks a duplicate")
    field.clear()
    qtbot.keyClicks(field, "x")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert bar.status.text() == "1 of 1, in Source and Note"
    # a candidate whose query id holds the text too: every column named, short
    assert window.set_note(i, "see case-C")
    field.clear()
    qtbot.keyClicks(field, "case-c")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert bar.status.text() == "1 of 2, in Query"
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert bar.status.text() == "2 of 2, in Query and Note"
    assert window.grid_model.candidate(window.grid.currentIndex().row()) == i
    assert window.grid.currentIndex().column() == GridColumn.NOTE  # the note, where it reads
    assert columns_said(["query", "source", "note"]) == "Query, Source and Note"


def test_find_with_no_match_says_so(qtbot: Any, window: MainWindow):
    qtbot.keyClick(window.grid, Qt.Key.Key_F, CTRL)
    field = window.findChild(QLineEdit, "findField")
    q = window.current_query
    qtbot.keyClicks(field, "zzz")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert window.find_bar.status.text() == "no match"
    assert window.current_query == q


def test_ids_with_tabs_breaks_and_quotes_copy_as_libreoffice_does_and_paste_back(
        qtbot: Any, shown: list[str]):
    # LibreOffice's copy (sc/source/ui/docshell/impex.cxx, Doc2Text) quotes a
    # text cell, its quotes doubled, only when it holds a tab or a line
    # break; its paste (ScanNextFieldFromString) takes a cell that begins
    # with a quote as quoted. So: `say "hi"` is copied as it is, a cell that
    # begins with a quote is quoted (else a paste would lose its quotes).
    from core.io.clipboard import parse_range

    ids = ["a\tb", "c\nd", 'say "hi"', '"quoted"', "e\u23ceg"]
    doc = Document.from_columns(query=["q"] * 5, source_id=ids, score=[5, 4, 3, 2, 1],
                                grade=[1, 2, 0, 3, 1])
    Settings().reviewer = "ana"
    window = MainWindow(doc)
    qtbot.addWidget(window, before_close_func=lambda w: w.session.mark_saved())
    window.clipboard_actions = install_clipboard_actions(window)
    _model_order(window)
    window.resize(1200, 700)
    window.show()
    with qtbot.waitActive(window):
        window.activateWindow()
    grid = _go(window, 0, GridColumn.SOURCE)
    for _ in range(4):
        qtbot.keyClick(grid, Qt.Key.Key_Down, SHIFT)
    # (the original grade's column, between them, waits hidden for an edit)
    for _ in range(sum(not grid.isColumnHidden(c)
                       for c in range(GridColumn.SOURCE + 1, GridColumn.GRADE + 1))):
        qtbot.keyClick(grid, Qt.Key.Key_Right, SHIFT)
    qtbot.keyClick(grid, Qt.Key.Key_C, CTRL)
    text = QGuiApplication.clipboard().text()
    lines = ['"a\tb"\t\t5\t1\n', '"c\nd"\t\t4\t2\n', 'say "hi"\t\t3\t0\n',
             '"""quoted"""\t\t2\t3\n', 'e\u23ceg\t\t1\t1\n']
    starts = [0, *(i + 1 for i, ch in enumerate(text) if ch == "\n" and text[i - 1] != "c")]
    assert [text[i:i + len(line)] for i, line in zip(starts, lines, strict=False)] == lines
    assert [row[:4] for row in parse_range(text)] == [  # every id whole
        [i, "", str(5 - n), str(g)] for n, (i, g) in enumerate(zip(ids, [1, 2, 0, 3, 1],
                                                                 strict=True))]
    # The grades copied from rows 1-2 and pasted at row 3: one step.
    grid = _go(window, 1, GridColumn.GRADE)
    qtbot.keyClick(grid, Qt.Key.Key_Up)  # (the selection starts here again)
    qtbot.keyClick(grid, Qt.Key.Key_Down, SHIFT)
    qtbot.keyClick(grid, Qt.Key.Key_C, CTRL)
    assert QGuiApplication.clipboard().text() == "1\n2\n"
    grid = _go(window, 2, GridColumn.GRADE)
    qtbot.keyClick(grid, Qt.Key.Key_V, CTRL)
    assert shown == []
    assert _grades(window) == ["1", "2", "1", "2", "1"]
