"""What assistive technology is told, in one place: a control's name (taken
from its visible label, so the two never differ), announcements of status
changes (a save, a refused grade, an error under a field), and the audit
the tests run over every window and dialog.

The contrast arithmetic (WCAG 2.x relative luminance and contrast ratio)
lives here too: the colours of :mod:`app.models.looks` pick, per palette,
the variant that reads best, and the tests hold every colour to AA.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTranslator
from PySide6.QtGui import QAccessible, QColor
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QDialogButtonBox,
    QGroupBox,
    QLabel,
    QMainWindow,
    QStatusBar,
    QTabBar,
    QWidget,
)

__all__ = ["AA_TEXT", "announce", "announce_status_messages", "buddy_label", "contrast_ratio",
           "label_control", "letter_standard_buttons", "mnemonic", "relative_luminance",
           "spoken_name", "tab_order", "tab_passes", "underline_letters", "unnamed_controls",
           "with_mnemonics", "without_mnemonic"]

#: WCAG 2.x level AA: the least contrast for normal text.
AA_TEXT = 4.5


# -- contrast ---------------------------------------------------------------------------
def _linear(channel: float) -> float:
    """An sRGB channel (0..1) to linear light (WCAG 2.x definition)."""
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def relative_luminance(colour: QColor | str) -> float:
    """WCAG relative luminance of an opaque colour: 0 (black) to 1 (white)."""
    c = QColor(colour)
    r, g, b = (_linear(v / 255) for v in (c.red(), c.green(), c.blue()))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: QColor | str, b: QColor | str) -> float:
    """WCAG contrast ratio of two colours: 1 (same) to 21 (black on white)."""
    la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


# -- names --------------------------------------------------------------------------------
def _plain(text: str) -> str:
    """A label's text as spoken: no mnemonic ampersand, no trailing colon."""
    return without_mnemonic(text).strip().rstrip(":").strip()


def without_mnemonic(text: str) -> str:
    """``text`` with its mnemonic's ampersand taken out (``&&``, a literal
    ampersand, becomes ``&``): a menu item's text where it titles a dock."""
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def mnemonic(text: str) -> str | None:
    """The letter ``text`` underlines (lower case), None if none."""
    at = text.replace("&&", "").find("&")
    rest = text.replace("&&", "")[at + 1:at + 2] if at >= 0 else ""
    return rest.lower() or None


def with_mnemonics(texts: Sequence[str], taken: Iterable[str] = ()) -> list[str]:
    """``texts`` (menu items made from data, a grid's column titles) each
    given the first letter not ``taken`` nor given to an earlier text: a
    word's first letter first, then any letter; a text that has one keeps
    it. A text left with no letter free takes one an earlier text gave up
    for another of its own letters (the import wizard's mapping page: the
    rubric, the consensus and its rounding found every letter of theirs
    taken by the columns' roles, though the roles had letters to spare);
    only one with no letter left at all stays without."""
    used = {letter.lower() for letter in taken}
    used |= {m for m in map(mnemonic, texts) if m}
    choices = [_letter_order(text) if mnemonic(text) is None and "&" not in text else []
               for text in texts]
    at: dict[int, int] = {}  # text -> position of its letter
    holder: dict[str, int] = {}  # letter -> text
    for n, options in enumerate(choices):  # each the first it finds free
        free = next((i for i in options if texts[n][i].lower() not in used | holder.keys()),
                    None)
        if free is not None:
            at[n], holder[texts[n][free].lower()] = free, n
    for n, options in enumerate(choices):  # then letters handed on, where that helps
        if options and n not in at:
            _hand_on(n, texts, choices, used, at, holder, set())
    return [f"{text[:at[n]]}&{text[at[n]:]}" if n in at else text
            for n, text in enumerate(texts)]


def _letter_order(text: str) -> list[int]:
    """The places of ``text``'s letters a mnemonic may take: a word's
    first letter first, then any letter (each letter once)."""
    starts = [i for i, c in enumerate(text) if c.isalnum() and (i == 0 or text[i - 1] == " ")]
    others = [i for i, c in enumerate(text) if c.isalnum() and i not in starts]
    seen: set[str] = set()
    out = []
    for i in (*starts, *others):
        if text[i].lower() not in seen:
            seen.add(text[i].lower())
            out.append(i)
    return out


def _hand_on(n: int, texts: Sequence[str], choices: list[list[int]], used: set[str],
             at: dict[int, int], holder: dict[str, int], seen: set[str]) -> bool:
    """Give text ``n`` a letter, the text holding it moving to another of
    its own in turn (an augmenting path of a bipartite matching); True when
    one was found (``at`` and ``holder`` updated), else nothing moved."""
    for i in choices[n]:
        letter = texts[n][i].lower()
        if letter in used or letter in seen:
            continue
        seen.add(letter)
        other = holder.get(letter)
        if other is None or _hand_on(other, texts, choices, used, at, holder, seen):
            at[n], holder[letter] = i, n
            return True
    return False


def underline_letters(root: QWidget, taken: Iterable[str] = ()) -> None:
    """Every label of a control (a QLabel with a buddy) and every button or
    check box in ``root`` (a dialog, a wizard's page) that underlines no
    letter given one (:func:`with_mnemonics`, in the order Tab reaches them),
    none that ``taken`` holds (a wizard's &Next) or a text there underlines
    already (its OK and Cancel): Alt+letter reaches each control. Call it
    once the controls and their labels are made."""
    chain: list[QWidget] = []
    at = root.nextInFocusChain()
    while at is not None and at is not root and at not in chain:
        if root.isAncestorOf(at):
            chain.append(at)
        at = at.nextInFocusChain()
    labels = {id(label.buddy()): label for label in root.findChildren(QLabel)
              if label.buddy() is not None}
    texts: list[QLabel | QAbstractButton] = []
    for widget in chain:
        label = labels.get(id(widget))
        if label is not None:
            texts.append(label)
        elif (isinstance(widget, QAbstractButton) and widget.text()
              and not isinstance(widget.parent(), QDialogButtonBox)):
            texts.append(widget)
    shown = [w.text() for w in root.findChildren(QLabel)]
    shown += [w.text() for w in root.findChildren(QAbstractButton)]
    given = with_mnemonics([w.text() for w in texts],
                           taken=[*taken, *filter(None, map(mnemonic, shown))])
    for widget, text in zip(texts, given, strict=True):
        widget.setText(text)


#: The standard buttons of the editor's message boxes, each with a letter:
#: Qt's own texts (context "QPlatformTheme") underline only Yes and No, so
#: the unsaved changes' Discard, the question on the only button with no
#: key of its own, took Tab, Tab and Space. Close gives C to Cancel.
STANDARD_BUTTON_LETTERS = {"OK": "&OK", "Save": "&Save", "Cancel": "&Cancel",
                           "Close": "C&lose", "Discard": "&Discard"}


class _StandardButtonLetters(QTranslator):
    """Qt's standard buttons' texts with a letter (:data:`STANDARD_BUTTON_LETTERS`);
    every other text untranslated (None: the next translator is asked)."""

    def translate(self, context: str, source_text: str, /,
                  disambiguation: str | None = None, n: int = -1) -> str | None:
        if context == "QPlatformTheme":
            return STANDARD_BUTTON_LETTERS.get(source_text)
        return None


def letter_standard_buttons(app: QCoreApplication) -> QTranslator:
    """Give the standard buttons of every message box and button box a
    letter (Alt+D, or D alone in a message box, discards the unsaved
    changes). Installed first, a translation of the application's installed
    later is asked before it."""
    translator = _StandardButtonLetters(app)
    app.installTranslator(translator)
    return translator


def label_control(control: QWidget, label: QWidget | str | None, description: str = "") -> None:
    """Name ``control`` after its visible ``label`` (a QLabel becomes its
    buddy: a click or its mnemonic focuses the control) or after a text
    (for a control whose label is a group box title or a column of a layout);
    ``description`` says what the name does not."""
    if isinstance(label, QLabel):
        label.setBuddy(control)
        label = label.text()
    if not isinstance(label, str):  # (a form's label for a field is a QLabel)
        raise TypeError(f"no label text for {control.objectName()}: {label!r}")
    control.setAccessibleName(_plain(label))
    if description:
        control.setAccessibleDescription(description)


def buddy_label(text: str, control: QWidget) -> QLabel:
    """A visible label for ``control`` (beside it, in its parent) that names it."""
    label = QLabel(text, control.parentWidget())
    label_control(control, label)
    return label


def tab_order(*widgets: QWidget) -> None:
    """Tab goes through ``widgets`` in this order (the order they read in)."""
    for before, after in pairwise(widgets):
        QWidget.setTabOrder(before, after)


def tab_passes(view: QAbstractItemView) -> None:
    """Tab and Shift+Tab move the focus on from ``view`` to the next or
    previous control, as from any other (the arrows move within it). Qt's
    table views take Tab to move from cell to cell, which only a grid typed
    into wants (the grade grids): elsewhere Tab never left the table, and
    only F6 got out."""
    view.setTabKeyNavigation(False)


def announce(widget: QWidget, text: str, description: str | None = None) -> None:
    """Tell assistive technology ``text`` about ``widget`` (a status change a
    sighted reviewer sees as a colour or a passing message): as a polite
    announcement where Qt offers one (6.8 and later), and as the widget's
    accessible description (``description`` when given: what it says once
    ``text`` is "" again), which a screen reader reads on focus."""
    widget.setAccessibleDescription(text if description is None else description)
    if not text or not QAccessible.isActive():
        return
    from PySide6 import QtGui

    event_type = getattr(QtGui, "QAccessibleAnnouncementEvent", None)
    if event_type is not None:
        QAccessible.updateAccessibility(event_type(widget, text))
    else:  # older Qt: a description change is what a screen reader hears
        QAccessible.updateAccessibility(
            QtGui.QAccessibleEvent(widget, QAccessible.Event.DescriptionChanged))


def announce_status_messages(bar: QStatusBar) -> None:
    """Every message of the status bar (a save, a refused grade, a finished
    round) announced as it appears, not only shown for a few seconds."""
    bar.messageChanged.connect(lambda text: announce(bar, text))


def spoken_name(widget: QWidget) -> str:
    """The name a screen reader gives ``widget``: its accessible name, else
    the text of the label whose buddy it is, else its own text (a button, a
    check box, a group box's title); "" when it has none."""
    if widget.accessibleName().strip():
        return widget.accessibleName().strip()
    for label in widget.window().findChildren(QLabel):
        if label.buddy() is widget and _plain(label.text()):
            return _plain(label.text())
    if isinstance(widget, QAbstractButton):
        return _plain(widget.text())
    if isinstance(widget, QGroupBox):
        return _plain(widget.title())
    if isinstance(widget, QLabel):
        return _plain(widget.text())
    return ""


def _inside_a_control(widget: QWidget) -> bool:
    """Parts Qt builds inside one control and names itself: a combo box's
    list, a spin box's editor, a tab bar's scroll arrows, the tab bars a main
    window makes for tabbed docks (each tab is named by its dock's title)."""
    if isinstance(widget, QTabBar) and isinstance(widget.parent(), QMainWindow):
        return True
    parent: QObject | None = widget.parent()
    while parent is not None:
        if isinstance(parent, (QComboBox, QAbstractSpinBox, QTabBar)):
            return True
        parent = parent.parent()
    return widget.objectName().startswith("qt_") or type(widget).__name__ in (
        "QComboBoxPrivateContainer", "QComboBoxListView")


def _says_something(name: str) -> bool:
    """A name made only of symbols (▲, ✕) names nothing when spoken."""
    return any(ch.isalnum() for ch in name)


def unnamed_controls(root: QWidget) -> list[str]:
    """Every control under ``root`` (shown or not) that takes the keyboard
    focus and has no spoken name (see :func:`spoken_name`): "objectName
    (class)" each, for a test to list. A read-only label is its own name."""
    found = []
    for widget in [root, *root.findChildren(QWidget)]:
        if widget.focusPolicy() == Qt.FocusPolicy.NoFocus or _inside_a_control(widget):
            continue
        if isinstance(widget, QLabel):
            continue  # a selectable text: it reads itself
        if not _says_something(spoken_name(widget)):
            parent = widget.parent()
            found.append(f"{widget.objectName() or '(no objectName)'} "
                         f"({type(widget).__name__}, in "
                         f"{parent.objectName() if parent is not None else '-'})")
    return found
