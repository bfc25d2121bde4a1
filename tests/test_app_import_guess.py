"""The import wizard on sheets as they really arrive (tests/data/annotators/):
it guesses again when the sheet or the header row changes, proposes the
rubric from the file's labels, asks for labels on no known scale, and
Finish with rejected judgments needs an explicit "import anyway"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QApplication, QWizard

from app.import_wizard.wizard import ImportWizard
from core.model.conventions import Conventions, Rubric
from tests.appboxes import Boxes
from tests.test_app_import import _drive, _idle, _import_anyway, _next, _window

DATA = Path(__file__).parent / "data" / "annotators"
EXPECTED: dict[str, Any] = json.loads((DATA / "expected.json").read_text("utf-8"))


def _back(qtbot: Any, wizard: ImportWizard) -> None:
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.BackButton), Qt.MouseButton.LeftButton)
    _idle(qtbot, wizard)


def _type_header_row(qtbot: Any, wizard: ImportWizard, row: int) -> None:
    spin = wizard.sheet_page.header_row
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, str(row))
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    _idle(qtbot, wizard)


def _consensus(name: str) -> dict[tuple[str, str], float | None]:
    return {(q, s): v for q, s, v, _ in EXPECTED[name]["candidates"]}


def test_the_issue_s_sheet_is_guessed_and_imported(qtbot: Any, monkeypatch: pytest.MonkeyPatch,
                                                   boxes: Boxes):
    """The issue's sheet: merged title, blank row, ``Topic | Doc URL | Annotator A-C``."""
    path = DATA / "issue_batch7.xlsx"
    window, ops = _window(qtbot)
    seen: dict[str, Any] = {}

    def steps(w: ImportWizard) -> None:
        page1 = w.sheet_page
        assert page1.sheet.currentText() == "Batch 7"
        assert page1.header_row.value() == 3  # not the title row
        _next(qtbot, w)
        page2 = w.mapping_page
        assert page2.layout_combo.currentData() == "wide"
        assert page2.combos["query"].currentText() == "A: Topic"
        assert page2.combos["source_id"].currentText() == "B: Doc URL"
        assert page2.grades_model.grades() == (
            (2, "Annotator A"), (3, "Annotator B"), (4, "Annotator C"))
        # The rubric is read from the file's labels, not the open document's.
        assert page2.rubric.text() == "0=Not relevant,1=Relevant,2=Highly relevant"
        assert not page2.unmapped_view.isVisible()
        _next(qtbot, w)
        qtbot.waitUntil(lambda: w.result_value is not None, timeout=10_000)
        view = w.report_page.view
        seen["summary"] = view.summary.text()
        # 20 rows of 3 grade cells, 7 of them blank: no judgment (they were counted as read)
        assert view.counts["judgments_read"].text() == "53"
        assert view.counts["blank_grades"].text() == "7"
        assert view.counts["judgments_rejected"].text() == "0"
        assert not w.report_page.anyway.isVisible()
        finish = w.button(QWizard.WizardButton.FinishButton)
        assert finish.isEnabled()
        qtbot.mouseClick(finish, Qt.MouseButton.LeftButton)

    _drive(monkeypatch, qtbot, steps)
    assert ops.run_import_wizard(path)
    assert ("53 judgments read in 20 rows: 53 imported (4 of them marks read as unrateable: "
            "'N/A' 4), 0 rejected; 7 grade cells blank (no "
            "judgment: unknown grades)") in seen["summary"]
    doc = window.document
    assert doc.annotators == ["Annotator A", "Annotator B", "Annotator C"]
    assert doc.conventions.rubric == Rubric.parse("0=Not relevant,1=Relevant,2=Highly relevant")
    want = _consensus("issue_batch7.xlsx")
    for i in range(len(doc)):
        value = want[(doc.query_ids[int(doc.query[i])], str(doc.source_id[i]))]
        if value is None:
            assert np.isnan(doc.grade[i])
        else:
            assert doc.grade[i] == pytest.approx(value, abs=1e-12)
    assert boxes.shown == []


def test_changing_the_header_row_guesses_again(qtbot: Any, boxes: Boxes):
    wizard = ImportWizard(DATA / "issue_batch7_cp1252.csv", Conventions())
    qtbot.addWidget(wizard)
    wizard.show()
    _idle(qtbot, wizard)
    assert wizard.sheet_page.header_row.value() == 3
    _next(qtbot, wizard)
    page2 = wizard.mapping_page
    assert page2.combos["query"].currentData() == 0
    assert page2.rubric.text() == "0=Not relevant,1=Relevant,2=Highly relevant"
    _back(qtbot, wizard)
    # The user says the header is row 1 (the title): the columns are guessed for it.
    _type_header_row(qtbot, wizard, 1)
    assert wizard.preview_value is not None
    assert wizard.preview_value.header_row == 0
    _next(qtbot, wizard)
    # No header names them now: the query and the source are read from their values,
    assert page2.combos["query"].currentData() == 0
    assert page2.combos["source_id"].currentData() == 1
    # and the grade columns by their cells.
    assert page2.grades_model.grades() == ((2, "C"), (3, "D"), (4, "E"))
    _back(qtbot, wizard)
    # Back to row 3: guessed again, as at first.
    _type_header_row(qtbot, wizard, 3)
    _next(qtbot, wizard)
    assert page2.combos["query"].currentData() == 0
    assert page2.combos["source_id"].currentData() == 1
    assert [n for _, n in page2.grades_model.grades()] == [
        "Annotator A", "Annotator B", "Annotator C"]
    assert page2.rubric.text() == "0=Not relevant,1=Relevant,2=Highly relevant"
    assert boxes.shown == []


def test_labels_on_no_known_scale_are_asked_for(qtbot: Any, monkeypatch: pytest.MonkeyPatch,
                                                 boxes: Boxes):
    path = DATA / "unknown_labels.csv"
    window, ops = _window(qtbot)

    def give(view: Any, row: int, grade: str) -> None:
        view.setFocus()
        view.setCurrentIndex(view.model().index(row, 2))
        qtbot.keyClick(view, Qt.Key.Key_F2)
        editor = QApplication.focusWidget()
        qtbot.keyClicks(editor, grade)
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        label = view.model().index(row, 0).data()
        qtbot.waitUntil(lambda: view.model().answers().get(label) == float(grade))
        qtbot.waitUntil(lambda: view.state() == QAbstractItemView.State.NoState)

    def steps(w: ImportWizard) -> None:
        _next(qtbot, w)
        page2 = w.mapping_page
        assert page2.unmapped_prompt.isVisible()
        assert page2.unmapped_prompt.text().startswith("3 labels are on no known scale")
        # (above it, 'The grade columns hold no text labels.' said the opposite)
        assert page2.labels_info.text() == "No known scale reads the grade columns' labels."
        model = page2.labels_model
        assert [model.index(r, 0).data() for r in range(3)] == ["kinda", "spot on", "meh"]
        assert [model.index(r, 1).data() for r in range(3)] == [3, 3, 2]
        give(page2.unmapped_view, 0, "1")  # kinda
        give(page2.unmapped_view, 2, "0")  # meh; 'spot on' is left without a grade
        assert model.answers() == {"kinda": 1.0, "meh": 0.0}
        _next(qtbot, w)
        qtbot.waitUntil(lambda: w.result_value is not None, timeout=10_000)
        report = w.report_page.view.report
        assert report is not None
        assert report.unmapped_labels == {"spot on": 3}
        assert [(r, c) for r, c, _ in report.rejected_judgments] == [
            (3, "label"), (4, "label"), (9, "label")]
        _import_anyway(qtbot, w, "Import anyway: 3 of the 8 judgments read are rejected")
        qtbot.mouseClick(w.button(QWizard.WizardButton.FinishButton), Qt.MouseButton.LeftButton)

    _drive(monkeypatch, qtbot, steps)
    assert ops.run_import_wizard(path)
    doc = window.document
    # By hand: x, y = (kinda, spot on) (spot on, meh) (meh, kinda) (kinda, spot on).
    np.testing.assert_array_equal(doc.grade, [1.0, 0.0, 0.5, 1.0])
    assert boxes.shown == []


def test_the_labels_model_passes_the_model_tester(qtmodeltester: Any) -> None:
    from app.import_wizard.tables import LabelsModel

    model = LabelsModel()
    model.set_labels({"meh": 2, "spot on": 1})
    assert model.rowCount() == 2
    assert model.setData(model.index(0, 2), "1,5")
    assert not model.setData(model.index(1, 2), "lots")
    assert not model.setData(model.index(1, 0), "2")  # the label itself is not edited
    assert model.answers() == {"meh": 1.5}
    assert model.index(0, 2).data() == "1.5"
    assert model.unanswered() == ["spot on"]
    qtmodeltester.check(model)
    assert model.setData(model.index(0, 2), "")
    assert model.answers() == {}


def test_the_editor_opens_a_run_with_a_sheet_as_qrels(qtbot: Any, boxes: Boxes) -> None:
    """``ndcg-worksheet RUN --qrels SHEET``: the sheet's consensus are the judgments."""
    from app.main import build_window

    window = build_window(DATA / "run_12.run", qrels=DATA / "run_12_judgments.xlsx")
    qtbot.addWidget(window, before_close_func=lambda w: w.session.mark_saved())
    assert boxes.shown == []
    doc = window.document
    assert doc.name == "run_12"
    want = _consensus("run_12_judgments.xlsx")
    assert len(doc) == len(want)
    for i in range(len(doc)):
        key = (doc.query_ids[int(doc.query[i])], str(doc.source_id[i]))
        assert doc.grade[i] == pytest.approx(want[key])
    # on the sheet's Bad ... Perfect scale, as the wizard reads it: its means
    # (0.5) no levels (was 0, 0.5, 2, 3, unlabelled) nor grades off it
    shown = window.evaluation
    assert shown.rubric.text == "0=Bad,1=Fair,2=Good,3=Excellent,4=Perfect"
    assert not shown.outside_rubric.any()
    assert doc.annotators == ["rater-1", "rater-2"]
