"""The title an SEC filing's cover page states: the registrant, the form and the period.

A filing's largest print is "FORM 10-K" or "UNITED STATES SECURITIES AND EXCHANGE COMMISSION", and its
metadata title is often a file name, so fourteen filings of seven companies would all be called "FORM 10-K"
and no chunk header would say whose report a passage is from. Every cover page states it in fixed words:
the registrant's name above "(Exact name of registrant as specified in its charter)", the form ("FORM
10-K"), and the period ("For the fiscal year ended December 31, 2023"). :func:`filing_title` reads those
from the first characters of the parsed text, whatever the format; :func:`filing_cover` also says where the
cover's fixed words end, so that its large print ("FORM 10-K", the registrant's name) is not made the
heading that holds the whole report.

>>> cover = ("UNITED STATES\\nSECURITIES AND EXCHANGE COMMISSION\\nFORM 10-K\\n"
...          "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d)\\nFor the fiscal year ended December 31, 2023\\n"
...          "Commission File Number 001-12345\\n\\nGLOBEX CORPORATION\\n"
...          "(Exact name of registrant as specified in its charter)\\nDelaware | 36-1234567")
>>> filing_title(cover)
'GLOBEX CORPORATION, Form 10-K, fiscal year ended December 31, 2023'
>>> filing_title("SCHEDULE 14A\\nProxy Statement Pursuant to Section 14(a)\\nACME CORP.\\n"
...              "(Name of Registrant as Specified In Its Charter)")
'ACME CORP., Schedule 14A (proxy statement)'
>>> filing_title("A manual that mentions a Form 10-K."), filing_title("ACME (Exact name of registrant as specified in its charter)")
(None, None)
"""

from __future__ import annotations

import re

__all__ = ["filing_cover", "filing_title", "COVER_CHARS"]

COVER_CHARS = 12_000  # a cover page, with what a PDF or an EDGAR page puts before it
_REGISTRANT = re.compile(r"\(\s*(?:exact\s+)?name\s+of\s+(?:the\s+)?registrants?\s+as\s+specified\s+in\s+its\s+charter\s*\)",
                         re.I)  # 10-K/10-Q/8-K: "(Exact name of …)"; a proxy statement's Schedule 14A: "(Name of …)"
_FORM = re.compile(r"\b(?:FORM\s+(10-K(?:/A)?|10-Q(?:/A)?|8-K|20-F|40-F|6-K|10-KT|S-1)|(SCHEDULE\s+14A))\b", re.I)
_PERIOD = re.compile(r"\bfor\s+the\s+(fiscal\s+year|quarterly\s+period|fiscal\s+quarter|transition\s+period)\s+ended"
                     r"\s*:?\s*([A-Z][a-z]+\.?\s+\d{1,2}\s*,\s*\d{4})", re.I)
_DATE_OF_REPORT = re.compile(r"\bdate\s+of\s+report\s*\(date\s+of\s+earliest\s+event\s+reported\)\s*:?\s*"
                             r"([A-Z][a-z]+\.?\s+\d{1,2}\s*,\s*\d{4})", re.I)
_CELL = re.compile(r"\s*\|\s*")
_MAX_NAME = 120


def _registrant(head: str, at: int) -> str | None:
    """The name printed before the registrant phrase at ``at``: on its line, else the line above it."""
    before = head[:at].rstrip()
    line_start = before.rfind("\n") + 1
    same = before[line_start:].strip()
    if not same:
        prev = before[:line_start].rstrip()
        same = prev[prev.rfind("\n") + 1:].strip()
    cells = [c for c in _CELL.split(same) if c.strip()]  # a cover laid out as a table: the last cell
    name = " ".join(cells[-1].split()) if cells else ""
    if not name or len(name) > _MAX_NAME or not any(ch.isalpha() for ch in name):
        return None
    return name


def filing_cover(text: str) -> tuple[str, int] | None:
    """("<registrant>, Form <type>, <period>", the offset where the registrant phrase ends) when ``text``
    opens with an SEC cover page, else None."""
    head = text[:COVER_CHARS]
    found = _REGISTRANT.search(head)
    if found is None:
        return None
    name = _registrant(head, found.start())
    if name is None:
        return None
    form = _FORM.search(head)
    if form is None:  # every cover names its form; a text that only quotes the phrase is no filing
        return None
    parts = [name, "Form " + form.group(1).upper() if form.group(1) else "Schedule 14A (proxy statement)"]
    period = _PERIOD.search(head)
    if period:
        parts.append(f"{' '.join(period.group(1).lower().split())} ended {' '.join(period.group(2).split())}")
    elif (event := _DATE_OF_REPORT.search(head)) is not None:
        parts.append(" ".join(event.group(1).split()))
    return ", ".join(parts), found.end()


def filing_title(text: str) -> str | None:
    """"<registrant>, Form <type>, <period>" when ``text`` opens with an SEC cover page, else None."""
    cover = filing_cover(text)
    return cover[0] if cover else None
