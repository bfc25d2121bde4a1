"""The grading guidelines (issue 26, item 2): what each grade means, a
convention stored in the metadata (older workbooks open without it), shown
on the Conventions sheet and read back from it, each change an audit entry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import openpyxl
import pytest

from core.engine.evaluation import evaluate
from core.errors import ConventionError, InputError
from core.io.workbook import (
    CONVENTION_ENTRY,
    OUTSIDE_ORIGIN,
    OUTSIDE_WHO,
    SHEETS,
    export_workbook,
    read_workbook,
    reopened,
)
from core.model.conventions import Conventions, Guideline, Guidelines, Level, Rubric
from core.model.examples import EXAMPLE_CONVENTIONS, seed_document
from tests.test_workbook_reopen import _tamper

_SHEET = SHEETS["conventions"]


# -- the model ---------------------------------------------------------------------------------
def test_guidelines_json_written_and_read_back() -> None:
    g = Guidelines((Guideline(2, " answers it ", ("a recipe", " ", "the dish")),
                    Guideline(0, "off topic"), Guideline(1)))
    assert g.to_json() == [
        {"grade": 0.0, "description": "off topic", "examples": []},
        {"grade": 2.0, "description": "answers it", "examples": ["a recipe", "the dish"]},
    ]  # sorted, trimmed, the empty guideline of grade 1 dropped
    assert Guidelines.from_json(json.loads(json.dumps(g.to_json()))) == g
    assert g.text == "0: off topic; 2: answers it | examples: a recipe; the dish"


@pytest.mark.parametrize(("data", "problem"), [
    ("text", "are not a list"),
    ([{"grade": 1, "description": "x"}], "guideline 0 is not a record"),
    ([{"grade": True, "description": "x", "examples": []}], "guideline 0 is not a record"),
    ([{"grade": 1, "description": "x", "examples": [3]}], "examples are not all texts"),
    ([{"grade": float("nan"), "description": "x", "examples": []}], "not a finite number"),
    ([{"grade": 1, "description": "x", "examples": []}] * 2, "describe a grade twice"),
])
def test_unreadable_guidelines_are_refused(data: Any, problem: str) -> None:
    with pytest.raises(ConventionError, match=problem):
        Guidelines.from_json(data)


def test_levels_join_the_rubric_and_the_guidelines() -> None:
    c = Conventions(rubric=Rubric.parse("0=off,2=on"),
                    guidelines=Guidelines((Guideline(2, "answers"), Guideline(5, "stray"))))
    assert c.levels(seed_document().grade) == (
        Level(0.0, "off"), Level(2.0, "on", "answers"), Level(5.0, "", "stray"))
    # A derived scale carries guidelines too: 0..3 from the grades seen.
    derived = Conventions(guidelines=Guidelines((Guideline(1, "partly"),)))
    assert [(lv.value, lv.description) for lv in derived.levels(np.array([3.0, 0.0]))] == [
        (0.0, ""), (1.0, "partly"), (2.0, ""), (3.0, "")]
    assert Level(2.0, "on").title == "2 - on"
    assert Level(1.5).title == "1.5"


def test_setting_the_rubric_keeps_the_guidelines() -> None:
    c = EXAMPLE_CONVENTIONS.replace(rubric=Rubric.parse("0,1,2,3"))
    assert c.guidelines == EXAMPLE_CONVENTIONS.guidelines
    assert c.levels(seed_document().grade)[3].description.startswith("The source states")


# -- the workbook --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("guidelines") / "seed.xlsx"
    export_workbook(evaluate(seed_document()), path)
    return path


def _rows(path: Path) -> dict[float, tuple[int, list[Any]]]:
    """The Conventions sheet's guideline rows by grade: (row, cells A to E)."""
    wb = openpyxl.load_workbook(path)
    ref = wb.defined_names["guidelines"].attr_text.split("!")[1].replace("$", "")
    ws = wb[_SHEET]
    return {float(r[0].value): (r[0].row, [c.value for c in r]) for r in ws[ref]}


def test_the_sheet_shows_every_level_with_its_guideline(book: Path) -> None:
    rows = _rows(book)
    assert sorted(rows) == [0.0, 1.0, 2.0, 3.0]
    _, cells = rows[1.0]
    assert cells[:3] == [
        1, "partial support",
        "The source supports part of the claim, or only mentions it; a reader needs other "
        "sources to accept it."]
    assert cells[4] == "the claim names a year and a place; the source gives only the place"
    ws = openpyxl.load_workbook(book)[_SHEET]
    header = rows[0.0][0] - 1
    assert [ws.cell(header, c).value for c in (1, 2, 3, 5)] == [
        "rubric: grade", "label (edit the rubric above)",
        "guideline: what the grade means (edit here)", "examples, one per line (edit here)"]


def test_below_the_levels_the_dropdowns_other_words_and_what_they_are(
        book: Path, tmp_path: Path) -> None:
    """unknown and unrateable, and beside them what the list is for: a note
    once written after its row was left, which the sheet, written in
    constant memory, dropped (in .ods too); the levels top-aligned as their
    guidelines are, so that a printed label sits by its own guideline."""
    import python_calamine

    rows = _rows(book)
    below = max(r for r, _ in rows.values()) + 1
    ws = openpyxl.load_workbook(book)[_SHEET]
    note = "the current-grade dropdown offers the grades above and unknown, unrateable"
    assert [[ws.cell(r, c).value for c in (1, 2, 3)] for r in (below, below + 1)] == [
        ["unknown", None, note], ["unrateable", None, None]]
    assert {ws.cell(r, c).alignment.vertical for r, _ in rows.values()
            for c in (1, 2, 3)} == {"top"}
    ods = tmp_path / "seed.ods"
    export_workbook(evaluate(seed_document()), ods)
    sheet = python_calamine.CalamineWorkbook.from_path(ods).get_sheet_by_name(_SHEET)
    assert sheet.to_python()[below - 1][:3] == ["unknown", "", note]


def test_guidelines_survive_a_save_and_reopen(book: Path) -> None:
    doc = read_workbook(book)
    assert doc.conventions.guidelines == EXAMPLE_CONVENTIONS.guidelines
    assert doc.conventions == EXAMPLE_CONVENTIONS
    assert not doc.audit


def _edit(src: Path, dst: Path, cells: dict[str, Any]) -> None:
    wb = openpyxl.load_workbook(src)
    for ref, value in cells.items():
        wb[_SHEET][ref].value = value
    wb.save(dst)


def test_guidelines_edited_in_the_sheet_are_taken_and_logged(book: Path,
                                                              tmp_path: Path) -> None:
    rows = _rows(book)
    two, zero = rows[2.0][0], rows[0.0][0]
    edited = tmp_path / "edited.xlsx"
    _edit(book, edited, {f"C{two}": "Supports most of it.",
                         f"E{two}": "a rounded figure\n\nthe year without the month",
                         f"C{zero}": None, f"E{zero}": None})
    doc = read_workbook(edited)
    g = doc.conventions.guidelines
    assert g.for_grade(2.0) == Guideline(2.0, "Supports most of it.",
                                         ("a rounded figure", "the year without the month"))
    assert g.for_grade(0.0) is None  # emptied in the sheet: no guideline
    assert g.for_grade(3.0) == EXAMPLE_CONVENTIONS.guidelines.for_grade(3.0)
    assert doc.conventions.rubric == EXAMPLE_CONVENTIONS.rubric
    got = [(e.who, e.query, e.source_id, e.before, e.after, e.note, e.origin) for e in doc.audit]
    dash = CONVENTION_ENTRY
    old0, old2 = (EXAMPLE_CONVENTIONS.guidelines.for_grade(v) for v in (0.0, 2.0))
    assert old0 is not None
    assert old2 is not None
    assert got == [
        (OUTSIDE_WHO, dash, dash, f"guideline for grade 0 = {old0.text}",
         "guideline for grade 0 = (none)", f"edited in {_SHEET}!C{zero}:E{zero}",
         OUTSIDE_ORIGIN),
        (OUTSIDE_WHO, dash, dash, f"guideline for grade 2 = {old2.text}",
         "guideline for grade 2 = Supports most of it. | examples: a rounded figure; the "
         "year without the month", f"edited in {_SHEET}!C{two}:E{two}", OUTSIDE_ORIGIN),
    ]
    # Saved again, the edited guidelines are the stored ones: no new entry.
    again = tmp_path / "again.xlsx"
    export_workbook(evaluate(doc), again)
    assert read_workbook(again).conventions.guidelines == g


def test_a_guideline_without_its_grade_is_refused_and_nothing_taken(book: Path,
                                                                     tmp_path: Path) -> None:
    row = _rows(book)[1.0][0]
    edited = tmp_path / "edited.xlsx"
    _edit(book, edited, {f"A{row}": "one", f"C{row}": "partly", "B8": 5})
    doc = read_workbook(edited)
    assert doc.conventions == EXAMPLE_CONVENTIONS  # neither the guideline nor k = 5
    assert not doc.audit

    found = reopened(doc)
    assert found is not None
    assert found.refused
    err = found.refused[0]
    assert isinstance(err, InputError)
    assert (err.sheet, err.line, err.column) == (_SHEET, row, "A/C/E (guidelines)")
    assert "the grade in column A is 'one'; a guideline needs its grade, a number" in err.problem


def test_a_workbook_written_before_guidelines_opens(book: Path, tmp_path: Path) -> None:
    def older(meta: dict[str, Any]) -> None:  # as written before the field was declared
        for key in ("conventions", "workbook_conventions"):
            del meta[key]["guidelines"]

    old = tmp_path / "old.xlsx"
    _tamper(book, old, older)
    wb = openpyxl.load_workbook(old)
    del wb.defined_names["guidelines"]  # nor had its sheet the cells
    wb.save(old)
    doc = read_workbook(old)
    assert doc.conventions.guidelines == Guidelines()
    assert doc.conventions.rubric == EXAMPLE_CONVENTIONS.rubric
    assert not doc.audit


@pytest.mark.parametrize(("value", "problem"), [
    ("none", "holds guidelines 'none' of the wrong type"),
    ([{"grade": 1, "description": "x"}], "holds guideline 0 is not a record"),
])
def test_damaged_guidelines_in_the_metadata_are_refused(book: Path, tmp_path: Path,
                                                        value: Any, problem: str) -> None:
    bad = tmp_path / "bad.xlsx"
    _tamper(book, bad, lambda m: m["conventions"].__setitem__("guidelines", value))
    with pytest.raises(InputError) as info:
        read_workbook(bad)
    assert info.value.sheet == SHEETS["metadata"]
    assert "field 'conventions'" in info.value.problem
    assert problem in info.value.problem
