"""A JSON export's headline counts its records or lines, each once, as the
rest of the headline does: the blank ones and those without a judgment
skipped, those with no grade at all and those of them holding a model's
prediction alone (they counted the table's rows, a rating each: '5 rows
without a judgment skipped' of a Label Studio export of 4 records). The
oracle reads each drawn record as a person would: a record with a
judgment is imported, whatever else it holds."""

from __future__ import annotations

import json
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from hypothesis import Phase, event, given, settings

from core.io.annotator import import_annotations
from core.io.annotator.report import ImportReport, predicted_rows, ungraded_rows
from core.model.numbers import counted
from tests.platformgen_json import argilla_jsonl, label_studio_json
from tests.sheetgen_drawn import Drawn
from tests.sheetimport import PROFILE

#: Exports drawn of each tool.
EXPORTS = 10


def _report(sheet: Drawn, suffix: str) -> ImportReport:
    with TemporaryDirectory() as tmp:
        path = Path(tmp) / f"drawn{suffix}"
        path.write_text(sheet.text or "", encoding="utf-8")
        return import_annotations(path).report


def _said(report: ImportReport, unit: str, ungraded: int, predicted: int, skipped: int,
          ) -> None:
    """The headline says the counts in ``unit``, and the tally agrees."""
    headline = report.headline()
    event(f"{unit}s: {ungraded} with no grade, {predicted} predicted, {skipped} skipped")
    assert f"; {counted(0, f'blank {unit}')}" + (
        f" and {counted(skipped, unit)} without a judgment" if skipped else "") \
        + " skipped; " in headline, headline
    if ungraded:
        assert f"every cell of {ungraded_rows(ungraded, unit)}" in headline, headline
    else:
        assert " with no grade at all" not in headline, headline
    if predicted:
        assert f", {predicted_rows(predicted, ['predictions.result.value.choices'])};" \
            in headline, headline
    else:
        assert "a model's prediction alone" not in headline, headline
    assert report.row_tally is not None
    assert (report.row_tally.ungraded, sum(n for _, n in report.row_tally.skipped)) \
        == (ungraded, skipped)


@settings(PROFILE, max_examples=EXPORTS, phases=[Phase.generate])
@given(label_studio_json())
def test_a_label_studio_export_s_headline_counts_its_records(sheet: Drawn) -> None:
    """A task with an annotation not cancelled is imported, whatever
    predictions, drafts and cancelled annotations it holds beside it; one
    without is a record with no grade at all if it holds a prediction or
    its drafts as ids alone (a row of its fields), else skipped (its
    annotations cancelled, or its drafts)."""
    tasks: list[dict[str, Any]] = json.loads(sheet.text or "[]")
    graded = [any(not a["was_cancelled"] for a in t["annotations"]) for t in tasks]
    bare = [not t["annotations"] and not t["predictions"]
            and all(isinstance(d, int) for d in t["drafts"]) for t in tasks]
    ungraded = [not g and (bool(t["predictions"]) or b)
                for t, g, b in zip(tasks, graded, bare, strict=True)]
    predicted = sum(u and bool(t["predictions"]) for t, u in zip(tasks, ungraded, strict=True))
    skipped = sum(not g and not u for g, u in zip(graded, ungraded, strict=True))
    _said(_report(sheet, ".json"), "record", sum(ungraded), predicted, skipped)


@settings(PROFILE, max_examples=EXPORTS, phases=[Phase.generate])
@given(argilla_jsonl())
def test_an_argilla_export_s_headline_counts_its_lines(sheet: Drawn) -> None:
    """A record with a response submitted is imported, whatever responses
    discarded or saved as drafts it holds beside it; a pending one (no
    response) is a line with no grade at all; one whose every response is
    discarded or a draft is skipped."""
    records = [json.loads(line) for line in (sheet.text or "").splitlines()]
    status = [r["relevance.responses.status"] for r in records]
    ungraded = sum(not s for s in status)
    skipped = sum(bool(s) and "submitted" not in s for s in status)
    _said(_report(sheet, ".jsonl"), "line", ungraded, 0, skipped)
