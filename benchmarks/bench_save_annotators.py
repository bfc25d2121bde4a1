"""A save over an annotators' workbook of ours: what it reads of the file it replaces.

    python benchmarks/bench_save_annotators.py [--candidates 100000] [--repeat 3]
        [--workdir DIR] [--resaved] [--steps keep,save]

Writes an annotators' sheet as users send them (URL-like source ids, 100
candidates per query, three annotators who disagree on about a third of
the rows, ``n/a`` marks and text labels), imports it and exports the
audited workbook, whose Annotators sheet is the record of each
annotator's grades. Then times, best of ``--repeat`` in this process:

- ``keep``: ``additions_to_keep`` of that workbook (what the next save over
  it reads first: a person's sheets, columns and the record's columns);
- ``save``: the whole save over it (``keep``, then ``export_workbook``
  with them, to a copy).

With ``--resaved`` the same on LibreOffice's re-save of the workbook
(``soffice --convert-to xlsx``: shared strings, its own styles, as a
reviewer's save writes it). A ``--workdir`` that holds the files is used as
it is.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))

import numpy as np  # noqa: E402

LABELS = ["Not relevant", "Somewhat relevant", "Relevant", "Highly relevant"]
PER_QUERY = 100


def write_sheet(path: Path, n: int) -> None:
    """The annotators' sheet: query, URL, score, alice's, bob's and chen's grades."""
    import xlsxwriter
    from make_data import url_ids

    rng = np.random.default_rng(7)
    grades = rng.integers(0, 4, n)
    wb = xlsxwriter.Workbook(str(path), {"constant_memory": True})
    ws = wb.add_worksheet("Judgments")
    ws.write_row(0, 0, ["query", "url", "score", "alice", "bob", "chen"])
    for q in range(n // PER_QUERY):
        urls = url_ids(q, list(range(PER_QUERY)), rng)
        for d, url in enumerate(urls):
            i = q * PER_QUERY + d
            r, g = i + 1, int(grades[i])
            ws.write_string(r, 0, f"q{q:04d}")
            ws.write_string(r, 1, url)
            ws.write_number(r, 2, 1.0 - d / PER_QUERY)
            ws.write_number(r, 3, g)
            if i % 3 == 0:  # bob disagrees by one
                ws.write_number(r, 4, min(3, g + 1))
            elif i % 10 == 1:
                ws.write_string(r, 4, LABELS[g])
            else:
                ws.write_number(r, 4, g)
            if i % 97 == 0:
                ws.write_string(r, 5, "n/a")
            elif i % 5 == 0:
                ws.write_number(r, 5, max(0, g - 1))
            elif i % 7:
                ws.write_number(r, 5, g)
    wb.close()


def prepare(folder: Path, n: int, resaved: bool) -> Path:
    """The audited workbook of the imported sheet (LibreOffice's re-save
    of it with ``resaved``), made once in ``folder``."""
    from core.engine.evaluation import evaluate
    from core.io.annotator import import_annotations
    from core.io.workbook import export_workbook

    own = folder / "own" / "book.xlsx"
    if not own.exists():
        own.parent.mkdir(parents=True, exist_ok=True)
        sheet = folder / "annotators.xlsx"
        write_sheet(sheet, n)
        doc = import_annotations(sheet, consensus="median").document
        assert doc.annotators == ["alice", "bob", "chen"], doc.annotators
        export_workbook(evaluate(doc), own)
    if not resaved:
        return own
    out = folder / "resaved" / "book.xlsx"
    if not out.exists():
        from tests.libreoffice import convert

        convert([own], out.parent, "xlsx", timeout=1800)
    return out


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--candidates", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--resaved", action="store_true")
    parser.add_argument("--steps", default="keep,save")
    args = parser.parse_args(argv)
    steps = args.steps.split(",")
    from core.engine.evaluation import evaluate
    from core.io.workbook import export_workbook, read_workbook
    from core.io.workbook.additions import additions_to_keep

    with tempfile.TemporaryDirectory() as tmp:
        folder = args.workdir or Path(tmp)
        book = prepare(folder, args.candidates, args.resaved)
        copy = Path(tmp) / "saved.xlsx"

        def save() -> None:
            shutil.copyfile(book, copy)
            export_workbook(ev, copy, keep=additions_to_keep(copy))

        print(f"{book} ({book.stat().st_size / 1024**2:.1f} MiB), best of {args.repeat}:")
        if "keep" in steps:
            additions_to_keep(book)  # (warm: the safety check's digest, the imports)
            print(f"additions_to_keep: {best(lambda: additions_to_keep(book), args.repeat):.3f} s")
        if "save" in steps:
            ev = evaluate(read_workbook(book))
            print(f"save over it:      {best(save, args.repeat):.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
