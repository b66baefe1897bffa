"""Rows of a passage's tables as answer candidates: a figure asked for is often only in a table.

The parsers write a table one row a line with `` | `` between cells (HTML and PDF tables, Markdown pipe
tables: :mod:`pipelines.parse`). A financial statement's "Net sales | $32,765 | $31,657" is no prose sentence,
so the extractive answerer could never quote it, and a question about a figure in a filing went unanswered or
was answered with a sentence that only names the figure. Here each row with a label and at least one figure
becomes a sentence under its table's header row, and the figure of the column the question asks about (a year
or quarter in its header) is the short answer; the scale the caption or header states ("in millions of
dollars") goes with the label. A table without a header row, and a table of contents (a "Page" column), gives
no candidates: without a header a figure's meaning is unknown.

>>> text = "Year ended December 31 | 2018 | 2017\\nNet sales | $32,765 | $31,657\\nCost of sales | 16,682 | 16,055"
>>> rows = table_rows(text)
>>> rows[0].sentence()
'Net sales — 2018: $32,765; 2017: $31,657'
>>> table_rows("Statement of Income (in millions of dollars)\\n\\n" + text)[0].sentence()
'Net sales (in millions of dollars) — 2018: $32,765; 2017: $31,657'
>>> row_value("What were net sales in 2017?", rows[0]), row_value("What were net sales in 2015?", rows[0])
('$31,657', None)
>>> text[rows[1].start:rows[1].end]
'Cost of sales | 16,682 | 16,055'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from serving.answer.periods import conflicts, match, periods
from serving.answer.span import asks_ratio, financial_nouns

__all__ = ["TableRow", "row_value", "table_rows"]

#: A figure cell: an amount with its currency, sign, parentheses (a negative) or percent sign.
_FIGURE = re.compile(r"^[(\-–−]?\s?(?:USD|US\$|EUR|GBP|[$€£])?\s?\(?\d[\d,.]*\)?\s?(?:%|percent|[kKmMbB]n?)?\)?$")
#: The periods a question or a header names: a year (FY2018 and "fiscal 2018" too) or a quarter.
_PERIOD = re.compile(r"(?<!\d)(?:(?:19|20)\d\d)(?!\d)|\bQ[1-4]\b", re.IGNORECASE)
_SEPARATOR = re.compile(r"^[\s|:+-]+$")  # a Markdown table's |---|---| line
#: The scale a statement states its figures in, in its caption or header ("(in millions of dollars)").
_UNIT = re.compile(r"\bin (?:millions|thousands|billions)\b(?: of (?:U\.S\. )?(?:dollars|euros|pounds|yen|USD|EUR|GBP))?",
                   re.IGNORECASE)


@dataclass(frozen=True)
class TableRow:
    """One row of a table: its line's offsets in the passage, its label, its cells and their headers."""

    start: int
    end: int
    label: str
    cells: tuple[str, ...]
    headers: tuple[str, ...]  # the header row's cell over each cell ("" where it has none)
    unit: str = ""  # the scale its table states ("in millions of dollars"), from the caption or header
    measure: str = ""  # what its figures measure: the group row above it ("Operating income:"), else the next total row

    def sentence(self) -> str:
        """The row as it is quoted: ``label (unit) — header: cell; header: cell``."""
        parts = [f"{h}: {c}" if h else c for h, c in zip(self.headers, self.cells) if c]
        label = f"{self.label} ({self.unit})" if self.unit else self.label
        return f"{label} — {'; '.join(parts)}"


def _cells(line: str) -> list[str]:
    """The row's cells without empty ones, a cell holding only a currency sign joined to the next and one holding
    only ``)`` or ``%`` to the one before (filings set ``$`` and ``)`` in cells of their own).

    >>> _cells("Net sales | $ | 32,765 | | $ | (1,577 | )")
    ['Net sales', '$32,765', '$(1,577)']
    """
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|"):
        body = body[:-1]
    out: list[str] = []
    pending = ""
    for cell in (c.strip() for c in body.split("|")):
        if not cell:
            continue
        if re.fullmatch(r"(?:USD|US\$|EUR|GBP|[$€£])", cell):
            pending += cell
            continue
        if out and re.fullmatch(r"[)%]+", cell):
            out[-1] += cell
            continue
        out.append(pending + cell)
        pending = ""
    return out


def _is_figure(cell: str) -> bool:
    return bool(_FIGURE.match(cell.replace(" ", "")) or _FIGURE.match(cell))


def _is_header(cells: list[str]) -> bool:
    """A header row: no figure other than a year or a quarter, some text or a period in it."""
    values = [c for c in cells if c]
    return bool(values) and not any(_is_figure(c) and not _PERIOD.fullmatch(c.strip()) for c in values)


def table_rows(text: str) -> list[TableRow]:
    """The labelled rows with figures of every table in ``text`` that has a header row (see the module doc)."""
    rows: list[TableRow] = []
    lines, offset = [], 0
    for line in text.split("\n"):
        lines.append((offset, line))
        offset += len(line) + 1
    i = 0
    while i < len(lines):
        if " | " not in lines[i][1] and not lines[i][1].lstrip().startswith("|"):
            i += 1
            continue
        caption = " ".join(line for _, line in lines[max(0, i - 3):i])  # the lines just above the table
        run = []
        while i < len(lines) and ("|" in lines[i][1]) and lines[i][1].strip():
            if not _SEPARATOR.match(lines[i][1]):
                run.append(lines[i])
            i += 1
        rows += _rows_of(run, caption)
    return rows


def _rows_of(run: list[tuple[int, str]], caption: str = "") -> list[TableRow]:
    if len(run) < 2 or not _is_header(_cells(run[0][1])):
        return []
    header = _cells(run[0][1])
    unit = _UNIT.search(f"{run[0][1]} {caption}")
    if any(re.fullmatch(r"pages?", h, re.IGNORECASE) for h in header):
        return []  # a table of contents
    out = []
    group = ""  # the last row with a label and no figure: it names what the rows below it measure
    for start, line in run[1:]:
        cells = _cells(line)
        label, values = cells[0], cells[1:]
        if not re.search(r"[^\W\d_]{2,}", label):
            continue
        if not any(_is_figure(v) for v in values):
            group = label if not values else group
            continue
        # a header with fewer cells than the row stands over its last cells (PDF headers have no label cell)
        over = header[1:] if len(header) == len(cells) else header[-len(values):] if len(header) <= len(values) else header[1:]
        heads = ([""] * (len(values) - len(over)) + list(over))[: len(values)]
        stripped = len(line) - len(line.lstrip())
        out.append(TableRow(start + stripped, start + len(line.rstrip()), label, tuple(values), tuple(heads),
                            unit.group(0) if unit else "", group))
    measured = []
    for i, row in enumerate(out):  # without a group row, the next total row names what a row measures
        total = next((r.label for r in out[i:] if r.label.lower().startswith("total")), "")
        measured.append(row if row.measure else TableRow(**{**row.__dict__, "measure": total}))
    return measured


def row_value(question: str, row: TableRow) -> str | None:
    """The figure of ``row`` in the column the question asks about: the one whose header names the question's
    year or quarter, and a whole year or part of one as the question does (:func:`serving.answer.periods.match`);
    without a year or quarter in the question, the row's first figure; None when the question names a year or
    quarter no header of the row names (the table does not hold it), or when the question names a measure ("operating
    income") that neither the row's label nor what its table measures (``measure``: "Total net sales") names. A
    percentage answers a question that asks for a share or a rate (:func:`serving.answer.span.asks_ratio`), and only
    such a question.

    >>> row = TableRow(0, 0, "Operating income", ("7,207", "8,233"), ("Q3 2018", "Q3 2017"))
    >>> row_value("What was operating income in Q3 2017?", row), row_value("What was operating income?", row)
    ('8,233', '7,207')
    >>> row_value("What was the FY17 operating income?", TableRow(0, 0, "Operating income", ("7,207", "8,233"), ("2018", "2017")))
    '8,233'
    >>> row = TableRow(0, 0, "Net loss", ("(9,829)", "(70,193)"), ("Three Months Ended Dec. 31, 2024", "Year Ended Dec. 31, 2024"))
    >>> row_value("What was the net loss for the year ended December 31, 2024?", row)
    '(70,193)'
    >>> segment = table_rows("(in thousands) | 2024\\nMetrology | $ 812,440\\nTotal net sales | $ 1,184,207")[0]
    >>> segment.measure, row_value("What were Metrology's net sales?", segment), row_value("Its operating income?", segment)
    ('Total net sales', '$ 812,440', None)
    >>> row = TableRow(0, 0, "Ohio Valley Bank", ("$ 70,000,000.00", "17.500000000%"), ("Commitment", "Applicable Percentage"))
    >>> row_value("What percentage of the commitments does Ohio Valley hold?", row), row_value("What is its commitment?", row)
    ('17.500000000%', '$ 70,000,000.00')
    """
    wanted = financial_nouns(question)
    measures = financial_nouns(row.measure)
    if wanted and measures and not wanted & (measures | financial_nouns(row.label)):
        return None  # a segment's net sales do not answer for its operating income
    asked = periods(question)
    share = asks_ratio(question)  # "what percentage …": the column of percentages, else never one
    figures = [(periods(h), c, (c.endswith("%") or "percent" in h.lower()) == share)  # each header read once
               for h, c in zip(row.headers, row.cells) if _is_figure(c)]
    if not (asked.years or asked.quarters):
        fits = [(kind, -i, c) for i, (p, c, kind) in enumerate(figures) if not conflicts(asked, p)]
        return max(fits)[-1] if fits else (figures[0][1] if figures else None)
    fits = [(match(asked, p), kind, -i, c) for i, (p, c, kind) in enumerate(figures)
            if (asked.years & p.years or asked.quarters & p.quarters) and not conflicts(asked, p)]
    return max(fits)[-1] if fits else None
