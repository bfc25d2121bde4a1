"""Edit workbooks in a headless LibreOffice as a reviewer does, through UNO.

Run by the system ``python3`` (Debian's ``python3-uno`` installs ``uno``
there, not into a virtual environment), from :func:`tests.libreoffice.edit`:

    python3 tests/lo_edit.py JOBS.json

``JOBS.json`` is a list of ``{"in": PATH, "out": PATH, "edits": [...]}``;
one LibreOffice is started for all of them (a private profile, a free
port), each workbook loaded hidden, edited, saved as .xlsx (or .ods, as
the output's suffix says: LibreOffice's own format) and closed. An
edit is one of:

- ``{"op": "set", "sheet": S, "cell": "F3", "value": V}`` (a number, or
  text; text starting with ``=`` is typed as a formula)
- ``{"op": "set_named", "name": N, "value": V}`` (a named cell)
- ``{"op": "add_sheet", "name": N}``
- ``{"op": "rename", "sheet": S, "name": N}`` (as a person renames a sheet's tab)
- ``{"op": "filter", "sheet": S, "range": "A1:F5", "column": 5, "above": 0}``
  (a standard filter in place: the rows whose column's number is not above
  the value hidden)
- ``{"op": "comment", "sheet": S, "cell": "F3", "text": T}``
- ``{"op": "append_comment", "sheet": S, "cell": "F3", "text": T}`` (typed at the end
  of the cell's comment, as Edit Comment lets a person do)
- ``{"op": "fill", "sheet": S, "cell": "B3", "rgb": "FF0000"}`` (a background colour)
- ``{"op": "insert_column", "sheet": S, "column": 3}`` (an empty column inserted
  before the 0-based column, as Insert Columns Before does: those after it move)
- ``{"op": "delete_column", "sheet": S, "column": 3}`` (the 0-based column
  deleted, as Delete Columns does: those after it move back)
- ``{"op": "sort", "sheet": S, "range": "A1:AB24", "column": 1, "descending": true}``
  (the range's first row a header; the sheet's protection lifted first, as a
  person must)
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import uno  # type: ignore[import-not-found]
from com.sun.star.beans import PropertyValue  # type: ignore[import-not-found]

#: LibreOffice's export filter for each output suffix.
_FILTERS = {".xlsx": "Calc MS Excel 2007 XML", ".ods": "calc8"}


def _prop(name: str, value: Any) -> Any:
    p = PropertyValue()
    p.Name, p.Value = name, value
    return p


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _connect(port: int, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> Any:
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext(
        "com.sun.star.bridge.UnoUrlResolver", local)
    url = f"uno:socket,host=127.0.0.1,port={port};urp;StarOffice.ComponentContext"
    end = time.monotonic() + timeout
    while True:
        try:
            return resolver.resolve(url)
        except Exception:
            if proc.poll() is not None or time.monotonic() > end:
                raise
            time.sleep(0.2)


def _set(cell: Any, value: Any) -> None:
    if isinstance(value, str) and value.startswith("="):
        cell.setFormula(value)
    elif isinstance(value, str):
        cell.setString(value)
    else:
        cell.setValue(float(value))


def _sort(sheet: Any, edit: dict[str, Any]) -> None:
    sheet.unprotect("")
    rng = sheet.getCellRangeByName(edit["range"])
    field = uno.createUnoStruct("com.sun.star.table.TableSortField")
    field.Field = int(edit["column"])
    field.IsAscending = not edit.get("descending", False)
    desc = list(rng.createSortDescriptor())
    for p in desc:
        if p.Name == "SortFields":
            p.Value = uno.Any("[]com.sun.star.table.TableSortField", (field,))
        elif p.Name == "ContainsHeader":
            p.Value = True
    rng.sort(tuple(desc))


def _filter(sheet: Any, edit: dict[str, Any]) -> None:
    from com.sun.star.sheet.FilterOperator import GREATER  # type: ignore[import-not-found]

    rng = sheet.getCellRangeByName(edit["range"])
    desc = rng.createFilterDescriptor(True)
    field = uno.createUnoStruct("com.sun.star.sheet.TableFilterField")
    field.Field = int(edit["column"])
    field.Operator = GREATER
    field.IsNumeric = True
    field.NumericValue = float(edit["above"])
    desc.setFilterFields((field,))
    desc.ContainsHeader = True
    rng.filter(desc)


def _apply(doc: Any, edit: dict[str, Any]) -> None:
    op = edit["op"]
    if op == "add_sheet":
        sheets = doc.Sheets
        sheets.insertNewByName(edit["name"], sheets.getCount())
        return
    if op == "set_named":
        cells = doc.NamedRanges.getByName(edit["name"]).getReferredCells()
        _set(cells.getCellByPosition(0, 0), edit["value"])
        return
    sheet = doc.Sheets.getByName(edit["sheet"])
    if op == "rename":
        sheet.setName(edit["name"])
        return
    if op == "filter":
        _filter(sheet, edit)
        return
    if op == "sort":
        _sort(sheet, edit)
        return
    if op == "insert_column":
        sheet.unprotect("")
        sheet.Columns.insertByIndex(int(edit["column"]), 1)
        return
    if op == "delete_column":
        sheet.unprotect("")
        sheet.Columns.removeByIndex(int(edit["column"]), 1)
        return
    if sheet.isProtected():
        sheet.unprotect("")
    cell = sheet.getCellRangeByName(edit["cell"])
    if op == "set":
        _set(cell, edit["value"])
    elif op == "comment":
        sheet.getAnnotations().insertNew(cell.getCellAddress(), edit["text"])
    elif op == "append_comment":  # typed at the end of the cell's comment (Edit Comment)
        note = cell.getAnnotation()
        note.setString(note.getString() + edit["text"])
    elif op == "fill":
        cell.CellBackColor = int(edit["rgb"], 16)
    else:
        raise ValueError(f"unknown edit {op!r}")


def main(jobs_file: str) -> int:
    jobs = json.loads(Path(jobs_file).read_text(encoding="utf-8"))
    exe = os.environ.get("SOFFICE", "soffice")
    with tempfile.TemporaryDirectory(prefix="lo-uno-") as profile:
        port = _free_port()
        proc = subprocess.Popen(
            [exe, f"-env:UserInstallation={Path(profile).as_uri()}", "--headless",
             "--invisible", "--norestore", "--nologo",
             f"--accept=socket,host=127.0.0.1,port={port};urp;"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            ctx = _connect(port, proc)
            desktop = ctx.ServiceManager.createInstanceWithContext(
                "com.sun.star.frame.Desktop", ctx)
            for job in jobs:
                doc = desktop.loadComponentFromURL(
                    Path(job["in"]).resolve().as_uri(), "_blank", 0, (_prop("Hidden", True),))
                try:
                    for edit in job["edits"]:
                        _apply(doc, edit)
                    out = Path(job["out"]).resolve()
                    doc.storeToURL(out.as_uri(), (_prop("FilterName", _FILTERS[out.suffix]),))
                finally:
                    doc.close(True)
            with contextlib.suppress(Exception):  # the bridge goes down with the office
                desktop.terminate()
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
