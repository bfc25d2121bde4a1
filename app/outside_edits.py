"""A banner above the grid when a reopened workbook was edited outside the app.

A reviewer who changes k or the gain rule in the workbook's Conventions sheet
(or grades in Candidates) and reopens the file gets those edits as the
document's, each recorded in the audit log (origin "outside the app"). The
window says so where the eye is: this banner lists what was taken and which
convention cells were refused (with their cells: the stored conventions
stayed), with a button that shows the audit log. It closes on its button and
when another document is shown.

Wire it with ``install_outside_edits(window)``; :meth:`OutsideEditsBanner.offer`
shows it for a document when its reopening found something.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from app.banner import Banner
from app.panels.audit import AuditLogView
from core.io.workbook import OUTSIDE_ORIGIN, reopened
from core.model.document import Document

if TYPE_CHECKING:
    from app.window_api import WindowApi

__all__ = ["OutsideEditsBanner", "install_outside_edits"]


class OutsideEditsBanner(Banner):
    """The edited-outside banner (objectName ``outsideEditsBanner``)."""

    def __init__(self, window: WindowApi) -> None:
        super().__init__(window, "outsideEditsBanner", "info", "info_border")
        self.show_log = self.add_button("showAuditLog", self.tr("Show the audit log"))
        self.show_log.clicked.connect(self._show_log)
        self.close_button = self.add_button("closeOutsideEdits", self.tr("Close"))
        self.close_button.clicked.connect(self._close)
        self._said = ""  # the status bar's pointer to the banner
        window.document_replaced.connect(self.offer)

    def offer(self, doc: Document) -> bool:
        """Show what reopening ``doc``'s workbook took or refused; True when shown."""
        found = reopened(doc)
        if found is None or found.empty:
            self.hide()
            return False
        lines = found.lines()
        import html  # (here: a run's launch asks offer and never shows the banner, hopen15)

        self.text.setText(
            f"<b>{html.escape(lines[0], quote=False)}</b>"
            + "".join(f"<br>{html.escape(line.strip(), quote=False)}" for line in lines[1:]))
        self.show()
        self._said = self.tr("{0} was edited outside the app: see the banner above the "
                             "grid").format(Path(found.file).name)
        self.window_.show_message(self._said, 12000)
        return True

    def _close(self) -> None:
        """Hidden, and the status bar's pointer to it with it (it said 'see
        the banner above the grid' for up to 12 s over no banner)."""
        self.hide()
        bar = self.window_.statusBar()
        if bar.currentMessage() == self._said:
            bar.clearMessage()

    def _show_log(self) -> None:
        """The audit log shown, its entries from the spreadsheet selected and
        in view (it showed the log's first rows, the edits further down)."""
        dock = self.window_.docks.get("auditLogDock")
        if dock is not None:
            dock.show()
            dock.raise_()
            view = dock.widget()
            if isinstance(view, AuditLogView):
                view.show_origin(OUTSIDE_ORIGIN)


def install_outside_edits(window: WindowApi) -> OutsideEditsBanner:
    """Put the (hidden) edited-outside banner above ``window``'s grid."""
    banner = OutsideEditsBanner(window)
    window.grid_panel.add_banner(banner)
    return banner
