"""The status bar's messages are seen (pytest-qt): the footer with the means,
a permanent widget stretched over the whole bar, steps aside while one shows
(Qt draws a message only left of the first permanent widget shown), and comes
back when it goes."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizeGrip, QWidget

#: A close that would ask gets Discard (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("never_block")


def room_for_messages(window) -> int:  # type: ignore[no-untyped-def]
    """The width Qt gives a message: up to the first permanent widget shown."""
    bar = window.statusBar()
    shown = [w for w in bar.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
             if w.isVisible() and not isinstance(w, QSizeGrip)]
    return min((w.x() for w in shown), default=bar.width())


def test_a_save_is_seen_in_the_status_bar(qtbot, window, tmp_path):
    footer = window.findChild(QLabel, "aggregateFooter")
    assert footer.isVisible()
    assert footer.text().startswith("equal-query mean: NDCG@1")
    window.file_ops.save_as(tmp_path / "saved.xlsx", blocking=True)
    message = window.statusBar().currentMessage()
    assert message == f"Saved saved.xlsx in {tmp_path}"
    width = window.statusBar().fontMetrics().horizontalAdvance(message)
    assert room_for_messages(window) > width  # was 0: the footer began at the left edge
    assert not footer.isVisible()
    window.statusBar().clearMessage()
    assert footer.isVisible()
    assert footer.text().startswith("equal-query mean: NDCG@1")


def test_the_footer_says_no_mean_of_no_query(qtbot, window):
    """An empty window (a file still read at launch, or none opened) has no
    query: the footer said "equal-query mean: NDCG@all no mean over 0/0"
    beside "Reading run.txt…". It is empty until there are queries, and
    the means come back with them."""
    from core.model.document import Document
    from core.model.examples import seed_document

    footer = window.findChild(QLabel, "aggregateFooter")
    window.set_document(Document.from_columns(query=[], source_id=[]))
    assert footer.text() == ""
    assert footer.toolTip() == ""
    window.set_document(seed_document())
    assert footer.text().startswith("equal-query mean: NDCG@1 0.3611")
    assert footer.toolTip()


def test_the_footer_says_a_mean_of_no_defined_query_as_a_sentence(qtbot, window):
    """One query, undefined (its ideal DCG is 0): the footer said "NDCG@all
    no mean over 0/1"; it says there is no mean and why, counting the
    queries in words."""
    from core.model.conventions import Conventions
    from core.model.document import Document

    footer = window.findChild(QLabel, "aggregateFooter")
    window.set_document(Document.from_columns(
        query=["q"], source_id=["a"], score=[1.0], grade=[0.0],
        conventions=Conventions(cutoffs=(None,))))
    assert footer.text() == (
        "equal-query mean: NDCG@all: no mean (0 of 1 query counted; excluded: 1 undefined)")


def test_a_save_says_the_name_and_its_folder_however_the_path_was_given(
        qtbot, window, tmp_path, monkeypatch):
    """A file given by a relative name (opened from the command line in its
    folder) and one by its whole path are said alike: the name, then the
    folder (the first was said "Saved run_a-lo.ods", the second "Saved
    /tmp/.../run_a.xlsx", in a new user's trial)."""
    from pathlib import Path

    monkeypatch.chdir(tmp_path)
    window.file_ops.save_as(Path("run_a-lo.ods"), blocking=True)
    assert window.statusBar().currentMessage() == f"Saved run_a-lo.ods in {tmp_path}"
    window.file_ops.save_as(tmp_path / "run_a.xlsx", blocking=True)
    assert window.statusBar().currentMessage() == f"Saved run_a.xlsx in {tmp_path}"
