"""What a file's name says it may hold, declared once for the readers and
the editor's file dialogs (a light module: the editor reads it at start-up
without loading the readers themselves). The bytes still decide: a suffix
only says which reader is asked first."""

from __future__ import annotations

__all__ = ["ANNOTATOR_SHEET_FORMATS", "ANNOTATOR_SHEET_SUFFIXES", "ODS_SUFFIX",
           "RECORD_SUFFIXES", "TEXT_SHEET_SUFFIXES", "WORKBOOK_SUFFIXES", "XLSX_SUFFIXES"]

#: The workbooks read: Excel's (.xlsx, and .xlsm read as one) and LibreOffice's own
#: (.ods): the one list every reader, the editor's dialogs and the command line use
#: (:mod:`core.io.safety` checks them; ``evaluate RUN --qrels QRELS`` only asks
#: whether a name is one, without loading those checks: ~15 ms).
XLSX_SUFFIXES = (".xlsx", ".xlsm")
ODS_SUFFIX = ".ods"
WORKBOOK_SUFFIXES = (*XLSX_SUFFIXES, ODS_SUFFIX)

#: Delimited text: a worksheet of ours or an annotators' sheet.
TEXT_SHEET_SUFFIXES = (".csv", ".tsv")
#: JSON and JSON Lines records: annotators' exports (Label Studio, Argilla, ...).
RECORD_SUFFIXES = (".json", ".jsonl", ".ndjson")

#: What the annotators' import reads (:func:`core.io.annotator.read.read_table`):
#: the workbooks, delimited text (Excel's "Unicode text" is a UTF-16 ``.txt``)
#: and the tools' JSON records; by suffix for the import wizard's file dialog,
#: in words for the command line's help.
ANNOTATOR_SHEET_SUFFIXES = (*WORKBOOK_SUFFIXES, *TEXT_SHEET_SUFFIXES, ".txt", *RECORD_SUFFIXES)
ANNOTATOR_SHEET_FORMATS = ".xlsx, .ods, CSV, TSV, Excel's UTF-16 text, JSON or JSON Lines"
