"""Banners above the grid, and the one shown when a TREC run's candidates are not all judged.

A run joined with qrels gives every retrieved candidate the qrels do not
judge an unknown grade; under the default rule (unknown grades leave NDCG
unresolved) nearly every query is then unresolved. The banner says how many
candidates are unjudged and offers the three ways out in one click: count
them as not relevant (what trec_eval does), condense the lists (drop them
before ranking), or keep the queries unresolved. A choice changes the
conventions' ``unknown`` rule through the window, so it is one undo step.

Wire it with ``install_banner(window)``; :meth:`UnjudgedBanner.offer` shows it
when there is something to say.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout

from app.scheme import tint
from core.analysis.aggregate import unjudged_candidates, unjudged_what
from core.model.conventions import UnknownRule
from core.model.numbers import agreed, counted

if TYPE_CHECKING:
    from app.window_api import WindowApi

__all__ = ["Banner", "JudgmentsOnlyBanner", "UnjudgedBanner", "choose_unknown_rule",
           "install_banner", "install_judgments_only_banner"]


class Banner(QFrame):
    """A framed message above the grid: a text (rich text allowed) over a row
    of buttons, hidden until there is something to say. Subclasses add their
    buttons with :meth:`add_button`."""

    def __init__(self, window: WindowApi, name: str, background: str, border: str) -> None:
        """``background`` and ``border``: tones of :data:`app.models.looks.TONES`."""
        super().__init__(window)
        self.setObjectName(name)
        self.window_ = window
        self.setFrameShape(QFrame.Shape.StyledPanel)
        tint(self, f"#{name} {{{{ background: {{}}; border: 1px solid {{}} }}}}",
             background, border)
        self.text = QLabel(self)
        self.text.setObjectName(name.replace("Banner", "Text"))
        self.text.setWordWrap(True)
        self._row = QHBoxLayout()
        self._row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.text)
        layout.addLayout(self._row)
        self.hide()

    def add_button(self, name: str, label: str, tip: str = "") -> QPushButton:
        """A button (objectName ``name``) at the end of the row."""
        button = QPushButton(label, self)
        button.setObjectName(name)
        if tip:
            button.setToolTip(tip)
        self._row.insertWidget(self._row.count() - 1, button)
        return button


def choose_unknown_rule(window: WindowApi, rule: UnknownRule) -> None:
    """Apply ``rule`` to unknown grades, one undo step, and say so (the
    banner's choices, and the comparison dock's when no query is compared)."""
    if rule is window.conventions.unknown:
        return
    problem = window.change_conventions(window.conventions.replace(unknown=rule),
                                        f"unknown: {rule.label}")
    if problem is None:
        window.show_message(window.tr("Unknown grades: {0}. Edit > Undo brings the previous "
                                      "rule back.").format(rule.label))


class UnjudgedBanner(Banner):
    """The unjudged-candidates banner (objectName ``unjudgedBanner``)."""

    #: (objectName, button text, rule, tooltip) of the choices.
    CHOICES = (
        ("treatAsNotRelevant", "Count as not relevant", UnknownRule.ZERO,
         "trec_eval's rule: an unjudged candidate gains 0, so every query gets an NDCG"),
        ("condenseLists", "Condense the lists", UnknownRule.CONDENSED,
         "Unjudged candidates are removed before ranking (condensed lists, Sakai 2007)"),
        ("keepUnresolved", "Keep unresolved", UnknownRule.UNRESOLVED,
         "Leave the rule as it is: judge the candidates, and each query resolves when its "
         "last unknown grade is set"),
    )

    def __init__(self, window: WindowApi) -> None:
        super().__init__(window, "unjudgedBanner", "notice", "notice_border")
        self.buttons: dict[str, QPushButton] = {}
        for name, label, rule, tip in self.CHOICES:
            button = self.add_button(name, self.tr(label), self.tr(tip))
            button.clicked.connect(lambda _=False, r=rule: self.choose(r))
            self.buttons[name] = button
        #: Shown by :meth:`offer` for this document, and no choice taken
        #: since: a grade set (or undone) says the counts again, or closes it
        #: once nothing is unjudged (an undo shows it again).
        self._following = False
        window.document_replaced.connect(lambda _doc: self._close())
        window.conventions_changed.connect(self._conventions_changed)
        window.grade_changed.connect(lambda _row: self._following and self.offer())

    def offer(self) -> bool:
        """Show the banner when candidates are unjudged and leave queries
        unresolved; True when shown."""
        found = unjudged_candidates(self.window_.evaluation)
        if found is None:
            self.hide()
            return False
        self._following = True
        kinds = found.reasons  # (some retrieved declined in the qrels)
        what = (self.tr("<b>{0} of {1} {2} not in the qrels</b> (unjudged)") if not kinds
                else "<b>{0} of {1} {2} " + unjudged_what(found.unknown, kinds) + "</b>")
        self.text.setText((what + self.tr(
            ", so NDCG "
            "is unresolved for {3} of {4}. Count them as not relevant (like "
            "trec_eval), drop them (condensed lists), or keep the queries unresolved and "
            "judge the candidates.")).format(
                f"{found.unknown:,}", counted(found.retrieved, "retrieved candidate",
                                              grouped=True), agreed(found.unknown, "is"),
                f"{found.unresolved:,}", counted(found.queries, grouped=True)))
        self.show()
        return True

    def choose(self, rule: UnknownRule) -> None:
        """Apply ``rule`` to unknown grades (one undo step) and close the banner."""
        self._close()
        choose_unknown_rule(self.window_, rule)

    def _close(self) -> None:
        self._following = False
        self.hide()

    def _conventions_changed(self, conventions: Any) -> None:
        if conventions.unknown is not UnknownRule.UNRESOLVED:
            self._close()


class JudgmentsOnlyBanner(Banner):
    """Said when no candidate of the document has a score or a rank (an
    annotators' sheet of judgments): the rows are in the sheet's order, which
    is no ranking, so no NDCG is claimed for it (objectName
    ``judgmentsOnlyBanner``)."""

    def __init__(self, window: WindowApi) -> None:
        super().__init__(window, "judgmentsOnlyBanner", "info", "info_border")
        window.document_replaced.connect(lambda _doc: self.offer())

    def offer(self) -> bool:
        """Show the banner when the document holds judgments only; True when shown."""
        doc = self.window_.document
        if not len(doc) or bool(np.isfinite(doc.score).any()):
            self.hide()
            return False
        # Imported here: the wizard's words (and the import they name) are not
        # loaded at start-up (tests/test_startup.py).
        from app.import_wizard.hints import ROWS_RANKED

        self.text.setText(self.tr(
            "<b>Judgments only: join a run to evaluate.</b> No candidate has a score or a "
            "rank, so the rows are in the sheet's order, which is no ranking, and no NDCG is "
            "claimed for it. Grade here and save; then open a run with File > Open… and "
            "choose the saved file when it asks for the run's qrels; or, if the sheet's row "
            "order is a ranking, import it again with File > Import annotators' sheet… and "
            "tick “{0}”.").format(self.tr(ROWS_RANKED)))
        self.show()
        return True


def install_judgments_only_banner(window: WindowApi) -> JudgmentsOnlyBanner:
    """Put the (hidden) judgments-only banner above ``window``'s grid."""
    banner = JudgmentsOnlyBanner(window)
    window.grid_panel.add_banner(banner)
    banner.offer()
    return banner


def install_banner(window: WindowApi) -> UnjudgedBanner:
    """Put the (hidden) unjudged-candidates banner above ``window``'s grid."""
    banner = UnjudgedBanner(window)
    window.grid_panel.add_banner(banner)
    return banner
