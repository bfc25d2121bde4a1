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
from core.io.trec import document_from_trec, scan
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
    assert doc.query_ids == ["1048585", "2"]
    ev = evaluate(doc, preset("trec_eval"))
    # 1048585: the tie at 12.3456 ordered by docno descending (17_ before
    # 03_): gains 0, 2, 3, 0 against the ideal 3, 2, 1; one judged source is
    # not retrieved.
    assert ev.ndcg[0, 0] == pytest.approx((2 / L3 + 3 / 2) / (3 + 2 / L3 + 1 / 2), abs=1e-12)
    # 2: 9.1e-01 above -3.25E+00: gains 0, 1 against the ideal 1.
    assert ev.ndcg[1, 0] == pytest.approx(1 / L3, abs=1e-12)
