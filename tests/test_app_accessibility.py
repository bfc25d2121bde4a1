"""Accessible to every reviewer (issue 29): every control named for a screen
reader, in the main window, its docks and every dialog and wizard page."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QKeySequence, QPalette
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMessageBox,
    QPushButton,
    QWidget,
    QWizard,
)

import app.scheme as scheme_module
from app.accessibility import (
    contrast_ratio,
    mnemonic,
    relative_luminance,
    spoken_name,
    unnamed_controls,
    with_mnemonics,
)
from app.help import HelpMenu
from app.import_wizard.report import ImportReportDialog
from app.import_wizard.wizard import ImportWizard
from app.models.looks import STATUS_LOOK, TONES
from app.preferences import PreferencesDialog
from app.review.rounds import HandOutDialog, MergeDialog
from app.scheme import PALETTE_PAIRS, apply_palette, dark_palette, is_dark, readable
from core.engine.evaluation import Status
from core.io.annotator import import_annotations, preview
from core.model.conventions import Conventions

WIDE_CSV = """query,doc,model_conf,grade_alice,grade_bob,notes
q1,d1,0.9,relevant,relevant,
q1,d2,0.7,partial,not relevant,checked
q2,d4,0.5,relevant,5,
"""


@pytest.fixture
def wide_csv(tmp_path: Path) -> Path:
    path = tmp_path / "wide.csv"
    path.write_text(WIDE_CSV, encoding="utf-8")
    return path


def _opened(qtbot: Any, window: Any, action: str, kind: type[QDialog]) -> QDialog:
    """The dialog ``action`` opens (not modal), as the reviewer opens it."""
    window.app_actions[action].trigger()
    dialog = window.findChild(kind)
    assert dialog is not None, f"{action} opened no {kind.__name__}"
    qtbot.addWidget(dialog)
    return dialog


def test_the_audit_finds_a_control_without_a_name(qtbot: Any):
    """The audit itself can fail: a bare box and a symbol-only button are
    found, the same controls named are not."""
    from PySide6.QtWidgets import QComboBox, QLabel, QVBoxLayout

    root = QWidget()
    qtbot.addWidget(root)
    combo = QComboBox(root)
    combo.setObjectName("bare")
    combo.addItem("linear gain")  # its current text is not its name
    arrow = QPushButton("▲", root)
    arrow.setObjectName("arrow")
    QVBoxLayout(root).addWidget(combo)
    assert [n.split()[0] for n in unnamed_controls(root)] == ["bare", "arrow"]
    label = QLabel("&Gain:", root)
    label.setBuddy(combo)
    arrow.setAccessibleName("Previous match")
    assert unnamed_controls(root) == []
    assert spoken_name(combo) == "Gain"


def test_every_control_of_the_main_window_and_its_docks_is_named(window: Any):
    assert unnamed_controls(window) == []


def test_the_grid_and_the_convention_boxes_say_what_they_are(window: Any):
    """The controls the issue found nameless, by the names a reviewer hears."""
    panel = window.conventions_panel
    assert spoken_name(panel.gain_combo) == "Gain rule"
    assert spoken_name(panel.combos["zero_ideal"]) == "Zero ideal"
    assert spoken_name(panel.combos["rounding"]) == "Consensus rounding"
    assert spoken_name(panel.rubric_table) == "Rubric (grade labels)"
    assert spoken_name(window.navigator.filter_edit) == "Filter queries"
    assert spoken_name(window.grid) == "Candidates"
    assert spoken_name(window.audit_view) == "Audit log"


def test_every_dialog_control_is_named(qtbot: Any, window: Any):
    dialogs: list[QDialog] = [PreferencesDialog(window.settings, window),
                              _opened(qtbot, window, "hand_out", HandOutDialog),
                              _opened(qtbot, window, "merge_returned", MergeDialog)]
    help_menu = window.findChild(HelpMenu)
    dialogs.append(help_menu.shortcuts_dialog())
    for dialog in dialogs:
        qtbot.addWidget(dialog)
        assert (dialog.objectName(), unnamed_controls(dialog)) == (dialog.objectName(), [])


def test_every_wizard_page_and_the_report_are_named(qtbot: Any, window: Any, wide_csv: Path):
    wizard = ImportWizard(wide_csv, Conventions(), window)
    qtbot.addWidget(wizard)
    wizard.show()
    qtbot.waitUntil(lambda: not wizard.busy, timeout=10_000)
    seen = []
    for _page in (ImportWizard.SHEET, ImportWizard.MAPPING, ImportWizard.REPORT):
        seen.append(wizard.currentId())
        assert (wizard.currentId(), unnamed_controls(wizard.currentPage())) == (
            wizard.currentId(), [])
        if wizard.currentId() != ImportWizard.REPORT:
            wizard.button(QWizard.WizardButton.NextButton).click()
            qtbot.waitUntil(lambda: not wizard.busy, timeout=10_000)
    assert seen == [ImportWizard.SHEET, ImportWizard.MAPPING, ImportWizard.REPORT]
    result = import_annotations(wide_csv, preview(wide_csv).mapping)
    report = ImportReportDialog(result.report, window)
    qtbot.addWidget(report)
    assert unnamed_controls(report) == []


# -- colours ---------------------------------------------------------------------------
def test_luminance_and_contrast_match_wcag_s_own_figures():
    """WCAG 2.x's definitions, checked on figures worked out by hand: black
    on white is 21:1; #777777 on white is the classic near miss (4.48:1) and
    #767676 the lightest grey that passes (4.54:1)."""
    assert relative_luminance("#ffffff") == pytest.approx(1.0)
    assert relative_luminance("#000000") == pytest.approx(0.0)
    # #808080: channel 128/255 = 0.50196 -> ((0.50196 + 0.055) / 1.055) ** 2.4 = 0.21586
    assert relative_luminance("#808080") == pytest.approx(0.21586, abs=1e-5)
    # pure green weighs 0.7152 of white
    assert relative_luminance("#00ff00") == pytest.approx(0.7152)
    assert contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast_ratio("#ffffff", "#000000") == pytest.approx(21.0)
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.005)
    assert contrast_ratio("#767676", "#ffffff") == pytest.approx(4.54, abs=0.005)


@pytest.fixture
def palettes(qapp: Any) -> dict[str, QPalette]:
    """The light palette the style gives and the dark one, as the window uses them."""
    return {"light": readable(qapp.style().standardPalette()), "dark": readable(dark_palette())}


def _ratio(palette: QPalette, group: QPalette.ColorGroup, text: Any, back: Any) -> float:
    bg = palette.color(group, back)
    fg = palette.color(group, text)
    a = fg.alphaF()  # a translucent role (Qt's placeholder) as it shows over the background
    seen = QColor.fromRgbF(*(a * f + (1 - a) * b for f, b in (
        (fg.redF(), bg.redF()), (fg.greenF(), bg.greenF()), (fg.blueF(), bg.blueF()))))
    return contrast_ratio(seen, bg)


def test_the_style_s_own_light_palette_misses_aa_where_it_is_made_readable(qapp: Any):
    """Fusion's placeholder (half-transparent black, 3.9:1) and its selection
    (white on #308cc6, 3.7:1) fail AA; :func:`readable` fixes both and only them."""
    style = qapp.style().standardPalette()
    group = QPalette.ColorGroup.Active
    role = QPalette.ColorRole
    assert _ratio(style, group, role.PlaceholderText, role.Base) < 4.5
    assert _ratio(style, group, role.HighlightedText, role.Highlight) < 4.5
    fixed = readable(style)
    assert _ratio(fixed, group, role.PlaceholderText, role.Base) >= 4.5
    assert _ratio(fixed, group, role.HighlightedText, role.Highlight) >= 4.5
    assert fixed.color(group, role.HighlightedText) == style.color(group, role.HighlightedText)
    for kept in (role.Text, role.Base, role.Window, role.WindowText, role.Button):
        assert fixed.color(group, kept) == style.color(group, kept)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_palette_role_reads_at_aa(palettes: dict[str, QPalette], scheme: str):
    palette = palettes[scheme]
    assert is_dark(palette) == (scheme == "dark")
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        for text, back, _gives in PALETTE_PAIRS:
            assert (text.name, back.name, round(_ratio(palette, group, text, back), 2) >= 4.5
                    ) == (text.name, back.name, True)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_tone_reads_at_aa_on_what_it_is_drawn_on(palettes: dict[str, QPalette],
                                                       scheme: str):
    """Text tones (the statuses, errors, unknown and unrateable grades, the
    formulas) on every background of the palette and every background tone;
    the background tones under the palette's text; the plots' marks at 3:1
    (WCAG's least for graphical objects) on the base and window colours
    they are drawn on (app.plots.ground)."""
    palette = palettes[scheme]
    role = QPalette.ColorRole
    pick = (lambda t: t.dark) if scheme == "dark" else (lambda t: t.light)
    grounds = {r.name: palette.color(r) for r in (role.Base, role.AlternateBase,
                                                    role.Window, role.Button)}
    grounds |= {name: QColor(pick(t)) for name, t in TONES.items() if t.kind == "background"}
    low = []
    for name, tone in TONES.items():
        if tone.kind == "text":
            low += [(name, g, round(contrast_ratio(pick(tone), c), 2)) for g, c in grounds.items()
                    if contrast_ratio(pick(tone), c) < 4.5]
        elif tone.kind == "background":
            for text in (role.Text, role.WindowText):
                if contrast_ratio(palette.color(text), pick(tone)) < 4.5:
                    low.append((text.name, name, contrast_ratio(palette.color(text), pick(tone))))
        elif tone.kind == "graphic":
            low += [(name, r.name, round(contrast_ratio(pick(tone), palette.color(r)), 2))
                    for r in (role.Base, role.Window)
                    if contrast_ratio(pick(tone), palette.color(r)) < 3.0]
    assert low == []
    assert {t.kind for t in TONES.values()} == {"text", "background", "border", "graphic"}
    assert {look.tone for look in STATUS_LOOK.values()} <= set(TONES)


def test_no_colour_is_written_outside_the_declared_tones():
    """Every colour the window paints text, cells or plots with comes from
    TONES or the palette (the splash draws on its own white ground)."""
    import re

    app_dir = Path(__file__).resolve().parent.parent / "app"
    own = {"models/looks.py", "scheme.py", "main.py"}
    written = []
    for path in sorted(app_dir.rglob("*.py")):
        rel = path.relative_to(app_dir).as_posix()
        if rel in own:
            continue
        written += [f"{rel}: {m}" for m in re.findall(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b",
                                                        path.read_text(encoding="utf-8"))]
    assert written == []


@pytest.fixture
def restore_palette(qapp: Any):
    before = QPalette(qapp.palette())
    yield
    apply_palette(qapp, before)


def test_the_window_follows_the_system_into_dark_and_back(
        qapp: Any, window: Any, monkeypatch: pytest.MonkeyPatch, restore_palette: None):
    """A dark system: a dark palette, the status label, the filter boxes and
    the grid's unknown grades in their dark variants; light again: back."""
    from app.models.candidates import GridColumn
    from core.model.document import GradeState

    status_box = window.navigator.status_boxes[Status.UNRESOLVED]
    model = window.grid_model
    assert window.set_grade(0, None, GradeState.UNKNOWN)
    row = model.row_of(0)
    assert row is not None
    unknown = model.index(row, GridColumn.GRADE)
    for dark in (True, False):
        monkeypatch.setattr(scheme_module, "system_is_dark", lambda _app, d=dark: d)
        scheme_module.follow_system(qapp)
        tone = TONES["unresolved"]
        expected = tone.dark if dark else tone.light
        assert is_dark(qapp.palette()) is dark
        assert status_box.styleSheet() == f"color: {expected}"
        muted = TONES["muted"].dark if dark else TONES["muted"].light
        assert model.data(unknown, Qt.ItemDataRole.ForegroundRole).color().name() == muted
    window.session.mark_saved()  # (pytest-qt closes the window before the fixture ends)


def test_a_dark_palette_set_directly_brings_the_dark_tones(
        qapp: Any, window: Any, restore_palette: None):
    """A dark palette given without a colour-scheme signal (a platform theme
    such as qt6ct's or KDE's, or ``QApplication.setPalette``): the status
    boxes and every coloured cell of the navigator, the grid and the
    summary's table, for every query, take their dark tone, at AA on what
    they are painted on (the cell's background tone, else the view's base;
    the light ones read at 2.4-2.6:1 on #1e1e1e); a light palette set so
    brings the light ones back."""
    from core.model.document import GradeState

    assert window.set_grade(0, None, GradeState.UNKNOWN)  # a muted "unknown" in the grid
    views = (window.navigator.view, window.grid, window.summary_panel.table)
    for palette, dark in ((dark_palette(), True), (qapp.style().standardPalette(), False)):
        QApplication.setPalette(palette)
        qapp.processEvents()
        assert is_dark(window.navigator.view.palette()) is dark
        low = []
        for status, box in window.navigator.status_boxes.items():
            tone = TONES[STATUS_LOOK[status].tone]
            assert box.styleSheet() == f"color: {tone.dark if dark else tone.light}"
            ground = box.palette().color(QPalette.ColorRole.Window)
            if contrast_ratio(QColor(tone.dark if dark else tone.light), ground) < 4.5:
                low.append((status.name, "box"))
        painted = set()
        for q in range(window.document.n_queries):
            window.set_query(q)
            for view in views:
                painted |= _low_cells(view, low)
        assert low == []
        assert len(painted) >= 4  # (ok, undefined, unresolved, unknown grades)
    window.session.mark_saved()


def _low_cells(view: Any, low: list[Any]) -> set[str]:
    """The foreground colours ``view``'s model paints; each one that reads
    under AA on its cell's background (or the view's base) added to ``low``."""
    model, base = view.model(), view.palette().color(QPalette.ColorRole.Base)
    seen = set()
    for row in range(model.rowCount()):
        for col in range(model.columnCount()):
            index = model.index(row, col)
            fg = index.data(Qt.ItemDataRole.ForegroundRole)
            if fg is None:
                continue
            bg = index.data(Qt.ItemDataRole.BackgroundRole)
            ground = bg.color() if bg is not None and bg.style() != Qt.BrushStyle.NoBrush else base
            seen.add(fg.color().name())
            if contrast_ratio(fg.color(), ground) < 4.5:
                low.append((view.objectName(), row, col, fg.color().name(), ground.name()))
    return seen


# -- where a cell is, what changed -----------------------------------------------------
def test_a_grid_cell_says_its_column_query_and_source(window: Any):
    """The grid hides its row numbers (the rank column says where a row is):
    a screen reader gets the column, the query and the candidate with each cell."""
    from PySide6.QtGui import QAccessible

    from app.models.candidates import GridColumn

    doc = window.document
    model = window.grid_model
    row = model.row_of(0)
    assert row is not None
    expected = (f"Grade, query {doc.query_ids[int(doc.query[0])]}, "
                f"source {doc.source_text(0)}")
    cell = model.index(row, GridColumn.GRADE)
    assert model.data(cell, Qt.ItemDataRole.AccessibleDescriptionRole) == expected
    table = QAccessible.queryAccessibleInterface(window.grid)
    said = {}
    for n in range(table.childCount()):
        cell = table.child(n).tableCellInterface()
        if cell is not None:
            said[(cell.rowIndex(), cell.columnIndex())] = table.child(n).text(
                QAccessible.Text.Description)
    assert said[(row, int(GridColumn.GRADE))] == expected


@pytest.mark.usefixtures("never_block")
def test_a_note_cell_says_its_note_or_no_note(qtbot: Any, window: Any):
    """The Note column's cells said where they are and nothing of the note
    (the cell shows a long one elided, its line breaks marked): a screen
    reader now says the whole note, or that there is none, as the audit log
    writes them."""
    from PySide6.QtGui import QAccessible

    from app.models.candidates import GridColumn

    doc = window.document
    model = window.grid_model
    window.set_query(int(doc.query[0]))
    first, second = (int(model.candidate(r)) for r in range(2))
    note = "Two pages in one: ask the lead before grading it, whichever way it reads"
    assert window.set_note(first, note)
    where = [f"Note, query {doc.query_ids[int(doc.query[i])]}, source {doc.source_text(i)}"
             for i in (first, second)]
    expected = {0: f"{where[0]}, note: {note}", 1: f"{where[1]}, no note"}
    table = QAccessible.queryAccessibleInterface(window.grid)
    said = {}
    for n in range(table.childCount()):
        cell = table.child(n).tableCellInterface()
        if cell is not None and cell.columnIndex() == int(GridColumn.NOTE):
            said[cell.rowIndex()] = table.child(n).text(QAccessible.Text.Description)
    assert {r: said[r] for r in expected} == expected
    # the grade's cell says where it is, as before
    grade = model.index(0, GridColumn.GRADE)
    assert model.data(grade, Qt.ItemDataRole.AccessibleDescriptionRole) == (
        f"Grade, {where[0].partition(', ')[2]}")


def test_a_refused_grade_and_a_field_error_are_announced(qtbot: Any, window: Any):
    """Not only red text or a passing message: the status bar and the field
    carry the sentence for a screen reader."""
    from core.model.conventions import Gain, GainRule

    window.change_conventions(window.conventions.replace(gain=Gain(GainRule.EXPONENTIAL)))
    assert not window.set_grade(0, -1.0)
    bar = window.statusBar()
    assert bar.currentMessage()
    assert bar.accessibleDescription() == bar.currentMessage()
    field = window.conventions_panel.cutoffs_edit
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "0")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    error = window.conventions_panel.field_errors["cutoffs"].text()
    assert "at least 1" in error
    assert field.accessibleDescription() == error
    window.conventions_panel.clear_errors()
    assert field.accessibleDescription() == "One or more cutoffs, comma separated: 1, 5, all"
    window.session.mark_saved()  # (pytest-qt closes the window before the fixture ends)


# -- tab order -------------------------------------------------------------------------
def _tab_chain(root: QWidget) -> list[QWidget]:
    """The controls inside ``root`` that Tab reaches, in the order it does."""
    chain: list[QWidget] = []
    widget = root.nextInFocusChain()
    tab = Qt.FocusPolicy.TabFocus.value
    while widget is not root and len(chain) < 1000:
        if (root.isAncestorOf(widget) and widget.isVisible() and widget.isEnabled()
                and widget.focusPolicy().value & tab and widget.focusProxy() is None):
            chain.append(widget)
        widget = widget.nextInFocusChain()
    return chain


def tab_order_problems(root: QWidget) -> list[str]:
    """Steps of the Tab chain that go back against the reading order: to a
    control wholly above the one before (unless it starts a column wholly to
    the right: a page of two columns reads the left one first), or on the
    same line wholly left of it."""
    from PySide6.QtCore import QPoint, QRect

    def rect(w: QWidget) -> QRect:
        return QRect(w.mapTo(root, QPoint(0, 0)), w.size())

    chain = _tab_chain(root)
    problems = []
    for a, b in pairwise(chain):
        ra, rb = rect(a), rect(b)
        above = rb.bottom() < ra.top() and not rb.left() > ra.right()
        same_line = not above and rb.top() <= ra.bottom() and ra.top() <= rb.bottom()
        if above or (same_line and rb.right() < ra.left()):
            problems.append(f"{a.objectName() or type(a).__name__} -> "
                            f"{b.objectName() or b.accessibleName() or type(b).__name__}")
    return problems


def test_the_tab_order_checker_sees_a_step_backwards(qtbot: Any):
    from PySide6.QtWidgets import QHBoxLayout, QLineEdit

    root = QWidget()
    qtbot.addWidget(root)
    row = QHBoxLayout(root)
    edits = []
    for name in ("left", "middle", "right"):
        edit = QLineEdit(root)
        edit.setObjectName(name)
        row.addWidget(edit)
        edits.append(edit)
    root.show()
    qtbot.waitExposed(root)
    assert [w.objectName() for w in _tab_chain(root)] == ["left", "middle", "right"]
    assert tab_order_problems(root) == []
    QWidget.setTabOrder(edits[0], edits[2])
    assert [w.objectName() for w in _tab_chain(root)] == ["left", "right", "middle"]
    assert tab_order_problems(root) == ["right -> middle"]


@pytest.mark.parametrize("width", [1280, 960])  # two side columns; one (a 2x screen)
def test_tab_follows_the_reading_order_in_every_dock(qtbot: Any, window: Any, width: int):
    window.workplace.reset(QRect(0, 0, width, width * 9 // 16))
    qtbot.wait(1)
    assert window.workplace.one_side == (width < window.workplace.one_side_below())
    for dock in window.docks.values():
        dock.show()
    window.summary_panel.next_button.show()
    window.find_bar.show()
    for root in (window.navigator, window.summary_panel, window.conventions_panel,
                 window.audit_view, window.find_bar, *(d.widget() for d in window.docks.values())):
        assert (root.objectName(), tab_order_problems(root)) == (root.objectName(), [])


def test_tab_follows_the_reading_order_in_every_dialog(qtbot: Any, window: Any, wide_csv: Path):
    dialogs: list[QWidget] = [PreferencesDialog(window.settings, window),
                              _opened(qtbot, window, "hand_out", HandOutDialog),
                              _opened(qtbot, window, "merge_returned", MergeDialog)]
    for dialog in dialogs:
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        assert (dialog.objectName(), tab_order_problems(dialog)) == (dialog.objectName(), [])
    wizard = ImportWizard(wide_csv, Conventions(), window)
    qtbot.addWidget(wizard)
    wizard.show()
    for _page in range(3):
        qtbot.waitUntil(lambda: not wizard.busy, timeout=10_000)
        page = wizard.currentPage()
        assert (page.objectName(), tab_order_problems(page)) == (page.objectName(), [])
        wizard.button(QWizard.WizardButton.NextButton).click()


def _letters(root: QWidget) -> tuple[list[str], list[str]]:
    """The texts of ``root``'s labels of a control and of its buttons and
    boxes (but its OK and Cancel) that underline no letter, and the letters
    underlined twice among them, its OK and Cancel, and ``root``'s wizard's
    buttons."""
    texts = [w.text() for w in root.findChildren(QLabel) if w.buddy() is not None]
    texts += [w.text() for w in root.findChildren(QAbstractButton)
              if w.text() and not isinstance(w.parent(), QDialogButtonBox)]
    others = [b.text() for b in root.findChildren(QAbstractButton)
              if isinstance(b.parent(), QDialogButtonBox)]
    wizard = root.window()
    if isinstance(wizard, QWizard):
        others += [wizard.buttonText(b) for b in (QWizard.WizardButton.NextButton,
                                                  QWizard.WizardButton.BackButton,
                                                  QWizard.WizardButton.FinishButton)]
    letters = [m for m in map(mnemonic, texts + others) if m]
    return ([t for t in texts if mnemonic(t) is None],
            sorted({m for m in letters if letters.count(m) > 1}))


def test_alt_and_a_letter_reaches_every_field_of_the_dialogs(qtbot: Any, window: Any,
                                                            wide_csv: Path):
    """Each label of a field and each button and box of the dialogs
    underlines a letter of its own (Preferences, Hand out and Merge
    underlined none but Merge's "ratings"; the wizard's pages none), and
    Alt+letter typed moves the focus there."""
    prefs = PreferencesDialog(window.settings, window)
    dialogs: list[QDialog] = [prefs, _opened(qtbot, window, "hand_out", HandOutDialog),
                              _opened(qtbot, window, "merge_returned", MergeDialog)]
    for dialog in dialogs:
        qtbot.addWidget(dialog)
        assert (dialog.objectName(), _letters(dialog)) == (dialog.objectName(), ([], []))
    for dialog in dialogs[1:]:
        dialog.reject()  # (window-modal: keys typed in Preferences would wait)
    prefs.show()
    qtbot.waitExposed(prefs)
    prefs.activateWindow()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is prefs.reviewer)
    assert [w.text() for w in prefs.findChildren(QLabel) if w.buddy() is not None] == [
        "&Reviewer name:", "&Decimals shown:"]
    # (typed as the window system hands it on, through the shortcuts)
    QTest.keySequence(QApplication.focusWidget(), QKeySequence("Alt+D"))
    assert QApplication.focusWidget() is prefs.decimals
    QTest.keySequence(QApplication.focusWidget(), QKeySequence("Alt+M"))
    assert QApplication.focusWidget() is prefs.advance
    wizard = ImportWizard(wide_csv, Conventions(), window)
    qtbot.addWidget(wizard)
    wizard.show()
    qtbot.waitUntil(lambda: not wizard.busy, timeout=10_000)
    sheet, _ = _letters(wizard.sheet_page)
    mapping, twice = _letters(wizard.mapping_page)
    # (The conventions' last three boxes found no letter left: the columns'
    # roles, Next, Back and Finish took every letter of theirs.)
    assert (sheet, mapping, twice) == ([], [], [])


def test_alt_and_a_letter_reaches_every_field_of_the_wizards_mapping_page(
        qtbot: Any, window: Any, wide_csv: Path):
    """Typed on the "Columns and grades" page, Alt and the letter each
    label underlines moves the focus to its field, the rubric, the
    consensus and its rounding too (underlined none: the greedy choice had
    given their letters to the columns' roles, which had others to spare)."""
    wizard = ImportWizard(wide_csv, Conventions(), window)
    qtbot.addWidget(wizard)
    wizard.show()
    qtbot.waitExposed(wizard)
    qtbot.waitUntil(lambda: not wizard.busy, timeout=10_000)
    qtbot.mouseClick(wizard.button(QWizard.WizardButton.NextButton), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: wizard.currentPage() is wizard.mapping_page and not wizard.busy,
                    timeout=10_000)
    page = wizard.mapping_page
    labels = [w for w in page.findChildren(QLabel) if w.buddy() is not None]
    assert len(labels) == 17
    reached = []
    for layout_key in (None, Qt.Key.Key_Up):  # the wide layout guessed, then the long
        if layout_key is not None:
            qtbot.keyClick(page.layout_combo, layout_key)
            assert page.layout_combo.currentData() == "long"
        for label in labels:
            if not label.buddy().isEnabled():  # (the other layout's)
                continue
            letter = mnemonic(label.text())
            assert letter is not None, label.text()
            QTest.keySequence(QApplication.focusWidget(), QKeySequence(f"Alt+{letter.upper()}"))
            assert (label.text(), QApplication.focusWidget()) == (label.text(), label.buddy())
            reached.append(label.buddy())
    assert set(reached) == {label.buddy() for label in labels}
    assert [mnemonic(w.text()) for w in labels if w.buddy() in (
        page.rubric, page.consensus, page.rounding)] == ["p", "e", "r"]


def test_a_text_left_without_a_letter_takes_one_an_earlier_text_can_give_up():
    """Greedy, "Rank" took the r "Rubric" needed (its u, b and i taken, its
    c Score's): Rank has an a to spare, and now moves on to it."""
    assert with_mnemonics(["Rank", "Score", "Rubric"], taken=["s", "n", "u", "b", "i"]) == [
        "R&ank", "S&core", "&Rubric"]
    assert with_mnemonics(["ab", "ba", "a"]) == ["&ab", "&ba", "a"]  # (none left: stays)


def test_d_discards_the_unsaved_changes_in_the_question_on_closing(qtbot: Any, qapp: Any):
    """The question on closing a window with unsaved changes underlines a
    letter on each button, and D (Alt+D) discards: Qt's Save, Discard and
    Cancel underlined none (Discard took Tab, Tab, Space)."""
    from PySide6.QtCore import QTimer

    from app.accessibility import letter_standard_buttons
    from tests.test_app_files import _grade, _window

    translator = letter_standard_buttons(qapp)
    try:
        window, _ops = _window(qtbot)
        _grade(window, 0, 2.5)
        seen: list[list[str]] = []

        def answer(key: Qt.Key) -> None:
            box = QApplication.activeModalWidget()
            if isinstance(box, QMessageBox):
                seen.append([b.text() for b in box.buttons()])
                QTest.keyClick(box, key)
            elif key == Qt.Key.Key_D and not seen:  # (the question not up yet: a busy host)
                QTimer.singleShot(50, lambda: answer(key))

        QTimer.singleShot(50, lambda: answer(Qt.Key.Key_D))
        # (were D to do nothing, Escape ends the question: Cancel, not closed)
        QTimer.singleShot(3000, lambda: answer(Qt.Key.Key_Escape))
        assert window._may_close()
        assert sorted(seen[0]) == ["&Cancel", "&Discard", "&Save"]
        assert [mnemonic(t) for t in seen[0]].count("d") == 1
    finally:
        qapp.removeTranslator(translator)
    box = QMessageBox(QMessageBox.Icon.Question, "t", "x",
                      QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel)
    assert sorted(b.text() for b in box.buttons()) == ["Cancel", "Discard"]  # removed: Qt's own
