"""Standard input as an input file (``-`` on the command line).

Standard input has no name and no suffix, and the readers read paths (a
workbook is a zip they seek in; every reader checks the file's kind and
size first). So its bytes are copied, up to the largest input any reader
takes, into a private temporary file whose suffix says what the bytes are
(:func:`sniff_suffix`), and the ordinary readers read that file with every
check they make on any other. Messages name it ``<stdin>``
(:data:`STDIN_NAME`).
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from core.errors import InputError
from core.io.files import DECOMPRESSED, HEAD_BYTES, compressed, sniff, too_large
from core.io.textfile import MAX_BYTES

__all__ = ["STDIN", "STDIN_NAME", "sniff_suffix", "spooled"]

#: How standard input is named on the command line, and in messages.
STDIN = "-"
STDIN_NAME = "<stdin>"

_CHUNK = 1024**2
_ODS_MIMETYPE = b"mimetypeapplication/vnd.oasis.opendocument.spreadsheet"


def sniff_suffix(head: bytes) -> str:
    """The suffix a file starting with ``head`` would carry.

    A zip is an OpenDocument spreadsheet when its first entry says so (its
    ``mimetype``), else an Excel workbook; ``PAR1`` starts a Parquet file,
    an OLE header an old ``.xls``. Text is JSON (``[`` or an object that
    does not end on its first line), JSON Lines (one object a line), a TSV
    (a tab on the first line), a TREC run or qrels (no suffix: 4 or 6
    fields separated by white space, or more after a ``Q0``, a run tag
    holding spaces, and no comma or semicolon), else a CSV.

    >>> sniff_suffix(b"query,source_id,score,grade\\nq1,d1,3,2\\n")
    '.csv'
    >>> sniff_suffix(b"q1 Q0 d1 1 3.5 run\\n")
    ''
    >>> sniff_suffix(b"q1 Q0 d1 1 3.5 BM25 tuned\\n")
    ''
    """
    if head.startswith(b"PK\x03\x04"):
        return ".ods" if _ODS_MIMETYPE in head[:200] else ".xlsx"
    if head.startswith(b"PAR1"):
        return ".parquet"
    if head.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        return ".xls"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        text = head.decode("utf-16", errors="replace")
    else:
        text = head.decode("utf-8-sig", errors="replace")
    lines = [ln for ln in text.splitlines() if ln.strip()]
    first = lines[0].strip() if lines else ""
    if first.startswith("["):
        return ".json"
    if first.startswith("{"):
        return ".jsonl" if _is_json(first) else ".json"
    if "\t" in first:
        return ".tsv"
    words = first.split()
    run = len(words) > 6 and words[1] in ("Q0", "q0")  # a run tag holding spaces
    if (len(words) in (4, 6) or run) and not any(d in first for d in ",;"):
        return ""
    return ".csv"


def _is_json(line: str) -> bool:
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


def _read(stream: BinaryIO) -> bytes:
    try:
        return stream.read(_CHUNK)
    except OSError as exc:
        raise InputError(f"cannot read standard input: {exc.strerror or exc}",
                         file=STDIN_NAME) from exc


def _decompressed_head(raw: Path, cat: str) -> bytes:
    """The first bytes of the text a compressed copy of standard input holds
    (the readers decompress it as they read it, as they do a file); a
    corrupt archive, or one holding a workbook, is refused naming
    ``<stdin>``."""
    try:
        return sniff(raw, piped=False).data
    except InputError as exc:
        raise dataclasses.replace(
            exc, file=STDIN_NAME,
            hint=f"decompress it in the pipe: {cat} FILE | ndcg-worksheet ..., or name "
                 "the file it holds") from None


@contextmanager
def spooled(stream: BinaryIO, *, limit: int = MAX_BYTES) -> Iterator[Path]:
    """A private temporary file holding ``stream``'s bytes, named ``stdin``
    with the suffix its bytes call for; removed on leaving. More than
    ``limit`` bytes (by default the largest text any reader takes) raise
    :class:`InputError` naming ``<stdin>`` once the limit is passed, so an
    endless stream ends."""
    folder = Path(tempfile.mkdtemp(prefix="ndcg-stdin-"))  # readable by its owner only
    try:
        raw = folder / "stdin"
        size = 0
        with raw.open("wb") as fh:
            while chunk := _read(stream):
                size += len(chunk)
                if size > limit:
                    raise too_large(STDIN_NAME, limit, "standard input is")
                fh.write(chunk)
        with raw.open("rb") as fh:
            head = fh.read(HEAD_BYTES)
        found = compressed(head)
        if found is not None and found[0] not in DECOMPRESSED:
            raise InputError(
                f"standard input is {found[0]}-compressed", file=STDIN_NAME,
                hint=f"decompress it in the pipe: {found[2]} FILE | ndcg-worksheet ...")
        if found is not None:
            head = _decompressed_head(raw, found[2])
        path = raw.with_name("stdin" + sniff_suffix(head))
        raw.rename(path)
        yield path
    finally:
        shutil.rmtree(folder, ignore_errors=True)
