"""An annotators' workbook's guidelines sheet offered on import (issue 26,
item 2): found from what its cells look like, named with --guidelines,
left out with --guidelines none, and reported."""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from core.io.annotator.guidelines import find_guidelines, read_guidelines
from core.io.workbook import read_workbook
from core.model.conventions import Conventions, Guideline, Guidelines

LEVELS = [
    ("Grade", "Label", "What it means", "Examples"),
    (0, "Not relevant", "The page does not answer the question at all.", "an ad\na login page"),
    (1, "Partly", "The page answers part of the question, or only mentions it.", ""),
    (2, "Relevant", "The page answers the whole question on its own.",
     "a recipe for the dish asked"),
]
EXPECTED = Guidelines((
    Guideline(0, "The page does not answer the question at all.", ("an ad", "a login page")),
    Guideline(1, "The page answers part of the question, or only mentions it."),
    Guideline(2, "The page answers the whole question on its own.",
              ("a recipe for the dish asked",)),
))


def _book(path: Path, guidelines_sheet: str = "Instructions") -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Judgments"
    ws.append(("query", "doc", "grade"))
    for q, d, g in (("q1", "d1", 2), ("q1", "d2", 0), ("q2", "d1", 1), ("q2", "d3", 2)):
        ws.append((q, d, g))
    notes = wb.create_sheet("Notes")  # prose without grades: not guidelines
    notes.append(("Please read the instructions before you start judging the pages.",))
    notes.append(("Ask Dana when a page does not load at all for you.",))
    levels = wb.create_sheet(guidelines_sheet)
    levels.append(("Read each page, then choose the grade that fits best.",))
    for row in LEVELS:
        levels.append(row)
    wb.save(path)
    return path


def test_the_levels_are_read_from_the_cells(tmp_path: Path) -> None:
    found = read_guidelines(_book(tmp_path / "a.xlsx"), "Instructions")
    assert found.guidelines == EXPECTED
    assert found.labels == {0.0: "Not relevant", 1.0: "Partly", 2.0: "Relevant"}


@pytest.mark.parametrize("name", ["Instructions", "Sheet3"])  # the data decides, not the name
def test_the_guidelines_sheet_is_found_among_the_others(tmp_path: Path, name: str) -> None:
    found = find_guidelines(_book(tmp_path / "a.xlsx", name), "Judgments")
    assert found is not None
    assert (found.sheet, found.guidelines) == (name, EXPECTED)


def _import(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(["import", *args], out), out.getvalue()


def test_import_offers_the_guidelines_and_says_so(tmp_path: Path) -> None:
    book, out = _book(tmp_path / "a.xlsx"), tmp_path / "out.xlsx"
    code, text = _import([str(book), "-o", str(out), "--sheet", "Judgments"])
    assert code == 0
    assert ("guidelines: 3 grades described, from sheet 'Instructions' (--guidelines none "
            "leaves them out)\n") in text
    assert read_workbook(out).conventions.guidelines == EXPECTED
    # Named, it is taken without the note; none leaves them out.
    code, text = _import([str(book), "-o", str(out), "--sheet", "Judgments",
                          "--guidelines", "Instructions"])
    assert "from sheet 'Instructions'\n" in text
    code, text = _import([str(book), "-o", str(out), "--sheet", "Judgments",
                          "--guidelines", "none"])
    assert code == 0
    assert "guidelines" not in text
    assert read_workbook(out).conventions.guidelines == Guidelines()
    # A CSV keeps no conventions: said, not silently lost.
    code, text = _import([str(book), "-o", str(tmp_path / "out.csv")])
    assert ("guidelines: 3 grades described, from sheet 'Instructions'; a .csv file keeps no "
            "conventions: write OUT.xlsx to keep them (--guidelines none leaves them out)"
            ) in text


def test_a_sheet_named_that_holds_no_levels_is_refused(tmp_path: Path, capsys) -> None:
    book, out = _book(tmp_path / "a.xlsx"), tmp_path / "out.xlsx"
    code, _ = _import([str(book), "-o", str(out), "--sheet", "Judgments",
                       "--guidelines", "Notes"])
    err = capsys.readouterr().err
    assert code != 0
    assert "sheet 'Notes'" in err or "Notes" in err
    assert "no grading guidelines found" in err
    assert not out.exists()


def test_the_wizard_offers_the_guidelines_in_its_report(qtbot, tmp_path: Path) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QWizard

    from app.import_wizard.wizard import ImportWizard

    wizard = ImportWizard(_book(tmp_path / "a.xlsx"), Conventions())
    qtbot.addWidget(wizard)
    wizard.show()
    qtbot.waitUntil(lambda: not wizard.busy, timeout=10_000)
    assert wizard.preview_value is not None
    assert wizard.preview_value.sheet == "Judgments"  # the judgments, not the levels
    while wizard.currentId() != ImportWizard.REPORT:
        qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton),
                         Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not wizard.busy, timeout=10_000)
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    assert wizard.result_value.document.conventions.guidelines == EXPECTED
    notes = wizard.report_page.view.notes.toPlainText()
    assert ("guidelines: 3 grades described, from sheet 'Instructions'; they are shown beside "
            "the grid, and edited (or cleared) in the Conventions panel, under Guidelines"
            ) in notes


def test_a_column_headed_example_holds_the_examples_however_short(tmp_path: Path) -> None:
    """A sheet as a team lead writes it, "Grade | Meaning | Example", its
    examples a few words each: the column its header names is the examples,
    not the labels. In a new user's trial they were lost (no examples beside
    the grid, none in the workbook) and "Cheap flights" read as grade 0's
    label."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Judgments"
    ws.append(("query", "doc", "grade"))
    for q, d, g in (("q1", "d1", 2), ("q1", "d2", 0), ("q2", "d1", 1), ("q2", "d3", 3)):
        ws.append((q, d, g))
    levels = wb.create_sheet("Guidelines")
    for row in (("Grade", "Meaning", "Example"),
                (0, "not relevant: off topic or an ad", "Cheap flights"),
                (1, "partially relevant: mentions the topic, does not answer", "a personal story"),
                (2, "relevant: answers part of the question", "fees only"),
                (3, "highly relevant: answers the question fully, official",
                 "gov.uk renewal page")):
        levels.append(row)
    wb.save(tmp_path / "a.xlsx")
    found = find_guidelines(tmp_path / "a.xlsx", "Judgments")
    assert found is not None
    assert found.guidelines == Guidelines((
        Guideline(0, "not relevant: off topic or an ad", ("Cheap flights",)),
        Guideline(1, "partially relevant: mentions the topic, does not answer",
                  ("a personal story",)),
        Guideline(2, "relevant: answers part of the question", ("fees only",)),
        Guideline(3, "highly relevant: answers the question fully, official",
                  ("gov.uk renewal page",)),
    ))
    assert found.labels == {}


def test_a_scale_with_examples_is_the_scale_and_the_guidelines(tmp_path: Path) -> None:
    """An Instructions sheet laid out "Grade | Label | Example" (a scale
    with examples, no sentence saying what a grade means): its labels are
    the scale, as before, and its examples are kept as the guidelines and
    said, through the written workbook (htrial3: the examples were lost,
    the sheet read as the scale alone)."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Judgments"
    ws.append(("query", "doc", "annotator", "label"))
    for d, who, label in (("d1", "ana", "Spot on"), ("d2", "ana", "Off topic"),
                          ("d3", "ana", "Partial"), ("d1", "ben", "Spot on"),
                          ("d2", "ben", "Partial"), ("d3", "ben", "Off topic")):
        ws.append(("flights rome", d, who, label))
    levels = wb.create_sheet("Instructions")
    for row in (("Grade", "Label", "Example"), (0, "Off topic", "A page about trains"),
                (1, "Partial", "Fees only\nA map of the airport"),
                (2, "Spot on", "Cheap flights to Rome, with dates and prices")):
        levels.append(row)
    book, out = tmp_path / "scale.xlsx", tmp_path / "out.xlsx"
    wb.save(book)
    code, text = _import([str(book), "-o", str(out)])
    assert code == 0
    assert ("guidelines: 4 examples for 3 grades (labelled 0=Off topic,1=Partial,2=Spot on; "
            "no sentence says what a grade means), from sheet 'Instructions' (--guidelines "
            "none leaves them out)\n") in text
    conventions = read_workbook(out).conventions
    assert conventions.guidelines == Guidelines((
        Guideline(0, "", ("A page about trains",)),
        Guideline(1, "", ("Fees only", "A map of the airport")),
        Guideline(2, "", ("Cheap flights to Rome, with dates and prices",))))
    assert conventions.rubric is not None
    assert conventions.rubric.text == "0=Off topic,1=Partial,2=Spot on"
    found = find_guidelines(book, "Judgments")
    assert found is not None
    assert found.labels == {0.0: "Off topic", 1.0: "Partial", 2.0: "Spot on"}
