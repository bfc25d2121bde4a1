"""The formulas of the Candidates sheet's rows, over the Conventions sheet's
names and the query's block of rows."""

from __future__ import annotations

import math

from core.engine.gains import LIFT_BELOW
from core.model.gain_rules import GainRule, gain_rules

#: The column of the gain formula (J).
GAIN_COL = 9
#: The power of two a query's gains are lifted by in its formulas when the
#: engine lifted them (:func:`core.engine.gains.lifted_queries`: all below
#: 2^-900 in size). The engine brings the largest into [0.5, 1), up to
#: 2^1074, which is no float; any lift that makes every product and sum a
#: normal float gives the same NDCG bit for bit, and 2^1023 does (gains of
#: 2^-1074 to 2^-900 lifted to 2^-51 to 2^123).
LIFT = 1023
#: Gains all below 2^this in size are lifted: the engine's
#: :data:`core.engine.gains.LIFT_BELOW` (2^-900).
LIFT_BELOW_POWER = math.frexp(LIFT_BELOW)[1] - 1
#: The columns whose formulas take the lift in such a query's block: the
#: tie-averaged gain (X, and with it Y: its product with the position
#: discount) and the ideal contribution (O), shown with
#: :data:`LIFTED_FORMAT`. The gains themselves (J, N) stay as they are.
LIFTED_COLUMNS = (14, 23, 24)
#: How a lifted cell reads: its number, then the factor that brings it back.
LIFTED_FORMAT = f'0.0000E+00" x 2^-{LIFT}"'


def gain_formula() -> str:
    """The gain of row {r}: the grade used (column AA) through the gain rule
    the Conventions sheet names, each registered rule's spreadsheet formula
    (:data:`core.model.gain_rules.GAIN_RULES`); a name that is none of them
    computes linear gain."""
    grade = "AA{r}"
    chain = GainRule.LINEAR.excel_of(grade)
    for rule in reversed(list(gain_rules())):
        if rule is not GainRule.LINEAR:
            chain = f'IF(gain_rule="{rule.value}",{rule.excel_of(grade)},{chain})'
    return ('=IF(G{r}<>"number",IF(unknown_rule="zero",0,""),'
            "IF(negative_gain_zero,MAX(0,{t}),{t}))").replace("{t}", chain)


#: The formulas of a Candidates row: (column index, formula) with the fields
#: {r} (its sheet row), {prev} (the row above) and {J} {P} {Q} {S} {V} {W}:
#: those columns' ranges over the query's block of rows (column M holds the
#: row's position in the block), and {lift}: nothing, or times 2^:data:`LIFT`
#: in the block of a query whose gains the engine lifted. Column R (ranked
#: so far) starts a block with =Q{r}. Within a block each column's formula is the same but for the
#: row, so the rows share it (Excel's shared formulas). The gain column's
#: formula is that of the rules registered at import; :func:`formulas` has
#: those registered now. Column Z (the row's tie group has every ranked gain
#: known) counts the block's unknown gains itself and X reads it (Z read X
#: before): a range-free Z, the same in every row as AA beside it, was
#: calculated with AA in one go by LibreOffice 7.4's threads, which then read
#: gains before computing them (Err:522 or 0; docs/workbook.md). The
#: contribution (L) is the gain times the discount (K), but in a tie group
#: whose ranked gains are all the row's own (one gain: the same list in
#: every order) times its own position's discount (S), as the engine's
#: (:func:`core.engine.sums.position_terms`).
FORMULAS: tuple[tuple[int, str], ...] = (
    (6, '=IF(ISNUMBER(F{r}),"number",IF(F{r}="unrateable","unrateable",'
        'IF(OR(F{r}="",F{r}="unknown"),"unknown","invalid")))'),
    (8, '=IF(Q{r}=1,R{r},"")'),
    (GAIN_COL, gain_formula()),
    (10, '=IF(Q{r}=1,IF(tie_rule="average",SUMIFS({S},{P},P{r},{Q},1)'
         '/COUNTIFS({P},P{r},{Q},1),S{r}),"")'),
    (11, '=IF(AND(ISNUMBER(J{r}),ISNUMBER(K{r})),J{r}*IF(COUNTIFS({P},P{r},{Q},1,{J},J{r})'
         '=COUNTIFS({P},P{r},{Q},1),S{r},K{r}),"")'),
    (13, '=IF(M{r}<=COUNT({W}),LARGE({W},M{r}),"")'),
    (14, '=IF(ISNUMBER(N{r}),N{r}{lift}*(1/LOG(M{r}+1,2)),"")'),
    (16, '=IF(AND(ISNUMBER(D{r}),OR(unknown_rule<>"condensed",G{r}="number")),1,0)'),
    (17, "=R{prev}+Q{r}"),
    (18, '=IF(Q{r}=1,1/LOG(R{r}+1,2),"")'),
    (19, '=IF(OR(Q{r}=1,AND(ideal_rule="judged",NOT(ISNUMBER(D{r})))),'
         'IF(AND(unknown_rule="condensed",U{r}=0),0,1),0)'),
    (20, '=IF(G{r}="number",1,0)'),
    (21, "=IF(ISNUMBER(J{r}),1,0)"),
    (22, '=IF(AND(T{r}=1,ISNUMBER(J{r})),J{r},"")'),
    (23, '=IF(Z{r}=1,IF(tie_rule="average",'
         'SUMIFS({J},{P},P{r},{Q},1){lift}/COUNTIFS({P},P{r},{Q},1),J{r}{lift}),"")'),
    (24, '=IF(ISNUMBER(X{r}),X{r}*S{r},"")'),
    (25, '=IF(Q{r}=1,IF(tie_rule="average",IF(COUNTIFS({P},P{r},{Q},1,{V},0)>0,0,1),V{r}),0)'),
    (26, '=IF(G{r}="number",IF(truncate_grades,TRUNC(F{r}),F{r}),"")'),
)
_BLOCK_COLUMNS = "JPQSVW"
#: Column R (ranked so far): =Q{r} in a block's first row, shared from its second.
SO_FAR_COL = 17
FIRST_SO_FAR = "=Q{r}"


def formulas() -> tuple[tuple[int, str], ...]:
    """:data:`FORMULAS` with the gain formula of the rules registered now."""
    return tuple((c, gain_formula() if c == GAIN_COL else t) for c, t in FORMULAS)


def lift_factor(gains: str) -> str:
    """What a lifted query's formulas multiply (and divide back) by, from
    its block's inventory gains ``gains`` (column W's range): 2^:data:`LIFT`
    while they are all below 2^-900 in size, as the engine's are, else 1 (a
    grade of the normal range typed there then reads as in any block, where
    a constant lift would overflow)."""
    largest = f"MAX(MAX({gains}),-MIN({gains}))"
    return f"IF({largest}<POWER(2,{LIFT_BELOW_POWER}),POWER(2,{LIFT}),1)"


def lift_off(first: int, last: int) -> str:
    """The condition under which a lifted query's block (sheet rows
    first..last) is lifted no more, a grade of the normal range typed into
    it (:func:`lift_factor` 1): its lifted cells then read as any block's,
    without the factor their number format names (a conditional format)."""
    gains = block_fields(first, last)["W"]
    return f"MAX(MAX({gains}),-MIN({gains}))>=POWER(2,{LIFT_BELOW_POWER})"


def block_fields(first: int, last: int, lift: bool = False) -> dict[str, str]:
    """The fields {J} {P} {Q} {S} {V} {W}: those columns' ranges over sheet
    rows first..last; and {lift} (:data:`FORMULAS`)."""
    fields = {c: f"${c}${first}:${c}${last}" for c in _BLOCK_COLUMNS}
    fields["lift"] = f"*{lift_factor(fields['W'])}" if lift else ""
    return fields


def row_formulas(r: int, first: int, last: int, lift: bool = False) -> list[tuple[int, str]]:
    """(column index, formula) for sheet row ``r`` (1-based) in block
    first..last (of a query whose gains are lifted: ``lift``)."""
    fields = block_fields(first, last, lift)
    return [(c, (FIRST_SO_FAR if c == SO_FAR_COL and r == first else t).format(
        r=r, prev=r - 1, **fields)) for c, t in formulas()]
