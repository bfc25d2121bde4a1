"""Recalculate workbooks with a headless LibreOffice (a real spreadsheet engine).

A throw-away profile forces recalculation on load (``OOXMLRecalcMode`` and
``ODFRecalcMode`` = 0, "always"), otherwise LibreOffice would keep the cached
results xlsxwriter stored; and it calculates formula groups in threads
(``UseThreadedCalculationForFormulaGroups``), as LibreOffice does for its
users by default, stated so that the tests keep the users' way;
:func:`to_pdf` prints workbooks to PDF as LibreOffice lays out their pages.
Several workbooks go through one ``soffice`` call, since a cold start costs
about 1-2 s. A missing ``soffice`` raises (``FileNotFoundError``): the tests
that need it fail, never skip.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["convert", "edit", "pdf_pages", "read_values", "recalculate", "to_pdf"]

_XCU = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry"
 xmlns:xs="http://www.w3.org/2001/XMLSchema"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" \
oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" \
oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Calculation"><prop \
oor:name="UseThreadedCalculationForFormulaGroups" oor:op="fuse"><value>true</value></prop></item>
</oor:items>
"""


def soffice() -> str:
    """The soffice executable; raises FileNotFoundError when LibreOffice is missing."""
    exe = shutil.which("soffice") or shutil.which("libreoffice")
    if exe is None:
        raise FileNotFoundError(
            "soffice not found: install LibreOffice (Debian: libreoffice-calc-nogui)"
        )
    return exe


def recalculate(paths: Sequence[Path], outdir: Path, *, timeout: float = 240.0) -> list[Path]:
    """Open each workbook in LibreOffice, recalculate everything, save as .xlsx in
    ``outdir`` (same file names; they must differ from each other). Returns the
    new paths, in order."""
    return convert(paths, outdir, "xlsx", timeout)


def to_pdf(paths: Sequence[Path], outdir: Path, *, timeout: float = 240.0) -> list[Path]:
    """Print each workbook to PDF as LibreOffice prints it (its page setup,
    recalculated first), into ``outdir``; returns the PDFs, in order."""
    return convert(paths, outdir, "pdf", timeout)


def pdf_pages(path: Path) -> list[tuple[float, float]]:
    """Each page's (width, height) in points, read from the PDF's page objects."""
    data = Path(path).read_bytes()
    boxes = re.findall(rb"/Type\s*/Page\b(?!s)[^>]*?/MediaBox\s*\[([^\]]*)\]", data)
    if not boxes:  # the MediaBox written before the type
        boxes = re.findall(rb"/MediaBox\s*\[([^\]]*)\][^>]*?/Type\s*/Page\b(?!s)", data)
    out = []
    for box in boxes:
        x0, y0, x1, y1 = (float(v) for v in box.split())
        out.append((x1 - x0, y1 - y0))
    if len(out) != len(re.findall(rb"/Type\s*/Page\b(?!s)", data)):
        raise ValueError(f"{path}: could not read every page's size")
    return out


def convert(paths: Sequence[Path], outdir: Path, kind: str, timeout: float) -> list[Path]:
    paths = [Path(p) for p in paths]
    if len({p.stem for p in paths}) != len(paths):
        raise ValueError("workbooks converted together need distinct file names")
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    if any(p.parent.resolve() == outdir.resolve() for p in paths):
        raise ValueError("the output folder must differ from the inputs' folder")
    exe = soffice()
    with tempfile.TemporaryDirectory(prefix="lo-profile-") as profile:
        user = Path(profile) / "user"
        user.mkdir()
        (user / "registrymodifications.xcu").write_text(_XCU, encoding="utf-8")
        cmd = [
            exe, f"-env:UserInstallation={Path(profile).as_uri()}", "--headless", "--norestore",
            "--convert-to", kind, "--outdir", str(outdir), *map(str, paths),
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    out = [outdir / f"{p.stem}.{kind}" for p in paths]
    missing = [str(p) for p in out if not p.exists()]
    if proc.returncode != 0 or missing:
        raise RuntimeError(
            f"soffice failed (exit {proc.returncode}); missing {missing}\n"
            f"stdout: {proc.stdout}\nstderr: {proc.stderr}"
        )
    return out


def read_values(path: Path) -> dict[str, list[list[Any]]]:
    """Every sheet's cell values (formula results as LibreOffice stored them)."""
    import openpyxl

    wb = openpyxl.load_workbook(path, data_only=True, read_only=True)
    try:
        return {
            ws.title: [list(row) for row in ws.iter_rows(values_only=True)]
            for ws in wb.worksheets
        }
    finally:
        wb.close()


def edit(jobs: Sequence[tuple[Path, Path, list[dict[str, Any]]]], *,
         timeout: float = 240.0) -> list[Path]:
    """Edit workbooks in one headless LibreOffice as a reviewer does (through
    UNO, by the system ``python3``; :mod:`tests.lo_edit` lists the edits),
    each ``(in, out, edits)`` saved at ``out`` as .xlsx, or as .ods when its
    suffix says so. Returns the outputs."""
    import json
    import os

    python = "/usr/bin/python3"
    script = Path(__file__).with_name("lo_edit.py")
    with tempfile.TemporaryDirectory(prefix="lo-jobs-") as folder:
        spec = Path(folder) / "jobs.json"
        spec.write_text(json.dumps([{"in": str(a), "out": str(b), "edits": e}
                                    for a, b, e in jobs]), encoding="utf-8")
        env = {**os.environ, "SOFFICE": soffice()}
        env.pop("PYTHONPATH", None)  # the system python3 must not see the venv's packages
        proc = subprocess.run([python, str(script), str(spec)], capture_output=True,
                              text=True, timeout=timeout, check=False, env=env)
    out = [Path(b) for _, b, _ in jobs]
    missing = [str(p) for p in out if not p.exists()]
    if proc.returncode != 0 or missing:
        raise RuntimeError(f"LibreOffice editing failed (exit {proc.returncode}); missing "
                           f"{missing}\nstdout: {proc.stdout}\nstderr: {proc.stderr}")
    return out
