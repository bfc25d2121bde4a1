"""Every Qt model passes pytest-qt's model tester, on the seed cases and on
documents with ties, unknown, unrateable and not-retrieved candidates."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import Qt

from app.models.audit import AuditModel
from app.models.candidates import CandidateModel, GridColumn
from app.models.cutoffs import CutoffResultsModel
from app.models.grade_input import parse_grade_text
from app.models.looks import STATUS_LOOK
from app.models.pairs import PairTableModel
from app.models.queries import QueryColumn, QueryFilterProxy, QueryListModel
from app.models.roles import CHOICES_ROLE, LABEL_ROLE, SORT_ROLE, TIE_ROLE
from core.engine.evaluation import Status, evaluate
from core.model.conventions import Conventions, Rubric
from core.model.document import Document, GradeState
from core.model.examples import seed_document

L = math.log2(3)


def mixed_document() -> Document:
    """Ties, an unknown, an unrateable, a not-retrieved judged candidate."""
    return Document.from_columns(
        query=["q1"] * 5 + ["q2"] * 2,
        source_id=["a", "b", "c", "d", "e", "x", "y"],
        score=[3.0, 2.0, 2.0, 1.0, None, 1.0, 0.5],
        grade=[2.0, 1.0, None, 5.0, 3.0, 0.0, 0.0],
        state=[0, 0, 1, 0, 0, 0, 2],
        reason=["", "", "", "", "", "", "broken link"],
        conventions=Conventions(cutoffs=(2, None), ideal="judged",
                                rubric=Rubric.parse("0=no,1=some,2=good,3=best")),
    )


@pytest.mark.parametrize("make", [seed_document, mixed_document])
def test_every_model_passes_the_model_tester(qtmodeltester, make):
    doc = make()
    ev = evaluate(doc)
    queries = QueryListModel()
    queries.set_evaluation(ev)
    qtmodeltester.check(queries)
    proxy = QueryFilterProxy()
    proxy.setSourceModel(queries)
    proxy.sort(QueryColumn.NDCG)
    qtmodeltester.check(proxy)
    for section in ("ranked", "not_retrieved"):
        for q in range(doc.n_queries):
            grid = CandidateModel(section)
            grid.set_evaluation(ev, q)
            qtmodeltester.check(grid)
    cut = CutoffResultsModel()
    cut.set_query(ev, 0)
    qtmodeltester.check(cut)
    doc.set_grade(0, 1.0, who="t")
    audit = AuditModel()
    audit.set_document(doc)
    qtmodeltester.check(audit)
    pairs = PairTableModel(("grade", "gain"), value_is_number=True)
    pairs.set_pairs([(1.0, 3.0), (2.0, 9.0)])
    qtmodeltester.check(pairs)


def test_grid_model_returns_raw_numbers_and_flags_states():
    doc = mixed_document()
    ev = evaluate(doc)
    grid = CandidateModel("ranked")
    grid.set_evaluation(ev, 0)
    # Rows: a (3.0), b and c tied (2.0), d (1.0); e is not retrieved.
    assert [grid.data(grid.index(r, GridColumn.SOURCE)) for r in range(4)] == [
        "a", "b", "c", "d"]
    assert grid.data(grid.index(0, GridColumn.DISCOUNT)) == 1.0
    # The tie group b, c is bracketed and explained.
    assert grid.data(grid.index(1, GridColumn.RANK), TIE_ROLE) == "first"
    assert grid.data(grid.index(2, GridColumn.RANK), TIE_ROLE) == "last"
    assert "tied with ranks 2-3" in grid.data(grid.index(1, GridColumn.RANK),
                                              Qt.ItemDataRole.ToolTipRole)
    # Unknown is a state shown as text, italic, never 0.
    unknown = grid.index(2, GridColumn.GRADE)
    assert grid.data(unknown) == "unknown"
    assert grid.data(unknown, Qt.ItemDataRole.FontRole).italic()
    assert grid.data(grid.index(2, GridColumn.GAIN)) == "unknown"
    # A grade outside the rubric is flagged.
    assert grid.data(grid.index(3, GridColumn.STATE)) == "outside rubric"
    assert grid.data(grid.index(3, GridColumn.GRADE), Qt.ItemDataRole.BackgroundRole) is not None
    assert grid.data(grid.index(0, GridColumn.GRADE), LABEL_ROLE) == "good"
    texts = [c[0] for c in grid.data(grid.index(0, GridColumn.GRADE), CHOICES_ROLE)]
    assert texts == ["0 - no", "1 - some", "2 - good", "3 - best", "unknown", "unrateable"]
    # Header tooltips carry the formulas of the current conventions.
    tip = grid.headerData(GridColumn.GAIN, Qt.Orientation.Horizontal,
                          Qt.ItemDataRole.ToolTipRole)
    assert "gain = grade" in tip
    # The judged-but-not-retrieved candidate is listed apart, with its ideal gain.
    apart = CandidateModel("not_retrieved")
    apart.set_evaluation(ev, 0)
    assert apart.rowCount() == 1
    assert apart.data(apart.index(0, GridColumn.SOURCE)) == "e"
    assert apart.data(apart.index(0, GridColumn.IDEAL_GAIN)) == 3.0
    # Grade 5 (d, outside the rubric) leads the ideal list; e comes second.
    assert apart.data(apart.index(0, GridColumn.IDEAL_RANK)) == 2
    assert apart.data(apart.index(0, GridColumn.RANK)) is None
    # Unrateable looks different from unknown and from 0.
    grid.set_evaluation(ev, 1)
    assert grid.data(grid.index(1, GridColumn.GRADE)) == "unrateable"
    assert "broken link" in grid.data(grid.index(1, GridColumn.GRADE),
                                      Qt.ItemDataRole.ToolTipRole)


def test_score_keeps_full_precision_on_hover():
    doc = Document.from_columns(query=["q"], source_id=["a"], score=[0.123456789012345],
                                grade=[1.0])
    grid = CandidateModel("ranked")
    grid.set_evaluation(evaluate(doc), 0)
    idx = grid.index(0, GridColumn.SCORE)
    assert grid.data(idx) == 0.123456789012345
    assert grid.data(idx, Qt.ItemDataRole.ToolTipRole) == "0.123456789012345"
    assert grid.data(idx, Qt.ItemDataRole.EditRole) == "0.123456789012345"


def test_navigator_statuses_are_distinct_in_text_symbol_and_colour():
    looks = list(STATUS_LOOK.values())
    assert len(looks) == len(Status) == 5  # ok, undefined, negative, unresolved, unranked
    assert len({lk.symbol for lk in looks}) == 5
    assert len({lk.text for lk in looks}) == 5
    assert len({lk.colour for lk in looks}) == 5
    doc = seed_document()
    queries = QueryListModel()
    queries.set_evaluation(evaluate(doc))
    status = {doc.query_ids[r]: queries.data(queries.index(r, QueryColumn.STATUS))
              for r in range(doc.n_queries)}
    assert status["case-A"] == "✓ ok"
    assert status["case-F-zero"] == "∅ undefined"
    assert status["case-F-unknown"] == "? unresolved"
    r = doc.query_index("case-F-unknown")
    assert queries.data(queries.index(r, QueryColumn.NDCG)) == "unresolved"
    assert queries.data(queries.index(r, QueryColumn.JUDGED)) == "2/3"
    a = doc.query_index("case-A")
    # NDCG at the main (first) cutoff k = 1: 1/3 for case A.
    assert queries.data(queries.index(a, QueryColumn.NDCG)) == pytest.approx(1 / 3)
    assert queries.data(queries.index(a, QueryColumn.NDCG), SORT_ROLE) == pytest.approx(1 / 3)


def test_navigator_filters_by_text_and_status():
    doc = seed_document()
    queries = QueryListModel()
    queries.set_evaluation(evaluate(doc))
    proxy = QueryFilterProxy()
    proxy.setSourceModel(queries)
    proxy.set_text("case-d")
    assert proxy.rowCount() == 2
    proxy.set_text("")
    proxy.set_statuses({Status.UNDEFINED, Status.UNRESOLVED})
    shown = {proxy.data(proxy.index(r, 0)) for r in range(proxy.rowCount())}
    assert shown == {"case-F-zero", "case-F-unknown"}
    proxy.set_text("zero")  # both at once
    assert [proxy.data(proxy.index(r, 0)) for r in range(proxy.rowCount())] == ["case-F-zero"]
    proxy.set_text("")
    proxy.set_statuses(set(Status))  # nothing filtered out: every query
    assert proxy.rowCount() == queries.rowCount() == doc.n_queries


def test_parse_grade_text():
    rubric = Rubric.parse("0=no,1=partial support")
    number, unknown, unrateable = GradeState.NUMBER, GradeState.UNKNOWN, GradeState.UNRATEABLE
    cases = {
        "1": (1.0, number, ""),
        "Partial Support": (1.0, number, ""),
        "1 - partial support": (1.0, number, ""),  # as the grade editor lists it
        "1=partial support": (1.0, number, ""),  # as the rubric prints it
        "2,5": (2.5, number, ""),  # outside the rubric: typed on purpose, taken
        "unknown": (None, unknown, ""),
        "?": (None, unknown, ""),
        "": (None, unknown, ""),
        "unrateable": (None, unrateable, ""),
        "N/A": (None, unrateable, ""),
        "x": (None, unrateable, ""),
        "unrateable: page gone": (None, unrateable, "page gone"),
    }
    for text, want in cases.items():
        got = parse_grade_text(text, rubric)
        assert (got.grade, got.state, got.reason) == want, text
    with pytest.raises(ValueError, match="not a finite number"):
        parse_grade_text("nan", rubric)
    with pytest.raises(ValueError, match="not a grade"):
        parse_grade_text("lots", rubric)
    with pytest.raises(ValueError, match="disagree"):
        parse_grade_text("0=partial support", rubric)


def test_a_consensus_grade_shows_at_the_grid_s_precision(qtbot):
    """Three annotators' mean, 5/3, reads 1.6667 in the grid (the model keeps
    every digit); a whole grade reads as typed, with its rubric label."""
    from PySide6.QtWidgets import QStyleOptionViewItem, QTableView

    from app.delegates import GradeDelegate

    doc = Document.from_columns(query=["q", "q"], source_id=["a", "b"], score=[2.0, 1.0],
                                grade=[5 / 3, 2.0],
                                conventions=Conventions(rubric=Rubric.parse("0,1,2=fair,3")))
    model = CandidateModel("ranked")
    model.set_evaluation(evaluate(doc), 0)
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    delegate = GradeDelegate(lambda: 4, view)
    texts = []
    for row in range(2):
        option = QStyleOptionViewItem()
        index = model.index(row, GridColumn.GRADE)
        delegate.initStyleOption(option, index)
        texts.append(option.text)
    assert texts == ["1.6667", "2 - fair"]
    assert model.data(model.index(0, GridColumn.GRADE)) == 5 / 3


def test_navigator_counts_follow_documents_and_runs(qtmodeltester):
    """The navigator keeps its row and column counts (Qt asks them for every
    index it makes): they follow a new document, runs shown and hidden, and
    a new document drops the runs compared with the previous one."""
    import numpy as np

    from app.models.queries import RunColumns

    seed, mixed = seed_document(), mixed_document()
    queries = QueryListModel()
    assert (queries.rowCount(), queries.columnCount()) == (0, len(QueryColumn))
    queries.set_evaluation(evaluate(seed))
    assert queries.rowCount() == seed.n_queries > 2
    runs = RunColumns(["B"], ["b.run"], 10, np.full((1, seed.n_queries), 0.5),
                      np.full((1, seed.n_queries), -0.25))
    queries.set_runs(runs)
    assert queries.columnCount() == len(QueryColumn) + 2
    assert queries.data(queries.index(0, len(QueryColumn) + 1), SORT_ROLE) == -0.25
    qtmodeltester.check(queries)
    queries.set_evaluation(evaluate(mixed))  # another document: its runs are gone
    assert (queries.rowCount(), queries.columnCount()) == (2, len(QueryColumn))
    assert queries.data(queries.index(1, QueryColumn.JUDGED)) == "1/2"
    # A role the navigator does not answer, and the runs' columns hidden again.
    assert queries.data(queries.index(0, QueryColumn.QUERY), Qt.ItemDataRole.DecorationRole) \
        is None
    queries.set_runs(runs)
    queries.set_runs(None)
    assert queries.columnCount() == len(QueryColumn)
    qtmodeltester.check(queries)


def test_audit_log_time_follows_the_day_and_answers_only_its_roles(monkeypatch):
    """The log shows a stamp of today as its time, of another day with its
    date; the text is kept per stamp and day (it is asked for every row at
    every edit), so a log left open past midnight shows yesterday's entries
    with their date."""
    import datetime as dt
    import types

    import app.models.audit as audit_module
    from app.models.audit import AuditColumn
    from app.models.roles import WHOLE_ROLE
    from core.model.audit import AuditEntry

    day = [dt.datetime(2026, 12, 6, 23, 59)]

    class Clock(dt.datetime):
        @classmethod
        def now(cls, tz=None):  # type: ignore[no-untyped-def, override]
            return day[0]

    monkeypatch.setattr(audit_module, "dt", types.SimpleNamespace(datetime=Clock, date=dt.date))
    doc = seed_document()
    doc.audit.append(AuditEntry("ana", "2026-12-06T16:20:05", "q", "d", "1", "2", seconds=2.5))
    model = AuditModel()
    model.set_document(doc)
    row = len(doc.audit) - 1
    when, seconds = model.index(row, AuditColumn.WHEN), model.index(row, AuditColumn.SECONDS)
    assert model.data(when) == "16:20:05"
    day[0] = dt.datetime(2026, 12, 7, 0, 1)
    assert model.data(when) == "2026-12-06 16:20"
    assert model.data(when, Qt.ItemDataRole.ToolTipRole) == "2026-12-06T16:20:05"
    assert model.data(when, WHOLE_ROLE) == "2026-12-06T16:20:05"
    assert model.data(seconds) == 2.5
    assert model.data(seconds, Qt.ItemDataRole.TextAlignmentRole) == int(
        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    for role in (Qt.ItemDataRole.FontRole, Qt.ItemDataRole.BackgroundRole,
                 Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.EditRole):
        assert model.data(when, role) is None
        assert model.data(seconds, role) is None


def test_scores_show_the_digits_that_tell_neighbours_apart(qtbot):
    """At 2 decimals 0.9982, 0.9977 and 0.9958 read "1.00 1.00 1.00", a tie
    the engine does not see: each score shows the digits that tell it from
    the scores above and below that differ; a true tie stays equal, a score
    apart at 2 decimals stays at 2; the model keeps the full precision."""
    from PySide6.QtWidgets import QStyleOptionViewItem

    from app.window import MainWindow

    doc = Document.from_columns(
        query=["q"] * 6, source_id=list("abcdef"),
        score=[0.9982, 0.9977, 0.9958, 0.5, 0.5, 0.25], grade=[1, 0, 1, 0, 1, 0])
    w = MainWindow(doc)
    qtbot.addWidget(w)
    w.settings.decimals = 2
    w.refresh_display_settings()
    assert w.decimals() == 2
    delegate = w.grid.itemDelegateForColumn(GridColumn.SCORE)

    def shown(row: int) -> str:
        option = QStyleOptionViewItem()
        delegate.initStyleOption(option, w.grid_model.index(row, GridColumn.SCORE))
        return option.text

    assert [shown(r) for r in range(6)] == ["0.9982", "0.9977", "0.996", "0.50", "0.50",
                                            "0.25"]
    assert w.grid_model.index(2, GridColumn.SCORE).data() == 0.9958
    w.settings.decimals = 4  # more digits asked than needed: as asked
    w.refresh_display_settings()
    assert [shown(r) for r in range(3)] == ["0.9982", "0.9977", "0.9958"]
    w.session.mark_saved()
