"""A worksheet CSV written by ``import -o`` opened in the window: its
annotators' columns (``grade_<name>``), which opening it does not read, are
said in a banner above the grid, in the command line's line with the
window's way to keep them (an Import button: the wizard on the file). The
window said nothing; ``evaluate`` warned on stderr."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.import_wizard.wizard import ImportWizard
from app.unread_annotators import HOW, UnreadAnnotatorsBanner
from core.io.load import annotators_not_read
from tests.appboxes import Boxes
from tests.test_app_import import _drive, _next_next_finish, _window

WORKSHEET = ("query,source_id,version,score,grade,state,reason,note,grade_ana,grade_ben\n"
             "q1,d1,,3,1.5,number,,,1,2\nq1,d2,,2,0.5,number,,,0,1\nq1,d3,,1,2,number,,,2,2\n")


def _said(path: Path) -> str:
    return (f"{path}: grade_ana, grade_ben: the grades of 2 annotators, not read when the "
            "worksheet is opened (its grade column is the grade); to keep each annotator's "
            f"grades, import it: {HOW}")


def test_the_line_is_the_command_lines_with_the_windows_way(tmp_path: Path) -> None:
    path = tmp_path / "judged.csv"
    path.write_text(WORKSHEET, encoding="utf-8")
    assert annotators_not_read(path, HOW) == _said(path)
    assert annotators_not_read(path).endswith(f"import it: ndcg-worksheet import {path} "
                                              "-o OUT.xlsx")


def test_a_worksheet_given_at_launch_says_its_annotators_columns(
        qtbot: Any, tmp_path: Path, boxes: Boxes, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.main import build_window

    path = tmp_path / "judged.csv"
    path.write_text(WORKSHEET, encoding="utf-8")
    window = build_window(path)
    qtbot.addWidget(window, before_close_func=lambda w: w.session.mark_saved())
    assert boxes.shown == []
    assert window.document.ratings is None  # opened as a worksheet: the grade column
    banner = window.findChild(UnreadAnnotatorsBanner, "unreadAnnotatorsBanner")
    assert isinstance(banner, UnreadAnnotatorsBanner)
    assert banner.isVisibleTo(window)
    assert banner.text.text() == _said(path)
    assert window.statusBar().currentMessage() == (
        "judged.csv: its annotators' columns are not read: see the banner above the grid")
    # Import… runs the wizard on the file: Next, Next, Finish keep each grade
    seen = _drive(monkeypatch, qtbot, _next_next_finish(qtbot))
    qtbot.mouseClick(banner.import_button, Qt.MouseButton.LeftButton)
    assert len(seen) == 1
    assert isinstance(seen[0], ImportWizard)
    doc = window.document
    assert doc.annotators == ["ana", "ben"]
    assert doc.ratings is not None
    assert doc.ratings.tolist() == [[1.0, 2.0], [0.0, 1.0], [2.0, 2.0]]
    assert not banner.isVisibleTo(window)  # (the imported document read them)


def test_file_open_says_it_and_another_file_hides_it(
        qtbot: Any, tmp_path: Path, boxes: Boxes) -> None:
    """File > Open of such a worksheet shows the banner; a worksheet without
    annotators' columns opened next hides it (and shows none)."""
    from app.unread_annotators import install_unread_annotators

    window, ops = _window(qtbot)
    banner = install_unread_annotators(window, ops)
    judged, plain = tmp_path / "judged.csv", tmp_path / "plain.csv"
    judged.write_text(WORKSHEET, encoding="utf-8")
    plain.write_text("query,source_id,score,grade\nq1,d1,2,1\nq1,d2,1,0\n", encoding="utf-8")
    for path, shown in ((judged, True), (plain, False)):
        task = ops.open_path(path, ask_to_save=False)
        assert task is not None
        qtbot.waitUntil(lambda t=task: t.done, timeout=10_000)
        assert banner.isVisibleTo(window) is shown, path
        if shown:
            assert banner.text.text() == _said(judged)
    assert boxes.shown == []
