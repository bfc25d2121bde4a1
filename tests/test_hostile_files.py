"""Broken and hostile files: one clear InputError each, bounded memory, file unchanged.

The corpus is tests/data/hostile/, written by tests/data/make_hostile.py (the
.xlsx corpus in tests/data/hostile/xlsx/ is tests/test_hostile_xlsx.py's).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from core.errors import InputError
from core.io.annotator import import_annotations
from core.io.safety import check_xlsx

HOSTILE = Path(__file__).resolve().parent / "data" / "hostile"
REPO = Path(__file__).resolve().parent.parent

# file -> key words the message must hold (besides the file's name)
EXPECTED: dict[str, tuple[str, ...]] = {
    "not_a_zip.xlsx": ("a text file, not an .xlsx workbook", "rename it to .csv"),
    "truncated.xlsx": ("damaged or truncated",),
    "encrypted.xlsx": ("encrypted", "password"),
    "old_format.xls": ("old .xls", "save it as .xlsx"),
    "billion_laughs.xlsx": ("xl/sharedStrings.xml", "entities", "billion laughs"),
    "zip_bomb.xlsx": ("xl/worksheets/sheet1.xml", "zip bomb"),
    "million_columns.xlsx": ("sheet 'Judgments'", "1,000,000 columns", "16384"),
    "far_cell.xlsx": ("sheet 'Judgments'", "used area", "XFD1048576", "too large"),
    "formulas.xlsx": ("sheet 'Judgments'", "row 3", "C3", "formula", "WEBSERVICE",
                      "never evaluated"),
    "empty.csv": ("empty",),
    "garbage.csv": ("binary, not text",),
    "nan_grades.csv": ("line 3", "column 'grade'", "'NaN'", "not a finite number"),
    "cp1252_labels.csv": ("line 2", "'Très pertinent'", "not in the rubric"),
    "duplicates.csv": ("line 4", "'d1' again", "first on row 2"),
}


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_corpus_is_complete_small_and_reproducible() -> None:
    sys.path.insert(0, str(HOSTILE.parent))
    try:
        import make_hostile
    finally:
        sys.path.pop(0)
    built = make_hostile.build()
    assert sorted(built) == sorted(EXPECTED)
    for name, data in built.items():
        assert len(data) < 200_000, name
        assert (HOSTILE / name).read_bytes() == data, f"{name} differs: rerun make_hostile.py"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_file_gives_one_clear_error(name: str) -> None:
    path = HOSTILE / name
    before = sha(path)
    tracemalloc.start()
    try:
        with pytest.raises(InputError) as info:
            import_annotations(path, strict=True)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    message = str(info.value)
    assert message.startswith(str(path)), message
    for word in EXPECTED[name]:
        assert word in message, (word, message)
    assert "Traceback" not in message
    assert "\n" not in message
    assert peak < 64 * 1024**2, f"{name}: {peak / 1024**2:.0f} MiB of Python memory"
    assert sha(path) == before


@pytest.mark.parametrize("name", ["zip_bomb.xlsx", "billion_laughs.xlsx", "far_cell.xlsx",
                                  "million_columns.xlsx", "truncated.xlsx"])
def test_check_xlsx_refuses_before_parsing(name: str) -> None:
    with pytest.raises(InputError):
        check_xlsx(HOSTILE / name)


def test_whole_corpus_in_bounded_process_memory() -> None:
    """Native memory (calamine, zlib) too: the peak RSS of a fresh process."""
    code = (
        "import json, resource, sys\n"
        "from pathlib import Path\n"
        "from core.errors import InputError\n"
        "from core.io.annotator import import_annotations\n"
        "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "out = {}\n"
        "for p in sorted(q for q in Path(sys.argv[1]).iterdir() if q.is_file()):\n"
        "    try:\n"
        "        import_annotations(p, strict=True)\n"
        "        out[p.name] = None\n"
        "    except InputError as e:\n"
        "        out[p.name] = str(e)\n"
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(json.dumps({'base': base, 'peak': peak, 'out': out}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(HOSTILE)], capture_output=True,
                          text=True, cwd=REPO, timeout=120, check=True)
    result = json.loads(done.stdout)
    assert sorted(result["out"]) == sorted(EXPECTED)
    assert all(result["out"].values())
    grown_mib = (result["peak"] - result["base"]) / 1024
    assert grown_mib < 200, f"peak grew by {grown_mib:.0f} MiB"


def _builder():  # the corpus' own workbook writer
    sys.path.insert(0, str(HOSTILE.parent))
    try:
        import make_hostile
    finally:
        sys.path.pop(0)
    return make_hostile


@pytest.mark.parametrize("cell", [
    '<c\n r="XFD1048576"><v>1</v></c>',
    '<c s="1" r="XFD1048576"><v>1</v></c>',
    '<c r="xfd1048576"><v>1</v></c>',
    '<c r="XFD1048576"/>',
])
def test_far_cell_however_written_is_refused_before_reading(tmp_path: Path, cell: str) -> None:
    mk = _builder()
    path = tmp_path / "far.xlsx"
    path.write_bytes(mk._xlsx(mk._sheet(mk.GOOD_ROWS + f'<row r="1048576">{cell}</row>')))
    with pytest.raises(InputError, match="too large to read safely"):
        check_xlsx(path)


@pytest.mark.parametrize("at", [0, 1 << 20, (1 << 20) - 7, 2 << 20])
def test_big_sheet_scanned_in_pieces(tmp_path: Path, at: int) -> None:
    """A sheet over 1 MiB is scanned piece by piece; a far cell anywhere is found.

    ``at``: the far cell goes after the last row ending before this offset
    (0: first in the sheet data; around 1 MiB: across the first piece's end).
    """
    mk = _builder()
    filler = "".join(f'<row r="{r}"><c r="A{r}"><v>1</v></c></row>' for r in range(4, 60_000))
    sheet = mk._sheet(mk.GOOD_ROWS + filler, dimension="A1:C59999")
    assert len(sheet) > 2 << 20
    ok = tmp_path / "big.xlsx"
    ok.write_bytes(mk._xlsx(sheet))
    assert check_xlsx(ok).used == {"Judgments": (59_999, 3)}
    pos = (sheet.index("<sheetData>") + len("<sheetData>") if at == 0
           else sheet.rindex("</row>", 0, at) + len("</row>"))
    far = '<row r="5"><c r="XFD1048576"><v>1</v></c></row>'
    bad = tmp_path / "big_far.xlsx"
    bad.write_bytes(mk._xlsx(sheet[:pos] + far + sheet[pos:]))
    with pytest.raises(InputError, match="XFD1048576"):
        check_xlsx(bad)
