"""Annual reports laid out as SEC filings are (10-K), as PDF or as EDGAR's HTML, for the heading tests and
``bench/filing_headings_bench.py``, with the headings a reader sees and where each sits in the tree.

Filings printed from EDGAR HTML or typeset by filing agents have no outline and set their headings at the
body size: ``PART II`` and ``Item 7. Management's Discussion and Analysis of Financial Condition and Results
of Operations`` in bold (a 95-character line) or in capitals of the body weight, sometimes ``Item 7.`` on a
line of its own above its title, and ``Note 12 — Income Taxes`` in the notes to the statements. Three
styles vary those habits (``bold``, ``caps``, ``label``); each has a cover page, a table of contents, prose
paragraphs (some with a bold lead-in, some with a line that starts with "Note 12 to …" or "Item 7 of …"),
and a statement table. As HTML (no h1–h6, as EDGAR serves filings): ``bold`` is Workiva's
``<span style="font-weight:700">``, ``caps`` plain capital paragraphs, ``label`` a table row of
``<b>Item 7.</b>`` and its title with numbered notes (``1. Summary of …``).

>>> raw, truth, pages = filing_pdf("bold", seed=1)
>>> raw[:5], truth[0], pages > 5
(b'%PDF-', (1, 'PART I'), True)
"""

from __future__ import annotations

import html
import random

from pdfgen import Text, make_pdf

__all__ = ["STYLES", "filing_pdf", "filing_html"]

STYLES = ("bold", "caps", "label")

_ITEMS = [  # (part, item, title, subheadings)
    ("I", "1", "Business", ["Overview", "Products and Services", "Competition", "Human Capital"]),
    ("I", "1A", "Risk Factors", ["Risks Related to Our Business", "Risks Related to Our Indebtedness"]),
    ("I", "2", "Properties", []),
    ("I", "3", "Legal Proceedings", []),
    ("II", "5", "Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases of "
                "Equity Securities", ["Dividends"]),
    ("II", "7", "Management's Discussion and Analysis of Financial Condition and Results of Operations",
     ["Executive Summary", "Results of Operations", "Liquidity and Capital Resources",
      "Critical Accounting Estimates"]),
    ("II", "7A", "Quantitative and Qualitative Disclosures About Market Risk", ["Interest Rate Risk"]),
    ("II", "8", "Financial Statements and Supplementary Data", []),
    ("II", "9A", "Controls and Procedures", []),
    ("III", "10", "Directors, Executive Officers and Corporate Governance", []),
    ("IV", "15", "Exhibits and Financial Statement Schedules", []),
]
_NOTES = [("1", "Summary of Significant Accounting Policies", ["Revenue Recognition", "Use of Estimates"]),
          ("2", "Acquisitions", []), ("7", "Debt", ["Credit Facility"]), ("12", "Income Taxes", []),
          ("14", "Segment Information", [])]
_PART_TITLES = {"I": "", "II": "", "III": "", "IV": ""}
_WORDS = ("the company revenue increased decreased compared prior year primarily due higher volume pricing "
          "segment operating income margin costs expenses net sales customers products market demand growth "
          "cash flows capital expenditures debt interest rates foreign currency exchange impact results fiscal "
          "quarter period management believes estimates assumptions accounting policies goodwill impairment "
          "tax rate effective share repurchases dividends liquidity facility borrowings").split()
_LINE_CHARS = 92  # characters of 10-point body text per 6.5-inch line
_TOP, _BOTTOM = 740.0, 60.0


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(9, 22))]
    return words[0].capitalize() + " " + " ".join(words[1:]) + "."


def _wrap(text: str, width: int = _LINE_CHARS) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines


class _Writer:
    """Sets blocks top to bottom, page by page, at the body size (10 pt) unless told otherwise."""

    def __init__(self) -> None:
        self.pages: list[list[Text]] = [[]]
        self.y = _TOP

    def _room(self, needed: float) -> None:
        if self.y - needed < _BOTTOM:
            self.pages.append([])
            self.y = _TOP

    def new_page(self) -> None:
        if self.pages[-1]:
            self.pages.append([])
            self.y = _TOP

    def lines(self, lines: list[str], *, size: float = 10, bold: bool = False, before: float = 8,
              after: float = 0, x: float = 72) -> None:
        self._room(before + size * 1.25 * len(lines))
        self.y -= before
        for text in lines:
            self.pages[-1].append(Text(x, self.y, size, text, bold))
            self.y -= size * 1.25
        self.y -= after

    def lead_in(self, lead: str, rest: str) -> None:
        """A paragraph that opens with a bold run-in title ("Revenue Recognition. The Company …")."""
        first, *more = _wrap(f"{lead} {rest}")
        self._room(8 + 12.5 * (1 + len(more)))
        self.y -= 8
        self.pages[-1].append(Text(72, self.y, 10, lead, True))
        self.pages[-1].append(Text(72 + 5.6 * len(lead) + 3, self.y, 10, first[len(lead) + 1:]))
        self.y -= 12.5
        for text in more:
            self.pages[-1].append(Text(72, self.y, 10, text))
            self.y -= 12.5

    def row(self, cells: list[tuple[float, str]], *, bold: bool = False) -> None:
        self._room(13)
        for x, text in cells:
            self.pages[-1].append(Text(x, self.y, 10, text, bold))
        self.y -= 13


class _HtmlWriter:
    """The same blocks as EDGAR HTML: a ``<div>`` per paragraph, ``<span style="font-weight:700">`` for bold,
    consecutive rows in one ``<table>``, a page break and a centred page number between pages."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.rows: list[str] = []
        self.pages = 1

    def _flush(self) -> None:
        if self.rows:
            self.parts.append("<table>" + "".join(self.rows) + "</table>")
            self.rows = []

    @staticmethod
    def _span(text: str, bold: bool) -> str:
        return f'<span style="font-weight:{700 if bold else 400}">{html.escape(text)}</span>'

    def new_page(self) -> None:
        self._flush()
        self.parts.append(f'<div style="text-align:center">{self.pages}</div><hr style="page-break-after:always"/>')
        self.pages += 1

    def lines(self, lines: list[str], *, size: float = 10, bold: bool = False, **_) -> None:
        self._flush()
        self.parts.append(f'<div style="font-size:{size}pt">{self._span(" ".join(lines), bold)}</div>')

    def lead_in(self, lead: str, rest: str) -> None:
        self._flush()
        self.parts.append(f"<div>{self._span(lead, True)} {self._span(rest, False)}</div>")

    def row(self, cells: list[tuple[float, str]], *, bold: bool = False) -> None:
        self.rows.append("<tr>" + "".join(f"<td>{self._span(t, bold)}</td>" for _, t in cells) + "</tr>")

    def label_row(self, label: str, title: str) -> None:
        self._flush()
        self.parts.append(f"<table><tr><td><b>{html.escape(label)}</b></td><td><b>{html.escape(title)}</b></td>"
                          "</tr></table>")

    def document(self) -> str:
        self._flush()
        return ("<html><head><title>gbx-20231231.htm</title></head><body>" + "\n".join(self.parts)
                + "</body></html>")


def filing_pdf(style: str, seed: int = 0, paragraphs: int = 3) -> tuple[bytes, list[tuple[int, str]], int]:
    """A 10-K in ``style`` → (PDF bytes, its headings as (depth, title) in order, its page count).

    Depth: PART 1, Item 2, a heading inside an Item 3, a Note 3 (inside Item 8), a heading inside a Note 4.
    """
    w = _Writer()
    truth = _filing(w, style, seed, paragraphs)
    return make_pdf(w.pages, title=None), truth, len(w.pages)


def filing_html(style: str, seed: int = 0, paragraphs: int = 3) -> tuple[bytes, list[tuple[int, str]], int]:
    """The same 10-K as EDGAR serves it → (HTML bytes, its headings as (depth, title), its printed pages)."""
    w = _HtmlWriter()
    truth = _filing(w, style, seed, paragraphs)
    return w.document().encode(), truth, w.pages


def _filing(w, style: str, seed: int, paragraphs: int) -> list[tuple[int, str]]:
    if style not in STYLES:
        raise ValueError(f"style is one of {STYLES}")
    rng = random.Random(f"{style}-{seed}")
    as_html = isinstance(w, _HtmlWriter)
    truth: list[tuple[int, str]] = []

    def prose(n: int = paragraphs) -> None:
        for _ in range(n):
            w.lines(_wrap(" ".join(_sentence(rng) for _ in range(rng.randint(2, 5)))))

    def heading(depth: int, text: str) -> None:
        truth.append((depth, text))
        if style == "caps" and depth <= 2:
            w.lines(_wrap(text.upper(), 80), before=16, after=4)
        elif style == "label" and depth == 2 and text.startswith("Item") and as_html:
            label, title = text.split(". ", 1)
            w.label_row(f"{label}.", title)
        elif style == "label" and depth == 2 and text.startswith("Item"):
            label, title = text.split(". ", 1)
            w.lines([f"{label}."], bold=True, before=16)
            w.lines(_wrap(title, 100), bold=True, before=2, after=4)
        else:  # the label style sets its PARTs a point larger than the body (a size of no level of its own)
            w.lines([text], size=11 if style == "label" and depth == 1 else 10, bold=True,
                    before=14 if depth <= 2 else 10, after=3)

    # cover page and contents: never headings of the tree
    w.lines(["UNITED STATES"], size=12, bold=True, x=250)
    w.lines(["SECURITIES AND EXCHANGE COMMISSION"], size=12, bold=True, x=180)
    w.lines(["Washington, D.C. 20549"], x=250)
    w.lines(["FORM 10-K"], size=16, bold=True, x=260, before=20)
    w.lines(["ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934"], before=12)
    w.lines(["For the fiscal year ended December 31, 2023"])
    w.lines(["Commission File Number 001-12345"])
    w.lines(["GLOBEX CORPORATION"], size=14, bold=True, x=220, before=16)
    w.lines(["(Exact name of registrant as specified in its charter)"], size=8, x=210, before=2)
    w.lines(["Delaware", "36-1234567"], before=8)
    w.new_page()
    w.lines(["TABLE OF CONTENTS"], bold=True, x=250)
    for part, item, title, _ in _ITEMS:
        entry = f"Item {item}." if style != "caps" else f"Item {item}. {title[:48]}"
        page = str(rng.randint(3, 90))
        if style == "caps":
            w.lines([f"{entry} {page}"], before=2)
        else:
            w.row([(72, entry), (130, title[:60]), (520, page)])
    w.new_page()
    part_now = ""
    for part, item, title, subs in _ITEMS:
        if part != part_now:
            part_now = part
            heading(1, f"PART {part}")
        heading(2, f"Item {item}. {title}")
        if item != "1":  # Item 1's first heading follows it directly: two headings, not one wrapped
            prose()
        if item == "7":
            w.lines(_wrap("Item 7 of this report should be read with the consolidated financial statements and "
                          "the notes to them, and " + _sentence(rng).lower()))
            w.lines(["The discussion below refers to the notes where its figures come from; for income taxes, see",
                     "Note 12 to the consolidated financial statements, which describes the effective tax rate,",
                     "and Part II of this report for the market risks that follow from our borrowings."])
        for sub in subs:
            heading(3, sub)
            prose()
            if sub == "Results of Operations":
                w.row([(72, "(in millions)"), (380, "2023"), (470, "2022")], bold=True)
                for label in ("Net sales", "Cost of sales", "Operating income"):
                    w.row([(72, label), (380, f"{rng.randint(100, 9000):,}"), (470, f"{rng.randint(100, 9000):,}")])
        if item == "8":
            for number, note_title, note_subs in _NOTES:
                note = f"Note {number} \u2014 {note_title}" if style != "label" else f"Note {number}: {note_title}"
                if style == "label" and as_html:
                    note = f"{number}. {note_title}"
                if style == "caps":
                    truth.append((3, note))
                    w.lines([note.upper()], before=14, after=3)
                else:
                    heading(3, note)
                prose(2)
                for sub in note_subs:
                    if sub == "Revenue Recognition":  # a bold run-in title is the paragraph's, not a heading
                        w.lead_in("Revenue Recognition.", " ".join(_sentence(rng) for _ in range(3)))
                        continue
                    heading(4, sub)
                    prose(2)
    w.lines(["SIGNATURES"], bold=True, before=16)
    w.lines(_wrap("Pursuant to the requirements of the Securities Exchange Act of 1934, the registrant has duly "
                  "caused this report to be signed on its behalf by the undersigned, thereunto duly authorized."))
    return truth
