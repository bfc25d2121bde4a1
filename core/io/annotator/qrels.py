"""An annotators' sheet as the judgments of a TREC run (``--qrels SHEET``).

Judgments need no score or rank: each candidate's current grade (the
declared consensus of its annotators) is a qrels line, unknown and
unrateable grades are left out, as :func:`core.io.trec.write_qrels` does.
The sheet is imported as the ``import`` command reads it (guessed sheet,
header, columns and labels), written as TREC qrels to a temporary file and
joined with the run by :func:`core.io.trec.document_from_trec`, so that a
sheet and a qrels file of the same judgments give the same document; beside
a Parquet run (or ranx's JSON), whose ids may hold white space or a line
break, the judgments are joined as they are, with no TREC text between.
"""

from __future__ import annotations

import shlex
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from core.errors import InputError, NotOwnWorkbook
from core.io.annotator.guidelines import offer_guidelines
from core.io.annotator.importer import import_annotations
from core.io.annotator.report import ImportReport
from core.io.atomic import atomic_write_text
from core.io.columnar import (
    is_parquet,
    join_tables,
    release_arrow_memory,
    side_from_file,
    side_from_rows,
)
from core.io.files import stem
from core.io.qrels_kind import is_judgment_sheet  # re-exported
from core.io.suffixes import WORKBOOK_SUFFIXES
from core.io.trec import Run, document_from_judged, document_from_trec
from core.model.conventions import Conventions
from core.model.document import Document, GradeState
from core.model.numbers import number_text
from core.model.rubric import Rubric

__all__ = ["carry_record", "is_judgment_sheet", "judgments_scale", "run_with_judgments",
           "sheet_as_qrels", "sheet_judgments", "with_sheet_scale", "write_judgments_qrels"]

_HINT = ("import it first to see and settle every problem: ndcg-worksheet import {0} "
         "-o judgments.qrels [--rubric G=LABEL,...] [--map FIELD=COLUMN] --report report.json")


def _check(report: ImportReport, path: Path) -> None:
    """Refuse a sheet whose labels or cells were not all read."""
    hint = _HINT.format(path.name)
    if report.alternatives and not report.unmapped_labels:
        scales = "; ".join(f"{n} ({t})" for n, t in report.alternatives)
        raise InputError(f"the labels fit two known scales that grade them otherwise: {scales}",
                         file=str(path), sheet=report.sheet, hint=hint)
    if report.unmapped_labels:
        labels = ", ".join(f"{k!r} ({v})" for k, v in report.unmapped_labels.items())
        raise InputError(f"labels on no known scale and in no rubric: {labels}",
                         file=str(path), sheet=report.sheet, hint=hint)
    refused, first = report.rejected_judgments, report.first_rejected()
    if first is not None:
        row, column, why = first
        more = f" (and {len(refused) - 1} more)" if len(refused) > 1 else ""
        raise InputError(f"{why}{more}", file=str(path), sheet=report.sheet,
                         **report.where(row), column=column, hint=hint)


def _judged(doc: Document) -> dict[str, dict[str, float]]:
    """The sheet's current grades as ``{query: {source: grade}}``, in its
    order (the qrels lines :func:`_qrels_lines` writes, ids as they are)."""
    judged: dict[str, dict[str, float]] = {}
    for i in np.flatnonzero(doc.state == GradeState.NUMBER).tolist():
        query = doc.query_ids[int(doc.query[i])]
        judged.setdefault(query, {})[str(doc.source_id[i])] = float(doc.grade[i])
    return judged


def _qrels_lines(doc: Document, path: Path) -> list[str]:
    lines = []
    for i in range(len(doc)):
        if doc.state[i] != GradeState.NUMBER:
            continue
        query, source = doc.query_ids[int(doc.query[i])], str(doc.source_id[i])
        for what, text in (("query", query), ("source id", source)):
            if len(text.split()) != 1:
                raise InputError(
                    f"the {what} {text!r} holds spaces: a run's ids cannot, so no run "
                    "can be joined with it", file=str(path),
                    hint="map the column of ids with ndcg-worksheet import --map "
                    f"{'query' if what == 'query' else 'source_id'}=COLUMN")
        lines.append(f"{query} 0 {source} {number_text(doc.grade[i])}\n")
    return lines


def write_judgments_qrels(doc: Document, path: str | Path, sheet: str | Path, *,
                          writable: Callable[[], None] | None = None) -> int:
    """Write an imported sheet's current grades as TREC qrels (atomically);
    returns the lines written. Raises :class:`InputError` naming ``sheet``
    when an id holds spaces (a qrels line could not hold it); ``writable``
    is called once they can be written, before they are (what the qrels
    lose is said then: a refused write says only why)."""
    lines = _qrels_lines(doc, Path(sheet))
    if writable is not None:
        writable()
    atomic_write_text(Path(path), "".join(lines))
    return len(lines)


def run_with_judgments(run: str | Path | Run, sheet: str | Path,
                       conventions: Conventions | None = None, *,
                       unshared: bool = False, judgments: Document | None = None
                       ) -> Document:
    """Join a run (TREC text or Parquet; or read already: ranx's JSON, its
    ids as they are, white space too) with the judgments of an annotators'
    sheet; ``unshared`` as :func:`core.io.trec.document_from_trec` joins
    (the sheet's queries no run ranks kept, the run's queries it never
    judges counted: ``evaluate RUN --qrels SHEET`` as with TREC qrels);
    ``judgments``: the sheet's :func:`sheet_judgments`, imported already
    (``compare``'s, for each of its runs).

    Raises :class:`InputError` when the sheet's labels or cells are not all
    read (rows the platform marks as not judgments are skipped, not
    refused), naming the first problem and the ``import`` command that
    shows them all.
    """
    sheet = Path(sheet)
    if judgments is None:
        judgments = _judgments(sheet, conventions)
    if isinstance(run, Run):  # joined on the text of every id, the sheet's as they are
        doc = document_from_judged(run, _judged(judgments), conventions, unshared=unshared)
    elif is_parquet(run):  # on the bytes of every id, the sheet's as they are (white space too)
        doc = _table_join(Path(run), judgments, sheet, conventions, unshared)
    else:
        with _as_qrels(judgments, sheet) as qrels:
            doc = document_from_trec(run, qrels, conventions, unshared=unshared)
    return carry_record(doc, judgments)


def judgments_scale(sheet: str | Path, base: Conventions) -> Conventions:
    """``base`` with the scale of the annotators' sheet (or our workbook)
    ``sheet`` where ``base`` declares no rubric (:func:`with_sheet_scale` of
    its :func:`sheet_judgments`)."""
    if base.rubric is not None:
        return base
    return with_sheet_scale(base, sheet_judgments(sheet))


def sheet_judgments(sheet: str | Path, conventions: Conventions | None = None) -> Document:
    """The judgments of the annotators' sheet (or our workbook) ``sheet``,
    imported on the scale ``conventions`` declare (``--rubric``), else its
    own; refused unless every label and cell is read. ``compare RUN RUN
    --qrels SHEET`` imports them once, for its conventions
    (:func:`with_sheet_scale`) and for the join (:func:`sheet_as_qrels`)."""
    return _judgments(Path(sheet), conventions)


def with_sheet_scale(base: Conventions, judgments: Document) -> Conventions:
    """``base`` given the scale of an annotators' sheet's ``judgments``
    where ``base`` declares no rubric: its rubric, guidelines, consensus and
    rounding, as :func:`carry_record` gives a run joined with it. For
    ``compare RUN RUN --qrels SHEET``, whose conventions are known before
    the runs are read (:func:`sheet_as_qrels` reads the grades alone):
    without it, compare ranged the unknown grades over the grades seen (0,
    0.5, ... of a mean consensus), evaluate over the rubric's."""
    return _with_scale(base, judgments.conventions)


def _with_scale(conventions: Conventions, theirs: Conventions) -> Conventions:
    """``conventions`` given ``theirs``' scale (rubric, consensus and
    rounding) where they declare no rubric, and ``theirs``' guidelines where
    they declare none. A rubric declared (``--rubric``) replaces the sheet's
    scale, its grades and their labels, but not what the sheet's guidelines
    say each grade means (held apart from the rubric on purpose:
    :mod:`core.model.guidelines`); a grade they describe that the rubric
    lacks is said (:func:`_notes`), and shown outside the rubric."""
    guidelines = conventions.guidelines or theirs.guidelines
    if conventions.rubric is not None or theirs.rubric is None:
        if guidelines == conventions.guidelines:
            return conventions
        return replace(conventions, guidelines=guidelines)
    return replace(conventions, rubric=theirs.rubric, consensus=theirs.consensus,
                   rounding=theirs.rounding, guidelines=guidelines)


def carry_record(doc: Document, judgments: Document) -> Document:
    """``doc``, a run joined with the current grades of ``judgments``, given
    what else the judgments hold of its candidates: each one's note, the
    reason of each one whose grade is not a number in both (why no one
    judged it: ``declined by 2 annotators``; a join of grades alone left the
    item an unknown grade saying nothing), each
    annotator's grade (and unrateable mark), the judgments' scale (rubric,
    consensus and rounding) where ``doc``'s conventions declare no rubric
    and their guidelines where they declare none (:func:`_with_scale`),
    why an unknown grade is unknown (an item every annotator declined:
    docs/conventions.md), what the command line says of the sheet's import
    (:attr:`Document.judgments_notes`) and the texts of ``doc``'s queries
    (:attr:`Document.query_texts`). The join reads grades alone: a run
    given an annotators' sheet (a Label Studio export) as its judgments lost
    the labels, the comments and the annotators' grades that ``import``
    keeps from the same sheet, and so did its workbook and the editor's
    Judges dock; ``compare``'s runs lost the consensus row evaluate prints."""
    doc.conventions = _with_scale(doc.conventions, judgments.conventions)
    doc.judgments_notes = judgments.judgments_notes
    texts = judgments.query_texts
    doc.query_texts = {q: texts[q] for q in doc.query_ids if q in texts}
    has_notes = vars(Document)["note"].is_made(judgments) and any(judgments.note)
    has_reasons = bool(judgments.reasoned_rows().size)
    if not (has_notes or has_reasons) and judgments.ratings is None:
        return doc
    rows = _rows_of(doc, judgments)
    found = rows >= 0
    if has_notes:
        notes = np.full(len(doc), "", dtype=object)
        notes[found] = judgments.note[rows[found]]
        doc.note = notes
    if has_reasons:
        _carry_reasons(doc, judgments, rows)
    if judgments.ratings is not None:
        doc.annotators = list(judgments.annotators)
        doc.ratings = _taken(judgments.ratings, rows, np.nan)
        if judgments.unrateable_ratings is not None:
            doc.unrateable_ratings = _taken(judgments.unrateable_ratings, rows, False)
        if judgments.unrateable_words is not None:
            doc.unrateable_words = _taken(judgments.unrateable_words, rows, "")
    return doc


def _carry_reasons(doc: Document, judgments: Document, rows: npt.NDArray[np.int64]) -> None:
    """Give ``doc``'s rows (``rows``: each one's in ``judgments``, -1 for
    none) the judgments' reason where the grade is in the same state there
    and no number (an unknown grade's why, an unrateable one's words)."""
    found = np.flatnonzero(rows >= 0)
    theirs = rows[found]
    same = (doc.state[found] == judgments.state[theirs]) & (
        judgments.state[theirs] != GradeState.NUMBER)
    if not same.any():
        return
    doc.reason[found[same]] = judgments.reason[theirs[same]]


#: Rows of a run whose ids :func:`_rows_of` decodes at once (their texts,
#: ~60 bytes a row, are let go after each piece).
_PIECE = 1 << 16


def _rows_of(doc: Document, judgments: Document) -> npt.NDArray[np.int64]:
    """Each row's of ``doc`` in ``judgments`` (its query and source id the
    same text), -1 where ``judgments`` lists no such candidate. Looked up a
    piece of rows at a time, not a query at a time (``compare``'s two runs
    each pay it now): 200,000 rows of 2,000 queries against a sheet of
    20,000 candidates 0.66 -> 0.30 s, medians of 5 alternating, one process."""
    where = {(judgments.query_ids[int(q)], str(s)): i for i, (q, s) in enumerate(
        zip(judgments.query.tolist(), judgments.source_id, strict=True))}
    query_ids = np.asarray(doc.query_ids, dtype=object)
    rows = np.full(len(doc), -1, dtype=np.int64)
    for start in range(0, len(doc), _PIECE):
        piece = np.arange(start, min(start + _PIECE, len(doc)), dtype=np.int64)
        keys = zip(query_ids[doc.query[piece]].tolist(), doc.source_texts(piece).tolist(),
                   strict=True)
        rows[piece] = np.fromiter((where.get(k, -1) for k in keys), np.int64, piece.size)
    return rows


def _taken(values: npt.NDArray[Any], rows: npt.NDArray[np.int64], missing: object
           ) -> npt.NDArray[Any]:
    """``values``' rows ``rows`` (one row each of ``doc``), ``missing`` where
    a row is -1."""
    out = np.full((rows.size, values.shape[1]), missing, dtype=values.dtype)
    found = rows >= 0
    out[found] = values[rows[found]]
    return out


def _judgments(sheet: Path, conventions: Conventions | None = None) -> Document:
    """The sheet's document: one of our workbooks as saved, else imported
    (refused unless every label and cell is read: :func:`_check`), with
    what the command line says of it (:func:`_notes`), handed along with it:
    a process-wide cache of those notes, by the file's state, grew by one
    entry each time a changed sheet was read again (the editor reopening
    it)."""
    judgments = _own_workbook(sheet)
    left_out = ""
    if judgments is None:
        # (with the guidelines a sheet of their own holds, as import and the
        # wizard read them: a run judged by the sheet showed none)
        result = offer_guidelines(import_annotations(  # (refused by _check, in its words)
            sheet, conventions=conventions, empty_ok=True), sheet)
        _check(result.report, sheet)
        left_out = result.report.left_out_text(
            f"`ndcg-worksheet import {shlex.quote(str(sheet))} -o OUT.csv --report REPORT.json`")
        judgments = result.document
    rubric = conventions.rubric if conventions is not None else None
    judgments.judgments_notes = _notes(
        sheet, left_out, rubric or judgments.conventions.rubric, judgments.conventions)
    return judgments


def _notes(sheet: Path, left_out: str, rubric: Rubric | None,
           theirs: Conventions) -> tuple[str, ...]:
    """The lines the command line says of the sheet ``sheet`` given as
    qrels (``evaluate/compare RUN --qrels SHEET``), each naming it: the
    columns its import left out (``left_out``), and the grades its
    guidelines describe that ``rubric`` (the one declared, else its own)
    lacks (kept, and shown outside the rubric)."""
    notes = [left_out] if left_out else []
    off = [g.value for g in theirs.guidelines.entries
           if rubric is not None and g.value not in rubric.values]
    if rubric is not None and off:
        grades = ", ".join(number_text(v) for v in off)
        notes.append(f"its guidelines describe grade{'s' if len(off) > 1 else ''} {grades}, "
                     f"which the rubric {rubric.text} lacks: kept, and shown outside the "
                     "rubric")
    return tuple(f"{sheet}: {note}" for note in notes)


@contextmanager
def _as_qrels(judgments: Document, sheet: Path) -> Iterator[Path]:
    """The sheet's current grades written as TREC qrels in a temporary
    file, gone after; an :class:`InputError` raised within that names the
    file names the sheet instead."""
    lines = _qrels_lines(judgments, sheet)
    with tempfile.TemporaryDirectory(prefix="ndcg-qrels-") as tmp:
        qrels = Path(tmp) / f"{sheet.stem}.qrels"
        qrels.write_text("".join(lines), encoding="utf-8")
        try:
            yield qrels
        except InputError as exc:
            if exc.file == str(qrels):  # name the sheet, not the file made from it
                raise InputError(exc.problem.replace(str(qrels), str(sheet)), file=str(sheet),
                                 hint=exc.hint) from exc
            exc.problem = exc.problem.replace(str(qrels), str(sheet))
            exc.args = (str(exc),)
            raise


@contextmanager
def sheet_as_qrels(sheet: str | Path, judgments: Document | None = None) -> Iterator[Path]:
    """An annotators' sheet (or one of our workbooks) given as the qrels of
    several runs (``compare RUN RUN --qrels SHEET``): imported once, as
    ``evaluate RUN --qrels SHEET`` imports it, and read as the TREC qrels
    of its current grades (was: read as TREC text, "line 1: expected 4
    fields (query iteration source grade), found 1"); ``judgments``: its
    :func:`sheet_judgments`, imported already."""
    sheet = Path(sheet)
    with _as_qrels(judgments if judgments is not None else _judgments(sheet), sheet) as qrels:
        yield qrels


def _own_workbook(sheet: Path) -> Document | None:
    """One of our workbooks given as qrels (a sheet graded in the editor and
    saved, as the judgments-only banner says to do): its document, its
    current grades the judgments; None for any other file. Read as an
    annotators' sheet, its computed columns were taken for more graders'."""
    if sheet.suffix.lower() not in WORKBOOK_SUFFIXES:
        return None
    from core.io.workbook import read_workbook

    try:
        return read_workbook(sheet)
    except NotOwnWorkbook:
        return None


def _table_join(run: Path, judgments: Document, sheet: Path,
                conventions: Conventions | None, unshared: bool) -> Document:
    """A Parquet run joined with a sheet's judgments as
    :func:`core.io.columnar.document_from_tables` joins, the judgments' ids
    as they are: a Parquet run's ids may hold white space, which the TREC
    qrels the sheet's judgments are written as for a TREC run cannot."""
    rows = [(query, source, grade) for query, sources in _judged(judgments).items()
            for source, grade in sources.items()]
    doc, _ = join_tables(side_from_file(run, "run"), side_from_rows(rows, str(sheet)),
                         conventions, stem(run), unshared=unshared)
    release_arrow_memory()
    return doc
