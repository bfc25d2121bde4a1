"""Every column and every row of an import accounted for (issue 33): each
column with its role or the reason it was left out (and the flag that would
use it), and the rows read as imported + ungraded (every grade cell blank:
no judgment, the candidate listed with an unknown grade) + skipped (by
reason) + rejected + blank, checked before anything is written.

The rows above the header are named too, each with what it held (a title,
who made the sheet, the legend, a note, blank: :class:`AboveRow`, read by
:func:`~core.io.annotator.above.rows_above`), so that every row of the file
is in a line of the report.

Plain values (:class:`ColumnRecord`, :class:`RowTally`, :class:`AboveRow`) on the
:class:`~core.io.annotator.report.ImportReport`, for the JSON report and
the wizard alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from core.io.annotator.model import ColumnMapping, Origin
from core.io.safety import column_letters

__all__ = ["ABOVE_KINDS", "ABOVE_SAID", "REPEAT", "AboveRow", "ColumnRecord", "RowTally",
           "above_text", "column_records", "row_tally"]

#: Why a row repeating an earlier row's query and source is not read.
REPEAT = "a repeat of an earlier row's query and source, the first kept"


class ColumnRecord(NamedTuple):
    """One column of the file: its 0-based index ``col``, its ``letter`` and
    ``header``, the ``role`` it feeds (``""``: none), why (the guess's
    reason, or why it was left out) and the ``flag`` that would use it."""

    col: int
    letter: str
    header: str
    role: str
    reason: str
    flag: str

    def to_json(self) -> dict[str, object]:
        return {"index": self.col, "column": self.letter, "header": self.header,
                "role": self.role or None, "reason": self.reason, "flag": self.flag or None}


class RowTally(NamedTuple):
    """The file's data rows: ``read`` = ``imported`` + ``ungraded`` + the
    ``skipped`` ones (by reason) + ``rejected`` + ``blank``. ``ungraded``:
    rows read whose every grade cell is blank, no judgment (their candidate
    is listed, its grade unknown, as :attr:`ImportReport.blank_grades` says
    of their cells)."""

    read: int
    imported: int
    ungraded: int
    skipped: tuple[tuple[str, int], ...]
    rejected: int
    blank: int

    def not_skipped(self) -> int:
        """The rows read and not skipped, nor blank: imported, ungraded or
        rejected (the wizard's 'Rows read, not skipped')."""
        return self.imported + self.ungraded + self.rejected

    def adds_up(self) -> bool:
        return self.read == self.imported + self.ungraded + sum(n for _, n in self.skipped) \
            + self.rejected + self.blank

    def to_json(self) -> dict[str, object]:
        return {"read": self.read, "imported": self.imported, "ungraded": self.ungraded,
                "skipped": dict(self.skipped), "rejected": self.rejected, "blank": self.blank}


def _role_reason(mapping: ColumnMapping, role: str, name: str) -> str:
    """Why a column (headed ``name``) feeds ``role``: declared by the user,
    or the guess's reason (a flag column's own: Appen's ``_tainted`` was
    given ``_golden``'s, the first of the flags')."""
    field = role.split(" ", 1)[0]
    if field == "grade" and mapping.grades:  # one annotator's column: --annotators declares them
        field = "annotators"
    if field in mapping.declared:
        return "declared"
    if field == "skip":
        own = next((why for f, why in mapping.reasons if f == field and name
                    and why.startswith(f"{name}:")), "")
        if own:
            return own
    return mapping.why(field) or "chosen"


def column_records(header: list[str], mapping: ColumnMapping,
                   origin: Origin | None = None) -> tuple[ColumnRecord, ...]:
    """Each column of the file with its role or why it was left out."""
    used = mapping.used_columns()
    left = {c: (why, flag) for c, why, flag in mapping.left_out}
    if origin is not None:  # a transposed sheet: the file's own columns
        by_file = {f: used[j] for j, f in enumerate(origin.columns) if f >= 0 and j in used}
        items = {c for c in origin.items if c >= 0}
        used = {**{c: "grade (an item)" for c in items}, **by_file}
        left = {f: left[j] for j, f in enumerate(origin.columns) if f >= 0 and j in left}
        header = origin.header
    width = max([len(header), *(c + 1 for c in used), *(c + 1 for c in left)], default=0)
    # a radio button's choices read into one grade column feed it, though
    # emptied: used, never said left out (an MTurk batch's Answer.rel.1 ...)
    read_in = {c: f"{used[into]} (read in {column_letters(into + 1)})"
               for c, into in mapping.read_into
               if origin is None and into in used and c not in used}
    used = {**read_in, **used}
    out = []
    for c in range(width):
        name = header[c].strip() if c < len(header) else ""
        role = used.get(c, "")
        if c in read_in and c in left:  # read into another column: why so
            why, flag = left[c]
        elif role:
            why, flag = _role_reason(mapping, role, name), ""
        elif c in left:
            why, flag = left[c]
        else:
            why, flag = "empty: no row holds a value; not imported", ""  # others are in left
        out.append(ColumnRecord(c, column_letters(c + 1), name, role, why, flag))
    return tuple(out)


_BRACKETED = re.compile(r"\s*\([^()]*\)")
#: A value quoted in a reason (``'Survey Preview'``): an apostrophe inside a
#: word (``respondent's``) opens none (it paired with the value's opening
#: quote: "a preview response, not a respondent'…'Survey Preview'").
_QUOTED = re.compile(r"(?<!\w)'[^']*'(?!\w)|\"[^\"]*\"")
#: A workbook's column as a reason names it (``C (_golden)``): its header kept.
_COLUMN = re.compile(r"\b[A-Z]{1,3} \([^()]*\)")


def _reason_kind(why: str) -> str:
    """A skipped row's reason without its row's own values (what is
    counted): ``a summary row ('Total'), not a judgment`` -> ``a summary
    row, not a judgment``; a workbook's column keeps its header
    (``C (_golden) is '…'``: it was ``C is '…'``)."""
    kept: list[str] = []

    def keep(m: re.Match[str]) -> str:
        kept.append(m.group(0))
        return f"\x00{len(kept) - 1}\x00"

    text = _QUOTED.sub("'…'", _BRACKETED.sub("", _COLUMN.sub(keep, why)))
    text = re.sub("\x00(\\d+)\x00", lambda m: kept[int(m.group(1))], text)
    return " ".join(text.split()) or why


def row_tally(n_rows: int, row_number: int, skipped: list[tuple[int, str]],
              judged: npt.NDArray[np.bool_], alive: npt.NDArray[np.bool_],
              imported: npt.NDArray[np.int64], ungraded: npt.NDArray[np.bool_],
              file_rows: list[int] | None) -> RowTally:
    """The tally of the data rows: ``skipped`` are (1-based table row, why),
    ``judged`` the rows neither blank nor skipped, ``alive`` those not
    rejected, ``imported`` the rows whose grades are read (a repeat of an
    earlier row's query and source is skipped, the first kept), ``ungraded``
    those whose every grade cell is blank (counted apart from the imported);
    ``file_rows`` maps each data row to its file row (a transposed sheet,
    whose file row is imported when any of its items is, else ungraded when
    any of its items is)."""
    # 0 imported, 1 rejected, 2 repeat, 3 skipped, 4 blank, 5 ungraded (its
    # candidate listed: a file row of items, some ungraded, is imported)
    status = np.full(n_rows, 4, dtype=np.int8)
    status[judged] = 2
    status[judged & ~alive] = 1
    status[imported] = 0
    status[imported[ungraded[imported]]] = 5
    reasons: dict[int, str] = {}
    for row, why in skipped:
        i = row - row_number
        if 0 <= i < n_rows and not judged[i]:
            status[i] = 3
            reasons[i] = why
    if file_rows is not None:
        best: dict[int, int] = {}
        for i, f in enumerate(file_rows[:n_rows]):
            if f not in best or _RANK[status[i]] < _RANK[status[best[f]]]:
                best[f] = i
        keep = np.array(sorted(best.values()), dtype=np.int64)
    else:
        keep = np.arange(n_rows, dtype=np.int64)
    kept = status[keep]
    kinds: dict[str, int] = {}
    said: dict[str, str] = {}  # (a reason repeats on most skipped rows: read once)
    for i in keep[kept == 3].tolist():
        why = reasons[i]
        kind = said.get(why) or said.setdefault(why, _reason_kind(why))
        kinds[kind] = kinds.get(kind, 0) + 1
    if (kept == 2).any():
        kinds[REPEAT] = int((kept == 2).sum())
    counts = np.bincount(status[keep], minlength=6)
    return RowTally(len(keep), int(counts[0]), int(counts[5]), tuple(kinds.items()),
                    int(counts[1]), int(counts[4]))


#: Which of its data rows' statuses a file row of items takes: imported if
#: any is, else ungraded if any is, else the first by code.
_RANK = (0, 2, 3, 4, 5, 1)


#: What a row above the header holds, as the report names it (its kind),
#: and how a sentence says it (the command line's line, the wizard's tally).
ABOVE_SAID = {"title": "a title", "legend": "the legend", "text": "text", "blank": "blank"}
#: The kinds of row above the header.
ABOVE_KINDS = tuple(ABOVE_SAID)

#: The length a row's text is quoted to in a sentence (longer: clipped, …).
_SAID_LENGTH = 40


class AboveRow(NamedTuple):
    """One row above the header: its 1-based ``row``, its ``kind`` (one of
    :data:`ABOVE_KINDS`) and its ``text`` (its filled cells, `` | `` between)."""

    row: int
    kind: str
    text: str

    def to_json(self) -> dict[str, object]:
        return {"row": self.row, "kind": self.kind, "text": self.text}


def _quoted(text: str) -> str:
    return repr(text if len(text) <= _SAID_LENGTH else text[:_SAID_LENGTH - 1].rstrip() + "…")


def _rows(first: int, last: int) -> str:
    return f"row {first}" if first == last else f"rows {first}-{last}"


def above_text(above: Sequence[AboveRow], header_row: int, last: int = 0) -> str:
    """The rows above the header (1-based ``header_row``; to ``last`` where
    it is written over several rows, read as one) in one line, a
    run of legend or blank rows said once: ``rows 1-4, above the header on
    row 5, not imported: row 1 a title ('Relevance judgments'), row 2 text
    ('Prepared by: Dana Lee'), row 3 the legend ('Scale: 0 = not…'), row 4
    blank``; "" when there are none."""
    if not above:
        return ""
    runs: list[list[AboveRow]] = []
    for a in above:
        if runs and a.kind in ("legend", "blank") and runs[-1][-1].kind == a.kind:
            runs[-1].append(a)
        else:
            runs.append([a])
    parts = [f"{_rows(run[0].row, run[-1].row)} {ABOVE_SAID[run[0].kind]}"
             + (f" ({_quoted(run[0].text)})" if run[0].kind != "blank" else "")
             for run in runs]
    return (f"{_rows(1, len(above))}, above the header on "
            f"{_rows(header_row, max(last, header_row))}, not imported: "
            + ", ".join(parts))
