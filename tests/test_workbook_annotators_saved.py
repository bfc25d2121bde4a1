"""A save over a workbook of ours reads its Annotators record only when the
record may hold a reviewer's column (:mod:`core.io.workbook.record_columns`):
a record as it was written (sorted or not) is told by its header row, read
from the sheet's XML; a column inserted, one deleted and one inserted,
cells typed beside the record, a header renamed have its cells read, and
each save writes what reading every cell writes. The sheets calamine
reads are counted (no timing); the workbooks are edited through openpyxl
and through LibreOffice (UNO), in .xlsx and .ods."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
import python_calamine

from core.engine.evaluation import evaluate
from core.io.workbook import export_workbook, read_workbook, reopened
from core.model.document import Document
from tests.test_workbook_annotators import (
    HEADER,
    ROWS,
    SHEET,
    exported,
    sheet_values,
)


@pytest.fixture
def sheets_read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the sheets python-calamine is asked for every cell of,
    in order (a sheet's first row alone, ``nrows=1``, is not counted)."""
    read: list[str] = []
    real = python_calamine.CalamineWorkbook

    class Sheet:
        def __init__(self, sheet: Any, name: str) -> None:
            self._sheet, self._name = sheet, name

        def to_python(self, *args: Any, **kwargs: Any) -> Any:
            if kwargs.get("nrows") is None:
                read.append(self._name)
            return self._sheet.to_python(*args, **kwargs)

        def __getattr__(self, attr: str) -> Any:
            return getattr(self._sheet, attr)

    class Counted:
        def __init__(self, book: Any) -> None:
            self._book = book

        @classmethod
        def from_path(cls, path: str, *args: Any, **kwargs: Any) -> Counted:
            return cls(real.from_path(path, *args, **kwargs))

        def get_sheet_by_name(self, name: str) -> Sheet:
            return Sheet(self._book.get_sheet_by_name(name), name)

        def __getattr__(self, attr: str) -> Any:
            return getattr(self._book, attr)

        def __enter__(self) -> Counted:
            return self

        def __exit__(self, *exc: object) -> None:
            self._book.close()

    monkeypatch.setattr(python_calamine, "CalamineWorkbook", Counted)
    return read


def saved_over(path: Path, out: Path, read: list[str] | None = None,
               *, every_cell: bool = False) -> list[list[Any]]:
    """The record of a save over ``path`` (its document saved again, with
    what to keep of it) at ``out``; the sheets read by the save itself
    into ``read``; ``every_cell``: the record's header not read from its
    XML, so that every cell of it is (the way before the header was)."""
    from core.io.workbook import additions
    from core.io.workbook.additions import additions_to_keep

    ev = evaluate(read_workbook(path))
    if read is not None:
        read.clear()
    with pytest.MonkeyPatch.context() as mp:
        if every_cell:
            mp.setattr(additions, "read_header", lambda *_args: None)
        export_workbook(ev, out, keep=additions_to_keep(path))
    taken = list(read or ())
    values = sheet_values(out)
    if read is not None:
        read[:] = taken  # (the saved record's reading above is not the save's)
    return values


def _untouched(ws: Any) -> None:
    pass


def _sorted(ws: Any) -> None:
    data = [[c.value for c in row] for row in ws.iter_rows(min_row=2, max_row=5)]
    for r, row in enumerate(data[::-1], start=2):
        for c, v in enumerate(row, start=1):
            ws.cell(r, c).value = v


def _inserted(ws: Any) -> None:
    ws.insert_cols(4)
    ws["D1"], ws["D2"] = "my note", "check d1"


def _deleted_and_inserted(ws: Any) -> None:
    ws.delete_cols(4)  # bob's
    ws.insert_cols(3)
    ws["C1"], ws["C3"] = "my note", "ask bob"


def _beside(ws: Any) -> None:
    ws["H3"] = "looks fine"  # no header, a column after the spread's


def _renamed(ws: Any) -> None:
    ws["C1"] = "alice (checked)"


#: Each edit, whether the save reads the record's cells, and the record saved.
EDITS: dict[str, tuple[Callable[[Any], None], bool, list[list[Any]]]] = {
    "untouched": (_untouched, False, [HEADER, *ROWS]),
    "sorted": (_sorted, False, [HEADER, *ROWS]),
    "inserted": (_inserted, True, [[*HEADER, "my note"], [*ROWS[0], "check d1"],
                                   *([*r, ""] for r in ROWS[1:])]),
    "deleted and inserted": (_deleted_and_inserted, True, [
        [*HEADER, "my note"], [*ROWS[0], ""], [*ROWS[1], "ask bob"],
        *([*r, ""] for r in ROWS[2:])]),
    "typed beside": (_beside, True, [[*HEADER, ""], [*ROWS[0], ""], [*ROWS[1], "looks fine"],
                                     *([*r, ""] for r in ROWS[2:])]),
    "header renamed": (_renamed, True, [
        [*HEADER, "alice (checked)"], *([*r, r[2]] for r in ROWS)]),
}


@pytest.fixture
def book(tmp_path: Path) -> tuple[Document, Path]:
    return exported(tmp_path)


@pytest.mark.parametrize("kind", list(EDITS))
def test_the_record_is_read_only_when_it_may_hold_a_reviewers_column(
        tmp_path: Path, book: tuple[Document, Path], sheets_read: list[str],
        kind: str) -> None:
    """Edited through openpyxl (shared strings, as a spreadsheet program
    saves): a record as written, sorted or not, is not read by the save
    (was: every cell of it, at each save: 1.4 s of a 100,000 candidates'
    workbook); each edit that may have added a column has it read, and the
    save writes what reading every cell writes."""
    _, out = book
    edit, reads, expected = EDITS[kind]
    edited = tmp_path / "edited.xlsx"
    wb = openpyxl.load_workbook(out)
    edit(wb[SHEET])
    wb.save(edited)
    assert saved_over(edited, tmp_path / "saved.xlsx", sheets_read) == expected
    assert sheets_read.count(SHEET) == int(reads), sheets_read
    assert saved_over(edited, tmp_path / "every.xlsx", every_cell=True) == expected


def test_a_record_of_ours_saved_again_is_not_read(
        tmp_path: Path, book: tuple[Document, Path], sheets_read: list[str]) -> None:
    """Our own export (inline strings), saved over twice: the record is
    never read by the saves, and stays as written."""
    _, out = book
    again = tmp_path / "again.xlsx"
    assert saved_over(out, again, sheets_read) == [HEADER, *ROWS]
    assert SHEET not in sheets_read
    assert saved_over(again, again, sheets_read) == [HEADER, *ROWS]
    assert SHEET not in sheets_read
    assert reopened(read_workbook(again)).empty


def _parsed_by_openpyxl(path: Path) -> int:
    """How often ``read_additions`` of ``path`` has openpyxl parse it."""
    from core.io.workbook.additions import read_additions

    loads: list[Any] = []
    real = openpyxl.load_workbook
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(openpyxl, "load_workbook",
                   lambda *args, **kwargs: loads.append(args) or real(*args, **kwargs))
        read_additions(path)
    return len(loads)


#: The same edits made in LibreOffice (UNO): (edits, whether the record is read).
LO_EDITS: dict[str, tuple[list[dict[str, Any]], bool]] = {
    "untouched": ([], False),
    "sorted": ([{"op": "sort", "sheet": SHEET, "range": "A1:F5", "column": 1,
                 "descending": True}], False),
    "inserted": ([{"op": "insert_column", "sheet": SHEET, "column": 3},
                  {"op": "set", "sheet": SHEET, "cell": "D1", "value": "my note"},
                  {"op": "set", "sheet": SHEET, "cell": "D2", "value": "check d1"}], True),
    "deleted and inserted": ([{"op": "delete_column", "sheet": SHEET, "column": 3},
                              {"op": "insert_column", "sheet": SHEET, "column": 2},
                              {"op": "set", "sheet": SHEET, "cell": "C1", "value": "my note"},
                              {"op": "set", "sheet": SHEET, "cell": "C3", "value": "ask bob"}],
                             True),
    "typed beside": ([{"op": "set", "sheet": SHEET, "cell": "H3", "value": "looks fine"}],
                     True),
    "header renamed": ([{"op": "set", "sheet": SHEET, "cell": "C1",
                         "value": "alice (checked)"}], True),
}


def _lo_jobs(tmp_path: Path, sources: list[Path]) -> Iterator[tuple[Path, Path, list[Any]]]:
    for src in sources:
        for k, (edits, _) in enumerate(LO_EDITS.values()):
            yield src, tmp_path / "lo" / f"{k}-{src.stem}{src.suffix}", edits


@pytest.mark.libreoffice
def test_libreoffice_edits_of_the_record_are_kept_or_said_as_before(
        tmp_path: Path, book: tuple[Document, Path], sheets_read: list[str]) -> None:
    """Each edit made in LibreOffice and saved as .xlsx and as .ods: the
    save over it writes the record as reading every cell writes it (the
    reviewer's column after the record's, on its candidates' rows), and
    the reopen says the same; an untouched or sorted record is not read
    by the save (in .ods, not made into Python values: calamine parsed
    all of content.xml when it opened it), the others are; in .xlsx,
    openpyxl parses none of them: LibreOffice writes the record's disagreement colour as the
    background of a solid fill, which shows its foreground alone (was:
    taken for a person's colour, every sheet parsed: 20-50 s at 100,000
    candidates)."""
    from tests.libreoffice import edit

    doc, xlsx = book
    ods = tmp_path / "book.ods"
    export_workbook(evaluate(doc), ods)
    (tmp_path / "lo").mkdir()
    jobs = list(_lo_jobs(tmp_path, [xlsx, ods]))
    edit(jobs)
    for (_, path, _), (kind, (_, reads)) in zip(jobs, [*LO_EDITS.items()] * 2, strict=True):
        expected = EDITS[kind][2]
        saved = tmp_path / f"saved-{path.name}"
        assert saved_over(path, saved, sheets_read) == expected, (kind, path)
        assert sheets_read.count(SHEET) == int(reads), (kind, path, sheets_read)
        if path.suffix == ".xlsx":
            assert _parsed_by_openpyxl(path) == 0, kind
        every = tmp_path / f"every-{path.name}"
        assert saved_over(path, every, every_cell=True) == expected, (kind, path)
        assert ([e.problem for e in reopened(read_workbook(saved)).not_read]
                == [e.problem for e in reopened(read_workbook(every)).not_read]), kind
