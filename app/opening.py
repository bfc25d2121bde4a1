"""The editor's command line and the reading of the file it names, without Qt.

The launcher (:mod:`app.launcher`) starts reading a run given at launch
before it imports PySide6 and the window's modules: the reading (numpy work
that lets go of the interpreter lock, on its own threads) goes on while Qt
loads, the splash shows and the window is built. :func:`app.main.build_window`
takes the document from :data:`READING` when it is there, or starts the
reading itself.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from collections.abc import Callable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING

from app.cli.options import Parser
from core.model.presets import PRESETS, apply_preset, defaults_under

if TYPE_CHECKING:
    from core.engine.evaluation import Evaluation
    from core.errors import InputError
    from core.io.files import Head
    from core.model.conventions import TieRule
    from core.model.document import Document

__all__ = ["READING", "Reading", "evaluated", "load", "memory_said", "needs_qrels",
           "out_of_memory", "parse_args", "reading_key", "run_ties", "start_reading",
           "stat_or_none"]


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    parser = Parser(
        prog="ndcg-worksheet",
        description="Grade ranked candidates and compute NDCG with every convention declared.",
    )
    parser.add_argument("file", nargs="?", help="a worksheet (.csv, .tsv, .xlsx) or a TREC run")
    parser.add_argument("--qrels", help="TREC qrels for a run file")
    parser.add_argument("--preset", choices=list(PRESETS),
                        help="open with a peer's conventions (its gain, discount, ideal list, "
                             "ties, unknown and zero-ideal rules; cutoffs, rubric, "
                             "weighting, consensus and rounding are kept)")
    return parser.parse_args(list(argv))


def load(path: str | Path | Head, qrels: str | Path | None,
         preset: str | None = None) -> Document:
    """The document the editor opens ``path`` (with ``qrels`` for a run) as
    (``path`` may be the file's first bytes read already), to be evaluated
    under ``preset``'s conventions when one is named."""
    from core.io.load import load_document
    from core.io.textfile import DETECT

    # A worksheet CSV/TSV in the encoding its bytes show (the status bar says which).
    return load_document(path, qrels=qrels, encoding=DETECT,
                         ties=None if qrels is None else run_ties(preset))


def run_ties(preset: str | None) -> TieRule:
    """The tie rule a run read with its qrels is evaluated under: the
    defaults' (its join's conventions), or ``preset``'s. Given to the read,
    the run's ranked order (and, ties averaged, its tie groups) is worked
    out beside its join, on a core the join leaves idle, as ``evaluate``'s
    is (:func:`core.io.trec.join.document_from_trec`): the evaluation after
    the join, on the launch's serial path, does not rank the run again.
    (The conventions a file opened in the window gets are the same
    declaration's: :func:`app.opened_conventions.conventions_for_opening`.)"""
    return defaults_under(preset).ties


#: The interpreter's switch interval while a file is read beside the
#: window's work (Python's default is 5 ms). The reader lets go of the lock
#: for every numpy step and, while the main thread runs Python (imports, the
#: window's construction), waits up to a whole interval to take it back each
#: time: reading the 2M-candidate run beside a thread that runs Python took
#: 2.7-3.5 s at 5 ms, 1.3-1.5 s at 1 ms (alone 0.8-1.3 s; load 2.6-3.7).
READING_SWITCH_INTERVAL = 0.001


class _Switching:
    """The shorter switch interval for as long as any file is read."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._readers = 0
        self._before = sys.getswitchinterval()

    def __enter__(self) -> None:
        with self._lock:
            if not self._readers:
                self._before = sys.getswitchinterval()
                sys.setswitchinterval(min(self._before, READING_SWITCH_INTERVAL))
            self._readers += 1

    def __exit__(self, *_exc: object) -> None:
        with self._lock:
            self._readers -= 1
            if not self._readers:
                sys.setswitchinterval(self._before)


_SWITCHING = _Switching()


def evaluated(doc: Document) -> Evaluation | None:
    """``doc``'s evaluation under its conventions, worked out where it was
    read (off the window's thread); None when it cannot be evaluated (the
    window evaluates it again and says why)."""
    from core.engine.evaluation import evaluate

    try:
        return evaluate(doc)
    except Exception:  # (the window's own evaluation reports it)
        return None


def out_of_memory(path: str | Path | None = None, *, to: str = "read it",
                  again: str = "open it") -> InputError:
    """What the editor says when its work ran out of memory: reading
    ``path`` (at launch, File > Open), or doing ``to`` (evaluating under
    other conventions, comparing with ``path``), and what to do (``again``:
    the work done once more), in one line."""
    from core.errors import InputError

    return InputError(f"not enough memory to {to}", file=None if path is None else str(path),
                      hint=f"close other programs and {again} again, or {again} on a machine "
                           "with more memory")


def memory_said(exc: BaseException, path: str | Path | None = None, **doing: str
                ) -> BaseException:
    """``exc`` as the editor shows it: a MemoryError as :func:`out_of_memory`
    (``doing``: its ``to`` and ``again``), anything else as it is."""
    return out_of_memory(path, **doing) if isinstance(exc, MemoryError) else exc


def needs_qrels(path: Path) -> bool:
    """Whether ``path`` is a run read only with its qrels: its first line a
    TREC run's, the JSON ``{query: {source: number}}`` of ranx and
    pytrec_eval, or a Parquet table of scores without grades (told by its
    first bytes and its schema; a file that cannot be read is not: its
    reader says why)."""
    from core.errors import InputError
    from core.io.columnar import is_parquet, is_parquet_run
    from core.io.files import sniff
    from core.io.load import looks_like_trec_run
    from core.io.qrels_kind import is_score_dict

    try:
        head = sniff(path)
    except (InputError, OSError):
        return False
    if is_parquet(head):
        return is_parquet_run(path)
    return is_score_dict(head) or looks_like_trec_run(path, head)


def stat_or_none(path: str | Path) -> os.stat_result | None:
    """``os.stat(path)``; None when it fails (the reader says why)."""
    try:
        return os.stat(path)
    except OSError:
        return None


class Reading:
    """A file being read on a thread (numpy lets go of the interpreter lock,
    so the window's modules load meanwhile; the switch interval is shorter
    meanwhile so that the reader takes it back sooner), under ``preset``'s
    conventions when one is named, and evaluated there too (the window's
    construction goes on meanwhile); calling it waits for the document (and
    raises what reading raised)."""

    def __init__(self, path: str | Path, qrels: str | Path | None,
                 preset: str | None = None) -> None:
        self._box: list[Document | BaseException] = []
        self._lock = threading.Lock()
        self._then: list[Callable[[], object]] = []
        #: Set by :meth:`stop`: the document is not wanted, and its read
        #: ends before its next piece (core.io.stop).
        self._abandoned = False
        from core.io.stop import Stop

        self._stop = Stop()
        #: The file's size and time before it is read (None: not a file that
        #: can be read): the editor takes its digest after the window is up
        #: and knows it changed since it was read when these differ then.
        self.stat = stat_or_none(path)
        #: The document's evaluation, worked out on the reading's thread
        #: (None: not evaluated; the window evaluates it).
        self.evaluation: Evaluation | None = None
        head: Head | None = None
        if qrels is not None and self.stat is not None:
            # A large run's reading helped by a child process, forked now,
            # before the thread and Qt (core.io.trec.both.read_ahead); the
            # run's first bytes read for it are the reading's.
            from core.errors import InputError
            from core.io.files import sniff
            from core.io.load import looks_like_trec_run
            from core.io.trec.both import read_ahead

            with suppress(InputError, OSError):  # (the reading says why)
                head = sniff(path)
            if head is not None and looks_like_trec_run(head.path, head):
                read_ahead(path, qrels)
        self._thread = threading.Thread(target=self._read, args=(path, qrels, preset, head),
                                        name="open-file", daemon=True)
        self._thread.start()

    def _read(self, path: str | Path, qrels: str | Path | None, preset: str | None,
              head: Head | None) -> None:
        from core.io.stop import check, stoppable

        try:
            with _SWITCHING, stoppable(self._stop):
                try:
                    doc = load(path if head is None else head, qrels, preset)
                finally:
                    if qrels is not None:
                        from core.io.trec.both import end_ahead

                        end_ahead(path, qrels)
                check()  # stopped as its last piece was read: the document is dropped
                if preset is not None:
                    doc.conventions = apply_preset(doc.conventions, preset)
                if not self._abandoned:
                    self.evaluation = evaluated(doc)
                got: Document | BaseException = doc
        except BaseException as exc:  # handed to the waiting side
            got = exc
        with self._lock:
            self._box.append(got)
            then, self._then = self._then, []
        for call in then:
            call()

    @property
    def busy(self) -> bool:
        """Still reading: the window has time for other work meanwhile."""
        return self._thread.is_alive()

    def when_done(self, call: Callable[[], object]) -> None:
        """Call ``call`` once the document (or what reading raised) is
        ready: on the reading's thread as it ends, or here and now when it
        has ended."""
        with self._lock:
            if not self._box:
                self._then.append(call)
                return
        call()

    def stop(self) -> None:
        """The document is not wanted (the window was closed while it was
        read): the read ends before its next piece (a megabyte of the run:
        :class:`core.io.stop.Stopped` is what it then gives), the child
        process that helps it is killed, and it is not evaluated."""
        self._abandoned = True
        self._stop.set()

    def abandon(self) -> None:
        """:meth:`stop`, then wait for the read to end (its files closed, a
        child process that helped it reaped: nothing is left behind)."""
        self.stop()
        self._thread.join()

    def __call__(self) -> Document:
        self._thread.join()
        got = self._box[0]
        if isinstance(got, BaseException):
            raise got
        return got


#: Files being read for the window, by (path, qrels, preset): started by
#: :func:`start_reading`, taken by :func:`app.main.build_window`.
READING: dict[tuple[str, str | None, str | None], Reading] = {}


def reading_key(path: str | Path, qrels: str | Path | None,
                preset: str | None = None) -> tuple[str, str | None, str | None]:
    return str(path), None if qrels is None else str(qrels), preset


def start_reading(args: argparse.Namespace) -> bool:
    """Start reading the file ``args`` name (unless it is already being
    read), when the window will show it: not an annotators' sheet nor a run
    given without qrels (the import wizard reads the one, the window asks for
    the other's qrels). Whether it is read."""
    if not args.file:
        return False
    key = reading_key(args.file, args.qrels, args.preset)
    if key in READING:
        return True
    if not args.qrels:
        from core.io.load import is_annotator_sheet

        # The import wizard reads an annotators' sheet; a run waits for the
        # qrels the window asks for (app.main, as File > Open does).
        if needs_qrels(Path(args.file)) or is_annotator_sheet(Path(args.file)):
            return False
    READING[key] = Reading(args.file, args.qrels, args.preset)
    return True
