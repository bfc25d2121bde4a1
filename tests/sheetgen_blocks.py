"""Sheets laid out in blocks no column says the query of, drawn as kinds of
their own: a pivot table's compact layout (a query written once, on its
block's first row, the blocks apart by a total and a blank row, as Excel
and Google Sheets export a pivot of grades by annotator) and titled blocks
(each query's rows under a title row, ``Query: ...``, and a header row of
their own, apart by blank rows). The import reads neither as judgments: it
refuses each in one line naming the rows that show the layout (the
property test, tests/test_import_layouts.py, says which line); the
lines expected are kept in a :class:`Blocks`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from tests.sheetgen_drawn import PEOPLE, QUERIES

#: The layouts drawn (:func:`block_sheets`).
BLOCK_KINDS = ["pivot", "titled"]


@dataclass
class Blocks:
    """A sheet of blocks: its rows (as written, header first for a pivot),
    its ``kind`` (:data:`BLOCK_KINDS`), and the file rows (1-based) the
    refusal names: a pivot's first row whose query is empty and the row
    its block's query is written on; titled blocks' first header row, the
    rows it is written again on and the first title row and its text."""

    rows: list[list[Any]]
    kind: str
    empty_at: int = 0
    query_at: int = 0
    header_at: int = 0
    again_at: list[int] = field(default_factory=list)
    title: tuple[str, int] = ("", 0)
    flags: list[str] = field(default_factory=list)


@st.composite
def block_sheets(draw: Any, kind: str | None = None) -> Blocks:
    """A pivot table's compact layout or titled blocks (``kind``, else one of
    :data:`BLOCK_KINDS` drawn): 2-4 queries of 3-5 documents each, graded
    0-3 by 2-3 annotators a column each (named by their names), under
    headers drawn from those such sheets carry (the source under ``Result``,
    a header naming none, read from its values); half the pivots a total row
    of each query (``QUERY Total``: a summary row, never the source's
    blank) and a grand total at the end, the others blank rows alone."""
    rnd = draw(st.randoms(use_true_random=False))
    kind = kind or draw(st.sampled_from(BLOCK_KINDS))
    n_q, n_people = draw(st.integers(2, 4)), draw(st.integers(2, 3))
    per_q = [rnd.randint(3, 5) for _ in range(n_q)]
    names = PEOPLE["name"][:n_people]
    head = [rnd.choice(["Query", "Topic", "query"]), rnd.choice(["Document", "doc_id", "Result"]),
            *names]
    blocks = [[[f"D{q}{d:02d}", *(rnd.randrange(4) for _ in names)] for d in range(n)]
              for q, n in enumerate(per_q)]
    for level, row in enumerate([*blocks[0], *blocks[1]][:4]):
        row[1] = level  # every level given once (grades, not a constant column)
    if kind == "titled":
        return _titled(rnd.choice(["Query: ", "Topic: ", "Query – "]), ["Rank", *head[1:]],
                       blocks)
    rows: list[list[Any]] = [head]
    totals = rnd.random() < 0.5  # subtotals (or the blank rows alone) and a grand total
    for q, block in enumerate(blocks):
        rows += [[QUERIES[q] if d == 0 else "", *cells] for d, cells in enumerate(block)]
        rows += [*([[f"{QUERIES[q]} Total", "", *([""] * n_people)]] if totals else []),
                 [""] * len(head)]
    if totals:
        rows.append(["Grand Total", "", *([""] * n_people)])
    return Blocks(rows, "pivot", empty_at=3, query_at=2)


def _titled(said: str, head: list[str], blocks: list[list[list[Any]]]) -> Blocks:
    """Each query's rows under a title row (``said`` and the query) and a
    header of their own (``head``, its first column the rank), blank rows
    between the blocks."""
    rows: list[list[Any]] = []
    headers = []
    for q, block in enumerate(blocks):
        rows.append([f"{said}{QUERIES[q]}"])
        rows.append(list(head))
        headers.append(len(rows))
        rows += [[d + 1, *cells] for d, cells in enumerate(block)]
        rows.append([])
    return Blocks(rows, "titled", header_at=headers[0], again_at=headers[1:],
                  title=(rows[0][0], 1))
