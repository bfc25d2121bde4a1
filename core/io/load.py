"""Open any supported input as a :class:`~core.model.document.Document`."""

from __future__ import annotations

import csv
import shlex
from pathlib import Path

from core.errors import InputError, NotOwnWorkbook
from core.io.files import Head, bom_codec, check_input, open_input, sniff
from core.io.qrels_kind import is_score_dict, refuse_report
from core.io.suffixes import RECORD_SUFFIXES, TEXT_SHEET_SUFFIXES, WORKBOOK_SUFFIXES
from core.model.conventions import Conventions, TieRule
from core.model.document import Document
from core.model.rubric import Rubric

__all__ = [
    "WORKBOOK_SUFFIXES",
    "annotators_not_read",
    "is_annotator_sheet",
    "load_document",
    "looks_like_trec_run",
]



def load_document(
    path: str | Path | Head,
    *,
    qrels: str | Path | None = None,
    conventions: Conventions | None = None,
    encoding: str | None = None,
    rubric: Rubric | None = None,
    ties: TieRule | None = None,
) -> Document:
    """Read a worksheet CSV/TSV, a workbook, or a TREC run with its qrels
    (TREC qrels or an annotators' sheet of judgments); a worksheet, run or
    qrels may be a Parquet table (:mod:`core.io.columnar`, told by its bytes).

    ``conventions`` replace the file's own (a workbook keeps its own when
    None). ``encoding`` declares a worksheet CSV/TSV's encoding when it is
    not UTF-8 (:mod:`core.io.textfile`). ``rubric`` reads the labels of a
    Parquet worksheet's text grades when ``conventions`` declare none. Only
    regular files are read: a missing file, a folder, a FIFO, a device or a
    looping link is refused before anything is opened
    (:func:`core.io.files.check_input`). ``path`` may be the file's
    :class:`~core.io.files.Head` when its first bytes were read already.
    ``ties``: the tie rule the document will be evaluated under, when known
    (a TREC run's order under trec_eval's is then worked out beside its
    join: :func:`core.io.trec.join.document_from_trec`).
    """
    head = path if isinstance(path, Head) else sniff(path)  # read once for the checks below
    path = head.path
    refuse_report(head.data, str(path))
    if qrels is not None:
        return _run_with_qrels(head, qrels, conventions, ties, rubric)
    from core.io.columnar import is_parquet, read_parquet_document

    if is_parquet(head):
        return read_parquet_document(path, conventions, rubric=rubric)
    if is_score_dict(head):
        raise InputError(
            "this is JSON of {query: {source: number}} (ranx's or pytrec_eval's run or "
            "qrels)", file=str(path),
            hint="name the run with its qrels: evaluate RUN.json --qrels QRELS.json")
    if path.suffix.lower() in WORKBOOK_SUFFIXES:
        from core.io.workbook import read_workbook

        try:
            doc: Document = read_workbook(path)
        except NotOwnWorkbook as exc:
            return _import_foreign(path, conventions, exc.problem)
        if conventions is not None:
            doc.conventions = conventions
        return doc
    if path.suffix.lower() == ".xls":
        raise InputError(
            "old .xls workbooks are not supported", file=str(path),
            hint="save it as .xlsx or .ods in Excel or LibreOffice",
        )
    if looks_like_trec_run(path, head):
        raise InputError(
            "this looks like a TREC run file", file=str(path),
            hint="name its judgments with --qrels QRELS",
        )
    from core.io.qrels_kind import looks_like_trec_qrels

    if looks_like_trec_qrels(head):  # (read as a worksheet: "no 'query' column")
        raise InputError(
            "this looks like a TREC qrels file (query iteration source grade), not a run "
            "or a worksheet", file=str(path),
            hint="give it as a run's judgments: evaluate RUN --qrels QRELS",
        )
    if path.suffix.lower() in RECORD_SUFFIXES:  # read as CSV: "no 'query' column in ([)"
        _refuse_json(head)
    from core.io.delimited import read_delimited

    return read_delimited(path, conventions, encoding=encoding)


def _run_with_qrels(head: Head, qrels: str | Path, conventions: Conventions | None,
                    ties: TieRule | None, rubric: Rubric | None = None) -> Document:
    """:func:`load_document` of a run with its judgments: score dicts, an
    annotators' sheet of judgments, Parquet tables or TREC text. ``rubric``
    (``evaluate --rubric``) is the scale an annotators' sheet is imported
    on where ``conventions`` declare none (it wins over a header's range)."""
    path = head.path
    judged = sniff(qrels)
    refuse_report(judged.data, str(judged.path))
    if is_score_dict(head) or is_score_dict(judged):
        return _from_score_dicts(head, judged, conventions, rubric)
    from core.io.columnar import document_from_tables, is_parquet

    if _annotators_sheet(judged):  # annotators' judgments
        from core.io.annotator.qrels import run_with_judgments

        return run_with_judgments(path, qrels, _declared(conventions, rubric), unshared=True)
    if is_parquet(head) or is_parquet(judged):
        return document_from_tables(path, qrels, conventions, unshared=True, ties=ties)
    from core.io.trec import document_from_trec

    return document_from_trec(path, qrels, conventions, unshared=True, ties=ties)


def _annotators_sheet(judged: Head) -> bool:
    """Whether the qrels ``judged`` are an annotators' sheet (or our
    workbook), read through the import: not Parquet, not ranx's JSON."""
    from core.io.columnar import is_parquet
    from core.io.qrels_kind import is_judgment_sheet

    return not (is_score_dict(judged) or is_parquet(judged)) and is_judgment_sheet(
        judged.path, judged)


def _declared(conventions: Conventions | None, rubric: Rubric | None) -> Conventions | None:
    """``conventions`` with ``rubric`` (``evaluate --rubric``), the scale an
    annotators' sheet is imported on, where they declare none."""
    if rubric is None or (conventions is not None and conventions.rubric is not None):
        return conventions
    return (conventions or Conventions()).replace(rubric=rubric)


def _from_score_dicts(run: Head, judged: Head, conventions: Conventions | None,
                      rubric: Rubric | None = None) -> Document:
    """A run and its qrels of which one at least is ranx's or pytrec_eval's
    JSON, read as the TREC files they hold, or joined on the text of every
    id when one holds white space (:func:`core.io.score_dict.read_pair`); a
    message names the files as given. An annotators' sheet given as the
    qrels is imported on ``rubric`` (``evaluate --rubric``), as beside a
    TREC run (was: on its own scale, so a grade off its header's range was
    refused with --rubric declaring it)."""
    from core.io.score_dict import read_pair

    joined = _declared(conventions, rubric) if _annotators_sheet(judged) else conventions
    return read_pair(run, judged, joined, lambda run_path, qrels_path: load_document(
        run_path, qrels=qrels_path, conventions=conventions, rubric=rubric))


def _import_foreign(path: Path, conventions: Conventions | None, why: str) -> Document:
    """An .xlsx that is not our own workbook: read it as annotators' judgments.

    Strict: the first refused row, cell, formula or duplicate raises. The
    import report is attached to the document as ``import_report``.
    """
    from core.io.annotator import import_annotations

    result = import_annotations(path, conventions=conventions, strict=True)
    result.report.notes.insert(
        0, f"{path.name} is not an NDCG Worksheet workbook ({why}); "
        "it was read as an annotators' spreadsheet")
    result.document.import_report = result.report
    return result.document


def _refuse_json(head: Head) -> None:
    """Refuse a JSON file given as the worksheet: JSON records (a list of
    them, or one a line: an annotators' export) named as such with the two
    commands that read them; an indented JSON object (this program's own
    ``--format json`` report) as what it is not. Other text (a CSV named
    .json) is read as a worksheet."""
    name = head.path.name
    text = head.data.lstrip(b"\xef\xbb\xbf \t\r\n")
    first = text.split(b"\n", 1)[0].strip()
    if first == b"{":  # an indented object, not records one a line
        raise InputError(
            "this is a JSON object, not a worksheet nor an annotators' export of JSON "
            "records (a list of them, or one a line)", file=str(head.path),
            hint="give a worksheet (CSV, TSV, .xlsx, .ods) or a run with --qrels; "
                 "a report this program wrote as JSON is not read back")
    if text.startswith((b"[", b"{")):
        raise InputError(
            "these are JSON records (an annotators' export, such as Label Studio's or "
            "Argilla's): judgments without a ranking, not a worksheet", file=str(head.path),
            hint=f"give them as a run's judgments: evaluate RUN --qrels {name}; or read "
                 f"them into a worksheet: ndcg-worksheet import {name} -o OUT.xlsx")


def looks_like_trec_run(path: Path, head: Head | None = None) -> bool:
    """Whether the first line of ``path`` (of ``head``, when given) is a TREC
    run line."""
    if head is not None:
        first = head.data[:4096].split(b"\n", 1)[0].split()
    else:
        try:
            with open_input(path) as fh:
                first = fh.readline(4096).split()
        except (OSError, InputError):
            return False
    # Past six fields: a run tag holding spaces (ranx saves a run's name so).
    return len(first) >= 6 and first[1] in (b"Q0", b"0", b"q0")


def is_annotator_sheet(path: Path) -> bool:
    """Whether ``path`` is an annotators' sheet rather than a file of our own.

    A workbook is foreign when it lacks this app's metadata
    (:func:`core.io.workbook.is_own_workbook`, which reads that sheet only);
    a CSV/TSV when its header lacks a column the plain worksheet needs
    (query, source_id, score, grade) and it is not a TREC run (in any
    encoding its byte order mark names; ``.txt`` and ``.tab`` as ``.tsv``);
    JSON and JSON Lines records always are. Other files (and unreadable
    ones) are not: the ordinary open reports their problem.
    """
    try:
        check_input(path)  # a FIFO would block the workbook reader
    except InputError:
        return False
    suffix = path.suffix.lower()
    if suffix in WORKBOOK_SUFFIXES:
        from core.io.workbook import is_own_workbook

        try:
            return not is_own_workbook(path)  # the metadata sheet only
        except InputError:
            return False
    if suffix not in (*TEXT_SHEET_SUFFIXES, ".tab", ".txt"):
        from core.io.columnar import is_parquet

        if is_parquet(path):  # (told by its bytes, before the importer's modules load)
            return False
        return suffix in RECORD_SUFFIXES  # no worksheet of ours is JSON
    text = _head_text(path)
    if text is None:
        return False
    from core.io.headers import REQUIRED, header_delimiter, match_header

    first = text.splitlines()[0] if text.splitlines() else ""
    header = next(csv.reader([first], delimiter=header_delimiter(first, path)), [])
    found = match_header(header)
    return not all(f in found for f in REQUIRED) and not looks_like_trec_run(path)


def annotators_not_read(path: str | Path, how: str | None = None) -> str:
    """What opening a worksheet CSV/TSV written by the import leaves out, in
    one line: its annotators' columns (``grade_<name>``, read back by the
    import alone: :func:`core.io.annotator.write.written_annotators`),
    and how to keep them (``how``: the way to import it, by default the
    ``import`` command; the editor's is its menu); ``""`` for any other file."""
    path = Path(path)
    if path.suffix.lower() not in (*TEXT_SHEET_SUFFIXES, ".tab", ".txt"):
        return ""
    text = _head_text(path)
    if text is None or not text.splitlines():
        return ""
    from core.io.annotator.write import written_annotators
    from core.io.headers import header_delimiter
    from core.model.numbers import counted

    first = text.splitlines()[0]
    header = next(csv.reader([first], delimiter=header_delimiter(first, path)), [])
    cols = written_annotators(header)
    if not cols:
        return ""
    return (f"{path}: {', '.join(header[c] for c, _ in cols)}: the grades of "
            f"{counted(len(cols), 'annotator')}, not read when the worksheet is opened (its "
            "grade column is the grade); to keep each annotator's grades, import it: "
            + (how or f"ndcg-worksheet import {shlex.quote(str(path))} -o OUT.xlsx"))


def _head_text(path: Path) -> str | None:
    """The first 64 KiB of a text file, decoded as its byte order mark says
    (UTF-8 otherwise, a bad byte replaced); None for an empty, binary or
    unreadable file."""
    try:
        with open_input(path) as fh:
            head = fh.read(65536)
    except (OSError, InputError):
        return None
    codec = bom_codec(head)
    if codec in (None, "utf-8-sig") and b"\x00" in head:
        return None
    text = head.decode(codec or "utf-8-sig", errors="replace")
    if not text.strip() or text.startswith("PK\x03\x04"):
        return None
    return text
