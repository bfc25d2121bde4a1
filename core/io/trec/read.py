"""Reading TREC run and qrels files.

A run line is ``query Q0 source rank score tag``; a qrels line is
``query iteration source grade``. Both are read column-wise by the fast
reader (:mod:`core.io.trec.scan`) when every line is regular, and line by
line otherwise, so that a message names the line.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from core.errors import InputError
from core.io.files import unpacked_name
from core.io.stop import LINES
from core.io.stop import check as check_stopped
from core.io.trec import scan
from core.io.trec.columns import Columns
from core.io.trec.scan import FloatArray, decode_all
from core.io.trec.text import decode, decompressing, finite, read_bytes

__all__ = ["Layout", "Qrels", "QrelsColumns", "Run", "layout_of", "read_qrels", "read_run"]

Qrels = dict[str, dict[str, float]]

#: What a refused number should have been, and what to do, per column.
GRADE_HINT = ("a qrels grade is a number; grades written as words are read from a sheet "
              "with a header (query, source_id, grade) by `ndcg-worksheet import "
              "--rubric G=LABEL,...`")
SCORE_HINT = "a run's score is the system's score for the source, a number"


#: What to do about a line with too few or too many fields.
RUN_FIELDS_HINT = "each line holds query Q0 source rank score tag, split by spaces or tabs"
QRELS_FIELDS_HINT = "each line holds query iteration source grade (the iteration is usually 0)"
SPACED_TAG_HINT = ("a run tag holding spaces is read when every line ends in the same tag; "
                   "an id holding a space splits its line: join its words (with _)")
COMMENT_HINT = "a comment line: remove it; trec_eval reads no comments either"
#: A last line too short, with no line break after it: the file was cut.
CUT_HINT = ("the file ends in the middle of this line, with no line break after it: it was cut "
            "short, as a copy or download stopped early leaves it; copy it again whole, or "
            "delete this last line")


def number_hint(parts: Sequence[bytes], hint: str, path: Path | None = None,
                line: int = 0) -> str:
    """``hint``, or what to do about a comment line whose words fell where
    the number is (a query id may start with '#': only a refused line is
    taken for a comment), or about a run's header (line 1 of ``path``, its
    rank a word as well as its score)."""
    if parts[0].startswith(b"#"):
        return COMMENT_HINT
    if path is not None and line == 1 and len(parts) == 6 and not parts[3].isdigit():
        words = " ".join(p.decode("utf-8", "replace") for p in parts)
        return (f"line 1 is a header ({words}): a TREC run has none; drop it, "
                + rewritten(path, "tail -n +2"))
    return hint


def rewritten(path: Path | None, program: str) -> str:
    """The shell line that runs ``program`` (a filter: awk, tail) over the
    file at ``path`` (decompressed first where it is compressed) into a new
    file beside it, never into the file it reads (``> run.txt`` over run.txt
    empties it before it is read); ``run.tsv > run.txt`` where no path is
    known.

    >>> rewritten(Path("/nonexistent/run.txt"), "tail -n +2")
    'tail -n +2 run.txt > trec-run.txt'
    """
    if path is None:
        return f"{program} run.tsv > run.txt"
    cat = decompressing(path)
    read = f"{cat} {path.name} | {program}" if cat else f"{program} {path.name}"
    return f"{read} > trec-{unpacked_name(path)}"


def fields_hint(parts: Sequence[bytes], expected: int, line: int = 0,
                path: Path | None = None, *, cut: bool = False) -> str:
    """What to do about a TREC line of ``parts`` (line ``line`` of ``path``)
    that is not ``expected`` fields long: the ways runs and qrels come so, as
    the README lists them. ``cut``: the line is the file's last and no line
    break ends it (a file cut short)."""
    if cut and len(parts) < expected:
        return CUT_HINT
    if parts[0].startswith(b"#"):
        return COMMENT_HINT
    if expected == 6 and len(parts) == 3 and parts[1].upper() != b"Q0":
        return _three_columns_hint(parts, line, path)
    if expected == 4 and len(parts) == 6:
        return ("this line is a run's (query Q0 source rank score tag): give the run first "
                "and its qrels after --qrels")
    if expected == 6 and len(parts) == 4 and parts[1].upper() != b"Q0":
        return ("this line is a qrels line (query iteration source grade): give the run "
                "first and its qrels after --qrels")
    if len(parts) > expected and expected == 6:
        return ("an id holding a space splits the line: join its words (with _); a run tag "
                "holding spaces is read when every line of the run ends in it")
    if len(parts) > expected:
        return "an id or a grade holding a space splits the line: join its words (with _)"
    return RUN_FIELDS_HINT if expected == 6 else QRELS_FIELDS_HINT


def _three_columns_hint(parts: Sequence[bytes], line: int, path: Path | None) -> str:
    """What to do about a run line ``query source X``: X a rank (MS MARCO's
    qid pid rank, or a header on line 1 naming a rank) is written as minus the
    rank, X a score (a header naming no rank, or a number that is no whole
    number) as the score; taking a score for a rank would rank the run upside
    down."""
    third = parts[2].decode("utf-8", "replace")
    try:
        value: float | None = float(third)
    except ValueError:
        value = None
    if value is None and line != 1:
        return RUN_FIELDS_HINT
    if value is None:  # a header
        words = " ".join(p.decode("utf-8", "replace") for p in parts)
        if "rank" in third.lower():
            return (f"a header ({words}), its third column a rank: write the run "
                    "as TREC lines whose score is minus the rank, " + rewritten(
                        path, "awk 'NR > 1 {print $1, \"Q0\", $2, $3, -$3, \"run\"}'"))
        return (f"a header ({words}), its third column a score: write the run as TREC lines, "
                + rewritten(path, "awk 'NR > 1 {print $1, \"Q0\", $2, NR - 1, $3, \"run\"}'"))
    if not value.is_integer():
        return (f"the third column is a score, not a rank ({third}): write the run as TREC "
                "lines, " + rewritten(path, "awk '{print $1, \"Q0\", $2, NR, $3, \"run\"}'"))
    return ("an MS MARCO run (qid pid rank) has no score: write it as a TREC run whose "
            "score is minus the rank, "
            + rewritten(path, "awk '{print $1, \"Q0\", $2, $3, -$3, \"msmarco\"}'"))


def read_qrels(path: str | Path) -> tuple[Qrels, dict[tuple[str, str], int]]:
    """Read a qrels file: ``{query: {source: grade}}`` and each pair's line."""
    path = Path(path)
    name = str(path)
    qrels: Qrels = {}
    where: dict[tuple[str, str], int] = {}
    raw = read_bytes(path)
    lines = raw.splitlines()
    cut = _cut_line(raw, lines)
    for line_no, line in enumerate(lines, start=1):
        if not line_no % LINES:
            check_stopped()  # a read stopped from another thread ends here (core.io.stop)
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 4:
            raise InputError(
                f"expected 4 fields (query iteration source grade), found {len(parts)}",
                file=name, line=line_no, hint=fields_hint(parts, 4, cut=line_no == cut),
            )
        q, doc = decode(parts[0]), decode(parts[2])
        grade = finite(parts[3], file=name, line=line_no, column="grade (field 4)",
                       hint=number_hint(parts, GRADE_HINT))
        judged = qrels.setdefault(q, {})
        if doc in judged:
            raise InputError(
                f"source {doc!r} of query {q!r} is judged twice (first on line "
                f"{where[(q, doc)]})", file=name, line=line_no,
                hint="keep one judgment per query and source",
            )
        judged[doc] = grade
        where[(q, doc)] = line_no
    return qrels, where


def _cut_line(raw: bytes, lines: Sequence[bytes]) -> int:
    """The number of the last of ``lines`` (``raw`` split) when no line break
    ends ``raw`` (the file may have been cut in it), else 0."""
    return len(lines) if raw[-1:] not in (b"", b"\n", b"\r") else 0


#: A run's fields for the fast reader: how many, then the query's, the
#: source's and the score's (:func:`core.io.trec.scan.scan_file`).
RUN_FIELDS = (6, 0, 2, 4)
#: The same for qrels (the grade's last).
QRELS_FIELDS = (4, 0, 2, 3)
#: A line holding more than blanks: the first one is the run's first line.
_FIRST_LINE = re.compile(rb"[^\r\n]*\S[^\r\n]*")


class Layout(NamedTuple):
    """A run's lines as its first line lays them out (:func:`layout_of`)."""

    #: The first line's tag as written: its words past field 5 (b"" if none).
    tag: bytes
    #: The fields of each line for the column-wise reader: six, or five and
    #: the words of a tag holding spaces.
    fields: int
    #: The tag every line ends in for the column-wise reader when it holds
    #: spaces (:func:`core.io.trec.scan.tag_ends`), else b"" (trec_eval reads
    #: each line's own one-word tag).
    ending: bytes


def layout_of(text: bytes, *, cut: bool = False) -> Layout:
    """The layout of a run whose bytes start with ``text`` (after a byte
    order mark), told by its first line (not blank) before the run is read:
    a run whose tag holds spaces (ranx's run named "BM25 tuned") is read
    column-wise when every line ends in the tag as its first line writes
    it, else line by line (which reads it when every line ends in the same
    words, or names the line). ``cut``: ``text`` is cut short (a first line
    reaching its end may go on): six fields then, and no tag."""
    found = _FIRST_LINE.search(text)  # (not every line split to find the first)
    parts = found.group().split() if found else []
    if found is None or len(parts) < 6 or (cut and found.end() == len(text)):
        return Layout(b"", RUN_FIELDS[0], b"")
    first, end = found.group(), 0
    for part in parts[:5]:
        end = first.index(part, end) + len(part)
    tag = first[end:].strip()
    return Layout(tag, len(parts), tag) if len(parts) > 6 else Layout(tag, 6, b"")


class Run:
    """A run file's columns: query, source, score (and each row's line).

    Read column-wise with numpy when every line is regular; any irregular
    file is read line by line, so messages name the line. ``layout``: the
    run's (:func:`layout_of`) when it is known already (a child forked to
    read the run's ``tail`` reads it so); else told by the first piece the
    scanner reads (:func:`layout_of`).
    """

    def __init__(self, path: str | Path, *, threads: int = 2,
                 pool: Executor | None = None,
                 tail: tuple[int, Callable[[], Columns | None]] | None = None,
                 layout: Layout | None = None) -> None:
        path = Path(path)
        self.path = path
        told = [layout] if layout else []

        def fields_of(first: bytes) -> tuple[int, bytes]:
            if not told:  # the run's layout, told by the scanner's first piece
                told.append(layout_of(first))
            return told[0].fields, told[0].ending

        # Called through its module: one patch of scan.scan_file sends every
        # file to the line-by-line reader (the tests compare the two).
        self._table = scan.scan_file(path, *RUN_FIELDS, threads, pool=pool, tail=tail,
                                     fields_of=fields_of)
        raw = b"" if self._table is not None else read_bytes(path)
        #: The run's tag as its first line writes it (ranx's run name, spaces
        #: and all: "BM25 tuned"), "" for a line of five fields or fewer.
        self.tag = decode((told[0] if told else layout_of(raw)).tag)
        self._query: list[str] | None = None
        self._source: list[str] | None = None
        self._line: npt.NDArray[np.int32 | np.int64] | None = None
        if self._table is not None:
            self.score: FloatArray = self._table.number
        else:
            query: list[str] = []
            source: list[str] = []
            score = array("d")
            line = array("q")
            self._read_lines(raw, query, source, score, line)
            self._query, self._source = query, source
            self.score = np.frombuffer(score, dtype=np.float64)
            self._line = np.frombuffer(line, dtype=np.int64)

    @classmethod
    def from_rows(cls, path: str | Path, query: list[str], source: list[str],
                  score: Sequence[float]) -> Run:
        """A run of rows read elsewhere (ranx's JSON: :mod:`core.io.score_dict`),
        named ``path``, each row's "line" its number (1-based); its ids any
        text, white space too (a TREC file's cannot hold it)."""
        run = cls.__new__(cls)
        run.path, run.tag, run._table = Path(path), "", None
        run._query, run._source = query, source
        run.score = np.asarray(score, dtype=np.float64)
        run._line = np.arange(1, len(query) + 1, dtype=np.int64)
        return run

    @property
    def line(self) -> npt.NDArray[np.int32 | np.int64]:
        """Each row's line number."""
        if self._line is None:
            assert self._table is not None
            return self._table.line
        return self._line

    @property
    def query(self) -> list[str]:
        """Each row's query id."""
        if self._query is None:
            assert self._table is not None
            column = self._table.query
            ids = np.array(decode_all(column.raw), dtype=object)
            self._query = ids[column.code].tolist()
        return self._query

    @property
    def source(self) -> list[str]:
        """Each row's source id."""
        if self._source is None:
            assert self._table is not None
            self._source = self._table.source.texts()
        return self._source

    def _read_lines(self, raw: bytes, query: list[str], source: list[str], score: array[float],
                    line: array[int]) -> None:
        name = str(self.path)
        queries: dict[bytes, str] = {}
        spaced: tuple[list[bytes], int] | None = None  # a tag holding spaces, its first line
        plain = 0  # a line of six fields (0: none yet)
        q_app, s_app, sc_app, l_app = query.append, source.append, score.append, line.append
        lines = raw.splitlines()
        cut = _cut_line(raw, lines)
        for line_no, text in enumerate(lines, start=1):
            if not line_no % LINES:
                check_stopped()  # (core.io.stop)
            parts = text.split()
            if not parts:
                continue
            if len(parts) != 6 or spaced is not None:
                spaced = self._spaced_tag(parts, line_no, spaced, plain, cut=line_no == cut)
            else:
                plain = line_no
            value = finite(parts[4], file=name, line=line_no, column="score (field 5)",
                           hint=number_hint(parts, SCORE_HINT, self.path, line_no))
            qb = parts[0]
            q = queries.get(qb)
            if q is None:
                q = queries[qb] = decode(qb)
            q_app(q)
            s_app(decode(parts[2]))
            sc_app(value)
            l_app(line_no)

    def _spaced_tag(self, parts: list[bytes], line_no: int,
                    spaced: tuple[list[bytes], int] | None,
                    plain: int, *, cut: bool = False) -> tuple[list[bytes], int] | None:
        """The run's tag holding spaces (its words, its first line), a line
        of ``parts`` past six fields ending in it: trec_eval reads fields 1-5
        and the tag's first word of any line longer; read here only when
        unambiguous, every line ending in the same words after field 5 (a
        run ranx saves with a name holding spaces). An id holding a space
        moves the score into that end, which then differs from line to line;
        a run whose lines are of six fields and more is refused too. ``cut``:
        the line is the file's last, no line break after it."""
        name = str(self.path)
        if len(parts) < 6 or (spaced is None and plain):
            raise InputError(
                f"expected 6 fields (query Q0 source rank score tag), found {len(parts)}",
                file=name, line=line_no,
                hint=fields_hint(parts, 6, line_no, self.path, cut=cut),
            )
        if spaced is None:
            return parts[5:], line_no
        if parts[5:] != spaced[0]:
            tag = b" ".join(spaced[0]).decode("utf-8", "replace")
            found = b" ".join(parts[5:]).decode("utf-8", "replace")
            raise InputError(
                f"expected the run tag {tag!r} of line {spaced[1]} after field 5 "
                f"(query Q0 source rank score tag), found {found!r}",
                file=name, line=line_no, hint=self._after_tag_hint(parts, spaced[0]),
            )
        return spaced


    def _after_tag_hint(self, parts: list[bytes], tag: list[bytes]) -> str:
        """What to do about a line whose words after field 5 are not
        ``tag``'s: a tag holding spaces, an id holding one
        (:data:`SPACED_TAG_HINT`), and where both begin with the same word,
        text after a one-word tag, which trec_eval skips (its own
        results.trunc; or a tag 'BM25 tuned' written 'BM25 tune' once)."""
        if parts[5] != tag[0]:
            return SPACED_TAG_HINT
        word = parts[5].decode("utf-8", "replace")
        return (f"{SPACED_TAG_HINT}; or text after the tag {word}, which trec_eval skips: "
                "keep the six fields, "
                + rewritten(self.path, "awk '{print $1, $2, $3, $4, $5, $6}'"))


def read_run(path: str | Path) -> Run:
    return Run(path)


class QrelsColumns:
    """A qrels file read once, column-wise, for joining with several runs:
    :func:`document_from_trec` takes it in place of the path (a file the
    column-wise reader cannot take is read line by line at each join)."""

    def __init__(self, path: str | Path, *, threads: int = 2) -> None:
        self.path = Path(path)
        self._table = scan.scan_file(self.path, *QRELS_FIELDS, threads)
