"""The wizard's report accounts for every column and every row (issue 33):
the columns table gives each column its role, or why it was left out and
what would use it; the rows line adds up."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from app.import_wizard.tables import IssueColumn
from app.import_wizard.wizard import ImportWizard
from core.model.conventions import Conventions
from tests.test_app_import import _choose, _idle, _next

GRADES = [2, 0, 1, 3, 1, 2]
DATA = Path(__file__).parent / "data" / "annotators"


def _sheet(path: Path) -> Path:
    rows: list[list[Any]] = [["query", "product_id", "Price", "relevance"]]
    for qi, q in enumerate(["red running shoes", "usb c cable", "desk lamp"]):
        for d, g in enumerate(GRADES):
            rows.append([q, f"B0{qi}{d}XK", round(10.34 + 45.91 * d + qi, 2), g])
    rows.append(["", "", "", ""])
    rows.append(["Total", "", "", ""])
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path


def _report(qtbot: Any, sheet: Path) -> Any:
    """The wizard on ``sheet`` taken through as guessed, on its report page."""
    wizard = ImportWizard(sheet, Conventions())
    qtbot.addWidget(wizard)
    wizard.show()
    _idle(qtbot, wizard)
    _next(qtbot, wizard)  # the mapping, as guessed
    _next(qtbot, wizard)  # imported: the report
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    return wizard.report_page.view


def test_the_report_page_lists_every_column_and_adds_up_the_rows(qtbot: Any,
                                                                 tmp_path: Path) -> None:
    view = _report(qtbot, _sheet(tmp_path / "esci.csv"))
    model = view.columns_model
    shown = [[model.index(r, c).data() for c in range(model.columnCount())]
             for r in range(model.rowCount())]
    assert [row[:3] for row in shown] == [
        ["A", "query", "query"], ["B", "product_id", "source_id"],
        ["C", "Price", "not imported"], ["D", "relevance", "grade"]]
    assert shown[2][3:] == [  # the wizard's control, not the command line's --map score=Price
        "Price: numbers 10.34 to 241.89, one per item; if this is the ranking, choose "
        "“Price” as the Score", "“Price” as the Score"]
    assert view.rows_tally.text() == (
        "Rows: 20 read = 18 imported + 1 skipped (a summary row, not a judgment: 1) + 0 rejected "
        "+ 1 blank")
    # The counts above say the rows read less those skipped as such, never
    # "Rows read: 18" over the tally's "20 read" (seen in a new user's trial).
    captions = {w.text() for w in view.findChildren(QLabel)}
    assert "Rows read:" not in captions
    assert "Rows read, not skipped:" in captions
    assert view.counts["rows_read"].text() == "18"
    # The user walks the table with the keys to the left-out column.
    view.columns.setFocus()
    view.columns.setCurrentIndex(model.index(0, 0))
    qtbot.keyClick(view.columns, Qt.Key.Key_Down)
    qtbot.keyClick(view.columns, Qt.Key.Key_Down)
    assert view.columns.currentIndex().row() == 2
    assert model.index(2, 1).data() == "Price"


def test_rows_with_a_blank_grade_are_counted_apart(qtbot: Any, tmp_path: Path) -> None:
    """A row whose grade cell is blank holds no judgment: the rows line and
    the counts say it apart from the rows imported, as the judgments' counts
    say its cell blank (it said 20 read = 18 imported); the summary's first
    line says what became of the row and what to do (it said "1 row with
    every grade blank listed, not imported")."""
    sheet = _sheet(tmp_path / "esci.csv")
    lines = sheet.read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2].rsplit(",", 1)[0] + ","  # row 3's grade left blank
    sheet.write_text("\n".join(lines) + "\n", encoding="utf-8")
    view = _report(qtbot, sheet)
    assert view.rows_tally.text() == (
        "Rows: 20 read = 17 imported + 1 with no grade at all + 1 skipped (a summary row, "
        "not a judgment: 1) + 0 rejected + 1 blank")
    counts = {k: label.text() for k, label in view.counts.items()}
    assert (counts["rows_imported"], counts["rows_ungraded"], counts["blank_grades"],
            counts["judgments_imported"]) == ("17", "1", "1", "17")
    # What became of the row and what to do, as the command line's first line says it.
    assert ("1 grade cell blank (no judgment: an unknown grade), on 1 row with no grade at all "
            "(its candidate kept with an unknown grade: grade it in the editor); "
            ) in view.summary.text()


def test_a_column_the_user_picks_as_the_score_is_declared(qtbot: Any, tmp_path: Path) -> None:
    """The wizard's choice reaches the import as --map does: the price the
    guess left out becomes the score when the user picks it, and the
    report's columns say it was declared."""
    wizard = ImportWizard(_sheet(tmp_path / "esci.csv"), Conventions())
    qtbot.addWidget(wizard)
    wizard.show()
    _idle(qtbot, wizard)
    _next(qtbot, wizard)
    page = wizard.mapping_page
    assert page.combos["score"].currentData() is None  # no ranking guessed from a price
    _choose(qtbot, page.combos["score"], "C: Price")
    assert page.mapping().declared == ("score",)
    _next(qtbot, wizard)
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    report = wizard.result_value.report
    assert report.ranking == "score"
    price = report.columns[2]
    assert (price.header, price.role, price.reason, price.flag) == (
        "Price", "score", "declared", "")
    doc = wizard.result_value.document
    assert float(doc.score[3]) == round(10.34 + 45.91 * 3, 2)


def test_the_report_s_tables_have_the_wizard_s_height_on_a_laptop(qtbot: Any,
                                                                   tmp_path: Path) -> None:
    """On a 1280x800 screen (the tests' screen) the wizard takes 1024x720 and
    the issues, the columns and the notes are a tab each below the counts:
    the columns table shows 10 rows and more (it showed 2-4, under the issues
    table and above the notes); a tab says how many rows it lists, and an
    arrow key on the tabs brings the columns in front."""
    wizard = ImportWizard(_sheet(tmp_path / "esci.csv"), Conventions())
    qtbot.addWidget(wizard)
    wizard.show()
    _idle(qtbot, wizard)
    screen = wizard.screen().availableGeometry()
    assert (screen.width(), screen.height()) == (1280, 800)
    assert (wizard.width(), wizard.height()) == (1024, 720)
    _next(qtbot, wizard)
    _next(qtbot, wizard)
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    view = wizard.report_page.view
    tabs = view.lists
    assert [tabs.tabText(i) for i in range(tabs.count())] == [
        f"Issues ({view.issues_model.rowCount()})", "Columns (4)", "Notes"]
    tabs.setCurrentIndex(0)
    tabs.tabBar().setFocus()
    qtbot.keyClick(tabs.tabBar(), Qt.Key.Key_Right)
    assert tabs.currentWidget().isAncestorOf(view.columns)
    qtbot.wait(1)
    rows = view.columns.height() // view.columns.verticalHeader().defaultSectionSize()
    assert rows >= 10, view.columns.height()


def test_a_clean_form_export_shows_no_issues(qtbot: Any) -> None:
    from app.import_wizard.report import ImportReportView
    from core.io.annotator import import_annotations

    path = Path(__file__).parent / "data" / "annotators" / "google_forms_responses.csv"
    view = ImportReportView()
    qtbot.addWidget(view)
    view.set_report(import_annotations(path).report)
    # Each of its 22 labels was an "issue": "Issues (22)", in front.
    assert view.lists.tabText(0) == "Issues (0)"
    assert view.lists.currentIndex() == 1  # the columns, there being nothing to look at
    assert "labels read as grades" in view.notes.toPlainText()


def test_the_report_page_says_what_the_sheet_hides(qtbot: Any, tmp_path: Path) -> None:
    """Rows an Excel filter hides and a hidden column are read all the same:
    the report's summary says so under its headline, not among the notes."""
    from tests.test_annotator_workbooks import HIDDEN_SAID, filtered_sheet

    view = _report(qtbot, filtered_sheet(tmp_path / "filtered.xlsx"))
    headline, said = view.summary.text().split("\n")
    assert "12 judgments read in 12 rows: 12 imported, 0 rejected" in headline
    assert said == HIDDEN_SAID
    assert HIDDEN_SAID not in view.notes.toPlainText()


def test_the_report_dialog_keeps_the_annotators_names_on_one_line(qtbot: Any) -> None:
    """The report dialog (760 px wide) shows the annotators' names on a line
    of their own across the counts, elided where they do not fit and whole
    on hover; the issues' cells on one line (the names wrapped onto three
    lines beside the candidates' count, "C (Annotator A)" onto two)."""
    from app.import_wizard.report import ImportReportDialog
    from core.io.annotator import import_annotations

    report = import_annotations(DATA / "issue_batch7.xlsx").report
    dialog = ImportReportDialog(report)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    view = dialog.view
    names = view.counts["annotators"]
    line = names.fontMetrics().height()
    assert names.text() == names.toolTip() == "Annotator A, Annotator B, Annotator C"
    assert names.shown_text() == names.text()  # it fits whole at 760 px
    assert names.height() < 2 * line
    assert not view.issues.wordWrap()
    assert view.issues.columnWidth(IssueColumn.COLUMN) >= view.issues.sizeHintForColumn(
        IssueColumn.COLUMN)
    # Many names elide at the end, whole on hover, still one line.
    report.annotators = [f"Annotator with a long name {i}" for i in range(12)]
    view.set_report(report)
    whole = ", ".join(report.annotators)
    assert (names.text(), names.toolTip()) == (whole, whole)
    assert names.shown_text().endswith("…")
    assert names.height() < 2 * line


def test_the_columns_table_gives_the_headers_what_they_ask_up_to_a_share(
        qtbot: Any) -> None:
    """A form's long headers ("Rate each result for: wool socks
    [https://...]") get what their text asks while the Why column keeps
    what its text asks, and at least HEADER_SHARE of the table: in the
    wizard at 1024x720 they are on one line, elided in the middle (the
    start and the item's address shown), whole on hover, the Why column's
    grade reasons whole; in the report dialog made wide enough, whole. They
    were cut at Qt's 100 px onto two lines ("Rate each / result for: wo…")
    with the Why column wide and half empty."""
    from app.import_wizard.report import HEADER_SHARE, ImportReportDialog
    from app.import_wizard.tables import HEADER_COLUMN, WHY_COLUMN
    from app.panels.fit import text_margins, text_width

    view = _report(qtbot, DATA / "google_forms_grid.csv")
    view.lists.setCurrentIndex(1)
    table, model = view.columns, view.columns_model
    qtbot.waitUntil(table.isVisible)
    room, font = table.viewport().width(), table.font()
    rows = range(model.rowCount())
    headers = [model.index(r, HEADER_COLUMN).data() for r in rows]
    assert headers[6] == "Rate each result for: wool socks [https://blog.example/merino]"
    ask = max(text_width(font, h) for h in headers) + text_margins(table)
    assert ask > room * HEADER_SHARE  # (the case: the headers ask more than the share)
    assert not table.wordWrap()
    assert table.textElideMode() is Qt.TextElideMode.ElideMiddle
    assert table.columnWidth(HEADER_COLUMN) == int(room * HEADER_SHARE)  # (was 100)
    assert model.index(6, HEADER_COLUMN).data(Qt.ItemDataRole.ToolTipRole) == headers[6]
    shown = table.fontMetrics().elidedText(
        headers[6], Qt.TextElideMode.ElideMiddle,
        table.columnWidth(HEADER_COLUMN) - text_margins(table))
    assert shown.startswith("Rate each result for: wool so")
    assert shown.endswith("example/merino]")
    grade_why = model.index(6, WHY_COLUMN).data()
    assert table.columnWidth(WHY_COLUMN) >= text_width(font, grade_why) + text_margins(table)
    assert sum(table.columnWidth(c) for c in range(model.columnCount())) <= room

    # The report dialog made wide: the Why column asks less than it is
    # left, and the headers get all they ask (refitted as the table grows).
    dialog = ImportReportDialog(view.report)
    qtbot.addWidget(dialog)
    dialog.view.lists.setCurrentIndex(1)
    dialog.resize(1260, 520)
    dialog.show()
    qtbot.waitExposed(dialog)
    wide = dialog.view.columns
    qtbot.waitUntil(lambda: wide.columnWidth(HEADER_COLUMN) == ask)
    assert wide.columnWidth(WHY_COLUMN) >= max(
        text_width(font, model.index(r, WHY_COLUMN).data()) for r in rows)


def test_the_report_page_names_the_rows_above_the_header(qtbot: Any, tmp_path: Path) -> None:
    """A title, who prepared the sheet, its legend and a blank row above the
    header on row 5: the summary names each with what it held and the rows'
    tally says them after the rows read (rows 1-4 were in no line)."""
    from tests.test_import_above_header import annotators_sheet

    view = _report(qtbot, annotators_sheet(tmp_path / "annotators.xlsx"))
    assert view.rows_tally.text() == (
        "Rows: 7 read = 6 imported + 0 skipped + 0 rejected + 1 blank; rows 1-4 above the "
        "header, not imported: a title, text, the legend, blank")
    assert view.summary.text().splitlines()[1] == (
        "rows 1-4, above the header on row 5, not imported: row 1 a title ('Relevance "
        "judgments - Q3 2026 review'), row 2 text ('Prepared by: Dana Lee and Sam Ortiz, "
        "30…'), row 3 the legend ('Scale: 0 = not relevant, 1 = partial, 2…'), "
        "row 4 blank")
    assert "above the header" not in view.notes.toPlainText()


def test_a_json_export_s_counts_are_its_records(qtbot: Any, tmp_path: Path) -> None:
    """A Label Studio export of 4 tasks, two annotations and a model's
    prediction each (12 rows of the table read from it): the counts above
    the issues say its records, as the headline and the rows line do (they
    said 'Rows read, not skipped: 8' and 'Rows imported: 8' under '4
    records')."""
    from tests.test_platform_exports_detected import _label_studio
    path = tmp_path / "project.json"
    _label_studio(path, {"d1": [3, 2], "d2": [0, 1], "d3": [1, 2], "d4": [2, 2]},
                  predictions=1)
    view = _report(qtbot, path)
    assert view.rows_tally.text().startswith("Records: 4 read = 4 imported + "), \
        view.rows_tally.text()
    assert "in 4 records" in view.summary.text()
    captions = {w.text() for w in view.findChildren(QLabel)}
    assert {"Records read, not skipped:", "Records imported:", "Records rejected:",
            "Blank records skipped:"} <= captions, captions
    assert not {"Rows read, not skipped:", "Rows imported:"} & captions
    counts = {k: label.text() for k, label in view.counts.items()}
    assert (counts["rows_read"], counts["rows_imported"], counts["rows_rejected"],
            counts["judgments_imported"]) == ("4", "4", "0", "8")
