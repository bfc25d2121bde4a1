# ruff: noqa: E501
"""Write the corpus of hostile and broken text inputs (tests/data/hostile/text/).

Run ``python tests/data/make_hostile_text.py``; the output is deterministic
and committed, each file smaller than 200 KB. ``expected.json`` says, for each
input, what a user must see::

    {"refused": true, "phrases": ["line 3", "'1_0'"]}          # exit 2, one line holding these
    {"refused": false, "phrases": []}                           # read and evaluated
    {"refused": ..., "qrels": "x.qrels"}                        # a TREC run and its qrels
    {"refused": ..., "args": ["--gain", "exponential"]}         # flags the command line adds
    {"refused": true, "refused_by": "evaluation", ...}          # the file converts; NDCG cannot be computed

Kinds: worksheet CSV/TSV (numbers, rows, headers, encodings, line endings,
ids with control characters and formula-like text, delimiters, grades),
TREC runs and qrels. Special files (FIFO, folder, device, link loop, missing,
unreadable) cannot be committed: tests/test_hostile_text.py makes them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent / "hostile" / "text"
H = "query,source_id,score,grade\n"
BODY = "q1,a,3,2\nq1,b,2,0\nq1,c,1,1\nq2,a,2,1\nq2,d,1,0\n"
RUN = "q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 c 3 1 t\nq2 Q0 a 1 2 t\nq2 Q0 d 2 1 t\n"
QRELS = "q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq2 0 a 1\nq2 0 d 0\n"

Case = dict[str, Any]


def _ws(name: str, text: str | bytes, refused: bool, *phrases: str, **extra: Any) -> tuple[str, bytes, Case]:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return name, data, {"refused": refused, "phrases": list(phrases), **extra}


def numbers() -> list[tuple[str, bytes, Case]]:
    """Grades and scores outside the one number grammar, and inside it."""
    def grade(name: str, value: str, refused: bool, *phrases: str, **extra: Any) -> tuple[str, bytes, Case]:
        # The engine's errors (a gain a grade cannot have) name the source and query, not a line.
        where = ("line 3", "column 'grade'") if refused and "args" not in extra else ()
        return _ws(name, H + "q1,a,3,2\nq1,b,2," + value + "\nq1,c,1,1\n", refused,
                   *where, *phrases, **extra)

    def score(name: str, value: str, refused: bool, *phrases: str) -> tuple[str, bytes, Case]:
        return _ws(name, H + "q1,a,3,2\nq1,b," + value + ",0\nq1,c,1,1\n", refused,
                   *(("line 3", "column 'score'") if refused else ()), *phrases)

    return [
        grade("num_grade_underscore.csv", "1_0", True, "'1_0'", "digits grouped with '_'"),
        grade("num_grade_underscores_many.csv", "1_000_000", True, "'1_000_000'", "digits grouped"),
        score("num_score_underscore.csv", "0.5_1", True, "'0.5_1'", "digits grouped"),
        grade("num_grade_nan.csv", "NaN", True, "'NaN'", "not a finite number"),
        score("num_score_nan.csv", "nan", True, "'nan'", "not a finite number"),
        grade("num_grade_inf.csv", "inf", True, "'inf'", "not a finite number"),
        score("num_score_minus_inf.csv", "-inf", True, "'-inf'", "not a finite number"),
        grade("num_grade_infinity.csv", "Infinity", True, "'Infinity'", "not a finite number"),
        grade("num_grade_1e999.csv", "1e999", True, "'1e999'", "not a finite number", "1.8e308"),
        score("num_score_minus_1e999.csv", "-1e999", True, "'-1e999'", "not a finite number"),
        grade("num_grade_hex.csv", "0x1", True, "'0x1'", "not a decimal number"),
        score("num_score_hex_float.csv", "0x1p-2", True, "'0x1p-2'", "not a decimal number"),
        grade("num_grade_decimal_comma.csv", '"2,5"', True, "'2,5'", "decimal comma", "write 2.5"),
        grade("num_grade_thousands.csv", '"1,000"', True, "'1,000'", "thousands separator"),
        grade("num_grade_arabic_digit.csv", "\u0661", True, "digits other than 0-9"),
        score("num_score_fullwidth_digits.csv", "\uff12\uff13", True, "digits other than 0-9"),
        grade("num_grade_inner_space.csv", "1 0", True, "'1 0' is not a number"),
        grade("num_grade_sign_twice.csv", "+-1", True, "'+-1' is not a number"),
        grade("num_grade_dot.csv", ".", True, "'.' is not a number"),
        grade("num_grade_bare_exponent.csv", "1e", True, "'1e' is not a number"),
        grade("num_grade_word.csv", "high", True, "'high' is not a number"),
        grade("num_grade_percent.csv", "50%", True, "'50%' is not a number"),
        grade("num_grade_nbsp.csv", "1\u00a0000", True, "is not a number"),
        grade("num_grade_na.csv", "N/A", False),  # (unrateable, as the grid reads it)
        grade("num_grade_exp_overflow.csv", "1100", True, "grade 1100", "source 'b'", "query 'q1'",
              "gain beyond", "exponential gain", args=["--gain", "exponential"], refused_by="evaluation"),
        _ws("num_grades_sum_overflow.csv", H + "q1,a,3,1e308\nq1,b,2,1e308\nq1,c,1,1e308\n", True,
            "the gains of query 'q1' add up beyond", "1.8e308", refused_by="evaluation"),
        grade("num_grade_negative_exponential.csv", "-1", True, "grade -1", "source 'b'", "negative",
              args=["--gain", "exponential"], refused_by="evaluation"),
        grade("num_grade_minus_zero.csv", "-0", False),
        score("num_score_minus_zero.csv", "-0.0", False),
        grade("num_grade_exponent.csv", "2E+0", False),
        score("num_score_small_exponent.csv", "1e-3", False),
        grade("num_grade_leading_dot.csv", ".5", False),
        grade("num_grade_trailing_dot.csv", "5.", False),
        grade("num_grade_plus.csv", "+1", False),
        grade("num_grade_1e308.csv", "1e308", False),
        score("num_score_subnormal.csv", "4.9e-324", False),
        score("num_score_long_digits.csv", "0.12345678901234567890123456789", False),
        grade("num_grade_padded.csv", " 1 ", False),
    ]


def rows() -> list[tuple[str, bytes, Case]]:
    """Rows with missing or extra fields, quotes, empties, duplicates."""
    long_id = "s" * 140_000
    return [
        _ws("rows_missing_field.csv", H + "q1,a,3,2\nq1,b,2\nq1,c,1,1\n", True,
            "line 3", "expected 4 fields", "found 3", "column 'grade'"),
        _ws("rows_last_row_short.csv", H + "q1,a,3,2\nq1,b,2,0\nq1,c,1", True,
            "line 4", "expected 4 fields", "found 3"),
        _ws("rows_cut_mid_row.csv", H + "q1,a,3,2\nq1,b,2,0\nq1,c", True, "line 4", "found 2"),
        _ws("rows_one_field.csv", H + "q1,a,3,2\nq1\n", True, "line 3", "found 1", "column 'source_id'"),
        _ws("rows_too_many_fields.csv", H + "q1,a,3,2\nq1,b,2,0,x\n", True, "line 3", "expected 4 fields", "found 5"),
        _ws("rows_trailing_delimiter.csv", H + "q1,a,3,2,\n", True, "line 2", "found 5"),
        _ws("rows_unbalanced_quote.csv", H + 'q1,"a,3,2\nq1,b,2,0\nq1,c,1,1\n', True,
            "line 2", "no closing quote", "column 'source_id'"),
        _ws("rows_unbalanced_quote_last.csv", H + 'q1,a,3,2\n"q2,b,2,0', True,
            "line 3", "no closing quote", "column 'query'"),
        _ws("rows_text_after_quote.csv", H + 'q1,"a"b,3,2\n', True, "line 2", "text follows a closing quote"),
        _ws("rows_quote_in_middle.csv", H + 'q1,a"b,3,2\n', False),
        _ws("rows_field_over_limit.csv", H + f"q1,{long_id},3,2\n", True,
            "line 2", "longer than 131,072 characters"),
        _ws("rows_field_near_limit.csv", H + f"q1,{long_id[:100_000]},3,2\nq1,b,2,1\n", False),
        _ws("rows_blank_lines.csv", H + "\nq1,a,3,2\n\n\nq1,b,2,0\n\n", False),
        _ws("rows_only_delimiters.csv", H + "q1,a,3,2\n,,,\nq1,b,2,0\n", False),
        _ws("rows_header_only.csv", H, False),
        _ws("rows_duplicate_pair.csv", H + "q1,a,3,2\nq1,b,2,0\nq1,a,1,1\n", True,
            "lists source 'a' twice"),
        _ws("rows_duplicate_after_trim.csv", H + "q1,a,3,2\nq1, a ,2,0\n", True, "lists source 'a' twice"),
        _ws("rows_case_differs.csv", H + "q1,a,3,2\nq1,A,2,0\n", False),
        _ws("rows_empty_query.csv", H + "q1,a,3,2\n,b,2,0\n", True, "line 3", "the query is empty"),
        _ws("rows_empty_source.csv", H + "q1,a,3,2\nq1,,2,0\n", True, "line 3", "the source_id is empty"),
        _ws("rows_apostrophe_only_source.csv", H + "q1,',2,0\n", True, "line 2", "the source_id is empty"),
        _ws("rows_space_only_query.csv", H + "   ,a,2,0\n", True, "the query is empty"),
        _ws("rows_ideographic_space_query.csv", H + "\u3000,a,2,0\n", True, "the query is empty"),
        _ws("rows_unknown_words.csv", H + "q1,a,3,unknown\nq1,b,2,\nq1,c,1,unrateable\nq1,d,0,2\n", False),
        _ws("rows_no_scores.csv", H + "q1,a,,2\nq1,b,,1\n", False),
    ]


def headers() -> list[tuple[str, bytes, Case]]:
    return [
        _ws("header_no_grade.csv", "query,source_id,score\nq1,a,3\n", True, "line 1", "no 'grade' column"),
        _ws("header_no_score.csv", "query,source_id,grade\nq1,a,3\n", True, "line 1", "no 'score' column"),
        _ws("header_missing.csv", BODY, True, "line 1", "no 'query' column"),
        _ws("header_grade_twice.csv", "query,source_id,score,grade,grade\nq1,a,3,2,1\n", True,
            "line 1", "names 'grade' twice", "columns 4 and 5"),
        _ws("header_aliases.csv", "qid,docno,sim,rel\n" + BODY, False),
        _ws("header_reordered.csv", "grade,score,source_id,query\n2,3,a,q1\n0,2,b,q1\n", False),
        _ws("header_spaces_case.csv", " Query , Source-ID ,SCORE, Grade \n" + BODY, False),
        _ws("header_after_blank_lines.csv", "\n\n" + H + BODY, False),
        _ws("header_unknown_extra_column.csv", "query,source_id,score,grade,comment2\nq1,a,3,2,x\n", False),
        _ws("header_with_note_reason_version.csv",
            "query,source_id,version,score,grade,note,reason\nq1,a,v1,3,2,fine,\nq1,b,v1,2,unrateable,,page gone\n", False),
        _ws("header_empty_file.csv", b"", True, "empty"),
        _ws("header_blank_file.csv", "\n  \n\n", True, "empty"),
    ]


def encodings() -> list[tuple[str, bytes, Case]]:
    text = H + "q1,caf\u00e9,3,2\nq1,na\u00efve,2,0\nq1,c,1,1\n"
    return [
        _ws("enc_utf8_bom.csv", b"\xef\xbb\xbf" + text.encode(), False),
        _ws("enc_utf16le_bom.csv", text.encode("utf-16"), False),
        _ws("enc_utf16be_bom.csv", b"\xfe\xff" + text.encode("utf-16-be"), False),
        _ws("enc_utf32_bom.csv", text.encode("utf-32"), False),
        _ws("enc_utf16_no_bom.csv", text.encode("utf-16-le"), True, "binary", "NUL", "line 1"),
        _ws("enc_utf16_cut_short.csv", text.encode("utf-16")[:-1], True, "not valid UTF-16"),
        _ws("enc_cp1252.csv", text.encode("cp1252"), True,
            "line 2", "byte 0xE9", "not valid UTF-8", "--encoding cp1252"),
        _ws("enc_cp1252_declared.csv", text.encode("cp1252"), False, args=["--encoding", "cp1252"]),
        _ws("enc_latin1_declared.csv", text.encode("latin-1"), False, args=["--encoding", "latin-1"]),
        _ws("enc_unknown_declared.csv", text.encode("cp1252"), True, "'klingon' is not an encoding",
            args=["--encoding", "klingon"]),
        _ws("enc_cp1252_undefined_byte.csv", H.encode() + b"q1,a\x81,3,2\n", True,
            "line 2", "byte 0x81", "not valid cp1252", args=["--encoding", "cp1252"]),
        _ws("enc_one_stray_byte.csv", (H + "q1,caf\u00e9,3,2\nq1,b,2,0\n").encode() + b"q1,\xff,1,1\n", True,
            "line 4", "byte 0xFF", "character 4", "not valid UTF-8"),
        _ws("enc_overlong.csv", H.encode() + b"q1,\xc0\xaf,3,2\n", True, "line 2", "byte 0xC0"),
        _ws("enc_encoded_surrogate.csv", H.encode() + b"q1,\xed\xa0\x80,3,2\n", True, "line 2", "byte 0xED"),
        _ws("enc_cut_inside_character.csv", (H + "q1,a,3,2\nq1,caf").encode() + b"\xc3", True,
            "line 3", "byte 0xC3"),
        _ws("enc_nul_late.csv", H + "q1,a,3,2\n" * 400 + "q1,b\x00,2,0\n", True, "line 402", "NUL"),
        _ws("enc_nul_in_header.csv", "query,source\x00_id,score,grade\nq1,a,3,2\n", True, "line 1", "binary"),
        _ws("enc_zip_named_csv.csv", b"PK\x03\x04" + bytes(60), True, "workbook, not a text file"),
        _ws("enc_ole_named_csv.csv", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(60), True, "workbook"),
    ]


def line_endings() -> list[tuple[str, bytes, Case]]:
    return [
        _ws("eol_crlf.csv", (H + BODY).replace("\n", "\r\n"), False),
        _ws("eol_cr.csv", (H + BODY).replace("\n", "\r"), False),
        _ws("eol_mixed.csv", H + "q1,a,3,2\r\nq1,b,2,0\rq1,c,1,1\n", False),
        _ws("eol_no_final_newline.csv", H + BODY.rstrip("\n"), False),
        _ws("eol_crlf_error_line.csv", (H + "q1,a,3,2\nq1,b,2,x\n").replace("\n", "\r\n"), True,
            "line 3", "'x' is not a number"),
        _ws("eol_cr_error_line.csv", (H + "q1,a,3,2\nq1,b,2,x\n").replace("\n", "\r"), True,
            "line 3", "'x' is not a number"),
        _ws("eol_error_after_multiline_field.csv", H + 'q1,"a\nb",3,2\nq1,c,2,x\n', True,
            "line 4", "'x' is not a number"),
    ]


def ids() -> list[tuple[str, bytes, Case]]:
    """Ids that must come through exactly: control characters, formula-like text, quotes."""
    return [
        _ws("ids_cr_in_query.csv", H + '"q\r1",a,3,2\n"q\r1",b,2,0\nq2,a,1,1\n', False),
        _ws("ids_cr_forged_row.csv", H + '"q1\rq9  ok  1/1  1.0000",a,3,0\n', False),
        _ws("ids_escape_clear_screen.csv", H + "q\x1b[2J,a,3,2\nq\x1b[31mred,b,2,1\n", False),
        _ws("ids_newline_in_source.csv", H + 'q1,"a\nb",3,2\nq1,c,2,0\n', False),
        _ws("ids_tab_in_source.csv", H + 'q1,"a\tb",3,2\n', False),
        _ws("ids_formula_like.csv", H + "=1+1,a,3,2\n+cmd,b,2,1\n-2,c,1,0\n@SUM(A1),d,1,1\n", False),
        _ws("ids_formula_dde.csv", H + "=cmd|' /C calc'!A0,a,3,2\n", False),
        _ws("ids_apostrophe_marked.csv", H + "'=1+1,a,3,2\n'',b,2,1\n", False),
        _ws("ids_bidi_override.csv", H + "q\u202e1,a,3,2\n", False),
        _ws("ids_zero_width.csv", H + "q\u200b1,a,3,2\nq1,a,2,0\n", False),
        _ws("ids_doubled_quotes.csv", H + 'q1,"say ""hi""",3,2\n', False),
        _ws("ids_delimiter_inside.csv", H + 'q1,"a,b",3,2\n"q,2",c,2,1\n', False),
        _ws("ids_surrounding_spaces.csv", H + " q1 ,  a  ,3,2\nq1,b,2,0\n", False),
        _ws("ids_long_query.csv", H + "q" * 10_000 + ",a,3,2\n", False),
        _ws("ids_c1_controls.csv", H + "q\x85\x9b1,a,3,2\n", False),
        _ws("ids_line_separator.csv", H + "q\u20281,a,3,2\nq\u20291,b,2,0\n", False),
        _ws("ids_del_and_bell.csv", H + "q\x07\x7f1,a,3,2\n", False),
        _ws("ids_emoji_astral.csv", H + "q\U0001f600,a,3,2\n", False),
    ]


def delimiters() -> list[tuple[str, bytes, Case]]:
    return [
        _ws("tsv_basic.tsv", (H + BODY).replace(",", "\t"), False),
        _ws("tsv_decimal_comma.tsv", "query\tsource_id\tscore\tgrade\nq1\ta\t0,5\t2\n", True,
            "line 2", "column 'score'", "decimal comma"),
        _ws("tsv_quoted_tab.tsv", 'query\tsource_id\tscore\tgrade\nq1\t"a\tb"\t3\t2\n', False),
        _ws("tsv_missing_field.tsv", "query\tsource_id\tscore\tgrade\nq1\ta\t3\n", True, "line 2", "found 3"),
        _ws("tsv_commas_in_ids.tsv", "query\tsource_id\tscore\tgrade\nq,1\ta,b\t3\t2\n", False),
        _ws("tsv_crlf.tsv", (H + BODY).replace(",", "\t").replace("\n", "\r\n"), False),
        _ws("delim_semicolon.csv", (H + BODY).replace(",", ";"), False),
        _ws("delim_semicolon_decimal_comma.csv", "query;source_id;score;grade\nq1;a;0,5;2\n", True,
            "line 2", "decimal comma"),
        _ws("delim_pipe.csv", (H + BODY).replace(",", "|"), False),
        _ws("trec_run_named_csv.csv", RUN, True, "looks like a TREC run", "--qrels"),
    ]


def trec() -> list[tuple[str, bytes, Case]]:
    """TREC runs (each with a qrels file) and qrels (each with a good run)."""
    out: list[tuple[str, bytes, Case]] = []

    def run(name: str, text: str | bytes, refused: bool, *phrases: str, **extra: Any) -> None:
        qrels = f"{name}.qrels"
        out.append(_ws(f"{name}.run", text, refused, *phrases, qrels=qrels, **extra))
        out.append((qrels, QRELS.encode(), {}))

    def qrels(name: str, text: str | bytes, refused: bool, *phrases: str, **extra: Any) -> None:
        companion = f"{name}.qrels"
        out.append(_ws(f"{name}.run", RUN, refused, *phrases, qrels=companion, **extra))
        out.append((companion, text.encode() if isinstance(text, str) else text, {}))

    many = "".join(f"q{q} Q0 d{d} {d + 1} {10 - d}.25 t\n" for q in range(40) for d in range(5))
    run("trec_run_ok", RUN, False)
    run("trec_run_five_fields", RUN + "q1 Q0 e 4 0.5\n", True, "line 6", "expected 6 fields", "found 5")
    run("trec_run_seven_fields", RUN + "q1 Q0 e 4 0.5 t x\n", True, "line 6", "found 7")
    run("trec_run_score_word", RUN + "q1 Q0 e 4 high t\n", True, "line 6", "score (field 5)", "'high'")
    run("trec_run_score_nan", RUN + "q1 Q0 e 4 nan t\n", True, "line 6", "'nan' is not a finite number")
    run("trec_run_score_inf", RUN + "q1 Q0 e 4 -Infinity t\n", True, "line 6", "not a finite number")
    run("trec_run_score_underscore", RUN + "q1 Q0 e 4 1_0 t\n", True, "line 6", "'1_0'", "digits grouped")
    run("trec_run_score_underscore_fast", many + "q9 Q0 e 4 1_5 t\n" + many.replace("q", "p"), True,
        "line 201", "'1_5'", "digits grouped")
    run("trec_run_score_nan_fast", many + "q9 Q0 e 4 NaN t\n", True, "line 201", "'NaN'")
    run("trec_run_score_1e999", RUN + "q1 Q0 e 4 1e999 t\n", True, "line 6", "1.8e308")
    run("trec_run_score_hex", RUN + "q1 Q0 e 4 0x10 t\n", True, "line 6", "not a decimal number")
    run("trec_run_score_decimal_comma", RUN + "q1 Q0 e 4 0,5 t\n", True, "line 6", "decimal comma")
    run("trec_run_score_arabic_digit", RUN + "q1 Q0 e 4 \u0661 t\n", True, "line 6", "digits other than 0-9")
    run("trec_run_rank_word", RUN.replace(" 1 3 t", " first 3 t"), False)
    run("trec_run_duplicate_line", RUN + "q1 Q0 a 1 3 t\n", True, "line 6", "retrieves source 'a' twice")
    run("trec_run_empty", b"", False)
    run("trec_run_blank_lines", "\n" + RUN.replace("\n", "\n\n"), False)
    run("trec_run_crlf", RUN.replace("\n", "\r\n"), False)
    run("trec_run_cr_only", RUN.replace("\n", "\r"), False)
    run("trec_run_tabs", RUN.replace(" ", "\t"), False)
    run("trec_run_no_final_newline", RUN.rstrip("\n"), False)
    run("trec_run_huge_id", RUN + "q1 Q0 " + "x" * 100_000 + " 4 0.5 t\n", False)
    run("trec_run_control_chars", RUN + "q1 Q0 e\x1b[2J 4 0.5 t\nq1 Q0 f\x01\x7f 5 0.25 t\n", False)
    run("trec_run_formula_ids", RUN + "q1 Q0 =1+1 4 0.5 t\nq1 Q0 @x 5 0.25 t\n", False)
    run("trec_run_nul", RUN + "q1 Q0 e\x00 4 0.5 t\n", True, "binary")
    run("trec_run_workbook", b"PK\x03\x04" + bytes(60), True, "workbook")
    run("trec_run_no_judged_query", "q7 Q0 a 1 3 t\n", False)
    run("trec_run_score_minus_zero", RUN + "q1 Q0 e 4 -0 t\n", False)
    run("trec_run_score_exponents", RUN + "q1 Q0 e 4 1E-3 t\nq1 Q0 f 5 .5e-1 t\n", False)
    qrels("trec_qrels_three_fields", QRELS + "q1 0 e\n", True, "line 6", "expected 4 fields", "found 3")
    qrels("trec_qrels_five_fields", QRELS + "q1 0 e 1 x\n", True, "line 6", "found 5")
    qrels("trec_qrels_grade_word", QRELS + "q1 0 e high\n", True, "line 6", "grade (field 4)")
    qrels("trec_qrels_grade_underscore", QRELS + "q1 0 e 1_0\n", True, "line 6", "'1_0'", "digits grouped")
    qrels("trec_qrels_grade_nan", QRELS + "q1 0 e nan\n", True, "line 6", "not a finite number")
    qrels("trec_qrels_grade_inf", QRELS + "q1 0 e inf\n", True, "line 6", "not a finite number")
    qrels("trec_qrels_grade_1e999", QRELS + "q1 0 e 1e999\n", True, "line 6", "1.8e308")
    qrels("trec_qrels_duplicate", QRELS + "q1 0 a 1\n", True, "line 6", "judged twice", "first on line 1")
    qrels("trec_qrels_empty", b"", False)
    qrels("trec_qrels_crlf", QRELS.replace("\n", "\r\n"), False)
    qrels("trec_qrels_nul", QRELS + "q1 0 e\x00 1\n", True, "binary")
    qrels("trec_qrels_huge_id", QRELS + "q1 0 " + "y" * 100_000 + " 1\n", False)
    qrels("trec_qrels_control_chars", QRELS + "q1 0 e\x1b[2J 1\n", False)
    qrels("trec_qrels_grade_minus_zero", QRELS + "q1 0 e -0\n", False)
    qrels("trec_qrels_exp_overflow", QRELS.replace("q1 0 a 2", "q1 0 a 1100"), True, "grade 1100",
          "gain beyond", args=["--gain", "exponential"], refused_by="evaluation")
    return out


def build() -> tuple[dict[str, bytes], dict[str, Case]]:
    """Every file's bytes and the expected outcome of every input (companion
    qrels files are files but not inputs of their own)."""
    files: dict[str, bytes] = {}
    expected: dict[str, Case] = {}
    for group in (numbers, rows, headers, encodings, line_endings, ids, delimiters, trec):
        for name, data, case in group():
            assert name not in files, name
            files[name] = data
            if case:
                expected[name] = case
    files["expected.json"] = (json.dumps(expected, indent=1, sort_keys=True, ensure_ascii=True)
                              + "\n").encode()
    return files, expected


def main() -> int:
    files, expected = build()
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.iterdir():
        if old.name not in files:
            old.unlink()
    for name, data in files.items():
        (OUT / name).write_bytes(data)
    print(f"wrote {len(files)} files ({len(expected)} inputs) to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
