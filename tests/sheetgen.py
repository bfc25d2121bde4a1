"""A generator of annotators' sheets: the way the import is tested (issue 33).

A sheet is composed from column kinds drawn at random: the query, the
source id (of many shapes), who judged (in many forms), the grades (in the
scales and writings people use; one column, or one per annotator), a
ranking (a score or a rank, under a ranking's name or under none) and
distractors (timestamps, durations, prices, counts, row numbers and record
ids, confidences, booleans, platform status and quality columns, free
text, counts of a few values (101-103, drawn when asked for), times
written as text or as whole seconds or milliseconds since 1970), each
under a realistic, a neutral or a misleading header, in a long, wide or
transposed layout. The truth of every judgment is kept aside in a
:class:`Drawn`, for the property tests (tests/test_import_properties.py)
to compare with what the import made of the file.

The queries, ids, people, scales and :class:`Drawn` are declared in
tests/sheetgen_drawn.py, the distractors' cells drawn by
tests/sheetgen_columns.py's makers and the legends by
tests/sheetgen_legends.py; :func:`sheets` composes a sheet in steps (the plan, the truth, the grade
columns, the ranking, the distractors, the table, the legends). To add a
column kind, see docs/import.md ("Adding a column kind").
Platforms' and tools' exports, with their own header rows, bookkeeping
and nesting, are drawn by tests/platformgen.py (sheets) and
tests/platformgen_json.py (JSON exports).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from random import Random
from typing import Any

from hypothesis import strategies as st

from tests.sheetgen_columns import (
    DISTRACTORS,
    WORDED,
    batches,
    distractor,
    ranks,
    reads_as_grades,
    row_batches,
    steps_up,
    tally,
    within_queries,
)
from tests.sheetgen_drawn import PEOPLE, QUERIES, QUESTIONS, SCALES, SOURCE_SHAPES, Drawn
from tests.sheetgen_legends import WORD_SCALES, key_column, scale_legend, words_legend

#: Headers by role: realistic ones, and neutral ones (``col3``) from the layout.
GRADE_HEADERS = ["relevance", "Answer.relevance", "grade", "Relevance (0-3)", "rating",
                 "label", "judgment"]
QUERY_HEADERS = ["query", "Query Text", "Input.query", "topic", "search_term"]
SOURCE_HEADERS = ["doc_id", "url", "Input.doc_id", "docno", "product_id", "passage_id"]
WHO_HEADERS = ["annotator", "WorkerId", "Email Address", "rater_id", "_worker_id"]
SCORE_NAMES = ["score", "bm25_score", "retrieval.score", "Model Score", "bm25Score",
               "Score (cosine)", "SCORE", "bm25-score", "similarity", "logit",
               "retrieval_score"]
RANK_NAMES = ["rank", "rank (run A)", "position_in_serp", "Rank", "retrieval.rank", "ranking",
              "serp_position", "pos", "Rank in results"]
#: Headers of a second column of grades that say nothing of whose.
EXTRA_GRADE_HEADERS = ["R2", "second opinion", "check", "relevance (2nd pass)", "Q2"]
#: ... and under an annotator's name (drawn with ``sheets(extra=True)``).
NAMED_EXTRA = ["grade_Dana"] * len(EXTRA_GRADE_HEADERS)
#: Headers naming no grade, under which a column of labels may come.
UNNAMED_LABELS = ["verdict", "outcome", "decision", "call"]
#: Headers that name no ranking, under which a ranking's values may come.
UNNAMED = ["value", "weight", "model", "output", "run_a"]


@dataclass
class Column:
    """One column: its header, its cells (one per row of the long table),
    its kind, and whether it holds grades (``grade_of``: whose, ``""`` for
    the one grade column)."""

    header: str
    cells: list[Any]
    kind: str
    grade_of: str | None = None


#: Google Sheets' checkboxes: false 0, true 1 (a workbook's booleans, or
#: the words as a CSV export writes them).
CHECKBOXES: dict[str, tuple[list[int], Callable[[int], Any]]] = {
    "checkbox": ([0, 1], lambda g: bool(g))}
@dataclass
class Run:
    """A drawn run as MS MARCO writes one (qid, pid, rank; rank 1..n within
    each query), with no grades: its rows (a header first unless
    headerless) and the rank column's letter."""

    rows: list[list[Any]]
    rank_letter: str
    headerless: bool
    flags: list[str] = field(default_factory=list)


@st.composite
def runs(draw: Any) -> Run:
    """A run with no grades, headerless or under neutral headers (``col3``,
    ``qid,pid,n``), ranks in row order or not; 2-5 queries, one of 7 rows
    or more (a run of one query has no query column to read); a headerless
    run's first row is data (numbers under numbers), read as such."""
    rnd = draw(st.randoms(use_true_random=False))
    sizes = [draw(st.integers(7, 25)), *draw(st.lists(st.integers(2, 25), min_size=1,
                                                           max_size=4))]
    numeric = draw(st.booleans())
    shape = draw(st.sampled_from(sorted(SOURCE_SHAPES)))
    per_row = [(q, d, "") for q, n in enumerate(sizes) for d in range(n)]
    cols = [[1048585 + 7 * q if numeric else QUERIES[q] for q, _, _ in per_row],
            [SOURCE_SHAPES[shape](q, d) for q, d, _ in per_row], ranks(rnd, per_row)]
    order = draw(st.permutations(range(3)))
    headers = draw(st.sampled_from(["none", "col", "named"]))
    names = {"none": [], "col": ["col1", "col2", "col3"],
             "named": ["qid", "pid", draw(st.sampled_from(UNNAMED))]}[headers]
    rows = [list(r) for r in zip(*(cols[i] for i in order), strict=True)]
    if names:
        rows.insert(0, [names[i] if headers == "named" else f"col{k + 1}"
                        for k, i in enumerate(order)])
    return Run(rows, "ABC"[order.index(2)], headers == "none")


SHAPES = ["long", "long", "wide", "transposed"]
#: Marks of no grade a grade cell may hold (``sheets(marked=True)``), each
#: with the flags that declare it (none for the default marks).
MARKS: dict[str, list[str]] = {"?": [], "unknown": [], "n/a": [], "skip": [],
                               "can't tell": [], "unsure": ["--unrateable", "unsure"]}


@st.composite
def sheets(draw: Any, among: tuple[str, ...] = (), headers: str | None = None,
           topics: bool = False, flat: bool = False, latin: bool = False,
           split: bool = False, gaps: bool = False, extra: bool = False,
           legend: str | None = None, unread: bool = False,
           checkbox: bool = False, key: bool = False, blanks: bool = False,
           unnamed: bool = False, off_range: bool = False, places: bool = False,
           two_headers: bool = False, marked: bool = False, marks: bool = False) -> Drawn:
    """A drawn annotators' sheet (see the module's note), as its keywords
    ask (:class:`Asked` says what each does)."""
    ask = Asked(among, headers, topics, flat, latin, split, gaps, extra, legend, unread,
                checkbox, key, blanks, unnamed, off_range, places, two_headers, marked, marks)
    p = _draw_plan(draw, ask)
    _draw_truth(draw, p, ask)
    ranking = draw(st.sampled_from(["score", "rank"] if split or gaps
                                   else ["none", "score", "rank"]))
    named = draw(st.booleans())
    declare = ranking != "none" and not named and (split or gaps or draw(st.booleans()))
    # A few small queries, one row per item: grades count each query's
    # items 1..n by chance often enough that a rank under a header naming
    # nothing may be an annotator's grades; the import may refuse there
    # (docs/import.md, "A rank is never the grade").
    # (a marked sheet's queries of three items each, up to four: as few)
    small = (p.n_q <= 3 or ask.marked) and p.per_q <= 4 and (
        p.layout != "long" or len(p.people) == 1)
    kinds = draw(st.lists(st.sampled_from(DISTRACTORS), max_size=5, unique=True))
    if ask.marked and draw(st.booleans()):  # a bare sheet: query, id, grades
        kinds = []
    if among and not set(kinds) & set(among):
        kinds.append(draw(st.sampled_from(among)))
    sheet = Drawn(rows=[], layout=p.layout, truth={}, kinds=kinds)
    if p.layout == "transposed":
        _transposed(sheet, p.rnd, p.people, p.truth, p.ids, p.write, kinds, ask.places)
        return sheet
    # the long table: one row per judgment (long) or per item (wide)
    per_row = [(q, d, who) for q, d in p.items
               for who in (list(p.truth[(q, d)]) if p.layout == "long" else [""])]
    cols = _grade_columns(draw, p, ask, sheet, per_row)
    ranked = None
    if ranking != "none":
        ranked = _ranking_column(draw, p, ask, sheet, per_row, ranking, named, declare)
        cols.append(ranked)
        sheet.ambiguous |= ranking == "rank" and not named and not declare and small
    _distractor_columns(p, sheet, cols, per_row, small)
    if flat and p.layout == "long" and p.headers == "neutral":  # grades counting up by query
        sheet.ambiguous |= steps_up(next(c.cells for c in cols if c.kind == "grade"))
    p.rnd.shuffle(cols)
    if p.headers == "neutral":  # every column but a wide sheet's grades and the ranking
        for i, c in enumerate(cols):
            if c.kind not in ("grade", "extra grade", "score",
                              "rank") or (
                    c.kind == "grade" and p.layout == "long"):
                c.header = f"col{i + 1}"
    if ask.two_headers:  # names over two rows: "Query" over "text", "Relevance" over "grade"
        _two_row_names(p.rnd, cols)
    _unique_headers(cols)
    if ranked is not None and ranked.header != sheet.ranking:  # a rank drawn under its name
        sheet.ranking = ranked.header
        sheet.flags = ["--map", f"{ranking}={ranked.header}"] if declare else []
    _table(p, sheet, cols)
    if ask.two_headers:  # each name split at its first space, the rest on the row below
        parts = [str(h).partition(" ") for h in sheet.rows[0]]
        sheet.header_rows = [[a for a, _, _ in parts], [b for _, _, b in parts]]
    _legends(p, ask, sheet)
    if ask.marked:  # the mark's meaning declared where it is no default mark
        sheet.flags += MARKS[next(iter(p.marked.values()))]
    return sheet


@dataclass(frozen=True)
class Asked:
    """What :func:`sheets` is asked for: with ``among``, one
    distractor of those kinds at least, ``headers`` (realistic or neutral)
    when given, with ``topics`` the queries written as TREC writes
    them, numbers from 1, 51 or 301 (small ones read like grades), and
    with ``flat`` a tiny sheet (2-3 queries of 2-3 items) whose annotators
    each grade all of a query's items alike; with ``latin`` a long sheet
    whose workers are numbered 1..n and each judge one item per query (a
    Latin square: worker j * items + d + 1 judges item d of every query,
    2-3 of them each item), so that their numbers count each query's rows
    as a rank's would; with ``split`` a long sheet of two judges or more
    whose ranking (a score or a rank, under a ranking's name or declared)
    gives one item's second judgment another value than its first (a
    ranking disagreeing with itself: :attr:`Drawn.split`); with ``gaps`` a
    long sheet of two judges or more whose ranking (named or declared)
    leaves some items' first row blank, a later row of theirs giving it
    (:attr:`Drawn.gaps`; drawn in a third of such sheets anyway); with
    ``extra`` a long sheet of one judge with a second column of grades
    beside the grade column (:attr:`Drawn.extra_grade`, drawn in a fifth of
    such sheets anyway), half the time under an annotator's name
    (``grade_Dana``); with ``legend`` a legend of the grade scale
    (``"right"``, or ``"wrong"``: without the top grade the grades use), in
    rows above the header or on a sheet of its own
    (:func:`~tests.sheetgen_legends.scale_legend`); with ``legend="labels"``
    (or ``"labels wrong"``, lacking the top label) a legend of the grades'
    labels without grades, the labels on a known scale or on none
    (:func:`~tests.sheetgen_legends.words_legend`); with ``unread`` a long
    sheet of one judge graded in labels on no known scale
    (:data:`~tests.sheetgen_legends.WORDS`, no legend) under a grade's
    name, beside a column of whole numbers 1 to 4 under a header naming
    nothing (kind ``numbers``, no judgment: drawn apart from the grades),
    which the import must never take for the grades; with ``checkbox`` a
    wide sheet of Google Sheets' checkboxes, one column per annotator
    (``Relevant? (Ana)``), true or false (a workbook's booleans, or the
    words): a binary grade, true 1; with ``key`` a key of the scale's
    labels in a column beside the judgments
    (:func:`~tests.sheetgen_legends.key_column`); with ``blanks`` a long or
    wide sheet with a fifth of its grade cells left blank (no judgment:
    each judgment drawn there is no more in the truth; ``blank_cells``
    counts them); with ``unnamed`` a long sheet graded in labels (a known
    scale's, or :data:`~tests.sheetgen_legends.WORDS`) under a header
    naming no grade (:data:`UNNAMED_LABELS`), no other column of grades
    beside them; with ``off_range`` a long sheet graded 0-3 under
    ``Relevance (0-3)`` with one cell 4 (:attr:`Drawn.off_range`: the
    import must refuse it, the truth kept as drawn); with ``places`` a
    transposed sheet whose cells hold texts reading like places
    (:func:`_places`: :attr:`Drawn.planted`, :attr:`Drawn.again`); with
    ``two_headers`` a long sheet whose header is written over two rows,
    each name split at its first space (``Query`` over ``text``,
    ``Relevance`` over ``grade``, ``Doc`` over ``ID``: :attr:`Drawn.header_rows`),
    the names joined the truth (``rows[0]``); with
    ``marked`` a long sheet of one judge or a wide sheet whose first data
    row's grades are a mark of no grade (:data:`MARKS`: ``?``, ``n/a``,
    ``unsure`` declared by ``--unrateable unsure``), each query of three
    items, half of them with no distractor: a row of data, never a
    header's (its judgments are no more in the truth; the row is
    imported, its grades unknown or unrateable); with
    ``marks`` a wide sheet graded in numbers, each annotator's column
    under their bare name (``Alice``, ``Bob``), the last annotator's
    grading each query's items alike and marking every item of some
    queries (not all) with a mark (:data:`QUERY_MARKS`: ``N/A``, ``?``,
    ``paywall``, declared ``--unrateable paywall``), one value per query,
    no two queries alike: a column one to one with the queries, as a
    query's text is (:func:`_marked`; :attr:`Drawn.marks`)."""

    among: tuple[str, ...]
    headers: str | None
    topics: bool
    flat: bool
    latin: bool
    split: bool
    gaps: bool
    extra: bool
    legend: str | None
    unread: bool
    checkbox: bool
    key: bool
    blanks: bool
    unnamed: bool
    off_range: bool
    places: bool
    two_headers: bool
    marked: bool
    marks: bool


@dataclass
class _Plan:
    """What a sheet is drawn from before its columns: the queries (as the
    sheet writes them: :meth:`said`), the items and their ids, the people,
    the scale and how it is written, the headers' kind, the truth of each
    judgment (item -> whose -> grade) and the grade cells left blank."""

    rnd: Random
    first: int | None
    layout: str
    n_q: int
    per_q: int
    people: list[Any]
    scale: str
    grades: list[int]
    write: Callable[[int], Any]
    shape: str
    headers: str
    #: Graded in labels (a legend of them, ``unread`` or ``unnamed``).
    words: bool
    items: list[tuple[int, int]] = field(default_factory=list)
    ids: dict[tuple[int, int], Any] = field(default_factory=dict)
    truth: dict[tuple[int, int], dict[Any, int]] = field(default_factory=dict)
    blanked: set[tuple[int, int, Any]] = field(default_factory=set)
    #: Grade cells holding a mark of no grade (``marked``, ``marks``): cell -> the mark.
    marked: dict[tuple[int, int, Any], str] = field(default_factory=dict)
    off: tuple[int, int] | None = None

    def said(self, q: int) -> Any:
        """The query as the sheet writes it."""
        return QUERIES[q] if self.first is None else self.first + q

    def written(self, q: int, d: int, w: Any) -> Any:
        """A grade cell as the sheet holds it."""
        if (q, d, w) in self.marked:
            return self.marked[(q, d, w)]
        return "" if (q, d, w) in self.blanked else self.write(self.truth[(q, d)][w])


def _draw_plan(draw: Any, ask: Asked) -> _Plan:
    """The layout, the size, the people, the scale, the ids' shape and the
    headers' kind, drawn as ``ask`` allows."""
    rnd = draw(st.randoms(use_true_random=False))
    first = draw(st.sampled_from([1, 1, 51, 301])) if ask.topics else None
    layout = "transposed" if ask.places else "wide" if ask.checkbox or ask.marks or (
        ask.marked and draw(st.integers(0, 3)) == 0) \
        else "long" if ask.split or ask.gaps or ask.extra \
        or ask.unread or ask.unnamed or ask.off_range or ask.two_headers \
        else draw(
        st.sampled_from(SHAPES[:3] if ask.legend or ask.key or ask.blanks or ask.marked
                        else SHAPES))
    n_q, per_q = draw(st.integers(2, 4)), draw(st.integers(3, 5))
    if ask.flat:
        n_q, per_q = min(n_q, 3), max(2, per_q - 2)
    if ask.marked:  # a short first query: its rows end before the data looked at
        per_q = 3
    people = PEOPLE[draw(st.sampled_from(sorted(PEOPLE)))][:draw(st.integers(1, 3))]
    if ask.extra or ask.unread or (ask.marked and layout == "long"):
        people = people[:1]
    if layout != "long" or ask.split or ask.gaps:
        people = people[:max(2, len(people))] if len(people) > 1 else PEOPLE["name"][:2]
    if ask.checkbox or ask.marks:  # a form's checkbox per person, named by their name
        people = PEOPLE["name"][:len(people)]
    if ask.places:  # four respondents and a second submission: a place-like text in a
        people = PEOPLE["email"]  # column is still one answer in five
    words = (ask.legend is not None and ask.legend.startswith("labels")) or ask.unread \
        or ask.unnamed
    drawn_scales = WORD_SCALES if words else CHECKBOXES if ask.checkbox else SCALES
    scale = "words" if ask.unread else "0-3" if ask.off_range else draw(
        st.sampled_from(["0-3", "1-5"])) if ask.marks else draw(
        st.sampled_from(sorted(drawn_scales)))
    grades, write = drawn_scales[scale]
    shape = draw(st.sampled_from(sorted(SOURCE_SHAPES)))
    headers = "realistic" if ask.unread or ask.checkbox or ask.unnamed or ask.off_range \
        or ask.two_headers or ask.marks \
        else ask.headers or draw(st.sampled_from(["realistic", "realistic", "neutral"]))
    return _Plan(rnd, first, layout, n_q, per_q, people, scale, grades, write, shape, headers,
                 words)


def _draw_truth(draw: Any, p: _Plan, ask: Asked) -> None:
    """The items, their ids and the grades each person gives them (alike
    within a query when ``flat``; a Latin square of numbered workers when
    ``latin``), and the grade cells left blank (``blanks``)."""
    rnd, grades = p.rnd, p.grades
    items = p.items = [(q, d) for q in range(p.n_q) for d in range(p.per_q)]
    p.ids = {(q, d): SOURCE_SHAPES[p.shape](q, d) for q, d in items}
    truth = {(q, d): {who: rnd.choice(grades) for who in p.people} for q, d in items}
    for who in p.people:  # each grade column takes at least its scale's ends (no constant)
        truth[items[0]][who], truth[items[-1]][who] = grades[0], grades[-1]
    if ask.flat:  # each of a query's items graded as its first
        truth = {(q, d): dict(truth[(q, 0)] if q < p.n_q - 1 else truth[items[-1]])
                 for q, d in items}
    if ask.latin:
        p.layout, m = "long", draw(st.integers(2, 3))
        p.people = list(range(1, m * p.per_q + 1))
        truth = {(q, d): {j * p.per_q + d + 1: rnd.choice(grades) for j in range(m)}
                 for q, d in items}
        truth[items[0]][1], truth[items[-1]][m * p.per_q] = grades[0], grades[-1]
    p.truth = truth
    if ask.marks:
        _marked(draw, p)
    if ask.blanks:  # (never an end of the scale that keeps a column from being constant)
        cells = sorted(((q, d, w) for (q, d), by in truth.items() for w in by
                        if (q, d) not in (items[0], items[-1])), key=str)
        p.blanked = set(rnd.sample(cells, max(1, len(cells) // 5)))
    if ask.marked:  # the first row's grades a mark; the scale's low end on the next item
        mark = draw(st.sampled_from(sorted(MARKS)))
        for who in p.people:
            truth[items[1]][who] = grades[0]
            p.marked[(*items[0], who)] = mark
            p.blanked.discard((*items[0], who))


#: The marks a drawn annotator writes where no grade is given (``sheets(marks=True)``):
#: read unrateable, unknown, and unrateable once declared so.
QUERY_MARKS = ["N/A", "?", "paywall"]


def _marked(draw: Any, p: _Plan) -> None:
    """The last annotator's grades made one per query, alike over its items,
    no two queries alike, the items of some queries (at least one, never
    all, never the first) marked instead (:data:`QUERY_MARKS`): in ``p.truth`` and
    ``p.marked``."""
    who, queries = p.people[-1], list(range(p.n_q))
    n_marked = draw(st.integers(1, min(len(QUERY_MARKS), p.n_q - 1)))
    # (never the first query: the rows under the header hold grades; marks
    # there, '0' beside '?', are read as more header rows, another matter)
    marked = set(draw(st.permutations(queries[1:]))[:n_marked])
    marks = iter(draw(st.permutations(QUERY_MARKS)))
    grades = iter(draw(st.permutations(p.grades)))
    for q in queries:
        mark, grade = (next(marks), None) if q in marked else ("", next(grades))
        for d in range(p.per_q):
            if mark:
                p.marked[(q, d, who)] = mark
            else:
                p.truth[(q, d)][who] = grade


def _grade_columns(draw: Any, p: _Plan, ask: Asked, sheet: Drawn,
                   per_row: list[tuple[int, int, Any]]) -> list[Column]:
    """The query, the source, who judged (a long sheet of several) and the
    grades: one column (long; with a cell off its range, numbers beside
    it, labels under a header naming no grade or a second judge's grades,
    as asked or drawn) or one per person (wide)."""
    rnd = p.rnd
    cols = [Column(rnd.choice(QUERY_HEADERS), [p.said(q) for q, _, _ in per_row], "query"),
            Column(rnd.choice(SOURCE_HEADERS), [p.ids[(q, d)] for q, d, _ in per_row],
                   "source")]
    if p.layout != "long":
        for who in p.people:
            cols.append(Column(f"Relevant? ({who})" if ask.checkbox else str(who) if ask.marks
                               else
                               f"grade_{who}".replace("@", "_at_").replace(".", "_"),
                               [p.written(q, d, who) for q, d, _ in per_row], "grade",
                               str(who)))
        return cols
    if len(p.people) > 1:
        cols.append(Column(rnd.choice(WHO_HEADERS), [w for _, _, w in per_row], "who"))
    head = rnd.choice(GRADE_HEADERS)  # a range written is the scale's (never 1-5 under 0-3)
    head = head.replace("(0-3)", f"({p.scale})") if p.scale in ("0-3", "1-5") else head
    cols.append(Column("Relevance (0-3)" if ask.off_range else head, [
        p.written(q, d, w) for q, d, w in per_row], "grade", ""))
    if ask.off_range:  # one grade off the range its header declares: refused, never read
        i = rnd.randrange(1, len(per_row) - 1)
        cols[-1].cells[i] = 4
        p.off = (i + 2, 4)
    if ask.unread:  # numbers like grades, drawn apart from them
        numbers = [rnd.randint(1, 4) for _ in per_row]
        numbers[:2] = [4, 1]
        cols.append(Column(rnd.choice(UNNAMED), numbers, "numbers"))
    elif ask.unnamed:  # the labels under a header that names no grade
        cols[-1].header = rnd.choice(UNNAMED_LABELS)
    elif len(p.people) == 1 and not ask.flat and not ask.off_range and (
            ask.extra or draw(st.integers(0, 4)) == 0):
        # a second judge's grades beside the first, under a name no
        # rule reads as whose: used or refused, never dropped (not on
        # a flat sheet: beside a grade named so, grades alike within
        # each query are a group's number, as docs/import.md says)
        grades = p.grades
        second = [grades[(i * 7 + 3) % len(grades)] for i in range(len(per_row))]
        second[:2] = [grades[-1], grades[0]]
        cols.append(Column(rnd.choice(EXTRA_GRADE_HEADERS + NAMED_EXTRA * ask.extra),
                           [p.write(g) for g in second], "extra grade"))
        sheet.extra_grade = True
    return cols


def _ranking_column(draw: Any, p: _Plan, ask: Asked, sheet: Drawn,
                    per_row: list[tuple[int, int, Any]], ranking: str, named: bool,
                    declare: bool) -> Column:
    """The ranking: distinct scores, or each query's ranks by them, under a
    ranking's name or one naming nothing (``--map`` declares it when
    ``declare``); disagreeing with itself (``split``) or with gaps
    (``gaps``, or drawn in a third of the long sheets of several judges)."""
    rnd, items = p.rnd, p.items
    scores = {it: round(rnd.uniform(0.05, 40.0) + 0.0137 * k, 4)  # distinct
              for k, it in enumerate(items)}
    order = {it: r + 1 for q in range(p.n_q) for r, it in enumerate(
        sorted([it for it in items if it[0] == q], key=lambda it: -scores[it]))}
    values = scores if ranking == "score" else order
    header = rnd.choice(SCORE_NAMES if ranking == "score" else RANK_NAMES) if named \
        else rnd.choice(UNNAMED)
    ranked = Column(header, [values[(q, d)] for q, d, _ in per_row], ranking)
    if ask.split:
        _split(sheet, rnd, ranked, per_row, p.said, p.ids)
    elif p.layout == "long" and len(p.people) > 1 and (named or declare) and (
            ask.gaps or draw(st.integers(0, 2)) == 0):
        _gaps(sheet, rnd, ranked, per_row, p.said, p.ids)
    sheet.ranking, sheet.ranking_named = header, named
    sheet.ranking_values = {(str(p.said(q)), str(p.ids[(q, d)])): float(
        values[(q, d)] if ranking == "score" else -values[(q, d)]) for q, d in items}
    if declare:
        sheet.flags = ["--map", f"{ranking}={header}"]
    return ranked


def _distractor_columns(p: _Plan, sheet: Drawn, cols: list[Column],
                        per_row: list[tuple[int, int, Any]], small: bool) -> None:
    """A column of each of the sheet's distractor kinds (``sheet.kinds``),
    marking the sheet ambiguous where one could pass for grades (or a
    query) under a header that says nothing."""
    rnd, layout, headers = p.rnd, p.layout, p.headers
    start = datetime(2024, 3, 4, 10, 0)
    for kind in sheet.kinds:
        if kind == "tally":
            cells, names, gradey = tally(rnd, per_row), ["count", "num_results", "views"], False
        elif kind == "worded":  # each row's grade again, in words of its own
            graded = next((c.cells for c in cols if c.kind == "grade"), None)
            if graded is None or layout != "long" or p.off is not None:
                continue
            levels = sorted(set(map(str, graded)))
            cells = [WORDED[levels.index(str(g))] for g in graded]
            names, gradey = ["verdict_words", "in_words", "wording"], False
        elif kind == "query_text":  # each query's text, the same on each of its rows
            if layout == "transposed":
                continue
            cells = [QUESTIONS[q] for q, _, _ in per_row]
            names, gradey = ["prompt", "user_question", "utterance"], False
            sheet.query_texts = {str(p.said(q)): QUESTIONS[q] for q in range(p.n_q)}
        elif kind in ("batch", "row_batch"):  # small whole numbers of no document's judgment
            cells = (batches if kind == "batch" else row_batches)(rnd, per_row)
            names, gradey = ["batch", "Batch", "group", "round", "HITBatch"], False
            # runs that each stay within one query, under a header that says
            # nothing, are what topic numbers beside their category in words
            # would be: a reader could not tell which is the query either
            sheet.ambiguous |= kind == "row_batch" and headers == "neutral" \
                and within_queries(cells, per_row)
        elif kind == "rank":  # small whole numbers, yet never grades: the import must know
            cells, names, gradey = ranks(rnd, per_row), UNNAMED, False
            sheet.ambiguous |= small  # (unless grades could count so by chance)
        else:
            cells, names, gradey = distractor(kind, rnd, len(per_row), start)
            gradey |= reads_as_grades(cells)
        cols.append(Column(rnd.choice(names), cells, kind))
        sheet.ambiguous |= gradey and headers == "neutral"


def _table(p: _Plan, sheet: Drawn, cols: list[Column]) -> None:
    """The sheet's rows (header first) from its columns, and what they hold:
    each column's kind, the grades' headers and the truth of each judgment
    (one grade an item on a long sheet of one judge; blanks left out)."""
    sheet.rows = [[c.header for c in cols], *[list(r) for r in zip(*(c.cells for c in cols),
                                                                  strict=True)]]
    sheet.column_kinds = [c.kind for c in cols]
    sheet.grade_headers = [c.header for c in cols if c.grade_of is not None]
    sheet.grade_headers += [c.header for c in cols if c.kind == "extra grade"]
    sheet.truth = {(str(p.said(q)), str(p.ids[(q, d)])): sorted(
        float(g) for w, g in p.truth[(q, d)].items()
        if (q, d, w) not in p.blanked and (q, d, w) not in p.marked)
        for q, d in p.items}
    sheet.marks = {(str(p.said(q)), str(p.ids[(q, d)]), str(w)): mark
                   for (q, d, w), mark in p.marked.items()}
    if "paywall" in p.marked.values():
        sheet.flags = [*sheet.flags, "--unrateable", "paywall"]
    sheet.blank_cells = len(p.blanked)
    sheet.off_range = p.off
    if p.layout == "long" and len(p.people) == 1:
        sheet.truth = {k: v[:1] for k, v in sheet.truth.items()}


def _legends(p: _Plan, ask: Asked, sheet: Drawn) -> None:
    """A key beside the judgments, a legend of labels or one of the scale,
    as asked."""
    if ask.key:
        key_column(sheet, p.rnd, p.scale)
    if p.words and not (ask.unread or ask.unnamed):
        words_legend(sheet, p.rnd, p.scale, ask.legend == "labels wrong")
    elif ask.legend:
        scale_legend(sheet, p.rnd, p.scale, ask.legend == "wrong")


def _split(sheet: Drawn, rnd: Random, ranked: Column, per_row: list[tuple[int, int, Any]],
           said: Any, ids: dict[tuple[int, int], Any]) -> None:
    """Give one item's second judgment another score (or rank) than its
    first: the ranking (named or declared) disagrees with itself. Rows
    counted from the header on row 1."""
    q, d, _ = rnd.choice(per_row)
    first, second = [i for i, (q2, d2, _) in enumerate(per_row) if (q2, d2) == (q, d)][:2]
    was = ranked.cells[second]
    ranked.cells[second] = round(was + 1.25, 4) if ranked.kind == "score" else was + 1
    sheet.split = (str(said(q)), str(ids[(q, d)]), first + 2, second + 2, was,
                   ranked.cells[second])


def _gaps(sheet: Drawn, rnd: Random, ranked: Column, per_row: list[tuple[int, int, Any]],
          said: Any, ids: dict[tuple[int, int], Any]) -> None:
    """Leave the ranking's cell blank on the first row of one item or more
    (a third of them, at random), their second row giving the value: the
    item's score (or rank) is that value all the same. Rows counted from
    the header on row 1."""
    rows: dict[tuple[int, int], list[int]] = {}
    for i, (q, d, _) in enumerate(per_row):
        rows.setdefault((q, d), []).append(i)
    items = sorted(rows)
    for q, d in rnd.sample(items, max(1, len(items) // 3)):
        first, second = rows[(q, d)][:2]
        value, ranked.cells[first] = ranked.cells[first], None
        sheet.gaps.append((str(said(q)), str(ids[(q, d)]), first + 2, second + 2, value))


#: A long sheet's names of its query and its grades written over two rows
#: (``sheets(two_headers=True)``), as a new user's colleague wrote them.
TWO_ROW_NAMES = {"query": ["Query text"], "grade": ["Relevance grade", "Relevance label"]}


def _two_row_names(rnd: Random, cols: list[Column]) -> None:
    """The query's and the grades' names of two words (the header's second
    row holds a part of each at least, one over the grades)."""
    for c in cols:
        if c.kind in TWO_ROW_NAMES:
            c.header = rnd.choice(TWO_ROW_NAMES[c.kind])


def _unique_headers(cols: list[Column]) -> None:
    seen: dict[str, int] = {}
    for c in cols:
        n = seen.get(c.header, 0)
        seen[c.header] = n + 1
        if n:
            c.header = f"{c.header}_{n + 1}"


def _transposed(sheet: Drawn, rnd: Random, people: list[Any],
                truth: dict[tuple[int, int], dict[Any, int]], ids: dict[tuple[int, int], Any],
                write: Callable[[int], Any], kinds: list[str], places: bool = False) -> None:
    """One row per respondent, one column per item (``query [source]``), as
    survey tools write them; a timestamp and the respondent's e-mail, and
    half the time a Google Forms quiz's ``Score`` (each respondent's points,
    ``3 / 6`` or ``3``: small whole numbers under a ranking's name); with
    ``places`` texts reading like places in its cells (:func:`_places`)."""
    items = sorted(truth)
    quiz = rnd.choice(["", "", "points", "out of"])
    header = ["Timestamp", "Email Address", *(["Score"] if quiz else []),
              *(f"{QUERIES[q]} [{ids[(q, d)]}]" for q, d in items)]
    start = datetime(2024, 3, 4, 10, 0)
    rows = [header]
    emails = PEOPLE["email"]
    for i, who in enumerate(people):
        points = rnd.randint(0, 6)
        rows.append([(start + timedelta(minutes=9 * i)).strftime("%m/%d/%Y %H:%M:%S"),
                     emails[i % len(emails)],
                     *([points if quiz == "points" else f"{points} / 6"] if quiz else []),
                     *(write(truth[it][who]) for it in items)])
    sheet.rows = rows
    replaced = _places(sheet, rnd, people, items, 3 if quiz else 2) if places else set()
    sheet.kinds = ["timestamp", *(["quiz score"] if quiz else [])]
    sheet.truth = {(QUERIES[q], str(ids[(q, d)])): sorted(
        float(truth[(q, d)][w]) for w in people if ((q, d), w) not in replaced)
        for q, d in items}
    sheet.grade_headers = header[3 if quiz else 2:]


#: Texts reading like places, typed where a grade goes (each a label on no
#: scale, or in a workbook a formula: not imported, the cell named).
PLACE_LIKE = ["row 3", "line 4", "column B", "cell B2", "rows 2, 3", "=B2"]


def _places(sheet: Drawn, rnd: Random, people: list[Any], items: list[tuple[int, int]],
            first_item: int) -> set[tuple[tuple[int, int], Any]]:
    """Texts reading like places in a transposed sheet's cells (items'
    columns from ``first_item`` on), beside real problems: a respondent
    named like a row of the reshaped table (``row N``, past the file's
    rows: a rewrite of places would change it) who submits twice (the
    second submission's grades, some changed, reported again, the first
    kept), and three other respondents' grade cells holding
    :data:`PLACE_LIKE` texts, in three columns (no judgment). Returns the
    judgments (item, whose) the texts replace."""
    rows = sheet.rows
    k = rnd.randrange(len(people))
    name = f"row {rnd.randint(len(rows) + 2, len(items) * len(people))}"
    rows[k + 1][1] = name
    again = list(rows[k + 1])
    again[0] = "03/05/2024 09:00:00"
    for c in rnd.sample(range(first_item, len(again)), rnd.randint(1, len(items))):
        others = [r[c] for r in rows[1:] if r[c] != again[c]]
        again[c] = others[0] if others else again[c]
    rows.append(again)
    sheet.again = (name, k + 2, len(rows))
    # (two respondents' cells of five read as no e-mail: who judged is declared)
    sheet.flags = ["--map", f"annotator={rows[0][1]}"]
    replaced = set()
    for j, text in zip(rnd.sample(range(len(items)), 3), rnd.sample(PLACE_LIKE, 3),
                       strict=True):
        i = rnd.choice([i for i in range(len(people)) if i != k])
        rows[i + 1][first_item + j] = text
        sheet.planted.append((i + 2, first_item + j, text))
        replaced.add((items[j], people[i]))
    return replaced


def write_sheet(sheet: Drawn | Run, path: Path) -> Path:
    """Write the sheet as ``path``'s suffix says: .csv, .tsv, .xlsx or .jsonl
    (JSON Lines: one record per row, keyed by the header, a dotted header
    as nested keys: ``{"retrieval": {"score": 1.5}}``)."""
    above = getattr(sheet, "above", [])
    header = getattr(sheet, "header_rows", None) or sheet.rows[:1]
    if getattr(sheet, "text", None) is not None:
        path.write_text(sheet.text, encoding="utf-8")  # type: ignore[union-attr]
    elif path.suffix in (".csv", ".tsv"):
        with open(path, "w", newline="", encoding="utf-8") as fh:
            csv.writer(fh, delimiter="\t" if path.suffix == ".tsv" else ",").writerows(
                [*above, *header, *sheet.rows[1:]])
    elif path.suffix == ".xlsx":
        from openpyxl import Workbook

        wb = Workbook()
        ws = wb.active
        for row in [*above, *header, *sheet.rows[1:]]:
            ws.append(row)
        if getattr(sheet, "legend_sheet", None) is not None:
            legend = wb.create_sheet("Legend")
            for row in sheet.legend_sheet:
                legend.append(row)
        wb.save(path)
    else:
        header = sheet.rows[0]
        with open(path, "w", encoding="utf-8") as fh:
            for row in sheet.rows[1:]:
                fh.write(json.dumps(_nested(dict(zip(header, row, strict=True)))) + "\n")
    return path


def _nested(record: dict[str, Any]) -> dict[str, Any]:
    """``{"Input.query": q}`` as the tools write it: ``{"Input": {"query": q}}``."""
    out: dict[str, Any] = {}
    for key, value in record.items():
        head, dot, rest = key.partition(".")
        if dot and head and rest and isinstance(out.get(head, {}), dict):
            out.setdefault(head, {})[rest] = value
        else:
            out[key] = value
    return out
