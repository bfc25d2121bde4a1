"""Recalculate workbooks with a headless LibreOffice (a real spreadsheet engine).

A throw-away profile forces recalculation on load (``OOXMLRecalcMode`` and
``ODFRecalcMode`` = 0, "always"), otherwise LibreOffice would keep the cached
results xlsxwriter stored. Several workbooks go through one ``soffice`` call,
since a cold start costs about 1-2 s. A missing ``soffice`` raises
(``FileNotFoundError``): the tests that need it fail, never skip.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["read_values", "recalculate"]

_XCU = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry"
 xmlns:xs="http://www.w3.org/2001/XMLSchema"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" \
oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" \
oor:op="fuse"><value>0</value></prop></item>
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
    paths = [Path(p) for p in paths]
    if len({p.name for p in paths}) != len(paths):
        raise ValueError("workbooks recalculated together need distinct file names")
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
            "--convert-to", "xlsx", "--outdir", str(outdir), *map(str, paths),
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    out = [outdir / p.name for p in paths]
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
