"""The wizard's second page: which column holds what, how the labels read
(proposed from the sheet's own labels; those on no known scale asked for),
the rubric, the consensus rule and the rounding."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QTableView,
    QVBoxLayout,
    QWidget,
    QWizardPage,
)

from app.accessibility import (
    announce,
    buddy_label,
    label_control,
    tab_passes,
    without_mnemonic,
)
from app.import_wizard.hints import (
    ANNOTATOR_COLUMNS,
    GRADE_ALONE,
    KEEP_LABEL,
    MAPPED_FIELDS,
    ROWS_RANKED,
    RUBRIC,
    UNRATEABLE_MARKS,
    in_the_wizard,
)
from app.import_wizard.tables import GradeColumnsModel, LabelsModel, column_name
from app.scheme import tint
from core.errors import ConventionError
from core.io.annotator import ColumnMapping, SheetPreview
from core.io.annotator.evidence import NotConsensus
from core.io.annotator.model import read_marks, unknown_but_unrateable
from core.io.annotator.platform import KINDS
from core.io.annotator.rows import SplitRanking
from core.io.annotator.scales import Vocabulary, label_key
from core.io.annotator.write import written_consensus
from core.model.conventions import ConsensusRule, Conventions, Rounding, Rubric
from core.model.numbers import counted, number_text

if TYPE_CHECKING:
    from app.import_wizard.steps import WizardSteps

__all__ = ["LONG", "MAPPED_FIELDS", "WIDE", "MappingPage"]

TOOLTIP = Qt.ItemDataRole.ToolTipRole

LONG, WIDE = "long", "wide"


class MappingPage(QWizardPage):
    """Page 2: which column holds what, the labels, the rubric, consensus and rounding."""

    def __init__(self, wizard: WizardSteps, conventions: Conventions) -> None:
        super().__init__(wizard)
        self.setObjectName("mappingPage")
        self.setTitle(self.tr("Columns and grades"))
        self.wiz = wizard
        self._shown: SheetPreview | None = None
        #: The grades the legend's stated order proposes (compared label -> grade).
        self._proposed: dict[str, float] = {}
        #: The rubric proposed from the sheet's labels or numbers ("" when none).
        self.proposed_rubric = ""
        #: The grade column this tool wrote before the annotators' (``E: grade``;
        #: "" when none): read as their consensus unless left out.
        self.written_name = ""
        outer = QVBoxLayout(self)
        columns = QHBoxLayout()
        outer.addLayout(columns, 1)
        form = QFormLayout()
        columns.addLayout(form, 1)
        right = QVBoxLayout()
        columns.addLayout(right, 1)
        self._roles_form(form)
        self.grades_model = GradeColumnsModel(self)
        self.grades_view = QTableView(self)
        self.grades_view.setObjectName("gradeColumns")
        self.grades_view.setModel(self.grades_model)
        tab_passes(self.grades_view)
        self.grades_view.horizontalHeader().setStretchLastSection(True)
        right.addWidget(buddy_label(self.tr(ANNOTATOR_COLUMNS),
                                    self.grades_view))
        right.addWidget(self.grades_view, 1)
        self.consensus_out = QCheckBox(self)
        self.consensus_out.setObjectName("consensusOut")
        self.consensus_out.setToolTip(self.tr(
            "The grade column written before the annotators' columns is read as their "
            "consensus only where it is that consensus on every row; a grade given there "
            "(adjudicated) is refused. Tick to leave the column out, whatever it holds: the "
            "consensus is computed from the annotators' columns."))
        self.consensus_out.setVisible(False)
        right.addWidget(self.consensus_out)
        self._labels_box(right)
        self.reasons = QLabel(self)
        self.reasons.setObjectName("guessReasons")
        self.reasons.setAccessibleName(self.tr("Why each column was guessed"))
        self.reasons.setWordWrap(True)
        self.reasons.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        outer.addWidget(self._scrolled(self.reasons))
        outer.addLayout(self._conventions_form(conventions))
        self.problem = QLabel(self)
        self.problem.setObjectName("mappingProblem")
        self.problem.setWordWrap(True)
        tint(self.problem, "color: {}", "error")
        outer.addWidget(self.problem)
        self.layout_combo.currentIndexChanged.connect(self._layout_changed)
        self._watch_grade_choices()
        for changed in (*(c.currentIndexChanged for c in self.combos.values()),
                        *(box.toggled for box in self.keep_boxes.values())):
            changed.connect(self._choice_made)

    def _roles_form(self, form: QFormLayout) -> None:
        """The layout, a column for each role, and the boxes beside them."""
        self.layout_combo = QComboBox(self)
        self.layout_combo.setObjectName("layoutCombo")
        self.layout_combo.addItem(self.tr("long: one row per judgment"), LONG)
        self.layout_combo.addItem(self.tr("wide: one grade column per annotator"), WIDE)
        form.addRow(self.tr("Layout:"), self.layout_combo)
        self.combos: dict[str, QComboBox] = {}
        for field, text in MAPPED_FIELDS.items():
            combo = QComboBox(self)
            combo.setObjectName(f"map_{field}")
            form.addRow(self.tr(text) + ":", combo)
            self.combos[field] = combo
            if field == "grade":
                self._grade_alone_box(form)
        self.rows_ranked = QCheckBox(self.tr(ROWS_RANKED), self)
        self.rows_ranked.setObjectName("rowsRanked")
        self.rows_ranked.setToolTip(self.tr(
            "Without a score or rank column the sheet holds judgments only: no ranking, no "
            "NDCG (join a run to evaluate). Tick this when the rows are in ranked order: "
            "score = -row number."))
        form.addRow("", self.rows_ranked)
        self._keep_form(form)

    def _keep_form(self, form: QFormLayout) -> None:
        """A box per kind of row a platform marks (shown where the sheet has
        some), under one label, :data:`KEEP_LABEL`: every letter of the
        boxes' own words is some other control's, so Alt+X (the label's
        letter) reaches the first box shown and Tab the others; a screen
        reader hears the label with each box (its description)."""
        self.keep_label = QLabel(self.tr(KEEP_LABEL), self)
        self.keep_label.setObjectName("keepLabel")
        self.keep_label.setToolTip(self.tr(
            "Rows the platform marked (control tasks, rejected work, previews, ...) are "
            "skipped and counted unless kept: Alt+X, then Tab from box to box"))
        self.keep_label.setVisible(False)
        # (level with the first box, not half-way down the column of boxes:
        # as tall as the column, its text at the top, :meth:`_show_keep_boxes`)
        self.keep_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self._keep_column = boxes = QWidget(self)
        boxes.setObjectName("keepBoxes")
        column = QVBoxLayout(boxes)
        column.setContentsMargins(0, 0, 0, 0)
        self.keep_boxes: dict[str, QCheckBox] = {}
        for kind, words in KINDS.items():
            box = QCheckBox(self)
            box.setObjectName(f"keep_{kind}")
            box.setToolTip(self.tr("Rows marked as {0} are skipped and counted; tick to "
                                   "import them as judgments all the same").format(words))
            box.setAccessibleDescription(without_mnemonic(self.tr(KEEP_LABEL)).rstrip(":"))
            box.setVisible(False)
            column.addWidget(box)
            self.keep_boxes[kind] = box
        form.addRow(self.keep_label, boxes)

    def _show_keep_boxes(self, value: SheetPreview, keep: tuple[str, ...]) -> None:
        """The boxes of the kinds ``value`` marks, ticked as ``keep`` says; the
        label over them, its letter reaching the first one shown."""
        shown = []
        for kind, box in self.keep_boxes.items():
            n = value.marked.get(kind, 0)
            box.setText(self.tr("Keep the {0} marked as {1}").format(counted(n, "row"),
                                                                     KINDS[kind]))
            box.setChecked(kind in keep)
            box.setVisible(bool(n))
            if n:
                shown.append(box)
        self.keep_label.setVisible(bool(shown))
        if shown:
            self.keep_label.setBuddy(shown[0])
            top = max(0, (shown[0].sizeHint().height() - self.keep_label.fontMetrics().height())
                      // 2)
            self.keep_label.setContentsMargins(0, top, 0, 0)
            self.keep_label.setFixedHeight(self._keep_column.sizeHint().height())

    def _grade_alone_box(self, form: QFormLayout) -> None:
        """The box that takes the Grade column alone (``--map grade=C`` of the
        guessed column): its grades only, other columns of grades left out."""
        self.grade_alone = QCheckBox(self.tr(GRADE_ALONE), self)
        self.grade_alone.setObjectName("gradeAlone")
        self.grade_alone.setToolTip(self.tr(
            "Columns of grades like the Grade column's that no role takes stop the import "
            "(never one taken and the rest dropped in silence). Tick to take the Grade "
            "column's grades alone: the other columns are left out, as declared."))
        form.addRow("", self.grade_alone)

    def _watch_grade_choices(self) -> None:
        """Another layout or annotators' columns chosen proposes their scale
        (:meth:`_grades_chosen`; the grade column's is :meth:`_choice_made`)."""
        #: Filling the page from a preview (its signals are no user's choice).
        self._filling = False
        for changed in (self.layout_combo.currentIndexChanged, self.grades_model.dataChanged):
            changed.connect(self._grades_chosen)

    def _scrolled(self, label: QLabel) -> QScrollArea:
        """``label`` in a box of at most six lines that scrolls: a platform's
        export of 34 columns gives a paragraph of reasons, which squeezed
        the role boxes above it to half their height on a 1280x800 screen."""
        area = QScrollArea(self)
        area.setObjectName("guessReasonsArea")
        area.setAccessibleName(label.accessibleName())
        area.setWidgetResizable(True)
        area.setFrameShape(QFrame.Shape.NoFrame)
        area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        area.setWidget(label)
        area.setMaximumHeight(6 * label.fontMetrics().lineSpacing() + 4)
        return area

    def _labels_box(self, into: QVBoxLayout) -> None:
        """How the labels read, and the table that asks for the others."""
        self.labels_info = QLabel(self)
        self.labels_info.setObjectName("labelsInfo")
        self.labels_info.setWordWrap(True)
        into.addWidget(self.labels_info)
        self.scale_choice = QComboBox(self)
        self.scale_choice.setObjectName("scaleChoice")
        self.scale_choice.setAccessibleName(self.tr("Scale of the labels"))
        self.scale_choice.setToolTip(self.tr(
            "The labels fit these known scales equally well, and they grade them otherwise: "
            "choose the one the annotators used"))
        into.addWidget(self.scale_choice)
        self.scale_choice.currentIndexChanged.connect(self._scale_chosen)
        self.unmapped_prompt = QLabel(self)
        self.unmapped_prompt.setObjectName("unmappedPrompt")
        self.unmapped_prompt.setWordWrap(True)
        into.addWidget(self.unmapped_prompt)
        self.legend_proposal = QLabel(self)
        self.legend_proposal.setObjectName("legendProposal")
        self.legend_proposal.setWordWrap(True)
        into.addWidget(self.legend_proposal)
        self.legend_order = QPushButton(self.tr("Give the labels these grades"), self)
        self.legend_order.setObjectName("legendOrder")
        self.legend_order.setToolTip(self.tr(
            "The sheet's legend lists the labels in a stated order but gives no grades: this "
            "gives them grades one apart, 0 for the worst, as the button says. An order gives "
            "no numbers by itself (each grade's gain changes NDCG): check them below."))
        self.legend_order.clicked.connect(self._legend_order_taken)
        into.addWidget(self.legend_order, 0, Qt.AlignmentFlag.AlignLeft)
        self.labels_model = LabelsModel(self)
        self.unmapped_view = QTableView(self)
        self.unmapped_view.setObjectName("unmappedLabels")
        label_control(self.unmapped_view, self.tr("Labels without a grade"),
                      self.tr("Give each label the sheet uses a grade"))
        self.unmapped_view.setModel(self.labels_model)
        tab_passes(self.unmapped_view)
        self.unmapped_view.horizontalHeader().setSectionResizeMode(
            LabelsModel.Column.LABEL, QHeaderView.ResizeMode.Stretch)
        into.addWidget(self.unmapped_view)

    def _conventions_form(self, conventions: Conventions) -> QFormLayout:
        conv_form = QFormLayout()
        self.rubric = QLineEdit(self)
        self.rubric.setObjectName("rubricEdit")
        self.rubric.setPlaceholderText("0=not relevant,1=partial,2=relevant,3=highly relevant")
        self.rubric.setToolTip(self.tr(
            "Permitted grades and their labels, proposed from the sheet's labels; text labels "
            "in the sheet are read through it. Empty: no rubric (labels on a known scale are "
            "still read)."))
        self.consensus = QComboBox(self)
        self.consensus.setObjectName("consensusCombo")
        for rule in ConsensusRule:
            self.consensus.addItem(rule.label, rule)
            self.consensus.setItemData(self.consensus.count() - 1, rule.formula, TOOLTIP)
        self.consensus.setCurrentIndex(self.consensus.findData(conventions.consensus))
        self.rounding = QComboBox(self)
        self.rounding.setObjectName("roundingCombo")
        for r in Rounding:
            self.rounding.addItem(r.label, r)
            self.rounding.setItemData(self.rounding.count() - 1, r.formula, TOOLTIP)
        self.rounding.setCurrentIndex(self.rounding.findData(conventions.rounding))
        self.unknown_marks = QLineEdit(self)
        self.unknown_marks.setObjectName("unknownMarks")
        self.unrateable_marks = QLineEdit(self)
        self.unrateable_marks.setObjectName("unrateableMarks")
        self.unrateable_marks.editingFinished.connect(self._unrateable_typed)
        conv_form.addRow(self.tr(RUBRIC), self.rubric)
        conv_form.addRow(self.tr("Several annotators:"), self.consensus)
        conv_form.addRow(self.tr("Rounding of the consensus:"), self.rounding)
        conv_form.addRow(self.tr("Marks read as unknown (blank always):"), self.unknown_marks)
        conv_form.addRow(self.tr(UNRATEABLE_MARKS), self.unrateable_marks)
        return conv_form

    def initializePage(self) -> None:
        value = self.wiz.preview_value
        if value is None or value is self._shown:
            return  # back and forth keeps the user's corrections
        self._shown = value
        self._filling = True
        try:
            self._fill(value)
        finally:
            self._filling = False

    def _fill(self, value: SheetPreview) -> None:
        """The page as ``value`` (a preview) guessed it."""
        mapping = value.mapping
        # Rows wider than the header offer their extra columns too (by letter).
        width = self.wiz.preview_width()
        header = [*value.header, *([""] * (width - len(value.header)))]
        names = [self.tr("(none)"), *(column_name(c, header, value.letters)
                                      for c in range(len(header)))]
        for field, combo in self.combos.items():
            # (filled again only where the columns differ: emptied, a list
            # the user had open lost their place in it when a read ended)
            if [combo.itemText(i) for i in range(combo.count())] != names:
                combo.clear()
                for col, name in enumerate(names, start=-1):
                    combo.addItem(name, None if col < 0 else col)
            combo.setCurrentIndex(max(0, combo.findData(getattr(mapping, field))))
        self.grades_model.set_columns(header, mapping.grades, value.letters)
        written = written_consensus(value.header) if mapping.grades else None
        self.written_name = column_name(written, header, value.letters) if written is not None \
            else ""
        self.consensus_out.setChecked(False)
        self.grade_alone.setChecked(False)
        self.consensus_out.setText(self.tr(
            "Leave {0} out: compute the consensus from the annotators' columns").format(
                self.written_name))
        self.grades_view.resizeColumnsToContents()
        _from_start(self.unknown_marks, ", ".join(m for m in mapping.unknown_marks if m))
        _from_start(self.unrateable_marks, ", ".join(mapping.unrateable_marks))
        self.layout_combo.setCurrentIndex(self.layout_combo.findData(mapping.layout))
        self._layout_changed()
        self._show_keep_boxes(value, mapping.keep)
        self.reasons.setText(self.tr("Guessed: {0}").format(in_the_wizard("; ".join(
            f"{f.replace('_', ' ')}: {why}" for f, why in mapping.reasons)))
            if mapping.reasons else "")
        self._show_labels(value)

    def _show_labels(self, value: SheetPreview) -> None:
        """The rubric proposed from the sheet's labels, how they read, and
        the labels on no known scale, asked for."""
        self.proposed_rubric = value.rubric.text if value.rubric is not None else ""
        self.rubric.setText(self.proposed_rubric)
        self.scale_choice.blockSignals(True)
        self.scale_choice.clear()
        if value.alternatives:
            self.scale_choice.addItem(self.tr("Choose the labels' scale…"), None)
            for name, rubric in value.alternatives:
                self.scale_choice.addItem(f"{name}: {rubric.text}", rubric.text)
            self.rubric.setText("")
        self.scale_choice.blockSignals(False)
        self.scale_choice.setVisible(bool(value.alternatives))
        if value.alternatives:
            self.labels_info.setText(self.tr(
                "The labels fit {0} known scales equally well, and they grade them otherwise: "
                "choose the one the annotators used.").format(len(value.alternatives)))
        elif value.label_grades:
            read = ", ".join(f"{k!r} = {number_text(v)}" for k, v in value.label_grades.items())
            self.labels_info.setText(self.tr("Labels read ({0}): {1}").format(
                in_the_wizard(value.scale), read))  # (a longer scale's --rubric: the field)
        elif value.rubric is not None and value.rubric.text in value.scale:  # a legend's
            self.labels_info.setText(self.tr("Rubric read from {0}").format(value.scale))
        elif value.rubric is not None:
            self.labels_info.setText(self.tr("Rubric read from {0}: {1}").format(
                value.scale, value.rubric.text))
        elif value.unmapped and value.vocabulary is not None:  # a legend of labels only
            self.labels_info.setText(self.tr(
                "{0} names the labels, not their grades, and no known scale reads them.").format(
                    value.vocabulary.said[0].upper() + value.vocabulary.said[1:]))
        elif value.unmapped:  # (they hold labels: those asked for below)
            self.labels_info.setText(self.tr("No known scale reads the grade columns' labels."))
        else:
            self.labels_info.setText(self.tr("The grade columns hold no text labels."))
        if value.legend_note:  # legends that disagree: said before the import, as it says
            self.labels_info.setText(self.labels_info.text() + "\n" + in_the_wizard(
                value.legend_note[0].upper() + value.legend_note[1:]))
        self.labels_model.set_labels(value.unmapped)
        self._show_legend_order(value.vocabulary if value.unmapped else None)
        unmapped = len(value.unmapped)
        self.unmapped_prompt.setVisible(bool(unmapped))
        self.unmapped_view.setVisible(bool(unmapped))
        self.unmapped_prompt.setText((self.tr(
            "1 label is on no known scale and not in the rubric. Give it its grade below; "
            "left without one, its cells are rejected.") if unmapped == 1 else self.tr(
            "{0} labels are on no known scale and not in the rubric. Give each its grade "
            "below; a label left without one has its cells rejected.").format(unmapped))
            + " " + self.tr("One that says the item could not be judged (a paywall, a broken "
                            "page) goes in “{0}” instead.").format(
                                self.tr(UNRATEABLE_MARKS).rstrip(":")))

    def _show_legend_order(self, legend: Vocabulary | None) -> None:
        """The button that gives the labels the grades the legend's stated
        order proposes, naming each (hidden when it states none)."""
        proposal = legend.proposal() if legend is not None else None
        self._proposed = {label_key(g.label): g.value for g in proposal.grades} \
            if proposal is not None else {}
        self.legend_order.setVisible(proposal is not None)
        self.legend_proposal.setVisible(proposal is not None)
        if legend is not None and proposal is not None:
            self.legend_proposal.setText(self.tr(
                "The legend lists them {0}; one grade apart, that is: {1}").format(
                    legend.order, ", ".join(f"{g.label} = {number_text(g.value)}"
                                            for g in proposal.grades)))
            self.legend_order.setAccessibleDescription(self.legend_proposal.text())

    def _legend_order_taken(self) -> None:
        """The legend's proposal confirmed: each label given its grade."""
        self.labels_model.give(self._proposed)

    def _grades_chosen(self, *_args: Any) -> None:
        """Other grade columns chosen (the layout, the annotators' columns
        ticked): the rubric field shows their scale, read again from the
        sheet, unless the user typed one of their own."""
        if self._filling or self.wiz.preview_value is None \
                or self.rubric.text().strip() != self.proposed_rubric:
            return
        self.wiz.propose_scale(self.mapping())

    def show_scale(self, value: SheetPreview) -> None:
        """The rows each kind of mark counts for ``value``'s mapping (its
        status column's), and the labels and the rubric its grade columns
        propose, unless other columns were chosen meanwhile or the user
        typed a rubric of their own."""
        if value.mapping.status == self.combos["status"].currentData():
            self._filling = True
            try:
                self._show_keep_boxes(value, self._kept())
            finally:
                self._filling = False
        if value.mapping.sources() == self.mapping().sources() \
                and self.rubric.text().strip() == self.proposed_rubric:
            self._show_labels(value)

    def _kept(self) -> tuple[str, ...]:
        """The kinds of marked rows the boxes keep."""
        return tuple(k for k, box in self.keep_boxes.items() if box.isChecked())

    def _choice_made(self, *_args: Any) -> None:
        """A column chosen for a role, or a box keeping marked rows ticked:
        the sheet read again at once for the page's choices (one read
        waiting while another runs, the latest choices), the guesses,
        the people and the rows counted, the scale proposed following
        (:meth:`show_guess`), as ``--map`` and ``--keep`` read it. In the
        wide layout (or the long one chosen over a wide guess) the page's
        mapping is read as it is: the rows marked, the labels
        (:meth:`show_scale`)."""
        value = self.wiz.preview_value
        if self._filling or value is None:
            return
        base = value.mapping
        if self.layout_combo.currentData() == WIDE or base.layout == WIDE:
            self.wiz.propose_scale(self.mapping())
            return
        self.wiz.guess_around({f: c.currentData() for f, c in self.combos.items()
                               if f in base.declared or c.currentData() != getattr(base, f)},
                              self._kept())

    def show_guess(self, value: SheetPreview) -> None:
        """The page as ``value`` read the sheet again around the user's
        choice: its columns, guesses and counts said anew; the rubric typed,
        the boxes ticked and the marks typed kept."""
        typed = self.rubric.text() if self.rubric.text().strip() != self.proposed_rubric \
            else None
        keep, alone = self._kept(), self.grade_alone.isChecked()
        marks = self.unknown_marks.text(), self.unrateable_marks.text()
        self._shown = value
        self._filling = True
        try:
            self._fill(value)
            self._show_keep_boxes(value, keep)
            self.grade_alone.setChecked(alone)
            _from_start(self.unknown_marks, marks[0])
            _from_start(self.unrateable_marks, marks[1])
            if typed is not None:
                self.rubric.setText(typed)
        finally:
            self._filling = False

    def _scale_chosen(self, *_args: Any) -> None:
        """The scale the user chose: its rubric is declared."""
        text = self.scale_choice.currentData()
        self.rubric.setText(text or "")

    def _layout_changed(self, *_args: Any) -> None:
        wide = self.layout_combo.currentData() == WIDE
        self.combos["grade"].setEnabled(not wide)
        self.combos["annotator"].setEnabled(not wide)
        self.grade_alone.setEnabled(not wide)
        self.grades_view.setEnabled(wide)
        self.consensus_out.setVisible(wide and bool(self.written_name))

    def set_column(self, field: str, col: int | None) -> None:
        """Map ``field`` to sheet column ``col`` (0-based; None = not imported)."""
        combo = self.combos[field]
        combo.setCurrentIndex(combo.findData(col))

    def _unrateable_typed(self) -> None:
        """A mark typed into "Marks read as unrateable" that "Marks read as
        unknown" still holds (``?``) is read unrateable, as ``--unrateable``
        reads it (:func:`~core.io.annotator.model.unknown_but_unrateable`):
        moved out of the unknown field, which says so in its tooltip, so the
        page shows what the import reads."""
        unknown = read_marks(self.unknown_marks.text())
        kept = unknown_but_unrateable(unknown, read_marks(self.unrateable_marks.text()))
        if kept == unknown:
            return
        moved = ", ".join(m for m in unknown if m not in kept)
        _from_start(self.unknown_marks, ", ".join(kept))
        self.unknown_marks.setToolTip(self.tr(
            "{0}: moved to “Marks read as unrateable”, where it was typed").format(moved))

    def mapping(self) -> ColumnMapping:
        """The mapping as the page shows it."""
        value = self.wiz.preview_value
        base = value.mapping if value is not None else ColumnMapping()
        fields: dict[str, Any] = {f: c.currentData() for f, c in self.combos.items()}
        fields["rows_ranked"] = self.rows_ranked.isChecked()
        fields["keep"] = self._kept()
        if self.layout_combo.currentData() == WIDE:
            fields.update(grade=None, annotator=None, grades=self.grades_model.grades())
        else:
            fields["grades"] = ()
        # What the user changed from the guess is declared, as --map declares it.
        declared = [f for f, c in fields.items() if f in self.combos and c != getattr(base, f)]
        if fields["grades"] != base.grades:
            declared += ["grade", "annotators"]  # as --annotators declares them
        elif fields["grade"] is not None and self.grade_alone.isChecked():
            declared.append("grade")  # taken alone, as --map grade=C declares it
        fields["declared"] = tuple(dict.fromkeys((*base.declared, *declared)))
        unrateable = read_marks(self.unrateable_marks.text())
        unknown = ("", *unknown_but_unrateable(read_marks(self.unknown_marks.text()),
                                               unrateable))
        mapping = base.replace(unknown_marks=unknown, unrateable_marks=unrateable, **fields)
        if self.consensus_out.isVisibleTo(self) and self.consensus_out.isChecked():
            return mapping.grade_left_out()  # the written consensus left out, as --map grade=none
        return mapping

    def way_out(self, refused: NotConsensus | SplitRanking) -> str:
        """What to do about a refusal, in the page's words where the command
        line names its flags: a grade column that is no consensus
        (:class:`~core.io.annotator.evidence.NotConsensus`), a score or rank
        giving an item two values (:class:`~core.io.annotator.rows.SplitRanking`)."""
        if isinstance(refused, SplitRanking):
            label = MAPPED_FIELDS[refused.field]
            return self.tr("choose “(none)” as the {0} to import the judgments without it, or "
                           "fix the sheet so each item's rows give one {1}").format(
                               label, refused.field)
        rules = ", or ".join(f"the {rule.label} ({rounding.label})"
                             for rule, rounding in refused.fits)
        return (self.tr("on every row it is what {0} computes: choose it under “Several "
                        "annotators” and “Rounding of the consensus”; or ").format(rules)
                if rules else "") + self.tr(
            "tick “Leave {0} out” under the annotators' grade columns to compute the consensus "
            "from their grades, or choose the long layout with {1} as the grade to take its "
            "grades").format(self.written_name or refused.letter, refused.letter)

    def rubric_value(self) -> Rubric | None:
        """The rubric typed (None when empty); raises ConventionError when malformed."""
        text = self.rubric.text().strip()
        return Rubric.parse(text) if text else None

    def declared_rubric(self) -> Rubric | None:
        """The rubric the user declares: None when the field is empty or
        holds the proposal unchanged (the import then reads the labels as
        proposed, every spelling of them included)."""
        if self.proposed_rubric and self.rubric.text().strip() == self.proposed_rubric:
            return None
        return self.rubric_value()

    def validatePage(self) -> bool:
        if self.scale_choice.isVisibleTo(self) and self.scale_choice.currentData() is None:
            self.problem.setText(self.tr("Choose the scale of the labels first."))
            return False
        try:
            self.rubric_value()
        except ConventionError as exc:
            self.problem.setText(self.tr("Rubric: {0}").format(exc))
            announce(self.rubric, self.problem.text())
            return False
        self.problem.setText("")
        announce(self.rubric, "")
        return True


def _from_start(edit: QLineEdit, text: str) -> None:
    """``text`` in ``edit`` shown from its start: setText leaves the cursor
    at the end, and a list of marks longer than the field showed its tail
    ('ow, dont_know, ...' at 1366x768), its first marks out of sight."""
    edit.setText(text)
    edit.setCursorPosition(0)
