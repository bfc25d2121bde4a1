"""The review docks, added after the first paint into a layout the user left,
stay in it: none floats or lies outside the window once an annotators'
workbook is open.

Qt keeps a copy of a layout restored into a hidden window that is to be
maximized, and lays it out again at each layout pass until it fits or
150 ms pass; a dock restored into the layout meanwhile is not in that copy,
so the next pass dropped it, a child of the window at (0, 0): the Judges
dock, shown for the annotators' agreement, stood over the menu bar at
1280x800 under openbox (a saved layout of 1366x768, the window maximized).
The test drops the dock as Qt did and asks for it back in the layout."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QMainWindow

from app.cli.main import main as cli_main
from tests.conftest import REPO

#: A close that would ask gets Discard (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("never_block")

SHEET = REPO / "tests" / "data" / "annotators" / "google_forms_grid.csv"


def _workbook(tmp_path: Path) -> Path:
    """An annotators' workbook as the import writes it (four annotators)."""
    out = tmp_path / "annotators.xlsx"
    assert cli_main(["import", str(SHEET), "-o", str(out)]) == 0
    return out


def _misplaced(window: QMainWindow) -> list[str]:
    """The shown docks that float, are in no dock area, or, in front (a
    tab behind another is moved out of sight by Qt), lie outside the
    window's own rectangle."""
    inside = QRect(0, 0, window.width(), window.height())
    return [name for name, dock in window.docks.items()
            if dock.isVisible() and (
                dock.isFloating()
                or window.dockWidgetArea(dock) == Qt.DockWidgetArea.NoDockWidgetArea
                or not (dock.visibleRegion().isEmpty() or inside.contains(dock.geometry())))]


def _open_late(qtbot: Any, path: Path) -> Any:
    """The window on ``path`` with the layout the user left, its review docks
    installed after it shows, as the editor's main() does."""
    from app.main import build_window, install_review_docks

    window = build_window(path, review_docks=False)
    qtbot.addWidget(window, before_close_func=lambda shown: shown.session.mark_saved())
    window.show()
    qtbot.waitExposed(window)
    install_review_docks(window)
    QApplication.processEvents()
    return window


def test_a_judges_dock_dropped_from_the_restored_layout_goes_back_into_it(
        qtbot: Any, tmp_path: Path) -> None:
    path = _workbook(tmp_path)
    first = _open_late(qtbot, path)
    assert first.close()  # (the layout saved: the next window restores it)
    window = _open_late(qtbot, path)
    judges = window.docks["judgesViewDock"]
    assert judges.isVisible()  # the annotators' agreement, one tab away
    assert _misplaced(window) == []
    # Qt's own copy of the restored layout, laid out again, drops the dock
    # restored since and leaves it shown: a child of the window at (0, 0).
    window.removeDockWidget(judges)
    judges.show()
    assert _misplaced(window) == ["judgesViewDock"]
    window.resize(window.width() - 40, window.height())
    qtbot.waitUntil(lambda: _misplaced(window) == [])
    assert window.dockWidgetArea(judges) == Qt.DockWidgetArea.RightDockWidgetArea
    assert not judges.isFloating()
