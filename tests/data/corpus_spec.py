"""What the annotator corpus's sheets are made of: where they go, the
:class:`Spec` each sheet fills (its judgments and what importing it must
give), the consensus oracle, and the writers the sheet makers share
(tests/data/make_annotators.py, tests/data/platform_sheets.py)."""

from __future__ import annotations

import csv
import io
import math
import statistics
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import xlsxwriter

__all__ = ["CREATED", "OUT", "UNKNOWN", "UNRATEABLE", "Spec", "book", "column_name",
           "consensus", "csv_text"]

OUT = Path(__file__).resolve().parent / "annotators"
UNKNOWN, UNRATEABLE = "unknown", "unrateable"
CREATED = datetime(2024, 3, 1, 9, 0, 0)


@dataclass
class Spec:
    """One sheet and what importing it must give."""

    name: str
    flags: list[str] = field(default_factory=list)
    sheet: str | None = None
    header_row: int = 1
    layout: str = "long"
    mapping: dict[str, Any] = field(default_factory=dict)
    consensus: str = "mean"
    rounding: str = "none"
    #: (query, source, annotator, grade | "unknown" | "unrateable"), in reading order.
    judgments: list[tuple[str, str, str, Any]] = field(default_factory=list)
    #: Judgments that must be rejected: (row, column as the report names it).
    rejected: list[tuple[int, str]] = field(default_factory=list)
    #: Labels read as grades (label as written -> grade).
    labels: dict[str, float] = field(default_factory=dict)
    #: The rows in the sheet that hold no judgment and are skipped (not blank).
    skipped: list[int] = field(default_factory=list)
    #: Rows a platform marks as not judgments, by kind -> how many (skipped).
    excluded: dict[str, int] = field(default_factory=dict)
    #: The rubric read from the file (labels' scale or numbers' range), when checked.
    rubric: str | None = None
    #: Where the ranking comes from: "score", "rank", or "" (judgments only).
    ranking: str = ""

    def exclude(self, row: int, kind: str) -> None:
        self.skipped.append(row)
        self.excluded[kind] = self.excluded.get(kind, 0) + 1

    def judge(self, q: Any, s: str, who: str, grade: Any) -> None:
        self.judgments.append((str(q), s, who, grade))


def consensus(values: list[Any], rule: str, rounding: str) -> float | None:
    """The oracle: the rule over the numeric grades, by hand."""
    nums = sorted(float(v) for v in values if not isinstance(v, str))
    if not nums:
        return None
    if rule == "mean":
        x = sum(nums) / len(nums)
    elif rule == "median":
        x = statistics.median(nums)
    elif rule == "majority":
        counts = {v: nums.count(v) for v in nums}
        top = max(counts.values())
        x = min(v for v, n in counts.items() if n == top)
    elif rule in ("min", "minimum"):
        x = nums[0]
    else:
        x = nums[-1]
    if rounding == "half-up":
        return float(math.floor(x + 0.5))
    if rounding == "floor":
        return float(math.floor(x))
    if rounding in ("ceil", "ceiling"):
        return float(math.ceil(x))
    return x


def csv_text(rows: list[list[Any]], delimiter: str = ",", quote_all: bool = False,
              newline: str = "\r\n") -> str:
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator=newline,
                   quoting=csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL)
    w.writerows(rows)
    return buf.getvalue()


def book(path: Path) -> xlsxwriter.Workbook:
    wb = xlsxwriter.Workbook(str(path))
    wb.set_properties({"created": CREATED, "author": "annotators"})
    return wb


def column_name(c: int, header: str) -> str:
    """A workbook column as the import report names it."""
    return f"{chr(65 + c)} ({header})"
