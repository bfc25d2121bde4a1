"""The conventions dock: every convention with its formula text, the presets
and which presets the current conventions match.

The panel never changes the document: it emits :attr:`conventions_edited`
with the new :class:`~core.model.conventions.Conventions` and the window pushes an
undo command; the window then calls :meth:`ConventionsPanel.set_conventions`.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.models.pairs import PairTableModel
from core.errors import ConventionError
from core.model.conventions import (
    ConsensusRule,
    Conventions,
    DiscountRule,
    Gain,
    GainRule,
    IdealInventory,
    Rounding,
    Rubric,
    RubricGrade,
    TieRule,
    UnknownRule,
    Weighting,
    ZeroIdealRule,
    format_cutoff,
    parse_cutoff,
)
from core.model.presets import PRESETS, apply_preset, matching_presets

__all__ = ["CHOICE_FIELDS", "ConventionsPanel"]

#: (field of Conventions, its choices, title) for the plain choice conventions.
CHOICE_FIELDS: tuple[tuple[str, Any, str], ...] = (
    ("discount", DiscountRule, "Discount"),
    ("ideal", IdealInventory, "Ideal inventory"),
    ("ties", TieRule, "Ties"),
    ("unknown", UnknownRule, "Unknown grades"),
    ("zero_ideal", ZeroIdealRule, "Zero ideal"),
    ("weighting", Weighting, "Aggregation (weighting)"),
    ("consensus", ConsensusRule, "Consensus of annotators"),
    ("rounding", Rounding, "Consensus rounding"),
)


def _formula_label(name: str, parent: QWidget) -> QLabel:
    label = QLabel(parent)
    label.setObjectName(f"{name}Formula")
    label.setWordWrap(True)
    label.setStyleSheet("color: #444; font-family: monospace")
    return label


class ConventionsPanel(QWidget):
    """Every convention, editable (objectName ``conventionsPanel``)."""

    #: (new conventions, what changed) asked for by the reviewer.
    conventions_edited = Signal(object, str)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setObjectName("conventionsPanel")
        self._c = Conventions()
        self._updating = False
        inner = QWidget()
        body = QVBoxLayout(inner)
        body.addWidget(self._build_presets(inner))
        body.addWidget(self._build_gain(inner))
        body.addWidget(self._build_cutoffs(inner))
        self.combos: dict[str, QComboBox] = {}
        self.formulas: dict[str, QLabel] = {"gain": self.gain_formula,
                                            "cutoffs": self.cutoffs_formula}
        for name, kind, title in CHOICE_FIELDS:
            body.addWidget(self._build_choice(name, kind, title, inner))
        body.addWidget(self._build_rubric(inner))
        self.error_label = QLabel(inner)
        self.error_label.setObjectName("conventionsError")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #b3261e")
        body.addWidget(self.error_label)
        body.addStretch(1)

        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(inner)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

    # -- the boxes ----------------------------------------------------------------------
    def _build_presets(self, inner: QWidget) -> QGroupBox:
        presets = QGroupBox(self.tr("Presets"), inner)
        row = QHBoxLayout(presets)
        self.preset_buttons: dict[str, QPushButton] = {}
        for name in PRESETS:
            button = QPushButton(name, presets)
            button.setObjectName(f"preset_{name}")
            button.setToolTip(self.tr("Use %1's conventions (cutoffs, rubric and weighting "
                                      "are kept)").replace("%1", name))
            button.clicked.connect(lambda _=False, n=name: self.apply_preset(n))
            self.preset_buttons[name] = button
            row.addWidget(button)
        self.preset_match = QLabel(presets)
        self.preset_match.setObjectName("presetMatch")
        self.preset_match.setWordWrap(True)
        row.addWidget(self.preset_match, 1)
        return presets

    def _build_gain(self, inner: QWidget) -> QGroupBox:
        gain_box = QGroupBox(self.tr("Gain"), inner)
        gain_layout = QVBoxLayout(gain_box)
        self.gain_combo = QComboBox(gain_box)
        self.gain_combo.setObjectName("gainCombo")
        for rule in GainRule:
            self.gain_combo.addItem(rule.label, rule.value)
        self.gain_combo.currentIndexChanged.connect(self._gain_rule_chosen)
        self.negative_as_zero = QCheckBox(self.tr("negative gains count as 0"), gain_box)
        self.negative_as_zero.setObjectName("negativeAsZero")
        self.negative_as_zero.toggled.connect(self._gain_rule_chosen)
        self.gain_table_model = PairTableModel(("grade", "gain"), value_is_number=True,
                                               parent=self)
        self.gain_table = self._pair_view("gainTable", self.gain_table_model, gain_box)
        self.gain_table_model.pairs_edited.connect(self._gain_table_edited)
        self.gain_formula = _formula_label("gain", gain_box)
        gain_layout.addWidget(self.gain_combo)
        gain_layout.addWidget(self.negative_as_zero)
        gain_layout.addWidget(self.gain_table)
        gain_layout.addLayout(self._pair_buttons(self.gain_table, self.gain_table_model, "gain"))
        gain_layout.addWidget(self.gain_formula)
        return gain_box

    def _build_cutoffs(self, inner: QWidget) -> QGroupBox:
        cut_box = QGroupBox(self.tr("Cutoffs k"), inner)
        cut_layout = QFormLayout(cut_box)
        self.cutoffs_edit = QLineEdit(cut_box)
        self.cutoffs_edit.setObjectName("cutoffsEdit")
        self.cutoffs_edit.setToolTip(self.tr("One or more cutoffs, comma separated: 1, 5, all"))
        self.cutoffs_edit.editingFinished.connect(self._cutoffs_edited)
        self.cutoffs_formula = _formula_label("cutoffs", cut_box)
        cut_layout.addRow(self.tr("k ="), self.cutoffs_edit)
        cut_layout.addRow(self.cutoffs_formula)
        return cut_box

    def _build_choice(self, name: str, kind: Any, title: str, inner: QWidget) -> QGroupBox:
        """One plain choice convention: its combo (added to :attr:`combos`) and formula."""
        box = QGroupBox(self.tr(title), inner)
        lay = QVBoxLayout(box)
        combo = QComboBox(box)
        combo.setObjectName(f"{name}Combo")
        for member in kind:
            combo.addItem(member.label, member.value)
            combo.setItemData(combo.count() - 1, member.formula,
                              Qt.ItemDataRole.ToolTipRole)
        combo.currentIndexChanged.connect(lambda _=0, n=name: self._choice_made(n))
        formula = _formula_label(name, box)
        lay.addWidget(combo)
        lay.addWidget(formula)
        self.combos[name] = combo
        self.formulas[name] = formula
        return box

    def _build_rubric(self, inner: QWidget) -> QGroupBox:
        rubric_box = QGroupBox(self.tr("Rubric (grade labels)"), inner)
        rubric_layout = QVBoxLayout(rubric_box)
        self.rubric_model = PairTableModel(("grade", "label"), value_is_number=False,
                                           parent=self)
        self.rubric_table = self._pair_view("rubricTable", self.rubric_model, rubric_box)
        self.rubric_model.pairs_edited.connect(self._rubric_edited)
        self.rubric_formula = _formula_label("rubric", rubric_box)
        self.formulas["rubric"] = self.rubric_formula
        rubric_layout.addWidget(self.rubric_table)
        rubric_layout.addLayout(self._pair_buttons(self.rubric_table, self.rubric_model,
                                                   "rubric"))
        rubric_layout.addWidget(self.rubric_formula)
        return rubric_box

    # -- building blocks ----------------------------------------------------------------
    @staticmethod
    def _pair_view(name: str, model: PairTableModel, parent: QWidget) -> QTableView:
        view = QTableView(parent)
        view.setObjectName(name)
        view.setModel(model)
        view.verticalHeader().setVisible(False)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setMaximumHeight(130)
        return view

    def _pair_buttons(self, view: QTableView, model: PairTableModel, name: str) -> QHBoxLayout:
        add = QPushButton(self.tr("Add"), self)
        add.setObjectName(f"{name}AddRow")
        add.clicked.connect(model.add_row)
        remove = QPushButton(self.tr("Remove"), self)
        remove.setObjectName(f"{name}RemoveRow")
        remove.clicked.connect(lambda: model.remove_row(view.currentIndex().row()))
        row = QHBoxLayout()
        row.addWidget(add)
        row.addWidget(remove)
        row.addStretch(1)
        return row

    # -- showing ------------------------------------------------------------------------
    @property
    def conventions(self) -> Conventions:
        return self._c

    def set_conventions(self, c: Conventions) -> None:
        """Show ``c`` (emits nothing)."""
        self._c = c
        self._updating = True
        try:
            self.gain_combo.setCurrentIndex(self.gain_combo.findData(c.gain.rule.value))
            self.negative_as_zero.setChecked(c.gain.negative_as_zero)
            self.gain_table_model.set_pairs(list(c.gain.table))
            self.gain_table.setVisible(c.gain.rule is GainRule.TABLE)
            self.gain_formula.setText(c.gain.formula)
            self.cutoffs_edit.setText(", ".join(format_cutoff(k) for k in c.cutoffs))
            self.cutoffs_formula.setText("the same k cuts the actual and the ideal list: "
                                         "DCG@k = sum over ranks r ≤ k of gain × discount(r)")
            for name, combo in self.combos.items():
                value = getattr(c, name)
                combo.setCurrentIndex(combo.findData(value.value))
                self.formulas[name].setText(value.formula)
            grades = c.rubric.grades if c.rubric is not None else ()
            self.rubric_model.set_pairs([(g.value, g.label) for g in grades])
            self.rubric_formula.setText(
                f"rubric {c.rubric.text}: grades outside it are flagged" if c.rubric else
                "no rubric declared: the grades seen define the scale")
            matches = matching_presets(c)
            self.preset_match.setText(
                self.tr("matches: ") + ", ".join(matches) if matches
                else self.tr("matches no preset"))
            self.error_label.clear()
        finally:
            self._updating = False

    def show_error(self, text: str) -> None:
        self.error_label.setText(text)

    # -- editing ------------------------------------------------------------------------
    def _propose(self, what: str, **changes: Any) -> None:
        if self._updating:
            return
        try:
            new = self._c.replace(**changes)
        except (ConventionError, ValueError) as exc:
            self.show_error(str(exc))
            return
        if new != self._c:
            self.error_label.clear()
            self.conventions_edited.emit(new, what)

    def apply_preset(self, name: str) -> None:
        """Switch to preset ``name`` (:func:`core.model.presets.apply_preset`:
        the preset's arithmetic; cutoffs, rubric, weighting, consensus and
        rounding kept)."""
        c = self._c
        new = apply_preset(c, name)
        if new != c:
            self.conventions_edited.emit(new, f"preset {name}")

    def _gain_rule_chosen(self) -> None:
        if self._updating:
            return
        rule = GainRule(self.gain_combo.currentData())
        table: tuple[tuple[float, float], ...] = ()
        if rule is GainRule.TABLE:
            table = self._c.gain.table or tuple(
                (v, v) for v in (self._c.rubric.values if self._c.rubric else (0, 1, 2, 3)))
        try:
            gain = Gain(rule, table, self.negative_as_zero.isChecked())
        except ConventionError as exc:
            self.show_error(str(exc))
            return
        self._propose(f"gain: {gain.label}", gain=gain)

    def _gain_table_edited(self) -> None:
        if self._updating:
            return
        pairs = self.gain_table_model.pairs()
        grades = [g for g, _ in pairs]
        if len(set(grades)) != len(grades):
            self.show_error(self.tr("the gain table names a grade twice"))
            return
        try:
            gain = (Gain(GainRule.TABLE, tuple(sorted((float(g), float(v)) for g, v in pairs)),
                         self.negative_as_zero.isChecked())
                    if pairs else Gain(GainRule.LINEAR,
                                       negative_as_zero=self.negative_as_zero.isChecked()))
        except ConventionError as exc:
            self.show_error(str(exc))
            return
        self._propose(f"gain: {gain.label}", gain=gain)

    def _cutoffs_edited(self) -> None:
        if self._updating:
            return
        try:
            cutoffs = tuple(parse_cutoff(part) for part in
                            self.cutoffs_edit.text().split(",") if part.strip())
        except ConventionError as exc:
            self.show_error(str(exc))
            return
        if not cutoffs:
            self.show_error(self.tr("declare at least one cutoff (a number or 'all')"))
            return
        self._propose("cutoffs k = " + ", ".join(format_cutoff(k) for k in cutoffs),
                      cutoffs=cutoffs)

    def _choice_made(self, name: str) -> None:
        if self._updating:
            return
        combo = self.combos[name]
        kind = dict((n, k) for n, k, _ in CHOICE_FIELDS)[name]
        value = kind(combo.currentData())
        self._propose(f"{name}: {value.label}", **{name: value})

    def _rubric_edited(self) -> None:
        if self._updating:
            return
        pairs = self.rubric_model.pairs()
        try:
            rubric = (Rubric(tuple(RubricGrade(float(v), str(label).strip())
                                   for v, label in pairs)) if pairs else None)
        except ConventionError as exc:
            self.show_error(str(exc))
            return
        self._propose("rubric " + (rubric.text if rubric else "removed"), rubric=rubric)
