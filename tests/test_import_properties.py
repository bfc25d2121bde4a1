"""The import against the space of sheets (issue 33): sheets composed by
tests/sheetgen.py from column kinds drawn at random, written as CSV, xlsx
or JSON Lines, imported by the command line; the invariants hold for each
(tests/sheetimport.py), and each column is read for its role: times,
counts, topic and batch numbers, ranks and workers' numbers are never the
ids, the grades or the ranking.

Per CI run: 60 sheets (one fixed, derandomized profile), a few seconds.
Platforms' exports are tests/test_import_platforms.py's; legends and
labels tests/test_import_legends.py's; blank, formula and off-range cells
and rankings over rows tests/test_import_cells.py's; layouts (blocks,
small wide sheets, no header, round trips, annotators' columns)
tests/test_import_layouts.py's.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import Phase, event, example, given, settings
from hypothesis import strategies as st

from tests.sheetgen import (
    Drawn,
    Run,
    runs,
    sheets,
)

# derandomize seeds each test's draws from its source: the tests call the
# helpers by the names they were written with, so they draw the same sheets
from tests.sheetimport import PROFILE, QUERIES
from tests.sheetimport import holds as _holds
from tests.sheetimport import run_sheet as _run


@PROFILE
@given(sheets(), st.sampled_from([".csv", ".xlsx", ".jsonl"]))
def test_the_import_never_invents_and_never_drops(sheet: Drawn, suffix: str) -> None:
    if sheet.layout == "transposed" and suffix == ".jsonl":
        suffix = ".csv"
    _holds(sheet, *_run(sheet, suffix), suffix)


#: Sheets drawn with their first data row graded by a mark (``?``, ``n/a``,
#: ``unsure`` declared), the first query of three items.
MARKED_SHEETS = 20


@settings(PROFILE, max_examples=MARKED_SHEETS)
@given(sheets(marked=True), st.sampled_from([".csv", ".xlsx"]))
def test_a_first_row_graded_by_a_mark_is_a_judgment(sheet: Drawn, suffix: str) -> None:
    # (it was read as a second header row when no cell of it came again
    # below: '1 blank row skipped', the judgment gone)
    code, err, report, rows = _run(sheet, suffix)
    _holds(sheet, code, err, report, rows, suffix)
    assert code != 0 or (report is not None and report["rows"]["blank"] == 0)


#: Sheets drawn with times as whole seconds or milliseconds since 1970
#: under neutral headers (``col4``), beside numeric ids as often as not.
EPOCH_SHEETS = 12


@settings(PROFILE, max_examples=EPOCH_SHEETS)
@given(sheets(among=("epoch", "epoch_ms"), headers="neutral").filter(
    lambda s: s.layout != "transposed"), st.sampled_from([".csv", ".xlsx"]))
def test_times_since_1970_are_read_as_times_never_as_ids(sheet: Drawn, suffix: str) -> None:
    """1733480000, 1733480012, ... (or in milliseconds) under a header that
    says nothing: read from their values (large whole numbers in a narrow
    band, in row order but for a few, few repeats, not counting by one) as
    times, left out, never the query or the source id; the invariants hold."""
    code, err, report, rows = _run(sheet, suffix)
    _holds(sheet, code, err, report, rows, suffix)
    if code == 0 and report is not None:
        header = sheet.rows[0]
        epochs = {header[c] for c, kind in enumerate(sheet.column_kinds)
                  if kind.startswith("epoch")}
        assert epochs
        for column in report["columns"]:
            if column["header"] in epochs:
                assert not column["role"], column
                assert "dates and times" in column["reason"], column


#: Sheets drawn with a count of a few values (100-102) under a neutral header.
TALLY_SHEETS = 10


def _tallied(tally: list[int], grades: list[int], per_query: int) -> Drawn:
    """A long sheet of one judge, a count first (``col1``), then the query,
    the source and the grade, as the generator drew them (300 sheets
    tried, 16 failed on 82e76eb)."""
    rows = [[t, QUERIES[i // per_query], f"doc-0{i // per_query}-{i:04d}", g]
            for i, (t, g) in enumerate(zip(tally, grades, strict=True))]
    truth = {(r[1], r[2]): [float(r[3])] for r in rows}
    return Drawn([["col1", "col2", "col3", "col4"], *rows], "long", truth, kinds=["tally"],
                 grade_headers=["col4"], column_kinds=["tally", "query", "source", "grade"])


def _ranked_wide() -> Drawn:
    """Two judges' columns, a count, the query, a rank (1..4 in each query)
    under ``weight`` (a quantity's name: no grades) and the source: the
    rank varies within each count's items, as someone judging them would,
    and the count was read as the source."""
    tally = [241, 240, 240, 240, 243, 243, 245, 245, 248, 246, 248, 247]
    rank = [4, 2, 3, 1, 3, 1, 4, 2, 3, 4, 2, 1]
    ana, ben = [1, 2, 5, 2, 2, 5, 1, 3, 2, 4, 3, 5], [1, 1, 1, 2, 1, 1, 1, 2, 2, 5, 5, 5]
    header = ["grade_ana_at_lab_example", "col2", "col3", "weight", "col5",
              "grade_ben_at_lab_example"]
    rows = [[a, t, QUERIES[i // 4], r, f"doc-0{i // 4}-{i % 4:04d}", b]
            for i, (a, t, r, b) in enumerate(zip(ana, tally, rank, ben, strict=True))]
    return Drawn([header, *rows], "wide", {(r[2], r[4]): sorted([float(r[0]), float(r[5])])
                                           for r in rows},
                 grade_headers=[header[0], header[5]], kinds=["tally", "rank"],
                 column_kinds=["grade", "tally", "query", "rank", "source", "grade"])


@settings(PROFILE, max_examples=TALLY_SHEETS, phases=[Phase.explicit, Phase.generate])
# in runs as the query is, and first: one value holds a single item, no query's list
@example(_tallied([1200, 1200, 1201, 1203, 1204, 1204], [0, 3, 1, 2, 0, 3], 3), ".csv")
# each value lists two items, as a query does: refused, naming both
@example(_tallied([101, 101, 102, 102, 104, 104, 105, 105], [0, 3, 1, 2, 0, 3, 1, 1], 4),
         ".xlsx")
# the queries again, in numbers: the one in words is the query
@example(_tallied([101] * 4 + [104] * 4, [0, 3, 1, 2, 0, 3, 1, 1], 4), ".csv")
@example(_ranked_wide(), ".csv")
@given(sheets(among=("tally",), headers="neutral").filter(lambda s: s.layout != "transposed"),
       st.sampled_from([".csv", ".xlsx"]))
def test_a_count_of_few_values_is_never_the_source_id(sheet: Drawn, suffix: str) -> None:
    """101, 101, 102, 100, ... under ``col7``: it fixes the query and has more
    values than it, as a source id does, but several items share each of
    its values with no one else judging them: never the source id (the
    drawn truth's ids are), nor the query, unless it lists several items
    for each of its values, as a query does: then the import refuses in one
    line naming both columns (or reads the query, when the count says its
    queries in other words); never offered as the ranking (several items
    share each value: a ranking would tie them); the invariants hold."""
    code, err, report, rows = _run(sheet, suffix)
    if _both_queries(sheet, code, err, "tally"):
        return
    _holds(sheet, code, err, report, rows, suffix)
    if code == 0 and report is not None:
        tally = {sheet.rows[0][c] for c, kind in enumerate(sheet.column_kinds)
                 if kind == "tally"}
        assert tally
        assert report["mapping"]["source_id"] not in tally, report["mapping"]
        for column in report["columns"]:  # nor offered as the ranking: it ties items
            if column["header"] in tally:
                assert not (column["flag"] or "").startswith("--map score="), column


def _both_queries(sheet: Drawn, code: int, err: str, *others: str) -> bool:
    """Whether the import refused naming the drawn query's column and one
    of the ``others`` kinds' as both could be the query, in one line
    saying what to pass."""
    if code == 0 or "both could be the query" not in err:
        return False
    header = sheet.rows[0]
    kinds = {header[c]: kind for c, kind in enumerate(sheet.column_kinds)}
    named = err.split(": both could be the query")[0].rsplit(": ", 1)[-1].split(" or ")
    assert len(err.strip().splitlines()) == 1, err
    assert len(named) == 2, err
    assert "query" in [kinds[n] for n in named], err
    assert {kinds[n] for n in named} - {"query"} <= set(others), err
    assert "--map query=" in err, err
    return True

#: Sheets drawn with the queries as TREC topic numbers (1.., 51.., 301..)
#: under a neutral header, beside a count of a few values as often as not.
TOPIC_SHEETS = 10


@settings(PROFILE, max_examples=TOPIC_SHEETS, phases=[Phase.generate])
@given(st.booleans().flatmap(lambda tally: sheets(
    among=("tally",) if tally else (), headers="neutral", topics=True)).filter(
    lambda s: s.layout != "transposed"), st.sampled_from([".csv", ".xlsx"]))
def test_numeric_query_ids_are_read_as_the_query(sheet: Drawn, suffix: str) -> None:
    """1, 1, 1, 2, 2, 3, ... under ``col2``: small whole numbers, read like
    grades, but each on one run of rows listing several sources (a grade
    varies within a query): the query, without ``--map query=``; beside a
    count whose values list several items each, as a query's do, or a
    grade that is one value over each query, the import refuses naming
    both; the invariants hold."""
    code, err, report, rows = _run(sheet, suffix)
    if _both_queries(sheet, code, err, "tally", "grade"):
        return
    _holds(sheet, code, err, report, rows, suffix)
    if code == 0 and report is not None:
        query = sheet.rows[0][sheet.column_kinds.index("query")]
        assert report["mapping"]["query"] == query, report["mapping"]


#: Sheets drawn with a batch's number (over whole queries).
BATCH_SHEETS = 10


def _batches_within_queries() -> Drawn:
    """A HIT's batch of 2 rows under ``col2`` (12, 12, 13, 13, ...) whose
    runs each stay within one query of 4: what topic numbers beside their
    category in words would be, so the import names both that could be the
    query (drawn on this branch in some runs and not others: its truth now
    says it is ambiguous, and it is tried every run)."""
    grades = [0, 1, 3, 2, 2, 1, 2, 3]
    rows = [[g, 12 + i // 2, QUERIES[i // 4], f"doc-0{i // 4}-{i:04d}"]
            for i, g in enumerate(grades)]
    return Drawn([["col1", "col2", "col3", "col4"], *rows], "long",
                 {(r[2], r[3]): [float(r[0])] for r in rows}, ambiguous=True,
                 kinds=["row_batch"], grade_headers=["col1"],
                 column_kinds=["grade", "row_batch", "query", "source"])


@settings(PROFILE, max_examples=BATCH_SHEETS, phases=[Phase.explicit, Phase.generate])
@example(_batches_within_queries(), ".csv")
# a batch of two queries each, under col4: once a second annotator's grades
@example(replace(_tallied([1] * 6 + [2] * 3, [0, 3, 1, 2, 0, 3, 1, 1, 2], 3),
               kinds=["batch"], column_kinds=["batch", "query", "source", "grade"]), ".csv")
@given(st.sampled_from(["batch", "row_batch"]).flatmap(lambda kind: sheets(among=(kind,))).filter(
    lambda s: s.layout != "transposed"), st.sampled_from([".csv", ".xlsx"]))
def test_a_batch_number_is_never_read_as_grades(sheet: Drawn, suffix: str) -> None:
    """1, 1, 1, 1, 2, 2, ... under ``batch`` or ``col6``: small whole numbers,
    one value over whole queries, or counting up over runs of rows that
    cut through a query's (a HIT's batch), where grades vary within
    a query across its documents: left out saying so, never a grade column
    (one more annotator's), and the grades imported are the drawn ones."""
    code, err, report, rows = _run(sheet, suffix)
    _holds(sheet, code, err, report, rows, suffix)
    assert code == 0 or not sheet.ambiguous or "batch" not in err, err
    if code != 0:
        return
    assert report is not None
    batches = {sheet.rows[0][c] for c, kind in enumerate(sheet.column_kinds)
               if kind in ("batch", "row_batch")}
    assert batches
    for column in report["columns"]:
        if column["header"] in batches:
            assert column["role"] is None, column
            assert "a batch's or a group's number" in column["reason"], column


#: Tiny sheets drawn with each annotator's grades the same for all of a
#: query's items.
FLAT_SHEETS = 10


@settings(PROFILE, max_examples=FLAT_SHEETS, phases=[Phase.explicit, Phase.generate])
@example(Drawn([["query", "doc", "col3"], *([f"q{q}", f"d{q}{d}", g] for q, g in enumerate(
    [2, 0, 3]) for d in range(2))], "long", {(f"q{q}", f"d{q}{d}"): [float(g)] for q, g in
                                             enumerate([2, 0, 3]) for d in range(2)},
               grade_headers=["col3"], column_kinds=["query", "source", "grade"]), ".csv")
@given(sheets(flat=True), st.sampled_from([".csv", ".xlsx"]))
def test_grades_constant_within_each_query_are_grades(sheet: Drawn, suffix: str) -> None:
    """q1's items all graded 2, q2's all 0, q3's all 3 (a tiny sheet): a
    grade column though it does not vary within a query (it was refused as
    'no grade column', taken for a batch's number); refused in one line
    only where it counts up down the sheet as a batch's number does (0, 0,
    1, 1) under a header that says nothing; the invariants hold."""
    if sheet.layout == "transposed":
        suffix = ".csv"
    code, err, report, rows = _run(sheet, suffix)
    _holds(sheet, code, err, report, rows, suffix)


#: Long sheets drawn with workers numbered 1..n, each judging one item per query.
LATIN_SHEETS = 10


@settings(PROFILE, max_examples=LATIN_SHEETS, phases=[Phase.generate])
@given(sheets(latin=True), st.sampled_from([".csv", ".xlsx"]))
def test_workers_numbered_one_to_n_are_who_judged(sheet: Drawn, suffix: str) -> None:
    """Workers 1..6, each judging one item of every query (2 or 3 of them
    each item): their numbers count each query's rows 1..n as a rank's
    would, and read like grades; they are who judged (or the import
    refuses in one line), never the ranking nor an annotator's grades."""
    code, err, report, rows = _run(sheet, suffix)
    _holds(sheet, code, err, report, rows, suffix)
    if code == 0:
        assert report is not None
        who = sheet.rows[0][sheet.column_kinds.index("who")]
        assert report["mapping"].get("annotator") == who, report["mapping"]


#: Sheets drawn with a rank (1..n within each query) under a header naming
#: no ranking, and runs of no grades (qid, pid, rank).
RANK_SHEETS = 10


def _in_stock(wide: bool) -> Drawn:
    """A true/false column (``in_stock``) whose true rows, and only those,
    carry a comment, beside a rank under ``value``: the comment answers
    nothing, so the true rows are judgments, not control tasks (the wide
    sheet as the generator drew it: 5 of its 6 judgments were skipped as
    control tasks)."""
    said = ["0 - Not relevant", "1 - Somewhat relevant", "2 - Highly relevant"]
    alice, bob, stock = [0, 2, 0, 1, 1, 2], [0, 2, 0, 2, 1, 2], [True] * 5 + [False]
    if not wide:
        alice, stock = [0, 2, 1, 3, 1, 2], [True, False, True, True, False, True]
    header = ["Input.doc_id", "search_term", "grade_Alice", "grade_Bob", "in_stock", "comment",
              "value"]
    rows = [[f"B0{i // 3}00{i % 3}XK{i % 3}", QUERIES[i // 3], said[a] if wide else a,
             said[b], str(t).lower(), "page did not load" if t else "", i % 3 + 1]
            for i, (a, b, t) in enumerate(zip(alice, bob, stock, strict=True))]
    kinds = ["source", "query", "grade", "grade", "boolean", "text", "rank"]
    if not wide:  # one judge's grades under relevance
        header, kinds = [h for h in header if h != "grade_Bob"], kinds[:3] + kinds[4:]
        header[2] = "relevance"
        rows = [r[:3] + r[4:] for r in rows]
    truth = {(r[1], r[0]): sorted(float(said.index(g)) if isinstance(g, str) else float(g)
                                  for g in r[2:4 if wide else 3]) for r in rows}
    # (long: the rank 1, 2, 3 / 1, 2, 3 beside one judge's grades of two
    # queries of three is what grades do by chance: the import may refuse)
    return Drawn([header, *rows], "wide" if wide else "long", truth, kinds=["boolean", "text",
                                                                          "rank"],
                 ambiguous=not wide,
                 grade_headers=[h for h in header if h.startswith("grade") or h == "relevance"],
                 column_kinds=kinds)


@settings(PROFILE, max_examples=RANK_SHEETS, phases=[Phase.explicit, Phase.generate])
@example(_in_stock(wide=True), ".csv")
@example(_in_stock(wide=False), ".xlsx")
@given(sheets(among=("rank",)).filter(lambda s: s.layout != "transposed"),
       st.sampled_from([".csv", ".xlsx"]))
def test_a_rank_beside_grades_is_never_read_as_grades(sheet: Drawn, suffix: str) -> None:
    """3, 1, 2, 4 / 2, 1, 3 ... under ``value`` or ``col5``: small whole
    numbers, one per item, counting each query's items: left out (with the
    flag that would make it the ranking), never a grade column, and the
    grades imported are the drawn ones."""
    code, err, report, rows = _run(sheet, suffix)
    _holds(sheet, code, err, report, rows, suffix)
    if code != 0:  # refused where a reader would hesitate too (_holds checks it)
        return
    assert report is not None
    ranks = {sheet.rows[0][c] for c, kind in enumerate(sheet.column_kinds)
             if kind == "rank"} - {sheet.ranking}  # the drawn ranking may be a rank too
    assert ranks
    for column in report["columns"]:
        if column["header"] in ranks:
            assert column["role"] is None, column
            assert column["flag"].startswith("--map rank="), column


@settings(PROFILE, max_examples=RANK_SHEETS, phases=[Phase.generate])
@given(runs(), st.sampled_from([".tsv", ".csv"]))
def test_a_run_of_no_grades_is_refused_naming_its_rank(run: Run, suffix: str) -> None:
    """An MS MARCO-style run (qid, pid, rank), headerless or under headers
    naming no rank: never imported as judgments graded 1..n; refused in
    one line naming the file, the rank's column and the command that reads
    a run."""
    code, err, _, rows = _run(run, suffix)
    event(f"run {'headerless' if run.headerless else 'under headers'} {suffix}")
    assert (code, rows) == (2, []), err
    assert err.count("\n") == 1, err
    assert f"drawn{suffix}" in err
    assert "counts 1, 2, 3, … within each query, like a rank, not a grade" in err, err
    assert f"--map grade={run.rank_letter})" in err, err
    assert "ndcg-worksheet evaluate RUN --qrels QRELS" in err
    # a headerless run's row 1 (numbers under numbers) is data, never its header
    assert ("(no header: row 1 is data)" in err) == run.headerless, err
