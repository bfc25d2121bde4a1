"""How to write the .ods: odfpy (a DOM of every cell, then serialized) against
a direct writer of content.xml text into a zip (what core.io.workbook.ods_writer does),
on the same rows: N rows x 27 cells like the Candidates sheet's (4 texts,
5 numbers, 18 formulas with their results stored).

    python benchmarks/bench_ods_writer.py [--rows 10000] [--odfpy PATH]

``--odfpy``: a folder where odfpy is installed (``pip install --target PATH
odfpy``); it is not a dependency of the project. Prints seconds per writer
and their ratio.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import zipfile
from pathlib import Path

FORMULA = 'of:=IF(AND(ISNUMBER([.J{r}]);ISNUMBER([.K{r}]));[.J{r}]*[.K{r}];"")'


def direct(path: Path, rows: int) -> None:
    parts = []
    for r in range(2, rows + 2):
        cells = [f'<table:table-cell office:value-type="string"><text:p>text {r} {c}</text:p>'
                 "</table:table-cell>" for c in range(4)]
        cells += [f'<table:table-cell office:value-type="float" office:value="{r * 0.5}"/>'
                  for _ in range(5)]
        f = FORMULA.format(r=r).replace('"', "&quot;")
        cells += [f'<table:table-cell table:formula="{f}" office:value-type="float" '
                  f'office:value="{r * 0.25}"/>' for _ in range(18)]
        parts.append("<table:table-row>" + "".join(cells) + "</table:table-row>")
    body = "".join(parts)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("content.xml", '<office:document-content><office:body><office:spreadsheet>'
                   f'<table:table table:name="Candidates">{body}</table:table>'
                   "</office:spreadsheet></office:body></office:document-content>")


def odfpy(path: Path, rows: int) -> None:
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    doc = OpenDocumentSpreadsheet()
    table = Table(name="Candidates")
    for r in range(2, rows + 2):
        tr = TableRow()
        for c in range(4):
            cell = TableCell(valuetype="string")
            cell.addElement(P(text=f"text {r} {c}"))
            tr.addElement(cell)
        for _ in range(5):
            tr.addElement(TableCell(valuetype="float", value=r * 0.5))
        for _ in range(18):
            tr.addElement(TableCell(formula=FORMULA.format(r=r), valuetype="float",
                                    value=r * 0.25))
        table.addElement(tr)
    doc.spreadsheet.addElement(table)
    doc.save(str(path))


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--rows", type=int, default=10_000)
    p.add_argument("--odfpy", help="folder odfpy is installed in")
    args = p.parse_args()
    if args.odfpy:
        sys.path.insert(0, args.odfpy)
    times = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, write in (("direct", direct), ("odfpy", odfpy)):
            t = time.perf_counter()
            write(Path(tmp) / f"{name}.ods", args.rows)
            times[name] = time.perf_counter() - t
            print(f"{name:7s} {times[name]:7.2f} s  {args.rows:,} rows x 27 cells", flush=True)
    print(f"odfpy / direct = {times['odfpy'] / times['direct']:.1f}")


if __name__ == "__main__":
    main()
