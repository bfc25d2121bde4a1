"""The conventions panel edits one field of the current conventions: real
clicks on its controls, under every preset."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFormLayout, QLabel, QPushButton

from app.panels.conventions import ConventionsPanel
from core.model.conventions import FIELD, FIELDS, Conventions, format_cutoff
from core.model.presets import PRESETS


@pytest.fixture
def panel(qtbot):  # type: ignore[no-untyped-def]
    p = ConventionsPanel()
    qtbot.addWidget(p)
    p.show()
    edits: list[Conventions] = []

    def take(new: Conventions, _what: str) -> None:
        edits.append(new)
        p.set_conventions(new)  # as the window does once the edit is applied

    p.conventions_edited.connect(take)
    p.edits = edits  # type: ignore[attr-defined]
    return p


@pytest.mark.parametrize("name", ["trec_eval", "ranx"])
def test_negative_gains_off_and_on_keeps_truncation(qtbot, panel, name: str) -> None:
    """The bug: toggling "negative gains count as 0" rebuilt the gain and
    dropped trec_eval's and ranx's truncation of fractional grades."""
    start = PRESETS[name]
    assert start.gain.truncate
    assert start.gain.negative_as_zero
    panel.set_conventions(start)
    box = panel.negative_as_zero
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    assert panel.edits[-1].gain.negative_as_zero is False
    assert panel.edits[-1].gain.truncate is True
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    assert panel.edits[-1] == start
    # Truncation has its own control, and it changes only truncation.
    qtbot.mouseClick(panel.truncate, Qt.MouseButton.LeftButton)
    assert panel.edits[-1] == start.replace(gain=replace(start.gain, truncate=False))


# -- every preset x every control: one control changes exactly its field ------------------
#: The controls the property drives: every field but the preset's (its
#: buttons set a preset's fields together; see the test after).
CONTROLLED = [f.name for f in FIELDS if f.name != "preset"]


def test_every_field_has_a_control(panel) -> None:
    assert set(panel.controls) == {f.name for f in FIELDS}
    # Under the field's own title (declared once, in FIELDS).
    for f in FIELDS:
        if f.name in panel.checks:
            assert panel.checks[f.name].text() == f.title


def _new_index(data: st.DataObject, combo: Any) -> int:
    others = [i for i in range(combo.count()) if i != combo.currentIndex()]
    return data.draw(st.sampled_from(others))


def _drive(qtbot: Any, panel: ConventionsPanel, name: str, data: st.DataObject) -> None:
    """Change field ``name``'s control as a reviewer would."""
    if name in panel.combos:
        panel.combos[name].setCurrentIndex(_new_index(data, panel.combos[name]))
    elif name in panel.checks:
        qtbot.mouseClick(panel.checks[name], Qt.MouseButton.LeftButton)
    elif name == "cutoffs":
        now = panel.conventions.cutoffs
        ks = data.draw(st.lists(st.one_of(st.integers(1, 50), st.none()), min_size=1,
                                max_size=4, unique=True).filter(lambda k: tuple(k) != now))
        edit = panel.cutoffs_edit
        edit.setFocus()
        edit.selectAll()
        qtbot.keyClicks(edit, ", ".join(format_cutoff(k) for k in ks))
        qtbot.keyClick(edit, Qt.Key.Key_Return)
    elif name == "rubric":
        qtbot.mouseClick(panel.findChild(QPushButton, "rubricAddRow"),
                         Qt.MouseButton.LeftButton)
    elif name == "guidelines":  # a description typed in (row: a level of the scale)
        view = panel.guidelines_table
        panel.set_grades_seen(np.array([0.0, 2.0]))  # a scale (none listed without one)
        row = data.draw(st.integers(0, view.model().rowCount() - 1))
        view.setFocus()
        view.setCurrentIndex(view.model().index(row, 2))
        qtbot.keyClick(view, Qt.Key.Key_F2)
        editor = view.focusWidget()
        assert editor is not view
        qtbot.keyClicks(editor, data.draw(st.sampled_from(["on topic", "answers it"])))
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        QApplication.processEvents()  # the delegate commits on a queued call
    else:  # pragma: no cover - a field without a driven control fails here
        raise AssertionError(f"no way to drive the control of {name}")


@pytest.mark.parametrize("name", CONTROLLED)
@pytest.mark.parametrize("preset_name", list(PRESETS))
@settings(max_examples=6, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_one_control_changes_exactly_its_field(qtbot, panel, preset_name: str, name: str,
                                               data: st.DataObject) -> None:
    start = PRESETS[preset_name].replace(
        cutoffs=data.draw(st.sampled_from([(None,), (10,), (1, 5, None)])))
    panel.set_conventions(start)
    panel.edits.clear()
    if name in panel.combos and panel.combos[name].count() == 1:
        # One choice (the log2 discount): shown, and nothing else to pick.
        assert panel.combos[name].currentData() == FIELD[name].write(FIELD[name].get(start))
        return
    _drive(qtbot, panel, name, data)
    assert len(panel.edits) == 1, panel.edits
    new = panel.edits[0]
    for f in FIELDS:
        if f.name == name:
            assert f.get(new) != f.get(start), f.name
        else:
            assert f.get(new) == f.get(start), (name, f.name)
    # The panel shows what it proposed.
    assert panel.conventions == new


@pytest.mark.parametrize("preset_name", list(PRESETS))
def test_a_preset_button_sets_the_preset_fields(qtbot, panel, preset_name: str) -> None:
    start = Conventions(cutoffs=(3, None), weighting="frequency", rubric=None)
    panel.set_conventions(start)
    qtbot.mouseClick(panel.preset_buttons[preset_name], Qt.MouseButton.LeftButton)
    new = panel.edits[-1]
    assert new == PRESETS[preset_name].replace(cutoffs=(3, None), weighting="frequency")
    for f in FIELDS:
        if not f.preset and f.name != "preset":
            assert f.get(new) == f.get(start), f.name


@pytest.mark.parametrize("preset_name", list(PRESETS))
def test_the_gain_tables_buttons_show_only_with_its_table(qtbot, panel,
                                                           preset_name: str) -> None:
    """The bug: under a linear or exponential gain the table was hidden but
    its Add and Remove stayed, and a click on Add (a row of a table not shown)
    turned exponential gain into the table 0=0, every other grade's gain its
    grade: linear gain under another name. Now the buttons come and go with
    the table, and a table chosen in the combo is filled from the rubric."""
    start = PRESETS[preset_name]
    panel.set_conventions(start.replace(gain=replace(start.gain, rule="exponential")))
    add = panel.findChild(QPushButton, "gainAddRow")
    remove = panel.findChild(QPushButton, "gainRemoveRow")
    assert not panel.gain_table.isVisibleTo(panel)
    assert not add.isVisibleTo(panel)
    assert not remove.isVisibleTo(panel)
    combo = panel.gain_combo
    combo.setFocus()
    while combo.currentData() != "table":
        qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert panel.edits[-1].gain.rule.takes_table
    assert add.isVisibleTo(panel)
    assert remove.isVisibleTo(panel)
    rows = len(panel.edits[-1].gain.table)
    qtbot.mouseClick(add, Qt.MouseButton.LeftButton)
    assert len(panel.edits[-1].gain.table) == rows + 1
    qtbot.keyClick(combo, Qt.Key.Key_Up)  # back to a rule with no table
    assert not panel.edits[-1].gain.rule.takes_table
    assert not add.isVisibleTo(panel)


def test_no_wrapped_text_is_a_row_of_a_form(panel) -> None:
    """The cutoffs' formula and error were rows of a QFormLayout, which gave
    a wrapped label the height of its lines at a wider box: at 10 pt in a
    1280x800 side column (Xvfb, the window opened empty and an annotators'
    sheet imported into it) the formula's four lines got three lines' height,
    drawn centred, its first and last line cut. Every wrapped text of the
    panel is laid out by a column, which follows the label's height for its
    width."""
    in_forms = [label.objectName() for label in panel.findChildren(QLabel)
                if label.wordWrap() and any(
                    form.indexOf(label) >= 0 for form in panel.findChildren(QFormLayout))]
    assert in_forms == []
    panel.set_conventions(Conventions())
    formula = panel.findChild(QLabel, "cutoffsFormula")
    assert formula.text().startswith("the same k cuts")
    panel.resize(300, 900)
    QApplication.processEvents()
    assert formula.height() >= formula.heightForWidth(formula.width())
