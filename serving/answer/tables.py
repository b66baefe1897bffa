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
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal

from pipelines.chunk.rows import PERIOD as _PERIOD, cells as _cells, is_figure as _is_figure, is_header_row as _is_header
from serving.answer.periods import conflicts, match, periods
from serving.answer.span import asks_ratio, financial_nouns, measures_agree
from serving.answer.anchors import acronyms, names_acronym
from serving.answer.verify import content_words

__all__ = ["TableRow", "row_value", "stated_figure", "table_rows"]

#: A question that names a percentage: only a percentage answers it.
_ASKS_PERCENT = re.compile(r"%|\bper ?cent", re.IGNORECASE)
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
        """The row as it is quoted: ``label (unit) — header: cell; header: cell``; a label of a word or two under a
        group's label is read with it ("Earnings per share, diluted"), and a figure per share has no scale.

        >>> TableRow(0, 0, "Diluted", ("$1.26",), ("2025",), "in thousands", "Earnings per share:").sentence()
        'Earnings per share, diluted — 2025: $1.26'
        """
        parts = [f"{h}: {c}" if h else c for h, c in zip(self.headers, self.cells) if c]
        label = self.label
        if self.measure.endswith(":") and len(label.split()) <= 2:
            label = f"{self.measure[:-1].strip()}, {label[:1].lower()}{label[1:]}"
        if self.unit and not re.search(r"\bper (?:diluted |basic )?share\b", label, re.IGNORECASE):
            label = f"{label} ({self.unit})"
        return f"{label} — {'; '.join(parts)}"


def table_rows(text: str) -> list[TableRow]:
    """The labelled rows with figures of every table in ``text`` that has a header row (see the module doc).

    A PDF statement's column heads are often a line of their own without cells ("2024 2023 2022", "June 30, 2024
    June 30, 2023"), its first row too ("Net income $ 53,151 $ 25,308"), and a blank line splits it where a group
    of rows begins: such a line of periods heads the rows below it, a line of a label and as many figures as it
    names periods is a row, and a run of rows without a header row continues the table above it in the passage.

    >>> pdf = "Fiscal Year Ended June 30,\\n2024 2023\\nNet income $ 53,151 $ 25,308\\n\\nOther, net | 8,075 | 3,180"
    >>> [r.sentence() for r in table_rows(pdf)]
    ['Net income — 2024: $ 53,151; 2023: $ 25,308', 'Other, net — 2024: 8,075; 2023: 3,180']

    A header cell's scale wrapped onto a line of its own does not end the table:

    >>> html = "Shares Purchased | | Dollar Value Remaining\\n(in millions)\\nAugust 1 – August 31, 2025 | 121,300 | $ 150.6"
    >>> [r.sentence() for r in table_rows(html)]
    ['August 1 – August 31, 2025 — Shares Purchased: 121,300; Dollar Value Remaining: $ 150.6']
    """
    rows: list[TableRow] = []
    lines, offset = [], 0
    for line in text.split("\n"):
        lines.append((offset, line))
        offset += len(line) + 1
    heads: list[str] | None = None  # the column heads in force: the last header row or line of periods
    scale = ""  # the scale of the table those heads head ("in thousands"): rows continuing it keep it
    i = 0
    while i < len(lines):
        line = lines[i][1]
        if " | " not in line and not line.lstrip().startswith("|"):
            periods_line = _period_heads(line)
            if periods_line:
                heads = periods_line
                scale = _scale_of(" ".join(text for _, text in lines[max(0, i - 3):i + 1]))
            elif heads and (cells := _bare_row(line, len(heads))) is not None:
                caption = " ".join(text for _, text in lines[max(0, i - 3):i])
                rows += _rows_of([(lines[i][0], cells, line)], caption, heads=heads, scale=scale)
            i += 1
            continue
        caption = " ".join(text for _, text in lines[max(0, i - 3):i])  # the lines just above the table
        run = []
        while i < len(lines) and lines[i][1].strip():
            if "|" not in lines[i][1]:  # a header cell's scale wrapped onto a line of its own ("(in millions)")
                if not (run and _SCALE_NOTE.fullmatch(lines[i][1].strip()) and i + 1 < len(lines)
                        and "|" in lines[i + 1][1]):
                    break
            elif not _SEPARATOR.match(lines[i][1]):
                run.append((lines[i][0], lines[i][1], lines[i][1]))
            i += 1
        own = _header_rows(run)  # the run has its own header: the columns of its figures head a run continuing it
        rows += _rows_of(run, caption, heads=None if own else heads, scale="" if own else scale)
        if own is not None:
            header, k = own
            heads = [h for h in header if _PERIOD.search(h)] or None if len(run) > k else None
            scale = _scale_of(f"{run[0][1]} {caption}")
    return rows


def _scale_of(text: str) -> str:
    """The scale ``text`` states its figures in ("in thousands"), else ""."""
    found = _UNIT.search(text)
    return found.group(0) if found else ""


#: A line that only states a scale or that figures are unaudited: "(in millions)", "(in thousands, except per share
#: data)", "(Unaudited)". Inside a table it is a header cell wrapped onto a line of its own; it says which column's
#: scale only by its place, so the rows below keep the scale their caption states.
_SCALE_NOTE = re.compile(r"\((?:(?:amounts |dollars |\$ ?)?in\s+)?(?:thousands|millions|billions)\b[^()]{0,80}\)|\(unaudited\)",
                         re.IGNORECASE)
#: A column head that is a period: "2024", "Q3 2024", "June 30, 2024", "Sept. 30, 2025", "Fiscal 2024".
_HEAD_PERIOD = re.compile(r"(?:(?:fiscal|FY|Q[1-4])\s*)?(?:(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
                          r"\s+\d{1,2},?\s+)?(?:19|20)\d\d", re.IGNORECASE)


def _period_heads(line: str) -> list[str] | None:
    """The column heads of a line that names only periods, at least two ("2024 2023 2022", "June 30, 2024 June
    30, 2023"), else None.

    >>> _period_heads("2024 2023 2022"), _period_heads("June 30, 2024 June 30, 2023"), _period_heads("In 2024 and 2023")
    (['2024', '2023', '2022'], ['June 30, 2024', 'June 30, 2023'], None)
    """
    heads = [m.group(0) for m in _HEAD_PERIOD.finditer(line)]
    if len(heads) < 2 or _HEAD_PERIOD.sub("", line).strip(" ,.:;\t"):
        return None
    return heads


_MAX_ROW_CHARS = 300
#: A row's figures at the end of a line: amounts with their currency sign, parentheses or a dash for nothing.
_BARE_FIGURE = r"(?:[$€£]\s?)?(?:\(?\d[\d,]*(?:\.\d+)?\)?%?|[-–—])"


def _bare_row(line: str, n: int) -> str | None:
    """``line`` as cells ("label | figure | …") when it is a label followed by ``n`` figures and nothing else, else
    None (a PDF row whose cells the parser did not separate).

    >>> _bare_row("Net income $ 53,151 $ 25,308 $ (9,187)", 3), _bare_row("Net income was $53.2 million in 2024", 2)
    ('Net income | $ 53,151 | $ 25,308 | $ (9,187)', None)
    """
    if len(line) > _MAX_ROW_CHARS:
        return None  # a paragraph, not a row (and the match below is quadratic in the line's length)
    m = re.fullmatch(r"\s*(?P<label>.*?[^\W\d_][^$€£\d(]*?)\s+(?P<figures>" + _BARE_FIGURE + r"(?:\s+" + _BARE_FIGURE
                     + r"){%d})\s*" % (n - 1), line)
    if m is None:
        return None
    figures = re.findall(_BARE_FIGURE, m.group("figures"))
    return " | ".join([m.group("label").strip(), *(f.strip() for f in figures)]) if len(figures) == n else None


def _rows_of(run: list[tuple[int, str, str]], caption: str = "", *, heads: list[str] | None = None,
             scale: str = "") -> list[TableRow]:
    """The rows of ``run`` ((offset, line as cells, line as printed) each) under its first line, a header row, or
    under ``heads`` (the column heads of the table it continues, whose ``scale`` they keep) when it has none."""
    if not run:
        return []  # only separator lines ("| ", "|---|")
    own = _header_rows(run)
    if own is not None:
        header, k = own
        if len(run) <= k:
            return []
        body = run[k:]
    elif heads:
        header, body = [""] + list(heads), run
    else:
        return []
    unit = _scale_of(f"{run[0][1]} {caption}") or scale
    if any(re.fullmatch(r"pages?", h, re.IGNORECASE) for h in header):
        return []  # a table of contents
    out = []
    group = ""  # the last row with a label and no figure: it names what the rows below it measure
    named: tuple[str, int] | None = None  # (label, cells) of the last row of a person or item with a year cell
    for start, line, printed in body:
        cells = _cells(line)
        if not cells:
            continue  # a row of empty cells or of a lone currency sign ("$ | ")
        if named and len(cells) == named[1] - 1 and _PERIOD.fullmatch(cells[0].strip()):
            cells = [named[0], *cells]  # "2024 | 540,000 | …" under "Natalie K. Osterhout, CFO | 2025 | 560,000 | …"
        label, values = cells[0], cells[1:]
        if values and _PERIOD.fullmatch(values[0].strip()) and re.search(r"[^\W\d_]{2,}", label):
            named = (label, len(cells))
        if not re.search(r"[^\W\d_]{2,}", label):
            continue
        if not any(_is_figure(v) for v in values):
            group = label if not values else group
            continue
        # a header with fewer cells than the row stands over its last cells (PDF headers have no label cell)
        over = header[1:] if len(header) == len(cells) else header[-len(values):] if len(header) <= len(values) else header[1:]
        heads = ([""] * (len(values) - len(over)) + list(over))[: len(values)]
        stripped = len(printed) - len(printed.lstrip())
        out.append(TableRow(start + stripped, start + len(printed.rstrip()), label, tuple(values), tuple(heads),
                            unit, group))
    measured = []
    for i, row in enumerate(out):  # without a group row, the next total row names what a row measures
        total = next((r.label for r in out[i:] if r.label.lower().startswith("total")), "")
        measured.append(row if row.measure else TableRow(**{**row.__dict__, "measure": total}))
    return measured


def _header_rows(run: list[tuple[int, str, str]]) -> tuple[list[str], int] | None:
    """The header of ``run`` merged from its header rows (:func:`_merged_header`) and how many rows it takes, or None
    when its first row is no header."""
    if not run or not _is_header(_cells(run[0][1])):
        return None
    k = 1  # a 10-Q's heads are two rows: "Three Months Ended … | Nine Months Ended …" over "2025 | 2024 | 2025 | 2024"
    while k < len(run) and len(_cells(run[k][1])) >= 2 and _is_header(_cells(run[k][1])):
        k += 1
    return _merged_header([_cells(line) for _, line, _ in run[:k]]), k


def _merged_header(rows: list[list[str]]) -> list[str]:
    """One header of a table's header rows: each cell of an upper row stands over an equal share of the last row's
    columns (an HTML colspan, a PDF head centred over its columns); a first cell that is no period is the label
    column's.

    >>> _merged_header([["Three Months Ended Sept. 30,", "Nine Months Ended Sept. 30,"], ["2025", "2024", "2025", "2024"]])
    ['Three Months Ended Sept. 30, 2025', 'Three Months Ended Sept. 30, 2024', 'Nine Months Ended Sept. 30, 2025', \
'Nine Months Ended Sept. 30, 2024']
    >>> _merged_header([["(in thousands)", "Q3", "Q2"], ["Segment", "2025", "2025"]])
    ['Segment', 'Q3 2025', 'Q2 2025']
    """
    last = rows[-1]
    label, columns = ([last[0]], last[1:]) if len(last) > 1 and not _PERIOD.search(last[0]) else ([], list(last))
    for upper in reversed(rows[:-1]):
        cells = upper
        if len(cells) < 2:
            continue  # a title over the whole table, not a head
        if columns and len(columns) % len(cells) and len(cells) > 1 and not _PERIOD.search(cells[0]) \
                and len(columns) % (len(cells) - 1) == 0:
            cells = cells[1:]
        if columns and cells and len(columns) % len(cells) == 0:
            span = len(columns) // len(cells)
            columns = [f"{cells[i // span]} {head}" for i, head in enumerate(columns)]
    return label + columns


def _names_row(question: str, label: str) -> bool:
    """Whether ``question`` names the row ``label``: a word of it, or an acronym it spells out ("SG&A").

    >>> _names_row("What were SG&A expenses?", "Selling, general and administrative"), _names_row("Europe?", "Asia")
    (True, False)
    """
    return bool(set(content_words(label)) & set(content_words(question))) \
        or any(names_acronym(a, label) for a in acronyms(question))


def _own_year(row: TableRow) -> int | None:
    """The index of the cell that is the row's own year, in a table whose columns are measures and whose rows are a
    person's or an item's years (a Summary Compensation Table: "Name | Year | Salary ($) | … | Total ($)"): a year
    under a "Year" head while no head names a period; None for a table whose columns are periods.

    >>> heads = ("Year", "Salary ($)", "Bonus ($)", "Total ($)")
    >>> _own_year(TableRow(0, 0, "Natalie K. Osterhout, CFO", ("2024", "540,000", "—", "2,570,851"), heads))
    0
    >>> _own_year(TableRow(0, 0, "Net sales", ("412,806", "389,415"), ("2025", "2024"))) is None
    True
    """
    if any(_PERIOD.search(h) for h in row.headers):
        return None
    return next((i for i, (h, c) in enumerate(zip(row.headers, row.cells))
                 if _PERIOD.fullmatch(c.strip()) and re.fullmatch(r"(?:fiscal\s+)?year", h.strip(), re.IGNORECASE)), None)


def _record_value(question: str, asked, row: TableRow, own: int) -> str | None:
    """The cell of a record row (:func:`_own_year`) under the head that names the most of what the question asks
    ("salary" → "Salary ($)", "total compensation" → "Total ($)"); None when the question names another year than
    the row's, or no head.

    >>> heads = ("Year", "Salary ($)", "Stock Awards ($)", "All Other Compensation ($)", "Total ($)")
    >>> row = TableRow(0, 0, "Natalie K. Osterhout, CFO", ("2024", "540,000", "1,280,017", "29,880", "2,570,851"), heads)
    >>> [row_value(q, row) for q in ("What was the CFO's salary in 2024?", "What was the CFO's total compensation in 2024?",
    ...                              "What was the CFO's salary in 2025?", "When did the CFO join?")]
    ['540,000', '2,570,851', None, None]
    """
    if (asked.years or asked.quarters) and conflicts(asked, periods(row.cells[own])):
        return None
    words = _head_words(question)
    best, best_key = None, (0, 0.0)
    for i, (head, cell) in enumerate(zip(row.headers, row.cells)):
        named = _head_words(head)
        hits = len(named & words)
        if i == own or not hits or not _is_figure(cell):
            continue
        key = (hits, hits / len(named))
        if key > best_key:
            best, best_key = cell, key
    return best


def _period_row_value(question: str, asked, row: TableRow, labelled) -> str | None:
    """The cell of a row that is a period, in a table whose columns are measures (an issuer's purchases of its
    shares by month: "May 1 - May 31, 2024 | 71,900 | $ 44.62 | …"), under the head that names what the question
    asks (its measure under any name, else the most of its words); None unless the question asks for that period.

    >>> heads = ("Total Number of Shares Purchased", "Average Price Paid per Share", "Dollar Value That May Yet Be Purchased")
    >>> may = TableRow(0, 0, "May 1 - May 31, 2024", ("71,900", "$ 44.62", "$ 75,633"), heads)
    >>> [row_value(q, may) for q in ("How many shares did Meridian buy back in May 2024?",
    ...                              "What average price per share did Meridian pay in May 2024?",
    ...                              "How many shares did Meridian buy back in June 2024?",
    ...                              "How many shares did Meridian buy back?",
    ...                              "How many shares did Meridian buy back in 2024?")]
    ['71,900', '$ 44.62', None, None, None]
    """
    if not (asked.years or asked.dates) or conflicts(asked, labelled) or not asked.years & labelled.years:
        return None
    if (asked.dates or labelled.dates) and not asked.dates & labelled.dates:
        return None  # the month asked, and a month's row answers for no year
    if labelled.quarters and not asked.quarters & labelled.quarters:
        return None
    wanted, words = financial_nouns(question), _head_words(question)
    best, best_key = None, (0, 0, 0.0)
    for head, cell in zip(row.headers, row.cells):
        named = _head_words(head)
        hits = len(named & words)
        agrees = bool(wanted) and measures_agree(wanted, financial_nouns(head))
        if not (hits or agrees) or not _is_figure(cell):
            continue
        key = (int(agrees), hits, hits / max(len(named), 1))
        if key > best_key:
            best, best_key = cell, key
    return best


#: Words that name no column: "What was the CFO's total compensation in 2024?" names "total" and "compensation".
_NOT_HEADS = frozenset("a an and as at by did do does for from how in is it its of on or the to was were what which "
                       "who much many s".split())


def _head_words(text: str) -> set[str]:
    """The words of ``text`` that may name a column, lower-cased and without a plural "s" ("Bonus ($)(1)" → bonus).

    >>> sorted(_head_words("What was the CEO's total compensation?")), sorted(_head_words("Stock Awards ($)(2)"))
    (['ceo', 'compensation', 'total'], ['award', 'stock'])
    """
    words = (w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
             for w in re.findall(r"[a-z]+", text.lower()))
    return {w for w in words if w not in _NOT_HEADS}


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
    >>> row_value("What were the international net sales?", segment) is None  # a row the question does not name
    True
    >>> row = TableRow(0, 0, "Ohio Valley Bank", ("$ 70,000,000.00", "17.500000000%"), ("Commitment", "Applicable Percentage"))
    >>> row_value("What percentage of the commitments does Ohio Valley hold?", row), row_value("What is its commitment?", row)
    ('17.500000000%', '$ 70,000,000.00')
    >>> row_value("By what percentage did total revenue grow in 2024?", TableRow(0, 0, "Total revenue", ("$ 585,837",), ("2024",)))
    >>> shares = TableRow(0, 0, "Diluted", ("28,861",), ("2025",), measure="Weighted-average shares outstanding:")
    >>> eps = TableRow(0, 0, "Diluted", ("$1.26",), ("2025",), measure="Earnings per share:")
    >>> row_value("What was diluted earnings per share in 2025?", shares), row_value("What was diluted EPS in 2025?", eps)
    (None, '$1.26')
    """
    wanted = financial_nouns(question)
    names = financial_nouns(row.measure) | financial_nouns(row.label)
    if wanted and names and not measures_agree(wanted, names):
        return None  # a segment's net sales do not answer for its operating income, nor a cash flow for net income
    if wanted and not financial_nouns(" ".join((row.label, *row.headers))) and not _names_row(question, row.label):
        return None  # a row the question does not name: "international revenue" is not the "Cloud Platform" row's
    if wanted and row.measure.endswith(":") and not names and not set(content_words(row.measure)) & set(content_words(question)):
        return None  # "Diluted" under "Weighted-average shares outstanding:" is no diluted earnings per share
    asked = periods(question)
    own = _own_year(row)
    if own is not None:
        return _record_value(question, asked, row, own)
    if not any(_PERIOD.search(h) for h in row.headers) and (labelled := periods(row.label)).years:
        return _period_row_value(question, asked, row, labelled)
    share = asks_ratio(question)  # "what percentage …": the column of percentages, else never one
    figures = [(periods(h), c, (c.endswith("%") or "percent" in h.lower()) == share)  # each header read once
               for h, c in zip(row.headers, row.cells) if _is_figure(c)]
    if _ASKS_PERCENT.search(question) and not any(kind for *_, kind in figures):
        return None  # "by what percentage did revenue grow": a row of amounts does not say
    if not (asked.years or asked.quarters):
        fits = [(kind, -i, c) for i, (p, c, kind) in enumerate(figures) if not conflicts(asked, p)]
        return max(fits)[-1] if fits else (figures[0][1] if figures else None)
    fits = [(match(asked, p), kind, -i, c) for i, (p, c, kind) in enumerate(figures)
            if (asked.years & p.years or asked.quarters & p.quarters) and not conflicts(asked, p)]
    return max(fits)[-1] if fits else None


#: The scale a question asks its answer in: "(in USD millions)", "in thousands of dollars", "in $ billions".
_ASKED_SCALE = re.compile(r"\bin\s+(?:USD\s+|US\$\s*|\$\s*|U\.S\.\s+dollars?\s+)?(thousands|millions|billions)\b", re.IGNORECASE)
_SCALE = {"thousands": 10 ** 3, "millions": 10 ** 6, "billions": 10 ** 9}
#: The sign of a currency a caption names ("in thousands of euros"); a statement that names none is in dollars.
_CURRENCY = {"euros": "€", "eur": "€", "pounds": "£", "gbp": "£", "yen": "¥", "jpy": "¥"}
#: A row label that names what its parentheses say: a loss, or cash paid out ("Net loss | (9,829)", "Purchases of
#: property and equipment | (1,577)", "Net cash used in investing activities"), so its figure is stated without them.
_NAMES_OUTFLOW = re.compile(r"^(?!.*\b(?:income|earnings|profit)\b).*\bloss(?:es)?\b"
                            r"|\b(?:purchases?|repurchases?|(?:re)?payments? (?:of|for|on|to)|paid|expenditures?|used in)\b",
                            re.IGNORECASE)
#: A figure as a statement prints it: "$ 1,184,207", "(9,829)", "32,765.5".
_CELL_FIGURE = re.compile(r"(\()?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(\))?")  # read without "$" and spaces


def stated_figure(question: str, row: TableRow, figure: str) -> str:
    """``figure``, a cell of ``row``, stated in the scale its table prints it in ("(in thousands)"), so a short
    answer is never a bare "882,114" that means $882.1 million. A table in thousands is read in millions from a
    million up, unless the question asks for another scale ("(in USD thousands)"); a table in millions stays in
    millions. Percentages, figures per share and counts of shares (a statement's "except share data") keep the
    cell as printed; a figure in parentheses is negative and keeps them, unless its label names the loss or the
    payment they mean ("Net loss", "Purchases of …", "Dividends paid", "Net cash used in …").

    >>> row = TableRow(0, 0, "Cash, cash equivalents and marketable securities", ("882,114",), ("2024",), "In thousands")
    >>> stated_figure("What was the cash balance?", row, "882,114"), stated_figure("Its balance?", row, "882,114")
    ('$882.1 million', '882.1 million')
    >>> stated_figure("What was the cash balance (in USD thousands)?", row, "882,114")
    '$882,114 thousand'
    >>> loss = TableRow(0, 0, "Net loss", ("$ (9,829)",), ("2024",), "in thousands")
    >>> stated_figure("What was the net loss?", loss, "$ (9,829)"), stated_figure("Net loss?", replace(loss, unit=""), "$ (9,829)")
    ('$9.8 million', '$ (9,829)')
    >>> stated_figure("Net income?", replace(loss, label="Net income (loss)"), "$ (9,829)")
    '($9.8 million)'
    >>> sales = TableRow(0, 0, "Net sales", ("$32,765",), ("2018",), "in millions of dollars")
    >>> stated_figure("What were net sales in 2018?", sales, "$32,765"), stated_figure("Net sales?", sales, "12.5%")
    ('$32,765 million', '12.5%')
    >>> stated_figure("What was revenue in Q3 2019?", replace(sales, unit="in thousands of euros"), "4,512")
    '€4.5 million'
    >>> stated_figure("What was the cost of revenue?", replace(sales, unit="in thousands"), "201,450")  # half up
    '$201.5 million'
    >>> shares = TableRow(0, 0, "Weighted-average shares outstanding", ("28,861",), ("2025",), "in thousands")
    >>> stated_figure("How many shares?", shares, "28,861")
    '28,861'
    """
    table = re.search(r"thousands|millions|billions", row.unit, re.IGNORECASE)
    found = _CELL_FIGURE.fullmatch(re.sub(r"[\s$]", "", figure))
    if table is None or found is None or re.search(r"\bshares?\b|\bper\b", f"{row.label} {row.measure}", re.IGNORECASE):
        return figure
    opened, digits, decimals, closed = found.groups()
    if bool(opened) != bool(closed) or len(digits) + len(decimals or "") > 24:
        return figure  # unbalanced, or longer than any statement's figure (decimal arithmetic would overflow)
    own = table.group(0).lower()
    asked = _ASKED_SCALE.search(question)
    value = Decimal(digits.replace(",", "") + (decimals or "")) * Decimal(_SCALE[own])
    target = asked.group(1).lower() if asked else ("millions" if own == "thousands" and value >= 10 ** 6 else own)
    if target == own:
        number = digits + (decimals or "")
    else:
        places = {10 ** 3: 1, 10 ** 6: 2}.get(_SCALE[target] // _SCALE[own], 0)  # a thousand times larger: one decimal
        number = f"{(value / Decimal(_SCALE[target])).quantize(Decimal(10) ** -places, ROUND_HALF_UP):,}"
    named = re.search(r"\b(?:" + "|".join(_CURRENCY) + r")\b", row.unit, re.IGNORECASE)
    if named:
        currency = _CURRENCY[named.group(0).lower()]
    else:  # a statement's measure (revenue, cash, capex …) is an amount of money, in dollars unless a currency is named
        money = "$" in figure or re.search(r"dollars|USD", row.unit) or financial_nouns(question) \
            or re.search(r"\$|\bUSD\b|\bdollars?\b", question)
        currency = "$" if money else ""
    stated = f"{currency}{number} {target[:-1]}"
    return f"({stated})" if opened and not _NAMES_OUTFLOW.search(row.label) else stated

