"""Print the bundled example workbook (and a comparison workbook of the same
cases) to PDF as LibreOffice prints them, and their pages to PNG, into docs/.

    python docs/workbook_pdf.py [--out docs] [--dpi 70]

Writes ``workbook-example.pdf`` (``resources/example.xlsx``),
``workbook-comparison.pdf`` (run A = the example, run B = the same cases
ranked otherwise: ``comparison_example``) and ``workbook-example-N.png`` /
``workbook-comparison-N.png`` for the example's every page and the
comparison's Report (``pdftoppm``, Debian's poppler-utils), and prints each
PDF's page count. Needs LibreOffice
(``soffice``; Debian: libreoffice-calc-nogui).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from core.analysis.compare import Comparison, compare  # noqa: E402
from core.io.workbook import export_comparison_workbook  # noqa: E402
from core.model.document import Document  # noqa: E402
from core.model.examples import CASES, EXAMPLE_WORKBOOK, seed_document  # noqa: E402
from tests.libreoffice import pdf_pages, to_pdf  # noqa: E402

#: Run B: case-A ranked A, B, C (better), case-B C, B, A (worse), case-E left
#: out, case-G added; every other query as in the example.
_B_ROWS: dict[str, list[tuple[str, float, float | None]]] = {
    "case-A": [("A", 3.0, 3.0), ("B", 2.0, 1.0), ("C", 1.0, 0.0)],
    "case-B": [("C", 3.0, 0.0), ("B", 2.0, 1.0), ("A", 1.0, 3.0)],
    "case-G": [("X", 1.0, 2.0), ("Y", 0.5, 0.0)],
}


#: Pages drawn as PNG (None: all): the comparison's Report only.
_PNG_PAGES = {"workbook-example": None, "workbook-comparison": 4}


def comparison_example() -> Comparison:
    """The example (run A) against the same cases ranked otherwise (run B)."""
    a = seed_document()
    rows: list[tuple[str, str, float, float | None]] = []
    for q in dict.fromkeys(c[0] for c in CASES):
        if q != "case-E":
            rows += ([(q, s, sc, g) for s, sc, g in _B_ROWS[q]] if q in _B_ROWS
                     else [c for c in CASES if c[0] == q])
    rows += [("case-G", s, sc, g) for s, sc, g in _B_ROWS["case-G"]]
    b = Document.from_columns(
        query=[r[0] for r in rows], source_id=[r[1] for r in rows], version=["v2"] * len(rows),
        score=[r[2] for r in rows], grade=[r[3] for r in rows], conventions=a.conventions,
        judgment_version=a.judgment_version, name="seed cases, run B")
    return compare(a, b, resamples=2000, seed=1)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--out", type=Path, default=REPO / "docs")
    p.add_argument("--dpi", type=int, default=70)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "in"
        src.mkdir()
        example = src / "workbook-example.xlsx"
        shutil.copy(EXAMPLE_WORKBOOK, example)
        pair = src / "workbook-comparison.xlsx"
        export_comparison_workbook(comparison_example(), pair, name_a="seed cases A-F (run A)",
                                   name_b="seed cases, run B")
        pdfs = to_pdf([example, pair], Path(tmp) / "out")
        for pdf in pdfs:
            target = args.out / pdf.name
            shutil.copy(pdf, target)
            for old in args.out.glob(f"{pdf.stem}-*.png"):
                old.unlink()
            last = ["-l", str(_PNG_PAGES[pdf.stem])] if _PNG_PAGES.get(pdf.stem) else []
            subprocess.run(["pdftoppm", "-r", str(args.dpi), *last, "-png", str(target),
                            str(args.out / pdf.stem)], check=True)
            print(f"{target}: {len(pdf_pages(target))} pages")


if __name__ == "__main__":
    main()
