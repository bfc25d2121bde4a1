"""Runs and qrels as other tools write them (tests/data/tools/, see its
NOTICE.md for where each shape comes from), read by the TREC readers, both
the column-wise one and the line-by-line one, and evaluated under the
``trec_eval`` preset against hand-derived values.
"""

from __future__ import annotations

import math
from pathlib import Path
from unittest import mock

import pytest

from core.engine.evaluation import evaluate
from core.io.load import load_document
from core.io.pairs import check_exist
from core.io.trec import document_from_trec, scan
from core.model.document import Document
from core.model.presets import preset

DATA = Path(__file__).parent / "data" / "tools"
L3 = math.log2(3)


@pytest.mark.parametrize("slow", [False, True])
def test_utf8_bom_is_not_part_of_the_first_query_id(slow):
    # A BOM (PowerShell 5's `Out-File -Encoding utf8`, Notepad before 2019)
    # read as part of the first id would split query 1048585 in two and
    # silently change its NDCG.
    run, qrels = DATA / "anserini_bom.run", DATA / "qrels_bom_crlf.txt"
    if slow:
        with mock.patch.object(scan, "scan_file", return_value=None):
            doc = document_from_trec(run, qrels)
    else:
        doc = document_from_trec(run, qrels)
    assert_hand_values(doc)


def assert_hand_values(doc: Document) -> None:
    """The trial's run and qrels (NOTICE.md) under the trec_eval preset."""
    assert doc.query_ids == ["1048585", "2"]
    ev = evaluate(doc, preset("trec_eval"))
    # 1048585: the tie at 12.3456 ordered by docno descending (17_ before
    # 03_): gains 0, 2, 3, 0 against the ideal 3, 2, 1; one judged source is
    # not retrieved.
    assert ev.ndcg[0, 0] == pytest.approx((2 / L3 + 3 / 2) / (3 + 2 / L3 + 1 / 2), abs=1e-12)
    # 2: 9.1e-01 above -3.25E+00: gains 0, 1 against the ideal 1.
    assert ev.ndcg[1, 0] == pytest.approx(1 / L3, abs=1e-12)


def test_ir_datasets_dataframes_written_to_parquet():
    # pandas DataFrames of ir_datasets' TrecQrel and ScoredDoc records (the
    # run with its index column), with its column names.
    doc = load_document(DATA / "ir_datasets_scoreddocs.parquet",
                        qrels=DATA / "ir_datasets_qrels.parquet")
    assert_hand_values(doc)


def test_compressed_runs_are_read_and_text_like_bzip2_is_text(tmp_path):
    # Anserini writes runs gzipped on request: read as the plain run
    # (tests/test_compressed_inputs.py has the rest).
    assert_hand_values(load_document(DATA / "anserini.run.gz", qrels=DATA / "qrels_bom_crlf.txt"))
    # Text that merely starts like bzip2's magic (BZh) is read as text.
    text = tmp_path / "r.txt"
    text.write_bytes(b"BZh9 Q0 a 1 2.5 t\n")
    (tmp_path / "q.txt").write_bytes(b"BZh9 0 a 1\n")
    assert load_document(text, qrels=tmp_path / "q.txt").query_ids == ["BZh9"]
    assert check_exist(text, tmp_path / "q.txt")[0].compression is None


@pytest.mark.parametrize(("run", "qrels", "judged"), [
    ("ranx_run.json", "qrels_bom_crlf.txt", ["1048585", "2"]),
    ("anserini_bom.run", "ranx_qrels.json", ["1048585"]),  # (ranx's qrels judge one query)
])
def test_ranx_json_is_read(run, qrels, judged):
    # (tests/test_score_dict.py: against ranx and pytrec_eval, and refusals)
    assert load_document(DATA / run, qrels=DATA / qrels).query_ids == judged


def test_beir_qrels_tsv_whose_corpus_ids_repeat_across_queries(tmp_path):
    """BEIR's qrels TSV (``query-id corpus-id score``, the score being the
    grade) where one corpus id is judged for several queries, as in
    NFCorpus: the importer's guess, by values alone, found no source column
    ('no source id column found in the header (query-id, corpus-id, score)')
    since each id sat under two queries; ``corpus-id`` now names it."""
    qrels = tmp_path / "test.tsv"
    qrels.write_text("query-id\tcorpus-id\tscore\n" + "".join(
        f"{q}\t{d}\t{g}\n" for q, judged in (("q1", "B1 A3 C0"), ("q2", "C0 A3 B1"))
        for d, g in judged.split()))
    run = tmp_path / "run.txt"
    run.write_text("".join(f"{q} Q0 {d} {r} {4 - r} bm25\n" for q, order in
                           (("q1", "BAC"), ("q2", "CAB")) for r, d in enumerate(order, 1)))
    doc = load_document(run, qrels=qrels)
    assert doc.query_ids == ["q1", "q2"]
    ev = evaluate(doc, preset("trec_eval"))
    # q1 ranks grades 1, 3, 0; q2 0, 3, 1; the ideal is 3, 1, 0 in both
    assert ev.ndcg[0, 0] == pytest.approx((1 + 3 / L3) / (3 + 1 / L3), abs=1e-12)
    assert ev.ndcg[1, 0] == pytest.approx((3 / L3 + 1 / 2) / (3 + 1 / L3), abs=1e-12)


def test_a_worksheet_saved_from_judgments_is_read_as_qrels(tmp_path):
    """The judgments-only banner's way on: grade an annotators' sheet in the
    editor, save it (the audited workbook), then name it as the run's qrels.
    The workbook was read as an annotators' sheet and refused ('1 more
    column of grades like E (original grade), F (current grade) ... is not
    used: J (transformed gain)', with a --annotators hint naming them): its
    current grades are the judgments now, unknown ones left out as qrels
    leave them."""
    from core.io.annotator import import_annotations
    from core.io.workbook import export_workbook
    from core.model.document import GradeState

    sheet = tmp_path / "judged.csv"
    sheet.write_text("query,document,relevance\nq1,B,1\nq1,A,3\nq1,C,0\n"
                     "q2,C,0\nq2,A,3\nq2,B,\n", encoding="utf-8")
    doc = import_annotations(sheet).document
    b = next(i for i in range(len(doc)) if doc.query_ids[int(doc.query[i])] == "q2"
             and doc.source_id[i] == "B")
    assert doc.state[b] == GradeState.UNKNOWN
    doc.grades_to_edit()[b] = 1.0  # graded in the editor
    doc.state[b] = GradeState.NUMBER
    book = tmp_path / "judged.xlsx"
    export_workbook(evaluate(doc), book)
    run = tmp_path / "run.txt"
    run.write_text("".join(f"{q} Q0 {d} {r} {4 - r} bm25\n" for q, order in
                           (("q1", "BAC"), ("q2", "CAB")) for r, d in enumerate(order, 1)))
    doc = load_document(run, qrels=book)
    ev = evaluate(doc, preset("trec_eval"))
    assert ev.ndcg[0, 0] == pytest.approx((1 + 3 / L3) / (3 + 1 / L3), abs=1e-12)
    assert ev.ndcg[1, 0] == pytest.approx((3 / L3 + 1 / 2) / (3 + 1 / L3), abs=1e-12)
