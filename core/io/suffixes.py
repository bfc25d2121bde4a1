"""What a file's name says it may hold, declared once for the readers and
the editor's file dialogs (a light module: the editor reads it at start-up
without loading the readers themselves). The bytes still decide: a suffix
only says which reader is asked first."""

from __future__ import annotations

__all__ = ["RECORD_SUFFIXES", "TEXT_SHEET_SUFFIXES"]

#: Delimited text: a worksheet of ours or an annotators' sheet.
TEXT_SHEET_SUFFIXES = (".csv", ".tsv")
#: JSON and JSON Lines records: annotators' exports (Label Studio, Argilla, ...).
RECORD_SUFFIXES = (".json", ".jsonl", ".ndjson")
