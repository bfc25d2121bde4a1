"""What people added to an ``.ods`` workbook of ours, read by calamine so
that the next ``.ods`` save keeps it (:mod:`core.io.workbook.additions` does
the same for ``.xlsx`` with openpyxl, which cannot read OpenDocument).

Kept: each sheet the product did not write (its cells' values, hidden or
not) and the Candidates sheet's columns to the right of ours (from column
AB), each keyed by the candidate of its row (query and source id). calamine
gives values only, so a formula of theirs is kept as its last result and
their formats, widths, merged cells and comments are not read; each
workbook with additions says so in :attr:`Additions.not_carried`, and
names the Candidates cells holding a person's comment (:func:`_their_notes`).

Whether the file is ours is told by
:func:`core.io.workbook.reader.is_own_workbook` for both formats.
"""

from __future__ import annotations

import datetime
import re
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from core.errors import InputError
from core.io.calamine_book import calamine_book
from core.io.safety import check_ods, column_letters
from core.io.safety.parts import iter_events
from core.io.stop import LINES, Stopped, waited
from core.io.stop import check as check_stopped
from core.io.workbook.additions_types import (
    FIRST_ADDED_COLUMN,
    Additions,
    CandidateAdditions,
    CarriedSheet,
    Cell,
    RecordColumns,
    key_text,
    our_sheets,
    reasons_written,
)
from core.io.workbook.layout import GRADE_COLUMN, REASON_COLUMN, SHEETS
from core.io.workbook.record import file_headers
from core.io.workbook.record_columns import (
    header_columns,
    metadata_annotators,
    record_rows,
)
from core.model.grades import is_unknown_note

__all__ = ["read_ods_additions"]

#: What an .ods's additions lose on the next save, said once per workbook.
VALUES_ONLY = ("formulas, number formats, column widths, merged cells and comments in "
               "what was added to an .ods (kept as values)")


def _book(path: Path) -> tuple[Any, frozenset[str], str]:
    """The workbook opened by calamine, the sheets the product wrote and the
    name a person gave the Annotators sheet ("" when not renamed)."""
    if not zipfile.is_zipfile(path):
        raise InputError("this .ods is damaged (not a zip archive)", file=str(path),
                         hint="open it in LibreOffice and save it again")
    check = check_ods(path)  # size, zip and content.xml bombs, repeated cells: before calamine
    ours, renamed = our_sheets(check.sheets, check.names, file_headers(str(path)), str(path))
    # (its parse of the whole content, one call that cannot look at the stop,
    # beside a thread that does: a quit during an export over it waited)
    return waited(calamine_book, str(path)), ours, renamed


def _rows(book: Any, sheet: str) -> list[list[Any]]:
    return list(book.get_sheet_by_name(sheet).to_python(skip_empty_area=False))


def _record(book: Any, sheet: str, file: str) -> RecordColumns | None:
    """The record's columns (:func:`~core.io.workbook.record_columns.header_columns`):
    calamine parsed every sheet of the .ods when it opened it (4.5 s of a
    save's 7.2 s reading at 100,000 candidates: content.xml holds them
    all), so only their making into Python values is spared, 0.12 s, where
    the header row (as wide as the sheet's used area) names each column."""
    header = book.get_sheet_by_name(sheet).to_python(skip_empty_area=False, nrows=1)
    return header_columns(header[0] if header else None, len(header[0]) if header else 0,
                          record_rows(book, sheet, file), metadata_annotators(book, file))


@contextmanager
def _reading(path: Path) -> Iterator[None]:
    """calamine's failures (they vary) as one InputError naming the file."""
    try:
        yield
    except (InputError, Stopped):  # (stopped: not a failure, core.io.stop)
        raise
    except Exception as exc:
        raise InputError(f"the workbook cannot be read: {type(exc).__name__}: {exc}",
                         file=str(path), hint="open it in LibreOffice and save it again",
                         ) from exc


def _cell(row: int, col: int, value: Any) -> Cell | None:
    """A calamine value as a :class:`Cell` (None for an empty one)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return Cell(row, col, "b", value)
    if isinstance(value, (int, float)):
        return Cell(row, col, "n", float(value))
    if isinstance(value, (datetime.date, datetime.time, datetime.timedelta)):
        return Cell(row, col, "s", value.isoformat() if hasattr(value, "isoformat")
                    else str(value))
    return Cell(row, col, "s", str(value))


def _candidates(rows: list[list[Any]]) -> tuple[CandidateAdditions, list[str]]:
    out = CandidateAdditions()
    stray = []
    ours = bool(rows) and len(rows[0]) > REASON_COLUMN and reasons_written(rows[0][REASON_COLUMN])
    for r, row in enumerate(rows):
        if not r % LINES:
            check_stopped()  # a write stopped from another thread ends here (core.io.stop)
        key = None
        if r > 0 and len(row) > 1 and row[0] not in (None, "") and row[1] not in (None, ""):
            key = (key_text(row[0]), key_text(row[1]))
        for c in range(FIRST_ADDED_COLUMN + ours, len(row)):
            got = _cell(0, c - ours, row[c])  # (read as though the reason column were not there)
            if got is None:
                continue
            if r == 0:
                out.header.append(got)
            elif key is None:
                stray.append(f"row {r + 1} column {c + 1}")
            else:
                out.cells.setdefault(key, []).append(got)
    lost = [f"Candidates cells on rows of no candidate: {', '.join(stray[:3])}"
            + (f" and {len(stray) - 3} more" if len(stray) > 3 else "")] if stray else []
    return out, lost


def read_ods_additions(path: str | Path) -> Additions:
    """What a person added to the ``.ods`` of ours at ``path`` (see the
    module's text); an empty :class:`Additions` for a file that is not there.

    Raises
    ------
    InputError
        If the file cannot be read.
    """
    path = Path(path)
    out = Additions(str(path))
    if not path.is_file():
        return out
    with _reading(path):
        book, ours, out.annotators_name = _book(path)
        for meta in book.sheets_metadata:
            check_stopped()  # before each sheet (core.io.stop)
            name = meta.name
            if name == SHEETS["candidates"]:
                out.candidates, lost = _candidates(_rows(book, name))
                out.not_carried.extend(lost)
            elif name == (out.annotators_name or SHEETS["annotators"]):
                out.annotator_columns = _record(book, name, str(path))
            elif name not in ours:
                sheet = CarriedSheet(name, hidden="visible" not in str(meta.visible).lower())
                for r, row in enumerate(_rows(book, name)):
                    if not r % LINES:
                        check_stopped()
                    sheet.cells.extend(c for j, v in enumerate(row)
                                       if (c := _cell(r, j, v)) is not None)
                out.sheets.append(sheet)
    if out:
        out.not_carried.append(VALUES_ONLY)
    notes = _their_notes(path, SHEETS["candidates"])
    if notes:
        more = f" and {len(notes) - 3} more" if len(notes) > 3 else ""
        out.not_carried.append(
            f"comments on Candidates cells ({', '.join(notes[:3])}{more}; an .ods's comments "
            "are not read: copy them into a column of your own to keep them)")
    return out


_ANNOTATION = re.compile(rb"<office:annotation[\s>]")
_OURS = b"<dc:creator>NDCG Worksheet</dc:creator>"
_NS = {"table": "urn:oasis:names:tc:opendocument:xmlns:table:1.0",
       "office": "urn:oasis:names:tc:opendocument:xmlns:office:1.0",
       "text": "urn:oasis:names:tc:opendocument:xmlns:text:1.0",
       "dc": "http://purl.org/dc/elements/1.1/"}


def _tag(prefix: str, name: str) -> str:
    return f"{{{_NS[prefix]}}}{name}"


def _their_notes(path: Path, sheet: str) -> list[str]:
    """The cells of ``sheet`` holding a comment (an annotation) of a
    person's, as A1 references: calamine reads none, so the next save
    cannot keep them, and says so (a comment on the export's reason
    column, AB, as much as on B3). The export's own, on an unknown grade
    (:func:`~core.model.grades.is_unknown_note`), are not theirs. The
    content is parsed only where it holds annotations besides the
    export's."""
    with zipfile.ZipFile(path) as z:
        data = z.read("content.xml")
    if len(_ANNOTATION.findall(data)) == data.count(_OURS):
        return []
    import io

    out: list[str] = []
    inside, row, col, at = False, 0, 0, 0
    text: list[str] | None = None  # an annotation's paragraphs, within one
    rows, cols = _tag("table", "number-rows-repeated"), _tag("table", "number-columns-repeated")
    cells = {_tag("table", "table-cell"), _tag("table", "covered-table-cell")}
    for event, el in iter_events(io.BytesIO(data), ("start", "end"), file=str(path),
                                 part="content.xml"):
        if el.tag == _tag("table", "table"):
            inside = event == "start" and el.get(_tag("table", "name")) == sheet
        elif not inside:
            continue
        elif el.tag == _tag("table", "table-row"):
            if event == "start":
                col = 0
            else:
                row += int(el.get(rows, "1"))
        elif el.tag in cells:
            if event == "start":
                at = col
            else:
                col += int(el.get(cols, "1"))
        elif el.tag == _tag("office", "annotation"):
            if event == "start":
                text = []
            else:
                said = "\n".join(text or [])
                if not (column_letters(at + 1) == GRADE_COLUMN and is_unknown_note(said)):
                    out.append(f"{column_letters(at + 1)}{row + 1}")
                text = None
        elif event == "end" and text is not None and el.tag == _tag("text", "p"):
            text.append("".join(el.itertext()))
    return out
