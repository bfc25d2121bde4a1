"""File > Print… (Ctrl+P), Print Preview… and Export PDF… (app/printing.py):
the PDF's text (poppler's pdftotext) holds the conventions as the panel
names them and the current query's rows as the grid shows them; "All
queries" holds every query; the cells laid out are the grid's own texts."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtPrintSupport import QPrintDialog, QPrinter, QPrintPreviewDialog, QPrintPreviewWidget
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QRadioButton,
    QStyleOptionViewItem,
    QTableView,
)

from app import printing
from app.printing import Printing
from core.model.conventions import field_rows
from core.model.document import GradeState
from core.reports.printout import query_printout

PDFTOTEXT = shutil.which("pdftotext")


def _text(path: Path) -> str:
    """The PDF's text, each line's runs of white space made one space."""
    assert PDFTOTEXT is not None, "poppler-utils' pdftotext is needed (apt install poppler-utils)"
    out = subprocess.run([PDFTOTEXT, "-layout", str(path), "-"], check=True,
                         capture_output=True, text=True).stdout
    return "\n".join(" ".join(line.split()) for line in out.splitlines())


def _show(window: Any, query: str) -> None:
    window.set_query(window.document.query_index(query))


def _grid_texts(view: QTableView, heads: tuple[str, ...]) -> list[list[str]]:
    """The grid's rows as its delegates write them (what the reviewer reads),
    in the columns headed ``heads``."""
    model = view.model()
    titles = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    rows = []
    for r in range(model.rowCount()):
        texts = []
        for head in heads:
            index = model.index(r, titles.index(head))
            option = QStyleOptionViewItem()
            view.itemDelegateForIndex(index).initStyleOption(option, index)
            texts.append(option.text)
        rows.append(texts)
    return rows


def _edit(window: Any) -> None:
    """case-A's first row graded 0 and its second unrateable, with a reason."""
    _show(window, "case-A")
    first, second = window.grid_model.candidate(0), window.grid_model.candidate(1)
    assert window.set_grade(first, 0.0)
    assert window.set_grade(second, None, GradeState.UNRATEABLE, reason="page gone")
    _show(window, "case-A")


def _pdf_chosen(monkeypatch: pytest.MonkeyPatch, path: Path, kind: str) -> list[str]:
    """The PDF file chooser answering ``path`` with the type naming ``kind``."""
    offered: list[str] = []

    def save_name(_parent: Any, _title: str, _start: str, filters: str, chosen: str
                  ) -> tuple[str, str]:
        offered.extend(filters.split(";;"))
        offered.append(chosen)
        return str(path), next(f for f in filters.split(";;") if kind in f)

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_name))
    return offered


def test_every_printed_cell_is_the_grid_s_text(qtbot: Any, window: Any) -> None:
    """Each query's rows, an edited grade and an unrateable one among them,
    are laid out with the texts the grid's delegates show."""
    _edit(window)
    ev = window.evaluation
    for q in range(window.document.n_queries):
        window.set_query(q)
        out = query_printout(ev, q, decimals=window.decimals())
        shown = _grid_texts(window.grid, out.ranked.heads)
        assert [[c.text for c in row] for row in out.ranked.rows] == shown
    out = query_printout(ev, window.document.query_index("case-A"), decimals=window.decimals())
    heads = out.ranked.heads
    assert heads[heads.index("Grade") + 1] == "Original"
    assert "✎ unrateable: page gone" in [row[heads.index("Grade")].text
                                         for row in out.ranked.rows]


def test_the_pdf_holds_the_conventions_and_the_grid_s_numbers(
        qtbot: Any, window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _edit(window)
    target = tmp_path / "handover"
    offered = _pdf_chosen(monkeypatch, target, "current")
    window.app_actions["export_pdf"].trigger()
    assert offered[-1] == "PDF, current query (*.pdf)"  # (the scope last used: the default)
    text = _text(tmp_path / "handover.pdf")
    for _row, group in field_rows(annotated=False):
        assert group[0].title in text
    assert "k = 1, 2, all" in text
    assert "Query case-A" in text
    assert "Query case-B" not in text
    lines = text.splitlines()
    (printed,) = _printed_titles(window, "case-A")  # (the grid's, in its order)
    grid = _grid_texts(window.grid, tuple(printed))
    for row in grid:
        assert " ".join(row) in lines
    assert "1 B ✎ 0 - no support 1 0.0000 1.0000 0.0000 0.0000 3.0000 v1" in lines
    summary = window.summary_panel.model
    numbers = []
    for j in range(summary.rowCount()):  # (the summary's table, as its delegate writes it)
        cells = []
        for c in range(4):
            index = summary.index(j, c)
            option = QStyleOptionViewItem()
            window.summary_panel.table.itemDelegateForIndex(index).initStyleOption(option, index)
            cells.append(option.text)
        numbers.append(cells)
    # case-A with an unrateable grade: DCG@1 is known, the rest open ("?": unresolved)
    assert numbers == [["1", "0.0000", "?", "?"], ["2", "?", "?", "?"], ["all", "?", "?", "?"]]
    for cells in numbers:
        assert any(line.startswith(" ".join(cells) + " ? unresolved: ") for line in lines)
    assert re.search(r"Page 1 of 1$", text, re.MULTILINE)
    assert "seed cases A-F" in text  # (the example's name: no file yet)


def test_all_queries_prints_every_query(qtbot: Any, window: Any, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    _pdf_chosen(monkeypatch, tmp_path / "all.pdf", "all")
    window.app_actions["export_pdf"].trigger()
    text = _text(tmp_path / "all.pdf")
    ids = window.document.query_ids
    assert len(ids) == 8
    for query in ids:
        assert f"Query {query}" in text
    pages = re.findall(r"^Page (\d+) of (\d+)$", text, re.MULTILINE)
    assert [int(n) for n, _ in pages] == list(range(1, len(pages) + 1))
    assert len(pages) > 1
    assert {int(m) for _, m in pages} == {len(pages)}
    # an undefined query's NDCG: its status's symbol and word, with the reason
    assert "∅ undefined: the ideal DCG is 0" in text
    # the means (evaluate's on the example: 0.3611, 0.7782, 0.8032), before the queries
    # (a printout handed to a manager had every query and no mean)
    words = " ".join(text.split())
    for k, mean in (("1", "0.3611"), ("2", "0.7782"), ("all", "0.8032")):
        said = (f"The equal-query mean of NDCG@{k} over 6 of 8 queries is {mean} "
                "(excluded: 1 undefined, 1 unresolved).")
        assert said in words
        assert words.index(said) < words.index(f"Query {ids[0]}")


def test_ctrl_p_opens_the_print_dialog_and_prints_what_its_options_say(
        qtbot: Any, window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dialogs: list[QPrintDialog] = []
    answer: dict[str, Any] = {"scope": "current", "accept": True, "pages": (0, 0)}

    def exec_(dialog: QPrintDialog) -> int:
        dialogs.append(dialog)
        button = dialog.findChild(QRadioButton, f"printScope_{answer['scope']}")
        assert button is not None  # (the Options tab)
        button.setChecked(True)
        printer = dialog.printer()
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(str(tmp_path / f"{answer['scope']}.pdf"))
        printer.setFromTo(*answer["pages"])
        return int(QDialog.DialogCode.Accepted if answer["accept"]
                   else QDialog.DialogCode.Rejected)

    monkeypatch.setattr(QPrintDialog, "exec", exec_)
    _show(window, "case-E")
    window.grid.setFocus()
    qtbot.keyClick(window.grid, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert len(dialogs) == 1
    text = _text(tmp_path / "current.pdf")
    assert "Query case-E" in text
    assert "Query case-A" not in text
    # (a tie's bracket, as the grid draws it; pdftotext sets it against the rank)
    assert re.search(r"^┌ ?1 X 3 - direct support 3\.0000 .* 0\.5000 v1$", text, re.MULTILINE)
    answer["scope"] = "all"
    qtbot.keyClick(window.grid, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    text = _text(tmp_path / "all.pdf")
    assert all(f"Query {q}" in text for q in window.document.query_ids)
    # the dialog's page range: page 2 of 3 alone, numbered as in the whole
    answer["pages"] = (2, 2)
    qtbot.keyClick(window.grid, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    text = _text(tmp_path / "all.pdf")
    (page,) = re.findall(r"^Page (\d+) of \d+$", text, re.MULTILINE)
    assert page == "2"
    assert "Conventions" not in text
    answer.update(scope="current", accept=False, pages=(0, 0))
    qtbot.keyClick(window.grid, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    assert len(dialogs) == 4
    assert (tmp_path / "current.pdf").stat().st_size != 0
    printer_of = window.findChild(Printing)
    assert printer_of.scope == "all"  # (a cancelled dialog changes nothing)


def test_the_preview_shows_the_pages_of_the_scope_chosen_on_its_toolbar(
        qtbot: Any, window: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    pages: list[int] = []

    def exec_(dialog: QPrintPreviewDialog) -> int:
        widget = dialog.findChild(QPrintPreviewWidget)
        combo = dialog.findChild(QComboBox, "printScopeBox")
        assert widget is not None
        assert combo is not None
        widget.updatePreview()
        pages.append(widget.pageCount())
        combo.setCurrentIndex(combo.findText("All queries"))
        pages.append(widget.pageCount())
        return 0

    monkeypatch.setattr(QPrintPreviewDialog, "exec", exec_)
    window.app_actions["print_preview"].trigger()
    assert pages[0] == 1
    assert pages[1] > 1
    assert window.findChild(Printing).scope == "all"


def test_all_queries_past_the_most_is_refused_in_one_line(
        qtbot: Any, window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(printing, "PRINT_MOST", 10)
    _pdf_chosen(monkeypatch, tmp_path / "all.pdf", "all")
    window.app_actions["export_pdf"].trigger()
    assert not (tmp_path / "all.pdf").exists()
    message = window.statusBar().currentMessage()
    assert message.startswith("Not printed: all queries hold 23 candidates, past the 10")
    assert "print the current query" in message
    _pdf_chosen(monkeypatch, tmp_path / "one.pdf", "current")
    window.app_actions["export_pdf"].trigger()
    assert (tmp_path / "one.pdf").stat().st_size > 0


def test_the_file_menu_holds_the_three_with_the_platform_s_print_key(window: Any) -> None:
    from PySide6.QtGui import QKeySequence

    texts = [a.text() for a in window.menus["file"].actions()]
    at = texts.index("Prin&t…")
    assert texts[at:at + 3] == ["Prin&t…", "Print Pre&view…", "Export P&DF…"]
    assert window.app_actions["print"].shortcuts() == QKeySequence.keyBindings(
        QKeySequence.StandardKey.Print)


def test_a_pdf_that_cannot_be_written_is_said_so_not_written(
        qtbot: Any, window: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A PDF chosen where no file can be made (a folder that is not there):
    the status bar says it was not written and why, no file, no path
    answered. It said 'PDF written: …/gone/handover.pdf' (QPainter.begin
    returned False, and _paint returned quietly)."""
    target = tmp_path / "gone" / "handover.pdf"
    _pdf_chosen(monkeypatch, target, "current")
    window.app_actions["export_pdf"].trigger()
    assert not target.exists()
    message = window.statusBar().currentMessage()
    assert message.startswith(f"PDF not written: {target} cannot be written"), message
    assert "PDF written" not in message
    assert window.findChild(Printing).export_pdf(target) is None


def _shown_titles(view: QTableView) -> list[str]:
    """The titles of the columns ``view`` shows, left to right."""
    header = view.horizontalHeader()
    logical = [header.logicalIndex(v) for v in range(header.count())]
    return [view.model().headerData(n, Qt.Orientation.Horizontal) for n in logical
            if not view.isColumnHidden(n)]


def _printed_titles(window: Any, query: str) -> list[list[str]]:
    """The column titles of each table of ``query``'s rows in the printout."""
    page = printing.printout_html(window, [window.document.query_index(query)])
    tables = re.findall(r"<thead>(.*?)</thead>", page, re.DOTALL)
    return [re.findall(r"<th(?: width=\"\d+%\")?>([^<]*)</th>", t) for t in tables
            if "at each cutoff" not in t]


def test_the_printout_s_columns_are_those_the_grid_shows_in_its_order(window: Any) -> None:
    """The rows print in the columns the grid shows, left to right as there
    (a reviewer's moved and hidden columns too); it printed PRINTED's own
    order (Rank, Source, Version, Score, Grade, …) whatever the grid showed
    (by default Score after Cumulative DCG), and columns the reviewer hid."""
    _edit(window)
    printable = {c.title for c in printing_columns()}
    ranked, = _printed_titles(window, "case-A")
    _in_the_grid_s_order(ranked, _shown_titles(window.grid), printable)
    assert ranked.index("Score") > ranked.index("Cumulative DCG"), ranked  # (as by default)
    chooser = window.grid_columns
    keys = [c.key for c in chooser.columns]
    order = chooser.order()
    order.remove(keys.index("score"))
    order.insert(1, keys.index("score"))
    chooser.apply(order, {keys.index("gain"), keys.index("discount")}, chooser.kept)
    ranked, = _printed_titles(window, "case-A")
    assert ranked[:3] == ["Rank", "Score", "Source"], ranked
    assert not {"Gain", "Discount"} & set(ranked), ranked
    _in_the_grid_s_order(ranked, _shown_titles(window.grid), printable)


def _in_the_grid_s_order(printed: list[str], shown: list[str], printable: set[str]) -> None:
    """``printed`` are columns ``shown``, in its order (the grid's printable
    columns all but a version or note column every row leaves empty)."""
    assert set(printed) <= set(shown), (printed, shown)
    assert printed == [t for t in shown if t in printed], (printed, shown)
    assert set(shown) & printable - set(printed) <= {"Version", "Note"}, (printed, shown)


def printing_columns() -> list[Any]:
    from core.engine.columns import GRID_COLUMNS
    from core.reports.printout import PRINTED

    return [c for c in GRID_COLUMNS if c.key in PRINTED]
