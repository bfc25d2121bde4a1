"""The import wizard on platforms' exports (issue 25): each column's guess
shown with its reason, the rubric read from the file (never the open
document's), the platform's control and rejected rows skipped unless kept,
two scales fitting alike asked for, and the row order a ranking only when
the user says so."""

from __future__ import annotations

import csv
import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWizard

from app.import_wizard.wizard import ImportWizard
from core.model.conventions import Conventions, Rubric
from tests.appboxes import Boxes
from tests.test_app_import import _idle, _next

DATA = Path(__file__).parent / "data" / "annotators"
EXPECTED: dict[str, Any] = json.loads((DATA / "expected.json").read_text("utf-8"))


def _wizard(qtbot: Any, path: Path, conventions: Conventions | None = None) -> ImportWizard:
    wizard = ImportWizard(path, conventions or Conventions())
    qtbot.addWidget(wizard)
    wizard.show()
    _idle(qtbot, wizard)
    return wizard


def _tick(qtbot: Any, box: Any) -> None:
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Space)


def test_prolific_sheet_shows_its_guesses_and_its_own_rubric(qtbot: Any, boxes: Boxes):
    """A 1-5 sheet opened while a 0-2 "support" document is open: the rubric
    is the sheet's 1-5, and the annotator's column says why it was taken."""
    support = Conventions().replace(rubric=Rubric.parse(
        "0=No support,1=Partial support,2=Direct support"))
    wizard = _wizard(qtbot, DATA / "prolific_sheet.xlsx", support)
    assert wizard.sheet_page.header_row.value() == 2  # the title row passed over
    _next(qtbot, wizard)
    page = wizard.mapping_page
    assert page.combos["annotator"].currentText() == "A: Participant ID"
    reasons = page.reasons.text()
    assert ("annotator: Participant ID, read from its values; 4 people, each item judged by "
            "3 of them") in reasons
    assert "source id: Result, read from its values; 9 values, each on 3 rows" in reasons
    assert page.rubric.text() == "1,2,3,4,5"
    assert page.labels_info.text() == (
        "Rubric read from the grade columns' numbers, 1 to 5: 1,2,3,4,5")
    assert not page.rows_ranked.isChecked()
    _next(qtbot, wizard)
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    result = wizard.result_value
    assert result is not None
    assert result.report.outside_scale == []  # no 4 or 5 "outside the rubric"
    assert all(math.isnan(x) for x in result.document.score)  # judgments only
    notes = wizard.report_page.view.notes.toPlainText()
    assert "judgments only" in notes
    # The command line's flag said as the box to tick (the report said "pass --order rows").
    assert "or tick “The row order is a ranking” if the row order is a ranking" in notes
    assert "--" not in notes
    assert boxes.shown == []


def test_control_tasks_are_skipped_unless_the_user_keeps_them(qtbot: Any, boxes: Boxes):
    wizard = _wizard(qtbot, DATA / "toloka_assignments.tsv")
    _next(qtbot, wizard)
    page = wizard.mapping_page
    keep = page.keep_boxes["control"]
    assert keep.isVisible()
    assert keep.text() == (
        "Keep the 6 rows marked as a control task (a test question with a known answer)")
    assert page.keep_boxes["rejected"].isVisible()
    assert not page.keep_boxes["preview"].isVisible()
    assert "GOLDEN:relevance: grades on 6 rows only" in page.reasons.text()
    _next(qtbot, wizard)
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    assert wizard.result_value is not None
    report = wizard.result_value.report
    assert report.excluded == {"control": 6, "rejected": 1}
    assert ("skipped: 6 control, 1 rejected (tick their “Keep the rows marked as …” boxes to "
            "import them)") in wizard.report_page.view.notes.toPlainText()
    # Back: the user keeps the control tasks.
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.BackButton), Qt.MouseButton.LeftButton)
    _idle(qtbot, wizard)
    _tick(qtbot, keep)
    assert keep.isChecked()
    wizard.result_value = None
    _next(qtbot, wizard)
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    assert wizard.result_value is not None
    assert wizard.result_value.report.excluded == {"rejected": 1}
    assert wizard.result_value.report.judgments_imported == 30 - 1


def test_two_scales_fitting_alike_are_asked_for(qtbot: Any, boxes: Boxes, tmp_path: Path):
    sheet = tmp_path / "only_relevant.csv"
    sheet.write_text("query,doc,annotator,label\nq1,d1,a,Relevant\nq1,d1,b,Relevant\n"
                     "q1,d2,a,\nq1,d2,b,Relevant\nq2,d3,a,Relevant\n", encoding="utf-8")
    wizard = _wizard(qtbot, sheet)
    _next(qtbot, wizard)
    page = wizard.mapping_page
    choice = page.scale_choice
    assert choice.isVisible()
    assert page.rubric.text() == ""
    assert "fit 2 known scales equally well" in page.labels_info.text()
    _next(qtbot, wizard)  # refused until a scale is chosen
    assert wizard.currentId() == wizard.MAPPING
    assert page.problem.text() == "Choose the scale of the labels first."
    choice.setFocus()
    qtbot.keyClick(choice, Qt.Key.Key_Down)
    qtbot.keyClick(choice, Qt.Key.Key_Down)
    assert choice.currentText().startswith("irrelevant / partially relevant / relevant")
    assert page.rubric.text() == "0=Irrelevant,1=Partially relevant,2=Relevant"
    _next(qtbot, wizard)
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    assert wizard.result_value is not None
    doc = wizard.result_value.document
    # "Relevant" is the top of the chosen three-level scale: 2, not 1.
    assert {g for g in doc.grade.tolist() if not math.isnan(g)} == {2.0}


def test_the_row_order_is_a_ranking_only_when_ticked(qtbot: Any, boxes: Boxes):
    wizard = _wizard(qtbot, DATA / "judgments_no_score.csv")
    _next(qtbot, wizard)
    page = wizard.mapping_page
    _tick(qtbot, page.rows_ranked)
    assert page.rows_ranked.isChecked()
    _next(qtbot, wizard)
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    assert wizard.result_value is not None
    assert wizard.result_value.document.score.tolist() == [-2, -4, -6, -8, -10, -12]
    assert wizard.result_value.report.ranking == "rows"
    assert "the row order was declared a ranking" in wizard.report_page.view.notes.toPlainText()


def test_the_editor_opens_judgments_for_grading_in_sheet_order(
        qtbot: Any, monkeypatch: pytest.MonkeyPatch, boxes: Boxes):
    """No score or rank: the window lists the candidates in the sheet's
    order among the not-retrieved ones, ranks none, and claims no NDCG
    (the seed document's conventions: ideal from the ranked candidates)."""
    from tests.test_app_import import _drive, _finish, _window

    window, ops = _window(qtbot)

    def steps(w: ImportWizard) -> None:
        _next(qtbot, w)
        assert not w.mapping_page.rows_ranked.isChecked()
        _next(qtbot, w)
        qtbot.waitUntil(lambda: w.result_value is not None, timeout=10_000)
        _finish(qtbot, w)

    _drive(monkeypatch, qtbot, steps)
    assert ops.run_import_wizard(DATA / "judgments_no_score.csv")
    doc = window.document
    assert all(math.isnan(x) for x in doc.score)
    assert window.grid_model.rowCount() == 0
    model = window.not_retrieved_model
    shown = [model.index(r, 1).data() for r in range(model.rowCount())]
    assert shown == [f"https://shop0.example/item/{d}" for d in (1, 2, 3)]
    ev = window.evaluation
    assert all(math.isnan(x) for x in ev.ndcg.ravel())
    assert {ev.status(q).value for q in range(doc.n_queries)} == {"unranked"}
    from app.banner import install_judgments_only_banner

    window.show()
    banner = install_judgments_only_banner(window)  # (build_window installs it)
    assert banner.isVisible()
    assert "Judgments only: join a run to evaluate" in banner.text.text()
    # What to do, in the window's menus and controls (not the command line's flags).
    assert banner.text.text().endswith(
        "Grade here and save; then open a run with File > Open… and choose the saved file "
        "when it asks for the run's qrels; or, if the sheet's row order is a ranking, import "
        "it again with File > Import annotators' sheet… and tick “The row order is a "
        "ranking”.")
    # The judged candidates take the grid's room: nothing ranked to show above them.
    panel = window.grid_panel
    assert not panel.grid.isVisible()
    assert panel.not_retrieved.isVisible()
    assert panel.not_retrieved_label.text().startswith(
        "No ranking for this query: 3 judged candidates in the order of the file")
    # Graded with the keyboard there, as in the ranked grid.
    view = panel.not_retrieved
    view.setFocus()
    view.setCurrentIndex(model.index(1, 2))
    qtbot.keyClick(view, Qt.Key.Key_3)
    assert window.document.grade[model_row(window, "https://shop0.example/item/2")] == 3.0
    window.set_document(_ranked_copy(window.document))  # a run joined
    assert not banner.isVisible()
    assert panel.grid.isVisible()
    assert panel.not_retrieved_label.text() == "Judged but not retrieved: none for this query."
    window.session.mark_saved()


def model_row(window: Any, source: str) -> int:
    return list(window.document.source_id).index(source)


def _ranked_copy(doc: Any) -> Any:
    """The same judgments with scores (as after joining a run)."""
    from core.model.document import Document

    return Document.from_columns(
        query=[doc.query_ids[int(q)] for q in doc.query], source_id=list(doc.source_id),
        score=[float(len(doc) - i) for i in range(len(doc))], grade=list(doc.grade))


def test_a_long_export_leaves_the_columns_page_its_boxes_at_1280x800(
        qtbot: Any, boxes: Boxes, tmp_path: Path):
    """A Mechanical Turk batch of every column the platform writes (34): the
    guesses' reasons, a long paragraph, scroll in a box of their own; the
    role boxes keep their height in a wizard sized for a 1280x800 screen
    (they were squeezed to half their text's height, 'long: one row per
    judgment' cut through). Its one label on no known scale is asked for in
    the singular."""
    header = ["HITId", "HITTypeId", "Title", "Description", "Keywords", "Reward",
              "CreationTime", "MaxAssignments", "RequesterAnnotation",
              "AssignmentDurationInSeconds", "AutoApprovalDelayInSeconds", "Expiration",
              "NumberOfSimilarHITs", "LifetimeInSeconds", "AssignmentId", "WorkerId",
              "AssignmentStatus", "AcceptTime", "SubmitTime", "AutoApprovalTime",
              "ApprovalTime", "RejectionTime", "RequesterFeedback", "WorkTimeInSeconds",
              "LifetimeApprovalRate", "Last30DaysApprovalRate", "Last7DaysApprovalRate",
              "Input.query", "Input.url", "Input.title", "Answer.relevance.label",
              "Answer.comment", "Approve", "Reject"]
    lines = [header]
    for n in range(12):
        lines.append([f"3ZQA{n // 3:04d}", "3TYPEXYZ", "Judge relevance", "Read the page",
                      "search", "$0.10", "Tue Nov 12 09:00:00 PST 2024", "3",
                      "BatchId:5123456;", "600", "259200", "Tue Nov 19 09:00:00 PST 2024", "",
                      "604800", f"3ASG{n:05d}", ("A1B2C3D4E5F6G7", "A3KQ9W2ZP0L8XM",
                                                  "AZ7Y6X5W4V3U2T")[n % 3], "Approved",
                      f"Tue Nov 12 09:1{n % 10}:00 PST 2024",
                      f"Tue Nov 12 09:2{n % 10}:00 PST 2024",
                      "Fri Nov 15 09:20:00 PST 2024", "Wed Nov 13 10:00:00 PST 2024", "", "",
                      str(30 + n), f"100% ({20 + n}/{20 + n})", "100% (5/5)", "0% (0/0)",
                      "descale a kettle" if n < 6 else "wireless earbuds",
                      f"https://ex.example/{n // 3}", f"Page {n // 3}",
                      ("Not relevant", "Somewhat relevant", "Highly relevant")[n % 3]
                      if n != 7 else "kinda", "", "x", ""])
    path = tmp_path / "Batch_5123456_batch_results.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, quoting=csv.QUOTE_ALL).writerows(lines)
    wizard = _wizard(qtbot, path)
    wizard.resize(1024, 700)  # what a 1280x800 screen gives it
    wizard.sheet_page.header_row.setFocus()
    qtbot.keyClick(wizard, Qt.Key.Key_Return)  # Next
    _idle(qtbot, wizard)
    page = wizard.mapping_page
    assert wizard.currentPage() is page
    assert "ignored: HITTypeId: one value on every row" in page.reasons.text()
    qtbot.waitUntil(lambda: page.combos["query"].height() > 0)
    for name, combo in page.combos.items():
        assert combo.height() >= combo.minimumSizeHint().height(), name
    assert page.layout_combo.height() >= page.layout_combo.minimumSizeHint().height()
    assert page.unmapped_prompt.text().startswith(
        "1 label is on no known scale and not in the rubric. Give it its grade below")
    assert boxes.shown == []


def test_a_survey_sheet_is_shown_by_the_files_rows_and_letters(qtbot: Any, boxes: Boxes):
    """Qualtrics' export, one row per respondent (6) and one column per item
    (L to Q), read as 36 judgments: the first page counts the file's rows
    (it said '36 rows after the header') and says the sheet as it is (it
    said 'layout long'), the boxes name the file's letters
    (ResponseId is the file's column I; it was offered as 'K: ResponseId',
    the reshaped table's letter), the grade its items' L–Q and the query
    and the source say they are read from the items' headers."""
    wizard = _wizard(qtbot, DATA / "qualtrics_export.csv")
    info = wizard.sheet_page.info.text()
    assert info.endswith("; 6 rows after the header, one row per respondent; 36 judgments "
                         "after reshaping (one row per respondent and item)"), info
    header = wizard.sheet_page.model.headerData(10, Qt.Orientation.Horizontal)
    assert header.startswith("I: ResponseId"), header
    wizard.sheet_page.header_row.setFocus()
    qtbot.keyClick(wizard, Qt.Key.Key_Return)  # Next
    _idle(qtbot, wizard)
    page = wizard.mapping_page
    assert wizard.currentPage() is page
    who = page.combos["annotator"]
    items = [who.itemText(i) for i in range(who.count())]
    assert "I: ResponseId" in items, items
    assert "K: ResponseId" not in items, items
    assert page.combos["query"].currentText() == "query (from the items' headers)"
    assert page.combos["source_id"].currentText() == "source_id (from the items' headers)"
    assert page.combos["grade"].currentText() == "L\u2013Q: grade"
    assert boxes.shown == []


def test_the_keep_boxes_are_reached_by_their_label_s_letter(qtbot: Any, boxes: Boxes):
    """Every letter of the boxes' words is another control's: their label,
    "Excluded rows:", has its own (X); Alt+X reaches the first box shown,
    Tab the next, and a screen reader hears the label with each box."""
    from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel

    from app.accessibility import mnemonic

    wizard = _wizard(qtbot, DATA / "toloka_assignments.tsv")
    _next(qtbot, wizard)
    page = wizard.mapping_page
    control, rejected = page.keep_boxes["control"], page.keep_boxes["rejected"]
    assert page.keep_label.isVisible()
    assert mnemonic(page.keep_label.text()) == "x"
    assert page.keep_label.buddy() is control
    others = [w for w in (*page.findChildren(QLabel), *page.findChildren(QAbstractButton),
                          *(wizard.button(b) for b in (QWizard.WizardButton.NextButton,
                                                       QWizard.WizardButton.BackButton)))
              if w is not page.keep_label and w.isVisible()]
    assert "x" not in {mnemonic(w.text()) for w in others}
    assert control.accessibleDescription() == "Excluded rows"
    page.combos["query"].setFocus()
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_X, Qt.KeyboardModifier.AltModifier)
    assert QApplication.focusWidget() is control
    qtbot.keyClick(control, Qt.Key.Key_Space)
    assert control.isChecked()
    qtbot.keyClick(control, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is rejected
    # A sheet that marks rejected rows only: the letter reaches that box.
    page.keep_label.setBuddy(None)
    value = wizard.preview_value
    assert value is not None
    page._show_keep_boxes(replace(value, marked={"rejected": 1}), ())
    assert not control.isVisible()
    assert page.keep_label.buddy() is rejected


def test_a_sheet_of_titled_blocks_is_refused_on_the_sheet_page(
        qtbot: Any, boxes: Boxes, tmp_path: Path):
    """Each query's rows under a title row ('Query: vpn drops') and a header
    of their own: the first page says why it cannot be imported and Next
    stays off (the mapping page offered the repeated header's Ana, Ben as
    labels to map before the report page refused the sheet)."""
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Review"
    for q in ("vpn drops", "reset password"):
        sheet.append([f"Query: {q}"])
        sheet.append(["Rank", "Document", "Ana", "Ben"])
        for r in range(1, 4):
            sheet.append([r, f"{q[:3]}-{r}", r % 3, (r + 1) % 3])
        sheet.append([])
    path = tmp_path / "blocks.xlsx"
    book.save(path)
    wizard = _wizard(qtbot, path)
    page = wizard.sheet_page
    assert page.problem.isVisible()
    assert page.problem.text() == (
        "sheet 'Review', row 2: the header on row 2 is written again on row 8: the sheet is "
        "blocks of rows, each under a title row ('Query: vpn drops' on row 1), and no column "
        "says each row's query (stack the blocks under one header row, with a column that "
        "names each row's query, and import that)")
    assert not wizard.button(QWizard.WizardButton.NextButton).isEnabled()
    _next(qtbot, wizard)
    assert wizard.currentPage() is page  # never on to the labels
    assert boxes.shown == []


def test_a_sheet_read_as_it_is_says_no_problem(qtbot: Any, boxes: Boxes):
    wizard = _wizard(qtbot, DATA / "toloka_assignments.tsv")
    assert not wizard.sheet_page.problem.isVisible()
    assert wizard.button(QWizard.WizardButton.NextButton).isEnabled()


def test_the_annotator_chosen_reads_the_sheet_again(qtbot: Any, boxes: Boxes, tmp_path: Path):
    """A Prolific study's export names its people by ``PROLIFIC_PID``; the
    user chooses ``ResponseId`` as the annotator (arrow keys in its box):
    the page's guesses follow at once, the people counted by the column
    chosen and the PID said to name them too (they kept saying
    'annotator: PROLIFIC_PID ...' and 'ResponseId: ... (PROLIFIC_PID) ...:
    who judged, named another way', the guess the user had just undone)."""
    from tests.test_import_crowd_people import PIDS, _prolific

    wizard = _wizard(qtbot, _prolific(tmp_path / "prolific.csv", PIDS))
    _next(qtbot, wizard)
    page = wizard.mapping_page
    combo = page.combos["annotator"]
    assert combo.currentText().endswith(": PROLIFIC_PID")
    assert "annotator: PROLIFIC_PID, read from its values" in page.reasons.text()
    target = combo.findText("ResponseId", Qt.MatchFlag.MatchEndsWith)
    combo.setFocus()
    while combo.currentIndex() > target:
        qtbot.keyClick(combo, Qt.Key.Key_Up)
    _idle(qtbot, wizard)
    assert combo.currentText().endswith(": ResponseId")
    reasons = page.reasons.text()
    assert "annotator: ResponseId, declared; 4 people, each item judged by 4 of them" in reasons
    assert ("PROLIFIC_PID: one value per annotator (ResponseId), the same on each of their "
            "rows: who judged, named another way; not imported") in reasons
    assert "PROLIFIC_PID, read from its values" not in reasons
    # the other boxes as they were, and the import takes the choice
    assert page.combos["query"].currentText() == "query (from the items' headers)"
    assert page.keep_boxes["preview"].isVisibleTo(page)
    _next(qtbot, wizard)
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    assert wizard.result_value.document.annotators[0] == "R_1OzLh4sN7cEfP2b"
    assert boxes.shown == []
