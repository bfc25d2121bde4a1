"""The comparison's, the runs', the explain and the judging queue's docks
make their views when first on
screen (app.review.common.DeferredView), not with the window: hidden at a
first start, they hold nothing until they are seen (the View menu shows
them behind the Summary's tab: their view is made when that tab is chosen),
a comparison fills them, or a saved layout brings them back; made, they
follow the window as before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QTabBar

from app.models.candidates import GridColumn
from app.review.compare_view import CompareView
from app.review.explain_view import ExplainView
from app.review.queue_view import QueueController, QueueView
from app.review.runs_view import RunsView
from core.model.examples import CASES

#: A close that would ask gets Discard (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("never_block")

DEFERRED = {"compareViewDock": CompareView, "runsViewDock": RunsView,
            "explainViewDock": ExplainView, "judgingQueueDock": QueueView}


def _settle(qtbot: Any) -> None:
    QApplication.processEvents()
    qtbot.wait(20)


def _view_menu_item(qtbot: Any, window: Any, name: str) -> None:
    """The View menu's entry for dock ``name`` chosen with the keyboard."""
    menu = window.menu("view")
    toggle = window.docks[name].toggleViewAction()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    menu.popup(window.mapToGlobal(window.rect().center()))
    qtbot.waitUntil(menu.isVisible)
    menu.setActiveAction(toggle)
    qtbot.keyClick(menu, Qt.Key.Key_Return)
    _settle(qtbot)


def _choose_tab(qtbot: Any, window: Any, title: str) -> None:
    """The dock tab ``title`` clicked."""
    bar, at = next((bar, i) for bar in window.findChildren(QTabBar) for i in range(bar.count())
                   if bar.tabText(i) == title and bar.isVisible())
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(at).center())
    _settle(qtbot)


def test_hidden_docks_hold_no_view_until_they_are_seen(qtbot: Any, window: Any) -> None:
    _settle(qtbot)
    for name, kind in DEFERRED.items():
        dock = window.docks[name]
        assert dock.isHidden()
        assert not isinstance(dock.widget(), kind)
        assert not window.findChildren(kind)  # not made anywhere
    _view_menu_item(qtbot, window, "compareViewDock")
    dock = window.docks["compareViewDock"]
    assert not dock.isHidden()  # its tab beside the Summary's, behind it: not seen yet
    assert not isinstance(dock.widget(), CompareView)
    _choose_tab(qtbot, window, "Comparison")
    view = dock.widget()
    assert isinstance(view, CompareView)
    assert view.isVisible()
    assert view.header.text().startswith("Compare with another run…")
    assert window.compare_view.view is view  # one view, made once
    assert not isinstance(window.docks["runsViewDock"].widget(), RunsView)

def test_a_comparison_shown_in_a_view_made_then_follows_the_window(
        qtbot: Any, window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = tmp_path / "b.run"
    run.write_text("".join(f"{q} Q0 {source} 1 {score} t\n" for q, source, score, _g in CASES))
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(run), "")))
    window.app_actions["compare_runs"].trigger()
    dock = window.docks["compareViewDock"]
    qtbot.waitUntil(lambda: getattr(dock.widget(), "comparison", None) is not None,
                    timeout=20_000)
    view = dock.widget()
    assert isinstance(view, CompareView)
    assert view.isVisible()  # shown and raised with its comparison
    assert view.stale.text() == ""
    window.set_document(window.document)  # (wired once made: as main says it)
    # The document opened is said to be another, not an edit (the new
    # document's evaluation, announced after it, said "Grades or conventions
    # changed"), and stays so said as it is graded.
    said = "Another document is open: compare again to update these numbers."
    assert view.stale.text() == said
    window.grid.setCurrentIndex(window.grid_model.index(0, GridColumn.GRADE))
    qtbot.keyClick(window.grid, Qt.Key.Key_2)
    assert window.session.modified
    assert view.stale.text() == said


def test_a_saved_layout_with_the_docks_makes_their_views_when_seen(qtbot: Any,
                                                                    window: Any) -> None:
    from app.main import build_window

    for name in DEFERRED:
        window.docks[name].show()
    _settle(qtbot)
    assert window.close()
    again = build_window(None)
    qtbot.addWidget(again)
    again.show()
    _settle(qtbot)
    for name, kind in DEFERRED.items():
        dock = again.docks[name]
        assert not dock.isHidden()
        _choose_tab(qtbot, again, dock.windowTitle())
        assert isinstance(dock.widget(), kind)
        assert dock.widget().isVisible()
    again.session.mark_saved()


def test_the_queues_next_key_makes_its_view_and_shows_the_queue(qtbot: Any,
                                                               window: Any) -> None:
    queue = window.findChild(QueueController, "queueController")
    assert queue.deferred.made is None
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.grid.setFocus()
    both = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(window.grid, Qt.Key.Key_J, both)  # Judge the queue's next
    qtbot.waitUntil(lambda: queue.queue is not None, timeout=10_000)
    view = window.docks["judgingQueueDock"].widget()
    assert isinstance(view, QueueView)
    assert view.isVisible()
    assert view.model.rowCount() == len(queue.queue.rows) > 0
