"""What the command line says of a sheet, the import wizard says in its
own words, naming its controls (the sheet page's boxes, the mapping
page's lists and Rubric field, the "Several annotators" choice), never the
command line's flags: the guess, a run, an adjudicated grade, rejected
judgments, a consensus under another rule, grade columns left unused, a
split score, and legends, said on the mapping page or refused at Next."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFormLayout,
    QLabel,
    QWizard,
)

from app.accessibility import without_mnemonic
from core.model.conventions import Rubric
from tests.appboxes import Boxes
from tests.test_app_import import (
    _at_mapping,
    _choose,
    _idle,
    _import_anyway,
    _next,
    _refused_on_next,
)


def test_the_guess_says_the_wizards_controls_not_the_command_lines_flags(
        qtbot: Any, tmp_path: Path):
    """A numeric column no role takes is left out with the way to make it the
    ranking: the command line's flag (``pass --map score=points``) said as
    the page's control (a task's id, counting up, is no ranking to offer)."""
    sheet = tmp_path / "labelstudio.csv"
    sheet.write_text("id,annotator,query,document,relevance,points\n" + "".join(
        f"{101 + i},7,case-A,{d},{g},{p}\n" for i, (d, g, p) in enumerate(
            (("A", "relevant", 0.82), ("B", "not relevant", 0.47), ("C", "relevant", 0.19)))),
        encoding="utf-8")
    wizard = _at_mapping(qtbot, sheet)
    guessed = wizard.mapping_page.reasons.text()
    assert "if this is the ranking, choose “points” as the Score" in guessed
    assert "“id”" not in guessed
    assert "--" not in guessed


def test_the_guessed_header_says_the_sheet_pages_box_not_header_row(
        qtbot: Any, tmp_path: Path):
    """Row 1 taken as the header on no evidence (words over words): the
    guess says how to read it as a judgment in the wizard's words, the sheet
    page's box and its value for no header, as they are labelled, not the
    command line's ``pass --header-row 0`` (said before)."""
    sheet = tmp_path / "words.csv"
    sheet.write_text("cats,wiki,good\ncats,news,bad\ndogs,blog,good\ndogs,shop,bad\n",
                     encoding="utf-8")
    wizard = _at_mapping(qtbot, sheet)
    guessed = wizard.mapping_page.reasons.text()
    page = wizard.sheet_page
    box = page.header_row
    label = without_mnemonic(page.findChild(QFormLayout).labelForField(box).text()).rstrip(":")
    assert f"set “{label}” to “{box.specialValueText()}” if row 1 is a judgment" in guessed
    assert "--" not in guessed


def test_a_run_is_refused_as_the_command_line_refuses_it(qtbot: Any, tmp_path: Path,
                                                         boxes: Boxes):
    """An MS MARCO run (qid, pid, rank; no header) opened in the wizard: the
    rank is not offered as the grade; Next says what the command line says
    (tests/test_import_ranks.py) and Finish stays off."""
    run = tmp_path / "run.tsv"
    run.write_text("".join(f"{q}\t{q * 7 + 1000 * d}\t{d}\n" for q in (1048585, 2, 524332)
                           for d in range(1, 8)), encoding="utf-8")
    wizard = _at_mapping(qtbot, run)
    assert wizard.mapping_page.mapping().grade is None
    assert _refused_on_next(qtbot, wizard, boxes) == (
        f"{run}: no grade column found in the columns A, B, C (no header: row 1 is data); "
        "column C counts 1, "
        "2, 3, … within each query, like a rank, not a grade (a run is read by "
        "File > Open… (it asks for the run's qrels); to import it as the ranking of graded "
        "judgments, choose “C” as the Rank with its column as the Grade (long layout); if it "
        "does hold grades, choose “C” as the Grade (long layout))")


def _adjudicated(tmp_path: Path) -> Path:
    """A worksheet CSV whose row 3 grade (3) was adjudicated beside
    annotators at 1 and 2."""
    sheet = tmp_path / "adjudicated.csv"
    sheet.write_text("query,source_id,version,score,grade,state,reason,note,grade_ana,"
                     "grade_ben\nq1,d1,,3,1,number,,,1,1\nq1,d2,,2,3,number,,,1,2\n",
                     encoding="utf-8")
    return sheet


def test_an_adjudicated_grade_is_refused_with_the_wizards_way_out(
        qtbot: Any, tmp_path: Path, boxes: Boxes):
    """A worksheet CSV whose grade was adjudicated (3 beside annotators at 1
    and 2) opened in the wizard: the guess (the annotators' columns, their
    consensus) is refused, never imported as 1.5, in the command line's
    line with the wizard's way out instead of its flags (there was none in
    the wide layout: `--map grade=none` had no choice on the page); Finish
    stays off. Ticking "Leave E: grade out" (a key click) imports the
    annotators' grades and their mean."""
    sheet = _adjudicated(tmp_path)
    wizard = _at_mapping(qtbot, sheet)
    page = wizard.mapping_page
    assert [who for _, who in page.mapping().grades] == ["ana", "ben"]
    box = page.consensus_out
    assert box.isVisible()
    assert not box.isChecked()
    assert box.text() == "Leave E: grade out: compute the consensus from the annotators' columns"
    assert _refused_on_next(qtbot, wizard, boxes) == (
        f"{sheet}, line 3, column 'grade': grade holds 3 for query q1, source d2 where the "
        "mean of the annotators' grades (ana, ben; no rounding) is 1.5: a grade given there, "
        "not their consensus, is never replaced by a computed one (tick “Leave E: grade out” "
        "under the annotators' grade columns to compute the consensus from their grades, or "
        "choose the long layout with E as the grade to take its grades)")
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.BackButton), Qt.MouseButton.LeftButton)
    _idle(qtbot, wizard)
    assert wizard.currentPage() is page
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Space)
    assert box.isChecked()
    assert "grade" in page.mapping().declared
    _next(qtbot, wizard)
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    assert len(boxes.shown) == 1
    doc = wizard.result_value.document
    assert doc.annotators == ["ana", "ben"]
    np.testing.assert_array_equal(doc.grade, [1.0, 1.5])  # their mean, E left out
    assert wizard.button(QWizard.WizardButton.FinishButton).isEnabled()
    # the report says E was left out as the user said, not as a combined grade
    why = {c.header: c.reason for c in wizard.result_value.report.columns}
    assert why["grade"] == ("grade: left out as declared (--map grade=none), not imported: the "
                            "consensus is computed from the annotators' own grades")
    assert why["grade_ana"] == "ana, ben, named so: one column of grades per annotator"


def test_a_grade_column_ticked_is_named_as_the_guess_names_it(
        qtbot: Any, tmp_path: Path, boxes: Boxes):
    """A column of grades the guess left unticked, ticked with a key, is
    named as the guess names its columns (``grade_ben_at_lab_example``:
    ``ben_at_lab_example``, without the prefix the written worksheet adds
    again), never after its whole header (written back
    ``grade_grade_ben_at_lab_example``)."""
    sheet = tmp_path / "wide.csv"
    sheet.write_text("query,doc,grade_ana,grade_ben,grade_ben_at_lab_example\n"
                     "q1,d1,1,1,0\nq1,d2,3,1,2\nq1,d3,0,0,1\nq2,d4,2,2,2\nq2,d5,2,3,3\n"
                     "q2,d6,0,0,0\n", encoding="utf-8")
    wizard = _at_mapping(qtbot, sheet)
    page = wizard.mapping_page
    assert page.grades_model.grades() == ((2, "ana"), (3, "ben"))
    view = page.grades_view
    view.setFocus()
    view.setCurrentIndex(page.grades_model.index(4, 0))
    qtbot.keyClick(view, Qt.Key.Key_Space)
    assert page.grades_model.grades() == ((2, "ana"), (3, "ben"), (4, "ben_at_lab_example"))
    _next(qtbot, wizard)
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    assert wizard.result_value.document.annotators == ["ana", "ben", "ben_at_lab_example"]
    assert boxes.shown == []


def test_the_adjudicated_column_taken_in_the_long_layout_keeps_its_grades(
        qtbot: Any, tmp_path: Path, boxes: Boxes):
    """The refusal's other way out, taken with keys: the long layout with E
    (the adjudicated grade) as the grade. The rubric field shows the chosen
    column's scale: E's numbers (1 to 3), where it kept showing the one
    proposed from the annotators' columns ("1,2"; back to them, "1,2"
    again); every judgment imported, no "Import anyway". A rubric the user
    typed stays as typed whatever column is chosen."""
    sheet = _adjudicated(tmp_path)
    wizard = _at_mapping(qtbot, sheet)
    page = wizard.mapping_page
    assert page.rubric.text() == "1,2"  # read from the annotators' columns
    assert "grade holds 3 for query q1, source d2" in _refused_on_next(qtbot, wizard, boxes)
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.BackButton), Qt.MouseButton.LeftButton)
    _idle(qtbot, wizard)
    _choose(qtbot, page.layout_combo, "long")
    _choose(qtbot, page.combos["grade"], "E")
    _idle(qtbot, wizard)
    assert page.mapping().grade == 4
    assert page.rubric.text() == "1,2,3"  # E's own scale, no longer the annotators'
    assert page.labels_info.text() == "Rubric read from the grade columns' numbers, 1 to 3: 1,2,3"
    page.layout_combo.setFocus()
    qtbot.keyClick(page.layout_combo, Qt.Key.Key_Down)  # wide (typed "wide" would search on)
    _idle(qtbot, wizard)
    assert page.layout_combo.currentData() == "wide"
    assert page.rubric.text() == "1,2"
    page.rubric.clear()
    qtbot.keyClicks(page.rubric, "0,1,2,3")  # typed: kept over any column's scale
    page.layout_combo.setFocus()
    qtbot.keyClick(page.layout_combo, Qt.Key.Key_Up)  # long again
    _idle(qtbot, wizard)
    assert page.mapping().grade == 4
    assert page.rubric.text() == "0,1,2,3"
    page.rubric.clear()
    qtbot.keyClicks(page.rubric, "1,2,3")
    _next(qtbot, wizard)
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    report = wizard.result_value.report
    assert report.rejected_judgments == []
    doc = wizard.result_value.document
    np.testing.assert_array_equal(doc.grade, [1.0, 3.0])  # E's grades, the 3 kept
    assert doc.conventions.rubric == Rubric.parse("1,2,3")
    assert "rubric: 1,2,3" in report.notes
    assert not wizard.report_page.anyway.isVisible()
    assert wizard.button(QWizard.WizardButton.FinishButton).isEnabled()
    assert len(boxes.shown) == 1  # the refusal only


def test_one_rejected_judgment_is_said_in_the_singular_before_import(
        qtbot: Any, boxes: Boxes):
    """A sheet with one formula among 10 judgments: Finish waits for the
    box saying that one, its row and column ('1 of the 10 judgments read is
    rejected', was 'are rejected')."""
    sheet = Path(__file__).resolve().parent / "data" / "annotators" / "hand_made_long.xlsx"
    wizard = _at_mapping(qtbot, sheet)
    _next(qtbot, wizard)
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    _import_anyway(qtbot, wizard, "Import anyway: 1 of the 10 judgments read is rejected and "
                   "will not be imported (row 11, column 'C (Relevance (0-3))'; listed under "
                   "Issues)")
    assert boxes.shown == []


def test_a_sheet_whose_every_judgment_is_rejected_offers_no_import(
        qtbot: Any, tmp_path: Path, boxes: Boxes):
    """Every judgment rejected (a grade column of formulas, never
    evaluated): the report page lists them and says, as the command line
    does, that there is nothing to import, with the first rejected cell;
    no "Import anyway" (it imported a worksheet of unknown grades), Finish
    stays off."""
    from tests.test_annotator_workbooks import computed_sheet

    sheet = computed_sheet(tmp_path / "computed.xlsx")
    wizard = _at_mapping(qtbot, sheet)
    _next(qtbot, wizard)
    page = wizard.report_page
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    assert len(wizard.result_value.report.rejected_judgments) == 3
    assert not page.anyway.isVisible()
    assert page.refusal.isVisible()
    assert page.refusal.text() == (
        f"{sheet}, sheet 'Judgments', row 2, column 'D (grade)': all 3 judgments read were "
        "rejected, so there is nothing to import; the first: cell D2 holds the formula "
        "'=IF(C2=\"Bad\",0,IF(C2=\"Fair\",1,2))'; formulas are never evaluated; cell not "
        "imported; paste the cells as values in the spreadsheet to import them (each is "
        "listed under Issues)")
    assert not wizard.button(QWizard.WizardButton.FinishButton).isEnabled()
    assert boxes.shown == []


def test_a_consensus_written_under_another_rule_names_the_wizards_choice(
        qtbot: Any, tmp_path: Path, boxes: Boxes):
    """A worksheet written under the maximum, read under the mean: the
    wizard's line names the rule under which the column is the consensus
    as its "Several annotators" choice, not ``--consensus maximum``."""
    sheet = tmp_path / "maximum.csv"
    sheet.write_text("query,source_id,version,score,grade,state,reason,note,grade_ana,"
                     "grade_ben\nq1,d1,,3,1,number,,,1,1\nq1,d2,,2,2,number,,,1,2\n"
                     "q1,d3,,1,3,number,,,3,0\n", encoding="utf-8")
    wizard = _at_mapping(qtbot, sheet)
    shown = _refused_on_next(qtbot, wizard, boxes)
    assert shown.endswith(
        "(on every row it is what the highest annotator grade (no rounding) computes: choose "
        "it under “Several annotators” and “Rounding of the consensus”; or tick “Leave E: "
        "grade out” under the annotators' grade columns to compute the consensus from their "
        "grades, or choose the long layout with E as the grade to take its grades)"), shown
    assert "--" not in shown


def test_grade_columns_left_unused_are_refused_naming_the_wizards_list(
        qtbot: Any, tmp_path: Path, boxes: Boxes):
    """Three columns of grades alike, one taken: refused in the wizard naming
    its list of annotator grade columns as labelled, not ``pass
    --annotators grade,g2,g3`` (said before)."""
    sheet = tmp_path / "three.csv"
    sheet.write_text("query,doc,grade,g2,g3\nq1,a,1,2,1\nq1,b,0,1,0\nq1,c,2,2,1\n"
                     "q2,a,1,0,1\nq2,b,2,2,2\nq2,c,0,1,0\n", encoding="utf-8")
    wizard = _at_mapping(qtbot, sheet)
    shown = _refused_on_next(qtbot, wizard, boxes)
    view = wizard.mapping_page.grades_view
    label = next(w for w in wizard.mapping_page.findChildren(QLabel) if w.buddy() is view)
    alone = wizard.mapping_page.grade_alone
    listed = without_mnemonic(label.text()).removesuffix(":")
    ticked = without_mnemonic(alone.text())
    assert (f"(choose “grade”, “g2”, “g3” as the {listed} if each "
            f"is one annotator's grades, tick “{ticked}” to take grade "
            "alone and leave g2, g3 out)") in shown, shown
    assert "--" not in shown
    # the way out taken: the box ticked with a key (“grade” was the Grade
    # already: choosing it again declared nothing, and the sheet was refused)
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.BackButton), Qt.MouseButton.LeftButton)
    _idle(qtbot, wizard)
    alone.setFocus()
    qtbot.keyClick(alone, Qt.Key.Key_Space)
    assert alone.isChecked()
    _next(qtbot, wizard)
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    np.testing.assert_array_equal(wizard.result_value.document.grade, [1, 0, 2, 1, 2, 0])
    roles = {c.header: c.role for c in wizard.result_value.report.columns}
    assert (roles["grade"], roles["g2"], roles["g3"]) == ("grade", "", ""), roles
    # the report's columns say why g2 and g3 are left out, in the wizard's words
    # (they said 'numbers 0 to 2, varying between one item's judgments ...')
    table = wizard.report_page.view.columns_model
    why = {table.index(r, 0).data(): table.index(r, 3).data() for r in range(table.rowCount())}
    assert why["D"] == (f"g2: grades like grade's, left out as declared (tick “{ticked}” "
                        "to take grade alone); not imported"), why


def test_a_split_score_is_refused_with_the_wizards_way_out(qtbot: Any, tmp_path: Path,
                                                           boxes: Boxes):
    """One item scored 0.9 on ann's row and 0.8 on ben's: refused in the
    wizard with its own way out (the Score's "(none)", not --map
    score=none); choosing it (typed into the combo) imports the judgments
    without a ranking."""
    sheet = tmp_path / "split.csv"
    sheet.write_text("query,doc,annotator,grade,score\nq1,d1,ann,2,0.9\nq1,d2,ann,1,0.5\n"
                     "q1,d1,ben,3,0.8\nq1,d2,ben,0,0.5\n", encoding="utf-8")
    wizard = _at_mapping(qtbot, sheet)
    page = wizard.mapping_page
    assert page.combos["score"].currentText() == "E: score"
    assert _refused_on_next(qtbot, wizard, boxes) == (
        f"{sheet}, line 4, column 'score': the score column 'score' gives query 'q1', source "
        "'d1' the score 0.9 on row 2 and 0.8 on row 4: a ranking scores each item once, so "
        "this column is not one ranking (choose “(none)” as the Score to import the judgments "
        "without it, or fix the sheet so each item's rows give one score)")
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.BackButton), Qt.MouseButton.LeftButton)
    _idle(qtbot, wizard)
    _choose(qtbot, page.combos["score"], "(none)")
    _next(qtbot, wizard)
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    doc = wizard.result_value.document
    np.testing.assert_array_equal(doc.grade, [2.5, 0.5])
    assert np.isnan(doc.score).all()
    assert wizard.button(QWizard.WizardButton.FinishButton).isEnabled()


def test_a_legend_beside_the_judgments_is_the_rubric_said_once(qtbot: Any, tmp_path: Path):
    """A legend in two columns beside the judgments (Grade | Meaning): the
    mapping page maps neither, and says the rubric read from it once: it
    read "Rubric read from the sheet's legend (rows 2-4 of columns ...:
    0=no,1=partly,2=yes): 0=no,1=partly,2=yes" (the levels twice)."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    legend = [("Grade", "Meaning"), (0, "no"), (1, "partly"), (2, "yes")]
    data = [("query", "doc", "ann1", "ann2"), ("q1", "d1", 2, 2), ("q1", "d2", 2, 1),
            ("q1", "d3", 1, 1), ("q2", "d4", 0, 0), ("q2", "d5", 0, 0), ("q2", "d6", 1, 2)]
    for i, row in enumerate(data):
        sheet.append([*row, None, *(legend[i] if i < len(legend) else ())])
    path = tmp_path / "beside.xlsx"
    book.save(path)
    wizard = _at_mapping(qtbot, path)
    page = wizard.mapping_page
    assert page.mapping().grades == ((2, "ann1"), (3, "ann2"))
    assert page.rubric.text() == "0=no,1=partly,2=yes"
    assert page.labels_info.text() == (
        "Rubric read from the sheet's legend (rows 2-4 of columns F (Grade) and "
        "G (Meaning): 0=no,1=partly,2=yes)")


def test_a_legend_lacking_a_grade_is_refused_naming_the_rubric_field(
        qtbot: Any, tmp_path: Path, boxes: Boxes):
    """A legend above the header lacking the 3 a grade cell holds: refused
    in the wizard naming its Rubric field as labelled, the example as text
    to type (it said ``pass --rubric with the scale ... (e.g. --rubric
    "...")``, the command line's flag); the example typed there imports."""
    sheet = tmp_path / "lacking.csv"
    sheet.write_text('"Scale: 0 = not relevant, 1 = partial, 2 = relevant"\n\n'
                     "query,doc,relevance\nq1,d1,2\nq1,d2,1\nq1,d3,0\nq2,d4,3\nq2,d5,1\n"
                     "q2,d6,0\n", encoding="utf-8")
    wizard = _at_mapping(qtbot, sheet)
    page = wizard.mapping_page
    assert page.rubric.text() == "0=not relevant,1=partial,2=relevant"
    shown = _refused_on_next(qtbot, wizard, boxes)
    field = next(w for w in page.findChildren(QLabel) if w.buddy() is page.rubric)
    example = "0=not relevant,1=partial,2=relevant,3"
    named = without_mnemonic(field.text()).removesuffix(":")
    assert shown.endswith(
        f"(type in “{named}” the scale the grades are on (e.g. "
        f"“{example}”), or correct the legend or the grade)"), shown
    assert "--" not in shown, shown
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.BackButton), Qt.MouseButton.LeftButton)
    _idle(qtbot, wizard)
    page.rubric.setFocus()
    qtbot.keyClick(page.rubric, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(page.rubric, example)
    _next(qtbot, wizard)
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    np.testing.assert_array_equal(wizard.result_value.document.grade, [2, 1, 0, 3, 1, 0])


_WORDS = ("query,doc,relevance\nq1,d1,Vital\nq1,d2,Useful\nq1,d3,Useless\nq2,d4,Marginal\n"
          "q2,d5,Useful\nq2,d6,Useless\n")


def test_a_legend_of_labels_in_order_is_a_proposal_taken_by_name(
        qtbot: Any, tmp_path: Path):
    """A legend stating its order, labels on no known scale: the page names
    the legend, the labels stay without grades (never applied in silence),
    and a button naming each label's grade gives them when pressed (the
    space key); imported so. A legend stating no order offers no button."""
    sheet = tmp_path / "ordered.csv"
    sheet.write_text("From best to worst: Vital / Useful / Marginal / Useless\n\n" + _WORDS,
                     encoding="utf-8")
    wizard = _at_mapping(qtbot, sheet)
    page = wizard.mapping_page
    assert page.labels_info.text() == (
        "The sheet's legend (cell A1: Vital / Useful / Marginal / Useless, best first, no "
        "grades) names the labels, not their grades, and no known scale reads them.")
    assert page.labels_model.answers() == {}
    button = page.legend_order
    assert button.isVisible()
    assert without_mnemonic(button.text()) == "Give the labels these grades"
    said = ("The legend lists them best first; one grade apart, that is: Useless = 0, "
            "Marginal = 1, Useful = 2, Vital = 3")
    assert page.legend_proposal.text() == said
    assert button.accessibleDescription() == said
    button.setFocus()
    qtbot.keyClick(button, Qt.Key.Key_Space)
    assert page.labels_model.answers() == {"Vital": 3, "Useful": 2, "Useless": 0, "Marginal": 1}
    _next(qtbot, wizard)
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    np.testing.assert_array_equal(wizard.result_value.document.grade, [3, 2, 0, 1, 2, 0])
    plain = tmp_path / "plain.csv"
    plain.write_text("Scale: Vital / Useful / Marginal / Useless\n\n" + _WORDS, encoding="utf-8")
    page = _at_mapping(qtbot, plain).mapping_page
    assert "names the labels, not their grades" in page.labels_info.text()
    assert not page.legend_order.isVisible()
    assert not page.legend_proposal.isVisible()
    assert page.labels_model.answers() == {}


def test_legends_that_disagree_are_said_on_the_mapping_page(qtbot: Any, tmp_path: Path):
    """A legend above the header (0-2) and one on a sheet of its own (0-3):
    the mapping page says which disagree and what to do with its Rubric
    field, before the import (it said only the numbers' rubric)."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Judgments"
    for row in (["Scale: 0 = no, 1 = partly, 2 = yes"], [], ["query", "doc", "relevance"],
                ["q1", "d1", 2], ["q1", "d2", 1], ["q2", "d3", 0], ["q2", "d4", 2]):
        sheet.append(row)
    legend = book.create_sheet("Legend")
    for row in (["Grade", "Meaning"], [0, "bad"], [1, "fair"], [2, "good"], [3, "perfect"]):
        legend.append(row)
    path = tmp_path / "two legends.xlsx"
    book.save(path)
    page = _at_mapping(qtbot, path).mapping_page
    field = next(w for w in page.findChildren(QLabel) if w.buddy() is page.rubric)
    named = without_mnemonic(field.text()).removesuffix(":")
    assert page.labels_info.text().splitlines()[-1] == (
        "The sheet's legends list different grades: cell A1 of sheet 'Judgments' (0=no,"
        "1=partly,2=yes) and rows 2-5 of sheet 'Legend' (0=bad,1=fair,2=good,3=perfect), so "
        f"none was read as the scale: type in “{named}” the scale the "
        "grades are on, or correct the legend that is wrong")
    assert page.rubric.text() == "0,1,2"


def test_a_label_the_legend_lacks_is_refused_in_the_wizards_words(
        qtbot: Any, tmp_path: Path, boxes: Boxes):
    """A grade cell's label that the sheet's legend of labels lacks, no
    label given a grade: refused naming the legend, the cell's label and the
    Rubric field as labelled, no flag."""
    sheet = tmp_path / "lacking labels.csv"
    sheet.write_text("Scale: Vital / Useful / Marginal / Useless\n\n"
                     + _WORDS.replace("q2,d5,Useful", "q2,d5,Helpful"), encoding="utf-8")
    wizard = _at_mapping(qtbot, sheet)
    page = wizard.mapping_page
    assert page.labels_model.unanswered() == ["Vital", "Useful", "Useless", "Marginal",
                                              "Helpful"]
    shown = _refused_on_next(qtbot, wizard, boxes)
    field = next(w for w in page.findChildren(QLabel) if w.buddy() is page.rubric)
    assert shown == (
        f"{sheet}, line 8, column 'relevance': the sheet's legend (cell A1: Vital / Useful / "
        "Marginal / Useless, no grades) has no label 'Helpful', which relevance holds (give "
        f"each label its grade with “{without_mnemonic(field.text()).removesuffix(':')}” "
        "(e.g. “N=Vital,"
        "N=Useful,N=Marginal,N=Useless,N=Helpful”), or correct the legend or the grade)")
