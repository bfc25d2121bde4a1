"""The import wizard for annotators' sheets: preview, mapping, report, Finish.

The wizard driven as a person drives it (``_drive``, ``_next``, ``_finish``,
...: the app's import tests share them; the message boxes are
tests/appboxes.py's, as in every app test). What the command
line says, the wizard says in its own words: tests/test_app_import_words.py.
The wizard at launch: tests/test_app_import_launch.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QWizard,
)

from app.file_formats import Origin, write_document
from app.fileops import FileOps, install_file_ops
from app.import_wizard.report import ImportReportDialog
from app.import_wizard.tables import GradeColumnsModel, IssuesModel, PreviewModel
from app.import_wizard.wizard import ImportWizard
from app.settings import Settings
from app.window import MainWindow
from core.io.annotator import ColumnMapping, import_annotations, preview
from core.io.load import is_annotator_sheet
from core.model.conventions import ConsensusRule, Conventions, Rubric
from core.model.document import GradeState
from core.model.examples import seed_document
from tests.appboxes import Boxes

RUBRIC = "0=not relevant,1=partial,2=relevant,3=highly relevant"


#: The rubric the wizard proposes from WIDE_CSV's labels, as the file spells them.
PROPOSED = "0=not relevant,1=partial,2=relevant,3=Highly relevant"


WIDE_CSV = """query,doc,model_conf,grade_alice,grade_bob,notes
q1,d1,0.9,Highly relevant,relevant,
q1,d2,0.7,partial,not relevant,checked
q1,d3,abc,relevant,relevant,
q2,d4,0.5,relevant,5,
q2,d5,0.4,n/a,1.5,
q2,d6,0.3,meh,partial,
"""


def wide_sheet(folder: Path) -> Path:
    """:data:`WIDE_CSV` written in ``folder``: the wide_csv fixtures' sheet."""
    path = folder / "wide.csv"
    path.write_text(WIDE_CSV, encoding="utf-8")
    return path


@pytest.fixture
def wide_csv(tmp_path: Path) -> Path:
    return wide_sheet(tmp_path)


@pytest.fixture
def long_xlsx(tmp_path: Path) -> Path:
    """Two sheets: an 'About' sheet first, the judgments (header on row 3) second."""
    book = openpyxl.Workbook()
    about = book.active
    about.title = "About"
    about["A1"] = "Relevance judgments, round 2"
    sheet = book.create_sheet("Judgments")
    sheet["A1"] = "Exported from the labelling tool"
    sheet.append([])
    rows: list[list[Any]] = [
        ["Topic", "Document", "Rank", "Assessor", "Relevance"],
        ["t1", "a", 1, "ann", 2],
        ["t1", "a", 1, "ben", 3],       # the item's rank again (another is refused)
        ["t1", "b", 2, "ann", 0],
        ["t1", "b", 2, "ben", 1],
        ["t1", "b", 2, "ben", 1],       # ben again, same grade: a duplicate
        ["t2", "c", 1, "ann", 3],
        ["t2", "c", 1, "ben", "=1+1"],  # a formula: never evaluated, cell refused
        ["t2", "d", 2, "ann", 2.5],     # fractional
    ]
    for row in rows:
        sheet.append(row)
    path = tmp_path / "judgments.xlsx"
    book.save(path)
    return path


def _window(qtbot: Any) -> tuple[MainWindow, FileOps]:
    Settings().reviewer = "ana"
    window = MainWindow(seed_document())
    qtbot.addWidget(window, before_close_func=lambda w: w.session.mark_saved())
    return window, install_file_ops(window)


def _idle(qtbot: Any, wizard: ImportWizard) -> None:
    qtbot.waitUntil(lambda: not wizard.busy, timeout=10_000)


def _drive(monkeypatch: pytest.MonkeyPatch, qtbot: Any,
           steps: Callable[[ImportWizard], None]) -> list[ImportWizard]:
    """Replace the wizard's modal exec by ``steps`` (shown, driven, then closed)."""
    seen: list[ImportWizard] = []

    def exec_(wizard: ImportWizard) -> int:
        seen.append(wizard)
        wizard.show()
        qtbot.waitExposed(wizard)
        _idle(qtbot, wizard)
        steps(wizard)
        return int(wizard.result())

    monkeypatch.setattr(ImportWizard, "exec", exec_)
    return seen


def _choose(qtbot: Any, combo: QComboBox, text: str) -> None:
    """Pick an item by typing its first letters into the focused combo, as a user does."""
    combo.setFocus()
    qtbot.keyClicks(combo, text)
    assert combo.currentText().startswith(text), combo.currentText()


def _next(qtbot: Any, wizard: ImportWizard) -> None:
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton), Qt.MouseButton.LeftButton)
    _idle(qtbot, wizard)


def _import_anyway(qtbot: Any, wizard: ImportWizard, text: str) -> None:
    """Finish waits while judgments are rejected; the user ticks "import anyway"."""
    finish = wizard.button(QWizard.WizardButton.FinishButton)
    box = wizard.report_page.anyway
    assert box.isVisible()
    assert box.text().startswith(text), box.text()
    assert not finish.isEnabled()
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Space)
    assert box.isChecked()
    assert finish.isEnabled()


def _finish(qtbot: Any, wizard: ImportWizard) -> None:
    button = wizard.button(QWizard.WizardButton.FinishButton)
    assert button.isEnabled()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


# -- models ----------------------------------------------------------------------------
def test_every_wizard_model_passes_the_model_tester(qtmodeltester: Any, wide_csv: Path):
    p = preview(wide_csv)
    model = PreviewModel()
    model.set_preview(p)
    assert (model.rowCount(), model.columnCount()) == (6, 6)
    assert model.headerData(3, Qt.Orientation.Horizontal) == "D: grade_alice\n→ grade (alice)"
    assert model.index(2, 2).data() == "abc"
    qtmodeltester.check(model)

    grades = GradeColumnsModel()
    grades.set_columns(p.header, p.mapping.grades)
    assert grades.grades() == ((3, "alice"), (4, "bob"))
    qtmodeltester.check(grades)
    grades.setData(grades.index(4, 0), Qt.CheckState.Unchecked, Qt.ItemDataRole.CheckStateRole)
    grades.setData(grades.index(3, 1), "Alice P.")
    assert grades.grades() == ((3, "Alice P."),)

    result = import_annotations(wide_csv, p.mapping.replace(score=2), rubric=Rubric.parse(RUBRIC))
    issues = IssuesModel()
    issues.set_report(result.report)
    # 12 findings, 6 of them a label the declared rubric maps (not listed)
    assert len(result.report.issues) == 12
    assert issues.rowCount() == len(result.report.to_review()) == 6
    assert [issues.index(r, 0).data() for r in range(6)].count("label mapped") == 0
    assert [issues.index(0, c).data() for c in range(5)] == [
        "row rejected", 4, "model_conf", "'abc' is not a number; row rejected", "abc"]
    qtmodeltester.check(issues)


def test_issues_of_a_json_export_are_listed_by_line_or_record(tmp_path: Path,
                                                                qtmodeltester: Any):
    """A JSON export's findings are listed by the file's line (JSON Lines) or
    record (a JSON array, its id in the tooltip), the column titled so: a
    JSON Lines file's line 3 was listed as row 4 under 'Row'."""
    lines = tmp_path / "judged.jsonl"
    records = [{"id": 7 + k, "query": "q", "doc": d, "annotator": "ann", "label": g}
               for k, (d, g) in enumerate([("d1", 2), ("d2", 1), ("d1", 0)])]
    lines.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    array = tmp_path / "judged.json"
    array.write_text(json.dumps(records, indent=2), encoding="utf-8")
    issues = IssuesModel()
    for path, title, tip in ((lines, "Line", "line 3, column 'label': "),
                             (array, "Record", "record 3 (id 9), column 'label': ")):
        issues.set_report(import_annotations(path, rubric=Rubric.parse("0=a,1=b,2=c"),
                                             empty_ok=True).report)
        assert issues.rowCount() == 1
        assert issues.headerData(1, Qt.Orientation.Horizontal) == title
        assert [issues.index(0, c).data() for c in range(3)] == ["conflict", 3, "label"]
        tooltip = issues.index(0, 3).data(Qt.ItemDataRole.ToolTipRole)
        assert tooltip.startswith(tip + "ann graded 'd1' for 'q' again (first on "), tooltip
        qtmodeltester.check(issues)


# -- the wizard on a wide CSV ----------------------------------------------------------
def test_wide_csv_detect_correct_report_and_finish(qtbot: Any, monkeypatch: pytest.MonkeyPatch,
                                                   wide_csv: Path, tmp_path: Path,
                                                   boxes: Boxes):
    before = wide_csv.read_bytes()
    window, ops = _window(qtbot)
    seed_rubric = window.document.conventions.rubric
    assert seed_rubric is not None
    checked: dict[str, Any] = {}

    def steps(w: ImportWizard) -> None:
        assert w.objectName() == "importWizard"
        page1 = w.sheet_page
        assert page1.header_row.value() == 1
        assert page1.model.rowCount() == 6
        assert page1.table.model().index(0, 3).data() == "Highly relevant"
        assert not page1.sheet.isEnabled()  # a text file has one table
        _next(qtbot, w)
        page2 = w.mapping_page
        # Detected: query, doc, two annotators' grade columns, notes; no score.
        assert page2.layout_combo.currentData() == "wide"
        assert page2.combos["query"].currentData() == 0
        assert page2.combos["source_id"].currentData() == 1
        assert page2.combos["note"].currentData() == 5
        assert page2.combos["score"].currentData() is None
        assert page2.grades_model.grades() == ((3, "alice"), (4, "bob"))
        # The rubric is proposed from the file's labels, not copied from the open
        # document's (a behaviour change: the seed's rubric would reject every label).
        assert page2.rubric.text() == PROPOSED != seed_rubric.text
        assert page2.labels_info.text().startswith("Labels read (the scale not relevant / "
                                                   "somewhat relevant / relevant / highly")
        assert page2.labels_model.rowCount() == 1  # 'meh' is asked for
        assert page2.labels_model.index(0, 0).data() == "meh"
        # The user picks the score column.
        _choose(qtbot, page2.combos["score"], "C: model")
        assert page2.combos["score"].currentData() == 2
        _next(qtbot, w)
        assert w.currentId() == ImportWizard.REPORT
        qtbot.waitUntil(lambda: w.result_value is not None, timeout=10_000)
        view = w.report_page.view
        counts = {k: label.text() for k, label in view.counts.items()}
        checked.update(counts)
        assert counts["rows_read"] == "6"
        assert counts["rows_imported"] == "5"
        assert counts["rows_rejected"] == "1"
        assert counts["outside_scale"] == "2"
        assert counts["fractional"] == "1"
        assert counts["unmapped"] == "'meh' (1)"
        assert counts["duplicates"] == "0"
        assert counts["annotators"] == "alice, bob"
        rejected = [view.issues_model.issue(r) for r in range(view.issues_model.rowCount())
                    if view.issues_model.issue(r).kind == "row rejected"]
        assert [(i.row, i.column, i.problem) for i in rejected] == [
            (4, "model_conf", "'abc' is not a number; row rejected")]
        assert "labels not in the rubric: 'meh' (1)" in view.notes.toPlainText()
        # Rejected judgments: abc's row (alice and bob) and alice's 'meh'. Finish
        # waits for an explicit "import anyway" that says how many.
        assert counts["judgments_read"] == "12"
        assert counts["judgments_rejected"] == "3"
        assert ("12 judgments read in 6 rows: 9 imported (1 of them marks read as "
                "unrateable: 'n/a' 1), 3 rejected") in view.summary.text()
        _import_anyway(qtbot, w, "Import anyway: 3 of the 12 judgments read are rejected "
                       "and will not be imported (the first on row 4, column 'model_conf'; "
                       "each is listed under Issues)")
        _finish(qtbot, w)

    seen = _drive(monkeypatch, qtbot, steps)
    assert ops.run_import_wizard(wide_csv)
    assert len(seen) == 1
    assert checked
    # The window shows what the core import gives with the same mapping.
    expected = import_annotations(
        wide_csv, ColumnMapping(query=0, source_id=1, score=2, note=5,
                                grades=((3, "alice"), (4, "bob"))),
        rubric=Rubric.parse(RUBRIC), conventions=seed_document().conventions)
    doc = window.document
    np.testing.assert_array_equal(doc.grade, expected.document.grade)
    # Hand-derived: mean of alice and bob; alice's n/a and 'meh' leave bob's grade alone.
    np.testing.assert_array_equal(doc.grade, [2.5, 0.5, 3.5, 1.5, 1.0])
    np.testing.assert_array_equal(doc.score, [0.9, 0.7, 0.5, 0.4, 0.3])
    np.testing.assert_array_equal(doc.ratings, expected.document.ratings)
    assert list(doc.source_id) == ["d1", "d2", "d4", "d5", "d6"]
    assert doc.annotators == ["alice", "bob"]
    assert doc.conventions.rubric == Rubric.parse(PROPOSED)
    assert window.path == wide_csv
    assert "wide.csv" in window.windowTitle()
    assert not window.session.modified
    assert not window.isWindowModified()
    assert boxes.shown == []
    # The report stays viewable.
    assert ops.actions["last_import_report"].isEnabled()
    shown: list[ImportReportDialog] = []
    monkeypatch.setattr(ImportReportDialog, "exec", lambda d: shown.append(d) or 0)
    ops.actions["last_import_report"].trigger()
    assert shown[0].view.counts["rows_rejected"].text() == "1"
    assert shown[0].view.issues_model.rowCount() == 6  # (and 6 labels the rubric maps)
    # Save never writes over the annotators' file: it asks for a new name.
    asked: list[str] = []

    def save_name(parent: Any, title: str, start: str, filters: str,
                  chosen: str = "") -> tuple[str, str]:
        asked.append(start)
        assert filters.startswith("Excel workbook (*.xlsx)")
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_name))
    assert window.set_grade(0, 3.0)
    assert not ops.save(blocking=True)
    assert asked == [str(tmp_path / "wide.xlsx")]  # an audited workbook beside it by default
    assert wide_csv.read_bytes() == before


def _at_mapping(qtbot: Any, path: Path) -> ImportWizard:
    """The wizard over the editor's window on ``path``, at its mapping page."""
    window, _ops = _window(qtbot)
    wizard = ImportWizard(path, Conventions(), window)
    qtbot.addWidget(wizard)
    wizard.show()
    _idle(qtbot, wizard)
    _next(qtbot, wizard)
    return wizard


def _refused_on_next(qtbot: Any, wizard: ImportWizard, boxes: Boxes) -> str:
    """Next from the mapping page: one message box, the report page saying
    the same, nothing imported and Finish off; the line shown."""
    _next(qtbot, wizard)
    assert wizard.result_value is None
    (shown,) = boxes.shown
    assert not wizard.button(QWizard.WizardButton.FinishButton).isEnabled()
    assert wizard.report_page.view.summary.text() == shown
    return shown


def test_a_mapping_without_a_query_is_one_message_and_no_finish(
        qtbot: Any, wide_csv: Path, boxes: Boxes):
    wizard = _at_mapping(qtbot, wide_csv)
    wizard.mapping_page.set_column("query", None)
    _next(qtbot, wizard)
    assert wizard.result_value is None
    assert boxes.shown == [
        f"{wide_csv}, line 1: no query column found in the header (query, doc, model_conf, "
        "grade_alice, grade_bob, notes) (name it e.g. query/qid/query_id/topic, or choose its "
        "column as the Query)"]
    assert not wizard.button(QWizard.WizardButton.FinishButton).isEnabled()
    assert wizard.report_page.view.summary.text() == boxes.shown[0]


def test_a_malformed_rubric_keeps_the_mapping_page(qtbot: Any, wide_csv: Path, boxes: Boxes):
    wizard = ImportWizard(wide_csv, Conventions())
    qtbot.addWidget(wizard)
    wizard.show()
    _idle(qtbot, wizard)
    _next(qtbot, wizard)
    rubric = wizard.mapping_page.rubric
    rubric.setFocus()
    rubric.selectAll()
    qtbot.keyClicks(rubric, "0=no,one=partial")
    _next(qtbot, wizard)
    assert wizard.currentId() == ImportWizard.MAPPING
    assert "does not start with a number" in wizard.mapping_page.problem.text()


def test_the_marks_are_shown_from_their_first(qtbot: Any, wide_csv: Path):
    """The marks read as unknown and as unrateable, a list longer than its
    field, show their first marks: the field showed the list's tail ('ow,
    dont_know, don't know, ...' at 1366x768, htrial5), its cursor at the end."""
    wizard = _at_mapping(qtbot, wide_csv)
    page = wizard.mapping_page
    for edit in (page.unknown_marks, page.unrateable_marks):
        assert edit.text()
        assert edit.cursorPosition() == 0


# -- a long workbook -------------------------------------------------------------------
def test_long_xlsx_with_an_annotator_column(qtbot: Any, monkeypatch: pytest.MonkeyPatch,
                                            long_xlsx: Path, boxes: Boxes):
    window, ops = _window(qtbot)

    def steps(w: ImportWizard) -> None:
        page1 = w.sheet_page
        assert [page1.sheet.itemText(i) for i in range(page1.sheet.count())] == [
            "About", "Judgments"]
        # The data's sheet is guessed (the About sheet before it is passed over).
        assert page1.sheet.currentText() == "Judgments"
        assert page1.header_row.value() == 3
        page1.sheet.setFocus()
        qtbot.keyClick(page1.sheet, Qt.Key.Key_Up)  # the user looks at the About sheet
        _idle(qtbot, w)
        assert w.preview_value is not None
        assert w.preview_value.sheet == "About"
        assert page1.header_row.value() == 1
        qtbot.keyClick(page1.sheet, Qt.Key.Key_Down)  # and goes back: guessed again
        _idle(qtbot, w)
        assert w.preview_value.sheet == "Judgments"
        assert page1.header_row.value() == 3
        assert page1.model.index(0, 3).data() == "ann"
        _next(qtbot, w)
        page2 = w.mapping_page
        assert page2.layout_combo.currentData() == "long"
        assert {f: c.currentData() for f, c in page2.combos.items()} == {
            "query": 0, "source_id": 1, "score": None, "rank": 2, "grade": 4,
            "annotator": 3, "version": None, "note": None, "reason": None, "status": None}
        page2.rubric.setText("0,1,2,3")
        page2.consensus.setCurrentIndex(page2.consensus.findData(ConsensusRule.MAXIMUM))
        _next(qtbot, w)
        qtbot.waitUntil(lambda: w.result_value is not None, timeout=10_000)
        report = w.report_page.view.report
        assert report is not None
        found = [(i.kind, i.row, i.column) for i in report.issues]
        assert ("duplicate", 8, "E (Relevance)") in found
        assert ("formula", 10, "E (Relevance)") in found
        assert ("fractional", 11, "E (Relevance)") in found
        counts = w.report_page.view.counts
        assert counts["formulas"].text() == "1"
        assert counts["duplicates"].text() == "1"
        assert counts["annotators"].text() == "ann, ben"
        notes = w.report_page.view.notes.toPlainText()
        assert "no score column: score = -rank (from column 'C (Rank)')" in notes
        assert "highest annotator grade" in notes
        # ben's repeated grade and his formula
        _import_anyway(qtbot, w, "Import anyway: 2 of the 8 judgments read are rejected")
        _finish(qtbot, w)

    seen = _drive(monkeypatch, qtbot, steps)
    assert ops.run_import_wizard(long_xlsx)
    assert len(seen) == 1
    expected = import_annotations(
        long_xlsx, ColumnMapping(header_row=2, query=0, source_id=1, rank=2, annotator=3,
                                 grade=4),
        sheet="Judgments", rubric=Rubric.parse("0,1,2,3"), consensus="maximum",
        conventions=seed_document().conventions)
    doc = window.document
    np.testing.assert_array_equal(doc.grade, expected.document.grade)
    # Hand-derived maximum: a max(2,3)=3, b max(0,1)=1, c ann only 3 (ben's formula
    # refused), d 2.5.
    np.testing.assert_array_equal(doc.grade, [3.0, 1.0, 3.0, 2.5])
    assert list(doc.state) == [GradeState.NUMBER] * 4
    assert window.path == long_xlsx
    assert "judgments.xlsx" in window.windowTitle()
    assert not window.session.modified


# -- the open path ---------------------------------------------------------------------
def test_open_a_foreign_sheet_runs_the_wizard(qtbot: Any, monkeypatch: pytest.MonkeyPatch,
                                              wide_csv: Path, long_xlsx: Path, tmp_path: Path,
                                              boxes: Boxes):
    own = tmp_path / "own.csv"
    write_document(seed_document(), own)
    book = tmp_path / "own.xlsx"
    write_document(seed_document(), book)
    assert is_annotator_sheet(wide_csv)
    assert is_annotator_sheet(long_xlsx)
    assert not is_annotator_sheet(own)
    assert not is_annotator_sheet(book)

    window, ops = _window(qtbot)
    chosen: list[Path] = [wide_csv]
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(chosen[0]), "")))

    def steps(w: ImportWizard) -> None:
        _next(qtbot, w)
        w.mapping_page.set_column("score", 2)
        w.mapping_page.rubric.setText(RUBRIC)
        _next(qtbot, w)
        qtbot.waitUntil(lambda: w.result_value is not None, timeout=10_000)
        _import_anyway(qtbot, w, "Import anyway: 3 of the 12")
        _finish(qtbot, w)

    seen = _drive(monkeypatch, qtbot, steps)
    ops.actions["open"].trigger()
    qtbot.waitUntil(lambda: len(seen) == 1 and window.path == wide_csv, timeout=10_000)
    assert seen[0].path == wide_csv
    np.testing.assert_array_equal(window.document.grade, [2.5, 0.5, 3.5, 1.5, 1.0])
    assert Settings().recent_files[0] == str(wide_csv.resolve())

    # Our own worksheet CSV opens directly, without the wizard.
    chosen[0] = own
    ops.actions["open"].trigger()
    qtbot.waitUntil(lambda: window.path == own, timeout=10_000)
    assert len(seen) == 1
    assert ops.origin is Origin.WORKSHEET  # ours: saved in place

    # File > Import annotators' sheet… always runs the wizard, even on our own CSV;
    # Cancel leaves the window as it was.
    def cancel(w: ImportWizard) -> None:
        qtbot.mouseClick(w.button(QWizard.WizardButton.CancelButton),
                         Qt.MouseButton.LeftButton)

    seen2 = _drive(monkeypatch, qtbot, cancel)
    doc = window.document
    ops.actions["import_annotations"].trigger()
    assert len(seen2) == 1
    assert seen2[0].path == own
    assert seen2[0].result() == QDialog.DialogCode.Rejected
    assert window.document is doc
    assert boxes.shown == []


def test_file_menu_lists_the_import_actions(qtbot: Any):
    window, ops = _window(qtbot)
    menu = window.menus["file"]
    names = [a.objectName() for a in menu.actions() if not a.isSeparator()]
    assert names[4:7] == ["", "import_annotations", "last_import_report"]  # "": File > Export
    assert [a.objectName() for a in ops.export_menu.actions()] == ["export", "export_qrels"]
    assert not ops.actions["last_import_report"].isEnabled()


def test_the_header_row_can_be_corrected(qtbot: Any, long_xlsx: Path, boxes: Boxes):
    wizard = ImportWizard(long_xlsx, Conventions())
    qtbot.addWidget(wizard)
    wizard.show()
    _idle(qtbot, wizard)
    page = wizard.sheet_page
    page.sheet.setFocus()
    qtbot.keyClick(page.sheet, Qt.Key.Key_Down)
    _idle(qtbot, wizard)
    assert page.header_row.value() == 3
    # The user says the header is on row 4: the rows below it are previewed, and
    # the model names that row's cells as the columns.
    page.header_row.setFocus()
    page.header_row.selectAll()
    qtbot.keyClicks(page.header_row, "4")
    qtbot.keyClick(page.header_row, Qt.Key.Key_Return)
    _idle(qtbot, wizard)
    assert wizard.preview_value is not None
    assert wizard.preview_value.header_row == 3
    assert wizard.preview_value.header == ["t1", "a", "1", "ann", "2"]
    assert page.model.index(0, 3).data() == "ben"
    assert page.model.rowCount() == 7
    # each previewed row labelled with the file's own row, as the issues
    # name rows: the first below the header on row 4 is row 5 (was 1)
    vertical = [page.model.headerData(r, Qt.Orientation.Vertical) for r in range(7)]
    assert vertical == [str(n) for n in range(5, 12)]
    assert page.table.verticalHeader().isVisible()
    assert boxes.shown == []


def test_a_sheet_without_a_header_says_so_in_the_info_line(qtbot: Any, tmp_path: Path,
                                                          boxes: Boxes) -> None:
    """TREC topics with no header: all 7 rows are data, and the info line
    says so (it said '7 rows after the header'); keyed to a header on row
    1 it counts the 6 below it, keyed back to none all 7 again."""
    path = tmp_path / "topics.tsv"
    path.write_text("".join(f"{q}\tdoc-00{d}\t{d % 4}\n" for q, d in
                            [(1, 1), (1, 2), (1, 3), (2, 4), (2, 5), (3, 6), (3, 7)]), "utf-8")
    wizard = ImportWizard(path, Conventions())
    qtbot.addWidget(wizard)
    wizard.show()
    _idle(qtbot, wizard)
    page = wizard.sheet_page
    assert page.header_row.text() == "none (row 1 is data)"
    assert page.info.text() == ("topics.tsv; encoding utf-8; delimiter '\\t'; 7 rows, no "
                                "header (row 1 is data), layout long")
    page.header_row.setFocus()
    qtbot.keyClick(page.header_row, Qt.Key.Key_Up)
    qtbot.keyClick(page.header_row, Qt.Key.Key_Return)
    _idle(qtbot, wizard)
    assert page.info.text().endswith("; 6 rows after the header, layout long"), page.info.text()
    qtbot.keyClick(page.header_row, Qt.Key.Key_Down)
    qtbot.keyClick(page.header_row, Qt.Key.Key_Return)
    _idle(qtbot, wizard)
    assert page.info.text().endswith("; 7 rows, no header (row 1 is data), layout long")
    assert boxes.shown == []


FORMS_CSV = """Timestamp,Email Address,Query,Document,How relevant is the document to the query?
2026/11/21 12:44:44 PM GMT+1,alice@example.org,capital of australia,doc-00,Relevant
2026/11/17 12:25:35 PM GMT+1,bo@example.org,capital of australia,doc-00,Not relevant
"""


def test_the_preview_shows_every_header_whole(qtbot: Any, tmp_path: Path, boxes: Boxes):
    """A form export's long question over its field: each line of every header
    fits its column (at Qt's default width "B: Email Address" read "3: Email
    Address", and the question lost both ends)."""
    path = tmp_path / "form.csv"
    path.write_text(FORMS_CSV, encoding="utf-8")
    wizard = ImportWizard(path, Conventions())
    qtbot.addWidget(wizard)
    wizard.show()
    _idle(qtbot, wizard)
    table = wizard.sheet_page.table
    header = table.horizontalHeader()
    assert header.count() == 5
    metrics = header.fontMetrics()
    cut = [text for col in range(header.count())
           for text in str(table.model().headerData(col, Qt.Orientation.Horizontal)).split("\n")
           if metrics.horizontalAdvance(text) > header.sectionSize(col)]
    assert cut == []
    assert table.model().headerData(4, Qt.Orientation.Horizontal) == (
        "E: How relevant is the document to the query?\n→ grade")
    # One-line cells in rows one line tall, as the grid's (they were 30 px:
    # two lines of the 14 px font offscreen)
    line = table.fontMetrics().height()
    assert [table.rowHeight(r) for r in range(2)] == [max(22, line + 6)] * 2
    assert boxes.shown == []


def _next_next_finish(qtbot: Any) -> Any:
    """The wizard's steps as a reviewer clicks them: Next, Next, Finish once
    the import has read the sheet."""
    def steps(w: ImportWizard) -> None:
        _next(qtbot, w)
        _next(qtbot, w)
        qtbot.waitUntil(lambda: w.result_value is not None, timeout=10_000)
        _finish(qtbot, w)

    return steps


def test_a_workbook_not_ours_goes_to_the_wizard(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """The typed NotOwnWorkbook sends an .xlsx to the wizard, whatever its text;
    another InputError from the workbook reader is raised."""
    import core.io.workbook
    from app.import_wizard.wizard import load_unless_foreign
    from core.errors import InputError, NotOwnWorkbook

    path = tmp_path / "theirs.xlsx"
    path.write_bytes(b"")

    def not_ours(_path: Path) -> Any:
        raise NotOwnWorkbook("no metadata sheet")

    monkeypatch.setattr(core.io.workbook, "read_workbook", not_ours)
    assert load_unless_foreign(path, None) is None

    def broken(_path: Path) -> Any:
        raise InputError("the grade column is damaged")

    monkeypatch.setattr(core.io.workbook, "read_workbook", broken)
    with pytest.raises(InputError, match="damaged"):
        load_unless_foreign(path, None)


def test_the_preview_cuts_a_long_url_in_its_middle(qtbot: Any, tmp_path: Path):
    """The sheet page's first rows keep a URL's end, where product pages
    differ (every row read 'https://shop.example.com/p/...' in a new user's
    trial, cut at its right): the cell draws the URL's start and end, cut in
    its middle as the grid's source ids are (app.delegates.end_elided)."""
    from PySide6.QtWidgets import QStyleOptionViewItem

    from app.delegates import IdDelegate

    urls = [f"https://shop.example.com/products/footwear/running/sku-{n}" for n in
            (933820, 823985, 982388)]
    sheet = tmp_path / "urls.csv"
    sheet.write_text("query,url,grade\n" + "".join(f"red shoes,{u},{g}\n"
                                                   for g, u in enumerate(urls)),
                     encoding="utf-8")
    window, _ops = _window(qtbot)
    wizard = ImportWizard(sheet, Conventions(), window)
    qtbot.addWidget(wizard)
    wizard.show()
    _idle(qtbot, wizard)
    table = wizard.sheet_page.table
    column = next(c for c in range(table.model().columnCount())
                  if "url" in str(table.model().headerData(c, Qt.Orientation.Horizontal)))
    delegate = table.itemDelegateForColumn(column) or table.itemDelegate()
    assert isinstance(delegate, IdDelegate)
    table.setColumnWidth(column, 160)  # narrower than a URL, as a long header leaves it
    shown = []
    for row, url in enumerate(urls):
        option = QStyleOptionViewItem()
        option.initFrom(table)
        option.rect = table.visualRect(table.model().index(row, column))
        delegate.initStyleOption(option, table.model().index(row, column))
        text = delegate.shown(option)
        assert text != url, text
        head, tail = text.split("…")  # (one ellipsis, in the middle)
        assert url.startswith(head), text
        assert head.startswith("http"), text
        assert url.endswith(tail), text
        assert tail.endswith(url[-6:]), text
        shown.append(text)
    assert len(set(shown)) == len(urls)  # each row tells its product apart
