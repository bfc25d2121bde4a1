"""A change of conventions says the same sentence wherever it was made: in
the window (its audit dock) and on the workbook's Conventions sheet (the
entries reopening writes, which the Audit sheet then holds). One entry per
convention field, worded from its declaration (:data:`FIELDS`: its label and
its value as :func:`~core.model.convention_log.field_changes` writes it): a
field of several cells (every cutoff, the gain rule with its table) is one
entry with its whole value, as the window says it.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.main import build_window
from app.models.audit import AuditColumn
from app.settings import Settings
from core.engine.evaluation import evaluate
from core.io.workbook import SHEETS, export_workbook, read_workbook
from core.model.conventions import FIELDS, ConventionField, Conventions, Gain, Rubric
from core.model.examples import seed_document
from core.model.guidelines import Guideline

_TABLE = ((0.0, 0.5), (3.0, 10.0))
_DESCRIBED = "Nothing of the claim is in the source."


def _other(f: ConventionField, c: Conventions) -> Any:
    """Another value of field ``f`` than ``c``'s, by its kind (None: it has no other)."""
    now = f.get(c)
    if f.kind == "choice":
        others = [v for v in f.choices() if v != now]
        return others[0] if others else None
    if f.kind == "flag":
        return not now
    if f.kind == "gain":
        return Gain.parse(",".join(f"{g:g}={v:g}" for g, v in _TABLE)).rule, _TABLE
    if f.kind == "cutoffs":
        return (7, *now[1:])
    if f.kind == "rubric":
        return Rubric.parse("0=none,1=some,2=most,3=all")
    if f.kind == "guidelines":
        return now.with_guideline(Guideline(0.0, _DESCRIBED, now.for_grade(0.0).examples))
    return "sklearn"  # the preset's text


def _range(wb: Any, name: str) -> list[int]:
    """The rows of the Conventions sheet's range ``name``."""
    ref = wb.defined_names[name].attr_text.split("!")[1].replace("$", "")
    top, bottom = ref.split(":")
    return list(range(int(top[1:]), int(bottom[1:]) + 1))


def _typed(wb: Any, f: ConventionField, value: Any) -> None:
    """``value`` typed into field ``f``'s cells, as a person would."""
    ws = wb[SHEETS["conventions"]]

    def cell(name: str) -> Any:
        return ws[wb.defined_names[name].attr_text.split("!")[1].replace("$", "")]

    if f.kind == "cutoffs":
        cell("cut_1").value = value[0]
    elif f.kind == "gain":
        cell(f.cell).value = value[0].value
        for row, (grade, gain) in zip(_range(wb, "gain_grades"), value[1], strict=False):
            ws[f"A{row}"].value, ws[f"B{row}"].value = grade, gain
    elif f.kind == "rubric":
        cell(f.cell).value = value.text
    elif f.kind == "guidelines":
        ws[f"C{_range(wb, 'guidelines')[0]}"].value = _DESCRIBED
    else:
        cell(f.cell).value = value if f.kind in ("flag", "text") else value.value


@pytest.fixture
def changed() -> tuple[Conventions, list[ConventionField]]:
    """The seed's conventions with every field that can change changed."""
    c = seed_document().conventions
    fields = [f for f in FIELDS if _other(f, c) is not None]
    for f in fields:
        c = f.set(c, _other(f, c))
    return c, fields


def test_the_dock_and_the_audit_sheet_say_the_same_sentences(
        qtbot: Any, tmp_path: Path, changed: tuple[Conventions, list[ConventionField]]) -> None:
    new, fields = changed
    book, edited, again = (tmp_path / n for n in ("seed.xlsx", "edited.xlsx", "again.xlsx"))
    export_workbook(evaluate(seed_document()), book)
    stored = seed_document().conventions
    # On the sheet: each field's cells typed, the workbook reopened and saved.
    wb = openpyxl.load_workbook(book)
    for f in fields:
        _typed(wb, f, f.get(new))
    wb.save(edited)
    doc = read_workbook(edited)
    assert doc.conventions == new
    export_workbook(evaluate(doc), again)
    rows = list(openpyxl.load_workbook(again)[SHEETS["audit"]].iter_rows(values_only=True))
    sheet = [(r[4], r[5]) for r in itertools.takewhile(any, rows[1:])]  # (the entries)
    # In the window: the same change made at once, read from the audit dock.
    Settings().reviewer = "tester"
    w = build_window(book)
    qtbot.addWidget(w)
    assert w.change_conventions(new) is None
    model = w.audit_model
    dock = [(model.index(r, AuditColumn.BEFORE).data(), model.index(r, AuditColumn.AFTER).data())
            for r in range(model.rowCount())]
    w.session.mark_saved()  # (closing asks nothing)
    assert dock == sheet
    # One entry per field (one per grade for the guidelines), said
    # "<label> = <value>" with the field's whole value.
    labels = [before.partition(" = ")[0] for before, _ in dock]
    assert labels == [f.label if f.kind != "guidelines" else "guideline for grade 0"
                      for f in fields]
    cutoffs = dock[[f.kind for f in fields].index("cutoffs")]
    assert cutoffs == ("cutoffs = 1, 2, all", "cutoffs = 7, 2, all")
    assert dock[0] == ("gain rule = linear", "gain rule = 0=0.5,3=10")
    assert stored != new
