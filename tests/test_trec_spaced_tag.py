"""A TREC run whose tag holds spaces, as ranx's ``Run.save(path,
kind="trec")`` writes a run named ``"BM25 tuned"``: ``q1 Q0 d1 1 0.9 BM25
tuned``, seven fields and more.

What the peers do, measured: trec_eval (``get_trec_results.c``,
``parse_results_line``) reads fields 1-5 and the tag's first word and skips
the rest of any longer line; pytrec_eval-terrier 0.5.11's ``parse_run`` and
ranx 0.3.21's ``Run.from_file`` unpack exactly six fields and raise
ValueError (ranx cannot read back what it saved). Read here when
unambiguous: every line ends in the same words after field 5; the columns
are then the six-field run's.
"""

from __future__ import annotations

import io
import tempfile
import warnings
from pathlib import Path

import pytest
import pytrec_eval
from hypothesis import given
from hypothesis import strategies as st
from ranx import Qrels
from ranx import Run as RanxRun
from ranx import evaluate as ranx_evaluate

from app.cli.main import main
from core.engine.evaluation import evaluate
from core.io.load import looks_like_trec_run
from core.io.trec import Run, document_from_trec
from core.model.presets import preset
from tests.trec_cases import assert_same, error_of, line_by_line, trec_files, write

RUN = {"q1": {"d1": 0.9, "d2": 0.5, "d4": 0.7, "d5": 0.1, "d6": 0.3},
       "q2": {"d3": 1.5, "d8": 1.25, "d9": 0.3},
       "q3": {"d1": 2.0, "d7": 1.0}}
QRELS = {"q1": {"d1": 2, "d2": 1, "d5": 3}, "q2": {"d3": 1, "d9": 2, "d4": 1},
         "q3": {"d2": 1}}


def test_a_run_ranx_saves_with_a_spaced_name_evaluates_as_ranx_and_pytrec_eval(tmp_path):
    run_path, qrels_path = tmp_path / "run.txt", tmp_path / "qrels.txt"
    RanxRun(RUN, name="BM25 tuned").save(str(run_path), kind="trec")
    Qrels(QRELS).save(str(qrels_path), kind="trec")
    first = run_path.read_text().splitlines()[0]
    assert first.split()[5:] == ["BM25", "tuned"]
    assert looks_like_trec_run(run_path)  # the editor's File > Open takes it for a run
    assert Run(run_path)._table is not None  # read column-wise
    doc = document_from_trec(run_path, qrels_path)
    # pytrec_eval and ranx cannot read the file (see above): given the same dicts.
    ev = evaluate(doc, preset("trec_eval", cutoffs=(None, 3)))
    theirs = pytrec_eval.RelevanceEvaluator(QRELS, {"ndcg", "ndcg_cut.3"}).evaluate(RUN)
    for i, q in enumerate(doc.query_ids):
        assert ev.ndcg[i].tolist() == [theirs[q]["ndcg"], theirs[q]["ndcg_cut_3"]]
    ours = evaluate(doc, preset("ranx", cutoffs=(3,)))
    ranx_run = RanxRun(RUN)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba's parallel-loop notices
        ranx_evaluate(Qrels(QRELS), ranx_run, ["ndcg@3"], make_comparable=False)
    assert ours.ndcg[:, 0].tolist() == [ranx_run.scores["ndcg@3"][q] for q in doc.query_ids]
    assert [round(x, 4) for x in ev.ndcg[:, 0].tolist()] == [0.7687, 0.6388, 0.0]


@pytest.mark.parametrize(("text", "tag"), [
    ("q1 Q0 a 1 3.5 BM25 tuned\nq2 Q0 b 1 2 BM25 tuned\n", "BM25 tuned"),
    ("\ufeff\n  \r\nq1\tQ0\ta\t1\t3.5\tBM25\ttuned  \r\n", "BM25\ttuned"),
    ("q1 Q0 a 1 3.5 bm25\nq2 Q0 b 1 2 other\n", "bm25"),  # the first line's
    ("q1 Q0 a 1 3.5 my run\nq1 Q0 b 2 2 my  run\n", "my run"),  # read line by line
    ("q1 Q0 a 1 3.5 r\u00e9sum\u00e9 1\n", "r\u00e9sum\u00e9 1"),
])
def test_a_runs_tag_is_kept(tmp_path, text, tag):
    """Run.tag was "" for every run: it is the first line's tag as written
    (a spaced one too: ranx's run name), whichever reader reads the run
    (fails before)."""
    run = write(tmp_path / "r.txt", text)
    assert Run(run).tag == tag
    with line_by_line():
        assert Run(run).tag == tag


def test_the_evaluate_command_reads_it(tmp_path):
    run_path, qrels_path = tmp_path / "run.txt", tmp_path / "qrels.txt"
    RanxRun(RUN, name="BM25 tuned").save(str(run_path), kind="trec")
    Qrels(QRELS).save(str(qrels_path), kind="trec")
    plain = write(tmp_path / "plain.txt", run_path.read_text().replace("BM25 tuned", "t"))
    said = []
    for path in (run_path, plain):
        out = io.StringIO()
        assert main(["evaluate", str(path), "--qrels", str(qrels_path),
                     "--unjudged", "zero"], out=out) == 0
        said.append(out.getvalue().replace(path.name, "run"))
    assert said[0] == said[1]
    assert "mean NDCG@all = 0.7645 over 2 queries (equal-query mean; excluded: 1 undefined)" \
        in said[0]


TAGS = st.lists(st.text("BM25tunedé-_.", min_size=1, max_size=6), min_size=1, max_size=3)


@given(trec_files(), TAGS)
def test_a_spaced_tag_reads_as_the_one_word_tag(files, tag):
    """Any run (CRLF, lone CR, tabs, blank lines, no final line break) with
    its tag ``tag`` replaced by words separated by white space: the run's
    columns and its document the same as with the one-word tag, read either
    way (the column scanner takes such a file for irregular and hands it to
    the line-by-line reader)."""
    run_text, qrels_text = files
    spaced = run_text.replace(b"tag", " ".join(tag).encode())
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "plain").mkdir()
        (Path(tmp) / "spaced").mkdir()
        plain_path = write(Path(tmp) / "plain" / "run.txt", run_text)  # one name, the
        spaced_path = write(Path(tmp) / "spaced" / "run.txt", spaced)  # document's
        qrels = write(Path(tmp) / "qrels.txt", qrels_text)
        plain, got = Run(plain_path), Run(spaced_path)
        assert (got.query, got.source, got.line.tolist()) == (
            plain.query, plain.source, plain.line.tolist())
        assert got.score.tobytes() == plain.score.tobytes()
        expected = document_from_trec(plain_path, qrels)
        assert_same(document_from_trec(spaced_path, qrels), expected)
        with line_by_line():
            assert_same(document_from_trec(spaced_path, qrels), expected)


@pytest.mark.parametrize(("text", "fast"), [
    ("q1 Q0 a 1 3.5 my run\nq2 Q0 b 1 2 my run\n", True),
    ("q1 Q0 a 1 3.5 my run\r\n\r\nq2 Q0 b 1 2 my run\r\n", True),
    ("q1 Q0 a 1 3.5 my run\rq2 Q0 b 1 2 my run", True),  # lone CR, no final line break
    ("q1\tQ0\ta\t1\t3.5\tmy run\nq2 Q0 b 1 2  my run\n", True),
    ("\ufeffq1 Q0 a 1 3.5 my run\nq2 Q0 b 1 2\tmy run", True),
    ("q1 Q0 a 1 3.5 my run\nq2 Q0 b 1 2 my  run\n", False),  # the tag spaced otherwise
    ("q1 Q0 a 1 3.5 my run \nq2 Q0 b 1 2 my run\n", False),  # a blank after it
    ("q1 Q0 a 1 3.5 a b c d\nq2 Q0 b 1 2 a b c d\n", True),
    ("3.5 Q0 a 1 3.5 3.5 3.5\n3.5 Q0 b 1 2 3.5 3.5\n", True),  # the score in the ids
])
def test_a_spaced_tag_is_read_column_wise_when_written_alike(tmp_path, text, fast):
    """Column-wise when the tag is written alike on every line (ranx's
    runs); else line by line: the same columns either way."""
    run = write(tmp_path / "r.txt", text)
    got = Run(run)
    assert (got._table is not None) == fast
    with line_by_line():
        slow = Run(run)
    assert (got.query, got.source, got.line.tolist()) == (slow.query, slow.source,
                                                          slow.line.tolist())
    assert got.score.tobytes() == slow.score.tobytes()
    assert got.query[:1] in (["q1"], ["3.5"])


@pytest.mark.parametrize("chunk", [16, 64, 1 << 20])
@pytest.mark.parametrize(("text", "fast"), [
    ("".join(f"q{i % 3} Q0 d{i} {i} {i % 7}.5 my run\n" for i in range(40)), True),
    ("".join(f"q{i % 3} Q0 d{i} {i} {i % 7}.5 my run\r\n" for i in range(40)), True),
    ("".join(f"q{i % 3}\tQ0\td{i}\t{i}\t{i % 7}.5\tmy run\r" for i in range(40)), True),
    ("".join(f"q{i % 3} Q0 d{i} {i} {i % 7}.5 my run\n" for i in range(40))[:-1], True),
    # A line past the first pieces whose tag is spaced otherwise: line by line.
    ("".join(f"q{i % 3} Q0 d{i} {i} {i % 7}.5 my{'  ' if i == 31 else ' '}run\n"
             for i in range(40)), False),
], ids=["lf", "crlf", "tabs-cr", "no-final-break", "differs-at-32"])
def test_a_spaced_tags_line_ends_are_counted_piece_by_piece(tmp_path, monkeypatch, text, fast,
                                                           chunk):
    """The tag's line ends were counted over the whole file's bytes, held
    beside the scanner's pieces (~100 MB of the 2M-line run's 297 MB peak):
    they are counted in each piece the scanner reads (the normal path's
    blocks), the whole file read at once only by the line-by-line reader
    (fails before: read_bytes was called for every spaced tag)."""
    from core.io.trec import read, scan

    run = write(tmp_path / "r.txt", text)
    with line_by_line():
        slow = Run(run)
    whole = read.read_bytes
    held: list[int] = []
    monkeypatch.setattr(read, "read_bytes", lambda path: held.append(1) or whole(path))
    monkeypatch.setattr(scan, "_CHUNK", chunk)
    got = Run(run)
    assert (got._table is not None, len(held)) == ((True, 0) if fast else (False, 1))
    assert (got.query, got.source, got.line.tolist()) == (slow.query, slow.source,
                                                          slow.line.tolist())
    assert got.score.tobytes() == slow.score.tobytes()
    assert len(got.query) == 40


BODY = "q1 Q0 a 1 3.5 my run\nq1 Q0 b 2 2 my run\n"


@pytest.mark.parametrize(("text", "line", "said"), [
    # Too few fields: refused as always.
    (BODY + "q1 Q0 c 3 1.5\n", 3,
     "expected 6 fields (query Q0 source rank score tag), found 5 (each line holds query "
     "Q0 source rank score tag, split by spaces or tabs)"),
    # An id holding a space moves the score into the tag: it differs.
    (BODY + "q1 Q0 c d 3 1.5 my run\n", 3,
     "expected the run tag 'my run' of line 1 after field 5 (query Q0 source rank score "
     "tag), found '1.5 my run' (a run tag holding spaces is read when every line ends in "
     "the same tag; an id holding a space splits its line: join its words (with _))"),
    (BODY + "q1 Q0 c 3 1.5 my\n", 3, "expected the run tag 'my run' of line 1 after field 5"),
    (BODY + "q1 Q0 c 3 1.5 my run 2\n", 3, "found 'my run 2'"),
    # Six fields first: a longer line after them is refused as before.
    ("q1 Q0 c 3 1.5 t\n" + BODY, 2,
     "expected 6 fields (query Q0 source rank score tag), found 7 (an id holding a space "
     "splits the line: join its words (with _); a run tag holding spaces is read when "
     "every line of the run ends in it)"),
    (BODY.replace("3.5", "x"), 1, "'x' is not a finite number"),
])
def test_an_ambiguous_spaced_tag_is_refused_naming_the_line(tmp_path, text, line, said):
    run = write(tmp_path / "r.txt", text)
    qrels = write(tmp_path / "q.txt", "q1 0 a 1\n")
    err = error_of(run, qrels)
    assert err.line == line
    assert said in str(err)
    assert str(err) == str(error_of(run, qrels, slow=True))


def test_text_after_the_tag_names_the_six_fields_to_keep(tmp_path):
    """trec_eval's own results.trunc: each line's tag followed by words that
    differ from line to line, which trec_eval skips. The tag's first word is
    the same on both lines, so the refusal names text after the tag too,
    with the line that keeps the six fields; in a new user's trial it named
    only a spaced tag and an id holding a space, neither of which the file
    holds."""
    run = write(tmp_path / "results.trunc",
                "301\tQ0\tFBIS3-1\t99\t  2.13\tSTANDARD more junk at\n"
                "303\tQ0\tFT941-1\t99\t  1.85\tSTANDARD end of lines.\n")
    qrels = write(tmp_path / "q.txt", "301 0 FBIS3-1 1\n")
    err = error_of(run, qrels)
    assert err.line == 2
    assert str(err).endswith(
        "found 'STANDARD end of lines.' (a run tag holding spaces is read when every line ends "
        "in the same tag; an id holding a space splits its line: join its words (with _); or "
        "text after the tag STANDARD, which trec_eval skips: keep the six fields, awk "
        "'{print $1, $2, $3, $4, $5, $6}' results.trunc > trec-results.trunc)")
    assert str(err) == str(error_of(run, qrels, slow=True))
