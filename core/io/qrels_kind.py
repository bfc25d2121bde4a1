"""Telling an annotators' sheet given as qrels from a TREC qrels file, by
the file's name and first line alone.

Kept apart from :mod:`core.io.annotator` so that evaluating a run with TREC
qrels loads nothing of the importer (measured: ~120 ms of imports).
"""

from __future__ import annotations

import re
from pathlib import Path

from core.errors import InputError
from core.io.files import Head, bom_codec, sniff
from core.io.suffixes import RECORD_SUFFIXES, WORKBOOK_SUFFIXES

__all__ = ["is_judgment_sheet", "is_score_dict", "looks_like_trec_qrels", "refuse_report"]

#: The start of ranx's and pytrec_eval's JSON: ``{"q1": {"d1": 2.5, ...}}``.
_SCORE_DICT = re.compile(r'\s*\{\s*"(?:[^"\\]|\\.)*"\s*:\s*\{')
#: This program's own ``--format json`` reports (:mod:`core.reports.json`):
#: an object opening with its conventions (evaluate's) or with the runs'
#: names (compare's: ``a`` and ``b``, or ``runs``), the conventions near the
#: start beginning with the gain rule's text.
_REPORT = re.compile(rb'(?:\xef\xbb\xbf)?\s*\{\s*"(conventions|a|runs)"\s*:')
_REPORT_CONVENTIONS = re.compile(rb'"conventions"\s*:\s*\{\s*"gain"\s*:\s*"')

_SHEET_SUFFIXES = (*WORKBOOK_SUFFIXES, ".csv", ".tsv")


def _trec_line(line: str) -> bool:
    parts = line.split()
    if len(parts) != 4:
        return False
    try:
        float(parts[3])
    except ValueError:
        return False
    return True


def refuse_report(data: bytes, name: str) -> None:
    """Refuse, in one line naming the file ``name`` (``data``: its first
    bytes), a report this program wrote as JSON (``evaluate --format json``,
    ``compare --format json``) given to be read as a worksheet, a run,
    qrels or an annotators' export: it was said to be ranx's or
    pytrec_eval's run or qrels (evaluate's, as the worksheet), refused for
    ``["conventions"]["gain"]`` holding text (as a run or qrels), or read
    as JSON Lines ('line 1 is not JSON', by ``import``)."""
    first = _REPORT.match(data)
    if first is None or _REPORT_CONVENTIONS.search(data) is None:
        return
    command = "evaluate" if first.group(1) == b"conventions" else "compare"
    raise InputError(
        f"this is a report this program wrote (ndcg-worksheet {command} --format json), not a "
        "worksheet, a run, qrels or an annotators' export", file=name,
        hint="a report is not read back: give the worksheet, or the run with --qrels, that "
             "it was made from")


def is_judgment_sheet(path: str | Path, head: Head | None = None) -> bool:
    """Whether a file given as qrels is an annotators' sheet: a workbook,
    JSON or JSON Lines records (a Label Studio export) that are not ranx's
    ``{query: {source: grade}}``, or a text file whose first line is not a
    TREC qrels line (``query iteration source grade``) and is a CSV/TSV or
    holds a comma, semicolon or tab (its first bytes from ``head`` when
    given, a compressed file's decompressed). A Label Studio JSON export
    was read as TREC qrels ("line 1: expected 4 fields ..., found 1")."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in WORKBOOK_SUFFIXES:
        return True
    if head is None:
        try:
            head = sniff(path)
        except InputError:  # the reader names the problem
            return False
    if suffix in RECORD_SUFFIXES:
        return not is_score_dict(head)
    return _sheet_head(head.data, suffix)


def _first_line(head: bytes, encoding: str = "utf-8-sig") -> str:
    text = head[: len(head) // 2 * 2].decode(encoding, errors="replace")
    return next((ln for ln in text.splitlines() if ln.strip()), "")


def looks_like_trec_qrels(head: Head) -> bool:
    """Whether the first line of ``head`` (not blank) is a TREC qrels line
    (``query iteration source grade``): no worksheet's header is one."""
    return _trec_line(_first_line(head.data[:4096]))


def _trec_text_line(line: str) -> bool:
    """A TREC qrels line short of or past its four fields (``q 0 d``, ``q 0
    d 2 0.9``, the second the iteration ``0``) or a TREC run's line (``q Q0
    d 1 2.5 tag``), whitespace between the fields. Read as TREC qrels, the
    line is refused naming its fields (a run's: give the run first); read as
    a sheet, it was a header naming no query column, or a rank column
    counting 'like a rank, not a grade'."""
    parts = line.split()
    if any(d in line for d in (",", ";")):
        return False
    return ((len(parts) in (3, 5) and parts[1] == "0")
            or (len(parts) == 6 and parts[1] in ("Q0", "q0", "0")))


def _sheet_head(head: bytes, suffix: str) -> bool:
    codec = bom_codec(head)
    if codec in ("utf-16", "utf-32"):
        # UTF-16 or UTF-32 text: a spreadsheet's export, unless its first
        # line is a TREC line (PowerShell 5's > writes UTF-16), which the
        # TREC reader then refuses naming its encoding and what to do.
        wide = _first_line(head[:4096], codec)
        return not (_trec_line(wide) or _trec_text_line(wide))
    first = _first_line(head)
    if not first or _trec_line(first):
        return False
    if suffix not in _SHEET_SUFFIXES and _trec_text_line(first):
        return False
    return suffix in _SHEET_SUFFIXES or any(d in first for d in (",", ";", "\t"))


def is_score_dict(head: Head) -> bool:
    """Whether an input starts as ranx's or pytrec_eval's JSON
    ``{query: {source: number}}`` does (read by :mod:`core.io.score_dict`)."""
    return bool(_SCORE_DICT.match(head.data[:4096].decode("utf-8-sig", errors="replace")))
