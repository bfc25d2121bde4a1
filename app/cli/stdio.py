"""``-`` on the command line: standard input as an input file
(:mod:`core.io.stdin`), standard output as a text output.

Standard input is read once, so one input at most may be ``-``. It is named
``<stdin>`` wherever the command would name the file (its messages, the
report's run names): :class:`StdinInput` says so for what is written.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, BinaryIO, TextIO, cast

from core.errors import InputError
from core.io.stdin import STDIN, STDIN_NAME, spooled

__all__ = ["INPUTS", "STDIN", "StdinInput", "text_output"]

#: The arguments that name input files, each one path or a list of them.
INPUTS = ("input", "qrels", "runs")


class StdinInput:
    """Within ``with``: the argument given as ``-`` names a temporary copy of
    standard input (:func:`core.io.stdin.spooled`); :meth:`named` puts
    ``<stdin>`` back in place of that copy's path in a text, and what is
    written on ``sys.stderr`` meanwhile passes through it."""

    def __init__(self, args: argparse.Namespace, stream: BinaryIO | None = None) -> None:
        self.args = args
        self.stream = stream
        self.path: Path | None = None
        self._stack = ExitStack()

    def __enter__(self) -> StdinInput:
        places = [(name, i) for name in INPUTS for i, value in _values(self.args, name)
                  if value == STDIN]
        if not places:
            return self
        if len(places) > 1:
            raise InputError("standard input (-) is read once: only one input can be -",
                             hint="name the other inputs as files")
        stream = self.stream or getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise InputError("standard input is closed", file=STDIN_NAME,
                             hint="pipe a file into it: ... - < FILE")
        if stream.isatty():
            raise InputError("standard input is a terminal", file=STDIN_NAME,
                             hint="pipe a file into it: ... - < FILE")
        self.path = self._stack.enter_context(spooled(stream))
        # What the command says on stderr (warnings, import summaries) names it too.
        self._stack.callback(setattr, sys, "stderr", sys.stderr)
        sys.stderr = self.output(sys.stderr)
        name, i = places[0]
        value = getattr(self.args, name)
        if i is None:
            setattr(self.args, name, str(self.path))
        else:
            value[i] = str(self.path)
        if getattr(self.args, "baseline", None) == STDIN:  # compare's --baseline names a run
            self.args.baseline = str(self.path)
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def named(self, text: str) -> str:
        """``text`` with the copy written ``<stdin>``."""
        if self.path is None:
            return text
        # Its path, its name or its stem (a run's name in a report).
        where = re.compile(f"{re.escape(str(self.path))}|\\b{re.escape(self.path.stem)}"
                           f"(?:{re.escape(self.path.suffix)})?\\b")
        return where.sub(STDIN_NAME, text)

    def output(self, out: TextIO) -> TextIO:
        """``out``, writing ``<stdin>`` where the command names the copy (a
        run's name in a comparison)."""
        return out if self.path is None else cast(TextIO, _Named(out, self.named))


class _Named:
    """A text stream that passes what is written through ``named``."""

    def __init__(self, out: TextIO, named: Callable[[str], str]) -> None:
        self._out = out
        self._named = named

    def write(self, text: str) -> int:
        return self._out.write(self._named(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._out, name)


def _values(args: argparse.Namespace, name: str) -> list[tuple[int | None, object]]:
    value = getattr(args, name, None)
    if isinstance(value, list):
        return list(enumerate(value))
    return [(None, value)]


@contextmanager
def text_output(output: str, suffix: str, out: TextIO) -> Iterator[str]:
    """The path a writer writes to: ``output`` itself, or for ``-`` a
    temporary file (named with ``suffix``) whose bytes are copied to
    standard output once it is written (``out`` when it has no bytes side,
    as in tests)."""
    if output != STDIN:
        yield output
        return
    folder = Path(tempfile.mkdtemp(prefix="ndcg-stdout-"))
    try:
        path = folder / f"stdout{suffix}"
        yield str(path)
        out.flush()
        buffer = getattr(out, "buffer", None)
        with path.open("rb") as fh:
            if buffer is not None:
                shutil.copyfileobj(fh, buffer)
                buffer.flush()
            else:
                out.write(fh.read().decode("utf-8-sig"))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
