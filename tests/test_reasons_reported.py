"""Why grades are unknown, in ``evaluate``'s reports: the JSON's queries
count their unknown grades' reasons by kind beside ``unknown``
(``unknown_reasons``), the text table says them under the means; a
document whose unknown grades carry no reason (every TREC run) is reported
as before, neither key nor line. The counts by hand from the rows below."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from core.engine.evaluation import evaluate
from core.model.document import Document
from core.reports import json as json_report
from core.reports.json import dump_evaluation_json, evaluation_json
from core.reports.table import print_table

#: q1: b declined by both annotators, c unknown without a reason; q2: e
#: judged only in rejected work, f unknown with the reviewer's reason; q3
#: judged throughout. 4 unknown grades, 3 of them with a reason.
_ROWS = [("q1", "a", 3.0, ""), ("q1", "b", None, "declined by 2 annotators"),
         ("q1", "c", None, ""), ("q1", "d", 1.0, ""),
         ("q2", "e", None, "rejected work only, by 1 annotator"), ("q2", "f", None, "page gone"),
         ("q2", "g", 2.0, ""), ("q3", "h", 1.0, ""), ("q3", "i", 0.0, "")]


def _doc(reasons: bool = True) -> Document:
    q, s, g, r = zip(*_ROWS, strict=True)
    return Document.from_columns(query=list(q), source_id=list(s), grade=list(g),
                                 score=[9.0 - i for i in range(len(q))],
                                 reason=list(r) if reasons else None)


def test_each_query_counts_its_unknown_grades_reasons_after_unknown() -> None:
    obj = evaluation_json(evaluate(_doc()))
    queries = {item["query"]: item for item in obj["queries"]}
    assert queries["q1"]["unknown"] == 2
    assert queries["q1"]["unknown_reasons"] == {"declined": 1}
    assert queries["q2"]["unknown"] == 2
    assert queries["q2"]["unknown_reasons"] == {"rejected": 1, "other": 1}
    assert "unknown_reasons" not in queries["q3"]
    keys = list(queries["q2"])
    assert keys[keys.index("unknown") + 1] == "unknown_reasons"


def test_the_compact_json_says_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past 500 queries the JSON is written query by query from whole
    columns: the same object, the key in the same place."""
    ev = evaluate(_doc())
    indented = io.StringIO()
    dump_evaluation_json(ev, indented)
    monkeypatch.setattr(json_report, "_INDENTED_ROWS", 0)
    compact = io.StringIO()
    dump_evaluation_json(ev, compact)
    assert '"unknown":2,"unknown_reasons":{"declined":1},"unrateable":0' in compact.getvalue()
    assert json.loads(compact.getvalue()) == json.loads(indented.getvalue())


def test_the_table_says_why_under_the_means() -> None:
    out = io.StringIO()
    print_table(evaluate(_doc()), out)
    assert ("\nunknown grades: 4 unknown, 1 of them declined, 1 judged only in rejected work, "
            "1 with another reason (in 2 queries: q1, q2)\n") in out.getvalue()


@pytest.mark.parametrize("compact", [False, True])
def test_without_reasons_the_reports_are_as_before(
        compact: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same grades, no reason column: neither key nor line (the reports
    byte for byte those of a document without reasons, which a TREC run is)."""
    ev = evaluate(_doc(reasons=False))
    if compact:
        monkeypatch.setattr(json_report, "_INDENTED_ROWS", 0)
    out = io.StringIO()
    dump_evaluation_json(ev, out)
    assert "unknown_reasons" not in out.getvalue()
    table = io.StringIO()
    print_table(ev, table)
    assert "unknown grades:" not in table.getvalue()


def test_a_run_judged_by_an_annotators_export_carries_why(tmp_path: Path) -> None:
    """A run (d1, d2, d3, d5) given Prodigy's export as its judgments (d1
    3, d3 1, d4 0; d2 declined by both annotators): d2 and d5 unknown, d2
    declined (fails before: the join kept grades alone, no key), and the
    note on stderr tells them apart (it said both were not in the qrels)."""
    from tests.test_declined_by_all import _ITEMS, _prodigy, _run

    qrels, run = tmp_path / "prodigy.jsonl", tmp_path / "run.txt"
    _prodigy(qrels, _ITEMS)
    run.write_text("".join(f"q Q0 {d} {r} {5 - r}.0 x\n"
                           for r, d in enumerate(["d1", "d2", "d3", "d5"], start=1)))
    code, out, err = _run(["evaluate", str(run), "--qrels", str(qrels), "--format", "json"])
    assert code == 0, err
    query = json.loads(out)["queries"][0]
    assert (query["unknown"], query["unknown_reasons"], query["judged"]) == (2, {"declined": 1}, 3)
    assert ("run.txt: 2 of 4 retrieved candidates are unknown (1 not in the qrels, "
            "1 declined), so NDCG is unresolved for 1 of 1 query") in err


def test_the_unjudged_note_counts_the_retrieved_ones_declined_alone() -> None:
    """A run opened against a document: b (retrieved) declined, c
    (retrieved) not in the qrels, e declined but not retrieved (no score,
    judged-not-retrieved). Of the 2 retrieved unknown, 1 is declined and 1
    not in the qrels; e is no retrieved candidate (it said '0 not in the
    qrels, 2 declined', e counted among the retrieved's reasons)."""
    from core.analysis.aggregate import unjudged_candidates, unjudged_what

    doc = Document.from_columns(
        query=["q1"] * 4, source_id=list("abce"), score=[3.0, 2.0, 1.0, float("nan")],
        grade=[1.0, None, None, None],
        reason=["", "declined by 2 annotators", "", "declined by 1 annotator"])
    found = unjudged_candidates(evaluate(doc))
    assert found is not None
    assert (found.unknown, found.retrieved, found.reasons) == (2, 3, {"declined": 1})
    assert unjudged_what(found.unknown, found.reasons) == (
        "unknown (1 not in the qrels, 1 declined)")
    doc.reason[1] = ""  # the declined one not retrieved alone: as a TREC run says it
    found = unjudged_candidates(evaluate(doc))
    assert found is not None
    assert (found.reasons, unjudged_what(found.unknown, found.reasons)) == (
        {}, "not in the qrels (unjudged)")


def test_the_unjudged_note_says_no_zero_not_in_the_qrels() -> None:
    """Every retrieved unknown candidate declined: the note says them alone
    ('unknown (2 declined)'; it said 'unknown (0 not in the qrels, 2
    declined)')."""
    from core.analysis.aggregate import unjudged_what

    assert unjudged_what(2, {"declined": 2}) == "unknown (2 declined)"
    assert unjudged_what(3, {"declined": 1, "draft": 2}) == (
        "unknown (1 declined, 2 with drafts alone)")
    assert unjudged_what(1_200, {"declined": 1}) == (
        "unknown (1,199 not in the qrels, 1 declined)")
