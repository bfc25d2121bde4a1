"""The judged but not retrieved candidates' table is as tall as its rows
where the ranked list leaves the room (File > Open of a run at 10 pt and
1280x800, in the dark scheme, showed one of its 6 rows below a ranked list
of 10 with 200 px to spare), at least :data:`NOT_RETRIEVED_LEAST` rows
where it does not (the rest scroll), and where the reviewer drags the
splitter's handle it stays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QTableView

from app.panels.grid import NOT_RETRIEVED_LEAST
from app.scheme import apply_palette, dark_palette, is_dark
from tests.test_app_open_run import open_by_keys

pytestmark = pytest.mark.usefixtures("never_block")


def _files(tmp_path: Path, ranked: int, judged_only: int) -> tuple[Path, Path]:
    """A run of 3 queries, ``ranked`` documents each, and qrels that judge
    them and ``judged_only`` more."""
    run, qrels = [], []
    for q in range(1, 4):
        for r in range(ranked + judged_only):
            qrels.append(f"q{q} 0 D{q}-{r:03d} {(r * 7 + q) % 4}")
            if r < ranked:
                run.append(f"q{q} Q0 D{q}-{r:03d} {r + 1} {200 - r} sys")
    (tmp_path / "run.txt").write_text("\n".join(run) + "\n")
    (tmp_path / "qrels.txt").write_text("\n".join(qrels) + "\n")
    return tmp_path / "run.txt", tmp_path / "qrels.txt"


def _whole_rows(view: QTableView) -> int:
    """How many rows ``view`` shows whole (from its top)."""
    port = view.viewport().height()
    return sum(1 for r in range(view.model().rowCount())
               if view.rowViewportPosition(r) >= 0
               and view.rowViewportPosition(r) + view.rowHeight(r) <= port)


def _opened(qtbot: Any, window: Any, monkeypatch: pytest.MonkeyPatch, run: Path,
            qrels: Path) -> None:
    """File > Open (Ctrl+O) of ``run`` with ``qrels``, at 10 pt and 1280x800, dark."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    font = QFont(window.font())
    font.setPointSizeF(10)
    window.setFont(font)
    apply_palette(app, dark_palette())
    window.workplace.reset(QRect(0, 0, 1280, 800))
    qtbot.waitExposed(window)
    open_by_keys(qtbot, window, monkeypatch, run, qrels)
    assert window.path == run
    for _ in range(3):
        qtbot.wait(1)
        QApplication.processEvents()
    assert is_dark(app.palette())


@pytest.fixture
def light_again():  # type: ignore[no-untyped-def]
    """The application's palette as it was, after the test."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    palette = app.palette()
    yield
    apply_palette(app, palette)


def test_every_not_retrieved_row_shows_below_a_short_ranked_list(
        qtbot: Any, window: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        light_again: None) -> None:
    _opened(qtbot, window, monkeypatch, *_files(tmp_path, 10, 6))
    panel = window.grid_panel
    assert panel.not_retrieved_model.rowCount() == 6
    assert _whole_rows(panel.not_retrieved) == 6
    assert _whole_rows(panel.grid) == 10
    window.set_query(1)  # (the next query: the same)
    qtbot.wait(1)
    assert _whole_rows(panel.not_retrieved) == 6
    lower = panel.split.sizes()[1]
    for height in (1000, 800):  # (the window taller, then as it was: the same rows)
        window.resize(window.width(), height)
        qtbot.waitUntil(lambda h=height: window.height() == h)
        QApplication.processEvents()
        assert _whole_rows(panel.not_retrieved) == 6
        assert _whole_rows(panel.grid) == 10
        assert panel.split.sizes()[1] == lower


def test_a_long_list_leaves_the_not_retrieved_rows_their_least(
        qtbot: Any, window: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        light_again: None) -> None:
    _opened(qtbot, window, monkeypatch, *_files(tmp_path, 60, 30))
    panel = window.grid_panel
    lower = panel.not_retrieved
    assert _whole_rows(lower) >= NOT_RETRIEVED_LEAST
    assert lower.verticalScrollBar().maximum() > 0  # the rest scroll
    assert _whole_rows(panel.grid) > _whole_rows(lower)
    # Dragged by the reviewer (down to a row): the heights are theirs, from
    # query to query, until View > Reset layout.
    sizes = panel.split.sizes()
    panel.split.moveSplitter(sum(sizes) - 80, 1)
    moved = panel.split.sizes()
    assert moved != sizes
    assert _whole_rows(lower) < NOT_RETRIEVED_LEAST
    window.set_query(1)
    qtbot.wait(1)
    assert panel.split.sizes() == moved
    window.app_actions["reset_layout"].trigger()
    qtbot.waitUntil(lambda: _whole_rows(lower) >= NOT_RETRIEVED_LEAST)
