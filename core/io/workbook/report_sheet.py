"""The Report sheet's page: the runs it reports on (:class:`Run`: where each
one's numbers are) and the sheet written from the top down
(:class:`ReportSheet`: lines, sections, headers). What is written on it is
:mod:`~core.io.workbook.report`; its charts are :mod:`~core.io.workbook.charts`;
both write on this page, so neither imports the other for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.engine.evaluation import Evaluation
from core.io.workbook.layout import Formats, put_text
from core.io.workbook.page import header_row, lines_needed
from core.io.workbook.words import Text

__all__ = ["WIDTHS", "ReportSheet", "Run"]

#: Column widths (characters): a label column, then nine of numbers (the means
#: table: mean, included, each reason to exclude, weight total).
WIDTHS = (30.0, *[12.5] * 9)


@dataclass(frozen=True)
class Run:
    """Where one run's numbers are: its Queries and Summary sheets."""

    label: str
    ev: Evaluation
    queries: str
    summary: str
    qrows: int

    @property
    def n_cutoffs(self) -> int:
        return len(self.ev.cutoffs)


class ReportSheet:
    """The Report sheet written from the top down (``row``: the next row, 0-based)."""

    def __init__(self, ws: Any, fmt: Formats) -> None:
        self.ws, self.fmt, self.row = ws, fmt, 0
        self.width = len(WIDTHS)

    def skip(self, n: int = 1) -> None:
        self.row += n

    def line(self, text: Text | str, style: Any = None, *, first: int = 0) -> int:
        """``text`` across the sheet from column ``first``, wrapped, its row tall
        enough; returns its row."""
        ws, r = self.ws, self.row
        style = style or self.fmt.wrap
        shown = text.cached if isinstance(text, Text) else text
        # A width counts digits; running text is narrower (bold text less so).
        lines = lines_needed(shown, sum(WIDTHS[first:]) * (1.15 if style is self.fmt.wrap
                                                            else 0.9))
        if lines > 1:
            ws.set_row(r, 15.0 * lines + 3)
        if first < self.width - 1:
            ws.merge_range(r, first, r, self.width - 1, "", style)
        if isinstance(text, Text):
            ws.write_formula(r, first, "=" + text.formula, style, text.cached)
        else:
            put_text(ws, r, first, text, style, style)
        self.row += 1
        return r

    def section(self, title: Text | str) -> None:
        self.skip()
        self.line(title, self.fmt.section)

    def labelled(self, label: str, text: Text) -> None:
        self.ws.write_string(self.row, 0, label, self.fmt.label)
        self.line(text, first=1)

    def headers(self, headers: Sequence[str | Text]) -> None:
        """A table's header row (a :class:`Text` header is a formula). Every
        table of the page has its label (a query, a cutoff, a range) in its
        first column and numbers in the others: their headers are
        right-aligned, over the numbers' right edge (left-aligned, in a
        column 12.5 characters wide, a count of 2 read under the next
        column's header on paper: "judged total open" over "2 3 1")."""
        shown = [h.cached if isinstance(h, Text) else h for h in headers]
        header_row(self.ws, self.fmt, self.row, shown, WIDTHS[: len(headers)])
        for c, h in enumerate(headers):
            style = self.fmt.header if c == 0 else self.fmt.header_right
            if isinstance(h, Text):
                self.ws.write_formula(self.row, c, "=" + h.formula, style, h.cached)
            elif c:
                self.ws.write_string(self.row, c, h, style)
        self.row += 1
