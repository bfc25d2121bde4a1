"""The summary and the conventions panels are made when first seen
(app.deferred), not with the window: in a window of one side column they
are tabs behind the Queries tab, and a launch no longer builds them (their
~30-45 ms of the main thread, docs/benchmarks.md, hopen). Made, they show
what they would have shown had they been made with the window; the docks'
sizes are those of the views (a view whose width may count is made for the
sizing, before the docks are placed)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QTabBar

from app.deferred import Unmade
from app.panels.conventions import ConventionsPanel
from app.panels.summary import SummaryPanel
from app.window import MainWindow
from core.io.example import load_example
from core.model.document import GradeState
from core.model.presets import apply_preset
from core.reports.sentences import query_sentence

#: A close that would ask gets Discard (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("never_block")

PANELS = {"summaryPanelDock": SummaryPanel, "conventionsPanelDock": ConventionsPanel}
NARROW = QRect(0, 0, 796, 796)


def _settle(qtbot: Any) -> None:
    QApplication.processEvents()
    qtbot.wait(20)


def _narrow_window(qtbot: Any, *, made: bool = False) -> MainWindow:
    """A window on the example in one side column (the summary and the
    conventions tabs behind the Queries tab), shown; with ``made``, both
    panels made before it is laid out (as every window made them before)."""
    window = MainWindow(load_example())
    qtbot.addWidget(window)
    if made:
        window.summary_panel, window.conventions_panel  # noqa: B018  (made now)
    window.workplace.reset(NARROW)
    window.show()
    _settle(qtbot)
    assert window.workplace.one_side
    return window


def _choose_tab(qtbot: Any, window: MainWindow, title: str) -> None:
    bar, at = next((bar, i) for bar in window.findChildren(QTabBar) for i in range(bar.count())
                   if bar.tabText(i) == title and bar.isVisible())
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(at).center())
    _settle(qtbot)


def test_behind_the_queries_tab_the_panels_are_made_when_their_tab_is_chosen(qtbot: Any) -> None:
    window = _narrow_window(qtbot)
    for name, kind in PANELS.items():
        assert isinstance(window.docks[name].widget(), Unmade), name
        assert not window.findChildren(kind), name  # not made anywhere
    _choose_tab(qtbot, window, "Summary")
    summary = window.docks["summaryPanelDock"].widget()
    assert isinstance(summary, SummaryPanel)
    assert summary.isVisible()
    assert summary.title.text() == "case-A"
    assert summary.sentence_text() == query_sentence(window.evaluation, 0, 0, decimals=4)
    assert summary.table.accessibleName() == "NDCG at each cutoff"
    assert isinstance(window.docks["conventionsPanelDock"].widget(), Unmade)
    _choose_tab(qtbot, window, "Conventions")
    conventions = window.docks["conventionsPanelDock"].widget()
    assert isinstance(conventions, ConventionsPanel)
    assert conventions.isVisible()
    assert conventions.conventions == window.conventions
    assert conventions.combos["ties"].currentData() == window.conventions.ties.value
    assert conventions.scroll_area.accessibleName() == "Conventions"
    # the guidelines editor lists the scale the evaluation worked out
    levels = window.conventions.listed_levels(window.document.grade, window.evaluation.rubric)
    assert conventions.guidelines_model.rowCount() == len(levels) > 0
    assert window.summary_panel is summary  # (made once)
    assert window.conventions_panel is conventions


def test_what_changed_before_a_panel_was_made_is_shown_when_it_is(qtbot: Any) -> None:
    window = _narrow_window(qtbot)
    window.set_grade(2, 3.0)  # case-A's C: 0 -> 3
    trec = apply_preset(window.conventions, "trec_eval")
    assert window.change_conventions(trec, "preset trec_eval") is None
    window.set_query(1)
    assert isinstance(window.docks["summaryPanelDock"].widget(), Unmade)
    _choose_tab(qtbot, window, "Summary")
    assert window.summary_panel.title.text() == "case-B"
    assert window.summary_panel.sentence_text() == query_sentence(window.evaluation, 1, 0,
                                                                  decimals=4)
    _choose_tab(qtbot, window, "Conventions")
    assert window.conventions_panel.conventions == trec
    assert window.conventions_panel.preset_match.text() == "matches: trec_eval"
    # made, they follow the window as before
    window.set_query(0)
    window.set_grade(0, None, GradeState.UNKNOWN)  # case-A's B
    assert window.summary_panel.sentence_text() == query_sentence(window.evaluation, 0, 0,
                                                                  decimals=4)
    window.change_conventions(apply_preset(window.conventions, "sklearn"), "preset sklearn")
    assert window.conventions_panel.preset_match.text() == "matches: sklearn"


def test_copy_sentence_copies_the_summarys_sentence_before_it_is_seen(qtbot: Any) -> None:
    window = _narrow_window(qtbot)
    window.app_actions["copy_sentence"].trigger()
    assert QGuiApplication.clipboard().text() == query_sentence(window.evaluation, 0, 0,
                                                                decimals=4)


def test_the_docks_are_sized_as_when_the_panels_were_made_with_the_window(qtbot: Any) -> None:
    """In one side column (the panels not made) and in two (made for the
    sizing of the right column, before its docks are placed), the docks
    are where and as large as in a window whose panels were made first."""
    late, first = _narrow_window(qtbot), _narrow_window(qtbot, made=True)
    for window in (late, first):
        window.workplace.reset(QRect(0, 0, 1280, 800))
        window.workplace.size_docks()
        _settle(qtbot)
    for name, dock in first.docks.items():
        assert late.docks[name].geometry() == dock.geometry(), name
    for window in (late, first):
        window.workplace.reset(NARROW)
        _settle(qtbot)
    for name, dock in first.docks.items():
        if dock.visibleRegion().isEmpty():  # (a tab behind: not laid out)
            continue
        assert late.docks[name].geometry() == dock.geometry(), name
