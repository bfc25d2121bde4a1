"""The records an import's data rows make: :class:`Rows`, the rows as read
(:func:`core.io.annotator.rows.read_rows`), and :class:`Candidates`, one per
query and source (:func:`core.io.annotator.rows.find_candidates`); apart
from the reading so that the items no one judged
(:mod:`core.io.annotator.unheard`), which take both, are read beside it."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

__all__ = ["BoolArray", "Candidates", "FloatArray", "IntArray", "Rows"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


class Rows(NamedTuple):
    """The data rows as read: each row's query and source, the distinct
    queries (first seen first) and sources, the rows imported (``alive``),
    the cells a formula refused (data row -> columns), each row's score,
    the rows that hold a judgment (``judged``: not blank, not a total
    row or another row without a source id and grades), and the rows the
    platform marks as declined, a draft or rejected (``declined``: row -> kind,
    :data:`~core.io.annotator.rows.KEPT_UNKNOWN`), skipped, whose item is still a candidate."""

    query: list[str]
    source: list[str]
    queries: dict[str, None]
    sources: set[str]
    alive: BoolArray
    bad_cells: dict[int, set[int]]
    score: FloatArray
    judged: BoolArray
    declined: dict[int, str]
    #: rows naming no one, their grade blank (:func:`~core.io.annotator.rows.read_rows`)
    no_one: frozenset[int] = frozenset()
    #: the rows of items no row grades whose record lists drafts by their
    #: ids alone (:func:`~core.io.annotator.unheard.drafted`)
    drafted: frozenset[int] = frozenset()


class Candidates(NamedTuple):
    """The candidates: one per (query, source), from its first data row.

    ``rows`` are the data rows whose grades are read and ``of_row`` their
    candidate (with one grade column and no annotator, a repeated row is
    not read: only the first rows are). ``every_row``: each data row is its
    own candidate. An item whose every row was declined
    (:data:`~core.io.annotator.rows.KEPT_UNKNOWN`) is a candidate from its first such row, none of
    its rows read: its grade unknown.
    """

    n: int
    rows: IntArray
    of_row: IntArray
    first_rows: IntArray
    score: FloatArray
    query: list[str]
    source: list[str]
    version: list[str]
    every_row: bool
