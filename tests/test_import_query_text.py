"""A query's text beside its id (a Label Studio task's ``data.query``
beside ``data.query_id``, a shared sheet's Question beside its Query ID) is
said to be the query named another way, not a batch's or a group's number.

Before: ``ignored: data.query: 6 distinct values, one value over each
query's sources (a batch's or a group's number: grades vary within a
query)``, of a column of long questions.
"""

from __future__ import annotations

from core.io.annotator import import_annotations

QUESTIONS = {
    "q017": "How do I rotate the API keys for the EU region, without downtime?",
    "q023": 'What does the "grace period" mean in the refund policy?',
    "q031": "Wie konfiguriere ich SSO mit Okta für Teams über 50 Nutzer?",
}


def _sheet(tmp_path, batch=False):
    lines = ["annotator,query_id,question,passage_id,relevance" + (",batch" if batch else "")]
    for n, (q, text) in enumerate(QUESTIONS.items()):
        quoted = '"' + text.replace('"', '""') + '"'
        for d, (ana, ben) in enumerate([(2, 3), (0, 1), (1, 1)]):
            for who, grade in (("ana", ana), ("ben", ben)):
                extra = f",{n + 1}" if batch else ""
                lines.append(f"{who},{q},{quoted},{q}#chunk-{d},{grade}{extra}")
    path = tmp_path / "annotations.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _reason(report, header):
    return next(c["reason"] for c in report.to_json()["columns"] if c["header"] == header)


def test_the_question_beside_the_query_id_is_the_querys_text(tmp_path):
    result = import_annotations(_sheet(tmp_path))
    assert result.document.query_ids == list(QUESTIONS)
    assert _reason(result.report, "question") == (
        "question: 3 distinct values, one per query (query_id), the same on each of its "
        "rows: the query named another way (its text); not imported")


def test_a_batch_number_per_query_stays_a_batchs_number(tmp_path):
    result = import_annotations(_sheet(tmp_path, batch=True))
    assert "a batch's or a group's number" in _reason(result.report, "batch")
