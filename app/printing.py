"""File > Print…, Print Preview… and Export PDF…: what a reviewer hands
over, on paper or in a PDF.

The conventions declared (named as the conventions panel names them), then
per query (the current one, or all: "Current query" / "All queries", chosen
in the print dialog's Options tab, the preview's toolbar or the PDF file
chooser's type) its rows in the grid's columns and its numbers at each
cutoff with the status where there is none. Every text comes from core
(:mod:`core.reports.printout`, the grid's own column declarations); this
module lays them out as HTML in a ``QTextDocument`` and paints its pages
with the file's name and the date above and the page's number below.

Install with :func:`install_printing` (``app.main``'s composition root).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QMarginsF, QObject, QRectF, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QFont,
    QFontMetricsF,
    QKeySequence,
    QPageLayout,
    QPainter,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QLabel,
    QRadioButton,
    QTableView,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from app.actions import ActionSpec
from app.models.candidates import CandidateModel
from app.models.looks import STATUS_LOOK
from app.shown import QUERY_APART, bounded, shown_id
from app.window_api import WindowApi
from core.engine.columns import Align
from core.engine.results import Status

if TYPE_CHECKING:  # (core's printout and Qt's print support load when first used)
    from PySide6.QtPrintSupport import QPrinter

    from core.reports.printout import Cell, QueryPrintout, RowsTable

__all__ = ["PRINT_MOST", "SCOPES", "Printing", "install_printing", "printout_html"]

#: What a printout holds, by key, with the words the dialogs show.
SCOPES: dict[str, str] = {"current": "Current query", "all": "All queries"}
#: The most candidates "All queries" lays out (a page holds ~40 rows: a
#: 2M-candidate run would be 50,000 pages, built in memory first); past it
#: the print is refused in one line that says what to do.
PRINT_MOST = 20_000
#: The most characters of an id a cell prints: a longer one is cut in the
#: middle around an ellipsis (its start and its end tell ids apart), as the
#: grid's cell cuts it; a note wraps at its spaces.
ID_PRINTED = 48
_NOTE_PRINTED = 600
#: The printout's type size (points) and the page's margins (millimetres).
_POINTS = 8
_MARGIN_MM = 12.0
_STYLE = ("table { border-collapse: collapse; } th { text-align: left; } "
          "td, th { padding: 1px 4px; } h2 { margin: 10px 0 2px 0; } p { margin: 2px 0; } "
          "th.caption { font-size: 10pt; }")


def _e(text: str) -> str:
    # (imported when a printout is made: html loaded at launch costs its
    # import hook's read after Qt; tests/test_startup.py)
    from html import escape

    return escape(text, quote=False)


def _cell(cell: Cell, align: Align, key_is_id: bool) -> str:
    text = shown_id(cell.text, ID_PRINTED) if key_is_id else bounded(cell.text, ID_PRINTED,
                                                                     _NOTE_PRINTED)
    body = _e(text).replace("\n", "<br>")
    if cell.word:
        body = f"<i>{body}</i>"
    # (a number, a word in place of one or an id, cut already, never wraps:
    # the room goes to the grade's words and the note, which do; an id
    # wrapped anywhere read 'handbook.pdf#ch' over 'unk-12')
    where = ' align="right" nowrap' if align is Align.RIGHT else " nowrap" if key_is_id else ""
    return f"<td{where}>{body}</td>"


#: The share of the page's width the columns of long texts ask for: Qt's
#: table shares the room by each column's text laid on one line, and a long
#: note took the ids' (it cut 'handbook.pdf#chunk-12' as 'handbook.pdf#ch'
#: over 'unk-12'); 22% holds ~34 characters of an id at 8 pt in landscape.
_SHARES = {"source": "22%", "note": "22%"}
#: The columns holding an id (cut in the middle, never wrapped).
_ID_KEYS = frozenset({"source", "version"})


def _head(key: str, title: str) -> str:
    """A column's title (with its share of the width, :data:`_SHARES`)."""
    share = _SHARES.get(key)
    wide = f' width="{share}"' if share else ""
    return f"<th{wide}>{_e(title)}</th>"


def _table(table: RowsTable, caption: str) -> list[str]:
    """``table`` with ``caption`` (the query: HTML) above its titles, both
    repeated at the top of every page the table goes on to."""
    ids = [key in _ID_KEYS for key in table.keys]
    # (as wide as its cells ask, up to the page: a grade's words wrap only then)
    heads = "".join(_head(k, h) for k, h in zip(table.keys, table.heads, strict=True))
    out = ['<table border="1" cellspacing="0" cellpadding="2">',
           f'<thead><tr><th class="caption" colspan="{len(table.heads)}">{caption}</th></tr>',
           f"<tr>{heads}</tr></thead>"]
    for row in table.rows:
        out.append("<tr>" + "".join(_cell(c, a, i) for c, a, i in zip(
            row, table.aligns, ids, strict=True)) + "</tr>")
    out.append("</table>")
    return out


def _cutoffs(out: QueryPrintout, caption: str) -> list[str]:
    from core.reports.printout import NOTHING as nothing

    lines = ['<table border="1" cellspacing="0" cellpadding="2">',
             f'<thead><tr><th class="caption" colspan="5">{caption}</th></tr>',
             "<tr><th>k</th><th>DCG</th><th>IDCG</th><th>NDCG</th><th>Status</th>"
             "</tr></thead>"]
    for c in out.cutoffs:
        look = STATUS_LOOK[c.status]
        # (a number not determined shows its status's symbol, as the summary's table)
        nums = [look.symbol if t == nothing else t for t in (c.dcg, c.idcg, c.ndcg)]
        status = look.label if c.status is Status.OK else f"{look.label}: {c.reason}"
        lines.append(f'<tr><td align="right">{_e(c.k)}</td>'
                     + "".join(f'<td align="right">{_e(n)}</td>' for n in nums)
                     + f"<td>{_e(status)}</td></tr>")
    lines.append("</table>")
    return lines


def _query(out: QueryPrintout) -> list[str]:
    name = f"Query {_e(shown_id(out.query, ID_PRINTED))}"
    if out.text:
        name += QUERY_APART + _e(bounded(out.text, ID_PRINTED))  # (as the navigator shows it)
    parts = ["<p>&nbsp;</p>"]
    if out.ranked.rows:
        parts += _table(out.ranked, name)
    else:
        parts.append(f"<p><b>{name}</b>: no ranked candidate.</p>")
    if out.not_retrieved.rows:
        parts += _table(out.not_retrieved, f"{name}: judged, not retrieved")
    parts.append("<p></p>")
    parts += _cutoffs(out, f"{name}: at each cutoff")
    return parts


def shown_keys(view: QTableView) -> list[str]:
    """The keys of the columns the candidate grid ``view`` shows, left to
    right (the reviewer's moved and hidden columns too)."""
    model = view.model()
    assert isinstance(model, CandidateModel), model
    header, columns = view.horizontalHeader(), model.columns
    logical = (header.logicalIndex(v) for v in range(header.count()))
    return [columns[n].key for n in logical if not view.isColumnHidden(n)]


def printout_html(window: WindowApi, queries: Sequence[int]) -> str:
    """The printout of ``queries`` of ``window``'s evaluation as HTML: the
    conventions, then each query in the columns its grid shows, in the
    grid's order, at the window's decimals."""
    # (imported here: a module imported after Qt costs its import hook's
    # read of the source at every launch; tests/test_startup.py)
    from core.reports.printout import convention_lines, mean_lines, query_printout

    ev, decimals, keys = window.evaluation, window.decimals(), shown_keys(window.grid)
    parts = [f"<html><head><style>{_STYLE}</style></head><body>", "<h2>Conventions</h2>",
             '<table border="1" cellspacing="0" cellpadding="2" width="100%">']
    for line in convention_lines(ev.conventions, decimals=decimals,
                                 annotated=bool(ev.doc.annotators)):
        parts.append(f"<tr><th>{_e(line.title)}</th><td>{_e(bounded(line.words))}</td>"
                     f"<td>{_e(line.formula)}</td></tr>")
    parts.append("</table>")
    if len(queries) > 1:  # (all queries: their means, as the status bar and a workbook's Report)
        parts.append("<h2>Means</h2>")
        parts += [f"<p>{_e(line)}</p>" for line in mean_lines(ev, decimals=decimals)]
    for q in queries:
        parts += _query(query_printout(ev, q, decimals=decimals, keys=keys))
    parts.append("</body></html>")
    return "\n".join(parts)


def _paint(document: QTextDocument, printer: QPrinter, name: str, when: str) -> bool:
    """``document`` painted on ``printer``'s pages, ``name`` and ``when`` at
    the top of each, "Page n of m" at its foot; False where the printer
    would not start (a PDF's file that cannot be made): nothing painted."""
    painter = QPainter()
    if not painter.begin(printer):
        return False
    try:
        font = QFont(document.defaultFont())
        line = QFontMetricsF(font, printer).height()
        width, height = printer.width(), printer.height()
        body = QRectF(0, 2 * line, width, height - 4 * line)
        document.documentLayout().setPaintDevice(printer)
        document.setPageSize(body.size())
        pages = document.pageCount()
        painter.setFont(font)
        chosen = _chosen_pages(printer, pages)
        for n in chosen:
            if n != chosen.start:
                printer.newPage()
            _page(document, painter, body, n)
            top = QRectF(0, 0, width, line)
            painter.drawText(top, Qt.AlignmentFlag.AlignLeft, name)
            painter.drawText(top, Qt.AlignmentFlag.AlignRight, when)
            painter.drawText(QRectF(0, height - line, width, line),
                             Qt.AlignmentFlag.AlignHCenter, f"Page {n + 1} of {pages}")
    finally:
        painter.end()
    return True


def _chosen_pages(printer: QPrinter, pages: int) -> range:
    """The pages (from 0) of ``pages`` the print dialog's range chose (all
    where it chose none), as numbered on them."""
    first, last = printer.fromPage(), printer.toPage()
    if first <= 0:
        return range(pages)
    return range(min(first, pages) - 1, min(last or pages, pages))


def _page(document: QTextDocument, painter: QPainter, body: QRectF, n: int) -> None:
    """Page ``n`` of ``document`` (its page size ``body``'s) in ``body``."""
    painter.save()
    painter.translate(body.left(), body.top() - n * body.height())
    context = QAbstractTextDocumentLayout.PaintContext()
    context.clip = QRectF(0, n * body.height(), body.width(), body.height())
    painter.setClipRect(context.clip)
    document.documentLayout().draw(painter, context)
    painter.restore()


class _ScopeTab(QWidget):
    """The print dialog's Options tab: Current query or All queries."""

    def __init__(self, scope: str) -> None:
        super().__init__()
        self.setObjectName("printScope")
        self.setWindowTitle(self.tr("What to print"))
        column = QVBoxLayout(self)
        column.addWidget(QLabel(self.tr("Print the conventions and:"), self))
        self.buttons: dict[str, QRadioButton] = {}
        for key, text in SCOPES.items():
            button = QRadioButton(self.tr(text), self)
            button.setObjectName(f"printScope_{key}")
            button.setChecked(key == scope)
            self.buttons[key] = button
            column.addWidget(button)
        column.addStretch(1)

    def scope(self) -> str:
        return next(k for k, b in self.buttons.items() if b.isChecked())


class Printing(QObject):
    """The window's Print, Print Preview and Export PDF actions; ``scope``
    (a key of :data:`SCOPES`) is what the last of them printed."""

    def __init__(self, window: WindowApi) -> None:
        super().__init__(window)
        self.window = window
        self.scope = "current"
        key = QKeySequence.StandardKey
        specs = (
            (ActionSpec("print", "Prin&t…", "file", key.Print,
                        "Print the conventions and the current query, or all queries"),
             self.print_dialog),
            (ActionSpec("print_preview", "Print Pre&view…", "file", None,
                        "See the pages Print would print"), self.preview),
            (ActionSpec("export_pdf", "Export P&DF…", "file", None,
                        "Write what Print prints into a PDF file"), self.export_pdf_dialog),
        )
        self.actions = {spec.id: window.add_action(spec, slot, at_top=True)
                        for spec, slot in specs}
        menu = window.menu("file")
        menu.insertSeparator(self.actions["print"])

    # -- what prints ----------------------------------------------------------------------
    def queries(self, scope: str | None = None) -> list[int]:
        """The queries ``scope`` (default: :attr:`scope`) prints."""
        if (scope or self.scope) == "all":
            return list(range(self.window.document.n_queries))
        q = self.window.current_query
        return [q] if q >= 0 else []

    def refused(self, scope: str | None = None) -> bool:
        """Whether ``scope`` holds too many candidates to lay out (said in
        the status bar, with what to do)."""
        n = len(self.window.document) if (scope or self.scope) == "all" else 0
        if n <= PRINT_MOST:
            return False
        self.window.show_message(self.tr(
            "Not printed: all queries hold {0:,} candidates, past the {1:,} a printout lays "
            "out; print the current query, or export a workbook (File > Export)").format(
                n, PRINT_MOST))
        return True

    def document(self, scope: str | None = None) -> QTextDocument:
        """The printout of ``scope`` as a text document (not yet paginated)."""
        document = QTextDocument(self)
        font = QFont(self.window.font())
        font.setPointSizeF(_POINTS)
        if hasattr(QFont, "Tag"):  # (Qt 6.7+) no ligatures: "Cutoffs" found and copied as typed
            for tag in ("liga", "clig"):
                font.setFeature(QFont.Tag(tag), 0)
        document.setDefaultFont(font)
        document.setHtml(printout_html(self.window, self.queries(scope)))
        return document

    def render(self, printer: QPrinter) -> bool:
        """The printout of :attr:`scope` on ``printer``'s pages; False where
        the printer would not start (nothing printed)."""
        document = self.document()
        try:
            return _paint(document, printer, self._name(), datetime.date.today().isoformat())
        finally:
            document.deleteLater()

    def _name(self) -> str:
        path = self.window.path
        return path.name if path is not None else (self.window.document.name or "untitled")

    def printer(self) -> QPrinter:
        """A printer at its high resolution, the printout's margins and name.
        (Qt's print support is loaded here, when first asked: not at launch.)"""
        from PySide6.QtPrintSupport import QPrinter

        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        # (landscape: a query's ten columns at 8 pt ask for ~200 mm, more than
        # a portrait page's width, where a grade's words wrapped a word a line)
        printer.setPageOrientation(QPageLayout.Orientation.Landscape)
        printer.setPageMargins(QMarginsF(*(_MARGIN_MM,) * 4), QPageLayout.Unit.Millimeter)
        printer.setDocName(self._name())
        return printer

    # -- the actions ----------------------------------------------------------------------
    def print_dialog(self) -> bool:
        """Ctrl+P: the platform's print dialog, its Options tab choosing the
        queries; True when printed."""
        from PySide6.QtPrintSupport import QPrintDialog

        printer = self.printer()
        dialog = QPrintDialog(printer, self.window)
        dialog.setObjectName("printDialog")
        tab = _ScopeTab(self.scope)
        dialog.setOptionTabs([tab])
        try:
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return False
            self.scope = tab.scope()
            if self.refused():
                return False
            if self.render(printer):
                return True
            self.window.show_message(self.tr(
                "Not printed: the printer {0} would not start; check it and print again").format(
                    printer.printerName() or printer.outputFileName()))
            return False
        finally:
            dialog.deleteLater()

    def preview(self) -> None:
        """The pages Print would print, in the platform's preview window,
        with "Current query" / "All queries" on its toolbar."""
        from PySide6.QtPrintSupport import QPrintPreviewDialog, QPrintPreviewWidget

        printer = self.printer()
        dialog = QPrintPreviewDialog(printer, self.window)
        dialog.setObjectName("printPreview")
        dialog.setWindowTitle(self.tr("Print Preview — {0}").format(self._name()))
        # (Qt's own size showed a landscape page 8 cm wide on a 1280x800 screen)
        dialog.resize(self.window.size() * 0.9)
        widget = dialog.findChild(QPrintPreviewWidget)
        combo = QComboBox(dialog)
        combo.setObjectName("printScopeBox")
        combo.setAccessibleName(self.tr("What to print"))
        for key, text in SCOPES.items():
            combo.addItem(self.tr(text), key)
        combo.setCurrentIndex(list(SCOPES).index(self.scope))

        def chosen(_index: int) -> None:
            self.scope = str(combo.currentData())
            if widget is not None:
                widget.updatePreview()

        combo.currentIndexChanged.connect(chosen)
        bar = dialog.findChild(QToolBar)
        if bar is not None:
            bar.addSeparator()
            bar.addWidget(combo)
        dialog.paintRequested.connect(lambda p: None if self.refused() else self.render(p))
        #: The preview shown (None once closed): a test reaches it.
        self.preview_dialog: QDialog | None = dialog
        try:
            dialog.exec()
        finally:
            self.preview_dialog = None
            dialog.deleteLater()

    def export_pdf_dialog(self) -> Path | None:
        """A file chooser (its type says the queries), then the PDF written."""
        filters = {f"PDF, {text.lower()} (*.pdf)": key for key, text in SCOPES.items()}
        start = self.window.path.with_suffix(".pdf") if self.window.path else Path(
            f"{self._name()}.pdf")
        chosen = next(f for f, k in filters.items() if k == self.scope)
        name, picked = QFileDialog.getSaveFileName(
            self.window, self.tr("Export PDF"), str(start), ";;".join(filters), chosen)
        if not name:
            return None
        return self.export_pdf(Path(name), filters.get(picked, self.scope))

    def export_pdf(self, path: Path, scope: str | None = None) -> Path | None:
        """The printout of ``scope`` written to ``path`` (a ``.pdf`` suffix
        added where it has none); the path written, None when refused or not
        written (said in the status bar)."""
        if scope is not None:
            self.scope = scope
        if self.refused():
            return None
        if path.suffix.lower() != ".pdf":
            path = path.with_name(path.name + ".pdf")
        printer = self.printer()
        printer.setOutputFormat(printer.OutputFormat.PdfFormat)
        printer.setOutputFileName(str(path))
        if not self.render(printer):
            self.window.show_message(self.tr(
                "PDF not written: {0} cannot be written (its folder is missing or read-only); "
                "export to a folder you can write to").format(path))
            return None
        self.window.show_message(self.tr("PDF written: {0}").format(path))
        return path


def install_printing(window: WindowApi) -> Printing:
    """File > Print…, Print Preview… and Export PDF… on ``window``."""
    return Printing(window)  # (a child of the window: lives as long)
