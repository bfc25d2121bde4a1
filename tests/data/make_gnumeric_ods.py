"""Write the .ods files Gnumeric saved (tests/data/gnumeric/), by Gnumeric.

Run ``python tests/data/make_gnumeric_ods.py`` (Gnumeric's ssconvert on the
PATH; Debian: ``apt-get install gnumeric``); the files are committed, made
by ssconvert 1.12.55. Gnumeric writes an .ods's content.xml indented, one
element a line (LibreOffice writes it on one line), and a cell's line break
as ``<text:line-break/>`` inside one paragraph. tests/test_ods_gnumeric.py
reads them.

- ``reviewed.ods``: the seed document (cases A-F) with two queries' texts
  (one holding a line break, one a tab) and a note holding a line break,
  exported as .ods by this program, converted by ssconvert to Gnumeric's
  own format, a date typed in the Conventions sheet's cell F1 (a cell
  formatted ``yyyy-mm-dd``, as a reviewer typing ``2024-03-01`` there makes
  one), and converted by ssconvert back to .ods: Gnumeric's save of a
  workbook of ours that a reviewer dated. The date is a cell the fast .ods
  reader (``core.io.workbook.ods_rows``) leaves to python-calamine.
- ``annotations.ods``: an annotators' sheet (tests/test_import_query_text.py's
  three queries, two annotators) written as CSV and converted by ssconvert.
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.model.document import Document

HERE = Path(__file__).resolve().parent
OUT = HERE / "gnumeric"
ROOT = HERE.parent.parent
#: What reviewed.ods holds beside the seed document (its expected values).
TEXTS = {0: "How do I renew\na passport?", 1: "plain\tone"}
NOTE = (0, "two\nlines")
#: The cell typed in Gnumeric (Conventions F1): its serial 45352 is 2024-03-01.
DATE_CELL = '<gnm:Cell Row="0" Col="5" ValueType="40" ValueFormat="yyyy-mm-dd">45352</gnm:Cell>'


def reviewed_document() -> Document:
    """The seed document with :data:`TEXTS` and :data:`NOTE`."""
    from core.model.examples import seed_document

    doc = seed_document()
    doc.query_texts = {doc.query_ids[q]: text for q, text in TEXTS.items()}
    doc.set_note(*NOTE)
    return doc


def _ssconvert(src: Path, out: Path) -> None:
    exe = shutil.which("ssconvert")
    if exe is None:
        raise SystemExit("ssconvert not found: install Gnumeric (Debian: gnumeric)")
    subprocess.run([exe, str(src), str(out)], check=True, capture_output=True, timeout=240)


def make_reviewed(tmp: Path) -> None:
    from core.engine.evaluation import evaluate
    from core.io.workbook import export_workbook

    doc = reviewed_document()
    ours = tmp / "reviewed.ods"
    export_workbook(evaluate(doc, doc.conventions), ours)
    native = tmp / "reviewed.gnumeric"
    _ssconvert(ours, native)
    xml = gzip.decompress(native.read_bytes()).decode("utf-8")
    title = ('<gnm:Cell Row="0" Col="0" ValueType="60">Conventions: every NDCG number in this '
             "workbook depends on these</gnm:Cell>")
    assert xml.count(title) == 1, "the Conventions sheet's title moved"
    dated = tmp / "dated.gnumeric"
    dated.write_bytes(gzip.compress(xml.replace(title, title + DATE_CELL).encode("utf-8")))
    _ssconvert(dated, OUT / "reviewed.ods")


def make_annotations(tmp: Path) -> None:
    sys.path.insert(0, str(ROOT))
    from tests.test_import_query_text import _sheet

    _ssconvert(_sheet(tmp), OUT / "annotations.ods")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        make_reviewed(Path(tmp))
        make_annotations(Path(tmp))
