"""The conventions dock: every convention with its formula text, the presets
and which presets the current conventions match.

Each field of :data:`core.model.conventions.FIELDS` gets a control by its
kind (a list for a choice, a box for TRUE/FALSE, ...), under its declared
title; a change sets that one field of the current conventions
(``field.set``), never rebuilds them.

The panel never changes the document: it emits :attr:`conventions_edited`
with the new :class:`~core.model.conventions.Conventions` and the window pushes an
undo command; the window then calls :meth:`ConventionsPanel.set_conventions`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
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
    QStyle,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.accessibility import announce, label_control, tab_passes
from app.delegates import GradeWordsDelegate
from app.models.guidelines import GuidelinesModel
from app.models.pairs import PairTableModel
from app.panels.fit import fit_rows_to_font
from app.panels.wheel import guard_wheel
from app.scheme import tint
from core.errors import ConventionError
from core.model.conventions import (
    FIELD,
    FIELDS,
    ConventionField,
    Conventions,
    Guideline,
    Rubric,
    RubricGrade,
    format_cutoff,
    parse_cutoff,
)
from core.model.gain_rules import GainRule, gain_rule
from core.model.numbers import DECIMALS, number_text
from core.model.presets import PRESETS, apply_preset, matching_presets

__all__ = ["ConventionsPanel"]


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(w.title() for w in rest)


def _formula_label(name: str, parent: QWidget) -> QLabel:
    label = QLabel(parent)
    label.setObjectName(f"{name}Formula")
    label.setWordWrap(True)
    tint(label, "color: {}; font-family: monospace", "formula")
    return label


def _error_label(name: str, parent: QWidget) -> QLabel:
    label = QLabel(parent)
    label.setObjectName(name)
    label.setWordWrap(True)
    tint(label, "color: {}", "error")
    label.hide()
    return label


def _combo(name: str, parent: QWidget) -> QComboBox:
    """A choice box that may be narrower than its longest item (the panel
    fits a side column); the open list shows every item whole."""
    combo = QComboBox(parent)
    combo.setObjectName(name)
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(16)
    return combo


class _DocumentField(QLineEdit):
    """A line edit for a convention typed in: while it shows what the document
    holds (``pending()`` false: nothing typed, or the change made), Ctrl+Z and
    Ctrl+Shift+Z are the document's Undo and Redo, as everywhere in the
    window; a line edit takes them for its own typing history, empty once
    the change is shown (tried under Xvfb: cutoffs typed, Enter, Ctrl+Z did
    nothing), or holding a text refused before (Ctrl+Z showed it back)."""

    def __init__(self, pending: Callable[[], bool], parent: QWidget) -> None:
        super().__init__(parent)
        self._pending = pending

    def event(self, e: QEvent) -> bool:
        if (e.type() == QEvent.Type.ShortcutOverride and isinstance(e, QKeyEvent)
                and (e.matches(QKeySequence.StandardKey.Undo)
                     or e.matches(QKeySequence.StandardKey.Redo))
                and not self._pending()):
            e.ignore()  # left to the window's Undo and Redo
            return True
        return super().event(e)


class ConventionsPanel(QWidget):
    """Every convention, editable (objectName ``conventionsPanel``)."""

    #: (new conventions, what changed) asked for by the reviewer.
    conventions_edited = Signal(object, str)

    def __init__(self, parent: Any = None,
                 decimals: Callable[[], int] = lambda: DECIMALS) -> None:
        super().__init__(parent)
        self.setObjectName("conventionsPanel")
        #: The window's display rounding: a fractional level (a grade of the
        #: gain table, the rubric or the guidelines) is shown at it, in full
        #: in its tooltip.
        self.decimals = decimals
        self._c = Conventions()
        self._updating = False
        inner = QWidget()
        body = QVBoxLayout(inner)
        #: Errors that belong to no one field (a change the window refused):
        #: at the top, where they are seen without scrolling.
        self.error_label = _error_label("conventionsError", inner)
        body.addWidget(self.error_label)
        #: Each field's own error, shown under the field.
        self.field_errors: dict[str, QLabel] = {}
        self.combos: dict[str, QComboBox] = {}
        self.formulas: dict[str, QLabel] = {}
        #: Each field's control, by the field's name (:data:`FIELDS`).
        self.controls: dict[str, QWidget] = {}
        self.checks: dict[str, QCheckBox] = {}
        body.addWidget(self._build_presets(inner))
        for f in FIELDS:
            if f.kind == "gain":
                body.addWidget(self._build_gain(f, inner))
            elif f.kind == "cutoffs":
                body.addWidget(self._build_cutoffs(inner))
            elif f.kind == "choice":
                body.addWidget(self._build_choice(f, inner))
            elif f.kind == "rubric":
                body.addWidget(self._build_rubric(inner))
            elif f.kind == "guidelines":
                body.addWidget(self._build_guidelines(f, inner))
            elif f.kind == "flag" and f.attr != "gain":
                box = QGroupBox(self.tr(f.title), inner)
                QVBoxLayout(box).addWidget(self._check(f, box))
                body.addWidget(box)
        body.addStretch(1)

        self.scroll_area = QScrollArea(self)
        self.scroll_area.setObjectName("conventionsScroll")
        label_control(self.scroll_area, self.tr("Conventions"))
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.scroll_area.setWidget(inner)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.scroll_area)
        guard_wheel(self)  # scrolling the panel never changes a convention

    def sizeHint(self) -> QSize:
        """As narrow as the boxes allow (their texts wrap), plus the scroll bar."""
        scroll = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        widget = self.scroll_area.widget()
        inner = widget.minimumSizeHint().width() if widget is not None else 0
        return QSize(inner + scroll + 2 * self.scroll_area.frameWidth() + 2,
                     super().sizeHint().height())

    # -- the boxes ----------------------------------------------------------------------
    def _build_presets(self, inner: QWidget) -> QGroupBox:
        presets = QGroupBox(self.tr(FIELD["preset"].title), inner)
        column = QVBoxLayout(presets)
        row = QHBoxLayout()
        column.addLayout(row)
        self.preset_buttons: dict[str, QPushButton] = {}
        for name in PRESETS:
            button = QPushButton(name, presets)
            button.setObjectName(f"preset_{name}")
            button.setToolTip(self.tr("Use %1's conventions (cutoffs, rubric and weighting "
                                      "are kept)").replace("%1", name))
            button.clicked.connect(lambda _=False, n=name: self.apply_preset(n))
            self.preset_buttons[name] = button
            row.addWidget(button)
        self.controls["preset"] = presets
        self.preset_match = QLabel(presets)
        self.preset_match.setObjectName("presetMatch")
        self.preset_match.setWordWrap(True)
        row.addStretch(1)
        column.addWidget(self.preset_match)
        return presets

    def _build_gain(self, f: ConventionField, inner: QWidget) -> QGroupBox:
        """The gain rule, its table and the gain's flags (the fields kept in
        :attr:`Conventions.gain`)."""
        gain_box = QGroupBox(self.tr(f.title), inner)
        gain_layout = QVBoxLayout(gain_box)
        self.gain_combo = _combo("gainCombo", gain_box)
        label_control(self.gain_combo, self.tr("Gain rule"))
        for rule in f.choices():
            self.gain_combo.addItem(rule.label, rule.value)
            self.gain_combo.setItemData(self.gain_combo.count() - 1, rule.formula,
                                        Qt.ItemDataRole.ToolTipRole)
        self.gain_combo.currentIndexChanged.connect(self._gain_rule_chosen)
        self.combos[f.name] = self.controls[f.name] = self.gain_combo
        gain_layout.addWidget(self.gain_combo)
        for flag in FIELDS:
            if flag.kind == "flag" and flag.attr == "gain":
                gain_layout.addWidget(self._check(flag, gain_box))
        self.negative_as_zero = self.checks["negative_as_zero"]
        self.truncate = self.checks["truncate"]
        self.gain_table_model = PairTableModel(("grade", "gain"), value_is_number=True,
                                               parent=self)
        self.gain_table = self._pair_view("gainTable", self.gain_table_model, gain_box)
        label_control(self.gain_table, self.tr("Gain per grade"))
        self.gain_table_model.pairs_edited.connect(self._gain_table_edited)
        self.gain_formula = self.formulas[f.name] = _formula_label("gain", gain_box)
        gain_layout.addWidget(self.gain_table)
        # Shown with the table only: an Add under a rule without one made it a table.
        self.gain_table_buttons = QWidget(gain_box)
        buttons = self._pair_buttons(self.gain_table, self.gain_table_model, "gain")
        buttons.setContentsMargins(0, 0, 0, 0)
        self.gain_table_buttons.setLayout(buttons)
        gain_layout.addWidget(self.gain_table_buttons)
        gain_layout.addWidget(self.gain_formula)
        gain_layout.addWidget(self._field_error("gain", gain_box))
        return gain_box

    def _check(self, f: ConventionField, parent: QWidget) -> QCheckBox:
        """A TRUE/FALSE field's box (added to :attr:`checks`)."""
        box = QCheckBox(self.tr(f.title), parent)
        box.setObjectName(_camel(f.name))
        box.setToolTip(f.meaning(True))
        box.toggled.connect(lambda on, f=f: self._set_field(f, on))
        self.checks[f.name] = box
        self.controls[f.name] = box
        return box

    def _build_cutoffs(self, inner: QWidget) -> QGroupBox:
        cut_box = QGroupBox(self.tr(FIELD["cutoffs"].title), inner)
        # The wrapped texts go in a column, not in the form's rows: a form
        # gave its spanning row the height of a wider box's lines (the
        # formula's fourth line cut, at 10 pt in a 1280x800 side column).
        column = QVBoxLayout(cut_box)
        cut_layout = QFormLayout()
        cut_layout.setContentsMargins(0, 0, 0, 0)
        column.addLayout(cut_layout)
        self.cutoffs_edit = _DocumentField(
            lambda: self._read_cutoffs()[0] != self._c.cutoffs, cut_box)
        self.cutoffs_edit.setObjectName("cutoffsEdit")
        self.cutoffs_edit.setToolTip(self.tr("One or more cutoffs, comma separated: 1, 5, all"))
        self.cutoffs_edit.editingFinished.connect(self._cutoffs_edited)
        self.cutoffs_edit.textEdited.connect(lambda _t: self._recheck_cutoffs())
        self.cutoffs_formula = self.formulas["cutoffs"] = _formula_label("cutoffs", cut_box)
        self.controls["cutoffs"] = self.cutoffs_edit
        cut_layout.addRow(self.tr("k ="), self.cutoffs_edit)
        label_control(self.cutoffs_edit, self.tr("Cutoffs k"), self.cutoffs_edit.toolTip())
        column.addWidget(self._field_error("cutoffs", cut_box))
        column.addWidget(self.cutoffs_formula)
        return cut_box

    def _build_choice(self, f: ConventionField, inner: QWidget) -> QGroupBox:
        """One plain choice convention: its combo (added to :attr:`combos`) and formula."""
        box = QGroupBox(self.tr(f.title), inner)
        lay = QVBoxLayout(box)
        combo = _combo(f"{f.name}Combo", box)
        label_control(combo, self.tr(f.title))  # the box's title, spoken: one place for all
        for member in f.choices():
            combo.addItem(member.label, member.value)
            combo.setItemData(combo.count() - 1, member.formula,
                              Qt.ItemDataRole.ToolTipRole)
        combo.currentIndexChanged.connect(lambda _=0, f=f: self._choice_made(f))
        formula = _formula_label(f.name, box)
        lay.addWidget(combo)
        lay.addWidget(formula)
        self.combos[f.name] = self.controls[f.name] = combo
        self.formulas[f.name] = formula
        return box

    def _build_rubric(self, inner: QWidget) -> QGroupBox:
        rubric_box = QGroupBox(self.tr(FIELD["rubric"].title), inner)
        rubric_layout = QVBoxLayout(rubric_box)
        self.rubric_model = PairTableModel(("grade", "label"), value_is_number=False,
                                           parent=self)
        self.rubric_table = self._pair_view("rubricTable", self.rubric_model, rubric_box)
        self.controls["rubric"] = self.rubric_table
        label_control(self.rubric_table, rubric_box.title())
        self.rubric_model.pairs_edited.connect(self._rubric_edited)
        self.rubric_formula = _formula_label("rubric", rubric_box)
        self.formulas["rubric"] = self.rubric_formula
        rubric_layout.addWidget(self.rubric_table)
        rubric_layout.addLayout(self._pair_buttons(self.rubric_table, self.rubric_model,
                                                   "rubric"))
        rubric_layout.addWidget(self.rubric_formula)
        rubric_layout.addWidget(self._field_error("rubric", rubric_box))
        return rubric_box

    def _build_guidelines(self, f: ConventionField, inner: QWidget) -> QGroupBox:
        """What each level of the scale means: its description and examples
        editable, a row per level (the declared rubric's, or the scale the
        grades seen define: :meth:`set_grades_seen`)."""
        box = QGroupBox(self.tr(f.title), inner)
        lay = QVBoxLayout(box)
        self._grades_seen = np.empty(0)
        self._scale = False
        self.guidelines_model = GuidelinesModel(self)
        self.guidelines_table = QTableView(box)
        self.guidelines_table.setObjectName("guidelinesTable")
        self.guidelines_table.setAccessibleName(self.tr(f.title))
        self.guidelines_table.setModel(self.guidelines_model)
        self.guidelines_table.setItemDelegateForColumn(
            0, GradeWordsDelegate(self.decimals, self.guidelines_table))
        self.guidelines_table.verticalHeader().setVisible(False)
        self.guidelines_table.horizontalHeader().setStretchLastSection(True)
        self.guidelines_table.setWordWrap(True)
        tab_passes(self.guidelines_table)  # (a form: Tab goes on to its next field)
        self.guidelines_table.setMaximumHeight(160)
        self.guidelines_model.guideline_edited.connect(self._guideline_edited)
        self.controls[f.name] = self.guidelines_table
        note = _formula_label(f.name, box)
        self.formulas[f.name] = note
        lay.addWidget(self.guidelines_table)
        lay.addWidget(note)
        lay.addWidget(self._field_error(f.name, box))
        return box

    def set_grades_seen(self, grades: np.ndarray, rubric: Rubric | None = None) -> None:
        """The document's grades (NaN where none): without a declared rubric
        they define the scale the guidelines editor lists; ``rubric``: that
        scale under the panel's conventions when worked out already (the
        evaluation's), else it is worked out from ``grades``."""
        self._grades_seen = grades
        self._show_levels(rubric)

    def grade_given(self, grades: np.ndarray, row: int) -> None:
        """A grade changed at ``row`` (the first changed): the first grade
        given defines a scale where there was none, and taking the last one
        back leaves none (the levels are otherwise worked out per document
        and conventions)."""
        if not self._scale or self._c.scale_lost(grades, row):
            self.set_grades_seen(grades)

    def _show_levels(self, rubric: Rubric | None = None) -> None:
        """The levels to describe (``rubric``: as for :meth:`set_grades_seen`);
        without a scale yet (no rubric, no grade) none but those already
        described, and the note says why."""
        grades = self._grades_seen
        self.guidelines_model.set_levels(self._c.listed_levels(grades, rubric))
        self.guidelines_table.resizeRowsToContents()
        self._scale = self._c.has_scale(grades)
        self.formulas["guidelines"].setText(self.tr(
            "Double-click a description or the examples to edit them; they are shown beside "
            "the grid while grading.") if self._scale else self.tr(
            "No scale yet: no rubric is declared and no candidate has a grade. Declare a "
            "rubric above, or grade a candidate, and describe its levels here."))

    # -- building blocks ----------------------------------------------------------------
    def _pair_view(self, name: str, model: PairTableModel, parent: QWidget) -> QTableView:
        view = QTableView(parent)
        view.setObjectName(name)
        view.setModel(model)
        # Its numbers (the grades; a gain table's gains) at the display
        # rounding when fractional, whole as typed.
        numbers = GradeWordsDelegate(self.decimals, view)
        for column in (0, 1) if model.value_is_number else (0,):
            view.setItemDelegateForColumn(column, numbers)
        view.verticalHeader().setVisible(False)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        tab_passes(view)
        fit_rows_to_font(view)
        # about four rows in view, at any font size (more scroll)
        view.setMaximumHeight(max(130, 5 * view.verticalHeader().defaultSectionSize() + 20))
        return view

    def _pair_buttons(self, view: QTableView, model: PairTableModel, name: str) -> QHBoxLayout:
        add = QPushButton(self.tr("Add"), self)
        add.setObjectName(f"{name}AddRow")
        label_control(add, self.tr("Add a row to the {0} table").format(name))
        add.clicked.connect(model.add_row)
        remove = QPushButton(self.tr("Remove"), self)
        remove.setObjectName(f"{name}RemoveRow")
        label_control(remove, self.tr("Remove the current row of the {0} table").format(name))
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
            for f in FIELDS:
                value = f.get(c)
                if f.name in self.combos:
                    member = value[0] if f.kind == "gain" else value
                    self.combos[f.name].setCurrentIndex(
                        self.combos[f.name].findData(member.value))
                    self.formulas[f.name].setText(member.formula)
                    self.combos[f.name].setAccessibleDescription(member.formula)
                elif f.name in self.checks:
                    self.checks[f.name].setChecked(bool(value))
            self.gain_table_model.set_pairs(list(c.gain.table))
            for shown in (self.gain_table, self.gain_table_buttons):
                shown.setVisible(c.gain.rule.takes_table)
            self.show_numbers()
            self.gain_combo.setAccessibleDescription(c.gain.formula)
            self.cutoffs_edit.setText(", ".join(format_cutoff(k) for k in c.cutoffs))
            self.cutoffs_formula.setText("the same k cuts the actual and the ideal list: "
                                         "DCG@k = sum over ranks r ≤ k of gain × discount(r)")
            grades = c.rubric.grades if c.rubric is not None else ()
            self.rubric_model.set_pairs([(g.value, g.label) for g in grades])
            self.rubric_formula.setText(
                f"rubric {c.rubric.text}: grades outside it are flagged" if c.rubric else
                "no rubric declared: the grades seen define the scale")
            self._show_levels()
            matches = matching_presets(c)
            self.preset_match.setText(
                self.tr("matches: ") + ", ".join(matches) if matches
                else self.tr("matches no preset"))
            self.clear_errors()
        finally:
            self._updating = False

    def show_numbers(self) -> None:
        """The gain's formula at the display rounding (in full in its tooltip)
        and the tables repainted: after the conventions or the decimals setting
        changed."""
        shown, whole = self._c.gain.formula_at(self.decimals()), self._c.gain.formula
        self.gain_formula.setText(shown)
        self.gain_formula.setToolTip(whole if whole != shown else "")
        for view in (self.gain_table, self.rubric_table, self.guidelines_table):
            view.viewport().update()

    def _field_error(self, name: str, parent: QWidget) -> QLabel:
        label = _error_label(f"{name}Error", parent)
        self.field_errors[name] = label
        return label

    def show_error(self, text: str, field: str | None = None) -> None:
        """Show ``text`` under ``field`` (``gain``, ``cutoffs``, ``rubric``), or at
        the top of the panel for no one field; scrolled into view."""
        label = self.field_errors.get(field or "", self.error_label)
        label.setText(text)
        label.setVisible(bool(text))
        # Said, not only shown in red: on the field it is about (or the panel).
        if field == "cutoffs":
            announce(self.cutoffs_edit, text, text or self.tr(
                "One or more cutoffs, comma separated: 1, 5, all"))
        else:
            announce(label, text)
        if field == "cutoffs":
            tint(self.cutoffs_edit, "border: 1px solid {}" if text else "", "error")
            self.cutoffs_edit.setToolTip(text or self.tr(
                "One or more cutoffs, comma separated: 1, 5, all"))
        if text:
            self.scroll_area.ensureWidgetVisible(self.cutoffs_edit if field == "cutoffs" else label)

    def clear_errors(self) -> None:
        self.show_error("")
        for name in self.field_errors:
            self.show_error("", name)

    # -- editing ------------------------------------------------------------------------
    def _propose(self, what: str, field: str | None = None, **changes: Any) -> None:
        if self._updating:
            return
        try:
            new = self._c.replace(**changes)
        except (ConventionError, ValueError) as exc:
            self.show_error(str(exc), field)
            return
        if new != self._c:
            self.clear_errors()
            self.conventions_edited.emit(new, what)

    def apply_preset(self, name: str) -> None:
        """Switch to preset ``name`` (:func:`core.model.presets.apply_preset`:
        the preset's arithmetic; cutoffs, rubric, weighting, consensus and
        rounding kept)."""
        c = self._c
        new = apply_preset(c, name)
        if new != c:
            self.conventions_edited.emit(new, f"preset {name}")

    def _set_field(self, f: ConventionField, value: Any) -> None:
        """Field ``f`` of the current conventions set to ``value``: every other
        field stays (``f.set`` replaces one field)."""
        if self._updating:
            return
        error = f.attr if f.attr in self.field_errors else None
        try:
            new = f.set(self._c, value)
        except (ConventionError, ValueError) as exc:
            self.show_error(str(exc), error)
            return
        if new != self._c:
            self.clear_errors()
            shown = new.gain.label if f.attr == "gain" else getattr(f.get(new), "label", "")
            self.conventions_edited.emit(new, f"{f.attr}: {shown}")

    def _gain_rule_chosen(self) -> None:
        if self._updating:
            return
        rule = gain_rule(self.gain_combo.currentData())
        table: tuple[tuple[float, float], ...] = ()
        if rule.takes_table:
            table = self._c.gain.table or tuple(
                (v, v) for v in (self._c.rubric.values if self._c.rubric else (0, 1, 2, 3)))
        self._set_field(FIELD["gain"], (rule, table))

    def _gain_table_edited(self) -> None:
        if self._updating:
            return
        pairs = self.gain_table_model.pairs()
        grades = [g for g, _ in pairs]
        if len(set(grades)) != len(grades):
            self.show_error(self.tr("the gain table names a grade twice"), "gain")
            return
        if pairs:
            self._set_field(FIELD["gain"], (
                GainRule.TABLE, tuple(sorted((float(g), float(v)) for g, v in pairs))))
        else:
            self._set_field(FIELD["gain"], (GainRule.LINEAR, ()))

    def _read_cutoffs(self) -> tuple[tuple[int | None, ...], str]:
        """The typed cutoffs, or () and what is wrong with them."""
        try:
            cutoffs = tuple(parse_cutoff(part.strip()) for part in
                            self.cutoffs_edit.text().split(",") if part.strip())
        except ConventionError as exc:
            return (), str(exc)
        if not cutoffs:
            return (), self.tr("declare at least one cutoff (a number or 'all')")
        return cutoffs, ""

    def _cutoffs_edited(self) -> None:
        if self._updating:
            return
        cutoffs, problem = self._read_cutoffs()
        if problem:
            self.show_error(problem, "cutoffs")
            return
        self._propose("cutoffs k = " + ", ".join(format_cutoff(k) for k in cutoffs),
                      "cutoffs", cutoffs=cutoffs)

    def _recheck_cutoffs(self) -> None:
        """While typing: an error shown at the field goes once the text is right."""
        if self.field_errors["cutoffs"].text() and not self._read_cutoffs()[1]:
            self.show_error("", "cutoffs")

    def _choice_made(self, f: ConventionField) -> None:
        if not self._updating:
            self._set_field(f, type(f.choices()[0])(self.combos[f.name].currentData()))

    def _guideline_edited(self, guideline: Guideline) -> None:
        """One level's description or examples changed: the guidelines field
        set with that level's replaced (one field, one step)."""
        if self._updating:
            return
        new = FIELD["guidelines"].set(self._c, self._c.guidelines.with_guideline(guideline))
        if new != self._c:
            self.clear_errors()
            self.conventions_edited.emit(new, "guideline for grade "
                                         + number_text(guideline.value))

    def _rubric_edited(self) -> None:
        if self._updating:
            return
        pairs = self.rubric_model.pairs()
        try:
            rubric = (Rubric(tuple(RubricGrade(float(v), str(label).strip())
                                   for v, label in pairs)) if pairs else None)
        except ConventionError as exc:
            self.show_error(str(exc), "rubric")
            return
        self._propose("rubric " + (rubric.text if rubric else "removed"), "rubric",
                      rubric=rubric)
