"""The query's text in the editor: the navigator's query cell and the
query's heading (the summary panel's title) show the id, then the text,
elided, the text whole on hover; the navigator's filter and Find match it;
Query > Edit query text fixes a typo as one step of the one undo history
(Ctrl+Z puts it back).

Before: a reviewer saw ``q017`` alone, and typing "passport" in Find or in
the navigator's filter found nothing; no edit of the text existed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QInputDialog, QLabel, QLineEdit

from app.models.queries import QueryColumn
from app.models.roles import TOOLTIP
from app.shown import shown_query
from core.engine.evaluation import evaluate
from core.io.workbook import export_workbook
from core.model.document import Document

CTRL = Qt.KeyboardModifier.ControlModifier
PASSPORT = ("How do I renew a passport when the old one was issued abroad before 2010 "
            "and has since expired?")
REFUND = 'What does the "grace period" mean in the refund policy?'


def _book(tmp_path: Path) -> Path:
    doc = Document.from_columns(query=["q017"] * 3 + ["q023"] * 2 + ["q9"] * 2,
                                source_id=list("abcdefg"), score=[3, 2, 1, 2, 1, 2, 1],
                                grade=[2, 0, 1, 1, 0, 1, 1])
    doc.query_texts = {"q017": PASSPORT, "q023": REFUND}
    path = tmp_path / "texts.xlsx"
    export_workbook(evaluate(doc), path)
    return path


def _window(qtbot: Any, path: Path, size: tuple[int, int] = (1280, 800)) -> Any:
    from app.main import build_window
    from app.settings import Settings

    Settings().reviewer = "tester"
    w = build_window(path)
    qtbot.addWidget(w)
    w.show()
    w.workplace.reset(QRect(0, 0, *size))
    qtbot.waitExposed(w)
    w.fit_columns()
    QApplication.processEvents()
    return w


def _rows(w: Any) -> dict[str, int]:
    model = w.navigator.view.model()
    return {model.index(r, QueryColumn.QUERY).data(): r for r in range(model.rowCount())}


def test_the_navigator_and_the_heading_show_the_querys_text(qtbot: Any, tmp_path: Path):
    w = _window(qtbot, _book(tmp_path))
    rows = _rows(w)
    assert set(rows) == {f"q017 · {PASSPORT}", f"q023 · {REFUND}", "q9"}
    model = w.navigator.view.model()
    tip = model.index(rows[f"q017 · {PASSPORT}"], QueryColumn.QUERY).data(TOOLTIP)
    assert tip == ("q017\nHow do I renew a passport when the old one was issued abroad\n"
                   "before 2010 and has since expired?")
    assert model.index(rows["q9"], QueryColumn.QUERY).data(TOOLTIP) is None
    w.set_query(w.document.query_index("q017"))
    title = w.findChild(QLabel, "summaryTitle")
    assert title.text() == f"q017 · {PASSPORT}"
    assert PASSPORT.split()[-1] in title.toolTip()
    assert title.toolTip().startswith("q017\nHow do I renew")
    w.session.mark_saved()


def test_the_filter_and_find_match_the_querys_text(qtbot: Any, tmp_path: Path):
    w = _window(qtbot, _book(tmp_path))
    nav_filter = w.findChild(QLineEdit, "queryFilter")
    qtbot.keyClicks(nav_filter, "refund")
    assert list(_rows(w)) == [f"q023 · {REFUND}"]
    nav_filter.clear()
    assert len(_rows(w)) == 3
    w.set_query(w.document.query_index("q9"))
    qtbot.keyClick(w.grid, Qt.Key.Key_F, CTRL)
    field = w.findChild(QLineEdit, "findField")
    qtbot.keyClicks(field, "PASSPORT")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert w.current_query_id == "q017"
    assert w.find_bar.status.text() == "1 of 1, in Query"
    w.session.mark_saved()


def test_a_typo_in_the_text_is_fixed_and_undone(qtbot: Any, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch):
    w = _window(qtbot, _book(tmp_path))
    w.set_query(w.document.query_index("q017"))
    asked: list[str] = []

    def answer(_parent: Any, _title: str, label: str, text: str) -> tuple[str, bool]:
        asked.append(text)
        return "  How do I renew a passport?\n", True

    monkeypatch.setattr(QInputDialog, "getMultiLineText", answer)
    menu = w.menu("query")
    action = next(a for a in menu.actions() if a.objectName() == "edit_query_text")
    assert action.text() == "Edit query &text…"
    action.trigger()
    assert asked == [PASSPORT]  # the text as it was, to fix
    assert w.document.query_texts["q017"] == "How do I renew a passport?"
    assert "q017 · How do I renew a passport?" in _rows(w)
    assert w.findChild(QLabel, "summaryTitle").text() == "q017 · How do I renew a passport?"
    assert w.isWindowModified()
    assert w.menu("edit").actions()[0].text() == "&Undo text of q017"
    w.grid.setFocus()
    qtbot.keyClick(w.grid, Qt.Key.Key_Z, CTRL)
    assert w.document.query_texts["q017"] == PASSPORT
    assert f"q017 · {PASSPORT}" in _rows(w)
    assert not w.isWindowModified()
    w.session.mark_saved()


def test_undoing_a_text_shows_its_query(qtbot: Any, tmp_path: Path):
    """Undo and Redo of a query's text, from another query, show the query
    whose text they changed, as a grade's undo shows its candidate's: the
    text came back out of sight, the title naming the query shown (fails
    before: the navigator stayed on q023)."""
    w = _window(qtbot, _book(tmp_path))
    w.set_query(w.document.query_index("q017"))
    assert w.set_query_text(w.current_query, "How do I renew a passport?")
    w.set_query(w.document.query_index("q023"))
    w.grid.setFocus()
    qtbot.keyClick(w.grid, Qt.Key.Key_Z, CTRL)
    assert w.current_query_id == "q017"
    assert w.findChild(QLabel, "summaryTitle").text() == shown_query("q017", PASSPORT)
    w.set_query(w.document.query_index("q023"))
    qtbot.keyClick(w.grid, Qt.Key.Key_Y, CTRL)
    assert w.current_query_id == "q017"
    assert w.findChild(QLabel, "summaryTitle").text() == "q017 · How do I renew a passport?"
    w.session.mark_saved()


def test_the_wizard_keeps_the_guessed_text_column(qtbot: Any, tmp_path: Path):
    """The wizard's mapping page has no box of its own for the text (its
    letters are all taken: a box would leave one without); it says the
    guess and imports it (``--map query_text=COLUMN`` declares another)."""
    from PySide6.QtWidgets import QWizard

    from app.import_wizard.wizard import ImportWizard
    from tests.test_import_query_text import _sheet

    wizard = ImportWizard(_sheet(tmp_path))
    qtbot.addWidget(wizard)
    wizard.show()
    qtbot.waitUntil(lambda: not wizard.busy, timeout=10_000)
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: wizard.currentPage() is wizard.mapping_page and not wizard.busy,
                    timeout=10_000)
    assert wizard.mapping_page.mapping().query_text == 2
    assert "query text: question, read from its values" in wizard.mapping_page.findChild(
        QLabel, "guessReasons").text()


def test_at_1280x800_the_navigator_shows_the_id_the_text_and_the_status(qtbot: Any,
                                                                       tmp_path: Path):
    """The text gives way before the status: at 1280x800 the Status column
    was hidden to give the query cell its 40 characters of text (a 342 px
    list: "q017 · How do I renew a pass…" beside the NDCG alone). Now the
    status is shown whole and the cell keeps the id and the text's start,
    elided, the whole text on hover; the side column still asks for the
    text's 40 characters where the screen has the room."""
    from app.panels.fit import text_margins, text_width
    from app.panels.navigator import TEXT_LEAST

    w = _window(qtbot, _book(tmp_path))
    nav, view = w.navigator, w.navigator.view
    header = view.horizontalHeader()
    assert not view.isColumnHidden(QueryColumn.STATUS)
    assert header.sectionSize(QueryColumn.STATUS) == nav._status_width > 0
    least = text_width(view.font(), shown_query("q017", PASSPORT[:TEXT_LEAST] + "…"))
    assert header.sectionSize(QueryColumn.QUERY) >= least + text_margins(view)
    assert view.horizontalScrollBar().maximum() == 0  # (nothing off to the side)
    assert nav.sizeHint().width() > nav.width()  # (more of the text where there is room)
    w.session.mark_saved()
