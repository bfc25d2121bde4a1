"""Conventions edited in the Conventions sheet, taken back on reopening.

The sheet invites edits ("edit to recompute"), and the spreadsheet's numbers
follow them; so does the app: what the sheet holds becomes the document's
conventions, each change an audit entry made outside the app (query and
source ``—``, from and to ``<convention> = <value>``, the cell in the note).
A value the formulas would read differently from the app (k = -1, an unknown
gain rule, a k typed as text) is refused with its cell, and then nothing of
the sheet is taken: the conventions stored with the workbook stay.
"""

from __future__ import annotations

import math
import posixpath
import zipfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from core.errors import ConventionError, InputError
from core.io.safety import column_letters, parse_xml
from core.io.safety.limits import parse_ref
from core.io.workbook.conventions_sheet import EXAMPLES_COL
from core.io.workbook.kept_text import same_as_written
from core.io.workbook.layout import (
    CONVENTION_LABELS,
    OUTSIDE_ORIGIN,
    OUTSIDE_WHO,
    SHEETS,
    written_back,
)
from core.model.audit import AuditEntry, timestamp
from core.model.convention_log import field_changes, guideline_change, value_words
from core.model.conventions import (
    FIELDS,
    ConventionField,
    Conventions,
    Guideline,
    Guidelines,
    Rubric,
    format_cutoff,
)
from core.model.document import Document
from core.model.numbers import number_text

__all__ = ["SheetConventions", "defined_names", "read_sheet_conventions"]

_SHEET = SHEETS["conventions"]
_NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_KEEP = ("the conventions stored with the workbook are kept; correct the cell (or undo the "
         "edit) and open the file again")


@dataclass
class SheetConventions:
    """What the Conventions sheet holds, against what it was written with."""

    #: The conventions the document reopens under.
    conventions: Conventions
    #: One audit entry per convention (or name, or version) changed, in sheet order.
    entries: list[AuditEntry] = field(default_factory=list)
    judgment_version: str = ""
    name: str = ""
    #: Cells not taken, each naming its cell (then nothing was taken).
    refused: list[InputError] = field(default_factory=list)


#: The ranges read with a named range (the gain table's gains beside its grades).
_BESIDE = {"gain_grades": ("gain_values",)}


class _Refused(Exception):
    """A cell whose value the app will not take (``row``: a gain table's row)."""

    def __init__(self, problem: str, row: int | None = None) -> None:
        super().__init__(problem)
        self.row = row


def defined_names(path: Path, file: str) -> dict[str, str]:
    """The workbook's defined names (global ones): name -> ``Sheet!$B$7``."""
    with zipfile.ZipFile(path) as zf:
        root = parse_xml(zf.read("_rels/.rels"), file=file, part="_rels/.rels")
        book = next((r.get("Target", "") for r in root.iter(f"{_REL}Relationship")
                     if r.get("Type", "").endswith("/officeDocument")), "xl/workbook.xml")
        book = posixpath.normpath(book.lstrip("/"))
        xml = parse_xml(zf.read(book), file=file, part=book)
    return {d.get("name", ""): (d.text or "") for d in xml.iter(f"{_NS}definedName")
            if d.get("localSheetId") is None}


class _Cells:
    """The Conventions sheet's named cells: where each is and what it holds."""

    def __init__(self, cells: list[list[Any]], names: dict[str, str], file: str) -> None:
        self.cells, self.names, self.file = cells, names, file

    def where(self, name: str) -> tuple[int, int]:
        """(row, column), 1-based, of the cell named ``name`` on the sheet."""
        sheet, _, ref = self.names.get(name, "").rpartition("!")
        at = parse_ref(ref) if sheet.strip("'").replace("''", "'") == _SHEET else None
        if at is None:
            raise _Refused(f"the cell named {name} is no longer on the {_SHEET} sheet")
        return at

    def value(self, name: str) -> Any:
        row, col = self.where(name)
        line = self.cells[row - 1] if row <= len(self.cells) else []
        return line[col - 1] if col <= len(line) else ""

    def range(self, name: str) -> list[tuple[int, Any, Any]]:
        """(row, grade cell, gain cell) of each row of the gain table."""
        return [(row, cells[0], cells[1]) for row, cells in self.rows(name)]

    def rows(self, name: str) -> list[tuple[int, list[Any]]]:
        """(row, its cells from column A to E) of each row of range ``name``."""
        sheet, _, ref = self.names.get(name, "").rpartition("!")
        top, _, bottom = ref.partition(":")
        first, last = parse_ref(top), parse_ref(bottom)
        if sheet.strip("'") != _SHEET or first is None or last is None:
            raise _Refused(f"the cells named {name} are no longer on the {_SHEET} sheet")
        out = []
        for row in range(first[0], last[0] + 1):
            line = self.cells[row - 1] if row <= len(self.cells) else []
            out.append((row, [line[c] if c < len(line) else "" for c in range(EXAMPLES_COL + 1)]))
        return out

    def edited_in(self, names: list[str]) -> str:
        """The note of an entry made from the cells (or ranges) ``names``."""
        refs = []
        for name in [n for given in names for n in (given, *_BESIDE.get(given, ()))]:
            sheet, _, ref = self.names.get(name, "").rpartition("!")
            on_sheet = sheet.strip("'").replace("''", "'") == _SHEET
            refs.append(f"{_SHEET}!{ref.replace('$', '')}" if on_sheet and ref else _SHEET)
        return "edited in " + ", ".join(dict.fromkeys(refs) or [_SHEET])

    def refusal(self, name: str, label: str, problem: str) -> InputError:
        try:
            row, col = self.where(name)
        except _Refused:
            return InputError(problem, file=self.file, sheet=_SHEET, hint=_KEEP)
        return InputError(problem, file=self.file, sheet=_SHEET, line=row,
                          column=f"{column_letters(col)} ({label})", hint=_KEEP)


def _empty(value: Any) -> bool:
    return value is None or value == ""


def _choice(value: Any, kind: Any) -> Any:
    """A choice as the formulas compare it (text, regardless of case)."""
    if isinstance(value, str):
        for m in kind:
            if value.casefold() == m.value.casefold():
                return m
    choices = ", ".join(m.value for m in kind)
    raise _Refused(f"{_shown(value)} is not one of {choices}")


def _flag(value: Any) -> bool:
    """TRUE or FALSE (an empty cell is FALSE to a formula too)."""
    if isinstance(value, bool):
        return value
    if _empty(value):
        return False
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    raise _Refused(f"{_shown(value)} is not TRUE or FALSE")


def _cutoff(value: Any) -> int | None:
    """A whole number of at least 1, or the text all."""
    if isinstance(value, str) and value.strip().casefold() == "all":
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        if math.isfinite(value) and value == int(value) and value >= 1:
            return int(value)
        raise _Refused(f"k = {number_text(float(value))} is not a whole number of at least 1")
    if isinstance(value, str) and value.strip():
        raise _Refused(f"k is the text {value!r}, which the formulas read as all; type a "
                       "number or the word all")
    raise _Refused(f"{_shown(value)} is not a whole number of at least 1 or all")


def _text(value: Any) -> str:
    if isinstance(value, float | int) and not isinstance(value, bool):
        return number_text(float(value))
    return "" if _empty(value) else str(value)


def _shown(value: Any) -> str:
    if _empty(value):
        return "an empty cell"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return repr(_text(value))


def _rubric(value: Any) -> Rubric | None:
    if _empty(value):
        return None
    try:
        return Rubric.parse(_text(value))
    except ConventionError as exc:
        raise _Refused(str(exc)) from None


def _reader(f: ConventionField) -> Any:
    """How the cell of field ``f`` is read, by its kind."""
    if f.kind in ("choice", "gain"):  # the gain's cell holds its rule
        return lambda v: _choice(v, f.choices())
    if f.kind == "flag":
        return _flag
    if f.kind == "rubric":
        return _rubric
    return lambda v: _text(v) or None


def _fields(stored: Conventions) -> dict[str, tuple[str, Any]]:
    """Each named cell in sheet order (:data:`FIELDS`, then the document's
    version and name): its label and how its value is read."""
    fields: dict[str, tuple[str, Any]] = {}
    for f in FIELDS:
        if f.kind == "guidelines":  # no named cell: read by _guidelines
            continue
        if f.kind == "cutoffs":
            for j in range(1, len(stored.cutoffs) + 1):
                fields[f"cut_{j}"] = (f"cutoff {j} (k)", _cutoff)
        else:
            fields[f.cell] = (f.label, _reader(f))
    for name in ("judgment_version", "document_name"):
        fields[name] = (CONVENTION_LABELS[name], _text)
    return fields


def _cells_of(f: ConventionField, stored: Conventions) -> list[str]:
    """The named cells (and ranges) field ``f`` is read from, in sheet order."""
    if f.kind == "cutoffs":
        return [f"cut_{j}" for j in range(1, len(stored.cutoffs) + 1)]
    if f.kind == "gain":
        return [f.cell, "gain_grades"]
    return [f.cell]


def _as_written(stored: Conventions, doc: Document) -> dict[str, Any]:
    """What each named cell held when the workbook was written."""
    out: dict[str, Any] = {"judgment_version": doc.judgment_version,
                           "document_name": doc.name}
    for f in FIELDS:
        value = f.get(stored)
        if f.kind == "guidelines":
            continue
        if f.kind == "cutoffs":
            out.update({f"cut_{j}": k for j, k in enumerate(value, start=1)})
        elif f.kind == "gain":
            out[f.cell], out["gain_grades"] = value
        else:
            out[f.cell] = value
    return out


def _gain_table(sheet: _Cells) -> tuple[tuple[float, float], ...]:
    """The gain table's rows: grade and gain both numbers, or both empty."""
    pairs: dict[float, float] = {}
    for row, grade, gain in sheet.range("gain_grades"):
        if _empty(grade) and _empty(gain):
            continue
        ok = [isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
              for v in (grade, gain)]
        if not all(ok):
            raise _Refused(f"grade {_shown(grade)} and gain {_shown(gain)}: each row of the "
                           "table needs two numbers (or neither)", row)
        if float(grade) in pairs:
            raise _Refused(f"grade {number_text(float(grade))} is in the table twice; the "
                           "formulas would add its gains", row)
        pairs[float(grade)] = float(gain)
    if not pairs:
        raise _Refused("the gain rule is table, but the gain table is empty",
                       sheet.range("gain_grades")[0][0])
    return tuple(sorted(pairs.items()))


def _as_stored(read: tuple[tuple[float, float], ...], stored: Any,
               ) -> tuple[tuple[float, float], ...]:
    """The gain table as read, each row that is a stored row as a
    spreadsheet re-saves it (15 significant digits: LibreOffice writes the
    gain 0.7123456789012345 back as 0.712345678901235,
    :func:`~core.io.workbook.layout.written_back`) taken as the stored row:
    no edit logged, no digit lost. Without it a re-save in LibreOffice was
    read as the gain rule edited outside the app."""
    rows = [(g, v) for g, v in stored or ()]

    def stored_row(grade: float, gain: float) -> tuple[float, float]:
        return next(((g, v) for g, v in rows if written_back(grade, g)
                     and written_back(gain, v)), (grade, gain))

    return tuple(sorted(stored_row(g, v) for g, v in read))


@dataclass
class _Described:
    """The guidelines the rubric's list holds, and where each grade's row is."""

    guidelines: Guidelines
    rows: dict[float, int] = field(default_factory=dict)


def _guidelines(sheet: _Cells, stored: Guidelines) -> _Described:
    """``stored`` with the guideline of each grade listed in the rubric's
    list (the cells named ``guidelines``: grade in A, description in C,
    examples in E, one per line) as the list now holds it. A workbook
    written before guidelines were kept there has no such cells: ``stored``."""
    out = _Described(stored)
    if "guidelines" not in sheet.names:
        return out
    for row, line in sheet.rows("guidelines"):
        grade, description, listed = line[0], _text(line[2]), _text(line[EXAMPLES_COL])
        was = stored.for_grade(float(grade)) if isinstance(grade, int | float) else None
        if was is not None:  # the texts as written, where a spreadsheet program saved them
            description = was.description if same_as_written(
                description, was.description) else description
            joined = "\n".join(was.examples)
            listed = joined if same_as_written(listed, joined) else listed
        examples = listed.splitlines()
        if not isinstance(grade, int | float) or isinstance(grade, bool) or not math.isfinite(
                grade):
            if description or any(e.strip() for e in examples):
                raise _Refused(f"the grade in column A is {_shown(grade)}; a guideline needs "
                               "its grade, a number", row)
            continue
        if float(grade) in out.rows:
            raise _Refused(f"grade {number_text(float(grade))} is listed twice", row)
        out.rows[float(grade)] = row
        out.guidelines = out.guidelines.with_guideline(
            Guideline(float(grade), description, tuple(examples)))
    return out


def _guideline_entries(stored: Guidelines, found: _Described, when: str) -> list[AuditEntry]:
    """An audit entry per grade whose guideline the sheet changed."""
    entries = []
    for value, row in found.rows.items():
        change = guideline_change(value, stored, found.guidelines)
        if change is not None:
            entries.append(AuditEntry.of_convention(
                OUTSIDE_WHO, when, *change, f"edited in {_SHEET}!C{row}:E{row}", OUTSIDE_ORIGIN))
    return entries


def _build(now: dict[str, Any], stored: Conventions) -> Conventions:
    """The conventions the cells hold: ``stored`` with each field of
    :data:`FIELDS` set from its cells."""
    out = stored
    for f in FIELDS:
        if f.kind == "guidelines":  # taken from the rubric's list (_guidelines)
            continue
        if f.kind == "cutoffs":
            value: Any = tuple(now[f"cut_{j}"] for j in range(1, len(stored.cutoffs) + 1))
        elif f.kind == "gain":
            rule = now[f.cell]
            value = (rule, now.get("gain_grades", ()) if rule.takes_table else ())
        else:
            value = now[f.cell]
        out = f.set(out, value)
    return out


def read_sheet_conventions(cells: list[list[Any]] | None, names: dict[str, str],
                           stored: Conventions, doc: Document, file: str) -> SheetConventions:
    """The conventions (and the document's name and judgment version) the
    Conventions sheet ``cells`` hold, against ``stored`` (those it was written
    with): the changes as audit entries, or the cells refused."""
    out = SheetConventions(stored, judgment_version=doc.judgment_version, name=doc.name)
    if cells is None:
        out.refused.append(InputError(f"the workbook has no {_SHEET} sheet", file=file,
                                      hint=_KEEP))
        return out
    sheet = _Cells(cells, names, file)
    fields = _fields(stored)
    before = _as_written(stored, doc)
    # a workbook written before an optional field was declared has no cell for it
    added_later = {f.cell for f in FIELDS if f.optional and f.cell} - set(names)
    now: dict[str, Any] = {}
    for name, (label, read) in fields.items():
        if name in added_later:
            now[name] = before[name]
            continue
        try:
            now[name] = read(sheet.value(name))
        except _Refused as exc:
            out.refused.append(sheet.refusal(name, label, str(exc)))
            continue
        if read is _text and same_as_written(now[name], before[name]):
            now[name] = before[name]  # as a spreadsheet program saved it
    if getattr(now.get("gain_rule"), "takes_table", False):
        try:
            now["gain_grades"] = _as_stored(_gain_table(sheet), before.get("gain_grades"))
        except _Refused as exc:
            out.refused.append(InputError(str(exc), file=file, sheet=_SHEET, line=exc.row,
                                          column="A/B (gain table)", hint=_KEEP))
        fields["gain_grades"] = ("gain table", None)
    described = _Described(stored.guidelines)
    try:
        described = _guidelines(sheet, stored.guidelines)
    except _Refused as exc:
        out.refused.append(InputError(str(exc), file=file, sheet=_SHEET, line=exc.row,
                                      column="A/C/E (guidelines)", hint=_KEEP))
    cuts = [(j, now.get(f"cut_{j}", 0)) for j in range(1, len(stored.cutoffs) + 1)]
    for j, k in cuts:
        if k != 0 and [k2 for _, k2 in cuts].index(k) != j - 1:
            out.refused.append(sheet.refusal(f"cut_{j}", f"cutoff {j} (k)", (
                f"k = {format_cutoff(k)} is already cutoff {[k2 for _, k2 in cuts].index(k) + 1}"
                "; each cutoff once")))
    if out.refused:
        return out
    try:
        conventions = replace(_build(now, stored), guidelines=described.guidelines)
    except ConventionError as exc:
        out.refused.append(InputError(str(exc), file=file, sheet=_SHEET, hint=_KEEP))
        return out
    when = timestamp()
    for f in FIELDS:
        if f.kind == "guidelines":  # a grade's row at a time
            out.entries += _guideline_entries(stored.guidelines, described, when)
            continue
        edited = [n for n in _cells_of(f, stored) if n in now and now[n] != before[n]]
        out.entries += [AuditEntry.of_convention(OUTSIDE_WHO, when, was, now_said,
                                                 sheet.edited_in(edited), OUTSIDE_ORIGIN)
                        for was, now_said in field_changes(f, stored, conventions)]
    for name in ("judgment_version", "document_name"):
        if now[name] != before[name]:
            label = CONVENTION_LABELS[name]
            out.entries.append(AuditEntry.of_convention(
                OUTSIDE_WHO, when,
                f"{label} = {value_words(before[name])}", f"{label} = {value_words(now[name])}",
                sheet.edited_in([name]), OUTSIDE_ORIGIN))
    out.conventions = conventions
    out.judgment_version, out.name = now["judgment_version"], now["document_name"]
    return out


def check_grades(found: SheetConventions, doc: Document, names: dict[str, str],
                 stored: Conventions, file: str) -> SheetConventions:
    """``found`` as it stands with the document's grades (after the grades
    edited in the spreadsheet were taken): a gain rule that cannot take a
    negative grade is refused at its cell, and nothing of the sheet is taken."""
    gain = found.conventions.gain
    if found.refused or gain.accepts_negative():
        return found
    negative = (doc.state == 0) & (doc.grade < 0)
    if not negative.any():
        return found
    i = int(negative.nonzero()[0][0])
    problem = (f"{gain.label} cannot take the negative grade {number_text(float(doc.grade[i]))}"
               f" of source {doc.source_id[i]!r} (query {doc.query_ids[int(doc.query[i])]!r}); "
               "choose linear gain or a gain table, or set negative gains to count as 0")
    refusal = _Cells([], names, file).refusal("gain_rule", CONVENTION_LABELS["gain_rule"],
                                               problem)
    return SheetConventions(stored, judgment_version=doc.judgment_version, name=doc.name,
                            refused=[refusal])
