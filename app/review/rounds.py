"""Run a review round from the editor: Review > Hand out to reviewers… and
Review > Merge returned workbooks….

Both start from the document shown (the round's base) and do what the
command line's ``split`` and ``merge`` do (:mod:`core.analysis.rounds`,
:mod:`core.io.rounds`): the plan and the reviewers' documents, or the merge,
are worked out by core; the files are read and written off the UI thread
(:func:`app.workers.run_task`). A merge writes the merged workbook and opens
it: its conflicts, if any, show in the Conflicts dock.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.accessibility import announce, label_control, tab_order, underline_letters
from app.actions import ActionSpec
from app.file_formats import WORKBOOK_FILTERS, patterns
from app.save_checks import stale_locks_cleared
from app.scheme import tint
from app.workers import Task, run_task, show_error
from core.analysis.queue import judging_queue
from core.analysis.rounds import HandOut, MergeResult, Returned, merge, now, plan_hand_out
from core.analysis.rounds import reviewer_document as make_reviewer_document
from core.engine.evaluation import evaluate
from core.errors import InputError, NdcgError
from core.io.rounds import (
    check_handed_out,
    check_merged,
    check_outputs,
    read_returned,
    reviewer_path,
    write_merge_report,
    write_workbooks,
)
from core.io.suffixes import WORKBOOK_SUFFIXES
from core.io.workbook.targets import check_workbook_target
from core.model.numbers import counted

if TYPE_CHECKING:
    from app.window_api import WindowApi

__all__ = ["HandOutDialog", "MergeDialog", "RoundsController", "install_rounds"]

#: The least width of a round's dialog, in average characters of its font.
NOTE_WIDTH = 80


def _lay_out(dialog: QDialog, note: str, form: QFormLayout, error_name: str,
            ok: Callable[[], None]) -> tuple[QLabel, QDialogButtonBox]:
    """A round dialog's body: the note, the form, the error line (objectName
    ``error_name``, red) and OK/Cancel (OK calls ``ok``)."""
    text = QLabel(note, dialog)
    text.setWordWrap(True)
    error = QLabel(dialog)
    error.setObjectName(error_name)
    error.setWordWrap(True)
    tint(error, "color: {}", "error")
    buttons = QDialogButtonBox(
        QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, dialog)
    buttons.accepted.connect(ok)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addWidget(text)
    layout.addLayout(form)
    layout.addWidget(error)
    layout.addWidget(buttons)
    # Wide enough for the note in a few lines and a folder's path in view
    # (Hand out was 305 px wide: its note in six lines, the folder's field
    # 120 px); every field and button reached by Alt and a letter.
    width = round(QFontMetricsF(dialog.font()).averageCharWidth() * NOTE_WIDTH)
    dialog.setMinimumWidth(width)
    # Its height for that width (from its size hint's narrower one, the note
    # in three lines left 50 px empty above the buttons).
    width = max(width, layout.sizeHint().width())
    dialog.resize(width, layout.totalHeightForWidth(width))
    underline_letters(dialog)
    return error, buttons


class HandOutDialog(QDialog):
    """Reviewers, overlap, seed and folder (objectName ``handOutDialog``); OK
    hands out, a problem is shown in the dialog."""

    def __init__(self, controller: RoundsController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("handOutDialog")
        self.setWindowTitle(self.tr("Hand out to reviewers"))
        self.controller = controller
        self.reviewers = QLineEdit(self)
        self.reviewers.setObjectName("handOutReviewers")
        self.reviewers.setPlaceholderText(self.tr("ana, ben, cara"))
        self.overlap = QDoubleSpinBox(self)
        self.overlap.setObjectName("handOutOverlap")
        self.overlap.setRange(0.0, 1.0)
        self.overlap.setSingleStep(0.05)
        self.overlap.setToolTip(self.tr("The share of queries given to two reviewers, for "
                                        "agreement"))
        self.seed = QSpinBox(self)
        self.seed.setObjectName("handOutSeed")
        self.seed.setRange(0, 2**31 - 1)
        self.folder = QLineEdit(self)
        self.folder.setObjectName("handOutFolder")
        browse = QPushButton(self.tr("Browse…"), self)
        browse.clicked.connect(self._browse)
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder, 1)
        folder_row.addWidget(browse)
        form = QFormLayout()
        form.addRow(self.tr("Reviewers:"), self.reviewers)
        form.addRow(self.tr("Overlap:"), self.overlap)
        form.addRow(self.tr("Seed:"), self.seed)
        form.addRow(self.tr("Folder:"), folder_row)
        label_control(self.folder, form.labelForField(folder_row))
        label_control(browse, self.tr("Browse for the folder"))
        # (off: a workbook there a reviewer worked on is never replaced, as split's --replace)
        self.replace = QCheckBox(self.tr("Replace workbooks there that reviewers worked on "
                                         "(their grades are lost)"), self)
        self.replace.setObjectName("handOutReplace")
        form.addRow("", self.replace)
        self.error, self.button_box = _lay_out(self, self.tr(
            "Each reviewer gets a workbook with their queries (about the same number of "
            "unknown candidates each), in the order of the judging queue. The base is the "
            "document as it is now: merge the returned workbooks into it as it is now."),
            form, "handOutError", self._ok)

    def _browse(self) -> None:
        name = QFileDialog.getExistingDirectory(self, self.tr("Folder for the reviewers' "
                                                              "workbooks"), self.folder.text())
        if name:
            self.folder.setText(name)

    def _ok(self) -> None:
        try:
            self.controller.hand_out(self.reviewers.text().split(","), self.overlap.value(),
                                     self.seed.value(), self.folder.text().strip(),
                                     replace=self.replace.isChecked())
        except NdcgError as exc:
            self.error.setText(str(exc))
            announce(self.error, str(exc))
            return
        self.accept()


class MergeDialog(QDialog):
    """The returned workbooks, the merged workbook and the report (objectName
    ``mergeDialog``); OK merges into the document shown."""

    def __init__(self, controller: RoundsController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("mergeDialog")
        self.setWindowTitle(self.tr("Merge returned workbooks"))
        self.controller = controller
        self.files = QListWidget(self)
        self.files.setObjectName("mergeFiles")
        add = QPushButton(self.tr("Add…"), self)
        add.clicked.connect(self._add)
        remove = QPushButton(self.tr("Remove"), self)
        remove.clicked.connect(lambda: [self.files.takeItem(self.files.row(item))
                                        for item in self.files.selectedItems()])
        files_buttons = QVBoxLayout()
        files_buttons.addWidget(add)
        files_buttons.addWidget(remove)
        files_buttons.addStretch(1)
        files_row = QHBoxLayout()
        files_row.addWidget(self.files, 1)
        files_row.addLayout(files_buttons)
        self.output = QLineEdit(self)
        self.output.setObjectName("mergeOutput")
        self.report = QLineEdit(self)
        self.report.setObjectName("mergeReport")
        self.report.setPlaceholderText(self.tr("optional: MERGE.json"))
        self._browse_buttons: list[QPushButton] = []
        form = QFormLayout()
        form.addRow(self.tr("Returned workbooks:"), files_row)
        label_control(self.files, form.labelForField(files_row))
        label_control(add, self.tr("Add returned workbooks"))
        label_control(remove, self.tr("Remove the selected workbooks"))
        # The merged workbook is written in any format the export writes (as
        # the command line's merge -o), the report as JSON.
        for edit, text, what, filters in (
                (self.output, self.tr("Merged workbook:"), self.tr("merged workbook"),
                 list(WORKBOOK_FILTERS.values())),
                (self.report, self.tr("Report:"), self.tr("report"), ["*.json"])):
            row = self._with_browse(edit, what, filters)
            form.addRow(text, row)
            label_control(edit, form.labelForField(row))
        self.as_ratings = QCheckBox(self.tr("Copies sent without Hand out give &ratings "
                                            "(graded by their consensus)"), self)
        self.as_ratings.setObjectName("mergeAsRatings")
        self.as_ratings.setToolTip(self.tr(
            "Off: two copies that grade a candidate differently give a conflict to resolve. "
            "On: every copy's grades become that reviewer's ratings, and the grade is their "
            "consensus."))
        form.addRow("", self.as_ratings)
        # (off: a merged workbook someone worked on is never replaced, as merge's --replace)
        self.replace = QCheckBox(self.tr("Replace a merged workbook someone worked on "
                                         "(its resolutions and grades are lost)"), self)
        self.replace.setObjectName("mergeReplace")
        form.addRow("", self.replace)
        # Tab as the rows read: each field, then its Browse… button.
        tab_order(self.files, add, remove, self.output, self._browse_buttons[0], self.report,
                  self._browse_buttons[1], self.as_ratings, self.replace)
        self.error, self.button_box = _lay_out(self, self.tr(
            "The base is the document shown. Returned workbooks are those handed out from it, "
            "or copies of it sent as they are (each a reviewer of the whole document). A grade "
            "one reviewer changed is taken; on overlap queries both reviewers' grades become "
            "ratings; different grades elsewhere are conflicts to resolve; a workbook from "
            "another base is refused."),
            form, "mergeError", self._ok)

    def _with_browse(self, edit: QLineEdit, what: str, filters: list[str]) -> QHBoxLayout:
        button = QPushButton(self.tr("Browse…"), self)
        label_control(button, self.tr("Browse for the {0} file").format(what))
        self._browse_buttons.append(button)
        button.clicked.connect(lambda: self._save_as(edit, filters))
        row = QHBoxLayout()
        row.addWidget(edit, 1)
        row.addWidget(button)
        return row

    def _add(self) -> None:
        # Every workbook the readers take (core's one list), as merge does.
        names, _ = QFileDialog.getOpenFileNames(
            self, self.tr("Returned workbooks"), "",
            self.tr("Workbooks ({0})").format(patterns(*WORKBOOK_SUFFIXES)))
        self.files.addItems(names)

    def _save_as(self, edit: QLineEdit, filters: list[str]) -> None:
        name, chosen = QFileDialog.getSaveFileName(self, self.tr("Save as"), edit.text(),
                                                   ";;".join(filters), filters[0])
        if name:
            edit.setText(_named(name, chosen))

    def paths(self) -> list[str]:
        return [self.files.item(i).text() for i in range(self.files.count())]

    def _ok(self) -> None:
        try:
            self.controller.merge_files(self.paths(), self.output.text().strip(),
                                        self.report.text().strip() or None,
                                        as_ratings=self.as_ratings.isChecked(),
                                        replace=self.replace.isChecked())
        except NdcgError as exc:
            self.error.setText(str(exc))
            announce(self.error, str(exc))
            return
        self.accept()


def _named(name: str, chosen: str) -> str:
    """``name`` as typed in a Save as dialog, with the suffix of the filter
    ``chosen`` there (``Excel workbook (*.xlsx)``) when it has none."""
    suffix = re.search(r"\*(\.\w+)", chosen)
    return name + suffix.group(1) if suffix and not Path(name).suffix else name


class RoundsController(QObject):
    """The two actions and what they run."""

    def __init__(self, window: WindowApi, open_path: Callable[[Path], Any]) -> None:
        super().__init__(window)
        self.setObjectName("roundsController")
        self.window = window
        self.open_path = open_path
        #: The latest hand-out and merge (for the status bar and tests).
        self.last_hand_out: HandOut | None = None
        self.last_merge: MergeResult | None = None
        self.task: Task | None = None
        window.add_action(ActionSpec(
            "hand_out", "&Hand out to reviewers…", "review", None,
            "Write one workbook per reviewer with their share of the queries to judge"),
            self.show_hand_out)
        window.add_action(ActionSpec(
            "merge_returned", "&Merge returned workbooks…", "review", None,
            "Merge the reviewers' returned workbooks into the document shown"),
            self.show_merge)

    def show_hand_out(self) -> HandOutDialog:
        dialog = HandOutDialog(self, self.window)
        dialog.open()
        return dialog

    def show_merge(self) -> MergeDialog:
        dialog = MergeDialog(self, self.window)
        dialog.open()
        return dialog

    def _base_name(self) -> str:
        w = self.window
        return w.path.name if w.path is not None else f"{w.document.name or 'untitled'}.xlsx"

    def hand_out(self, reviewers: list[str], overlap: float, seed: int, folder: str, *,
                 replace: bool = False) -> Task:
        """Plan the hand-out of the document shown and write the reviewers'
        workbooks into ``folder``; InputError (nothing written) when it cannot,
        or when a workbook there is not as handed out (a reviewer worked on
        it) and ``replace`` is False."""
        if not folder:
            raise InputError("name a folder for the reviewers' workbooks")
        w = self.window
        doc, ev = w.document, w.evaluation
        base = self._base_name()
        plan = plan_hand_out(doc, judging_queue(ev), reviewers, overlap=overlap, seed=seed,
                             when=now(), base_name=base)
        paths = [reviewer_path(folder, base, s.reviewer) for s in plan.shares]
        stale_locks_cleared(w, paths, self.tr("hand out"))  # (kept: check_outputs says it)
        check_outputs(paths, [w.path] if w.path is not None else [])
        if not replace:
            check_handed_out(paths, hint=lambda theirs: self.tr(
                "choose another folder; or merge them first with Review > Merge returned "
                "workbooks…; or tick Replace") if theirs else self.tr(
                "choose another folder, or tick Replace"))
        docs = [make_reviewer_document(doc, ev, plan, s.reviewer) for s in plan.shares]
        self.task = run_task(
            w, self.tr("Handing out to {0}…").format(counted(len(paths), "reviewer")),
            lambda _p, _c: write_workbooks([(p, evaluate(d)) for p, d in zip(
                paths, docs, strict=True)]),
            on_done=lambda _written: self._handed_out(plan, folder),
            on_error=lambda exc: show_error(w, self.tr("Could not hand out"), exc))
        return self.task

    def _handed_out(self, plan: HandOut, folder: str) -> None:
        self.last_hand_out = plan
        self.window.show_message(self.tr("Handed out to {0} in {1}").format(
            ", ".join(f"{s.reviewer} ({counted(len(s.queries))}, {s.unknown} unknown)"
                      for s in plan.shares), folder), 20000)

    def merge_files(self, paths: list[str], output: str, report: str | None, *,
                    as_ratings: bool = False, replace: bool = False) -> Task:
        """Merge the returned workbooks ``paths`` into the document shown,
        write ``output`` (and ``report``), then open ``output``; InputError
        (nothing written) when the names cannot be used, when ``output`` is a
        merged workbook someone worked on since and ``replace`` is False, or
        when nothing could be taken (shown as the task's error).
        ``as_ratings``: copies of the document sent without a hand-out give
        ratings, not conflicts."""
        if not paths:
            raise InputError("add the returned workbooks to merge")
        if not output:
            raise InputError("name the merged workbook", hint="MERGED.xlsx or MERGED.ods")
        check_workbook_target(output)  # .xlsx or .ods, as the command line's merge -o
        w = self.window
        outputs = [output] + ([report] if report else [])
        stale_locks_cleared(w, outputs, self.tr("merge"))  # (kept: check_outputs says it)
        check_outputs(outputs, [*([w.path] if w.path is not None else []), *paths])
        base = copy.deepcopy(w.document)  # the worker reads a copy: edits may go on
        who, base_name, base_path = w.reviewer(), self._base_name(), w.path
        from core.io.workbook.additions import additions_of_all

        # What the base's and the reviewers' people added is kept; read here
        # when a workbook is there to check against it (said in the dialog).
        keep = None
        if not replace and Path(output).exists():
            keep = additions_of_all([base_path, *paths])
            check_merged(output, keep=keep, hint=self.tr(
                "name another merged workbook, or tick Replace"))

        def work(_progress: Any, _cancelled: Any) -> MergeResult:
            returned = [Returned(name, doc) for name, doc in read_returned(paths)]
            result = merge(base, returned, who=who, when=now(), base_name=base_name,
                           as_ratings=as_ratings)
            why = result.nothing_taken()
            if why:
                raise InputError(f"nothing merged, nothing written: {why}",
                                 hint="add the workbooks handed out from this document, "
                                      "or copies of it")
            from core.io.workbook import export_workbook

            carried = keep if keep is not None else additions_of_all([base_path, *paths])
            export_workbook(evaluate(result.document), output, keep=carried)
            if report:
                write_merge_report(result.to_dict(base=base_name, merged=output), report)
            return result

        self.task = run_task(w, self.tr("Merging {0} workbooks…").format(len(paths)), work,
                             on_done=lambda result: self._merged(result, output),
                             on_error=lambda exc: show_error(w, self.tr("Could not merge"), exc))
        return self.task

    def _merged(self, result: MergeResult, output: str) -> None:
        self.last_merge = result
        said = self.tr("Merged into {0}: {1}").format(output, result.summary())
        self.window.show_message(said, 30000)
        task = self.open_path(Path(output))
        # Said again once the merged workbook is shown: its "Opened ..." had
        # replaced the counts at once (the note conflicts said nowhere else).
        finished = getattr(task, "finished", None)
        if finished is not None:
            finished.connect(lambda *_: self.window.show_message(said, 30000))


def install_rounds(window: WindowApi, open_path: Callable[[Path], Any]) -> RoundsController:
    """Add Hand out and Merge to ``window``'s Review menu; ``open_path`` opens
    the merged workbook (:meth:`app.fileops.FileOps.open_path`)."""
    return RoundsController(window, open_path)
