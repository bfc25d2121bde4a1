"""Small wide sheets as people type them, drawn as a kind of their own: a
CSV of 2-6 rows, a query and a document column, two or three annotators'
grades 0-3 a column each under their first names (``Alice``, ``Bob``),
half the time a rank column; the grades often count a query's documents
1, 2, … (or 0, 1, …) as a rank would, by chance as grades of a few small
queries do. The import must never drop one of those columns on a guess:
each annotator's grades are imported, or the import stops in one line
naming them and what to pass (the property test,
tests/test_import_properties.py, says which line). The truth is kept in a
:class:`Small`.
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
