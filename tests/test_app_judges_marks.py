"""The Judges dock's candidates' table with two annotators named in full
and their unrateable marks, at a 1280x800 side column's width: every
header, grade and mark whole, no sideways scroll; the names and the marks'
whole words on hover."""

from __future__ import annotations

from typing import Any

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.panels.fit import elided_headers, text_margins
from app.review.judges_view import JudgesView, short_names
from core.engine.evaluation import evaluate
from core.model.document import Document


def _two_named() -> Document:
    doc = Document.from_columns(
        query=["q1"] * 4 + ["q2"], source_id=["doc-0001", "doc-0002", "doc-0003", "doc-0004",
                                             "doc-0001"],
        score=[4, 3, 2, 1, 1], grade=[0, 1, 2, 2, 1], name="two judges")
    doc.annotators = ["Ana Pereira", "Benjamin Okafor"]
    doc.ratings = np.array([[0, 0], [1, 1], [np.nan, 2], [2, np.nan], [np.nan, 1]], dtype=float)
    doc.unrateable_ratings = np.zeros((5, 2), dtype=bool)
    doc.unrateable_ratings[[2, 3], [0, 1]] = True
    doc.unrateable_words = np.full((5, 2), "", dtype=object)
    doc.unrateable_words[2, 0] = doc.unrateable_words[3, 1] = "N/A"
    return doc


def _shown(qtbot: Any, width: int) -> JudgesView:
    """The Judges dock's view, ``width`` px wide, showing query 0 of
    :func:`_two_named`, laid out."""
    doc = _two_named()
    view = JudgesView(lambda: 4)
    qtbot.addWidget(view)
    view.resize(width, 900)
    view.set_document(doc)
    view.show_query(doc, evaluate(doc).ranked(0), 0)
    view.show()
    qtbot.waitExposed(view)
    for _ in range(3):
        qtbot.wait(1)
        QApplication.processEvents()
    return view


def test_two_annotators_marks_fit_the_judges_dock_at_1280x800(qtbot: Any) -> None:
    """Under Xvfb at 1280x800 (the dock 298 px wide) the table read
    "Ana Pereira", "enjamin Okaf" and "unrateabl…", its disagree column out
    of view (fails before: the table scrolls sideways)."""
    view = _shown(qtbot, 298)
    table, m = view.candidate_table, view.candidate_model
    assert [m.headerData(c, Qt.Orientation.Horizontal) for c in range(m.columnCount())] == [
        "source", "grade", "AP", "BO", "disagree"]
    assert m.headerData(3, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) == (
        "Benjamin Okafor's grades")
    assert table.horizontalHeader().length() <= table.viewport().width()
    assert elided_headers(table) == []
    metrics, margins = table.fontMetrics(), text_margins(table)
    # One line a row (Qt's 30 px stood two lines tall: fails before)
    for t in (view.kappa_table, view.alpha_table, table):
        assert t.rowHeight(0) == max(22, t.fontMetrics().height() + 6), t.objectName()
    for row, col in ((2, 2), (3, 3)):
        index = m.index(row, col)
        assert index.data() == "N/A"
        assert index.data(Qt.ItemDataRole.ToolTipRole) == "unrateable: N/A"
        assert metrics.horizontalAdvance(index.data()) + margins <= table.columnWidth(col)


def test_short_names_are_initials_only_where_they_read_apart() -> None:
    assert short_names(["Ana Pereira", "Benjamin Okafor"]) == ["AP", "BO"]
    assert short_names(["ann", "bob"]) == ["ann", "bob"]
    assert short_names(["annotator 1", "annotator 12"]) == ["A1", "A12"]
    assert short_names(["Ana Pereira", "Alan Park"]) == ["Ana Pereira", "Alan Park"]
    assert short_names(["Benjamin", "Christopher"]) == ["Benjamin", "Chr"]


def test_a_platforms_worker_ids_are_shortened_as_written() -> None:
    """A crowd platform's worker id, one word of letters and digits
    (Toloka's ``a1f3c9e2b7d4``), is no name of words: its head as written,
    never each letter and digit as initials, upper-cased (``A1F3C9E2B7D4``,
    no shorter and an id no one wrote)."""
    ids = ["a1f3c9e2b7d4", "5e8d0c1a9f2b", "c0ffee123abc"]
    assert short_names(ids) == ["a1f", "5e8", "c0f"]
    assert short_names(["a1f3c9e2b7d4", "a1f0000000ff"]) == ["a1f3c9e2b7d4", "a1f0000000ff"]


def test_no_table_stretches_a_column_to_its_edge(qtbot: Any) -> None:
    """Each column of the three tables as wide as its contents and header
    ask, the room left blank at their right: the alpha table's last column
    (the grades a level rests on, one count) stretched to the dock's edge,
    its number 200 px from its header under Xvfb at 1920x1080 (fails
    before: every last column stretched)."""
    view = _shown(qtbot, 420)
    for table in (view.kappa_table, view.alpha_table, view.candidate_table):
        header = table.horizontalHeader()
        assert not header.stretchLastSection(), table.objectName()
        widths = [header.sectionSize(c) for c in range(header.count())]
        asked = [max(header.sectionSizeHint(c), table.sizeHintForColumn(c))
                 for c in range(header.count())]
        assert widths == asked, table.objectName()
        assert header.length() < table.viewport().width(), table.objectName()


def test_a_name_and_its_number_in_one_word_are_still_initials() -> None:
    """A word then its number, written together (``annotator12``,
    ``Reviewer3``), reads as "annotator 12" does (``A12``), as before
    de57728a; only a platform's id of letters and digits mixed
    (``a1f3c9e2b7d4``) is one word, its head as written."""
    assert short_names(["annotator12", "annotator13", "annotator7"]) == ["A12", "A13", "A7"]
    assert short_names(["Reviewer1", "a1f3c9e2b7d4"]) == ["R1", "a1f"]
