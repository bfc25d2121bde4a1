"""The one-pass scan of a sheet written the usual way: its used area and
whether it holds formulas, vectorised over its bytes."""

from __future__ import annotations

import itertools
import re
from collections import deque
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np
import numpy.typing as npt

from core.io.safety.limits import EXCEL_MAX_COLUMNS, column_number
from core.io.safety.parts import refuse_declarations

_CELL_REF = re.compile(rb'([A-Za-z]+)(\d+)"')
DIGITS = re.compile(rb"\d+")
#: A prefixed cell element (``<x:c ...``): readers match local names.
_PREFIXED_CELL = re.compile(rb"<[A-Za-z_][\w.\-]*:c[\s/>]")
_NAME_CHARS = re.compile(rb"[\w.\-]*")
#: Bytes after a "<" that a block scan may read.
_LOOK_AHEAD = 32
#: Bytes that may follow an element's name: space, tab, LF, CR, ">" and "/".
_AFTER_NAME = np.array([32, 9, 10, 13, 62, 47], dtype=np.uint8)


def _letter(x: npt.NDArray[Any]) -> npt.NDArray[np.bool_]:
    return (x >= 65) & (x <= 90)


def scan_plain(chunks: Iterable[bytes], *, file: str, part: str) -> tuple[int, int, bool] | None:
    """Rows, columns and formula presence of a plain sheet, in one pass.

    The sheet comes in pieces (each scanned while it is in the cache) and
    only the bytes after each ``<`` are looked at: ``<!`` (refused when it
    is a DTD or entity declaration), ``<f`` (a formula element), ``<v>#``
    (an error value such as ``#DIV/0!``) and ``<c`` (a cell). Every cell
    must start ``<c r="`` and its reference with a letter, else None (the
    caller then scans exactly).
    """
    max_row = max_col = 0
    formulas = False
    carry = b""
    # Pieces are scanned on two worker threads while the next ones are
    # unpacked here: zlib and the vectorised scan release the GIL. At most a
    # few pieces are in flight, so memory stays bounded; every piece is
    # scanned before this returns, so the caller still sees the whole sheet.
    with ThreadPoolExecutor(2, thread_name_prefix="xlsx-scan") as pool:
        pending: deque[Future[tuple[int, int, bool] | None]] = deque()

        def take() -> bool:
            nonlocal max_row, max_col, formulas
            found = pending.popleft().result()
            if found is None:
                return False
            max_row, max_col = max(max_row, found[0]), max(max_col, found[1])
            formulas = formulas or found[2]
            return True

        for chunk in itertools.chain(chunks, [b""]):
            if chunk:
                buf = carry + chunk
                limit = len(buf) - _LOOK_AHEAD
                if limit <= 0:
                    carry = buf
                    continue
            else:  # the end: room to look past the last tag
                buf = carry + b"\0" * _LOOK_AHEAD
                limit = len(carry)
            pending.append(pool.submit(_scan_block, buf, limit, file=file, part=part))
            while len(pending) > 3:
                if not take():
                    _cancel(pending)
                    return None
            carry = buf[limit:] if chunk else b""
        while pending:
            if not take():
                _cancel(pending)
                return None
    return max_row, max_col, formulas


def _cancel(pending: deque[Future[Any]]) -> None:
    for fut in pending:
        fut.cancel()



def _prefixed_cell(buf: bytes, a: npt.NDArray[np.uint8], limit: int) -> bool:
    """Whether a prefixed cell element (``<x:c``) may start before
    ``limit``: its rare ``:c`` is found in bulk, then each is looked at. A
    ``:c`` after 256 bytes of name characters (a name that began in the
    previous piece) counts too."""
    colon = np.flatnonzero(a[:limit + 2] == 58)  # ":"
    colon = colon[(a[colon + 1] == 99) & np.isin(a[colon + 2], _AFTER_NAME)]  # "c"
    for at in colon.tolist():
        start = buf.rfind(b"<", max(0, at - 256), at)
        if start >= 0:
            if _PREFIXED_CELL.match(buf, start):
                return True
        elif _NAME_CHARS.fullmatch(buf, max(0, at - 256), at):
            return True
    return False


def _scan_block(buf: bytes, limit: int, *, file: str, part: str) -> tuple[int, int, bool] | None:
    """:func:`scan_plain` on the tags starting before ``limit``.

    Columns are read from up to three letters and rows from up to seven
    digits in bulk; longer references are beyond Excel's limits and parsed
    one by one for the message.
    """
    a = np.frombuffer(buf, dtype=np.uint8)
    if _prefixed_cell(buf, a, limit):
        return None
    lt = np.flatnonzero(a[:limit] == 60)  # "<"
    after = a[lt + 1]
    if bool((after == 33).any()):  # "<!": a comment, CDATA or a declaration
        refuse_declarations(buf, file, part)
    f_at = lt[after == 102]  # "<f"
    v_at = lt[after == 118]  # "<v": an error value is the only one written "<v>#"
    formulas = (bool(np.isin(a[f_at + 2], _AFTER_NAME).any())
                or bool(((a[v_at + 2] == 62) & (a[v_at + 3] == 35)).any()))
    c_at = lt[after == 99]  # "<c"
    cells = c_at[np.isin(a[c_at + 2], _AFTER_NAME)]
    if not len(cells):
        return 0, 0, formulas
    if not bool(((a[cells + 2] == 32) & (a[cells + 3] == 114) & (a[cells + 4] == 61)
                 & (a[cells + 5] == 34)).all()):  # ' r="'
        return None
    ref = cells + 6
    l0, l1, l2, l3 = (a[ref + k] & 0xDF for k in range(4))  # upper case
    if not bool(_letter(l0).all()):
        return None
    two = _letter(l1)
    three = two & _letter(l2)
    four = three & _letter(l3)
    if bool(four.any()):  # beyond column XFD: refused; say how far exactly
        widest = 0
        for pos in ref[four].tolist():
            m = _CELL_REF.match(buf, pos)
            if m is not None:
                widest = max(widest, column_number(m.group(1).decode("ascii")))
        return 0, max(widest, EXCEL_MAX_COLUMNS + 1), formulas
    col = l0.astype(np.int64) - 64
    col = np.where(two, col * 26 + l1 - 64, col)
    col = np.where(three, col * 26 + l2 - 64, col)
    pos = ref + 1 + two + three
    row = np.zeros(len(pos), dtype=np.int64)
    going = np.ones(len(pos), dtype=bool)
    for k in range(7):
        x = a[pos + k]
        going &= (x >= 48) & (x <= 57)
        row = np.where(going, row * 10 + x - 48, row)
    x = a[pos + 7]
    longer = going & (x >= 48) & (x <= 57)
    max_row = int(row.max())
    for start in pos[longer].tolist():  # eight digits or more: far beyond the limit
        m = DIGITS.match(buf, start)
        if m is not None:
            max_row = max(max_row, int(m.group()))
    return max_row, int(col.max()), formulas
