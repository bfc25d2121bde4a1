"""The import's hints in the wizard's words: a message from the import names
what to declare as the command line declares it (``pass --map score=Price``,
``--order rows``: :data:`core.io.annotator.model.MAP_FLAG`); the wizard
says which of its controls does it instead ("choose “Price” as the Score"),
named here once: the mapping page's labels.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

from core.io.annotator.model import (
    ANNOTATORS_FLAG,
    HEADER_FLAG,
    IMPORT_FIRST,
    KEEP_FLAG,
    MAP_FLAG,
    NAMES_FLAG,
    ORDER_FLAG,
    RUBRIC_FLAG,
    RUN_COMMAND,
    TAKE_ALONE,
    UNRATEABLE_FLAG,
)

__all__ = [
    "ANNOTATOR_COLUMNS",
    "GRADE_ALONE",
    "HEADER_ROW",
    "KEEP_LABEL",
    "MAPPED_FIELDS",
    "NO_HEADER",
    "ROWS_RANKED",
    "RUBRIC",
    "UNRATEABLE_MARKS",
    "in_the_wizard",
]

#: Fields of a :class:`ColumnMapping` that take one column, with their labels.
MAPPED_FIELDS: dict[str, str] = {
    "query": "Query",
    "source_id": "Source id",
    "score": "Score",
    "rank": "Rank",
    "grade": "Grade (long layout)",
    "annotator": "Annotator (long layout)",
    "version": "Version",
    "note": "Note",
    "reason": "Unrateable reason",
    "status": "Assignment status",
}
#: The check box that declares the row order a ranking (``--order rows``).
ROWS_RANKED = "The row order is a ranking"
#: The sheet page's box of the header's row (``--header-row N``), and its
#: value for no header (``--header-row 0``).
HEADER_ROW, NO_HEADER = "Header on row:", "none (row 1 is data)"
#: The mapping page's list of a wide sheet's grade columns (``--annotators``).
ANNOTATOR_COLUMNS = "Annotator grade columns (wide layout):"
#: The mapping page's box that takes the Grade column alone, other columns of
#: grades left out (``--map grade=C`` of the guessed column).
GRADE_ALONE = "Take the Grade column alone (leave other columns of grades out)"
#: The mapping page's field of the rubric (``--rubric``).
RUBRIC = "Rubric (permitted grades):"
#: The mapping page's field of the marks read as unrateable (``--unrateable``).
UNRATEABLE_MARKS = "Marks read as unrateable:"
#: The label over the boxes that keep the rows a platform marks (``--keep``):
#: its own letter, X, in no other text of the page (every letter of the
#: boxes' words is another control's, and the page's controls take every
#: letter of theirs that Next, Back and Finish leave).
KEEP_LABEL = "E&xcluded rows:"


def _tr(text: str) -> str:
    return QCoreApplication.translate("ImportWizard", text)


def _choice(match: re.Match[str]) -> str:
    field, ref = match["field"], match["ref"]
    label = _tr(MAPPED_FIELDS.get(field, field.replace("_", " ").capitalize()))
    what = (_tr("its column") if ref == "COLUMN"
            else "“(none)”" if ref == "none" else f"“{ref}”")
    return (_tr("choose {0} as the {1}") if match["pass"] else _tr("{0} as the {1}")).format(
        what, label)


def _annotators(match: re.Match[str]) -> str:
    cols = match["cols"]
    what = (_tr("their columns") if cols.startswith("COL,") else
            ", ".join(f"“{c}”" for c in cols.split(",")))
    return _tr("choose {0} as the {1}").format(
        what, _tr(ANNOTATOR_COLUMNS).removesuffix(":"))


def _unrateable(match: re.Match[str]) -> str:
    """``pass --unrateable "LABEL"`` said as typing into the field; the
    labels typed said as themselves."""
    marks = match["marks"]
    what = _tr("the label") if marks == "LABEL" else f"“{marks}”"
    return (_tr("add {0} to “{1}”") if match["pass"] else "{0} in “{1}”").format(
        what, _tr(UNRATEABLE_MARKS).rstrip(":"))


def _rubric(match: re.Match[str]) -> str:
    """``pass --rubric with the scale ...`` said as typing into the field;
    a rubric's text said as itself (``e.g. “0=no,1=yes”``)."""
    field, text = _tr(RUBRIC).rstrip(":"), match["text"]
    if not match["pass"]:
        return f"“{text}”" if text is not None else f"“{field}”"
    return (_tr("type “{0}” in “{1}”").format(text, field) if text is not None
            else _tr("type in “{0}”").format(field))


def in_the_wizard(text: str) -> str:
    """``text`` (an import's hint or reason) with the command line's flags
    said as the wizard's controls."""
    text = TAKE_ALONE.sub(lambda m: _tr("tick “{0}” to take {1} alone").format(
        _tr(GRADE_ALONE), m["what"]), text)  # (the column is the Grade already)
    text = MAP_FLAG.sub(_choice, IMPORT_FIRST.sub(
        lambda m: "pass " + m["flag"].replace(" --", " with --"), text))
    text = KEEP_FLAG.sub(_tr("tick their “Keep the rows marked as …” boxes"), text)
    text = NAMES_FLAG.sub(lambda m: _tr("import the file with the command line's {0}").format(
        m["flag"]), text)  # (the wizard has no field naming them)
    text = ANNOTATORS_FLAG.sub(_annotators, text)
    text = RUBRIC_FLAG.sub(_rubric, text)
    text = UNRATEABLE_FLAG.sub(_unrateable, text)
    text = HEADER_FLAG.sub(lambda m: (
        _tr("set “{0}” to “{1}”").format(_tr(HEADER_ROW).rstrip(":"), _tr(NO_HEADER))
        if m["row"] == "0" else _tr("set “{0}”").format(_tr(HEADER_ROW).rstrip(":"))), text)
    text = ORDER_FLAG.sub(lambda m: (_tr("tick “{0}”") if m["pass"] else "“{0}”").format(
        _tr(ROWS_RANKED)), text)
    return text.replace(RUN_COMMAND, _tr("File > Open… (it asks for the run's qrels)"))
