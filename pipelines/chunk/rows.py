"""Table rows as the parsers write them: one row a line, `` | `` between cells (HTML, PDF, DOCX and Markdown
tables, :mod:`pipelines.parse`). The chunker keeps a row of figures whole (:func:`is_figure_row` lines are
sentence units of their own), and a passage that starts inside a table gets the table's head again (:func:`table_head`): without its
caption and column heads a row of figures says nothing ("Net loss | (9,829) | (31,395) | (70,193)" of which year?).

>>> text = "CONSOLIDATED STATEMENTS OF OPERATIONS\\n(In thousands)\\nYear | 2024 | 2023\\nRevenue | 401,900 | 309,500"
>>> print(table_head(text))
CONSOLIDATED STATEMENTS OF OPERATIONS
(In thousands)
Year | 2024 | 2023
>>> starts_in_table("Net loss | (70,193) | (113,067)\\nShares | 73,640 | 70,618"), starts_in_table(text)
(True, False)
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["FIGURE", "HEAD_LOOKBACK", "PERIOD", "cells", "head_above", "is_figure", "is_figure_row", "is_header_row",
           "is_row", "starts_in_table", "table_head"]

#: A figure cell: an amount with its currency, sign, parentheses (a negative) or percent sign.
FIGURE = re.compile(r"^[(\-–−]?\s?(?:USD|US\$|EUR|GBP|[$€£])?\s?\(?\d[\d,.]*\)?\s?(?:%|percent|[kKmMbB]n?)?\)?$")
#: A period a question or a column head names: a year (FY2018 and "fiscal 2018" too) or a quarter.
PERIOD = re.compile(r"(?<!\d)(?:(?:19|20)\d\d)(?!\d)|\bQ[1-4]\b", re.IGNORECASE)
#: The most lines of caption above a table that its head repeats, and the most characters of each.
_CAPTION_LINES, _CAPTION_CHARS = 4, 120
#: The most characters a repeated head may have (about 100 tokens): a longer one is no head but a table's body.
_MAX_HEAD_CHARS = 400
#: How many chunks above one that starts inside a table are read for the table's head: a statement's rows are
#: figures, about 20 tokens a row, so 8 chunks of 200 tokens hold a table of about 80 rows.
HEAD_LOOKBACK = 8


def is_row(line: str) -> bool:
    """A table row as the parsers write it: cells joined by `` | `` (or a Markdown row's leading ``|``).

    >>> is_row("Net sales | $ 1,184,207 | $ 1,092,688"), is_row("| a | b |"), is_row("Use a | b to pipe")
    (True, True, True)
    >>> is_row("Net sales were $1.18 billion.")
    False
    """
    return " | " in line or line.lstrip().startswith("|")


def is_figure_row(line: str) -> bool:
    """A row with a figure or a period after its first cell: a statement's row or column heads, which the chunker
    keeps whole (a line of its own as a sentence unit). A synopsis' ``[-a | -b]`` or a text table's row is none.

    >>> is_figure_row("Net sales | $ 1,184,207 | $ 1,092,688"), is_figure_row("Year Ended December 31, | 2024 | 2023")
    (True, True)
    >>> is_figure_row("tar [-A | --catenate]"), is_figure_row("Term | Meaning")
    (False, False)
    """
    if " | " not in line:
        return False
    row = cells(line)
    return len(row) >= 2 and any(is_figure(c) or PERIOD.fullmatch(c.strip()) for c in row[1:])


def cells(line: str) -> list[str]:
    """The row's cells without empty ones, a cell holding only a currency sign joined to the next and one holding
    only ``)`` or ``%`` to the one before (filings set ``$`` and ``)`` in cells of their own).

    >>> cells("Net sales | $ | 32,765 | | $ | (1,577 | )")
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


def is_figure(cell: str) -> bool:
    """An amount, not a label or a date: ``"$ (1,577)"``, ``"12.5%"``, ``"2024"`` (a year is a figure too).

    >>> is_figure("$ (1,577)"), is_figure("12.5%"), is_figure("Dec. 31, 2024")
    (True, True, False)
    """
    return bool(FIGURE.match(cell.replace(" ", "")) or FIGURE.match(cell))


def is_header_row(row_cells: list[str]) -> bool:
    """A header row: no figure other than a year or a quarter, some text or a period in it; a row of one cell only
    when it names a period or a unit ("Three Months Ended", "(in thousands)"): a label alone over the rows below it
    ("Operating expenses:", "Earnings per share:", "ASSETS") is part of the table's body.

    >>> is_header_row(["Year Ended December 31,", "2024", "2023"]), is_header_row(["Net sales", "1,184,207"])
    (True, False)
    >>> is_header_row(["Three Months Ended"]), is_header_row(["Operating expenses:"]), is_header_row(["ASSETS"])
    (True, False, False)
    """
    values = [c for c in row_cells if c]
    if len(values) == 1 and not _HEAD_WORDS.search(values[0]):
        return False
    return bool(values) and not any(is_figure(c) and not PERIOD.fullmatch(c.strip()) for c in values)


#: What a header row of one cell names: a period ("Six Months Ended", "As of June 30,", "Fiscal 2024") or a unit.
_HEAD_WORDS = re.compile(r"\b(?:ended|ending|months?|weeks?|years?|quarters?|fiscal|as of|thousands|millions|billions|"
                         r"except|unaudited|audited)\b|" + PERIOD.pattern, re.IGNORECASE)


def _caption_line(line: str) -> bool:
    """A line that may caption a table: short, not blank, and no sentence ("… for the year was as follows.")."""
    line = line.strip()
    return 0 < len(line) <= _CAPTION_CHARS and not (line.endswith(".") and len(line.split()) >= 8)


def starts_in_table(text: str) -> bool:
    """Whether ``text`` (a chunk) begins with a table's body: its first line is a row that is no header row.

    >>> starts_in_table("| 118,010 | 513,398\\nNet loss | (70,193)"), starts_in_table("Year | 2024\\nRevenue | 401,900")
    (True, False)
    """
    first = text.lstrip().split("\n", 1)[0]
    return bool(first) and is_row(first) and not is_header_row(cells(first))


def table_head(text: str) -> str:
    """The head of the table ``text`` ends inside: the caption lines just above it (at most four short ones, blank
    lines left out) and its leading header rows; '' when ``text`` does not end in a table's rows, or the
    table has no head within ``text`` (it began further up), or the head would be longer than a head is.

    >>> table_head("Net sales rose in every segment during the year.\\n\\nSegment | 2024\\nMetrology | 812,440")
    'Segment | 2024'
    >>> table_head("The following table shows net sales by segment:\\n\\nSegment | 2024\\nMetrology | 812,440")
    'The following table shows net sales by segment:\\nSegment | 2024'
    >>> table_head("Net loss | (70,193)\\nShares | 73,640"), table_head("Revenue | 401,900\\n\\nSome prose after.")
    ('', '')
    """
    lines = text.rstrip().split("\n")
    last = len(lines) - 1
    if last < 0 or not is_row(lines[last]):
        return ""
    first = last
    while first > 0 and is_row(lines[first - 1]):
        first -= 1
    body = first
    while body <= last and is_header_row(cells(lines[body])):
        body += 1
    caption, taken, above = first, 0, first - 1
    while above >= 0 and taken < _CAPTION_LINES:  # caption lines, blank lines between them (an HTML <p> each)
        if lines[above].strip():
            if not _caption_line(lines[above]):
                break
            caption, taken = above, taken + 1
        above -= 1
    if body == first and caption == first:
        return ""
    head = "\n".join(line.strip() for line in lines[caption:body] if line.strip())
    return head if len(head) <= _MAX_HEAD_CHARS else ""


def head_above(texts_above: Iterable[str]) -> str:
    """The head of the table a chunk starts inside, from the texts of the chunks above it in its section, nearest
    first (at most :data:`HEAD_LOOKBACK` are read): the first one's :func:`table_head`, or, past chunks of rows only
    (the middle of a long table), the next one's; '' when a chunk above is not all rows and has no head.

    >>> head_above(["Rev | 1 | 2\\nCost | 3 | 4", "Statement\\nYear | 2024 | 2023\\nSales | 5 | 6", "Older | 2022"])
    'Statement\\nYear | 2024 | 2023'
    >>> head_above(["Some prose above.", "Statement\\nYear | 2024 | 2023\\nSales | 5 | 6"])
    ''
    """
    for n, text in enumerate(texts_above):
        if n >= HEAD_LOOKBACK:
            break
        head = table_head(text)
        if head or not all(is_row(line) for line in text.strip().split("\n")):
            return head
    return ""
