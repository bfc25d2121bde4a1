"""Telling an annotators' sheet given as qrels from a TREC qrels file, by
the file's name and first line alone.

Kept apart from :mod:`core.io.annotator` so that evaluating a run with TREC
qrels loads nothing of the importer (measured: ~120 ms of imports).
"""

from __future__ import annotations

from pathlib import Path

from core.io.suffixes import WORKBOOK_SUFFIXES

__all__ = ["is_judgment_sheet"]

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


def is_judgment_sheet(path: str | Path) -> bool:
    """Whether a file given as qrels is an annotators' sheet: a workbook,
    or a text file whose first line is not a TREC qrels line
    (``query iteration source grade``) and is a CSV/TSV or holds a comma,
    semicolon or tab."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in WORKBOOK_SUFFIXES:
        return True
    try:
        with open(path, "rb") as fh:
            head = fh.read(65536)
    except OSError:
        return False
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True  # UTF-16 text: a spreadsheet's export, never a qrels file
    text = head.decode("utf-8-sig", errors="replace")
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    if not first or _trec_line(first):
        return False
    return suffix in _SHEET_SUFFIXES or any(d in first for d in (",", ";", "\t"))
