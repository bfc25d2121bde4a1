"""How far the annotators (judges) agree: a dock.

When the document keeps the annotators' individual grades
(``Document.annotators`` / ``ratings``): Cohen's kappa for every pair and
Krippendorff's alpha, each with the number of items it rests on
(:func:`core.analysis.agreement.agreement`), the consensus rule and rounding that
turned the individual grades into the document's grades, and for the current
query each candidate's individual grades with a flag where they differ (an
annotator's unrateable mark as the state and the mark as written,
``unrateable: N/A``, in the state's colour, as the workbook's Annotators
sheet shows it). When the document keeps no individual grades, the dock
says so.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from app.accessibility import label_control
from app.actions import ActionSpec
from app.delegates import GradeWordsDelegate, IdDelegate, NumberDelegate
from app.models.looks import ITALIC, STATE_TONE, brush
from app.panels.fit import fit_rows_to_font
from app.panels.scrolled import scrolled
from app.review.common import Index, RowsModel, WidthFit, read_only_table
from app.shown import shown_id
from core.analysis.agreement import AgreementReport, agreement
from core.model.document import Document, GradeState, grade_text
from core.model.grades import mark_text

if TYPE_CHECKING:
    from app.window_api import WindowApi

__all__ = [
    "AlphaColumn",
    "AlphaModel",
    "CandidateAgreementModel",
    "CandidateColumn",
    "JudgesView",
    "KappaColumn",
    "KappaModel",
    "install_judges",
]

_DISAGREE = "open"  # a tone of app.models.looks
#: An annotator's name longer than this heads their column as initials (short_names).
NAME_SHOWN = 8
#: An unrateable mark written longer than this is shown as the state's word.
MARK_SHOWN = 6


class KappaColumn(IntEnum):
    ANNOTATOR_A = 0
    ANNOTATOR_B = 1
    KAPPA = 2
    ITEMS = 3


class KappaModel(RowsModel):
    """Cohen's kappa per pair of annotators (None: not defined)."""

    def __init__(self, parent: Any = None) -> None:
        # Short headers, said whole on hover: "Cohen's kappa" and "candidates
        # both graded" made the table 400 px wide in a 264 px Judges tab.
        super().__init__(KappaColumn, {
            KappaColumn.ANNOTATOR_A: self.tr("annotator"),
            KappaColumn.ANNOTATOR_B: self.tr("annotator"),
            KappaColumn.KAPPA: self.tr("kappa"),
            KappaColumn.ITEMS: self.tr("items"),
        }, parent)
        self.header_tips = {
            KappaColumn.KAPPA: self.tr("Cohen's kappa of the two annotators"),
            KappaColumn.ITEMS: self.tr("candidates both annotators graded"),
        }

    def set_report(self, report: AgreementReport | None) -> None:
        self.set_rows([] if report is None else [
            (k.annotator_a, k.annotator_b, k.kappa, k.items) for k in report.kappas])


class AlphaColumn(IntEnum):
    METRIC = 0
    ALPHA = 1
    UNITS = 2
    VALUES = 3


class AlphaModel(RowsModel):
    """Krippendorff's alpha per level of measurement (None: not defined)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(AlphaColumn, {
            AlphaColumn.METRIC: self.tr("level"),
            AlphaColumn.ALPHA: self.tr("alpha"),
            AlphaColumn.UNITS: self.tr("items"),
            AlphaColumn.VALUES: self.tr("grades"),
        }, parent)
        self.header_tips = {
            AlphaColumn.METRIC: self.tr("Krippendorff's alpha at this level of measurement"),
            AlphaColumn.ALPHA: self.tr("Krippendorff's alpha"),
            AlphaColumn.UNITS: self.tr("candidates with two or more grades"),
            AlphaColumn.VALUES: self.tr("grades those candidates hold"),
        }

    def set_report(self, report: AgreementReport | None) -> None:
        self.set_rows([] if report is None else [
            (metric.value, a.alpha, a.units, a.values) for metric, a in report.alphas.items()])


#: The least of a source id the Judges' candidates keep, in average characters
#: ("htt…0103"), before their table scrolls sideways; whole on hover.
ID_LEAST = 8


class CandidateColumn(IntEnum):
    """The fixed columns; one column per annotator and the flag follow."""

    SOURCE = 0
    GRADE = 1


class CandidateAgreementModel(RowsModel):
    """The current query's candidates: grade, each annotator's grade, the flag.

    Columns: source, the document's grade, one per annotator, disagreement.
    An annotator's cell holds their grade (a float), their unrateable mark
    as its text (:func:`~core.model.grades.mark_text`: ``unrateable: N/A``)
    or None (not graded); a grade state's word is drawn in its colour, in
    italics, as the grid draws it.
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(CandidateColumn, {}, parent)
        self.candidates: list[int] = []
        #: The annotators' names, whole (their columns' headers may be initials).
        self.names: list[str] = []
        #: (row, column) -> the tone of the grade state its word says.
        self._tones: dict[tuple[int, int], str] = {}
        #: (row, column) -> an unrateable mark said whole (the cell shows it short).
        self._marks: dict[tuple[int, int], str] = {}

    def set_query(self, doc: Document, report: AgreementReport | None, rows: list[int]) -> None:
        names = report.annotators if report is not None else []
        self.beginResetModel()
        self._headers = {0: self.tr("source"), 1: self.tr("grade")}
        self.header_tips = {1: self.tr("the document's grade (the consensus, or the "
                                       "reviewer's)")}
        self.names = list(names)
        for a, (name, short) in enumerate(zip(names, short_names(names), strict=True)):
            self._headers[2 + a] = short
            self.header_tips[2 + a] = self.tr("{0}'s grades").format(name)
        self._headers[2 + len(names)] = self.tr("disagree")
        self.header_tips[2 + len(names)] = self.tr("the annotators gave different grades")
        self.endResetModel()
        self.candidates = rows if report is not None else []
        table: list[tuple[Any, ...]] = []
        brushes: list[str | None] = []
        self._tones, self._marks = {}, {}
        if report is not None:
            for r, i in enumerate(rows):
                state = int(doc.state[i])
                if state != GradeState.NUMBER:
                    self._tones[(r, CandidateColumn.GRADE)] = STATE_TONE[GradeState(state)]
                grades = [self._cell(doc, report, r, i, a) for a in range(len(names))]
                flag = bool(report.disagree[i])
                # The grade a number (rounded for display, right-aligned as
                # the annotators' grades beside it), a state its word.
                grade: float | str = float(doc.grade[i]) if state == GradeState.NUMBER else (
                    grade_text(float(doc.grade[i]), state))
                table.append((doc.source_text(i), grade, *grades,
                              self.tr("yes") if flag else ""))
                brushes.append(_DISAGREE if flag else None)
        self.set_rows(table, brushes)

    def _cell(self, doc: Document, report: AgreementReport, r: int, i: int,
              a: int) -> float | str | None:
        """Annotator ``a``'s cell of candidate ``i`` (row ``r``): the grade,
        the unrateable mark (its tone and its whole words noted), or None.
        The mark as the annotator wrote it where it is short ("N/A", in the
        unrateable tone and italics as the grid's state words), else the
        state's word; "unrateable: N/A" whole on hover. Whole in the cell,
        two annotators' marks did not fit the Judges dock at 1280x800
        ("unrateabl…", the table scrolling sideways)."""
        g = float(report.grades[i, a])
        if not math.isnan(g):
            return g
        marked = doc.unrateable_ratings
        if marked is None or not marked[i, a]:
            return None
        self._tones[(r, 2 + a)] = STATE_TONE[GradeState.UNRATEABLE]
        words = doc.unrateable_words
        word = str(words[i, a]).strip() if words is not None else ""
        whole = mark_text(word)
        self._marks[(r, 2 + a)] = whole
        return word if whole != GradeState.UNRATEABLE.label and len(word) <= MARK_SHOWN else (
            GradeState.UNRATEABLE.label)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role in (Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.FontRole) and (
                index.isValid()):
            tone = self._tones.get((index.row(), index.column()))
            if tone is None:
                return None
            return brush(tone) if role == Qt.ItemDataRole.ForegroundRole else ITALIC
        mark = self._marks.get((index.row(), index.column())) if index.isValid() else None
        if role == Qt.ItemDataRole.ToolTipRole and mark is not None:
            return mark
        if role == Qt.ItemDataRole.AccessibleDescriptionRole and index.isValid() and (
                CandidateColumn.GRADE < index.column() < self.columnCount() - 1):
            # (a blank cell said too: the annotator gave no grade)
            said = self.tr("{0}'s grade of {1}").format(
                self.names[index.column() - 2], self.row(index.row())[CandidateColumn.SOURCE])
            shown = mark if mark is not None else super().data(index)
            return (f"{said}: {shown}" if mark is not None else said) if shown is not None else (
                self.tr("{0}: none given").format(said))
        return super().data(index, role)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Rows stay in ranked order, like the grid."""


#: A word of letters then a number (``annotator12``: "annotator", "12").
_NAME_NUMBER = re.compile(r"([^\W\d_]+)(\d+)")


def _words(name: str) -> list[str]:
    """A name's words: what separators part, a word's number at its end
    apart (``annotator12``), letters and digits mixed one word (``a1f3c9``)."""
    out: list[str] = []
    for word in re.findall(r"[^\W_]+", name):
        pair = _NAME_NUMBER.fullmatch(word)
        out += pair.groups() if pair else [word]
    return out


def short_names(names: Sequence[str]) -> list[str]:
    """The annotators' columns' headers: a name of up to :data:`NAME_SHOWN`
    characters as it is, a longer one as its initials ("Ana Pereira" -> "AP",
    "annotator 12" -> "A12", one word: its first three letters); the names
    whole where two would read alike. The full name is the header's tooltip.
    Whole, two names of 11 and 15 characters took the candidates' table past
    the Judges dock at 1280x800 ("enjamin Okaf"). Words are what separators
    part, a word's number at its end apart (``annotator12`` -> "A12"): a
    platform's worker id, letters and digits mixed in one word
    (``a1f3c9e2b7d4``), is one, its head as written (read as words at each
    change of letter and digit, it headed its column ``A1F3C9E2B7D4``)."""
    short = []
    for name in names:
        words = _words(name)
        if len(name) <= NAME_SHOWN or not words:
            short.append(name)
        elif len(words) == 1:
            short.append(words[0][:3])
        else:
            short.append("".join(w if w.isdigit() else w[0].upper() for w in words))
    return short if len(set(short)) == len(short) else list(names)


class JudgesView(QWidget):
    """Agreement of the document's annotators (objectName ``judgesView``)."""

    def __init__(self, decimals: Callable[[], int], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("judgesView")
        self.report: AgreementReport | None = None
        self._decimals = decimals  # the window's display rounding
        self.message = QLabel(self)
        self.message.setObjectName("judgesMessage")
        self.message.setWordWrap(True)
        self.consensus = QLabel(self)
        self.consensus.setObjectName("judgesConsensus")
        self.consensus.setWordWrap(True)
        self.kappa_model = KappaModel(self)
        self.kappa_table = read_only_table("judgesKappa", self.kappa_model, self)
        label_control(self.kappa_table, self.tr("Cohen's kappa per pair of annotators"))
        self.alpha_model = AlphaModel(self)
        self.alpha_table = read_only_table("judgesAlpha", self.alpha_model, self)
        label_control(self.alpha_table, self.tr("Krippendorff's alpha"))
        # (every cell through the delegate: an elided name is said on hover)
        self.kappa_table.setItemDelegate(NumberDelegate(decimals, self))
        self.alpha_table.setItemDelegate(NumberDelegate(decimals, self))
        self.query_title = QLabel(self)
        self.query_title.setObjectName("judgesQueryTitle")
        # Wrapped as the texts above it: one line, it set the body's width
        # and cut every wrapped text at a narrow dock's edge.
        self.query_title.setWordWrap(True)
        self.candidate_model = CandidateAgreementModel(self)
        self.candidate_table = read_only_table("judgesCandidates", self.candidate_model, self)
        label_control(self.candidate_table, self.tr("Annotators' grades of the current query"))
        # Grades as the grid shows them (1, 1.3333), marks as written.
        self.candidate_table.setItemDelegate(GradeWordsDelegate(decimals, self))
        # Rows one line tall, as the grid's and the navigator's (Qt's 30 px
        # default stood two lines tall over one line of text).
        for table in (self.kappa_table, self.alpha_table, self.candidate_table):
            fit_rows_to_font(table)
        floor = self.fontMetrics().horizontalAdvance("unrateable") + 12
        WidthFit(self.kappa_table, lambda: (KappaColumn.ANNOTATOR_A, KappaColumn.ANNOTATOR_B),
                 floor, rows=6)
        WidthFit(self.alpha_table, lambda: (AlphaColumn.METRIC,), floor, rows=3)
        m = self.candidate_model
        # The ids cut in their middle, their ends kept (as the grid's: URLs
        # differ at their ends; cut at the end they all read "https://…"),
        # giving way down to ID_LEAST characters before the table scrolls.
        self.candidate_table.setItemDelegateForColumn(
            CandidateColumn.SOURCE, IdDelegate(decimals, self, ends=True))
        WidthFit(self.candidate_table,
                 lambda: range(CandidateColumn.SOURCE, m.columnCount() - 1), floor,
                 ids=(CandidateColumn.SOURCE,),
                 id_floor=self.fontMetrics().averageCharWidth() * ID_LEAST + 8)
        body = QWidget(self)
        body.setObjectName("judgesBody")
        layout = QVBoxLayout(body)
        for widget in (self.message, self.consensus, self.kappa_table, self.alpha_table,
                       self.query_title):
            layout.addWidget(widget)
        layout.addWidget(self.candidate_table, 1)  # (the room left, when shown)
        # ... else the texts stay at the top: alone, the message that there are
        # no annotators' grades stood in the middle of a 1080 px tall dock.
        layout.addStretch(0)
        # In a short dock the view scrolls: with two annotators' sheet it
        # asked for 372 px of height, and made a 960x540 window (a 1920x1080
        # screen at 2x) 638 px tall.
        scrolled(self, body, "judgesScroll").setFocusPolicy(Qt.FocusPolicy.NoFocus)

    def set_document(self, doc: Document) -> None:
        """Agreement of ``doc``'s annotators (or the message that it has none)."""
        has = doc.ratings is not None and bool(doc.annotators) and doc.ratings.size > 0
        self.report = agreement(doc) if has else None
        self.kappa_model.set_report(self.report)
        self.alpha_model.set_report(self.report)
        for w in (self.consensus, self.kappa_table, self.alpha_table, self.query_title,
                  self.candidate_table):
            w.setVisible(self.report is not None)
        self.show_sentences()

    def show_sentences(self) -> None:
        """The agreement's sentences at the display rounding (or why there are none)."""
        if self.report is None:
            self.message.setText(self.tr(
                "This document keeps no individual annotators' grades, so there is no "
                "agreement to show. Open an annotators' spreadsheet (one grade column per "
                "annotator) to see it."))
        else:
            self.message.setText("\n".join(self.report.sentences(decimals=self._decimals())))

    def show_conventions(self, doc: Document) -> None:
        conv = doc.conventions
        self.consensus.setText(self.tr(
            "Consensus: {0} ({1}); rounding: {2} ({3}). The grid shows the consensus grade "
            "unless a reviewer changed it.").format(
                conv.consensus.label, conv.consensus.formula, conv.rounding.label,
                conv.rounding.formula))

    def show_query(self, doc: Document, ranked: np.ndarray, q: int) -> None:
        """The candidates of query ``q``: ``ranked`` first, then the rest."""
        if self.report is None or not 0 <= q < doc.n_queries:
            self.candidate_model.set_query(doc, None, [])
            self.query_title.clear()
            return
        first = [int(i) for i in ranked]
        seen = set(first)
        rows = first + [int(i) for i in doc.members(q) if int(i) not in seen]
        self.candidate_model.set_query(doc, self.report, rows)
        n = sum(bool(self.report.disagree[i]) for i in rows)
        self.query_title.setText(self.tr("{0}: the annotators disagree on {1} of {2} "
                                         "candidates").format(shown_id(doc.query_ids[q]), n,
                                                              len(rows)))


class JudgesController:
    def __init__(self, window: WindowApi) -> None:
        self.window = window
        self.view = JudgesView(window.decimals, window)
        self.dock = window.add_dock("judgesViewDock", window.tr("&Judges"), self.view,
                                    Qt.DockWidgetArea.RightDockWidgetArea,
                                    tab_with="conventionsPanelDock", hidden=True)
        self.action = window.add_action(ActionSpec(
            "show_judges", "&Judges' agreement", "review", None,
            "Cohen's kappa, Krippendorff's alpha and the disagreements of the annotators"),
            self.open)
        window.document_replaced.connect(self.document_replaced)
        window.conventions_changed.connect(lambda _c: self.view.show_conventions(
            window.document))
        window.current_query_changed.connect(lambda _q: self.show_query())
        window.grade_changed.connect(lambda _i: self.show_query())
        window.display_changed.connect(self.view.show_sentences)
        self.document_replaced(window.document)

    def open(self) -> None:
        self.dock.show()
        self.dock.raise_()

    def document_replaced(self, doc: Document) -> None:
        self.view.set_document(doc)
        if self.view.report is not None and not self.dock.isVisible() and (
                self.window.isVisible()):
            # Annotators' grades: their agreement one tab away, the tab in
            # front of its group kept there (at 1280x800 the summary's, with
            # the conventions' and the judges' behind it: the conventions
            # were raised over it, the query's NDCG out of sight).
            fronts = [dock for dock in self.window.docks.values()
                      if dock.isVisible() and not dock.visibleRegion().isEmpty()]
            self.dock.show()
            for dock in self.window.tabifiedDockWidgets(self.dock):
                if dock in fronts:
                    dock.raise_()
        self.view.show_conventions(doc)
        self.show_query()

    def show_query(self) -> None:
        w = self.window
        q = w.current_query
        ranked = w.evaluation.ranked(q) if 0 <= q < w.document.n_queries else np.zeros(0)
        self.view.show_query(w.document, ranked, q)


def install_judges(window: WindowApi) -> JudgesController:
    """Add the judges dock and action to ``window``."""
    return JudgesController(window)
