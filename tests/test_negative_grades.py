"""Negative grades: each preset does what its peer does, and no NDCG
outside [0, 1] passes in silence.

- scikit-learn's ``ndcg_score`` raises ``ValueError("ndcg_score should not
  be used on negative y_true values")`` (its test suite:
  ``test_ndcg_negative_ndarray_error``): ``--preset sklearn`` refuses them in
  one line naming the file and the rows.
- trec_eval (pytrec_eval here) and ranx add only gains above 0: a negative
  grade counts as 0, and the presets give their numbers.
- Under the other conventions (the defaults), a query whose ideal DCG is
  below 0 gets the status ``negative`` with its reason, no NDCG, and is left
  out of the mean and counted (the ratio -1.2753 / -0.8319 read 1.5329).
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.cli.main import main
from core.engine.evaluation import Status, evaluate
from core.model.conventions import Conventions, ZeroIdealRule
from core.model.document import Document
from core.model.presets import NEGATIVE_REFUSED_BY

L = math.log2(3)
#: q1: grades -1, 0, -0.5 in score order (the issue's case); q2: 1, 0.
WORKSHEET = "query,source_id,grade,score\nq1,a,-1,3\nq1,b,0,2\nq1,c,-0.5,1\nq2,a,1,3\nq2,b,0,2\n"


def _evaluate(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(["evaluate", *args], out=out), out.getvalue()


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    path = tmp_path / "negative.csv"
    path.write_text(WORKSHEET)
    return path


def test_scikit_learn_refuses_negative_grades_in_the_words_quoted() -> None:
    from sklearn.metrics import ndcg_score

    with pytest.raises(ValueError, match="negative y_true") as refused:
        ndcg_score([[-1, 0, -0.5]], [[3, 2, 1]])
    assert f"\"{str(refused.value).rstrip('.')}\")" in NEGATIVE_REFUSED_BY["sklearn"]


@pytest.mark.parametrize("fmt", ["table", "json"])
def test_the_sklearn_preset_refuses_them_in_one_line(sheet: Path, fmt: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """As ``ndcg_score`` raises: exit 2, nothing on stdout, one line naming
    the file, the first negative grade's line, each negative grade's row
    (source and query) and what to do."""
    code, out = _evaluate(str(sheet), "--preset", "sklearn", "--format", fmt)
    err = capsys.readouterr().err
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith(f"ndcg-worksheet: error: {sheet}, line 2: 2 negative grades under the "
                          "sklearn preset (grade -1 of source 'a' (query 'q1'); grade -0.5 of "
                          "source 'c' (query 'q1')): scikit-learn's ndcg_score refuses them")


def test_the_refusal_names_the_line_of_the_first_negative_grade(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A TREC run with its qrels: the grades' file and the qrels line of the
    first refused candidate in the run's order (d3, line 4, not d2's 3);
    a worksheet with a quoted id over two lines before it: the line the row
    starts on (5)."""
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text("q1 Q0 d3 1 3.0 r\nq1 Q0 d1 2 2.0 r\nq1 Q0 d2 3 1.0 r\n")
    qrels.write_text("q0 0 d3 2\nq1 0 d1 1\nq1 0 d2 -1\nq1 0 d3 -1\n")
    assert _evaluate(str(run), "--qrels", str(qrels), "--preset", "sklearn")[0] == 2
    err = capsys.readouterr().err
    assert err == (
        f"ndcg-worksheet: error: {qrels}, line 4: 2 negative grades under the sklearn preset "
        "(grade -1 of source 'd3' (query 'q1'); grade -1 of source 'd2' (query 'q1')): "
        f"{NEGATIVE_REFUSED_BY['sklearn']} (correct the grades, or choose the trec_eval or "
        "ranx preset (negative gains count as 0) or the default conventions)\n")
    sheet = tmp_path / "quoted.csv"
    sheet.write_text('query,source_id,grade,score\nq1,"two\nlines",1,3\nq1,b,0,2\n'
                     "q1,c,-1,1\n")
    assert _evaluate(str(sheet), "--preset", "sklearn")[0] == 2
    assert capsys.readouterr().err.startswith(
        f"ndcg-worksheet: error: {sheet}, line 5: 1 negative grade under the sklearn preset "
        "(grade -1 of source 'c' (query 'q1'))")


def test_many_negative_grades_are_named_three_and_counted(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    path = tmp_path / "many.csv"
    path.write_text("query,source_id,grade,score\n"
                    + "".join(f"q,s{i},-{i + 1},{10 - i}\n" for i in range(5)))
    assert _evaluate(str(path), "--preset", "sklearn")[0] == 2
    err = capsys.readouterr().err
    assert "5 negative grades" in err
    assert "source 's2'" in err
    assert "and 2 more" in err
    assert "source 's3'" not in err


def test_a_query_of_one_document_is_what_scikit_learn_gives_in_a_wider_matrix(
        tmp_path: Path) -> None:
    """``ndcg_score`` refuses a matrix of one column ("Computing NDCG is only
    meaningful when there is more than 1 document", its
    ``test_ndcg_error_single_document``); a query of one document among
    longer ones is a row padded with grade 0, which it scores: the preset
    gives that number."""
    from sklearn.metrics import ndcg_score

    with pytest.raises(ValueError, match="more than 1 document"):
        ndcg_score([[1]], [[1]])
    path = tmp_path / "one.csv"
    path.write_text("query,source_id,grade,score\nq1,a,2,1\nq2,a,0,2\nq2,b,3,1\n")
    code, text = _evaluate(str(path), "--preset", "sklearn", "--format", "json")
    ndcg = {q["query"]: q["cutoffs"][0]["ndcg"] for q in json.loads(text)["queries"]}
    padded = [ndcg_score([[2, 0]], [[1, -1e9]]), ndcg_score([[0, 3]], [[2, 1]])]
    assert code == 0
    assert ndcg == {"q1": padded[0], "q2": pytest.approx(padded[1], abs=1e-15)}
    assert ndcg["q2"] == pytest.approx(1 / L, abs=1e-15)


@pytest.mark.parametrize("preset", ["trec_eval", "ranx"])
def test_trec_eval_and_ranx_count_a_negative_grade_as_zero(tmp_path: Path, preset: str) -> None:
    """pytrec_eval (trec_eval's ``ndcg``) and ranx's ``ndcg`` add only gains
    above 0: the presets give their numbers, read from ``--format json``."""
    import pytrec_eval
    from ranx import Qrels, Run
    from ranx import evaluate as ranx_evaluate

    qrels = {"q1": {"a": -1, "b": 0, "c": -2, "d": 2}, "q2": {"a": -1, "b": 0}}
    run = {"q1": {"a": 3.0, "b": 2.0, "c": 1.0, "d": 0.5}, "q2": {"a": 3.0, "b": 2.0}}
    (tmp_path / "q.txt").write_text("".join(f"{q} 0 {s} {g}\n" for q, d in qrels.items()
                                            for s, g in d.items()))
    (tmp_path / "r.txt").write_text("".join(f"{q} Q0 {s} {i + 1} {v} r\n" for q, d in run.items()
                                            for i, (s, v) in enumerate(d.items())))
    code, text = _evaluate(str(tmp_path / "r.txt"), "--qrels", str(tmp_path / "q.txt"),
                           "--preset", preset, "--format", "json")
    ours = {q["query"]: q["cutoffs"][0]["ndcg"] for q in json.loads(text)["queries"]}
    if preset == "trec_eval":
        res = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg"}).evaluate(run)
        peer = {q: v["ndcg"] for q, v in res.items()}
    else:
        values = ranx_evaluate(Qrels(qrels), Run(run), "ndcg", return_mean=False)
        peer = dict(zip(sorted(run), values.tolist(), strict=True))
    assert code == 0
    assert ours == pytest.approx(peer, abs=1e-12)
    assert ours["q1"] == pytest.approx(2 / math.log2(5) / 2, abs=1e-15)  # the 2 at rank 4
    assert ours["q2"] == 0.0


def test_the_defaults_give_a_status_and_a_reason_not_1_5329(sheet: Path) -> None:
    code, text = _evaluate(str(sheet), "--format", "json")
    data = json.loads(text)
    q1 = data["queries"][0]
    assert (code, q1["query"], q1["status"]) == (0, "q1", "negative")
    cut = q1["cutoffs"][0]
    assert cut["ndcg"] is None
    assert cut["status"] == "negative"
    assert cut["dcg"] == pytest.approx(-1 - 0.5 / 2, abs=1e-15)
    assert cut["idcg"] == pytest.approx(-0.5 / L - 1 / 2, abs=1e-15)  # 0, -0.5, -1
    assert data["summary"][0]["mean"] == 1.0  # q2 alone
    assert data["summary"][0]["included"] == 1
    assert data["summary"][0]["excluded"] == {"negative": 1}


def test_the_table_says_negative_and_why(sheet: Path) -> None:
    code, text = _evaluate(str(sheet))
    rows = {line.split()[0]: line.split() for line in text.splitlines() if line[:2] in ("q1", "q2")}
    assert code == 0
    assert rows["q1"][1] == "negative"
    assert rows["q1"][-1] == "negative"
    assert "mean NDCG@all = 1.0000 over 1 query (equal-query mean; excluded: 1 negative)" in text
    assert f"negative: {Status.NEGATIVE.reason}" in text


def test_sklearns_arithmetic_without_the_preset_gives_the_status_too() -> None:
    """The refusal is the preset's (its peer's); the same arithmetic chosen
    field by field keeps the engine's rule: no NDCG, the status."""
    from core.model.presets import preset

    doc = Document.from_columns(query=["q"] * 3, source_id=list("abc"), score=[3.0, 2.0, 1.0],
                                grade=[-1.0, 0.0, -0.5])
    ev = evaluate(doc, preset("sklearn").replace(preset=None))
    assert ev.status(0) is Status.NEGATIVE
    assert math.isnan(ev.ndcg[0, 0])


@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from([-2.0, -1.0, -0.5, 0.0, 1.0, 2.0]),
                          st.integers(0, 4)), min_size=1, max_size=12),
       st.sampled_from([ZeroIdealRule.UNDEFINED, ZeroIdealRule.ZERO]))
def test_no_ndcg_above_one_whatever_the_grades(rows: list[tuple[int, float, int]],
                                               zero_ideal: ZeroIdealRule) -> None:
    """An ideal DCG is never below the DCG it bounds: every NDCG given is at
    most 1, and a query with an ideal DCG below 0 has none."""
    doc = Document.from_columns(query=[f"q{q}" for q, _, _ in rows],
                                source_id=[f"s{i}" for i in range(len(rows))],
                                score=[float(s) for _, _, s in rows],
                                grade=[g for _, g, _ in rows])
    ev = evaluate(doc, Conventions(zero_ideal=zero_ideal, cutoffs=(1, 3, None)))
    defined = ~np.isnan(ev.ndcg)
    assert (ev.ndcg[defined] <= 1 + 1e-12).all()
    assert not (defined & (ev.idcg < 0)).any()
    assert ((ev.idcg < 0) == (ev.status_code == Status.NEGATIVE.code)).all()


def test_the_navigator_shows_the_status_and_every_reason() -> None:
    from PySide6.QtCore import Qt

    from app.models.queries import QueryColumn, QueryListModel

    doc = Document.from_columns(query=["q1"] * 3 + ["q2"] * 2, source_id=list("abcab"),
                                score=[3.0, 2.0, 1.0, 3.0, 2.0],
                                grade=[-1.0, 0.0, -0.5, 1.0, 0.0])
    model = QueryListModel()
    model.set_evaluation(evaluate(doc))
    shown = [model.data(model.index(r, QueryColumn.STATUS)) for r in range(2)]
    assert shown == ["<0 negative", "✓ ok"]
    tip = model.headerData(QueryColumn.STATUS, Qt.Orientation.Horizontal,
                           Qt.ItemDataRole.ToolTipRole)
    assert f"<0 negative: {Status.NEGATIVE.reason}" in tip
    assert tip.count("\n") == len(Status) - 1
