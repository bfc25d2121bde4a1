"""The candidate grid's cells answered a call a cell
(:meth:`CandidateModel.multiData`): what a view paints is what Qt's own
``multiData`` (a ``data`` call a role) gives, cell after cell through one
delegate (Qt hands each delegate's span of roles from cell to cell), and the
grids grabbed equal pixel for pixel."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QAbstractTableModel, QModelRoleData, QModelRoleDataSpan, Qt
from PySide6.QtGui import QBrush, QFont, QPalette
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem, QTableView, QWidget

import app.panels.grid as grid_module
from app.models.candidates import CandidateModel
from app.models.roles import (
    ALIGNMENT,
    BACKGROUND,
    CANDIDATE_ROLE,
    DIGITS_ROLE,
    DISPLAY,
    EDITED_ROLE,
    FONT,
    FOREGROUND,
    LABEL_ROLE,
    SORT_ROLE,
    TIE_ROLE,
    TOOLTIP,
)
from core.engine.evaluation import evaluate
from core.model.document import GradeState
from core.model.examples import seed_document
from tests.test_app_models import mixed_document


class DataOnly(CandidateModel):
    """The grid's model as it was: Qt's ``multiData``, which asks ``data``
    a role at a time."""

    def multiData(self, index, roleDataSpan) -> None:  # type: ignore[no-untyped-def]
        QAbstractTableModel.multiData(self, index, roleDataSpan)


class Counted(CandidateModel):
    """The grid's model, the roles asked of its ``data`` counted."""

    def __init__(self, section: str) -> None:
        super().__init__(section)
        self.asked: list[int] = []

    def data(self, index, role=DISPLAY):  # type: ignore[no-untyped-def]
        self.asked.append(role)
        return super().data(index, role)


def _edited(make):  # type: ignore[no-untyped-def]
    """``make``'s document with a grade edited (the grade cell marked, the
    original grade shown beside it) and one made unknown."""
    doc = make()
    doc.set_grade(0, 1.0, who="test")
    doc.set_grade(1, None, GradeState.UNKNOWN, who="test")
    return doc


DOCUMENTS = [seed_document, mixed_document, lambda: _edited(mixed_document),
             lambda: _edited(seed_document)]
ROLES = [DISPLAY, FONT, FOREGROUND, BACKGROUND, ALIGNMENT, TOOLTIP, SORT_ROLE, TIE_ROLE,
         CANDIDATE_ROLE, LABEL_ROLE, DIGITS_ROLE, EDITED_ROLE,
         int(Qt.ItemDataRole.CheckStateRole), int(Qt.ItemDataRole.DecorationRole)]


def style_option(view: QTableView, delegate: QStyledItemDelegate, index) -> tuple:  # type: ignore[no-untyped-def]
    """The style option ``delegate`` fills for ``index`` in ``view``, as
    comparable values (the navigator's test too)."""
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    delegate.initStyleOption(option, index)
    # (copies: the option's own go with it)
    return (option.text, QFont(option.font), option.fontMetrics.height(),
            QBrush(option.palette.brush(QPalette.ColorRole.Text)),
            QBrush(option.backgroundBrush), option.displayAlignment, option.features,
            option.checkState)


@pytest.mark.parametrize("make", DOCUMENTS)
def test_a_cell_painted_is_filled_as_a_role_at_a_time_fills_it(qtbot, make):
    ev = evaluate(make())
    for section in ("ranked", "not_retrieved"):
        for q in range(ev.doc.n_queries):
            models = Counted(section), DataOnly(section)
            views = QTableView(), QTableView()
            delegates = QStyledItemDelegate(), QStyledItemDelegate()
            for model, view in zip(models, views, strict=True):
                model.set_evaluation(ev, q)
                view.setModel(model)
                qtbot.addWidget(view)
            new, old = models
            for row in range(new.rowCount()):
                for col in range(new.columnCount()):
                    # (each role alone, as asked through a span of one)
                    for role in ROLES:
                        asked = QModelRoleData(role)
                        new.multiData(new.index(row, col), QModelRoleDataSpan(asked))
                        assert asked.data() == old.data(old.index(row, col), role), (row, col)
                    # (cell after cell through the same delegates: what the
                    # cell before set is never left in place), a call a cell
                    new.asked.clear()
                    filled = style_option(views[0], delegates[0], new.index(row, col))
                    assert filled == style_option(views[1], delegates[1], old.index(row, col)), (
                        section, q, row, col)
                    assert new.asked == []  # (seven roles through data before)


@pytest.mark.parametrize("make", DOCUMENTS)
@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_the_grids_paint_as_a_role_at_a_time_paints_them(qtbot, monkeypatch, make, size):
    ev = evaluate(make())
    panels = []
    for model_class in (CandidateModel, DataOnly):
        monkeypatch.setattr(grid_module, "CandidateModel", model_class)
        panel = grid_module.GridPanel(lambda: 4)
        qtbot.addWidget(panel)
        panel.resize(*size)
        panel.show()
        panels.append(panel)
    monkeypatch.setattr(grid_module, "CandidateModel", CandidateModel)
    assert isinstance(panels[1].model, DataOnly)
    assert type(panels[0].model) is CandidateModel
    # (neither panel the active window: a selection's colours follow it)
    elsewhere = QWidget()
    qtbot.addWidget(elsewhere)
    elsewhere.show()
    elsewhere.activateWindow()
    qtbot.waitUntil(elsewhere.isActiveWindow)
    for q in range(ev.doc.n_queries):
        for panel in panels:
            panel.model.set_evaluation(ev, q)
            panel.not_retrieved_model.set_evaluation(ev, q)
            panel.fit_columns()
            panel.grid.setCurrentIndex(panel.model.index(0, 5))
        qtbot.wait(1)
        new, old = (panel.grab().toImage() for panel in panels)
        assert new == old, q
        assert new.size().width() == size[0]
