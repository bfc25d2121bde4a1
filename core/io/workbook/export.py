"""Writing the audited workbook: :func:`export_workbook`,
:func:`export_comparison_workbook` and :func:`export_runs_workbook`, each
sheet written by its own module."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from core.analysis.compare import Comparison
from core.analysis.compare.many import ManyComparison
from core.engine.evaluation import Evaluation
from core.errors import InputError
from core.io.atomic import FirstErrorOnly, atomic_write
from core.io.safety import EXCEL_MAX_ROWS
from core.io.stop import check as check_stopped
from core.io.workbook.additions import Additions
from core.io.workbook.additions_types import FIRST_ADDED_COLUMN, CandidateAdditions, shifted
from core.io.workbook.annotators_sheet import write_annotators
from core.io.workbook.audit import write_audit
from core.io.workbook.candidates import holds_reasons, write_candidates
from core.io.workbook.carry import CandidateExtras, write_carried_sheets
from core.io.workbook.comparison import write_comparison
from core.io.workbook.conventions_sheet import write_conventions
from core.io.workbook.layout import (
    ANNOTATOR_LEAD,
    ANNOTATOR_TAIL,
    COMPARISON_SHEETS,
    SHEETS,
    Formats,
    number_form,
    sheet_ref,
)
from core.io.workbook.metadata import write_metadata
from core.io.workbook.ods_candidates import ods_candidate_rows
from core.io.workbook.ods_writer import RenderedRows, carried_rows, xlsx_to_ods
from core.io.workbook.queries import write_queries, write_summary
from core.io.workbook.record_columns import record_extras
from core.io.workbook.report import write_report
from core.io.workbook.report_sheet import Run
from core.io.workbook.runs import RUNS_SHEET, run_sheets, write_runs_report, write_runs_sheet
from core.io.workbook.targets import is_ods
from core.io.workbook.values import row_layout
from core.model.conventions import Conventions
from core.model.document import Document, GradeState


def export_workbook(ev: Evaluation, path: str | Path, *, keep: Additions | None = None,
                    ) -> None:
    """Write ``ev.doc`` as an audited workbook whose formulas start from
    ``ev.conventions`` (their cached results are ``ev``'s numbers).

    Parameters
    ----------
    ev : Evaluation
        The worksheet and its evaluation (unchanged):
        ``export_workbook(evaluate(doc, conventions), path)``.
    path : str or Path
        The workbook to write (``.xlsx``, or ``.ods`` for OpenDocument);
        replaced atomically.
    keep : Additions, optional
        What people added to the workbook being replaced
        (:func:`core.io.workbook.additions.read_additions`): written again,
        their sheets after ours, their Candidates columns and comments on
        their candidates' rows.

    Raises
    ------
    InputError
        When the document does not fit a sheet, or the file cannot be written.
    """
    check_fits(ev.doc, ev.conventions, path)
    _atomic_book(path, lambda tmp, rows: _write(tmp, ev.doc, ev, keep=keep, rendered_rows=rows))


def export_comparison_workbook(c: Comparison, path: str | Path, *, name_a: str = "",
                               name_b: str = "", keep: Additions | None = None) -> None:
    """Write the audited workbook of run A, run B beside it and a Comparison sheet.

    The sheets of A are those of :func:`export_workbook` (and reopen as A
    with :func:`read_workbook`); B gets its own ``Candidates B``, ``Queries
    B`` and ``Summary B`` written by the same code, so both runs' NDCG are
    live formulas over the one Conventions sheet. The Comparison sheet holds,
    per shared query and cutoff, both NDCG values, the delta B - A and the
    outcome as formulas, then the paired means over the queries defined (and
    weighted) in both as formulas. The randomization p-value and the bootstrap
    interval are ``c``'s values (resampling is not expressible as an Excel
    2007 formula), labelled with their resamples and seed, with a formula
    saying whether they still belong to the live numbers.

    Parameters
    ----------
    c : Comparison
        :func:`core.analysis.compare.compare` of the two runs (unchanged).
    path : str or Path
        The workbook to write (``.xlsx``, or ``.ods`` for OpenDocument);
        replaced atomically.
    name_a, name_b : str
        How the sheet names the runs; default the documents' names.
    keep : Additions, optional
        What people added to the workbook being replaced, as for
        :func:`export_workbook` (run A's Candidates sheet carries theirs).

    Raises
    ------
    InputError
        When a run does not fit a sheet, or the file cannot be written.
    """
    labels = (name_a or c.doc_a.name or "run A", name_b or c.doc_b.name or "run B")
    check_fits(c.doc_a, c.ev_a.conventions, path)
    check_fits(c.doc_b, c.ev_b.conventions, path)
    _atomic_book(path, lambda tmp, rows: _write(tmp, c.doc_a, c.ev_a, c, labels, keep=keep,
                                                 rendered_rows=rows))


def _atomic_book(path: str | Path,
                 write_xlsx: Callable[[Path, RenderedRows | None], None]) -> None:
    """Replace ``path`` atomically with the workbook ``write_xlsx`` writes: as
    is for ``.xlsx``; for ``.ods`` (:func:`is_ods`) written beside the target
    first and rewritten as OpenDocument (:func:`core.io.workbook.ods_writer.xlsx_to_ods`),
    so both formats hold the same sheets, formulas and cached results."""
    if not is_ods(path):
        atomic_write(Path(path), lambda tmp: write_xlsx(tmp, None))
        return

    def write(tmp: Path) -> None:
        with tempfile.TemporaryDirectory(prefix=".ods-", dir=tmp.parent) as folder:
            xlsx = Path(folder) / "book.xlsx"
            rows = RenderedRows()  # the Candidates rows, rendered as ODF
            write_xlsx(xlsx, rows)
            with FirstErrorOnly(tmp) as out:
                xlsx_to_ods(xlsx, out, rows)

    atomic_write(Path(path), write)


def _write(
    path: Path, doc: Document, ev: Evaluation, comparison: Comparison | None = None,
    labels: tuple[str, str] = ("", ""), *, keep: Additions | None = None,
    rendered_rows: RenderedRows | None = None,
) -> None:
    """Write the workbook of ``doc`` (and, given ``comparison``, run B's
    sheets and the Comparison sheet) to ``path``, sheet by sheet, with what
    people added (``keep``); ``rendered_rows``: see :func:`_worksheet_class`."""
    perm, blocks = row_layout(doc, ev)
    # A file that falls silent after its first error: the zip xlsxwriter
    # leaves half-written on a full disk would print a traceback when
    # collected (the error itself reaches atomic_write).
    with FirstErrorOnly(path) as out:
        _write_book(_new_workbook(out, rendered_rows), doc, ev, perm, blocks, comparison, labels,
                    keep)


def _write_book(
    wb: Any, doc: Document, ev: Evaluation, perm: np.ndarray,
    blocks: list[tuple[int, int]], comparison: Comparison | None, labels: tuple[str, str],
    keep: Additions | None,
) -> None:
    """The sheets of :func:`_write`, into ``wb``."""
    try:
        extras = CandidateExtras(wb, _after_reasons(keep.candidates, doc), doc, perm) \
            if keep else None
        record = _record_extras(wb, keep, doc, perm)
        wb.worksheet_class = _worksheet_class(extras, wb.rendered_rows, record)
        fmt = Formats(wb)
        report = wb.add_worksheet(SHEETS["report"])
        report.activate()
        grades = None
        if comparison is not None:
            b = comparison.doc_b
            grades = np.concatenate([doc.grade[doc.state == GradeState.NUMBER],
                                     b.grade[b.state == GradeState.NUMBER]])
        names = write_conventions(wb, fmt, doc, ev.conventions, grades)
        cs = COMPARISON_SHEETS
        compared = wb.add_worksheet(cs["comparison"]) if comparison is not None else None
        check_stopped()  # between sheets (core.io.stop)
        write_candidates(wb, fmt, doc, ev, perm, blocks)
        qrows = write_queries(wb, fmt, doc, ev, blocks)
        write_summary(wb, fmt, ev, qrows)
        runs = [Run("A", ev, SHEETS["queries"], SHEETS["summary"], qrows)]
        places = None
        if comparison is not None:
            doc_b, ev_b = comparison.doc_b, comparison.ev_b
            perm_b, blocks_b = row_layout(doc_b, ev_b)
            write_candidates(wb, fmt, doc_b, ev_b, perm_b, blocks_b, cs["candidates_b"])
            qrows_b = write_queries(wb, fmt, doc_b, ev_b, blocks_b, cs["queries_b"],
                                    cs["candidates_b"])
            write_summary(wb, fmt, ev_b, qrows_b, cs["summary_b"], cs["queries_b"])
            runs.append(Run("B", ev_b, cs["queries_b"], cs["summary_b"], qrows_b))
            places = write_comparison(compared, fmt, comparison, labels)
            names.update(places.names)
        check_stopped()  # between sheets (core.io.stop)
        write_audit(wb, fmt, doc)
        write_annotators(wb, fmt, doc, perm, keep.annotators_name if keep is not None
                         and keep.annotators_name else SHEETS["annotators"])
        write_carried_sheets(wb, keep, holds_reasons(doc))
        check_stopped()  # between sheets (core.io.stop)
        write_metadata(wb, doc, ev.conventions, perm)
        write_report(wb, report, fmt, runs, None if comparison is None or places is None
                     else (comparison, places, labels))
        for name, ref in names.items():
            wb.define_name(name, ref)
    finally:
        wb.close()


def export_runs_workbook(m: ManyComparison, evaluations: Sequence[Evaluation],
                         path: str | Path) -> None:
    """Write the workbook of many runs compared: the baseline's audited
    sheets (it reopens as the baseline), each other run's Candidates, Queries
    and Summary sheets (``Candidates B``, ...) written by the same code, the
    Runs sheet (every run's NDCG per query, the deltas to the baseline and the
    means, as live formulas) and a Report with the tests computed at export
    and a chart of the sorted per-query deltas (:mod:`core.io.workbook.runs`).

    Parameters
    ----------
    m : ManyComparison
        :func:`core.analysis.compare.many.compare_runs` of ``evaluations``.
    evaluations : sequence of Evaluation
        Every run evaluated under ``m.conventions``, in ``m.runs`` order
        (the baseline first).
    path : str or Path
        The workbook to write (``.xlsx``, or ``.ods`` for OpenDocument);
        replaced atomically.

    Raises
    ------
    InputError
        When a run does not fit a sheet, or the file cannot be written.
    """
    if len(evaluations) != len(m.runs):
        raise ValueError("one evaluation per run compared, in the comparison's order")
    for ev in evaluations:
        check_fits(ev.doc, ev.conventions, path)
    _atomic_book(path, lambda tmp, rows: _write_runs(tmp, m, evaluations, rows))


def _write_runs(path: Path, m: ManyComparison, evaluations: Sequence[Evaluation],
                rendered_rows: RenderedRows | None = None) -> None:
    """Write the workbook of :func:`export_runs_workbook` to ``path``."""
    with FirstErrorOnly(path) as out:  # (as _write: one line on a full disk)
        _write_runs_book(_new_workbook(out, rendered_rows), m, evaluations)


def _write_runs_book(wb: Any, m: ManyComparison, evaluations: Sequence[Evaluation]) -> None:
    """The sheets of :func:`_write_runs`, into ``wb``."""
    base = evaluations[0]
    doc = base.doc
    try:
        fmt = Formats(wb)
        report = wb.add_worksheet(SHEETS["report"])
        report.activate()
        grades = np.concatenate([ev.doc.grade[ev.doc.state == GradeState.NUMBER]
                                 for ev in evaluations])
        names = write_conventions(wb, fmt, doc, base.conventions, grades)
        runs = wb.add_worksheet(RUNS_SHEET)
        layouts = [row_layout(ev.doc, ev) for ev in evaluations]
        for i, (ev, (perm, blocks)) in enumerate(zip(evaluations, layouts, strict=True)):
            candidates, queries, summary = run_sheets(i)
            write_candidates(wb, fmt, ev.doc, ev, perm, blocks, candidates)
            qrows = write_queries(wb, fmt, ev.doc, ev, blocks, queries, candidates)
            write_summary(wb, fmt, ev, qrows, summary, queries)
        places = write_runs_sheet(runs, fmt, m, evaluations)
        names["tie_tolerance"] = f"={sheet_ref(RUNS_SHEET)}!$B$3"
        write_audit(wb, fmt, doc)
        write_annotators(wb, fmt, doc, layouts[0][0])
        write_metadata(wb, doc, base.conventions, layouts[0][0])
        write_runs_report(wb, report, fmt, m, base, places)
        for name, ref in names.items():
            wb.define_name(name, ref)
    finally:
        wb.close()


def _new_workbook(out: FirstErrorOnly, rendered_rows: RenderedRows | None = None) -> Any:
    """An xlsxwriter workbook into ``out`` writing rows as they come, text as
    text, numbers with every digit (``rendered_rows``: see :func:`_worksheet_class`)."""
    import xlsxwriter

    wb = xlsxwriter.Workbook(
        out,
        {
            "constant_memory": True,
            "strings_to_formulas": False,
            "strings_to_numbers": False,
            "strings_to_urls": False,
        },
    )
    wb.rendered_rows = rendered_rows
    wb.worksheet_class = _worksheet_class(None, rendered_rows)
    return wb


def check_fits(doc: Document, conventions: Conventions, path: str | Path) -> None:
    """Refuse a document whose Candidates or Queries rows exceed a sheet
    (1,048,575 rows below the header) with an :class:`InputError`; callers
    ask before evaluating, so that nothing is computed for a workbook that
    cannot be written."""
    rows = {"Candidates": len(doc), "Queries": doc.n_queries * len(conventions.cutoffs)}
    for sheet, n in rows.items():
        if n > EXCEL_MAX_ROWS - 1:
            raise InputError(
                f"the {sheet} sheet would need {n:,} rows; a workbook sheet holds "
                f"{EXCEL_MAX_ROWS - 1:,} below its header", file=str(path),
                hint="export as CSV, TSV or TREC qrels/run instead, or split the document",
            )


def _after_reasons(add: CandidateAdditions, doc: Document) -> CandidateAdditions:
    """A person's Candidates columns after the reason column where the
    sheet of ``doc`` holds one (they are read as though it were not there)."""
    return shifted(add, int(holds_reasons(doc)))


def _record_extras(wb: Any, keep: Additions | None, doc: Document, perm: np.ndarray,
                   ) -> tuple[str, CandidateExtras, int] | None:
    """The Annotators record's sheet name, the reviewer's columns of it
    to write again after its own (:mod:`~core.io.workbook.record_columns`)
    and the first of them; None when there is none."""
    if keep is None or not keep.annotator_columns or doc.ratings is None:
        return None
    first = len(ANNOTATOR_LEAD) + len(doc.annotators) + len(ANNOTATOR_TAIL)
    add = record_extras(keep.annotator_columns, doc.annotators, first)
    if not add:
        return None
    return (keep.annotators_name or SHEETS["annotators"], CandidateExtras(wb, add, doc, perm),
            first)


def _worksheet_class(extras: CandidateExtras | None = None,
                     rendered_rows: RenderedRows | None = None,
                     record: tuple[str, CandidateExtras, int] | None = None) -> Any:
    """xlsxwriter's worksheet, writing numbers with every digit.

    xlsxwriter formats numbers with 16 significant digits, which loses the last
    bit of values like 0.1 + 0.2; Python's shortest round-trip form keeps it.
    The Candidates rows get the cells and comments people added
    (``extras``) on their candidates' rows. Given ``rendered_rows`` (an ``.ods``
    export), a sheet's rows that come rendered as ODF too (``put_rows``'s
    ``ods``) are kept there instead of written into the xlsx
    (:func:`core.io.workbook.ods_writer.xlsx_to_ods` puts them back);
    a Candidates sheet carrying cells people added gets them appended to its
    ODF rows (:func:`~core.io.workbook.ods_writer.carried_rows`); one with
    colours they gave our cells goes the xlsx way and is converted.
    """
    from xlsxwriter.worksheet import Worksheet

    class FullPrecisionWorksheet(Worksheet):  # type: ignore[misc]
        def put_rows(self, last_row: int, last_col: int, rows: Iterable[str],
                     ods: tuple[Any, ...] | None = None, *,
                     as_odf: Callable[[], Iterable[str]] | None = None) -> None:
            """Rows rendered as ``<row>`` elements (by :mod:`core.io.workbook.candidates`),
            following the rows written so far, up to ``last_row`` (or as ODF,
            :func:`~core.io.workbook.ods_candidates.ods_candidate_rows` of ``ods``,
            or the rows ``as_odf`` renders: another sheet's)."""
            carry = extras if extras and self.name == SHEETS["candidates"] else None
            if record is not None and self.name == record[0]:  # the record's own columns
                carry = record[1]
            if rendered_rows is not None and as_odf is not None and carry is None:
                rendered_rows.keep(self.name, as_odf())
                return
            if rendered_rows is not None and as_odf is not None and carry is not None:
                carry.before_rows(self)  # (a reviewer's columns of the record, after it)
                rendered_rows.keep(self.name, carried_rows(as_odf(), carry.cells_by_row(),
                                                           record[2] if record else 0))
                return
            if rendered_rows is not None and ods is not None and (
                    carry is None or not carry.add.fills):
                odf = ods_candidate_rows(*ods)
                if carry is not None:  # their cells appended to their candidates' rows
                    carry.before_rows(self)
                    odf = carried_rows(odf, carry.cells_by_row(),
                                       FIRST_ADDED_COLUMN + int(holds_reasons(ods[0])))
                rendered_rows.keep(self.name, odf)
                return
            if carry is not None:
                carry.before_rows(self)
                last_col = max(last_col, carry.last_column())
                rows = carry.rows_xml(rows)
            if self._check_dimensions(last_row, last_col):
                raise ValueError(f"cell ({last_row}, {last_col}) is outside a worksheet")
            self._write_single_row(last_row)  # what xlsxwriter holds goes first
            write = self.fh.write
            for xml in rows:
                write(xml)
            if carry is not None:  # the rows are written: none is left for xlsxwriter
                self.previous_row = last_row + 1

        def _xml_number_element(
            self, number: float, attributes: Sequence[tuple[str, Any]] = ()
        ) -> None:
            attr = "".join(f' {k}="{self._escape_attributes(v)}"' for k, v in attributes)
            self.fh.write(f"<c{attr}><v>{number_form(float(number))}</v></c>")

        def _xml_formula_element(self, formula: str, result: Any,
                                 attributes: Sequence[tuple[str, Any]] = ()) -> None:
            # A result stored as the numbers are (str() of a float is its repr).
            if isinstance(result, float):
                result = number_form(result)
            super()._xml_formula_element(formula, result, list(attributes))

        def _prepare_formula(self, formula: str, expand_future_functions: bool = False) -> str:
            # Our formulas use Excel-2007 functions only, so xlsxwriter's 29
            # regular-expression passes (adding _xlfn. to newer functions) would
            # change nothing; they were 70% of the export's time.
            return formula[1:] if formula.startswith("=") else formula

    return FullPrecisionWorksheet
