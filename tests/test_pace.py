"""Time per judgment: the clock's arithmetic (hand-worked and invariants), the
seconds carried from a typed grade into the audit log, the workbook (Audit
sheet and reopening), the crash journal, a merge and the round's progress,
and in the window with real key clicks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import openpyxl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QMessageBox

from app.models.candidates import GridColumn
from app.review.queue_view import QueueController
from core.analysis.pace import JudgmentClock, reviewer_pace
from core.analysis.queue import reviewer_progress
from core.analysis.rounds import Returned, merge
from core.io.journal import Journal
from core.io.workbook import SHEETS, export_workbook, read_workbook
from core.model.assignment import Assignment, Share
from core.model.audit import AuditEntry
from core.model.document import GradeState
from core.model.edits import GradeValue, SetGrades
from core.session import Worksheet
from tests.test_rounds import WHEN, base_doc, row, unknown_sources


# -- the clock ------------------------------------------------------------------------
def test_the_clock_counts_pauses_up_to_idle_and_judgments_up_to_the_cap():
    clock = JudgmentClock(start=100.0, idle_after=60.0, cap=300.0)
    clock.active(110.0)
    assert clock.lap(130.0) == 30.0  # 10 + 20 s of work since the start
    clock.active(140.0)  # 10 s, then away for 500 s: counted as 60
    assert clock.lap(640.0) == 70.0
    for t in range(650, 1300, 50):  # busy for 650 s: capped
        clock.active(float(t))
    assert clock.lap(1300.0) == 300.0
    assert clock.lap(1300.0) == 0.0  # a second grade at the same moment took no time
    clock.restart(5000.0)  # another document: nothing before it counts
    assert clock.lap(5012.5) == 12.5


def test_the_clock_refuses_nonsense_limits():
    with pytest.raises(ValueError, match="positive"):
        JudgmentClock(start=0.0, idle_after=0.0)


@given(st.lists(st.tuples(st.floats(0.0, 400.0), st.booleans()), max_size=60),
       st.floats(1.0, 120.0), st.floats(1.0, 900.0))
def test_laps_never_exceed_the_time_elapsed_nor_the_cap(steps, idle, cap):
    clock = JudgmentClock(start=0.0, idle_after=idle, cap=cap)
    t, since = 0.0, 0.0
    for gap, is_grade in steps:
        t += gap
        if is_grade:
            spent = clock.lap(t)
            assert 0.0 <= spent <= min(cap, t - since + 1e-9)
            since = t
        else:
            clock.active(t)


def test_pace_per_reviewer():
    log = [AuditEntry("ana", WHEN, "q", f"d{i}", "unknown", "1", seconds=s)
           for i, s in enumerate([12.0, 8.0, 30.0, 10.0])]
    log += [AuditEntry("ana", WHEN, "q", "d0", "1", "unknown", origin="undo"),
            AuditEntry("ben", WHEN, "q", "d9", "unknown", "2")]  # no timing: not counted
    ana, ben, cara = reviewer_pace(log, ["ana", "ben", "cara"])
    assert (ana.timed, ana.median_seconds) == (4, 11.0)  # the median of 8, 10, 12, 30
    assert ana.per_hour == pytest.approx(3600 * 4 / 60.0)  # 4 judgments in 60 active s
    assert (ben.timed, ben.median_seconds, ben.per_hour) == (0, None, None)
    assert cara.timed == 0


# -- the seconds through the session, workbook, journal and merge -----------------------
def timed_session() -> tuple[Worksheet, list[int]]:
    doc = base_doc([3, 2], seed=21)
    rows = [int(i) for i in np.flatnonzero(doc.state == GradeState.UNKNOWN)]
    ws = Worksheet(doc)
    ws.apply(SetGrades.of([rows[0]], [GradeValue(2.0, GradeState.NUMBER)], who="ana",
                          seconds=14.5))
    # one act over a selection of two: the seconds shared evenly
    ws.apply(SetGrades.of(rows[1:3], [GradeValue(0.0, GradeState.NUMBER)] * 2, who="ana",
                          seconds=9.0))
    ws.apply(SetGrades.of([rows[3]], [GradeValue(1.0, GradeState.NUMBER)], who="ana"))
    return ws, rows


def test_the_session_logs_each_typed_grade_with_its_seconds():
    ws, _ = timed_session()
    assert [e.seconds for e in ws.document.audit] == [14.5, 4.5, 4.5, None]
    ws.undo()
    ws.redo()  # neither an undo nor a redo is a new judgment: not timed
    assert [e.seconds for e in ws.document.audit[-2:]] == [None, None]
    with pytest.raises(ValueError, match="seconds"):
        SetGrades.of([0], [GradeValue(1.0, GradeState.NUMBER)], who="x", seconds=-1.0)


def test_the_workbook_keeps_the_seconds(tmp_path: Path):
    ws, _ = timed_session()
    path = tmp_path / "timed.xlsx"
    export_workbook(ws.evaluation, path)
    sheet = openpyxl.load_workbook(path)[SHEETS["audit"]]
    assert sheet.cell(1, 9).value == "seconds"
    assert [sheet.cell(r, 9).value for r in range(2, 6)] == [14.5, 4.5, 4.5, None]
    assert sheet.cell(2, 9).number_format == "0.0"
    back = read_workbook(path)
    assert [e.seconds for e in back.audit] == [14.5, 4.5, 4.5, None]


def test_an_old_workbooks_audit_without_seconds_still_opens(tmp_path: Path):
    """Workbooks written before the column (8 fields per entry) reopen."""
    from tests.test_workbook_reopen import _tamper

    ws, _ = timed_session()
    path, old = tmp_path / "new.xlsx", tmp_path / "old.xlsx"
    export_workbook(ws.evaluation, path)
    _tamper(path, old, lambda meta: meta.__setitem__("audit", [e[:8] for e in meta["audit"]]))
    back = read_workbook(old)
    assert [(e.after, e.seconds) for e in back.audit] == [
        ("2", None), ("0", None), ("0", None), ("1", None)]


def test_the_journal_replays_the_seconds(tmp_path: Path):
    """A crash after timed grades: the replayed audit log has their seconds."""
    from core.io.delimited import read_delimited, write_delimited

    path = tmp_path / "grades.csv"
    write_delimited(base_doc([3, 2], seed=21), path)
    ws = Worksheet(read_delimited(path))
    journal = Journal(path)
    ws.subscribe(lambda changes: journal.record(ws.document, changes))
    rows = [int(i) for i in np.flatnonzero(ws.document.state == GradeState.UNKNOWN)]
    ws.apply(SetGrades.of([rows[0]], [GradeValue(2.0, GradeState.NUMBER)], who="ana",
                          seconds=14.5))
    ws.apply(SetGrades.of(rows[1:3], [GradeValue(0.0, GradeState.NUMBER)] * 2, who="ana",
                          seconds=9.0))
    ws.apply(SetGrades.of([rows[3]], [GradeValue(1.0, GradeState.NUMBER)], who="ana"))
    fresh = read_delimited(path)
    result = Journal(path).replay(fresh)
    assert result.applied == 4
    assert [e.seconds for e in fresh.audit] == [14.5, 4.5, 4.5, None]


def test_a_merge_keeps_the_reviewers_seconds_and_the_round_shows_the_pace():
    doc = base_doc([3, 2], seed=22)
    ana = doc.subset(np.arange(len(doc), dtype=np.int64))
    ana.audit = list(doc.audit)
    s = unknown_sources(doc, "q00")
    for source, secs in zip(s, (20.0, 40.0, 30.0), strict=True):
        ana.set_grade(row(ana, "q00", source), 1.0, who="ana", seconds=secs)
    result = merge(doc, [Returned("ana.xlsx", ana)], who="lead", when=WHEN)
    m = result.document
    assert sorted(e.seconds for e in m.audit if e.who == "ana") == [20.0, 30.0, 40.0]
    m.assignment = Assignment("id", "base", WHEN, (Share("ana", ("q00", "q01"), 5),))
    (p,) = reviewer_progress(m)
    assert (p.graded, p.assigned, p.pace.timed, p.pace.median_seconds) == (3, 5, 3, 30.0)
    assert p.pace.per_hour == pytest.approx(3600 * 3 / 90.0)
    assert p.minutes_left == pytest.approx(2 * 30.0 / 60.0)


# -- in the window ----------------------------------------------------------------------
def test_a_typed_grade_lands_in_the_audit_and_the_progress_with_its_seconds(
        qtbot, window, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(QMessageBox, "question",  # closing the edited window: discard
                        staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard))
    now = [1000.0]
    monkeypatch.setattr("app.judgment_clock.monotonic", lambda: now[0])
    doc = base_doc([3], seed=23)
    doc.assignment = Assignment("id", "base.xlsx", WHEN, (Share(window.reviewer(), ("q00",), 3),))
    window.set_document(doc)  # the clock starts afresh at 1000
    unknown = [i for i in range(len(doc)) if doc.state[i] == GradeState.UNKNOWN]
    shown = list(window.grid_model.candidates())
    window.grid.setFocus()
    for i, (gap, key) in enumerate(((25.0, Qt.Key.Key_2), (7.5, Qt.Key.Key_0))):
        now[0] += gap
        window.grid.setCurrentIndex(window.grid_model.index(shown.index(unknown[i]),
                                                            GridColumn.GRADE))
        qtbot.keyClick(window.grid, key)
    assert [(e.after, e.seconds) for e in window.document.audit] == [("2", 25.0), ("0", 7.5)]
    from app.models.audit import AuditColumn

    audit = window.audit_model  # the audit log dock shows them, a tenth of a second
    cells = [audit.index(r, AuditColumn.SECONDS) for r in range(audit.rowCount())]
    assert [c.data() for c in cells] == [25.0, 7.5]
    assert audit.headerData(AuditColumn.SECONDS, Qt.Orientation.Horizontal) == "Seconds"
    delegate = window.audit_view.itemDelegateForColumn(AuditColumn.SECONDS)
    assert delegate.displayText(cells[1].data(), None) == "7.5"
    queue = window.findChild(QObject, "queueController")
    assert isinstance(queue, QueueController)
    window.app_actions["show_queue"].trigger()
    qtbot.waitUntil(lambda: queue.queue is not None, timeout=10000)
    (got,) = queue.view.progress_model.rows()
    assert got[:4] == (window.reviewer(), 2, 3, 16.25)
    assert got[4] == pytest.approx(3600 * 2 / 32.5)
    assert got[5] == pytest.approx(16.25 / 60)


def test_the_clock_hears_the_reviewers_keys_once_the_window_is_painted(qtbot):
    """The activity watch starts with the window's first paint: nothing before
    (the application-wide filter cost about 40 ms of the start, most of it the
    first show's own events), every key after, wherever it goes: keys come
    through the window (as the window system delivers them) to the widget
    with the focus."""
    from app.main import build_window

    w = build_window(None)
    qtbot.addWidget(w)
    heard: list[float] = []
    w.activity_clock.clock.active = heard.append
    qtbot.keyClick(w.grid, Qt.Key.Key_Down)
    assert heard == []  # hidden: no reviewer input reaches it
    w.show()
    qtbot.waitUntil(lambda: w.activity_clock.watching)  # painted, then watched
    for view in (w.grid, w.navigator.view):
        view.setFocus()
        row = view.currentIndex().row()
        qtbot.keyClick(w.windowHandle(), Qt.Key.Key_Down)
        assert view.currentIndex().row() == row + 1  # (the key reached the view)
    qtbot.mouseClick(w.windowHandle(), Qt.MouseButton.LeftButton,
                     pos=w.grid.viewport().mapTo(w, w.grid.viewport().rect().center()))
    assert len(heard) == 3
    w.session.mark_saved()


def test_the_clock_watches_the_windows_not_every_widget_and_hears_a_dialog(qtbot, window):
    """The watch is on the top-level windows, whose input comes through them
    (as the window system delivers it), not on the application: an event
    sent to a widget alone passes no filter (the application-wide one was
    called for every event of every widget: 9-53 times an edit, about 1 ms,
    and ~300 times in a launch on a 2M-candidate run before the window was
    usable). A window that takes the keyboard (a dialog) is watched as it
    does."""
    from PySide6.QtWidgets import QApplication, QDialog, QLineEdit

    qtbot.waitUntil(lambda: window.activity_clock.watching)
    heard: list[float] = []
    window.activity_clock.clock.active = heard.append
    window.grid.setFocus()
    qtbot.keyClick(window.grid, Qt.Key.Key_Down)  # to the widget itself
    assert heard == []
    qtbot.keyClick(window.windowHandle(), Qt.Key.Key_Down)  # through its window
    assert len(heard) == 1
    dialog = QDialog(window)
    field = QLineEdit(dialog)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWindow() is dialog.windowHandle())
    field.setFocus()
    heard.clear()
    qtbot.keyClick(dialog.windowHandle(), Qt.Key.Key_A)
    assert field.text() == "a"
    assert len(heard) == 1
    dialog.close()
