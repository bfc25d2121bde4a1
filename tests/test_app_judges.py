"""The Judges dock: agreement between annotators (kappa, alpha, the flagged
disagreements), an annotator's unrateable mark as written, its texts and tables
in a narrow dock, its message without annotators. Comparing runs and
explaining a change: tests/test_app_review.py."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QScrollArea

from app.models.looks import TONES
from app.review.judges_view import AlphaColumn, KappaColumn
from core.engine.evaluation import evaluate
from core.model.document import Document

#: A close that would ask gets Discard (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("never_block")


def _two_annotators() -> Document:
    ratings = np.array([[0, 0], [1, 1], [1, 2], [2, 2], [np.nan, 1]], dtype=float)
    doc = Document.from_columns(
        query=["q1", "q1", "q1", "q1", "q2"], source_id=["a", "b", "c", "d", "a"],
        score=[4, 3, 2, 1, 1], grade=[0, 1, 1.5, 2, 1], name="two judges")
    doc.annotators = ["ann", "bob"]
    doc.ratings = ratings
    return doc


def test_judges_view_kappa_alpha_and_flags(qtbot, window, qtmodeltester):
    w = window
    view = w.judges_view.view
    assert "no individual annotators' grades" in view.message.text()
    assert view.kappa_model.rowCount() == 0
    w.set_document(_two_annotators())
    w.app_actions["show_judges"].trigger()
    assert w.docks["judgesViewDock"].isVisible()
    qtmodeltester.check(view.kappa_model)
    qtmodeltester.check(view.alpha_model)
    qtmodeltester.check(view.candidate_model)
    # By hand over the 4 candidates both graded: p_o = 3/4, p_e = 5/16,
    # kappa = (3/4 - 5/16) / (1 - 5/16) = 7/11.
    (row,) = view.kappa_model.rows()
    assert row[KappaColumn.ANNOTATOR_A] == "ann"
    assert row[KappaColumn.ANNOTATOR_B] == "bob"
    assert row[KappaColumn.KAPPA] == pytest.approx(7 / 11, abs=1e-12)
    assert row[KappaColumn.ITEMS] == 4
    alphas = {r[AlphaColumn.METRIC]: r for r in view.alpha_model.rows()}
    # Nominal alpha by hand: coincidences o_00 = 2, o_11 = 2, o_12 = o_21 = 1, o_22 = 2;
    # n = 8, n_c = (2, 3, 3): D_o = 2/8, D_e = (64 - 4 - 9 - 9) / 56 = 42/56.
    assert alphas["nominal"][AlphaColumn.ALPHA] == pytest.approx(1 - (2 / 8) / (42 / 56))
    assert alphas["nominal"][AlphaColumn.UNITS] == 4
    assert alphas["nominal"][AlphaColumn.VALUES] == 8
    assert "mean of the annotators' grades" in view.consensus.text()
    assert "no rounding" in view.consensus.text()
    # The current query q1: individual grades and the flag on c.
    m = view.candidate_model
    headers = [m.headerData(c, Qt.Orientation.Horizontal) for c in range(m.columnCount())]
    assert headers == ["source", "grade", "ann", "bob", "disagree"]
    rows = m.rows()
    assert [r[0] for r in rows] == ["a", "b", "c", "d"]
    assert rows[2] == ("c", 1.5, 1.0, 2.0, "yes")
    assert [r[4] for r in rows] == ["", "", "yes", ""]
    assert "disagree on 1 of 4" in view.query_title.text()
    w.set_query(1)
    assert m.rows() == [("a", 1.0, None, 1.0, "")]


def test_an_annotator_s_unrateable_mark_shows_as_written_in_its_colour(qtbot, window):
    """bob marked q1's a "N/A" and c "skip", ann marked d with no word kept
    (a workbook from before the words): each cell says the state and the
    mark as written, in the unrateable colour, as the workbook's Annotators
    sheet does, and a screen reader says it; a grade not given stays blank
    and is said as none given. The three cells were blank."""
    from PySide6.QtGui import QAccessible

    doc = _two_annotators()
    ratings = doc.ratings.copy()
    ratings[0, 1] = ratings[2, 1] = ratings[3, 0] = np.nan
    doc.ratings = ratings
    doc.unrateable_ratings = np.zeros(ratings.shape, dtype=bool)
    doc.unrateable_ratings[[0, 2, 3], [1, 1, 0]] = True
    doc.unrateable_words = np.full(ratings.shape, "", dtype=object)
    doc.unrateable_words[0, 1], doc.unrateable_words[2, 1] = "N/A", "skip"
    w = window
    w.set_document(doc)
    w.app_actions["show_judges"].trigger()
    view = w.judges_view.view
    m = view.candidate_model
    # (the mark as written where short, the state's word else; whole on hover)
    assert [r[2:4] for r in m.rows()] == [
        (0.0, "N/A"), (1.0, 1.0), (1.0, "skip"), ("unrateable", 2.0)]
    assert [m.index(r, 3).data(Qt.ItemDataRole.ToolTipRole) for r in range(3)] == [
        "unrateable: N/A", None, "unrateable: skip"]
    purple = QColor(TONES["unrateable"].light)
    for row, col in ((0, 3), (2, 3), (3, 2)):
        index = m.index(row, col)
        assert index.data(Qt.ItemDataRole.ForegroundRole).color() == purple
        assert index.data(Qt.ItemDataRole.FontRole).italic()
    assert m.index(0, 2).data(Qt.ItemDataRole.ForegroundRole) is None
    assert m.index(0, 3).data(Qt.ItemDataRole.AccessibleDescriptionRole) == (
        "bob's grade of a: unrateable: N/A")
    assert m.index(0, 2).data(Qt.ItemDataRole.AccessibleDescriptionRole) == "ann's grade of a"
    w.set_query(1)  # q2: ann gave a no grade
    assert m.rows()[0][2] is None
    assert m.index(0, 2).data(Qt.ItemDataRole.AccessibleDescriptionRole) == (
        "ann's grade of a: none given")
    w.set_query(0)
    table = QAccessible.queryAccessibleInterface(view.candidate_table)
    said = {}
    for n in range(table.childCount()):
        child = table.child(n)
        cell = child.tableCellInterface()
        if cell is not None:
            said[(cell.rowIndex(), cell.columnIndex())] = child.text(QAccessible.Text.Name)
    assert said[(0, 3)] == "N/A"
    assert said[(3, 2)] == "unrateable"

def test_the_judges_view_wraps_its_texts_in_a_narrow_dock(qtbot):
    """At 1280x800 the Judges tab is ~300 px wide: the current query's title
    ("q00000: the annotators disagree on 20 of 30 candidates ...") did not
    wrap, the body took its width, and every wrapped text above it was cut
    at the dock's edge ("... with two or more grades ha", seen under Xvfb on
    the installed wheel). The body is as wide as the dock; the texts wrap."""
    from app.review.judges_view import JudgesView

    view = JudgesView(lambda: 4)
    qtbot.addWidget(view)
    view.resize(300, 700)
    long = "a-query-with-a-longer-name"
    doc = Document.from_columns(
        query=[long] * 4 + ["q2"], source_id=["a", "b", "c", "d", "a"],
        score=[4, 3, 2, 1, 1], grade=[0, 1, 1.5, 2, 1], name="two judges")
    doc.annotators = ["ann", "bob"]
    doc.ratings = _two_annotators().ratings
    view.set_document(doc)
    ev = evaluate(doc)
    view.show_query(doc, ev.ranked(0), 0)
    view.show()
    qtbot.waitExposed(view)
    area = view.findChild(QScrollArea, "judgesScroll")
    body = area.widget()
    qtbot.waitUntil(lambda: body.width() <= area.viewport().width())
    assert view.query_title.text().startswith("a-query-with-a-longer-name: ")
    for label in (view.message, view.query_title):
        assert label.geometry().right() < area.viewport().width(), label.objectName()


def test_the_judges_tables_fit_a_narrow_dock_numbers_right_marks_whole_on_hover(qtbot):
    """At 1280x800 the Judges tab is 312 px wide (a 264 px table). The kappa
    and alpha tables scrolled sideways (400 and 370 px: "Cohen's kappa",
    "candidates both graded") and their counts sat left beside right-aligned
    kappas; the candidates' grade showed 0.3333333333333333 left-aligned
    beside the annotators' right-aligned grades; a mark wider than its
    column was cut at the viewport's edge. Now the two tables fit, as tall
    as their rows; every number is right-aligned at the display rounding;
    a mark given way is elided and said whole on hover."""
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent
    from PySide6.QtWidgets import QToolTip

    from app.review.judges_view import JudgesView

    view = JudgesView(lambda: 4)
    qtbot.addWidget(view)
    view.resize(300, 900)
    doc = Document.from_columns(
        query=["q1", "q1", "q1", "q1", "q2"], source_id=["a", "b", "c", "d", "a"],
        score=[4, 3, 2, 1, 1], grade=[1 / 3, 1, 1.5, 2, 1], name="two judges")
    doc.annotators = ["ann", "bob.smith"]
    ratings = _two_annotators().ratings.copy()
    ratings[2, 1] = np.nan
    doc.ratings = ratings
    doc.unrateable_ratings = np.zeros(ratings.shape, dtype=bool)
    doc.unrateable_ratings[2, 1] = True
    doc.unrateable_words = np.full(ratings.shape, "", dtype=object)
    doc.unrateable_words[2, 1] = "the page did not load"
    view.set_document(doc)
    view.show_query(doc, evaluate(doc).ranked(0), 0)
    view.show()
    qtbot.waitExposed(view)
    right = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    for table, count in ((view.kappa_table, KappaColumn.ITEMS),
                         (view.alpha_table, AlphaColumn.UNITS)):
        qtbot.waitUntil(lambda t=table: t.horizontalHeader().length() <= t.viewport().width())
        assert not table.horizontalScrollBar().isVisible(), table.objectName()
        assert table.viewport().height() == table.verticalHeader().length()
        assert table.model().index(0, count).data(Qt.ItemDataRole.TextAlignmentRole) == right
    assert view.kappa_table.model().headerData(
        KappaColumn.ITEMS, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) == (
            "candidates both annotators graded")
    table, m = view.candidate_table, view.candidate_model
    grade = m.index(0, 1)
    assert table.itemDelegate().displayText(grade.data(), None) == "0.3333"
    assert grade.data(Qt.ItemDataRole.TextAlignmentRole) == right
    mark = m.index(2, 3)
    assert mark.data() == "unrateable"  # (a long mark: the state's word, whole on hover)
    assert mark.data(Qt.ItemDataRole.TextAlignmentRole) is None  # words: left
    assert m.headerData(3, Qt.Orientation.Horizontal) == "BS"  # ('bob.smith': initials)
    assert m.headerData(3, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) == (
        "bob.smith's grades")
    table.scrollTo(mark)
    rect = table.visualRect(mark)
    assert rect.right() <= table.viewport().width()
    assert not table.horizontalScrollBar().isVisible()
    help_event = QHelpEvent(QEvent.Type.ToolTip, rect.center(),
                            table.viewport().mapToGlobal(rect.center()))
    QToolTip.hideText()
    QApplication.sendEvent(table.viewport(), help_event)
    qtbot.waitUntil(QToolTip.isVisible)
    assert QToolTip.text() == "unrateable: the page did not load"
    QToolTip.hideText()


def test_the_judges_message_without_annotators_stands_at_the_top(qtbot):
    """A document without annotators' grades: the dock says so at its top.
    The message stood in the middle of the dock (y 540 of 1,000 px, seen on a
    2,000-query run at 1920x1080), the space above it blank."""
    from app.review.judges_view import JudgesView

    view = JudgesView(lambda: 4)
    qtbot.addWidget(view)
    view.resize(380, 1000)
    view.set_document(Document.from_columns(query=["q1"], source_id=["a"], score=[1.0],
                                            grade=[1.0]))
    view.show()
    qtbot.waitExposed(view)
    assert "keeps no individual annotators' grades" in view.message.text()
    top = view.message.mapTo(view, view.message.rect().topLeft()).y()
    assert top < 30
    assert view.message.height() <= view.message.heightForWidth(view.message.width()) + 2


def test_four_annotators_fit_the_judges_tab_at_1280x800_their_ids_told_apart(qtbot):
    """The Judges tab at 1280x800 (312 px) over four annotators and
    40-character URLs: the candidates' table scrolled sideways and cut its
    last header, "disa" (the source held the marks' floor, 77 px), and the
    ids, cut at their ends, all read "https://…" (fails before). The ids
    give way further, down to 8 characters, cut in their middle with their
    ends kept; every column is in view, each header whole."""
    from PySide6.QtWidgets import QStyleOptionViewItem

    from app.panels.fit import elided_headers
    from app.review.judges_view import CandidateColumn, JudgesView

    view = JudgesView(lambda: 4)
    qtbot.addWidget(view)
    view.resize(312, 900)
    sources = [f"https://docs.example.com/helpers/pa-010{i}" for i in range(4)]
    doc = Document.from_columns(query=["q1"] * 4, source_id=sources, score=[4, 3, 2, 1],
                                grade=[1.5, 1, 1.25, 3], name="four judges")
    doc.annotators = ["annotator7", "annotator8", "annotator9", "annotator10"]
    doc.ratings = np.array([[0, 1, 2, 3], [1, 1, 1, 1], [2, 1, 0, 2], [3, 3, 3, 3]], dtype=float)
    view.set_document(doc)
    view.show_query(doc, evaluate(doc).ranked(0), 0)
    view.show()
    qtbot.waitExposed(view)
    table, model = view.candidate_table, view.candidate_model
    assert model.headerData(model.columnCount() - 1, Qt.Orientation.Horizontal) == "disagree"
    qtbot.waitUntil(lambda: table.horizontalHeader().length() <= table.viewport().width())
    assert not table.horizontalScrollBar().isVisible()
    assert elided_headers(table) == []
    shown = []
    for row in range(model.rowCount()):
        index = model.index(row, CandidateColumn.SOURCE)
        option = QStyleOptionViewItem()
        table.initViewItemOption(option)
        option.rect = table.visualRect(index)
        delegate = table.itemDelegateForIndex(index)
        delegate.initStyleOption(option, index)
        shown.append(delegate.shown(option))
    assert len(set(shown)) == 4, shown  # (each id's end kept: "htt…0102")
    assert all(s.endswith(src[-3:]) for s, src in zip(shown, sources, strict=True)), shown
