"""What the command line prints of users' text, and numbers that cannot be
printed: control characters shown escaped in tables, ids quoted and
protected in CSV, JSON always standard, an overflowing gain an error."""

from __future__ import annotations

import csv
import io
import json
import math

import numpy as np
import pytest

from core.engine.evaluation import evaluate
from core.errors import InputError
from core.model.conventions import Conventions, Gain
from core.model.document import Document
from core.reports.csv import print_csv
from core.reports.json import dump_json, evaluation_json
from core.reports.table import print_table
from core.reports.text import visible

HOSTILE_IDS = ["q\x1b[2J", "q1\rq9  ok  1/1  1.0000", "a\nb", "=1+1", 'say "hi"', "x,y",
               "\u202eevil", "tab\there"]


@pytest.mark.parametrize(("text", "shown"), [
    ("q\x1b[2J", "q\\x1b[2J"), ("a\rb", "a\\rb"), ("a\nb", "a\\nb"), ("a\tb", "a\\tb"),
    ("\u202eevil", "\\u202eevil"), ("nb\u00a0sp", "nb\\xa0sp"), ("\x7f\x85", "\\x7f\\x85"),
    ("caf\u00e9 \U0001f600", "caf\u00e9 \U0001f600"), ("plain text", "plain text"),
])
def test_visible(text: str, shown: str) -> None:
    assert visible(text) == shown


def _doc() -> Document:
    return Document.from_columns(query=HOSTILE_IDS, source_id=["a"] * len(HOSTILE_IDS),
                                 score=[1.0] * len(HOSTILE_IDS), grade=[1.0] * len(HOSTILE_IDS))


def test_the_table_shows_ids_escaped_one_row_each() -> None:
    out = io.StringIO()
    print_table(evaluate(_doc()), out)
    text = out.getvalue()
    assert not any(ch < " " and ch != "\n" for ch in text)
    assert "\u202e" not in text
    rows = [line for line in text.splitlines() if line.endswith("1.0000") and "/" in line]
    assert len(rows) == len(HOSTILE_IDS)
    assert any(line.startswith("q1\\rq9  ok  1/1  1.0000 ") for line in rows)
    assert any(line.startswith("q\\x1b[2J ") for line in rows)


def test_the_csv_report_reads_back_one_record_per_query() -> None:
    out = io.StringIO()
    print_csv(evaluate(_doc()), out)
    records = list(csv.reader(io.StringIO(out.getvalue(), newline="")))
    assert records[0][0] == "query"
    got = [r[0] for r in records[1:]]
    # formula-like text behind one apostrophe; every other id exactly
    assert got == ["'" + q if q.startswith("=") else q for q in HOSTILE_IDS]


def test_json_is_standard_even_with_numbers_that_are_not_finite() -> None:
    out = io.StringIO()
    dump_json({"a": float("inf"), "b": [float("nan"), -float("inf"), 1.5], "c": "\x1b"}, out,
              rows=1)
    text = out.getvalue()
    assert json.loads(text, parse_constant=lambda c: pytest.fail(c)) == {
        "a": None, "b": [None, None, 1.5], "c": "\x1b"}
    assert "\x1b" not in text  # escaped as \u001b
    out = io.StringIO()
    dump_json(evaluation_json(evaluate(_doc())), out, rows=10_000)
    json.loads(out.getvalue(), parse_constant=lambda c: pytest.fail(c))


@pytest.mark.parametrize("n_queries", [3, 600])
@pytest.mark.parametrize("all_open", [False, True])
@pytest.mark.parametrize("outer", [False, True])
def test_json_written_query_by_query_is_the_whole_objects_text(n_queries: int,
                                                                all_open: bool,
                                                                outer: bool,
                                                                monkeypatch) -> None:
    """evaluate's JSON, written a query at a time where it is compact (more
    than 500 queries: its text made from columns, not by the encoder), is the
    text of the whole object, byte for byte: hostile ids, unresolved queries
    with exact or outer bounds, an undefined one and, when every query is
    open, means that are not numbers (null)."""
    from core.analysis import bounds
    from core.reports.json import dump_evaluation_json

    if outer:  # no completion is tried: every interval is an outer one
        monkeypatch.setattr(bounds, "MAX_COMBINATIONS", 0)

    query, source, grade = [], [], []
    for q in range(n_queries):
        qid = HOSTILE_IDS[q % len(HOSTILE_IDS)] + str(q)
        for c in range(4):
            query.append(qid)
            source.append(f"s{c}")
            grade.append(None if (c == 3 and (all_open or q % 3 == 0)) else
                         0.0 if q % 5 == 1 else float((q + c) % 4))
    doc = Document.from_columns(query=query, source_id=source, score=[4.0, 3.0, 3.0, 1.0] *
                                n_queries, grade=grade)
    doc.queries_left_out, doc.unshared = (("ranked, never judged \x1b",), ()), all_open
    ev = evaluate(doc, Conventions(cutoffs=(2, None)))
    whole, streamed = io.StringIO(), io.StringIO()
    dump_json(evaluation_json(ev), whole, rows=n_queries)
    dump_evaluation_json(ev, streamed)
    assert streamed.getvalue() == whole.getvalue()
    parsed = json.loads(streamed.getvalue(), parse_constant=lambda c: pytest.fail(c))
    assert len(parsed["queries"]) == n_queries
    assert any("bounds" in c for q in parsed["queries"] for c in q["cutoffs"])
    assert {c["bounds"]["exact"] for q in parsed["queries"] for c in q["cutoffs"]
            if "bounds" in c} == {not outer}
    assert (parsed["summary"][0]["mean"] is None) == all_open
    assert ("unjudged_queries" in parsed) == all_open


def test_the_compact_texts_of_numbers_are_the_encoders() -> None:
    """The numbers of evaluate's compact JSON made from columns (the
    per-query numbers, an unresolved query's bounds) are the encoder's text
    of each: null where not finite (NaN, an infinite bound), -0.0, the
    smallest subnormal, shortest round trips."""
    from core.reports.json import _COMPACT, _float_text, _float_texts, _json_text

    values = [math.nan, math.inf, -math.inf, -0.0, 0.0, 5e-324, 0.1, 1 / 3, 1e300, None]
    for v in values:
        assert _float_text(v) == _json_text(v, _COMPACT), v
    grid = np.array([v for v in values if v is not None] * 2).reshape(2, -1)
    assert _float_texts(grid) == [[_json_text(v, _COMPACT) for v in row]
                                  for row in grid.tolist()]


def test_an_exponential_gain_beyond_the_largest_float_is_an_error() -> None:
    doc = Document.from_columns(query=["q1", "q1"], source_id=["a", "b"], score=[2.0, 1.0],
                                grade=[1100.0, 1.0])
    with pytest.raises(InputError) as info:
        evaluate(doc, Conventions(gain=Gain.parse("exponential")))
    assert str(info.value) == (
        "grade 1100 of source 'a' (query 'q1') gives a gain beyond the largest number a "
        "computer's float holds (about 1.8e308) under exponential gain (gain = 2^grade - 1) "
        "(correct the grade, or choose linear gain or a gain table)")
    # 1023 is the largest grade whose exponential gain is a float: evaluated
    doc.grades_to_edit()[0] = 1023.0
    ev = evaluate(doc, Conventions(gain=Gain.parse("exponential")))
    assert ev.ndcg[0, 0] == 1.0


def test_gains_that_add_up_beyond_the_largest_float_are_an_error() -> None:
    doc = Document.from_columns(query=["q1", "q1", "q1", "q2"], source_id=["a", "b", "c", "a"],
                                score=[3.0, 2.0, 1.0, 1.0], grade=[1e308, 1e308, 1e308, 1.0])
    with pytest.raises(InputError) as info:
        evaluate(doc)
    assert "the gains of query 'q1' add up beyond the largest number" in str(info.value)
    assert "the largest is 1e+308" in str(info.value)
    doc = Document.from_columns(query=["q1", "q1"], source_id=["a", "b"], score=[2.0, 1.0],
                                grade=[1e308, 1e308])  # 1e308 (1 + 1/log2 3): still a float
    assert evaluate(doc).ndcg[0, 0] == 1.0


def test_an_ndcg_beyond_the_largest_float_is_an_error_that_says_so() -> None:
    """-1 ranked first beside 5e-324 at k = 1: DCG -1 over an ideal DCG of
    5e-324 is beyond the largest float; the gains themselves add up to
    nothing like it (the message said they did)."""
    doc = Document.from_columns(query=["q1", "q1", "q2"], source_id=["a", "b", "a"],
                                score=[2.0, 1.0, 1.0], grade=[-1.0, 5e-324, 1.0])
    with pytest.raises(InputError) as info:
        evaluate(doc, Conventions(cutoffs=(1,)))
    assert str(info.value) == (
        "the NDCG@1 of query 'q1' is beyond the largest number a computer's float holds "
        "(about 1.8e308): its DCG -1.0 over its ideal DCG 5e-324 under linear gain (correct "
        "its grades: the ideal DCG rests on gains far smaller than the DCG's; its smallest "
        "grade in size but for 0, 5e-324, may be meant as 0)")
