"""Hostile and broken text inputs through the command line and the window, as
a user would run them (each case in its own process with a time limit and a
memory limit: ``tests/hostile_cases.py``).

The corpus is tests/data/hostile/text/, written by
tests/data/make_hostile_text.py with its expected outcomes (expected.json);
special files (FIFO, folder, device, link loop, missing, unreadable) and the
output-path cases are made here. Every input goes through ``evaluate``,
``export -o OUT`` and, when it is read, a reopen of what was exported (the
same NDCG per query); special files and a sample of the corpus also through
the window (``build_window``; a window case costs a second of Qt start-up).
Each refusal is exit status 2 with one line on stderr holding the expected
phrases; never a traceback, a signal or a hang; no input file changes; a
refused export writes nothing.

The cases are built first and run in three harnesses: the command line's
(evaluate, export), then the reopens of what it wrote, and beside them the
window's.
"""

from __future__ import annotations

import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.hostile_cases import Outcome, check, digests, run_cases

CORPUS = Path(__file__).resolve().parent / "data" / "hostile" / "text"
EXPECTED: dict[str, dict[str, Any]] = json.loads((CORPUS / "expected.json").read_text())
#: Corpus inputs that also open in the window: two of every family (encodings,
#: line ends, headers, ids, numbers, rows, TREC, TSV; none that needs a flag),
#: the three that first showed the window's own problems among them. The
#: window reads with the command line's reader (every input goes through that
#: above); a window case costs half a second or more of Qt start-up.
WINDOW_SAMPLE = tuple(sorted({
    "rows_unbalanced_quote.csv", "ids_escape_clear_screen.csv", "trec_qrels_duplicate.run",
    *(name for family in ("delim", "enc", "eol", "header", "ids", "num", "rows", "trec", "tsv")
      for name in sorted(n for n in EXPECTED if n.startswith(family + "_")
                         and not EXPECTED[n].get("args"))[:2]),
}))
#: Read inputs also exported as a workbook and reopened (the property test
#: in tests/test_roundtrip_ids.py covers any id; a workbook export costs
#: half a second here).
XLSX_SAMPLE = ("ids_formula_like.csv", "ids_escape_clear_screen.csv", "ids_cr_in_query.csv",
               "ids_apostrophe_marked.csv")
#: Read inputs also printed as a table (the others are printed as JSON).
TABLE_SAMPLE = tuple(sorted(
    name for name, case in EXPECTED.items()
    if not case["refused"] and name.startswith(("ids_", "trec_run_control", "trec_qrels_control",
                                                "trec_run_formula", "enc_utf", "rows_header_only"))
))
#: Special files that also open in the window (a FIFO would block its
#: workbook check and its reader alike).
SPECIAL_WINDOWS = ("fifo.csv", "fifo.xlsx", "fifo.qrels", "folder.csv", "dev_zero", "loop.csv")
CLI = {"timeout": 20, "memory_mb": 1024}
WINDOW = {"timeout": 30, "memory_mb": 3072, "entry": "window"}


def _builder() -> Any:
    sys.path.insert(0, str(CORPUS.parent.parent))
    try:
        import make_hostile_text
    finally:
        sys.path.pop(0)
    return make_hostile_text


def test_corpus_is_complete_small_and_reproducible() -> None:
    files, expected = _builder().build()
    assert len(expected) >= 100
    assert expected == EXPECTED
    assert sorted(files) == sorted(p.name for p in CORPUS.iterdir())
    for name, data in files.items():
        assert len(data) < 200_000, name
        assert (CORPUS / name).read_bytes() == data, f"{name} differs: rerun make_hostile_text.py"
    refused = sum(e["refused"] for e in expected.values())
    assert 60 <= refused <= len(expected) - 40  # both outcomes well represented


# -- the cases ----------------------------------------------------------------------------

class Plan:
    """Every case of the module, what each must show, and the files to keep."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.first: list[dict[str, Any]] = []
        self.second: list[dict[str, Any]] = []
        self.expect: dict[str, tuple[bool, tuple[str, ...], str]] = {}
        self.outputs: dict[str, Path] = {}  # refused export case -> the path it must not write
        self.reopen: dict[str, tuple[str, str]] = {}  # reopen case -> (evaluate-json case, kind)
        self.inputs: list[Path] = sorted(CORPUS.iterdir())

    def add(self, batch: list[dict[str, Any]], case_id: str, argv: list[str], refused: bool,
            phrases: tuple[str, ...] = (), **options: Any) -> None:
        entry = options.get("entry", "cli")
        batch.append({"id": case_id, "argv": argv, **(WINDOW if entry == "window" else CLI),
                      **options})
        self.expect[case_id] = (refused, phrases, entry)


#: Files the window decodes as the annotators' importer does (a byte order
#: mark, UTF-8, else Windows-1252: never a refusal of a file Excel saved),
#: where the command line stays strict: whether the window refuses them, and
#: the phrases it says.
WINDOW_DECODES: dict[str, tuple[bool, tuple[str, ...]]] = {
    "enc_cp1252.csv": (False, ()),
    # UTF-8 cut inside its last character reads as Windows-1252: the row is short.
    "enc_cut_inside_character.csv": (True, ("line 3", "expected 4 fields")),
}
#: Files whose export is refused before writing, since the file written
#: could not be evaluated when opened again (gains past the largest float
#: under the default linear gain; tests/test_hostile_writes.py).
NOT_READ_BACK = {"num_grades_sum_overflow.csv"}


def _input_argv(name: str, case: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The input arguments (input, --qrels) and the extra flags of a corpus case."""
    argv = [str(CORPUS / name)]
    if "qrels" in case:
        argv += ["--qrels", str(CORPUS / case["qrels"])]
    return argv, list(case.get("args", []))


def _targets(name: str, case: dict[str, Any], out: Path) -> list[Path]:
    """Where a corpus input is exported: a refused one once (the refusal is
    the reading's), a read one in its own kind (a TREC pair as run and
    qrels) and, for a few, as a workbook too."""
    if case["refused"] and case.get("refused_by") != "evaluation":
        return [out / ("back.run" if "qrels" in case else "back.csv")]
    targets = [out / "back.run", out / "back.qrels"] if "qrels" in case else [out / "back.csv"]
    return targets + ([out / "back.xlsx"] if name in XLSX_SAMPLE else [])


def _corpus_cases(plan: Plan) -> None:
    for name, case in sorted(EXPECTED.items()):
        refused, phrases = case["refused"], tuple(case["phrases"])
        # An error of the evaluation (a gain no grade can have) is not one of
        # the file: the file still converts to CSV or TREC, unless the
        # converted file could not be evaluated under the conventions it
        # reopens with (the defaults): then nothing is written.
        converts = (not refused or case.get("refused_by") == "evaluation") and (
            name not in NOT_READ_BACK)
        inputs, flags = _input_argv(name, case)
        out = plan.work / "out" / name
        out.mkdir(parents=True)
        if refused or name in TABLE_SAMPLE:
            plan.add(plan.first, f"{name}/evaluate", ["evaluate", *inputs, *flags], refused,
                     phrases)
        for target in _targets(name, case, out):
            export = f"{name}/export{target.suffix}"
            plan.add(plan.first, export, ["export", *inputs, "-o", str(target), *flags],
                     not converts, () if converts else phrases)
            if not converts:
                plan.outputs[export] = target
        if refused:
            continue
        plan.add(plan.first, f"{name}/json", ["evaluate", *inputs, *flags, "--format", "json"],
                 False)
        # What we wrote is UTF-8: the input's declared encoding is not the output's.
        conventions = flags if "--encoding" not in flags else []
        for target in _targets(name, case, out):
            if target.suffix == ".qrels":
                continue
            argv = [str(target)] + (["--qrels", str(out / "back.qrels")]
                                    if target.suffix == ".run" else [])
            case_id = f"{name}/reopen{target.suffix}"
            plan.add(plan.second, case_id, ["evaluate", *argv, *conventions, "--format", "json"],
                     False)
            plan.reopen[case_id] = (f"{name}/json", name)
    for name in WINDOW_SAMPLE:
        case = EXPECTED[name]
        inputs = [str(CORPUS / name)] + ([str(CORPUS / case["qrels"])] if "qrels" in case else [])
        refused, phrases = WINDOW_DECODES.get(name, (case["refused"], tuple(case["phrases"])))
        plan.add(plan.first, f"{name}/window", inputs, refused, phrases, entry="window")


def _special_files(plan: Plan) -> None:
    """Files no repository can hold: made here, each refused before it is opened."""
    d = plan.work / "special"
    d.mkdir()
    good = d / "good.csv"
    good.write_text("query,source_id,score,grade\nq1,a,2,1\nq1,b,1,0\n")
    run, qrels = d / "good.run", d / "good.qrels"
    run.write_text("q1 Q0 a 1 2 t\nq1 Q0 b 2 1 t\n")
    qrels.write_text("q1 0 a 1\nq1 0 b 0\n")
    for name in ("fifo.csv", "fifo.run", "fifo.qrels", "fifo.xlsx"):
        os.mkfifo(d / name)
    (d / "folder.csv").mkdir()
    (d / "loop_a.csv").symlink_to(d / "loop_b.csv")
    (d / "loop_b.csv").symlink_to(d / "loop_a.csv")
    (d / "dangling.csv").symlink_to(d / "nowhere.csv")
    locked = d / "unreadable.csv"
    locked.write_text(good.read_text())
    locked.chmod(0)
    readable = os.access(locked, os.R_OK)  # root reads it anyway
    fifo = ("named pipe (FIFO)", "not a file")
    cases: list[tuple[str, list[str], bool, tuple[str, ...]]] = [
        ("fifo.csv", [str(d / "fifo.csv")], True, fifo),
        ("fifo.xlsx", [str(d / "fifo.xlsx")], True, fifo),
        ("fifo.run", [str(d / "fifo.run"), "--qrels", str(qrels)], True, fifo),
        ("fifo.qrels", [str(run), "--qrels", str(d / "fifo.qrels")], True, ("fifo.qrels", *fifo)),
        ("folder.csv", [str(d / "folder.csv")], True, ("a folder, not a file",)),
        ("dev_zero", ["/dev/zero"], True, ("/dev/zero", "a device, not a file")),
        ("dev_zero_qrels", [str(run), "--qrels", "/dev/zero"], True, ("a device",)),
        ("loop.csv", [str(d / "loop_a.csv")], True, ("loop of symbolic links",)),
        ("dangling.csv", [str(d / "dangling.csv")], True, ("link to a file that does not",)),
        ("missing.csv", [str(d / "missing.csv")], True, ("no such file",)),
        ("unreadable.csv", [str(locked)], not readable, () if readable else ("permission denied",)),
    ]
    for case_id, inputs, refused, phrases in cases:
        plan.add(plan.first, f"special/{case_id}/evaluate", ["evaluate", *inputs], refused, phrases)
        target = plan.work / "out" / f"special_{case_id}.csv"
        export = f"special/{case_id}/export"
        plan.add(plan.first, export, ["export", *inputs, "-o", str(target)], refused, phrases)
        if refused:
            plan.outputs[export] = target
        if case_id in SPECIAL_WINDOWS:
            window = [inputs[0], inputs[2]] if "--qrels" in inputs else inputs
            plan.add(plan.first, f"special/{case_id}/window", window, refused, phrases,
                     entry="window")
    plan.inputs += [good, run, qrels, locked, d / "folder.csv"]


def _output_paths(plan: Plan) -> None:
    """An export never writes over its input; a bad output place is one clear line."""
    d = plan.work / "outputs"
    d.mkdir()
    good = d / "good.csv"
    good.write_text("query,source_id,score,grade\n=1+1,a,2,1\nq1,b,1,0\n")
    other = d / "other.csv"
    other.write_text(good.read_text())
    run, qrels = d / "good.run", d / "good.qrels"
    run.write_text("q1 Q0 a 1 2 t\n")
    qrels.write_text("q1 0 a 1\n")
    (d / "link.csv").symlink_to(good)
    (d / "link.xlsx").symlink_to(good)
    os.link(good, d / "hard.csv")
    (d / "folder.csv").mkdir()
    locked = d / "locked.csv"
    locked.write_text("old\n")
    locked.chmod(0o444)
    same = ("the output is the input file", "nothing was written")
    cases: list[tuple[str, list[str], tuple[str, ...]]] = [
        ("same", ["export", str(good), "-o", str(good)], same),
        ("same_relative", ["export", str(good), "-o", str(d / "." / "good.csv")], same),
        ("same_by_link", ["export", str(good), "-o", str(d / "link.csv")], same),
        ("same_hard_link", ["export", str(good), "-o", str(d / "hard.csv")], same),
        ("same_as_qrels", ["export", str(run), "--qrels", str(qrels), "-o", str(qrels),
                           "--to", "qrels"], same),
        ("compare_over_input", ["compare", str(good), str(other), "--export",
                                str(d / "link.xlsx")], same),
        ("vanished_folder", ["export", str(good), "-o", str(d / "gone" / "out.csv")],
         ("folder is gone",)),
        ("onto_folder", ["export", str(good), "-o", str(d / "folder.csv")],
         ("not a regular file",)),
        ("onto_device", ["export", str(good), "-o", "/dev/full", "--to", "csv"],
         ("not a regular file",)),
        ("onto_read_only_file", ["export", str(good), "-o", str(locked)], ("read-only",)),
        ("trec_space_id", ["export", str(CORPUS / "ids_surrounding_spaces.csv"), "-o",
                           str(d / "x.run")], ()),
        ("trec_cr_id", ["export", str(CORPUS / "ids_cr_in_query.csv"), "-o", str(d / "x.qrels")],
         ("query id 'q\\r1'", "white space", "TREC file cannot hold", "nothing was written")),
        ("trec_space_source", ["export", str(CORPUS / "ids_tab_in_source.csv"), "-o",
                               str(d / "y.run")], ("source id 'a\\tb'", "row 1")),
    ]
    for case_id, argv, phrases in cases:
        refused = case_id != "trec_space_id"  # ' q1 ' is trimmed on reading: a plain id
        plan.add(plan.first, f"output/{case_id}", argv, refused, phrases)
    plan.inputs += [good, other, run, qrels, locked]
    for name in ("x.qrels", "y.run"):
        plan.outputs[f"output/{'trec_cr_id' if name == 'x.qrels' else 'trec_space_source'}"] = (
            d / name)


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    plan = Plan(tmp_path_factory.mktemp("hostile_text"))
    _corpus_cases(plan)
    _special_files(plan)
    _output_paths(plan)
    before = digests(plan.inputs)
    windows = [c for c in plan.first if c.get("entry") == "window"]
    cli = [c for c in plan.first if c.get("entry") != "window"]
    # The window cases (a second or two of Qt start-up each) run beside the
    # command line's, in a harness of their own: the machine's two cores
    # share the work.
    with ThreadPoolExecutor(max_workers=1) as pool:
        window_outcomes = pool.submit(run_cases, windows)
        outcomes = run_cases(cli)
        outcomes.update(run_cases(plan.second))
        outcomes.update(window_outcomes.result())
    after = digests(plan.inputs)
    return {"plan": plan, "outcomes": outcomes, "before": before, "after": after}


# -- what a user sees ---------------------------------------------------------------------

def _problems(results: dict[str, Any], prefix: str = "") -> list[str]:
    plan: Plan = results["plan"]
    outcomes: dict[str, Outcome] = results["outcomes"]
    found = []
    for case_id, (refused, phrases, entry) in plan.expect.items():
        if case_id.startswith(prefix):
            found += [f"{case_id}: {p}" for p in check(outcomes[case_id], refused=refused,
                                                      phrases=phrases, entry=entry)]
    return found


def test_corpus_on_the_command_line(results: dict[str, Any]) -> None:
    problems = [p for p in _problems(results) if not p.startswith(("special/", "output/"))
                and "/window:" not in p]
    assert problems == []


def test_corpus_in_the_window(results: dict[str, Any]) -> None:
    plan: Plan = results["plan"]
    windows = [c for c in plan.expect if c.endswith("/window")]
    assert len(windows) == len(WINDOW_SAMPLE) + len(SPECIAL_WINDOWS)
    assert [p for p in _problems(results) if "/window:" in p] == []


def test_special_files_are_refused_before_opening(results: dict[str, Any]) -> None:
    assert _problems(results, "special/") == []


def test_output_places(results: dict[str, Any]) -> None:
    assert _problems(results, "output/") == []


def test_no_input_changes_and_a_refused_export_writes_nothing(results: dict[str, Any]) -> None:
    assert results["after"] == results["before"]
    plan: Plan = results["plan"]
    written = [str(path) for path in plan.outputs.values() if path.exists() or path.is_symlink()]
    assert written == []
    leftovers = [p.name for p in plan.work.rglob(".*.tmp")]
    assert leftovers == []


def test_reopened_exports_give_the_same_results(results: dict[str, Any]) -> None:
    plan: Plan = results["plan"]
    outcomes: dict[str, Outcome] = results["outcomes"]
    assert len(plan.reopen) >= 60
    differ = []
    for case_id, (original, _name) in plan.reopen.items():
        first = json.loads(outcomes[original].stdout)["queries"]
        again = json.loads(outcomes[case_id].stdout)["queries"]
        if again != first:
            differ.append(case_id)
    assert differ == []


def _refuse_constant(text: str) -> None:
    raise AssertionError(f"not standard JSON: {text}")


def test_json_output_is_standard_json(results: dict[str, Any]) -> None:
    outcomes: dict[str, Outcome] = results["outcomes"]
    jsons = [o.stdout for case_id, o in outcomes.items() if case_id.endswith(("/json", ".json"))
             or "/reopen" in case_id]
    assert len(jsons) >= 100
    for text in jsons:
        json.loads(text, parse_constant=_refuse_constant)


def test_tables_show_control_characters_escaped(results: dict[str, Any]) -> None:
    """No id acts on the terminal: the table holds no control character but
    the line feeds that end its lines, and no bidirectional override."""
    outcomes: dict[str, Outcome] = results["outcomes"]
    tables = {c: o.stdout for c, o in outcomes.items() if c.endswith("/evaluate") and o.status == 0}
    assert len(tables) >= 20
    bad = {c: sorted({repr(ch) for ch in text if (ch < " " and ch != "\n") or "\x7f" <= ch <= "\x9f"
                      or ch in "\u2028\u2029\u202e\u200b"})
           for c, text in tables.items()}
    assert {c: chars for c, chars in bad.items() if chars} == {}
    shown = tables["ids_escape_clear_screen.csv/evaluate"]
    assert "q\\x1b[2J" in shown
    assert "q1\\rq9  ok  1/1  1.0000" in tables["ids_cr_forged_row.csv/evaluate"]
