"""Who judged, in crowd platforms' exports: the people counted on the rows
imported (a preview response is no one's judgment), named by the
platform's participant id where a column holds one, and an annotation
tool's annotator id read as who judged, never as a measure."""

from __future__ import annotations

import csv
from pathlib import Path

from core.io.annotator import import_annotations, preview

DATA = Path(__file__).parent / "data" / "annotators"


def _guess(report_guesses: list[str], field: str) -> str:
    return next(g for g in report_guesses if g.startswith(f"{field}: "))


def test_the_people_are_counted_after_the_preview_rows_are_skipped():
    """Qualtrics' export holds a preview and a test response (rows 4 and
    8, skipped): 4 respondents remain, and the guess says 4 (it said '6
    people, each item judged by 6 of them', the skipped rows counted)."""
    result = import_annotations(DATA / "qualtrics_export.csv")
    report = result.report
    assert report.excluded == {"preview": 2}
    assert len(result.document.annotators) == 4
    assert _guess(report.guesses(), "annotator") == (
        "annotator: ResponseId, read from its values; 4 people, each item judged by 4 of them")
    # the wizard's mapping page shows the same reason
    reasons = dict(preview(DATA / "qualtrics_export.csv").mapping.reasons)
    assert reasons["annotator"].endswith("; 4 people, each item judged by 4 of them")


def test_a_respondent_s_blank_items_count_no_one_out(tmp_path: Path):
    """Counted on the rows kept, not on the grades: a respondent who left
    an item blank still judged the survey (3 people, items judged by 3)."""
    with open(DATA / "qualtrics_export.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    status = rows[0].index("Status")
    kept = [*rows[:3], *(r for r in rows[3:] if r[status] == "IP Address")][:6]
    path = tmp_path / "three.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(kept)
    report = import_annotations(path).report
    assert report.excluded == {}
    assert _guess(report.guesses(), "annotator").endswith(
        "; 3 people, each item judged by 3 of them")
