"""Columns' roles read from their values (core/io/annotator/roles.py): with
every header renamed to ``col1``...``colN`` a long sheet still gives its
annotator, query, source and grade columns, and each guess says why."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from core.io.annotator import Table, detect_mapping, ranks, roles
from core.io.annotator.detect import read_guessed
from core.io.annotator.profile import profile_columns
from core.io.annotator.ranks import Counted, counted
from core.io.annotator.roles import left_out
from core.io.annotator.rows import summary_row

QUERIES = ["solar panel efficiency", "best hiking boots", "python csv unicode",
           "what is ndcg", "cheap flights to rome", "espresso grinder", "train times",
           "is it raining", "bm25 parameters", "noise cancelling headphones"]
PEOPLE = {
    "email": ["ana@lab.example", "ben@lab.example", "chen.li@uni.example", "dee@corp.example",
              "eli@lab.example", "fay@uni.example"],
    "worker": ["A1X9QW2LMZ3K7P", "A2B7NC4RT8VE1D", "A3KD8FJ2MS9QXL", "A9ZL2XW4YTK3RB",
               "A4PP0Q1LLM2ZZC", "A7TT3W9RRX0KQE"],
    "name": ["Alice", "Bob", "Chen", "Dana", "Emil", "Farah"],
    "prolific": ["5f8e2a9c1b3d4e0012ab34cd", "60a1b2c3d4e5f60718293a4b",
                 "61ff00aa11bb22cc33dd44ee", "5e9d8c7b6a5f4e3d2c1b0a99",
                 "62aa33bb44cc55dd66ee77ff", "5d0c1b2a39485766aabbccdd"],
}
LABELS = ["Not relevant", "Somewhat relevant", "Highly relevant"]
#: How sheets write a time: Excel, Google Forms' download (few distinct
#: values when a batch is submitted at once), ISO, European, month names.
STAMPS = ["%m/%d/%Y %H:%M:%S", "%Y/%m/%d %I:%M:%S %p GMT+1", "%Y-%m-%dT%H:%M:%SZ",
          "%d.%m.%Y %H:%M", "%b %d, %Y %I:%M %p", "%d %B %Y %H:%M", "%Y-%m-%d"]


@st.composite
def long_sheets(draw: Any) -> tuple[list[list[Any]], dict[str, int]]:
    """A long sheet (one row per judgment) with its columns shuffled and
    renamed ``col1``...; returns the rows and where each role went."""
    rnd = draw(st.randoms(use_true_random=False))
    n_q, per_q = draw(st.integers(3, 8)), draw(st.integers(3, 6))
    people = PEOPLE[draw(st.sampled_from(sorted(PEOPLE)))][:draw(st.integers(3, 6))]
    labels, url = draw(st.booleans()), draw(st.booleans())
    extras = draw(st.sets(st.sampled_from(["timestamp", "note", "constant"])))
    stamp, batch = draw(st.sampled_from(STAMPS)), draw(st.sampled_from([1, 9, 40]))
    rows: list[dict[str, Any]] = []
    start = datetime(2024, 3, 4, 10, 0)
    notes = ["", "", "", "paywalled, judged the abstract", "page did not load at first"]
    for qi in range(n_q):
        for d in range(per_q):
            doc = f"https://site{qi}.example/page/{d}" if url else f"doc-{qi:02d}-{d:04d}"
            first = rnd.randrange(len(people))
            # The first item judged by two people who differ, the next by
            # three: the grades vary and the spread reads "2-3" (a random
            # draw may shrink to one grade, or to three judges an item).
            judges = 2 + d if qi == 0 and d < 2 else rnd.randint(2, 3)
            for j in range(judges):
                g = j if qi == 0 and d == 0 else rnd.randrange(3)
                rows.append({
                    "query": QUERIES[qi], "source": doc,
                    "annotator": people[(first + j) % len(people)],
                    "grade": LABELS[g] if labels else g,
                    "timestamp": (start + timedelta(minutes=7 * (len(rows) // batch))).strftime(
                        stamp),
                    "note": rnd.choice(notes), "constant": "batch 7"})
    roles = ["query", "source", "annotator", "grade", *sorted(extras)]
    order = draw(st.permutations(roles))
    header = [f"col{i + 1}" for i in range(len(order))]
    table = [header, *[[r[f] for f in order] for r in rows]]
    return table, {f: order.index(f) for f in order}


@settings(max_examples=40, deadline=None)
@given(long_sheets())
def test_neutral_headers_still_give_every_role(sheet: tuple[list[list[Any]], dict[str, int]]):
    rows, where = sheet
    mapping = detect_mapping(Table(file="neutral.csv", rows=rows))
    assert mapping.layout == "long"
    assert mapping.query == where["query"]
    assert mapping.source_id == where["source"]
    assert mapping.annotator == where["annotator"]
    assert mapping.grade == where["grade"]
    if "note" in where and any(r[where["note"]] for r in rows[1:]):
        assert mapping.note == where["note"]
    assert mapping.score is None
    assert mapping.rank is None
    if "timestamp" in where:
        assert (f"col{where['timestamp'] + 1}: dates and times, not imported"
                in [why for _, why in mapping.reasons])
    # Each guess says why, naming its column and what its values showed.
    why = mapping.why("annotator")
    assert why.startswith(f"col{where['annotator'] + 1}, ")
    assert "people, each item judged by 2-3 of them" in why
    assert "read from its values" in mapping.why("query")


def test_the_reason_counts_people_and_how_many_judged_each_item() -> None:
    rows = [["Timestamp", "Email Address", "Query", "Result URL",
             "How relevant is this result?"]]
    for q, docs in (("what is ndcg", 3), ("bm25 parameters", 2)):
        for d in range(docs):
            for who in ("ana@lab.example", "ben@lab.example", "chen@lab.example")[:2 + d % 2]:
                rows.append(["3/4/2024 10:00:00", who, q, f"https://x.example/{q[:4]}/{d}",
                             str((d + len(who)) % 3)])
    mapping = detect_mapping(Table(file="forms.csv", rows=rows))
    assert (mapping.annotator, mapping.query, mapping.source_id, mapping.grade) == (1, 2, 3, 4)
    assert mapping.why("annotator") == (
        "Email Address, read from its values; 3 people, each item judged by 2-3 of them")
    assert ("ignored", "Timestamp: dates and times, not imported") in mapping.reasons


def test_a_column_counting_each_querys_documents_is_no_grade_nor_a_ranking() -> None:
    """Whole numbers counting each query's documents (1..n) beside the
    grades are not a grade; nor are they the ranking, as they once were
    (issue 33: a ranking needs a header naming one or a declaration). The
    column is left out with the flag that would make it the rank."""
    rows = [["a", "b", "c", "d"]]
    for q in ("q1", "q2", "q3"):
        for r in range(1, 6):
            rows.append([q, f"{q}-doc{r}", r, (r * 7 + len(q)) % 3])
    mapping = detect_mapping(Table(file="r.csv", rows=rows))
    assert (mapping.query, mapping.source_id, mapping.grade) == (0, 1, 3)
    assert (mapping.rank, mapping.score) == (None, None)
    mapping_left_out = ((2, "c: whole numbers counting each query's sources; if this "
                         "is the ranking, pass --map rank=c", "--map rank=c"),)
    assert mapping.left_out == mapping_left_out
    rows[0][2] = "Rank"
    mapping = detect_mapping(Table(file="r.csv", rows=rows))
    assert (mapping.rank, mapping.grade) == (2, 3)
    # The queries listing several sources are worked out once for both
    # graded columns (they were 5 times: batched and counted for each, then
    # batched again for the column left out).
    listed, real = [], ranks.listing

    def counting(*a: Any) -> Any:
        return listed.append(a) or real(*a)
    with mock.patch.object(roles, "listing", counting), \
            mock.patch.object(ranks, "listing", counting):
        rows[0][2] = "c"
        assert detect_mapping(Table(file="r.csv", rows=rows)).left_out == mapping_left_out
    assert len(listed) == 1


def test_a_header_said_again_between_blocks_is_still_the_header() -> None:
    rows = [["query", "doc", "grade"], ["q1", "a", 1], ["q1", "b", 2],
            ["query", "doc", "grade"], ["q2", "c", 0], ["q2", "d", 1]]
    mapping = detect_mapping(Table(file="blocks.csv", rows=rows))
    assert mapping.header_row == 0
    assert (mapping.query, mapping.source_id, mapping.grade) == (0, 1, 2)


def test_google_forms_timestamps_are_times_not_an_annotators_grades() -> None:
    """Google Forms' download writes ``2024/03/04 9:00:00 AM GMT+1``; a few
    such values repeated (a batch submitted at once) once read as a second
    wide grade column whose grades were the years (2024)."""
    rows = [["Timestamp", "Email Address", "Which search?", "Link shown",
             "How useful was it? (1-5)"]]
    for q in ("cheap flights lisbon", "python csv bom", "ndcg ties"):
        for u in range(6):
            for who in ("ana@x.example", "bo@y.example", "cy@z.example")[:2 + u % 2]:
                rows.append([f"2024/03/2{u} 10:0{u}:00 AM GMT+1", who, q,
                             f"https://ex.example/{q[:5]}/{u}", str(1 + (u + len(who)) % 5)])
    mapping = detect_mapping(Table(file="forms.csv", rows=rows))
    assert mapping.layout == "long"
    assert (mapping.annotator, mapping.query, mapping.source_id, mapping.grade) == (1, 2, 3, 4)
    assert ("ignored", "Timestamp: dates and times, not imported") in mapping.reasons


def test_a_column_no_role_is_read_from_is_named_not_dropped() -> None:
    """A column of a few repeated words (a tag a team added, "parcial",
    "no carga") is none of the roles: the guesses name it as left out."""
    rows = [["Consulta", "Documento", "Evaluador", "Puntuación (0-3)", "Etiqueta"]]
    for qi, q in enumerate(("vuelos baratos madrid", "receta paella", "clima sevilla")):
        for d in range(5):
            for who in ("María", "Jorge", "Lucía")[:2 + d % 2]:
                rows.append([q, f"doc-{qi}{d:03d}", who, (d + len(who)) % 4,
                             ("parcial", "no carga", "")[(d + qi) % 3]])
    mapping = detect_mapping(Table(file="es.csv", rows=rows))
    assert (mapping.query, mapping.source_id, mapping.annotator, mapping.grade) == (0, 1, 2, 3)
    assert mapping.note is None
    assert ("ignored", "Etiqueta: 2 distinct values, no role read from them; not imported"
            ) in mapping.reasons


def test_a_column_of_one_value_on_some_rows_is_said_in_the_singular() -> None:
    """Mechanical Turk's ``Approve`` column holds an ``x`` on the assignments
    to approve only, a ``Batch`` column one number on a few rows: said
    '1 distinct value' and 'the number 7', not '1 distinct values' and
    'numbers 7 to 7'."""
    rows = [["Input.query", "Input.url", "WorkerId", "Answer.relevance", "Approve", "Batch"]]
    for qi, q in enumerate(("wireless earbuds", "descale a kettle")):
        for d in range(4):
            for wi, who in enumerate(("A1B2C3D4E5F6G7", "A3KQ9W2ZP0L8XM", "AZ7Y6X5W4V3U2T")):
                n = len(rows)
                rows.append([q, f"https://ex.example/{qi}/{d}", who, (d + wi) % 4,
                             "x" if n % 7 else "", 7 if n % 11 == 0 else ""])
    mapping = detect_mapping(Table(file="batch.csv", rows=rows))
    assert (mapping.query, mapping.source_id, mapping.annotator, mapping.grade) == (0, 1, 2, 3)
    assert ("ignored", "Approve: 1 distinct value, no role read from them; not imported"
            ) in mapping.reasons
    assert ("ignored", "Batch: the number 7 on 2 rows of 24, no role read from it; not imported"
            ) in mapping.reasons


def test_a_column_of_zeros_is_said_as_the_number_on_every_row() -> None:
    """A column of 0 on every row (a flag never raised) read 'numbers 0 to
    0, no role read from them': now 'the number 0 on every row'; a constant
    1000 says its number too."""
    rows = [["query", "doc_id", "relevance", "flagged", "price"]]
    rows += [[f"q{d // 3}", f"d{d}", (d * 5) % 4, 0, 1000] for d in range(6)]
    mapping = detect_mapping(Table(file="zeros.csv", rows=rows))
    assert mapping.grade == 2
    assert ("ignored", "flagged: the number 0 on every row, no role read from it; not imported"
            ) in mapping.reasons
    assert ("ignored", "price: the number 1000 on every row, not imported") in mapping.reasons


def test_a_column_of_one_value_on_nine_rows_in_ten_says_where() -> None:
    """A column of one value filled on 23 rows of 24 (left out with the
    constant columns, filled on nine rows in ten) said 'on every row':
    it says where, as a column of one number on some rows does."""
    rows = [["query", "doc_id", "relevance", "price", "src"]]
    rows += [[f"q{d // 3}", f"d{d}", (d * 5) % 4, 1000 if d else None, "web" if d else ""]
             for d in range(24)]
    mapping = detect_mapping(Table(file="gaps.csv", rows=rows))
    assert mapping.grade == 2
    assert ("ignored", "price: the number 1000 on 23 rows of 24, not imported") in mapping.reasons
    assert ("ignored", "src: one value on 23 rows of 24, not imported") in mapping.reasons


def test_seconds_since_1970_are_times_and_numeric_ids_stay_ids() -> None:
    """A crowd platform's export: numeric source ids (2350000100, ... counted
    one by one within a query) and, under headers that say nothing, when
    each judgment was submitted as whole seconds since 1970 (1733480000,
    1733480012, ...: one pair out of order, one second said twice) and in
    milliseconds. The times are left out as dates and times, never taken
    for the query or the source id, whatever their headers."""
    seconds = [1733480000, 1733480012, 1733480047, 1733480039, 1733480101, 1733480101,
               1733480160, 1733480222, 1733480290, 1733480311, 1733480400, 1733480467]
    rows = [["c1", "c2", "c3", "c4", "c5"]]
    for i, t in enumerate(seconds):
        q = ("espresso grinder", "train times")[i // 6]
        rows.append([t, q, 2350000100 + 100 * (i // 6) + i % 6, (i * 5) % 4,
                     t * 1000 + (i * 137) % 1000])
    mapping = detect_mapping(Table(file="crowd.csv", rows=rows))
    assert (mapping.query, mapping.source_id, mapping.grade) == (1, 2, 3)
    for name in ("c1", "c5"):
        assert ("ignored", f"{name}: dates and times, not imported") in mapping.reasons


def _wide_sheet(extra: list[Any]) -> list[list[Any]]:
    """The sheet of the report (/tmp/h37p/count.csv): two queries of four
    clueweb ids, Alice's and Bob's grades, a count of three values (101 and
    102 the first query's, 100 the second's) under ``col9``, and ``extra``
    (header first) as a last column when given."""
    counts = [101, 101, 101, 102, 100, 100, 100, 100]
    rows = [["col1", "col2", "grade_Alice", "grade_Bob", "col9", *extra[:1]]]
    for i, n in enumerate(counts):
        q = ("solar panel efficiency", "best hiking boots")[i // 4]
        rows.append([q, f"clueweb09-en000{i // 4}-0{i % 4}-{i:05d}", i % 4, (i + 1) % 4, n,
                     *extra[i + 1:i + 2]])
    return rows


def test_a_count_shared_by_several_items_is_not_the_source_id() -> None:
    """col9 (101, 101, 101, 102 | 100, ...) fixes the query and has more
    values than it, as a source id does, but several items of a query share
    each of its values, one row each (no one else judged them): the clueweb
    ids are the source (was col9, and 10 of 16 judgments rejected as said
    twice)."""
    mapping = detect_mapping(Table(file="count.csv", rows=_wide_sheet([])))
    assert (mapping.query, mapping.source_id) == (0, 1)


def test_a_count_shared_by_several_items_is_no_ranking_either() -> None:
    """col9 is left out with no ranking's flag: 101, 101, 101 are said of
    three of the first query's four items, 100 of all the second's (7 of
    8 items share their value with another of their query); a ranker's
    scores tell a query's items apart (was 'if this is the ranking, pass
    --map score=col9')."""
    mapping = detect_mapping(Table(file="count.csv", rows=_wide_sheet([])))
    assert mapping.left_out == ((4, "col9: numbers 100 to 102, one per item, each shared by "
                                 "several of a query's items (a count or a group: a ranking "
                                 "would tie them); not imported", ""),)


def test_workers_each_judging_one_item_per_query_still_say_who_judged() -> None:
    """Three queries of 5 documents, each judged by 3 of 15 workers, each
    worker once per query (a Latin square), an assignment id per row: the
    documents are the source, judged again by someone on each row; the
    workers are people, not a rank numbering the rows (a first fix for
    a rank taken for someone judging read them so, and refused)."""
    rows: list[list[Any]] = [["col1", "col2", "col3", "col4", "col5"]]
    for q, query in enumerate(("solar panels", "hiking boots", "csv unicode")):
        for d in range(5):
            for j in range(3):
                worker = (d * 3 + j + 4 * q) % 15
                rows.append([query, f"doc-{q}-{d:03d}", f"W{worker:02d}XK", (d + j) % 4,
                             f"3X{(q * 15 + d * 3 + j) * 7919 % 99991:05d}AB"])
    mapping = detect_mapping(Table(file="latin.csv", rows=rows))
    assert (mapping.query, mapping.source_id, mapping.annotator, mapping.grade) == (0, 1, 2, 3)


def test_a_batch_number_over_queries_in_words_is_not_the_query() -> None:
    """Batches 1, 2 of two queries each: small numbers in blocks, each
    listing several documents, as TREC topics are, but grouping whole
    queries said in words: the words are the query (not 'col2 or col1:
    both could be the query')."""
    grades = ((2, 0, 1, 1), (3, 3, 0, 1), (0, 1, 1, 2), (2, 2, 3, 0))
    rows: list[list[Any]] = [["col1", "col2", "col3", "col4"]]
    for q, query in enumerate(("solar panels", "hiking boots", "csv unicode", "what is ndcg")):
        rows.extend([q // 2 + 1, query, f"doc-{q}-{d}", grades[q][d]] for d in range(4))
    mapping = detect_mapping(Table(file="batch.csv", rows=rows))
    assert (mapping.query, mapping.source_id) == (1, 2)
    assert mapping.why("query") == "col2, read from its values; 4 values, each on 4 rows on average"


def test_two_columns_nothing_tells_apart_are_both_named_none_taken() -> None:
    """A second id on every row (B0..., one per item, as the clueweb ids
    are): either could be the source; neither is taken, the reason names
    both, and the command line refuses in one line with the flag to pass."""
    skus = ["col6", *(f"B0{i % 3}{i:03d}XK" for i in range(1, 9))]
    mapping = detect_mapping(Table(file="two.csv", rows=_wide_sheet(skus)))
    assert (mapping.query, mapping.source_id) == (0, None)
    assert mapping.why("source_id") == (
        "col2 or col6: both could be the source id (each fixes the query, 8 and 8 values) "
        "and nothing in their values tells them apart")
    said = {c: (why, flag) for c, why, flag in mapping.left_out}  # each with its flag
    assert said[1] == ("col2: could be the source id, as col6 could; if it is, pass "
                       "--map source_id=col2", "--map source_id=col2")
    assert said[5] == ("col6: could be the source id, as col2 could; if it is, pass "
                       "--map source_id=col6", "--map source_id=col6")


def test_a_summary_row_is_no_value_of_the_query_column() -> None:
    """An ``Average`` row below the judgments (no source id, the grades'
    means) is skipped by the rows' tally, and the query column's count
    leaves it out too: 3 queries of 3 rows (was "4 values, each on 2.5 rows
    on average")."""
    rows: list[list[Any]] = [["query", "doc_id", "grade_Alice", "grade_Bob"]]
    for q in ("solar panel efficiency", "best hiking boots", "what is ndcg"):
        rows.extend([q, f"d-{q[:3]}-{d}", d, (d + 1) % 3] for d in range(3))
    rows.append(["Average", "", "1", "1"])
    mapping = detect_mapping(Table(file="avg.csv", rows=rows))
    assert mapping.why("query") == "query, named so; 3 values, each on 3 rows on average"
    assert mapping.why("source_id") == "doc_id, named so; 9 values, each on one row"


def test_a_summary_row_is_one_rule_for_the_columns_and_the_rows() -> None:
    """One predicate says what a summary row is: its first words sum up
    (``Average``, ``Total``, ``mean``) and it names no source, its source
    cell blank, or, while the columns are being read (source unknown),
    any of its cells; the rows' reading and the columns' agree on each."""
    cases: list[tuple[list[Any], str, str]] = [  # row, source column B, source unknown
        (["Average", "", 1, 1], "Average", "Average"),
        (["Total"], "Total", "Total"),  # a short row: its source cell is missing
        (["  mean ", None, 2.5, 1], "mean", "mean"),
        (["Total", "d-1", 2, 2], "", ""),  # a source named: a judgment (query 'Total')
        (["Average", "d-9", "", 1], "", "Average"),  # named, but a grade blank
        (["solar panel", "", 1, 1], "", ""),  # no summing word
    ]
    for row, known, unknown in cases:
        assert (summary_row(row, 1), summary_row(row, None, 4)) == (known, unknown), row


def test_a_columns_values_are_grouped_by_query_once_for_both_readings_of_a_rank() -> None:
    """``counted`` groups a column's values by query once; both readings
    come from that: 2 queries of 4 rows counting 1..4 are rank-like
    (beside grades) but not beyond chance alone (3 such queries are);
    values repeating within each query (grades) are neither."""
    def profiles(n_queries: int, values: list[int]) -> list[Any]:
        rows = [["query", "doc", "n"]] + [[f"q{q}", f"d{q}-{d}", values[(q + d) % 4]]
                                          for q in range(n_queries) for d in range(4)]
        return profile_columns(rows[1:], rows[0], set())

    two, three, graded = profiles(2, [3, 1, 4, 2]), profiles(3, [3, 1, 4, 2]), profiles(
        3, [0, 2, 2, 1])
    got = counted(two[2], two[0], two[1])
    assert got == Counted(2, [[1, 2, 3, 4], [1, 2, 3, 4]])
    assert (got.rank_like(), got.counts_ranks()) == (True, False)
    assert counted(three[2], three[0], three[1]).counts_ranks()
    got = counted(graded[2], graded[0], graded[1])
    assert got == Counted(3, [])  # 0, 2, 2, 1: no query's values one per source
    assert (got.rank_like(), got.counts_ranks()) == (False, False)


def test_a_source_under_two_queries_is_two_items_to_a_ranking_and_a_task_id() -> None:
    """A passage retrieved for two questions (RAG pools share chunks) is
    two items, each with its own rank and task id: a task id stays "one
    per item" with the score's flag, and ranks counting each query's
    sources stay a rank (was: the shared source had two values, so of 14
    items in 13 sources 92 % fixed the column, below 95 %: the Label
    Studio task id said "varying between one item's judgments (a measure
    of each judgment: no ranking)", and ranks were not counted)."""
    rows: list[list[Any]] = [["query", "doc", "who", "grade", "task", "pos"]]
    docs = {"reset sso password": ["kb-1", "kb-2", "kb-3", "kb-4", "kb-5"],
            "vpn drops": ["kb-6", "kb-7", "kb-8", "kb-9"],
            "expense deadline": ["hr-1", "hr-2", "hr-3", "kb-1", "hr-4"]}
    task = 0
    for q, ds in docs.items():
        for r, d in enumerate(ds, 1):
            task += 1
            rows += [[q, d, who, (r + w) % 3, task, r] for w, who in enumerate(("ana", "ben"))]
    profiles = profile_columns(rows[1:], rows[0], set())
    query, source = profiles[0], profiles[1]
    assert left_out(profiles[4], query, source) == (
        "task: numbers 1 to 14, one per item, each naming one item and counting up (a record's "
        "id or a counter: no ranking); not imported", "")
    got = counted(profiles[5], query, source)
    assert got == Counted(3, [[1, 2, 3, 4, 5], [1, 2, 3, 4], [1, 2, 3, 4, 5]], 0,
                          frozenset({0, 1, 2}))  # each query's in the rows' order
    assert left_out(profiles[5], query, source)[1] == "--map rank=pos"


def test_a_duration_is_no_ranking_a_falling_score_may_be() -> None:
    """Columns no role takes, one per item unless said: a lead time that
    varies between one item's two judgments (5.75, 6.75), seconds of
    varying width (7, 45, 300) and a record id (1, 2, 3, ...: one per item,
    counting up) say no ranking's flag; whole numbers of varying width that
    fall down each query's rows, as a ranker's do, keep the flag (was: the
    flag on all four, then on the id too: a new user's trial was offered
    Label Studio's task ids as the ranking)."""
    rows: list[list[Any]] = [["query", "doc", "who", "grade", "lead_time", "secs", "id",
                              "points"]]
    for qi, q in enumerate(("desk lamp", "usb c cable")):
        for d in range(4):
            for w, who in enumerate(("ana", "ben")):
                rows.append([q, f"{q[:3]}-{d}", who, (d + w) % 3, 4.75 + d + w,
                             (7, 45, 300, 12)[(d + qi) % 4], 4 * qi + d + 1, 300 // (d + 1)])
    profiles = profile_columns(rows[1:], rows[0], set())
    query, source = profiles[0], profiles[1]
    said = {p.name: left_out(p, query, source) for p in profiles[4:]}
    assert said["lead_time"] == ("lead_time: numbers 4.75 to 8.75, varying between one item's "
                                 "judgments (a measure of each judgment: no ranking); "
                                 "not imported", "")
    assert said["secs"] == ("secs: numbers 7 to 300, one per item, whole numbers of varying "
                            "width that do not fall down the rows (a duration or a count: no "
                            "ranking); not imported", "")
    assert said["id"] == ("id: numbers 1 to 8, one per item, each naming one item and "
                          "counting up (a record's id or a counter: no ranking); not imported",
                          "")
    assert said["points"][1] == "--map score=points"


def test_a_query_ending_in_total_is_a_query_and_a_pivot_s_subtotal_a_summary(tmp_path) -> None:
    """A pivot's subtotal row is named after the query it sums (``q1
    Total``): skipped, its sums no grades. A query of its own whose last
    word is total (``calorie total``), its source id left blank, is a row
    missing its source id: rejected, its grades named, never skipped as a
    summary (was: '1 row without a judgment skipped', its grades 2 and 3
    dropped)."""
    from core.io.annotator import import_annotations

    pivot = tmp_path / "pivot.csv"
    pivot.write_text("query,source_id,grade\nq1,a,2\nq1,b,1\nq1 Total,,3\n"
                     "q2,c,1\nq2 Total,,1\nGrand Total,,4\n", encoding="utf-8")
    result = import_annotations(pivot)
    assert result.document.grade.tolist() == [2.0, 1.0, 1.0]
    assert [why for _, why in result.report.skipped_rows] == [
        "a summary row ('q1 Total'), not a judgment", "a summary row ('q2 Total'), not a judgment",
        "a summary row ('Grand Total'), not a judgment"]
    own = tmp_path / "own.csv"
    # (Alice's q2 not 1, 2: Alice counting 1, 2 in both queries could be a
    # rank, and the import stops there: test_a_small_wide_sheet_...)
    own.write_text("query,source_id,Alice,Bob\nq1,a,2,1\nq1,b,1,1\ncalorie total,,2,3\n"
                   "q2,c,1,0\nq2,d,3,2\n", encoding="utf-8")
    result = import_annotations(own)
    report = result.report
    assert result.document.annotators == ["Alice", "Bob"]
    assert report.skipped_rows == []
    assert [(r.row, r.column) for r in report.rejected] == [(4, "source_id")]


def test_a_zero_beside_a_grade_is_no_count_of_judgments(tmp_path) -> None:
    """A column whose value on each item is the number of its rows, graded
    rows or named rows is a count of its judgments; but a 0 on an item
    with a grade counts none of them: a consensus of 0 on d3 and d6, each
    graded 0 on a row naming no one (its named rows 0), every other
    item's consensus its number of rows, was said 'each the number of the
    item's judgments' and left out as a count, no flag; it is a grade
    combined from several, ``--map grade=E`` offered. The same 0s beside
    rows no one graded count them (a task with drafts alone)."""
    rows = [("vpn drops", "d1", "ana", 2), ("vpn drops", "d1", "ben", 2),
            ("vpn drops", "d2", "ana", 1), ("vpn drops", "d3", "", 0),
            ("vpn drops", "d4", "ana", 1), ("cheap flights", "d5", "ana", 2),
            ("cheap flights", "d5", "ben", 2), ("cheap flights", "d6", "", 0)]

    def consensus(graded: bool) -> tuple[str, str]:
        sheet = tmp_path / "judged.csv"
        sheet.write_text("query,doc_id,annotator,relevance,consensus\n" + "".join(
            f"{q},{d},{who},{g if who or graded else ''},{g}\n" for q, d, who, g in rows),
            encoding="utf-8")
        mapping = detect_mapping(read_guessed(sheet))
        return next((why, flag) for c, why, flag in mapping.left_out if c == 4)

    assert consensus(graded=True) == (
        "consensus: a grade combined from several, not imported (the consensus is computed "
        "from the annotators' own)", "--map grade=E")
    assert consensus(graded=False) == (
        "consensus: numbers 0 to 2, one per item, each the number of the item's judgments (a "
        "count of them, no grade); not imported", "")
