"""Reopening a workbook edited outside the app: conventions changed in the
Conventions sheet become the document's (each an audit entry from outside
the app, announced by ``reopened``), a value the app cannot take is refused
with its cell and the stored conventions stay; and the app's own metadata is
checked field by field, a tampered file refused naming the field."""

from __future__ import annotations

import io
import itertools
import json
import math
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from core.engine.evaluation import evaluate
from core.errors import InputError, NotOwnWorkbook
from core.io.load import load_document
from core.io.workbook import (
    CONVENTION_ENTRY,
    OUTSIDE_ORIGIN,
    OUTSIDE_WHO,
    SHEETS,
    export_workbook,
    read_workbook,
    reopened,
)
from core.model.conventions import Gain
from core.model.document import GradeState
from core.model.examples import seed_document
from tests.test_workbook_export import _assert_same_document, _edited_document


@pytest.fixture(scope="module")
def seed_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seed's workbook, as exported (the tests edit copies of it)."""
    path = tmp_path_factory.mktemp("seed") / "seed.xlsx"
    export_workbook(evaluate(seed_document()), path)
    return path


def _names(wb: Any) -> dict[str, str]:
    return {n: d.attr_text.split("!")[1].replace("$", "") for n, d in wb.defined_names.items()
            if ":" not in d.attr_text}


def _edit(src: Path, dst: Path, values: dict[str, Any], cells: dict[str, Any] | None = None,
          ) -> None:
    """Named Conventions cells (and other Conventions cells) set as a person would."""
    wb = openpyxl.load_workbook(src)
    ws = wb[SHEETS["conventions"]]
    names = _names(wb)
    for name, value in {**values, **(cells or {})}.items():
        ws[names.get(name, name)].value = value
    wb.save(dst)


def test_edited_conventions_are_taken_and_logged(seed_book: Path, tmp_path: Path) -> None:
    edited = tmp_path / "edited.xlsx"
    _edit(seed_book, edited, {"cut_1": 5, "gain_rule": "Exponential", "negative_gain_zero": True,
                              "judgment_version": "round 2"})
    before = edited.read_bytes()
    doc = read_workbook(edited)
    assert edited.read_bytes() == before
    conv = doc.conventions
    assert conv.cutoffs == (5, 2, None)
    assert conv.gain == Gain(Gain.parse("exponential").rule, negative_as_zero=True)
    assert doc.judgment_version == "round 2"
    assert conv.rubric == seed_document().conventions.rubric  # untouched
    got = [(e.who, e.query, e.source_id, e.before, e.after, e.note, e.origin) for e in doc.audit]
    dash = CONVENTION_ENTRY
    assert got == [
        (OUTSIDE_WHO, dash, dash, "gain rule = linear", "gain rule = exponential",
         "edited in Conventions!B4", OUTSIDE_ORIGIN),
        (OUTSIDE_WHO, dash, dash, "negative gains count as 0 = FALSE",
         "negative gains count as 0 = TRUE", "edited in Conventions!B5", OUTSIDE_ORIGIN),
        (OUTSIDE_WHO, dash, dash, "cutoffs = 1, 2, all", "cutoffs = 5, 2, all",
         "edited in Conventions!B8", OUTSIDE_ORIGIN),
        (OUTSIDE_WHO, dash, dash, "judgment version = seed-cases-v1",
         "judgment version = round 2", "edited in Conventions!B21", OUTSIDE_ORIGIN),
    ]
    found = reopened(doc)
    assert found is not None
    assert found.conventions == tuple(doc.audit)
    assert not found.refused
    assert not found.grades
    assert "cutoffs = 1, 2, all \u2192 5, 2, all (edited in Conventions!B8)" in found.message
    # The numbers the app computes are those of the edited conventions:
    # case-A at k = 5 with exponential gain, hand-derived.
    ev = evaluate(doc)
    a = doc.query_index("case-A")
    dcg = 1 + 7 / math.log2(3)
    ideal = 7 + 1 / math.log2(3)
    assert ev.ndcg[a, 0] == pytest.approx(dcg / ideal, abs=1e-15)


def test_the_command_line_evaluates_the_edited_conventions(seed_book: Path,
                                                           tmp_path: Path) -> None:
    edited = tmp_path / "edited.xlsx"
    _edit(seed_book, edited, {"cut_1": 3, "cut_2": "all", "cut_3": 1})
    out = io.StringIO()
    assert main(["evaluate", str(edited), "--format", "json"], out=out) == 0
    report = json.loads(out.getvalue())
    assert report["conventions"]["cutoffs"] == ["3", "all", "1"]
    assert load_document(edited).conventions.cutoffs == (3, None, 1)


def test_grades_and_conventions_edited_together(seed_book: Path, tmp_path: Path) -> None:
    edited = tmp_path / "edited.xlsx"
    wb = openpyxl.load_workbook(seed_book)
    wb[SHEETS["conventions"]][_names(wb)["unknown_rule"]].value = "zero"
    wb[SHEETS["candidates"]]["F2"].value = 3  # case-A/B: 1 -> 3
    wb.save(edited)
    doc = read_workbook(edited)
    assert doc.conventions.unknown.value == "zero"
    assert [(e.query, e.before, e.after) for e in doc.audit] == [
        (CONVENTION_ENTRY, "unknown grades = unresolved", "unknown grades = zero"),
        ("case-A", "1", "3"),
    ]
    found = reopened(doc)
    assert found is not None
    assert len(found.conventions) == 1
    assert len(found.grades) == 1
    # Saved by the app and reopened: nothing is new any more.
    again = tmp_path / "again.xlsx"
    export_workbook(evaluate(doc), again)
    back = read_workbook(again)
    _assert_same_document(back, doc)
    found = reopened(back)
    assert found is not None
    assert found.empty
    assert found.message == ""
    # The Audit sheet shows the convention's entry as it shows a grade's.
    rows = list(openpyxl.load_workbook(again)[SHEETS["audit"]].iter_rows(values_only=True))
    assert rows[1][2:6] == (CONVENTION_ENTRY, CONVENTION_ENTRY, "unknown grades = unresolved",
                            "unknown grades = zero")
    # A workbook says when it was saved, not when a cell was edited: the time
    # of each edit is when reopening saw it, and the Audit sheet says so.
    for row, entry in zip(rows[1:3], doc.audit, strict=True):
        assert row[1] == f"seen on reopening, {entry.when}"
        assert row[7] == OUTSIDE_ORIGIN
    assert back.audit[1].when == doc.audit[1].when  # the stamp itself stays ISO 8601


def test_a_gain_table_typed_into_the_sheet(seed_book: Path, tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(seed_book)
    first = wb.defined_names["gain_grades"].attr_text.split("!")[1].split(":")[0]
    row = int(first.replace("$", "")[1:])
    edited = tmp_path / "edited.xlsx"
    _edit(seed_book, edited, {"gain_rule": "table"},
          {f"A{row}": 3, f"B{row}": 10, f"A{row + 2}": 1, f"B{row + 2}": 2.5})
    doc = read_workbook(edited)
    assert doc.conventions.gain == Gain.parse("1=2.5,3=10")
    # One entry, the rule with its table, as the window says it (its note
    # names the rule's cell and the table's rows).
    (entry,) = doc.audit
    assert (entry.before, entry.after) == ("gain rule = linear", "gain rule = 1=2.5,3=10")
    last = row + 9  # (the table's ten rows)
    assert entry.note == (f"edited in Conventions!B4, Conventions!A{row}:A{last}, "
                          f"Conventions!B{row}:B{last}")
    # A row with a grade and no gain is refused at its row.
    _edit(seed_book, edited, {"gain_rule": "table"}, {f"A{row}": 3, f"A{row + 1}": 1,
                                                      f"B{row + 1}": 2})
    found = reopened(read_workbook(edited))
    assert found is not None
    (err,) = found.refused
    assert (err.line, err.column) == (row, "A/B (gain table)")
    assert "grade '3' and gain an empty cell" in err.problem


@pytest.mark.parametrize(("values", "column", "problem"), [
    ({"cut_1": -1}, "B (cutoff 1 (k))", "k = -1 is not a whole number of at least 1"),
    ({"cut_2": 2.5}, "B (cutoff 2 (k))", "k = 2.5 is not a whole number"),
    ({"cut_2": "5"}, "B (cutoff 2 (k))", "k is the text '5', which the formulas read as all"),
    ({"cut_3": None}, "B (cutoff 3 (k))", "an empty cell is not a whole number"),
    ({"cut_3": 2}, "B (cutoff 3 (k))", "k = 2 is already cutoff 2"),
    ({"gain_rule": "quadratic"}, "B (gain rule)", "'quadratic' is not one of linear, "
                                                  "exponential, table"),
    ({"gain_rule": "linear "}, "B (gain rule)", "'linear ' is not one of"),
    ({"gain_rule": "table"}, "A/B (gain table)", "the gain table is empty"),
    ({"tie_rule": 3}, "B (ties)", "'3' is not one of supplied, average"),
    ({"negative_gain_zero": "yes"}, "B (negative gains count as 0)",
     "'yes' is not TRUE or FALSE"),
    ({"rubric_text": "a,b"}, "B (rubric)", "does not start with a number"),
])
def test_a_value_the_app_cannot_take_is_refused_with_its_cell(
        seed_book: Path, tmp_path: Path, values: dict[str, Any], column: str,
        problem: str) -> None:
    edited = tmp_path / "edited.xlsx"
    # A valid change beside the bad one is not taken either: all or nothing.
    _edit(seed_book, edited, {"zero_ideal_rule": "zero", **values})
    before = edited.read_bytes()
    doc = read_workbook(edited)
    assert edited.read_bytes() == before
    assert doc.conventions == seed_document().conventions
    assert doc.audit == []
    found = reopened(doc)
    assert found is not None
    (err,) = found.refused
    assert isinstance(err, InputError)
    assert (err.sheet, err.column) == (SHEETS["conventions"], column)
    wb = openpyxl.load_workbook(edited)
    where = (wb.defined_names["gain_grades"].attr_text.split("!")[1].split(":")[0]
             if "gain table" in problem else _names(wb)[next(iter(values))])
    assert err.line == int(where.replace("$", "")[1:])
    assert problem in err.problem
    assert str(err.file) == str(edited)
    assert "stored with the workbook are kept" in found.message
    assert f"row {err.line}, column {column}: " in found.message


def test_a_gain_rule_the_grades_cannot_take_is_refused(tmp_path: Path) -> None:
    doc = seed_document()
    doc.set_grade(0, -1.0, who="ann")
    path = tmp_path / "neg.xlsx"
    export_workbook(evaluate(doc), path)
    edited = tmp_path / "edited.xlsx"
    _edit(path, edited, {"gain_rule": "exponential"})
    back = read_workbook(edited)
    assert back.conventions.gain.rule.value == "linear"
    found = reopened(back)
    assert found is not None
    (err,) = found.refused
    assert err.column == "B (gain rule)"
    assert "cannot take the negative grade -1 of source 'B'" in err.problem
    evaluate(back)  # the document reopens under conventions that take its grades


def test_a_deleted_conventions_sheet_keeps_the_stored_conventions(seed_book: Path,
                                                                  tmp_path: Path) -> None:
    wb = openpyxl.load_workbook(seed_book)
    del wb[SHEETS["conventions"]]
    edited = tmp_path / "edited.xlsx"
    wb.save(edited)
    doc = read_workbook(edited)
    assert doc.conventions == seed_document().conventions
    found = reopened(doc)
    assert found is not None
    assert "has no 'Conventions' sheet" in found.refused[0].problem or (
        "no Conventions sheet" in found.refused[0].problem)


# -- the metadata, field by field (issue 18) --------------------------------------------------
def _meta(path: Path) -> tuple[Any, dict[str, Any]]:
    wb = openpyxl.load_workbook(path)
    ws = wb[SHEETS["metadata"]]
    text = "".join(str(ws.cell(r, 1).value) for r in range(2, 2 + int(ws["B1"].value)))
    return wb, json.loads(text)


def _tamper(src: Path, dst: Path, change: Any) -> None:
    wb, meta = _meta(src)
    change(meta)
    ws = wb[SHEETS["metadata"]]
    text = json.dumps(meta).replace("_x", "\\u005fx")
    for r in range(2, ws.max_row + 1):
        ws.cell(r, 1).value = None
    ws["B1"].value = "1"
    ws["A2"].value = text
    wb.save(dst)


def _set(key: str, value: Any) -> Any:
    return lambda meta: meta.__setitem__(key, value)


def _item(key: str, i: int, value: Any) -> Any:
    return lambda meta: meta[key].__setitem__(i, value)


TAMPERED = [
    ("original state 5", _item("original_state", 3, 5), "original_state",
     "item 3 is 5, not a grade state"),
    ("state as text", _item("state", 0, "0"), "state", "item 0 is '0', not a grade state"),
    ("infinite original grade", _item("original_grade", 2, math.inf), "original_grade",
     "item 2 is inf, not a finite number"),
    ("grade without a number state", _item("grade", 21, 2.0), "grade",
     "a grade is a number exactly when its state is 0"),
    ("annotators without their grades", _set("annotators", ["ann", "bob"]), "ratings",
     "missing for the 2 annotators"),
    ("ratings of another shape", lambda m: (m.__setitem__("annotators", ["ann"]),
                                            m.__setitem__("ratings_shape", [23, 2]),
                                            m.__setitem__("ratings", [[1.0, 2.0]] * 23)),
     "ratings_shape", "is [23, 2], not [23, 1]"),
    ("an unrateable mark on a grade given", lambda m: (
        m.__setitem__("annotators", ["ann"]), m.__setitem__("ratings_shape", [23, 1]),
        m.__setitem__("ratings", [[1.0]] * 23), m.__setitem__("unrateable_ratings", [[0, 0]])),
     "unrateable_ratings", "holds [0, 0], not a [candidate, annotator] pair of a grade"),
    ("an unrateable mark past the annotators", lambda m: (
        m.__setitem__("annotators", ["ann"]), m.__setitem__("ratings_shape", [23, 1]),
        m.__setitem__("ratings", [[None]] * 23), m.__setitem__("unrateable_ratings", [[0, 1]])),
     "unrateable_ratings", "holds [0, 1], not a [candidate, annotator] pair"),
    ("a mark's word not a text", lambda m: (
        m.__setitem__("annotators", ["ann"]), m.__setitem__("ratings_shape", [23, 1]),
        m.__setitem__("ratings", [[None]] * 23), m.__setitem__("unrateable_ratings", [[0, 0]]),
        m.__setitem__("unrateable_words", [0])),
     "unrateable_words", "holds 0, not a mark's text"),
    ("a mark's word missing", lambda m: (
        m.__setitem__("annotators", ["ann"]), m.__setitem__("ratings_shape", [23, 1]),
        m.__setitem__("ratings", [[None]] * 23), m.__setitem__("unrateable_ratings", [[0, 0]]),
        m.__setitem__("unrateable_words", [])),
     "unrateable_words", "holds 0 values, not 1"),
    ("a query+source pair twice", _item("source_id", 1, "B"), "source_id",
     "lists source 'B' of query 'case-A' twice"),
    ("k given as a string", lambda m: m["workbook_conventions"].__setitem__("cutoffs", "12"),
     "workbook_conventions", "holds cutoffs '12'"),
    ("k given as a number", lambda m: m["conventions"].__setitem__("cutoffs", [1, 2]),
     "conventions", "holds cutoffs [1, 2]"),
    ("an unknown tie rule", lambda m: m["conventions"].__setitem__("ties", "random"),
     "conventions", "is not readable"),
    ("a boolean as text", lambda m: m["conventions"].__setitem__("truncate_grades", "no"),
     "conventions", "holds truncate_grades 'no' of the wrong type"),
    ("a query number out of range", _item("query", 0, 99), "query",
     "item 0 is 99, not a query number from 0 to 7"),
    ("a column too short", lambda m: m["note"].pop(), "note", "holds 22 values, not 23"),
    ("sheet rows repeated", _item("sheet_rows", 0, 1), "sheet_rows", "names a row twice"),
    ("an audit entry of 3 fields", _set("audit", [["a", "b", "c"]]), "audit",
     "entry 0 is not 8 texts"),
    ("an audit entry's seconds below 0", _set("audit", [["a"] * 8 + [-3.0]]), "audit",
     "the seconds it took (a number, 0 or more, or null)"),
    ("an audit entry's convention as text", _set("audit", [["a"] * 8 + [None, "yes"]]),
     "audit", "and whether it changed a convention (true or false)"),
    ("an audit entry's seconds as text", _set("audit", [["a"] * 8 + ["12"]]), "audit",
     "entry 0 is not 8 texts"),
    ("a missing field", lambda m: m.pop("frequency"), "frequency", "is missing"),
    ("weights of the wrong length", _set("importance", [1.0]), "importance",
     "holds 1 values, not 8"),
    ("a name that is not text", _set("name", 7), "name", "is 7, not text"),
    ("a query id twice", _item("query_ids", 1, "case-A"), "query_ids", "names a query twice"),
]


@pytest.mark.parametrize(("what", "change", "field", "problem"), TAMPERED,
                         ids=[t[0] for t in TAMPERED])
def test_tampered_metadata_is_refused_naming_the_field(
        seed_book: Path, tmp_path: Path, what: str, change: Any, field: str,
        problem: str) -> None:
    bad = tmp_path / "tampered.xlsx"
    _tamper(seed_book, bad, change)
    before = bad.read_bytes()
    with pytest.raises(InputError) as info:
        read_workbook(bad)
    err = info.value
    assert not isinstance(err, NotOwnWorkbook), what  # ours, damaged: not an annotators' sheet
    assert err.sheet == SHEETS["metadata"]
    assert f"field {field!r}" in err.problem, (what, err.problem)
    assert problem in err.problem, (what, err.problem)
    assert bad.read_bytes() == before
    with pytest.raises(InputError, match=f"field {field!r}"):
        load_document(bad)  # the window's and the command line's way in


def test_untouched_metadata_with_every_field_in_use_passes(tmp_path: Path) -> None:
    doc = _edited_document()  # annotators, ratings, audit, notes, reasons, a rubric
    path = tmp_path / "full.xlsx"
    export_workbook(evaluate(doc), path)
    redone = tmp_path / "redone.xlsx"
    _tamper(path, redone, lambda meta: None)  # read and written back unchanged
    _assert_same_document(read_workbook(redone), doc)
    assert doc.state[3] == GradeState.UNRATEABLE


def test_a_session_journal_replays_over_a_workbook_edited_outside(seed_book: Path,
                                                                   tmp_path: Path) -> None:
    # The reopening's entries come from the file, the session's from the
    # journal: replayed over the file read again, both are there, once each.
    from core.io.journal import Journal
    from core.model.edits import GradeValue, SetGrades
    from core.session import Worksheet

    edited = tmp_path / "edited.xlsx"
    _edit(seed_book, edited, {"cut_2": 3})
    doc = read_workbook(edited)
    session = Worksheet(doc)
    journal = Journal(edited, directory=tmp_path / "journal")
    session.subscribe(lambda changes: journal.record(session.document, changes))
    session.apply(SetGrades.of([0], [GradeValue(2.0, GradeState.NUMBER)], who="ana"))
    fresh = read_workbook(edited)
    assert journal.replay(fresh).applied == 1
    assert [(e.query, e.before, e.after) for e in fresh.audit] == [
        (CONVENTION_ENTRY, "cutoffs = 1, 2, all", "cutoffs = 1, 3, all"), ("case-A", "1", "2")]
    assert fresh.conventions.cutoffs == (1, 3, None)
    assert fresh.grade[0] == 2.0


@pytest.mark.parametrize("name", [CONVENTION_ENTRY, "-"])
def test_a_grade_of_a_query_and_source_named_like_the_placeholder_is_a_grade(
        tmp_path: Path, qapp: Any, name: str) -> None:
    """A real query and source named ``—`` (or ``-``): its grade's entry is a
    grade's, a change of conventions is one, in the Report's sentence, on
    reopening, and alike in the Audit sheet and the window's audit log."""
    from app.models.audit import AuditColumn, AuditModel
    from app.models.roles import WHOLE_ROLE
    from core.model.choices import TieRule
    from core.model.document import Document
    from core.reports.sentences import audit_sentence

    doc = Document.from_columns(query=[name, name, "q"], source_id=[name, "b", "a"],
                                score=[2.0, 1.0, 1.0], grade=[1.0, 0.0, 2.0])
    doc.set_grade(0, 2.0, who="ana")
    doc.set_conventions(doc.conventions.replace(ties=TieRule.PESSIMISTIC), who="ana")
    assert [e.convention for e in doc.audit] == [False, True]
    said = "2 changes recorded: 1 of a grade, 1 of a convention (ties): see the Audit sheet."
    assert audit_sentence(doc.audit) == said
    book = tmp_path / "dash.xlsx"
    export_workbook(evaluate(doc), book)
    wb = openpyxl.load_workbook(book)
    report = [c for row in wb[SHEETS["report"]].iter_rows(values_only=True) for c in row]
    # (the entries: the rows down to the blank one above what the log covers)
    sheet = [row[:6] for row in itertools.takewhile(
        any, wb[SHEETS["audit"]].iter_rows(min_row=2, values_only=True))]
    assert said in report
    back = read_workbook(book)
    assert back.audit == doc.audit
    assert audit_sentence(back.audit) == said
    model = AuditModel()
    model.set_document(back)
    shown = [tuple(model.index(r, c).data(WHOLE_ROLE) for c in (
        AuditColumn.WHO, AuditColumn.WHEN, AuditColumn.QUERY, AuditColumn.SOURCE,
        AuditColumn.BEFORE, AuditColumn.AFTER)) for r in range(model.rowCount())]
    assert shown == sheet
    assert [row[2:4] for row in sheet] == [(name, name), (CONVENTION_ENTRY, CONVENTION_ENTRY)]


def test_an_audit_log_kept_before_entries_said_what_they_are_reads_as_it_did(
        seed_book: Path, tmp_path: Path) -> None:
    """Metadata written before an entry said it changed a convention (9
    fields): the placeholder query and source tell it, as they did."""
    old = tmp_path / "old.xlsx"
    rows = [["ana", "t", CONVENTION_ENTRY, CONVENTION_ENTRY, "ties = average",
             "ties = pessimistic", "", "app", None], ["ana", "t", "case-A", "B", "1", "2", "",
                                                      "app", 3.0]]
    _tamper(seed_book, old, _set("audit", rows))
    assert [e.convention for e in read_workbook(old).audit] == [True, False]


GRADE_HINT = ("use a number, a rubric label (0=no support,1=partial support,2=substantial "
              "support,3=direct support), blank/unknown or N/A")


@pytest.mark.parametrize(("typed", "problem"), [
    ("abc", "the current grade 'abc' is not a grade"),
    ("1,000", "the current grade '1,000' is not a grade: a thousands separator or a decimal "
              "comma; write 1000 or 1.000"),
    ("=1+1", "the current grade is a formula or an error value (such as #N/A); a grade must "
             "be typed in as a value"),
])
def test_a_current_grade_that_is_no_grade_is_refused_with_one_hint(
        seed_book: Path, tmp_path: Path, typed: str, problem: str) -> None:
    """A current grade typed in the spreadsheet that is no grade: the cell
    named (file, sheet, row, column), what is wrong, and one hint, the one
    the grid's paste gives (core.model.grades.grade_hint), the rubric's
    labels in it."""
    edited = tmp_path / "edited.xlsx"
    wb = openpyxl.load_workbook(seed_book)
    wb[SHEETS["candidates"]]["F3"].value = typed
    wb.save(edited)
    with pytest.raises(InputError) as info:
        read_workbook(edited)
    assert str(info.value) == (f"{edited}, sheet 'Candidates', row 3, column 'F (current "
                               f"grade)': {problem} ({GRADE_HINT})")


def _seen_once(seed_book: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
               ) -> tuple[Path, Path, Any]:
    """The seed's workbook with a cutoff edited in the spreadsheet, read once
    (the reopening's clock ticking from 21:00:10), its first sighting
    recorded: the workbook, the records' folder, the document read."""
    from core.io.first_seen import keep_first_seen

    ticks = iter(range(10, 20))
    monkeypatch.setattr("core.io.workbook.sheet_conventions.timestamp",
                        lambda: f"2026-12-06T21:00:{next(ticks)}+00:00")
    edited, folder = tmp_path / "edited.xlsx", tmp_path / "seen"
    _edit(seed_book, edited, {"cut_1": 5})
    doc = read_workbook(edited)
    assert keep_first_seen(doc, edited, directory=folder) == 0
    return edited, folder, doc


def test_an_edit_seen_on_an_earlier_reopening_keeps_its_time(
        seed_book: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """keep_first_seen: the second reading of an edited workbook gives the
    edit the first reading's time; a damaged record is read as none (the
    entries as found, no error); a workbook with no edit forgets it."""
    from core.io.first_seen import keep_first_seen

    edited, folder, first = _seen_once(seed_book, tmp_path, monkeypatch)
    again = read_workbook(edited)
    assert keep_first_seen(again, edited, directory=folder) == 1
    assert [e.when for e in again.audit] == ["2026-12-06T21:00:10+00:00"]
    found = reopened(again)
    assert found is not None
    assert found.conventions == tuple(first.audit)
    (record,) = folder.iterdir()
    record.write_text("[[1, 2", encoding="utf-8")
    damaged = read_workbook(edited)
    assert keep_first_seen(damaged, edited, directory=folder) == 0
    assert [e.when for e in damaged.audit] == ["2026-12-06T21:00:12+00:00"]
    assert keep_first_seen(read_workbook(seed_book), edited, directory=folder) == 0
    assert not record.exists()


@pytest.mark.parametrize("record", [
    '[["a", "b", "c", "d", "e", "f", "g", "h", [1]]]',  # a field no entry holds
    '[["a", "b", "c", "d", "e", "f", "g", "h", {"s": 1}]]',
    None,  # a folder where the record goes
])
def test_a_damaged_first_seen_record_is_read_as_none(
        seed_book: Path, tmp_path: Path, record: str | None) -> None:
    """A record of edits seen before that is not one (foreign, damaged, a
    folder) neither stops the reading nor raises: the entries are logged as
    found, and a reopening with no edit leaves the folder it cannot remove."""
    from core.io.first_seen import _record, keep_first_seen

    edited, folder = tmp_path / "edited.xlsx", tmp_path / "seen"
    _edit(seed_book, edited, {"cut_1": 5})
    path = _record(edited, folder)
    path.parent.mkdir()
    if record is None:
        path.mkdir()
    else:
        path.write_text(record, encoding="utf-8")
    doc = read_workbook(edited)
    found = [e.when for e in doc.audit]
    assert keep_first_seen(doc, edited, directory=folder) == 0
    assert [e.when for e in doc.audit] == found
    assert keep_first_seen(read_workbook(seed_book), edited, directory=folder) == 0
    assert path.exists() == (record is None)


def test_a_first_seen_record_outlived_by_a_save_gives_no_time(
        seed_book: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An edit seen on reopening, saved from the app, undone there and made
    again in the spreadsheet is a new edit: it takes the time this reopening
    sees it, not the first one's (which would stand before the app's undoing
    of it in the log)."""
    from dataclasses import replace

    from core.io.first_seen import keep_first_seen
    from core.model.audit import AuditEntry

    edited, folder, doc = _seen_once(seed_book, tmp_path, monkeypatch)
    (seen,) = doc.audit
    doc.conventions = replace(doc.conventions, cutoffs=(1, 2, None))
    doc.audit.append(AuditEntry.of_convention("tester", "2026-12-06T21:05:00+00:00",
                                              seen.after, seen.before))
    export_workbook(evaluate(doc), edited)
    _edit(edited, edited, {"cut_1": 5})
    again = read_workbook(edited)
    assert keep_first_seen(again, edited, directory=folder) == 0
    assert [e.when for e in again.audit] == [seen.when, "2026-12-06T21:05:00+00:00",
                                             "2026-12-06T21:00:11+00:00"]


def test_a_renamed_workbooks_first_seen_record_follows_it(
        seed_book: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A workbook renamed outside the app after a reopening recorded its
    edit: the next reopening under the new name gives the edit the first
    time seen (21:00:10, not 21:00:12: the record was keyed on the old path
    and left behind), and the folder holds its record alone. A copy (its
    original still there) takes no record; a record of a file deleted is
    removed on that look."""
    import shutil

    from core.io.first_seen import _record, keep_first_seen

    edited, folder, _ = _seen_once(seed_book, tmp_path, monkeypatch)
    other = tmp_path / "other.xlsx"
    _edit(seed_book, other, {"cut_1": 3})
    assert keep_first_seen(read_workbook(other), other, directory=folder) == 0
    other.unlink()
    copy = tmp_path / "copy.xlsx"
    shutil.copy(edited, copy)
    assert keep_first_seen(read_workbook(copy), copy, directory=folder) == 0
    assert sorted(folder.iterdir()) == sorted(_record(p, folder) for p in (edited, copy))
    copy.unlink()
    moved = tmp_path / "moved.xlsx"
    edited.rename(moved)
    doc = read_workbook(moved)
    assert keep_first_seen(doc, moved, directory=folder) == 1
    assert [e.when for e in doc.audit] == ["2026-12-06T21:00:10+00:00"]
    assert list(folder.iterdir()) == [_record(moved, folder)]
