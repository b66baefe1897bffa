"""PDF parsing: text in reading order per page, headings from the outline or the fonts, running headers
and footers dropped, hyphenation repaired, page boundaries kept for the chunks; bad PDFs get a reason.

Every PDF here is written by ``pdfgen`` (a few KB each), so each test states exactly what the file holds.
"""

from __future__ import annotations

import gzip
import os
import re

import pytest
from pdfgen import Image, Mark, Text, make_pdf

from pipelines.parse import ParseError, parse_bytes
from pipelines.parse.detect import detect_binary

HEADER = "ACME Annual Report 2024"


def _page(lines, *, n: int, i: int, running: bool = True, top: float = 720) -> list:
    """A page: ``lines`` of (size, bold, text) set from ``top`` down, plus a running header and footer."""
    items = []
    if running:
        items.append(Text(72, 760, 9, HEADER))
        items.append(Text(280, 30, 9, f"Page {i + 1} of {n}"))
    y = top
    for k, (size, bold, text) in enumerate(lines):
        heading = size > 10.5 or bold
        if k:
            y -= 2.2 * size if heading else 1.2 * size
        items.append(Text(72, y, size, text, bold))
        if heading:
            y -= 0.6 * size  # headings have space below as well
    return items


def _doc(pages_lines, **kw) -> bytes:
    n = len(pages_lines)
    running = kw.pop("running", True)
    return make_pdf([_page(lines, n=n, i=i, running=running) for i, lines in enumerate(pages_lines)], **kw)


def _parse(raw: bytes, path: str = "report.pdf"):
    return parse_bytes(raw, path=path, doc_id="d1", max_bytes=10_000_000)


def _body(word: str, n: int = 6) -> list[tuple[float, bool, str]]:
    return [(10, False, f"{word} line {k} of the body text, written plainly for the reader.") for k in range(n)]


OUTLINED = [
    [(16, True, "1 Overview"), *_body("Overview", 4), (13, True, "1.1 Markets"), *_body("Markets", 3)],
    [(11, True, "1.1.1 Europe"), *_body("Europe", 5)],
    [(16, True, "2 Risks"), *_body("Risks", 5)],
    [*_body("Appendix", 4)],
]
OUTLINE = [Mark(1, "Overview", 0, 730), Mark(2, "Markets", 0, 640), Mark(3, "Europe", 1, 730),
           Mark(1, "Risks", 2, 730), Mark(1, "Glossary of terms", 3, 730)]


def test_magic_bytes_decide_not_the_name():
    raw = _doc(OUTLINED, outline=OUTLINE)
    assert detect_binary(raw[:64]) == "pdf" and detect_binary(b"notes: %PDF- in a text file") is None
    doc = _parse(raw, path="scan-0001")  # no extension: still a PDF
    assert doc.format == "pdf"
    assert _parse(gzip.compress(raw), path="report.pdf.gz").text == doc.text  # Debian ships .pdf.gz
    with pytest.raises(ParseError) as err:
        _parse(b"just some text, not a PDF\n", path="notes.pdf")
    assert err.value.reason == "corrupt"


def test_text_in_reading_order_with_page_boundaries():
    doc = _parse(_doc(OUTLINED, outline=OUTLINE))
    assert len(doc.page_starts) == 4 and doc.page_starts[0] == 0
    order = [doc.text.index(f"{w} line 0 ") for w in ("Overview", "Markets", "Europe", "Risks", "Appendix")]
    assert order == sorted(order)
    # each word's lines lie on its own page
    for word, page in (("Overview", 1), ("Markets", 1), ("Europe", 2), ("Risks", 3), ("Appendix", 4)):
        at = doc.text.index(f"{word} line 2 ")
        assert doc.page_span(at, at + 10) == (page, page), word
    first = doc.text.index("Europe line 0")
    last = doc.text.index("Risks line 4")
    assert doc.page_span(first, last + 5) == (2, 3)


def test_headings_from_the_outline_keep_the_printed_numbering():
    doc = _parse(_doc(OUTLINED, outline=OUTLINE, title="ACME annual report"))
    assert doc.title == "ACME annual report"  # the document information's title
    tree = [(s.level, s.path_str) for s in doc.sections]
    assert tree == [
        (0, ""), (1, "1 Overview"), (2, "1 Overview > 1.1 Markets"), (3, "1 Overview > 1.1 Markets > 1.1.1 Europe"),
        (1, "2 Risks"), (1, "Glossary of terms"),  # not printed on its page: inserted where the entry points
    ]
    by_title = {s.title: s for s in doc.sections}
    assert by_title["1.1.1 Europe"].text.startswith("Europe line 0")
    assert "Markets line 2" in by_title["1.1 Markets"].text and "Europe" not in by_title["1.1 Markets"].text
    assert by_title["Glossary of terms"].text.startswith("Appendix line 0")
    assert doc.page_span(by_title["2 Risks"].start, by_title["2 Risks"].end) == (3, 3)
    # the printed heading lines became the headings: not left in the body text as well
    assert doc.text.count("1.1.1 Europe") == 1


def test_headings_from_font_sizes_without_an_outline():
    pages = [
        [(20, True, "Field Guide to Rivers"), *_body("Intro", 3), (16, True, "Sources"), *_body("Sources", 3),
         (13, True, "Springs and Seeps"), *_body("Springs", 3)],
        [(10, True, "Karst springs"), *_body("Karst", 3), (16, True, "Mouths"), *_body("Mouths", 4)],
    ]
    doc = _parse(_doc(pages, running=False))
    assert doc.title == "Field Guide to Rivers"
    tree = [(s.level, s.path_str) for s in doc.sections]
    assert tree == [
        (0, ""), (1, "Field Guide to Rivers"), (2, "Field Guide to Rivers > Sources"),
        (3, "Field Guide to Rivers > Sources > Springs and Seeps"),
        (4, "Field Guide to Rivers > Sources > Springs and Seeps > Karst springs"),  # bold at the body size
        (2, "Field Guide to Rivers > Mouths"),
    ]
    assert {s.title: s.text.split(" line")[0] for s in doc.sections[1:]} == {
        "Field Guide to Rivers": "Intro", "Sources": "Sources", "Springs and Seeps": "Springs",
        "Karst springs": "Karst", "Mouths": "Mouths"}


def test_running_headers_footers_and_page_numbers_are_dropped():
    n = 6
    pages = []
    for i in range(n):
        items = [Text(72, 760, 9, HEADER),  # a running title
                 Text(280, 30, 9, f"Page {i + 1} of {n}"),  # a footer with the page number
                 Text(500, 760, 9, str(i + 11))]  # a bare printed page number (starts at 11)
        items.append(Text(72, 745, 9, f"{i + 11} CHAPTER {i // 2 + 1}. RESULTS" if i % 2 else "ACME CONFIDENTIAL"))
        items += [Text(72, 700 - 14 * k, 10, f"Body {i}.{k} says something specific about page {i + 1}.")
                  for k in range(8)]
        pages.append(items)
    doc = _parse(make_pdf(pages))
    for gone in (HEADER, "Page ", "CHAPTER", "CONFIDENTIAL"):
        assert gone not in doc.text, gone
    assert all(f"Body {i}.{k} says" in doc.text for i in range(n) for k in range(8))
    lines = [ln for ln in doc.text.splitlines() if ln.strip()]
    assert len(lines) == 8 * n and not any(ln.strip().isdigit() for ln in lines)


def test_a_line_that_repeats_in_the_body_is_kept_and_a_watermark_once():
    pages = [[*[Text(72, 700 - 14 * k, 10, f"Text {i}.{k} of the page body.") for k in range(6)],
              Text(72, 600 - 30 * i, 10, "Note: keep this line."),  # mid-page, a different height on each page
              Text(150, 400, 60, "DRAFT")]  # a watermark: the same text at the same place on every page
             for i in range(5)]
    doc = _parse(make_pdf(pages))
    assert doc.text.count("Note: keep this line.") == 5  # content, not a running title
    assert doc.text.count("DRAFT") == 1
    assert doc.title != "DRAFT" and all(s.title != "DRAFT" for s in doc.sections[1:])  # nor a heading


def test_hyphenation_at_line_ends_is_repaired():
    n = 2
    pages = [
        _page([(10, False, "The annual exam-"), (10, False, "ple shows how the well-"),
               (10, False, "known effect of trade works; it is well-known indeed."),
               (10, False, "Across the page break the inter-")], n=n, i=0),
        _page([(10, False, "national market grew, with a state-"), (10, False, "of-the-art Anglo-"),
               (10, False, "Saxon port, a state-of-the-art site.")], n=n, i=1),
    ]
    doc = _parse(make_pdf(pages))
    text = " ".join(doc.text.split())
    assert "The annual example shows how the well-known effect" in text
    assert "Across the page break the international market grew" in text
    assert "with a state-of-the-art Anglo-Saxon port" in text
    assert "exam-" not in doc.text and "inter-" not in doc.text
    at = doc.text.index("international")
    assert doc.page_span(at, at + 5) == (1, 1)  # the joined word stays where it starts


def test_a_table_is_kept_as_rows_of_cells():
    rows = [("Region", "Revenue", "Margin"), ("Europe", "1,200", "12.5%"), ("North America", "3,400", "9.1%"),
            ("Asia Pacific", "870", "14.0%")]
    prose = "The table below lists the revenue and the margin of each region in the year."
    items = [Text(72, 720 - 14 * k, 10, prose) for k in range(2)]
    for r, row in enumerate(rows):  # three columns: a cell per text object, the header in bold
        items += [Text(x, 680 - 14 * r, 10, cell, r == 0) for x, cell in zip((72, 220, 320), row)]
    items.append(Text(72, 600, 10, "Margins rose in every region except North America, where costs grew."))
    items += [Text(72, 560 - 12 * k, 9, "int main ( void ) ;") for k in range(3)]  # one space each: no cells
    doc = _parse(make_pdf([items]))
    lines = doc.text.splitlines()
    at = lines.index("Region | Revenue | Margin")
    assert lines[at - 1] == "" and lines[at + 4] == ""  # a paragraph of its own
    assert lines[at + 1:at + 4] == ["Europe | 1,200 | 12.5%", "North America | 3,400 | 9.1%", "Asia Pacific | 870 | 14.0%"]
    assert doc.text.count(" | ") == 8  # prose and the evenly spaced lines stay whole
    assert doc.text.count(prose) == 2 and "Margins rose in every region" in doc.text
    assert all(s.title != "Region | Revenue | Margin" and "Region" not in s.title for s in doc.sections[1:])


def test_a_gap_in_one_line_or_justified_prose_is_no_table():
    loose = ["words spread far apart across the whole justified line here",
             "so that each gap is wide but the gaps of one line never meet",
             "those of the next one, as in a column of loosely set prose"]
    items = []
    for k, line in enumerate(loose):  # every space wide (a word per text object), no white column shared
        x = 72.0
        for w in line.split():
            items.append(Text(x, 700 - 14 * k, 10, w))
            x += 5.2 * len(w) + 12
    items.append(Text(72, 640, 10, "Total"))  # one line with one wide gap: no table either
    items.append(Text(400, 640, 10, "42"))
    items += [Text(72, 620 - 14 * k, 10, f"Plain body line {k} of the report.") for k in range(3)]
    doc = _parse(make_pdf([items]))
    assert " | " not in doc.text
    assert all(line in " ".join(doc.text.split()) for line in loose)


def test_encrypted_pdf_needs_a_password():
    raw = make_pdf([_page(_body("Secret"), n=1, i=0)], user_password="s3cret")
    with pytest.raises(ParseError) as err:
        _parse(raw)
    assert err.value.reason == "encrypted" and str(err.value) == "encrypted: needs a password"
    # encrypted with an empty user password (an owner password restricting printing or copying): it opens
    doc = _parse(make_pdf([_page(_body("Open"), n=1, i=0)], user_password=""))
    assert "Open line 3 of the body text" in doc.text


def test_truncated_and_corrupt_pdfs():
    raw = _doc(OUTLINED, outline=OUTLINE)
    with pytest.raises(ParseError) as err:
        _parse(raw[: len(raw) * 2 // 3])
    assert err.value.reason == "corrupt" and "truncated" in err.value.detail
    garbage = b"%PDF-1.7\n" + bytes(range(256)) * 8 + b"\n%%EOF\n"
    with pytest.raises(ParseError) as err:
        _parse(garbage)
    assert err.value.reason == "corrupt"


def test_image_only_pdf_has_no_text_layer():
    raw = make_pdf([[Image()] for _ in range(3)])
    with pytest.raises(ParseError) as err:
        _parse(raw)
    assert err.value.reason == "no_text_layer"
    assert str(err.value).startswith("no_text_layer: scanned pages need OCR")
    # mostly scanned, a cover page with text: still a scan
    cover = [Text(72, 700 - 14 * k, 10, f"Cover line {k} with some words on it.") for k in range(5)]
    with pytest.raises(ParseError) as err:
        _parse(make_pdf([cover] + [[Image()] for _ in range(5)]))
    assert err.value.reason == "no_text_layer"


def test_over_the_size_limit():
    raw = _doc(OUTLINED, outline=OUTLINE)
    with pytest.raises(ParseError) as err:
        parse_bytes(raw, path="big.pdf", doc_id="d", max_bytes=len(raw) - 1)
    assert err.value.reason == "too_large"
    with pytest.raises(ParseError) as err:  # and inside gzip
        parse_bytes(gzip.compress(raw), path="big.pdf.gz", doc_id="d", max_bytes=len(raw) - 1)
    assert err.value.reason == "too_large"


def test_chunks_carry_their_pages():
    from cluster.config import load_config
    from pipelines.chunk import chunk_with_config
    from pipelines.stages.parse_chunk import chunking_setup

    cfg = load_config()
    tokenizer, config = chunking_setup(cfg.models.model_dump_json(), cfg.chunking.model_dump_json())
    pages = [[(16, True, "1 Overview"), *_body("Overview", 30)], [*_body("More", 30)], [*_body("Last", 10)]]
    doc = _parse(_doc(pages, outline=[Mark(1, "Overview", 0, 730)]))
    chunks = chunk_with_config(doc, tokenizer, config)
    assert len(chunks) >= 3
    for c in chunks:
        assert c.first_page is not None and 1 <= c.first_page <= c.last_page <= 3
        expected = {{"Overview": 1, "More": 2, "Last": 3}[w] for w in re.findall(r"(\w+) line \d+ of", c.text)}
        assert (c.first_page, c.last_page) == (min(expected), max(expected)), (c.text[:80], expected)
    assert any(c.first_page < c.last_page for c in chunks)  # one chunk runs over a page break
    md = parse_bytes(b"# T\n\nSome text here.\n", path="a.md", doc_id="m")
    assert md.page_starts == [] and all(c.first_page is None for c in chunk_with_config(md, tokenizer, config))


@pytest.mark.skipif(os.environ.get("STRATA_TEST_SKIP_INGEST") == "1", reason="STRATA_TEST_SKIP_INGEST=1")
def test_ingest_takes_pdfs_and_reports_bad_ones(tmp_path, ray_session, installed_models):
    """Through the whole ingest (Ray parse tasks, embedder, writer): the good PDF is in with its sections,
    each bad one is reported with its reason, and the rest of the batch ingests."""
    from index_probe import assert_consistent, snapshot
    from support import make_config, search

    from pipelines.ingest import run_ingest

    corpus = tmp_path / "pdfs"
    corpus.mkdir()
    good = _doc(OUTLINED, outline=OUTLINE, title="ACME annual report")
    (corpus / "report.pdf").write_bytes(good)
    (corpus / "locked.pdf").write_bytes(make_pdf([_page(_body("Secret"), n=1, i=0)], user_password="pw"))
    (corpus / "cut.pdf").write_bytes(good[: len(good) // 2])
    (corpus / "scan.pdf").write_bytes(make_pdf([[Image()] for _ in range(2)]))
    (corpus / "notes.md").write_text("# Notes\n\nA plain note about rivers and deltas.\n")
    cfg = make_config(tmp_path / "idx")
    report = run_ingest(cfg, corpus, source="pdfs")
    reasons = {os.path.basename(p): r for p, r, _ in report.failed}
    assert reasons == {"locked.pdf": "encrypted", "cut.pdf": "corrupt", "scan.pdf": "no_text_layer"}
    assert report.new == 2
    snap = snapshot(cfg)
    assert_consistent(snap)
    hits = search(cfg, "Europe line body text", mode="bm25")
    assert hits and hits[0].path == "report.pdf" and "1.1.1 Europe" in hits[0].section_path
