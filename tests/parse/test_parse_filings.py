"""SEC filings' section trees, as PDF and as EDGAR's HTML: neither has heading markup (no outline, no h1–h6);
the headings are lines at the body size, bold or in capitals, with labels (PART II, Item 7., Note 12).

The filings are written by ``filinggen`` in three styles each (see its docstring), so each test states what
the file holds and which heading sits under which.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from filinggen import STYLES, filing_html, filing_pdf

from pipelines.parse import parse_bytes
from pipelines.parse.html import parse

REPO = Path(__file__).resolve().parents[2]
COVER = {"united states", "securities and exchange commission", "united states securities and exchange commission",
         "form 10-k", "globex corporation", "table of contents", "signatures"}


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("make, path", [(filing_pdf, "10-k.pdf"), (filing_html, "10-k.htm")], ids=["pdf", "html"])
def test_a_filings_headings_nest_by_their_labels(make, path, style):
    """Every heading is found, and PART > Item > its headings, Item 8 > Note > its headings. In PDF: bold Items
    up to 150 characters ("Item 7. Management's Discussion … Results of Operations"), Items in capitals of the
    body weight wrapped over two lines, "Item 7." on a line of its own above its title. In HTML: Workiva's bold
    spans, capital paragraphs, a table row of label and title. A line opening with "Note 12 to …", a bold
    run-in title, the contents and the statement table are no headings."""
    raw, truth, _ = make(style)
    doc = parse_bytes(raw, path=path, doc_id="d1", max_bytes=10_000_000)
    by_title = {s.title.casefold(): s for s in doc.sections[1:]}
    ids = {s.section_id: s for s in doc.sections}
    stack: list[tuple[int, str]] = []
    for depth, title in truth:
        assert title.casefold() in by_title, (title, sorted(by_title))
        while stack and stack[-1][0] >= depth:
            stack.pop()
        if stack:  # its parent is the heading it sits under
            assert ids[by_title[title.casefold()].parent_id].title.casefold() == stack[-1][1].casefold(), title
        stack.append((depth, title))
    assert set(by_title) - {t.casefold() for _, t in truth} <= COVER
    assert doc.title == "GLOBEX CORPORATION, Form 10-K, fiscal year ended December 31, 2023"  # from the cover
    assert not {"form 10-k", "globex corporation"} & set(by_title)  # whose large print heads no section
    assert by_title["part i"].parent_id == doc.sections[0].section_id
    assert "Note 12 to the consolidated financial statements" in doc.text.replace("\n", " ")
    assert "Revenue Recognition. " in doc.text


def test_a_plain_text_filings_unlabelled_headings_sit_inside_its_items():
    """In a text filing, "RESULTS OF OPERATIONS" (capitals) and "Liquidity and Capital Resources" (Title Case)
    are headings inside Item 7, not beside PART II; a plain numbered note sits inside Item 8."""
    body = "Net sales rose in every segment, and operating income rose with them, as the table shows.\n\n"
    text = (f"PART II\n\nItem 7. Management's Discussion and Analysis\n\n{body}RESULTS OF OPERATIONS\n\n{body}"
            f"Liquidity and Capital Resources\n\n{body}Item 8. Financial Statements\n\n{body}"
            f"1. Summary of Significant Accounting Policies\n\n{body}")
    doc = parse_bytes(text.encode(), path="10-k.txt", doc_id="d1")
    assert [s.path_str for s in doc.sections[1:]] == [
        "PART II", "PART II > Item 7. Management's Discussion and Analysis",
        "PART II > Item 7. Management's Discussion and Analysis > RESULTS OF OPERATIONS",
        "PART II > Item 7. Management's Discussion and Analysis > RESULTS OF OPERATIONS > Liquidity and Capital Resources",
        "PART II > Item 8. Financial Statements",
        "PART II > Item 8. Financial Statements > 1. Summary of Significant Accounting Policies"]


def test_filings_written_without_reading_the_parser_keep_their_outline():
    """The held-out filings of ``bench/filings_heldout`` (a 10-Q PDF, a Workiva 10-K and a Donnelley proxy
    statement as EDGAR HTML: the three never read while the parser was changed) keep most of their outline.
    Before the filing rules the HTML ones had no heading at all and the 10-Q none in the right place."""
    sys.path.insert(0, str(REPO / "bench"))
    sys.path.insert(0, str(REPO / "bench" / "filings_heldout"))
    import heldout  # noqa: PLC0415
    from filing_headings_bench import HELDOUT_TUNE, score  # noqa: PLC0415

    scores = {name: score(raw, name, truth) for name, raw, truth in heldout.documents() if name not in HELDOUT_TUNE}
    assert len(scores) == 3
    for name, s in scores.items():
        assert s["recall"] >= 0.85 and s["precision"] >= 0.75 and s["parent"] >= 0.45, (name, s)
    assert sum(s["parent"] for s in scores.values()) / 3 >= 0.7, scores


def test_a_run_of_bold_blocks_is_a_passage_not_headings():
    """More than three bold blocks in a row (a cover page, an address) are no headings; two are. A long run is
    read in one pass (it was quadratic: 100,000 bold blocks took minutes)."""
    body = "<p>The text under it, which is long enough to be body text of a page.</p>"
    page = ("<html><body>" + "<p><b>Bold line</b></p>" * 5 + body + "<p><b>Overview</b></p><p><b>Markets</b></p>"
            + body + "<p><b>Run</b></p>" * 20_000 + body + "</body></html>")
    doc = parse_bytes(page.encode(), path="page.htm", doc_id="d1")
    assert [s.title for s in doc.sections[1:]] == ["Overview", "Markets"]


@pytest.mark.parametrize("style", ["workiva", "page number", "page of", "constant"])
def test_paginated_html_loses_its_running_furniture_and_keeps_its_text(style):
    """EDGAR's HTML prints pages: each ends with a footer or a page number before a ``page-break`` style, and a
    Workiva filing opens each page with a "Table of Contents" link. None of it is text: it split sentences across
    pages and was quoted as evidence. Every sentence stays once, in order; the headings stay; the inline XBRL
    header (``display: none``) is not text either."""
    sentences = [f"In fiscal {2020 + i % 5} the segment's revenue rose by {i + 3} percent on volume." for i in range(30)]
    furniture = {"workiva": ('<div><span>Globex Corporation | 2024 Form 10-K | {n}</span></div>'
                             '<hr style="page-break-after:always"/><div><a href="#toc">Table of Contents</a></div>'),
                 "page number": '<p align="center">{n}</p><p style="page-break-before: always"></p>',
                 "page of": '<div style="text-align:center">Page {n} of 6</div><div style="break-after: page"></div>',
                 # a footer and a header that never change (the page number printed apart, in the footer's own table)
                 "constant": ('<table><tr><td>Globex Corporation | Form 10-Q | Q3 2025</td></tr></table>'
                              '<p style="text-align:center">{n}</p><div style="page-break-after:always"></div>'
                              '<p style="text-align:right">Globex Corporation, Inc.</p>')}
    parts = ['<html><body><div style="display:none"><ix:header><ix:hidden>false FY 0000123456</ix:hidden>'
             '</ix:header></div><div><span style="font-weight:700">Item 7. Management\'s Discussion</span></div>']
    for n in range(6):
        parts += [f"<div><span>{s}</span></div>" for s in sentences[5 * n: 5 * n + 5]]
        parts.append(furniture[style].format(n=n + 1))
    doc = parse_bytes("".join(parts + ["</body></html>"]).encode(), path="gbx-20241231.htm", doc_id="d1")
    lines = [line for line in doc.text.split("\n") if line.strip()]
    assert lines[1:] == sentences, lines[:8]
    assert lines[0] == "Item 7. Management's Discussion"
    assert [s.title for s in doc.sections[1:]] == ["Item 7. Management's Discussion"]
    for a, b in zip(doc.sections, doc.sections[1:]):  # the sections' offsets still point at their text
        assert a.start <= b.start


def test_unpaginated_html_keeps_repeated_short_lines():
    """Without page breaks nothing is furniture: a manual's repeated "Back to top" links and numbered steps are
    left as they are (navigation chrome is dropped by its markup, not by repetition)."""
    body = "".join(f"<p>Step {n}</p><p>Run the command number {n} now.</p><p>{n}</p>" for n in range(1, 6))
    doc = parse_bytes(f"<html><body>{body}</body></html>".encode(), path="guide.html", doc_id="d1")
    assert [line for line in doc.text.split("\n") if line.strip()][:3] == ["Step 1", "Run the command number 1 now.", "1"]


def test_a_statement_title_in_its_tables_caption_row_is_a_heading():
    """An earnings release puts each statement's title in the table itself: one bold cell spanning the table above
    its column headers, under the company's name (which opens every statement, so names no section). The title is
    a heading, the statement's rows sit in its section; a contents table's "Page" column header is no heading."""
    def statement(title: str, rows: list[tuple[str, str, str]]) -> str:
        caption = "".join(f'<tr><td colspan="3" style="font-weight:bold">{t}</td></tr>'
                          for t in ("GLOBEX CORPORATION", title, "(In thousands)"))
        body = "".join(f"<tr><td>{label}</td><td>{a}</td><td>{b}</td></tr>" for label, a, b in rows)
        return f"<table>{caption}<tr><td></td><td>2024</td><td>2023</td></tr>{body}</table>"

    page = ('<html><body><table><tr><td></td><td>Page</td></tr><tr><td>Results</td><td>2</td></tr></table>'
            "<p><b>Exhibit 99.1</b></p><p>Globex reported record revenue for the year.</p>"
            + statement("CONSOLIDATED STATEMENTS OF OPERATIONS", [("Total revenue", "1,204", "1,100"),
                                                                  ("Net income", "311", "290")])
            + statement("CONDENSED CONSOLIDATED BALANCE SHEETS", [("Total assets", "9,876", "9,001"),
                                                                  ("Total equity", "4,321", "4,000")])
            + "</body></html>")
    doc = parse_bytes(page.encode(), path="gbx-ex991.htm", doc_id="d1")
    titles = [s.title for s in doc.sections[1:]]
    assert titles == ["Exhibit 99.1", "CONSOLIDATED STATEMENTS OF OPERATIONS", "CONDENSED CONSOLIDATED BALANCE SHEETS"]
    sheet = next(s for s in doc.sections if s.title == "CONDENSED CONSOLIDATED BALANCE SHEETS")
    assert "Total assets" in doc.text[sheet.start:sheet.end] and "Net income" not in doc.text[sheet.start:sheet.end]


def test_a_heading_after_the_last_running_line_stays_inside_the_text():
    """Found by fuzzing: a heading whose block ends in blank lines, after a page number that is dropped, pointed past
    the end of the text once the trailing blank lines went; every heading now spans text of the page."""
    page = ('<p>Sales rose.</p><p>1</p><hr style="page-break-after:always"><p>Costs fell.</p><p>2</p>'
            '<hr style="page-break-after:always"><h2>Item 7. Results\n<pre>\n\n</pre></h2><p>3</p>')
    text, heads, _ = parse(page)
    assert [text[h.start:h.end] for h in heads] == ["Item 7. Results"] and heads[0].end <= len(text)
