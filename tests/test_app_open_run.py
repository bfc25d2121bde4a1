"""File > Open (Ctrl+O) of a run reads it as ``evaluate RUN --qrels QRELS``
does, asking for its qrels: ranx's and pytrec_eval's JSON run (it went to
the import wizard, which read it as an annotators' sheet), a TREC run and
a Parquet run (each was refused, naming ``--qrels``, which the window has
not). Cancelling the qrels opens nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QWidget

from app.file_formats import Origin
from core.engine.evaluation import evaluate
from core.io.load import load_document
from tests.appboxes import Boxes
from tests.launching import windows_built
from tests.test_app_open_evaluated import _window
from tests.test_app_sources import _ctrl

#: q1 ranks d1, d2, d3; the qrels grade d2 1 and d3 2 (d9: judged, not ranked);
#: q2 ranks e1 (judged 0).
RUN = {"q1": {"d1": 3.0, "d2": 2.5, "d3": 1.0}, "q2": {"e1": 0.5}}
QRELS = {"q1": {"d2": 1, "d3": 2, "d9": 1}, "q2": {"e1": 0}}


def _files(tmp_path: Path, kind: str) -> tuple[Path, Path]:
    if kind == "json":
        run, qrels = tmp_path / "run.json", tmp_path / "qrels.json"
        run.write_text(json.dumps(RUN))
        qrels.write_text(json.dumps(QRELS))
        return run, qrels
    run, qrels = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run.write_text("".join(f"{q} Q0 {d} {r} {s} t\n" for q, ds in RUN.items()
                           for r, (d, s) in enumerate(ds.items(), 1)))
    if kind == "parquet":  # a ranker's run as pandas or pyarrow write it, beside TREC qrels
        import pyarrow as pa
        import pyarrow.parquet as pq

        run = tmp_path / "run.parquet"
        rows = [(q, d, s) for q, ds in RUN.items() for d, s in ds.items()]
        pq.write_table(pa.table({"query": [r[0] for r in rows], "source_id": [r[1] for r in rows],
                                 "score": [r[2] for r in rows]}), run)
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, ds in QRELS.items()
                             for d, g in ds.items()))
    return run, qrels


def _answers(monkeypatch: pytest.MonkeyPatch, run: Path, qrels: Path | None) -> list[str]:
    """The open dialog answers ``run``, then the qrels dialog ``qrels``;
    their titles are kept."""
    titles: list[str] = []
    answers = [str(run), str(qrels or "")]

    def dialog(_parent: Any, title: str, *_a: Any, **_k: Any) -> tuple[str, str]:
        titles.append(title)
        return answers.pop(0), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(dialog))
    return titles


def open_by_keys(qtbot: Any, window: Any, monkeypatch: pytest.MonkeyPatch, run: Path,
                 qrels: Path | None) -> list[str]:
    """File > Open by Ctrl+O, the dialogs answering ``run`` then ``qrels``
    (:func:`_answers`), its read waited for; the dialogs' titles."""
    titles = _answers(monkeypatch, run, qrels)
    _ctrl(qtbot, window, Qt.Key.Key_O)
    task = window.file_ops.task
    assert task is not None
    qtbot.waitUntil(lambda: task.done, timeout=10_000)
    return titles


@pytest.mark.parametrize("kind", ["json", "trec", "parquet"])
def test_file_open_of_a_run_asks_for_its_qrels(qtbot: Any, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch, kind: str):
    run, qrels = _files(tmp_path, kind)
    boxes = Boxes(monkeypatch)
    window = _window(qtbot)
    monkeypatch.setattr(window.file_ops, "run_import_wizard", lambda p: pytest.fail(f"wizard {p}"))
    titles = open_by_keys(qtbot, window, monkeypatch, run, qrels)
    assert boxes.shown == []
    assert titles == ["Open worksheet", f"Open the qrels of {run.name}"]
    doc = window.document
    assert window.path == run
    assert doc.query_ids == ["q1", "q2"]
    # The run's rows in its order, then d9 (judged, not retrieved: no score).
    assert list(doc.source_id) == ["d1", "d2", "d3", "e1", "d9"]
    np.testing.assert_array_equal(doc.grade, [np.nan, 1.0, 2.0, 0.0, 1.0])
    np.testing.assert_array_equal(doc.score, [3.0, 2.5, 1.0, 0.5, np.nan])
    assert window.file_ops.origin is Origin.RUN
    assert window.file_ops.qrels == qrels.resolve()
    # What the command line reads from the same files, number for number
    # (under the defaults, as evaluate does: not the window's previous ones).
    cli = evaluate(load_document(run, qrels=qrels))
    np.testing.assert_array_equal(window.session.evaluation.ndcg, cli.ndcg)


def test_file_open_of_a_run_without_its_qrels_opens_nothing(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    run, _ = _files(tmp_path, "json")
    window = _window(qtbot)
    shown = window.document
    monkeypatch.setattr(window.file_ops, "run_import_wizard", lambda p: pytest.fail(f"wizard {p}"))
    titles = _answers(monkeypatch, run, None)
    window.file_ops.task = None
    assert window.file_ops.open_dialog() is None
    assert titles == ["Open worksheet", "Open the qrels of run.json"]
    assert window.document is shown
    assert window.file_ops.task is None


def _launch(monkeypatch: pytest.MonkeyPatch, qtbot: Any, argv: list[str],
            during: Any) -> Any:
    """``ndcg-worksheet ARGV`` through the launcher (``app.launcher.main``),
    ``during(window)`` run as its event loop; the window."""
    from PySide6.QtWidgets import QApplication

    import app.launcher as launcher

    built = windows_built(monkeypatch)

    def event_loop(_app: Any) -> int:
        (window,) = built
        qtbot.addWidget(window)
        qtbot.waitExposed(window)
        during(window)
        return 0

    monkeypatch.setattr(QApplication, "exec", event_loop)
    assert launcher.main(argv) == 0
    return built[0]


@pytest.mark.parametrize("kind", ["json", "trec", "parquet"])
def test_a_run_given_at_launch_without_qrels_asks_for_them(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str):
    """``ndcg-worksheet run.json`` (or a TREC run) takes File > Open's way:
    the window, empty, asks for the run's qrels and reads them with it (it
    went to the import wizard, and a TREC run was refused naming --qrels)."""
    from app.fileops import FileOps
    from app.opening import READING

    run, qrels = _files(tmp_path, kind)
    boxes = Boxes(monkeypatch)
    monkeypatch.setattr(FileOps, "run_import_wizard", lambda _s, p: pytest.fail(f"wizard {p}"))
    titles: list[str] = []

    def dialog(_parent: Any, title: str, *_a: Any, **_k: Any) -> tuple[str, str]:
        titles.append(title)
        return str(qrels), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(dialog))

    def during(window: Any) -> None:
        assert not READING  # nothing read before the qrels are known
        qtbot.waitUntil(lambda: window.path == run, timeout=10_000)

    window = _launch(monkeypatch, qtbot, [str(run), "--preset", "trec_eval"], during)
    assert boxes.shown == []
    assert titles == [f"Open the qrels of {run.name}"]
    doc = window.document
    assert doc.query_ids == ["q1", "q2"]
    np.testing.assert_array_equal(doc.grade, [np.nan, 1.0, 2.0, 0.0, 1.0])
    assert window.file_ops.origin is Origin.RUN
    assert window.file_ops.qrels == qrels.resolve()
    # The preset named at launch, as evaluate reads the same files under it.
    from core.model.presets import apply_preset

    want = load_document(run, qrels=qrels)
    want.conventions = apply_preset(want.conventions, "trec_eval")
    assert doc.conventions == want.conventions
    np.testing.assert_array_equal(window.session.evaluation.ndcg, evaluate(want).ndcg)
    assert not window.findChild(type(window.grid_panel), "placeholderBanner")
    banner = window.findChild(QWidget, "placeholderBanner")
    assert banner is None or not banner.isVisible()


def test_a_run_given_at_launch_whose_qrels_are_not_chosen_opens_nothing(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Cancelling the qrels' dialog at launch leaves the window empty (no
    data the user did not open), saying in one line what to do."""
    from app.fileops import FileOps

    run, _ = _files(tmp_path, "trec")
    boxes = Boxes(monkeypatch)
    monkeypatch.setattr(FileOps, "run_import_wizard", lambda _s, p: pytest.fail(f"wizard {p}"))
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *_a, **_k: ("", "")))
    lines: list[str] = []

    def during(window: Any) -> None:
        banner = window.findChild(QWidget, "placeholderBanner")
        qtbot.waitUntil(lambda: "was not opened" in banner.text.text(), timeout=10_000)
        assert banner.isVisible()
        lines.append(banner.text.text())

    window = _launch(monkeypatch, qtbot, [str(run)], during)
    assert boxes.shown == []
    assert lines == ["run.txt was not opened: a run is read with its qrels. File > Open… "
                     "asks for them."]
    assert window.path is None
    assert window.document.n_queries == 0
    assert window.file_ops.task is None

def test_file_open_of_a_run_offers_to_count_its_unjudged_candidates(
        qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # d1, ranked first in q1, is judged nowhere: q1 is unresolved. The
    # launch on the run and its qrels offers the banner's choices; so does
    # File > Open of them in a window showing the example.
    from app.main import build_window

    run, qrels = _files(tmp_path, "trec")
    launched = build_window(run, qrels=qrels, review_docks=False)
    qtbot.addWidget(launched)
    assert not launched.unjudged_banner.isHidden()
    window = build_window(None, review_docks=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.session.mark_saved())
    window.show()
    qtbot.waitExposed(window)
    assert window.unjudged_banner.isHidden()  # (the example: nothing unjudged)
    open_by_keys(qtbot, window, monkeypatch, run, qrels)
    assert window.path == run
    assert not window.unjudged_banner.isHidden()
    assert "1 of 4 retrieved candidates is not in the qrels" in window.unjudged_banner.text.text()


def test_the_unjudged_banner_counts_the_unresolved_queries(qtbot: Any, window: Any) -> None:
    """The banner's sentence: the unjudged candidates of the retrieved ones,
    and the queries whose worst status is unresolved (q1 and q3, each with an
    unjudged candidate; q2 judged whole; q4 unranked, its unjudged one not
    retrieved)."""
    from core.engine.evaluation import Status
    from core.model.document import Document

    w = window
    try:
        w.set_document(Document.from_columns(
            query=["q1", "q1", "q2", "q2", "q3", "q4"], source_id=list("abcdef"),
            score=[2.0, 1.0, 2.0, 1.0, 1.0, None], grade=[1.0, None, 1.0, 0.0, None, None]))
        assert w.unjudged_banner.offer()
        text = w.unjudged_banner.text.text()
        # b and e: f, unknown too, is not retrieved (it said "3 of 5" in a
        # new user's trial, and one more each time a judged candidate not
        # retrieved was marked unknown)
        assert "2 of 5 retrieved candidates are not in the qrels" in text
        assert "NDCG is unresolved for 2 of 4 queries" in text
        assert [w.evaluation.query_status(q) for q in range(4)].count(Status.UNRESOLVED) == 2
        # One of each: the nouns and the verb agree with 1.
        w.set_document(Document.from_columns(query=["q1"], source_id=["a"], score=[1.0],
                                             grade=[None]))
        assert w.unjudged_banner.offer()
        assert ("<b>1 of 1 retrieved candidate is not in the qrels</b> (unjudged), so NDCG is "
                "unresolved for 1 of 1 query. ") in w.unjudged_banner.text.text()
    finally:
        w.session.mark_saved()


def test_the_unjudged_banner_follows_the_grades_set(qtbot: Any, window: Any) -> None:
    """Judging the unjudged candidates, as its "Keep unresolved" asks, updates
    the banner's counts and closes it once no query is left unresolved; an
    undo brings it back. In a new user's trial it still said "NDCG is
    unresolved for 1 of 3 queries" over three queries all ok. Once the user
    chose a way out, a grade does not show it again."""
    from core.model.document import Document

    w = window
    banner = w.unjudged_banner
    try:
        w.set_document(Document.from_columns(
            query=["q1", "q1", "q2", "q2", "q3"], source_id=list("abcde"),
            score=[2.0, 1.0, 2.0, 1.0, 1.0], grade=[1.0, None, 1.0, 0.0, None]))
        assert banner.offer()
        w.set_grade(1, 2.0)  # q1's b
        assert not banner.isHidden()
        assert ("<b>1 of 5 retrieved candidates is not in the qrels</b> (unjudged), so NDCG "
                "is unresolved for 1 of 3 queries. ") in banner.text.text()
        w.set_grade(4, 0.0)  # q3's e: every ranked candidate judged
        assert banner.isHidden()
        w.session.undo()
        assert not banner.isHidden()
        assert "unresolved for 1 of 3 queries" in banner.text.text()
        banner.buttons["keepUnresolved"].click()  # the user's choice: the banner closes
        assert banner.isHidden()
        w.set_grade(4, 1.0)
        w.session.undo()
        assert banner.isHidden()
    finally:
        w.session.mark_saved()


def test_tab_reaches_the_unjudged_banner_s_buttons_as_the_window_reads(
        qtbot: Any, window: Any) -> None:
    """Tab from the query list goes to the banner's buttons, above the grid,
    then into the grid; Shift+Tab from the grid's first button goes back to
    the query list. Made after the window's Tab order, they came after the
    audit log and the status bar's reviewer button (fails before: Tab went
    from the query list to the grid, past them). Space on a button chooses."""
    from PySide6.QtWidgets import QApplication

    from core.model.conventions import UnknownRule
    from core.model.document import Document

    w = window
    try:
        w.set_document(Document.from_columns(
            query=["q1", "q1", "q2"], source_id=list("abc"), score=[2.0, 1.0, 1.0],
            grade=[1.0, None, None]))
        assert w.unjudged_banner.offer()
        nav = w.navigator.view
        nav.setFocus()
        qtbot.waitUntil(lambda: QApplication.focusWidget() is nav)
        seen = []
        for _ in range(4):
            qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
            seen.append(QApplication.focusWidget().objectName())
        assert seen == ["treatAsNotRelevant", "condenseLists", "keepUnresolved", "candidateGrid"]
        first = w.unjudged_banner.buttons["treatAsNotRelevant"]
        first.setFocus()
        qtbot.keyClick(first, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
        assert QApplication.focusWidget() is nav
        qtbot.keyClick(nav, Qt.Key.Key_Tab)
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Space)  # Condense the lists
        assert w.conventions.unknown is UnknownRule.CONDENSED
        assert w.unjudged_banner.isHidden()
    finally:
        w.session.mark_saved()


def test_the_unjudged_banner_tells_the_declined_apart(qtbot: Any, window: Any) -> None:
    """A candidate the annotators declined is in the judgments, unknown with
    its reason: the banner counts it apart from the one the judgments do
    not hold (fails before: both 'not in the qrels')."""
    from core.model.document import Document

    w = window
    try:
        w.set_document(Document.from_columns(
            query=["q1", "q1", "q1"], source_id=list("abc"), score=[3.0, 2.0, 1.0],
            grade=[None, None, 1.0], reason=["declined by 2 annotators", "", ""]))
        assert w.unjudged_banner.offer()
        assert ("<b>2 of 3 retrieved candidates are unknown (1 not in the qrels, 1 declined)"
                "</b>, so NDCG is unresolved for 1 of 1 query. ") in w.unjudged_banner.text.text()
    finally:
        w.session.mark_saved()
