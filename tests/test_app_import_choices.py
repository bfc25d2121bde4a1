"""The import wizard's mapping page reads the sheet again at once for every
choice that changes what is read (hleft, item 2): a query, source, grade or
annotator column chosen, a box keeping marked rows ticked; one read waiting
while another runs, the latest choices winning. The annotator's column
alone was read again (57dcc9f), and a grade chosen right after it
superseded that read with the scale's, leaving its guess stale."""

from __future__ import annotations

import csv
import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWizard

from app.import_wizard import wizard as wizard_module
from app.import_wizard.wizard import ImportWizard
from core.model.conventions import Conventions
from tests.appboxes import Boxes
from tests.test_app_import import _idle, _next

PEOPLE = [("ana@acme.io", "Ana Lopez"), ("ben@acme.io", "Ben O'Neil"),
          ("chen@acme.io", "Chen van der Berg")]


def _named(path: Path) -> Path:
    """A long sheet judged by three people, named by e-mail and full name,
    8 documents of two queries each by id and by URL, graded 0-3 and
    labelled relevant / not relevant."""
    rows: list[list[object]] = [
        ["query", "doc_id", "doc_url", "Email", "Full name", "grade", "label"]]
    for n, (q, d) in enumerate((q, d) for q in ("solar panels", "kettle descale")
                               for d in range(4)):
        rows += [[q, f"{q[:3]}-{d}", f"https://ex.org/{q[:3]}/{d}", email, name, (n + w) % 4,
                  ("relevant", "not relevant")[(n + w) % 2]]
                 for w, (email, name) in enumerate(PEOPLE)]
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path


def _wizard(qtbot: Any, path: Path) -> ImportWizard:
    wizard = ImportWizard(path, Conventions())
    qtbot.addWidget(wizard)
    wizard.show()
    _idle(qtbot, wizard)
    _next(qtbot, wizard)
    return wizard


def _down(qtbot: Any, combo: Any, presses: int = 1) -> None:
    """Arrow keys in a column's box, as a user picks the next columns."""
    combo.setFocus()
    for _ in range(presses):
        qtbot.keyClick(combo, Qt.Key.Key_Down)


def test_a_grade_chosen_right_after_the_annotator_keeps_both_read(
        qtbot: Any, boxes: Boxes, tmp_path: Path):
    """Full name chosen as the annotator, then at once the label column as
    the grade: the page says both choices read, the people counted by the
    names and the labels' scale proposed. The grade's read superseded the
    annotator's: the page kept saying 'annotator: Email, read from its
    values' and 'Full name: ... who judged, named another way'."""
    wizard = _wizard(qtbot, _named(tmp_path / "named.csv"))
    page = wizard.mapping_page
    assert page.combos["annotator"].currentText() == "D: Email"
    assert page.combos["grade"].currentText() == "F: grade"
    _down(qtbot, page.combos["annotator"])
    _down(qtbot, page.combos["grade"])  # (before the annotator's read ends)
    _idle(qtbot, wizard)
    assert page.combos["annotator"].currentText() == "E: Full name"
    assert page.combos["grade"].currentText() == "G: label"
    reasons = page.reasons.text()
    assert "annotator: Full name, declared; 3 people, each item judged by 3 of them" in reasons
    assert "grade: label, declared; 2 distinct values" in reasons
    assert ("Email: one value per annotator (Full name), the same on each of their rows: who "
            "judged, named another way; not imported") in reasons
    assert page.labels_info.text().startswith("Labels read (")
    assert "'relevant' = 1, 'not relevant' = 0" in page.labels_info.text()
    _next(qtbot, wizard)
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    document = wizard.result_value.document
    assert document.annotators == [name for _, name in PEOPLE]
    assert sorted(set(document.ratings.ravel().tolist())) == [0.0, 1.0]
    assert boxes.shown == []


def test_another_source_or_query_column_reads_the_sheet_again(
        qtbot: Any, boxes: Boxes, tmp_path: Path):
    """The documents' URL chosen as the source id: the page says it read
    (its values counted) and the id column left out saying what it holds;
    nothing was read again, the page still saying 'source id: doc_id,
    named so' after the choice."""
    wizard = _wizard(qtbot, _named(tmp_path / "named.csv"))
    page = wizard.mapping_page
    assert "source id: doc_id, named so; 8 values, each on 3 rows" in page.reasons.text()
    _down(qtbot, page.combos["source_id"])
    _idle(qtbot, wizard)
    assert page.combos["source_id"].currentText() == "C: doc_url"
    reasons = page.reasons.text()
    assert "source id: doc_url, declared; 8 values, each on 3 rows" in reasons
    assert ("doc_id: 8 distinct values, one per item as doc_url: another id of each item; "
            "if a run names the items by these, choose “doc_id” as the Source id") in reasons
    assert "doc_id, named so" not in reasons
    # Back: the first page's rows are under the roles chosen, not the first guess's
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.BackButton), Qt.MouseButton.LeftButton)
    _idle(qtbot, wizard)
    model = wizard.sheet_page.model
    assert model.headerData(2, Qt.Orientation.Horizontal) == "C: doc_url\n→ source_id"
    assert model.headerData(1, Qt.Orientation.Horizontal) == "B: doc_id"
    _next(qtbot, wizard)
    page.combos["query"].setFocus()
    qtbot.keyClick(page.combos["query"], Qt.Key.Key_Up)  # (none): the query left out
    _idle(qtbot, wizard)
    assert page.combos["query"].currentText() == "(none)"
    assert page.combos["source_id"].currentText() == "C: doc_url"  # (kept: declared)
    assert "query: none, declared" in page.reasons.text()
    assert "query: query, named so" not in page.reasons.text()
    assert boxes.shown == []


def test_preview_rows_kept_are_counted_at_once(qtbot: Any, boxes: Boxes, tmp_path: Path):
    """A Prolific study's export: ticking the box that keeps the preview
    and the test response reads the sheet again, the people counted as the
    import names them (6, each preview its own: it said 4 while 6 were
    imported), the items' rows too; unticked, 4 again."""
    from tests.test_import_crowd_people import PIDS, _prolific

    wizard = _wizard(qtbot, _prolific(tmp_path / "prolific.csv", PIDS))
    page = wizard.mapping_page
    keep = page.keep_boxes["preview"]
    assert "4 people, each item judged by 4 of them" in page.reasons.text()
    keep.setFocus()
    qtbot.keyClick(keep, Qt.Key.Key_Space)
    _idle(qtbot, wizard)
    assert keep.isChecked()
    reasons = page.reasons.text()
    assert "annotator: PROLIFIC_PID, read from its values" in reasons
    assert "6 people, each item judged by 6 of them" in reasons
    assert "query (from the items' headers); 2 values, each on 18 rows" in reasons.replace(
        "query: query, read from the items' headers;", "query (from the items' headers);")
    _next(qtbot, wizard)
    qtbot.waitUntil(lambda: wizard.result_value is not None, timeout=10_000)
    assert len(wizard.result_value.document.annotators) == 6
    wizard.back()
    _idle(qtbot, wizard)
    assert keep.isChecked()  # (back keeps the choice and its reading)
    keep.setFocus()
    qtbot.keyClick(keep, Qt.Key.Key_Space)
    _idle(qtbot, wizard)
    assert "4 people, each item judged by 4 of them" in page.reasons.text()
    assert boxes.shown == []


def test_one_read_waits_while_another_runs_and_the_latest_choice_wins(
        qtbot: Any, boxes: Boxes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Three columns passed over in the source's box while the first read
    runs (held until released): one read waits, for the last choice; the
    second is never read, and the page shows the last."""
    wizard = _wizard(qtbot, _named(tmp_path / "named.csv"))
    page = wizard.mapping_page
    read = wizard_module.preview
    release = threading.Event()
    chosen: list[dict[str, int | None]] = []

    def held(*args: Any, **kwargs: Any) -> Any:
        chosen.append(dict(kwargs.get("chosen") or {}))
        release.wait(10)
        return read(*args, **kwargs)

    monkeypatch.setattr(wizard_module, "preview", held)
    _down(qtbot, page.combos["source_id"], 3)  # doc_url, Email, Full name
    assert wizard.busy
    release.set()
    _idle(qtbot, wizard)
    assert [c.get("source_id") for c in chosen] == [2, 4]
    assert page.combos["source_id"].currentText() == "E: Full name"
    assert "source id: Full name, declared" in page.reasons.text()


def test_a_read_ending_leaves_an_open_list_of_columns_open(
        qtbot: Any, boxes: Boxes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The source chosen, then the grade's list of columns opened while
    that read runs, an arrow key moving in it: the read's end keeps the
    list open where the user was (the wizard's buttons told the pages
    closed it; the boxes were emptied and filled again at every read)."""
    wizard = _wizard(qtbot, _named(tmp_path / "named.csv"))
    page = wizard.mapping_page
    read = wizard_module.preview
    release = threading.Event()

    def held(*args: Any, **kwargs: Any) -> Any:
        release.wait(10)
        return read(*args, **kwargs)

    monkeypatch.setattr(wizard_module, "preview", held)
    _down(qtbot, page.combos["source_id"])
    grade = page.combos["grade"]
    grade.showPopup()
    qtbot.waitUntil(grade.view().isVisible)
    qtbot.keyClick(grade.view(), Qt.Key.Key_Down)  # (on G: label, not yet chosen)
    release.set()
    _idle(qtbot, wizard)
    assert "source id: doc_url, declared" in page.reasons.text()
    assert grade.view().isVisible()
    assert grade.currentText() == "F: grade"
    assert grade.view().currentIndex().data() == "G: label"
    grade.hidePopup()
