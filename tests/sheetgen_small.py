"""Small wide sheets as people type them, drawn as a kind of their own: a
CSV of 2-6 rows, a query and a document column, two or three annotators'
grades 0-3 a column each under their first names (``Alice``, ``Bob``),
half the time a rank column; the grades often count a query's documents
1, 2, … (or 0, 1, …) as a rank would, by chance as grades of a few small
queries do. The import must never drop one of those columns on a guess:
each annotator's grades are imported, or the import stops in one line
naming them and what to pass (the property test,
tests/test_import_layouts.py, says which line). The truth is kept in a
:class:`Small`.

Small long sheets of one judge are a kind of their own too
(:func:`one_judge_sheets`): the judge's grades under a grade's header
(writing the scale's range or not) beside an unnamed rank or a second
judge's grades under a header naming no one. A rank's values the
declared scale does not hold are no grades and are left out; inside
it, a few small queries' grades could count as a rank does, so the
import reads the judge's grades or stops naming both ways
(tests/test_import_one_judge.py). The truth is kept in a :class:`OneJudge`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

#: Annotators named by their first names, as a small team types them.
FIRST_NAMES = ["Alice", "Bob", "Carol", "Dan", "Eve"]


@dataclass
class Small:
    """A small wide sheet: its rows (header first), its annotators (the
    grade columns' headers) and the truth, (query, document) -> annotator
    -> grade."""

    rows: list[list[Any]]
    annotators: list[str]
    truth: dict[tuple[str, str], dict[str, int]]


@st.composite
def small_wide_sheets(draw: Any) -> Small:
    """A hand-typed wide sheet (see the module's note): 2-6 rows in 1-3
    queries of 1-4 documents; each annotator's grades of a query drawn half
    the time as the query's documents counted 1..n (or 0..n-1), else at
    random 0-3; each column takes two values at least."""
    rnd = draw(st.randoms(use_true_random=False))
    sizes = [draw(st.integers(2, 4))]
    for n in draw(st.lists(st.integers(1, 4), max_size=2)):
        sizes.append(min(n, 6 - sum(sizes)))
    sizes = [n for n in sizes if n > 0]
    rnd.shuffle(sizes)
    names = rnd.sample(FIRST_NAMES, draw(st.integers(2, 3)))
    ranked = draw(st.booleans())
    queries = rnd.sample(["shoes", "hats", "red scarf", "q1", "q2", "weather paris"], len(sizes))
    grades: dict[str, list[int]] = {}
    for who in names:
        column: list[int] = []
        for n in sizes:
            if n > 1 and rnd.random() < 0.5:  # counting the query's documents
                base = rnd.choice([0, 1]) if n < 4 else 0
                column += rnd.sample(range(base, base + n), n)
            else:
                column += [rnd.randrange(4) for _ in range(n)]
        if len(set(column)) < 2:
            column[0] = (column[0] + 1) % 4
        grades[who] = column
    kinds = ["query", "doc", *names]
    if ranked:  # after the query (typed in order) or after the document
        kinds.insert(rnd.choice([1, 2]), "rank")
    said = {"query": rnd.choice(["query", "Query", "topic"]), "rank": "rank",
            "doc": rnd.choice(["doc", "Document", "doc_id"])}
    rows: list[list[Any]] = [[said.get(k, k) for k in kinds]]
    truth: dict[tuple[str, str], dict[str, int]] = {}
    i = 0
    for q, n in zip(queries, sizes, strict=True):
        for d in range(n):
            cells: dict[str, Any] = {"query": q, "doc": f"d{i + 1}", "rank": d + 1,
                                     **{who: grades[who][i] for who in names}}
            rows.append([cells[k] for k in kinds])
            truth[(q, f"d{i + 1}")] = {who: grades[who][i] for who in names}
            i += 1
    return Small(rows, names, truth)


#: One judge's grade column as a sheet heads it: naming grades alone, or
#: writing their range too (``Relevance (0-3)``: the scale declared).
JUDGE_HEADERS = ["relevance", "grade", "rating", "judgment"]
DECLARING = ["Relevance ({0}-{1})", "Rating ({0}-{1})", "grade [{0}-{1}]"]
#: Headers naming nothing, over a rank's values (as tests/sheetgen.py's UNNAMED).
RANK_HEADERS = ["value", "weight", "model", "output", "run_a"]
#: Headers of a second judge's grades naming no one (tests/sheetgen.py's
#: EXTRA_GRADE_HEADERS but the one naming grades).
SECOND_HEADERS = ["R2", "second opinion", "check", "Q2"]


@dataclass
class OneJudge:
    """A small sheet of one judge's grades (``judge``: the grade column's
    header) beside a column ``other`` of whole numbers: a rank counting
    each query's documents (``kind == "rank"``, no grades) or a second
    judge's grades on the same scale (``"second"``); the scale and whether
    the sheet (``declared``: its header) or the flags (``--rubric``)
    declare it; the truth, (query, document) -> column -> value."""

    rows: list[list[Any]]
    kind: str
    judge: str
    other: str
    scale: tuple[int, int]
    declared: bool
    flags: list[str]
    truth: dict[tuple[str, str], dict[str, int]]

    @property
    def leaves_scale(self) -> bool:
        """A rank whose values the declared scale does not hold (1..4 beside
        ``Relevance (0-3)``): no grades on it, so never taken for a judge's."""
        values = [v[self.other] for v in self.truth.values()]
        return self.kind == "rank" and self.declared and (
            min(values) < self.scale[0] or max(values) > self.scale[1])


@st.composite
def one_judge_sheets(draw: Any) -> OneJudge:
    """A long sheet of one judge typed by hand: 2-3 queries of 2-5
    documents, the judge's grades (0-3, 1-5, 0-2 or 0-1, two values at
    least) under a grade's header, which half the time writes the range
    (or ``--rubric`` declares it), beside an unnamed rank (1..n, or 0..n-1,
    in the rows' order or not) or a second judge's grades under a header
    naming no one (see :class:`OneJudge`)."""
    rnd = draw(st.randoms(use_true_random=False))
    kind = draw(st.sampled_from(["rank", "rank", "second"]))
    lo, hi = draw(st.sampled_from([(0, 3), (1, 5), (0, 2), (0, 1)]))
    sizes = [draw(st.integers(2, 5)) for _ in range(draw(st.integers(2, 3)))]
    how = draw(st.sampled_from(["header", "flag", "none", "none"]))
    judge = (rnd.choice(DECLARING).format(lo, hi) if how == "header"
             else rnd.choice(JUDGE_HEADERS))
    other = rnd.choice(RANK_HEADERS if kind == "rank" else SECOND_HEADERS)
    grades = [rnd.randint(lo, hi) for _ in range(sum(sizes))]
    grades[0], grades[-1] = lo, hi  # (two values at least)
    if kind == "rank":
        base, typed = rnd.choice([1, 1, 1, 0]), rnd.random() < 0.7
        values = []
        for n in sizes:
            ranks = list(range(base, base + n))
            if not typed:
                rnd.shuffle(ranks)
            values += ranks
    else:
        values = [rnd.randint(lo, hi) for _ in range(sum(sizes))]
        if len(set(values)) < 2:
            values[0] = hi if values[0] == lo else lo
    rows: list[list[Any]] = [["query", "doc", other, judge]]
    truth: dict[tuple[str, str], dict[str, int]] = {}
    i = 0
    for q, n in enumerate(sizes):
        for _ in range(n):
            key = (f"q{q + 1}", f"d{i + 1}")
            rows.append([*key, values[i], grades[i]])
            truth[key] = {judge: grades[i], other: values[i]}
            i += 1
    flags = ["--rubric", ",".join(map(str, range(lo, hi + 1)))] if how == "flag" else []
    return OneJudge(rows, kind, judge, other, (lo, hi), how != "none", flags, truth)
