"""The candidate grids' contents measured once while they hold
(:class:`app.panels.measured.ContentsWidths`): the launch's arrival asked
the ranked grid's widths five times over the same rows (the fit, then
``key_width`` twice for the dock areas and twice when the side columns give
way); each width is now what a fresh measure gives, and measured again
after anything it follows changed."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFont

from app.models.candidates import CandidateModel, GridColumn
from app.models.roles import CHOICES_ROLE
from app.panels.grid import _contents_widths
from core.model.document import GradeState
from tests.test_app_grid_layout import _open, _settle

pytestmark = pytest.mark.usefixtures("never_block")


@pytest.fixture
def asked(monkeypatch):
    """The cells' roles the grids' models are asked from Python (the choices
    a grade's editor offers, asked once a ``key_width``, left out)."""
    count = [0]
    data = CandidateModel.data

    def counted(self, index, role=0):
        if role != CHOICES_ROLE:
            count[0] += 1
        return data(self, index, role)

    # (patched before the models are made: PySide looks an override up once)
    monkeypatch.setattr(CandidateModel, "data", counted)
    return count


def _fresh(view, columns=None):
    """``columns``' widths measured now, as the fit measures them."""
    return _contents_widths(view, columns)


def _key_widths(panel) -> tuple[int, int]:
    return panel.key_width(), panel.key_width(every=True)


def test_the_key_widths_measure_nothing_the_fit_measured(qtbot, tmp_path, asked):
    w = _open(qtbot, "trec", tmp_path, "1280x800")
    panel = w.grid_panel
    w.fit_columns()
    asked[0] = 0
    first = _key_widths(panel)
    assert asked[0] == 0  # (every cell's width kept from the fit)
    assert _key_widths(panel) == first
    assert asked[0] == 0
    # The widths kept are those a fresh measure gives.
    view = w.grid
    assert panel._contents.of(view) == _fresh(view)
    assert panel._contents.of(view, [GridColumn.RANK, GridColumn.GRADE]) == _fresh(
        view, [GridColumn.RANK, GridColumn.GRADE])


def test_the_widths_are_measured_again_after_what_they_follow_changed(qtbot, tmp_path):
    """Each width kept is a fresh measure's after a grade set (its cell's
    data), the decimals changed, a larger font, another query (a reset):
    a width kept from before would differ."""
    w = _open(qtbot, "trec", tmp_path, "1280x800")
    panel, view = w.grid_panel, w.grid
    w.fit_columns()
    _key_widths(panel)
    before = panel._contents.of(view)

    w.set_grade(w.grid_model.candidate(1), None, GradeState.UNRATEABLE,
                reason="the page is behind a paywall")
    _settle(qtbot, w)
    after = panel._contents.of(view)
    assert after == _fresh(view)
    assert after[GridColumn.GRADE] > before[GridColumn.GRADE]  # ("✎ unrateable: the page…")

    w.settings.decimals = 7
    w.refresh_display_settings()
    seven = panel._contents.of(view)
    assert seven == _fresh(view)
    assert seven[GridColumn.DISCOUNT] > after[GridColumn.DISCOUNT]

    font = QFont(view.font())
    font.setPointSizeF(font.pointSizeF() * 2)
    view.setFont(font)
    larger = panel._contents.of(view)
    assert larger == _fresh(view)
    assert larger[GridColumn.RANK] > seven[GridColumn.RANK]

    w.set_query(1)  # (the model reset: nothing kept)
    assert view not in panel._contents._held
    _settle(qtbot, w)
    assert panel._contents.of(view) == _fresh(view)
