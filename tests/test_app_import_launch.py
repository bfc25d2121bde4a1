"""The import wizard at launch: `ndcg-worksheet wide.csv` runs the wizard on a
foreign sheet, and the sheet imported gets a query list wide enough and
keeps the layout the user left. The wizard opened from the window:
tests/test_app_import.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.import_wizard.wizard import ImportWizard
from app.window import MainWindow
from tests.test_app_import import _drive, _next_next_finish, wide_sheet


@pytest.fixture
def wide_csv(tmp_path: Path) -> Path:
    return wide_sheet(tmp_path)


def test_launching_on_a_foreign_sheet_runs_the_wizard(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch, wide_csv: Path
):
    """``ndcg-worksheet wide.csv`` opens the import wizard on it, not a strict
    import, over an empty window that says in one line what will appear (it
    showed the bundled example until Finish: data the user did not open);
    Escape cancels the wizard and the line says what to do next."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QFrame

    import app.main

    seen: dict[str, Any] = {}

    def at_the_wizard() -> None:
        wizard = QApplication.activeModalWidget()
        if not isinstance(wizard, ImportWizard) or wizard.busy:
            QTimer.singleShot(10, at_the_wizard)  # (its preview is read on a thread)
            return
        try:
            behind = wizard.parentWidget()
            line = behind.findChild(QFrame, "placeholderBanner")
            seen.update(path=wizard.path, rows=len(behind.document),
                        queries=behind.navigator.view.model().rowCount(),
                        line=line.text.text(), shown=line.isVisible())
        finally:  # (a modal wizard left open would hang the run)
            seen.setdefault("line", None)
            qtbot.keyClick(wizard, Qt.Key.Key_Escape)

    shown: list[MainWindow] = []
    # (an earlier test's window, still a top-level widget in this worker
    # while Qt deletes it, is not this launch's: its actions are gone)
    before = {id(w) for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow)}

    def run_loop(*_: Any) -> int:
        shown.extend(w for w in QApplication.topLevelWidgets()
                     if isinstance(w, MainWindow) and id(w) not in before)
        qtbot.waitUntil(lambda: "line" in seen, timeout=10_000)
        qtbot.wait(1)  # the wizard's end is answered
        return 0

    QTimer.singleShot(0, at_the_wizard)
    monkeypatch.setattr(QApplication, "exec", run_loop)
    assert app.main.main([str(wide_csv)]) == 0
    assert seen == {"path": wide_csv, "rows": 0, "queries": 0, "shown": True,
                    "line": "Importing wide.csv: its worksheet appears here when you finish "
                            "the import wizard."}
    window = next(w for w in shown if w.isVisible())
    assert len(window.document) == 0  # cancelled: nothing the user did not open
    line = window.findChild(QFrame, "placeholderBanner")
    assert line.isVisible()
    assert line.text.text().startswith("wide.csv was not imported. File > Import")
    for w in shown:
        w.session.mark_saved()
        w.close()


def test_the_sheet_imported_at_launch_gets_a_query_list_wide_enough(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    """The window under the wizard at launch starts empty, its side columns
    sized for an empty query list (~285 px at 1920x1080); once Finish shows
    the sheet, the default layout is sized again for it: query texts of up to
    IDS_CHARACTERS characters are whole, not "wire… anc" (they were cut while
    the grid was mostly blank)."""
    from PySide6.QtCore import QRect

    from app.main import build_window
    from app.panels.navigator import IDS_CHARACTERS

    texts = ["wireless charger for phone and watch", "how to anchor a boat in wind",
             "best hiking boots for wide feet"]
    assert max(map(len, texts)) <= IDS_CHARACTERS
    sheet = tmp_path / "judged.csv"
    sheet.write_text("query,doc,grade_ann\n" + "".join(
        f"{q},d{d},{d % 3}\n" for q in texts for d in range(4)), encoding="utf-8")

    _drive(monkeypatch, qtbot, _next_next_finish(qtbot))
    window = build_window(None, importing=sheet, review_docks=False)
    qtbot.addWidget(window)
    window.workplace.reset(QRect(0, 0, 1920, 1080))  # a first start on that screen
    window.show()
    qtbot.waitExposed(window)
    view = window.navigator.view
    empty = view.columnWidth(0)
    qtbot.waitUntil(lambda: len(window.document) == 12, timeout=10_000)
    qtbot.wait(1)  # the layout follows
    assert view.model().rowCount() == 3
    metrics = view.fontMetrics()
    widest = max(metrics.horizontalAdvance(t) for t in texts)
    assert view.columnWidth(0) >= widest + 6 > empty, (view.columnWidth(0), widest, empty)
    window.session.mark_saved()


def test_the_sheet_imported_at_launch_keeps_the_layout_the_user_left(
    qtbot: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    """A layout restored from the user's is not sized again when the
    imported sheet is shown: the query list keeps the width they gave it."""
    from PySide6.QtCore import Qt as QtNs

    from app.main import build_window

    first = build_window(None, review_docks=False)
    qtbot.addWidget(first)
    first.show()
    qtbot.waitExposed(first)
    dock = first.docks["queryNavigatorDock"]
    first.resizeDocks([dock], [170], QtNs.Orientation.Horizontal)
    qtbot.waitUntil(lambda: dock.width() == 170, timeout=5_000)
    first.workplace.save()
    first.close()
    sheet = tmp_path / "judged.csv"
    sheet.write_text("query,doc,grade_ann\n" + "".join(
        f"a rather long query text number {q},d{d},{d % 3}\n" for q in range(3)
        for d in range(4)), encoding="utf-8")

    _drive(monkeypatch, qtbot, _next_next_finish(qtbot))
    window = build_window(None, importing=sheet, review_docks=False)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    dock = window.docks["queryNavigatorDock"]
    assert dock.width() == 170
    qtbot.waitUntil(lambda: len(window.document) == 12, timeout=10_000)
    qtbot.wait(1)  # the layout follows
    assert window.navigator.sizeHint().width() > 170
    assert dock.width() == 170
    window.session.mark_saved()
