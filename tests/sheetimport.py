"""Import a drawn sheet (tests/sheetgen.py, tests/platformgen.py) by the
command line and check the invariants every import of one keeps: the
property tests' shared run and profile (tests/test_import_properties.py,
test_import_platforms.py, test_import_legends.py, test_import_cells.py,
test_import_layouts.py).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import re
from pathlib import Path
from tempfile import TemporaryDirectory

from hypothesis import HealthCheck, event, settings

from app.cli.main import main
from core.io.annotator.names import ranking_field
from tests.sheetgen import (
    MARKS,
    Drawn,
    Run,
    write_sheet,
)

#: The sheets tried per run (stated in docs/import.md).
SHEETS_PER_RUN = 60
PROFILE = settings(max_examples=SHEETS_PER_RUN, deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                         HealthCheck.filter_too_much])


#: The queries of the sheets written out by hand in the property tests.
QUERIES = ["solar panel efficiency", "best hiking boots", "python csv unicode"]

#: A flag the import's refusal offers to type: ``--annotators A,B`` or ``--map ...``.
OFFERED = re.compile(r"--(annotators|map) ([^\s);]+[^\s);,])")


def run_sheet(sheet: Drawn | Run,
              suffix: str) -> tuple[int, str, dict | None, list[dict[str, str]]]:
    """Import the written sheet: exit code, stderr-like message, report, rows."""
    with TemporaryDirectory() as tmp:
        path = write_sheet(sheet, Path(tmp) / f"drawn{suffix}")
        out_csv, report = Path(tmp) / "out.csv", Path(tmp) / "report.json"
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err):
                code = main(["import", str(path), "-o", str(out_csv), "--report", str(report),
                             *sheet.flags], io.StringIO())
        except SystemExit as exc:  # argparse
            code = int(exc.code or 0)
        data = json.loads(report.read_text("utf-8")) if report.exists() else None
        rows = []
        if code == 0:
            with open(out_csv, newline="", encoding="utf-8") as fh:
                rows = list(csv.DictReader(fh))
        return code, err.getvalue().replace(str(path), "drawn" + suffix), data, rows


#: What an imported row's grade cell holds where no grade is (a drawn mark,
#: or the state written, ``unrateable`` or ``unrateable: unsure``): no grade.
NO_GRADE = {"", "unknown", "unrateable", *MARKS}


def grades_of(row: dict[str, str], several: bool) -> list[float]:
    """An imported row's grades, sorted: each annotator's (``grade_NAME``) or the one."""
    keys = [k for k in row if k.startswith("grade_")] if several else ["grade"]
    return sorted(float(row[k]) for k in keys
                  if row[k] not in NO_GRADE and row[k].split(":")[0] not in NO_GRADE)


def holds(sheet: Drawn, code: int, err: str, report: dict | None, rows: list[dict[str, str]],
          suffix: str) -> None:
    """The invariants of an imported (or refused) drawn sheet."""
    event(f"{sheet.layout} {suffix}: {'imported' if code == 0 else 'refused'}")
    if code != 0:
        # A refusal is one line naming the file and what to pass.
        assert code == 2, err
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert f"drawn{suffix}" in lines[0], err
        assert "pass " in lines[0], err
        # Refused only where a reader would hesitate too: a distractor that
        # reads as grades under a header that does not say what it is.
        assert sheet.ambiguous or sheet.extra_grade, err
        if sheet.extra_grade and not sheet.ambiguous:
            assert "--annotators" in lines[0], err
        return
    if sheet.extra_grade:  # imported: both columns of grades are used, one per annotator
        used = report["mapping"].get("annotators") or []
        assert set(sheet.grade_headers) <= set(used), "a column of grades dropped"
        assert sheet.ambiguous or len(used) == len(sheet.grade_headers), used
        return
    assert report is not None
    # The rows add up, every column is accounted for.
    tally = report["rows"]
    assert tally["read"] == len(sheet.rows) - 1 or sheet.layout in ("transposed", "survey")
    # and the rows above the header (a legend, a blank row), each named
    above = getattr(sheet, "above", [])
    assert [a["row"] for a in report["above_header"]] == list(range(1, len(above) + 1)) \
        or sheet.layout in ("transposed", "survey")
    assert len(report["above_header"]) + 1 + tally["read"] == len(above) + len(sheet.rows) \
        or sheet.layout in ("transposed", "survey")
    event("above the header: " + (", ".join(getattr(sheet, "above_kinds", [])) or "none"))
    assert [a["kind"] for a in report["above_header"]] == getattr(sheet, "above_kinds", []) \
        or sheet.layout in ("transposed", "survey")
    assert tally["read"] == tally["imported"] + tally["ungraded"] \
        + sum(tally["skipped"].values()) + tally["rejected"] + tally["blank"]
    assert [c["index"] for c in report["columns"]] == list(range(len(report["columns"])))
    assert all(c["role"] or c["reason"] for c in report["columns"])
    # No ranking without a name or a declaration; the one named or declared is used.
    mapping = report["mapping"]
    ranking_cols = [mapping.get("score"), mapping.get("rank")]
    for header in filter(None, ranking_cols):
        assert ranking_field(header) is not None or "--map" in sheet.flags, header
    declared = any(f.startswith(("score=", "rank=")) for f in sheet.flags)
    if sheet.ranking is not None and (sheet.ranking_named or declared):
        assert sheet.ranking in ranking_cols
        for row in rows:
            assert float(row["score"]) == sheet.ranking_values[(row["query"], row["source_id"])]
    else:
        assert report["ranking"] == "none: judgments only"
        assert all(r["score"] == "" for r in rows)
    # Every grade column used, and the grades are the drawn truth.
    if sheet.ambiguous and set(mapping.get("annotators") or ()) > set(sheet.grade_headers):
        # A distractor no header tells from grades, read as one more
        # annotator's: the drawn grades are used, and the report says the
        # columns were read from their values (no one could tell them apart).
        assert set(sheet.grade_headers) <= set(mapping["annotators"])
        assert any("read from their values" in g for g in report["guesses"])
        return
    if sheet.layout == "wide":
        assert sorted(mapping["annotators"]) == sorted(sheet.grade_headers)
    several = sheet.layout != "long" or max(map(len, sheet.truth.values())) > 1
    got = {(r["query"], r["source_id"]): grades_of(r, several) for r in rows}
    assert got == sheet.truth
