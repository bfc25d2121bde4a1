"""A reshaped (transposed) sheet's places are the file's own, asked of the
table where each message is made: a respondent's word or a cell's text that
reads like a place (``row 12``, ``cell B2``) is said as the file holds it,
never rewritten, and the problems beside them name the sheet's true cells.
"""

from __future__ import annotations

from pathlib import Path
from tempfile import TemporaryDirectory

from hypothesis import Phase, event, given, settings
from hypothesis import strategies as st

from core.io.annotator import import_annotations
from core.io.annotator.detect import read_guessed
from core.io.annotator.overrides import guess_mapping
from core.io.annotator.report import LABEL, ImportReport
from core.io.safety import column_letters
from tests.sheetgen import Drawn, sheets, write_sheet
from tests.sheetimport import PROFILE
from tests.sheetimport import run_sheet as _run

#: Transposed sheets drawn with texts reading like places in their cells.
PLACE_SHEETS = 12


def _import(sheet: Drawn, suffix: str) -> ImportReport:
    """The report of the drawn sheet's import, who judged declared (the
    flag the generator gives)."""
    with TemporaryDirectory() as tmp:
        path = write_sheet(sheet, Path(tmp) / f"drawn{suffix}")
        who = sheet.flags[1].removeprefix("annotator=")
        mapping = guess_mapping(read_guessed(path), fields={"annotator": who})
        return import_annotations(path, mapping).report


@settings(PROFILE, max_examples=PLACE_SHEETS, phases=[Phase.generate])
@given(sheets(places=True), st.sampled_from([".csv", ".xlsx"]))
def test_a_reshaped_sheet_s_texts_are_said_as_it_holds_them(sheet: Drawn, suffix: str) -> None:
    """Each grade cell holding a text like ``row 3`` or ``cell B2`` (a
    workbook's ``=B2`` a formula) is reported at its own row and column,
    the text quoted as typed; the respondent named ``row N`` who submits
    twice is named so in each 'graded again' line, at the second
    submission's row, the first submission's row said as the file's (a
    rewrite of the finished texts said ``row 4 graded ...``: row N of the
    reshaped table is a respondent's row of the file); nothing else is
    reported (but the labels read), every other judgment imported. The command line's refusal
    of the labels names the first one's cell."""
    assert sheet.again is not None
    report = _import(sheet, suffix)
    header = sheet.rows[0]

    def name(c: int) -> str:
        return f"{column_letters(c + 1)} ({header[c]})"

    issues = {(i.row, i.column): i.problem for i in report.issues if i.kind != LABEL}
    labels = []
    for r, c, text in sheet.planted:
        problem = issues.pop((r, name(c)))
        formula = suffix == ".xlsx" and text.startswith("=")
        event("formula" if formula else "label")
        if not formula:
            labels.append((r, c))
        assert (problem.startswith(f"cell {column_letters(c + 1)}{r} holds the formula {text!r}")
                if formula else problem.startswith(f"label {text!r} is not in the rubric")), \
            problem
    who, first, second = sheet.again
    for c in range(len(header)):
        if (second, name(c)) not in issues:
            continue
        query, source = header[c].removesuffix("]").rsplit(" [", 1)
        problem = issues.pop((second, name(c)))
        assert problem.startswith(f"{who} graded {source!r} for {query!r} again (first on "
                                  f"row {first}); "), problem
    assert issues == {}, issues
    assert report.judgments_imported == sum(map(len, sheet.truth.values()))
    code, err, _, _ = _run(sheet, suffix)
    r, c = min(labels)
    at = f"line {r}" if suffix == ".csv" else f"sheet 'Sheet', row {r}"
    assert err.startswith(f"ndcg-worksheet: error: drawn{suffix}, {at}, column {name(c)!r}: "
                          "labels on no known scale and not in the rubric: "), err
    assert code == 2, err
