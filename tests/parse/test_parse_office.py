"""Word and PowerPoint files: headings from the styles, tables as rows of cells, slides as pages, bad files
with a reason. Every file here is written in the test by python-docx / python-pptx (the libraries that read
them), so each test states exactly what the file holds."""

from __future__ import annotations

import io
import zipfile

import docx
import pptx
import pytest
from docx.enum.style import WD_STYLE_TYPE
from docx.shared import Pt
from pptx.util import Inches

from cluster.config import IngestConfig
from pipelines.parse import ParseError, parse_bytes


def _docx() -> bytes:
    d = docx.Document()
    d.add_paragraph("Field Handbook", style="Title")
    d.add_paragraph("Read this first.")
    d.add_heading("Installation", level=1)
    d.add_paragraph("Run the installer as root.")
    d.add_heading("On Linux", level=2)
    d.add_paragraph("Use the package manager.")
    table = d.add_table(rows=4, cols=3)
    for r, row in enumerate([("Package", "Version", "Size"), ("strata", "1.0", "2 MB"), ("ray", "2.60", "80 MB"),
                             ("Total", "", "82 MB")]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    table.cell(3, 0).merge(table.cell(3, 1))  # "Total" spans two columns: written once
    custom = d.styles.add_style("Appendix Head", WD_STYLE_TYPE.PARAGRAPH)
    custom.base_style = d.styles["Heading 2"]  # a house style based on Heading 2
    d.add_heading("Reference", level=1)
    d.add_paragraph("Tuning notes", style="Appendix Head")
    d.add_paragraph("Raise the batch size on big hosts.")
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


def _pptx() -> bytes:
    deck = pptx.Presentation()
    s1 = deck.slides.add_slide(deck.slide_layouts[1])
    s1.shapes.title.text = "Quarterly Results"
    s1.placeholders[1].text = "Revenue grew 12%\nMargins held"
    s2 = deck.slides.add_slide(deck.slide_layouts[5])
    s2.shapes.title.text = "By Region"
    table = s2.shapes.add_table(3, 2, Inches(1), Inches(2), Inches(6), Inches(2)).table
    for r, row in enumerate([("Region", "Revenue"), ("Europe", "1,200"), ("Asia", "870")]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    s2.notes_slide.notes_text_frame.text = "Mention the Asia launch."
    out = io.BytesIO()
    deck.save(out)
    return out.getvalue()


def test_docx_headings_from_styles_and_tables_as_rows():
    doc = parse_bytes(_docx(), path="handbook.docx", doc_id="d")
    assert doc.format == "docx" and doc.title == "Field Handbook"
    assert [(s.level, s.path_str) for s in doc.sections] == [
        (0, ""), (1, "Installation"), (2, "Installation > On Linux"), (1, "Reference"),
        (2, "Reference > Tuning notes")]
    linux = doc.sections[2].text.splitlines()
    assert linux == ["Use the package manager.", "", "Package | Version | Size", "strata | 1.0 | 2 MB",
                     "ray | 2.60 | 80 MB", "Total | 82 MB"]
    assert doc.sections[0].text == "Read this first." and "Field Handbook" not in doc.text
    assert doc.sections[4].text == "Raise the batch size on big hosts."
    assert doc.page_starts == [] and doc.page_span(0, 5) is None


def _para(d, *runs: tuple[str, bool | None], size: float | None = None):
    """A Normal paragraph of runs (text, bold), each at ``size`` pt when given."""
    p = d.add_paragraph()
    for text, bold in runs:
        run = p.add_run(text)
        run.bold = bold
        if size:
            run.font.size = Pt(size)
    return p


def _saved(d) -> bytes:
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


def _bold_report() -> bytes:
    """A report written without heading styles: its headings are bold Normal paragraphs, numbered, set at
    16 pt (sections) and 13 pt (subsections), with a bold address block, bold lead-ins and a table."""
    d = docx.Document()
    for line in ("ACME Holdings", "1 Main Street", "Springfield", "United States"):  # a bold block: no headings
        _para(d, (line, True))
    _para(d, ("This report reviews the year and sets out the plan for the next one.", None))
    _para(d, ("1. Introduction", True), size=16)
    _para(d, ("The company grew in every region this year.", None))
    _para(d, ("1.1 Background", True), size=13)
    _para(d, ("Important:", True), (" the figures below are unaudited and may change.", None))
    _para(d, ("Revenue rose by twelve percent.", True))  # a bold sentence: no heading
    _para(d, ("Scope of this review", True), size=13)  # unnumbered: sits with 1.1
    _para(d, ("It covers the parent company only.", None))
    table = d.add_table(rows=2, cols=2)
    for r, row in enumerate([("Region", "Revenue"), ("Europe", "1,200")]):
        for c, value in enumerate(row):
            table.cell(r, c).paragraphs[0].add_run(value).bold = True  # bold cells: no headings
    _para(d, ("2. Outlook", True), size=16)
    _para(d, ("We expect ", None), ("steady", True), (" growth in the coming year.", None))
    _para(d, ("2.1 Risks", True), size=13)
    _para(d, ("Currency moves are the main risk.", None))
    return _saved(d)


def test_docx_without_heading_styles_takes_bold_short_paragraphs_as_headings():
    doc = parse_bytes(_bold_report(), path="report.docx", doc_id="d")
    assert [(s.level, s.path_str) for s in doc.sections] == [
        (0, ""), (1, "1. Introduction"), (2, "1. Introduction > 1.1 Background"),
        (2, "1. Introduction > Scope of this review"), (1, "2. Outlook"), (2, "2. Outlook > 2.1 Risks")]
    assert doc.sections[0].text.splitlines()[:4] == ["ACME Holdings", "", "1 Main Street", ""]
    background = doc.sections[2].text
    assert "Important: the figures below" in background and "Revenue rose by twelve percent." in background
    assert "Region | Revenue" in doc.sections[3].text


def test_docx_bold_body_size_headings_take_their_levels_from_their_labels():
    d = docx.Document()
    for text, bold in (("PART II", True), ("Item 7.", True), ("Our results improved.", None),
                       ("Item 8. Financial Statements", True), ("See the tables.", None),
                       ("PART III", True), ("Item 10. Directors", True), ("See the proxy statement.", None)):
        _para(d, (text, bold))  # the labels' levels, as the plain-text parser reads them: PART > Item
    doc = parse_bytes(_saved(d), path="filing.docx", doc_id="d")
    assert [(s.level, s.title) for s in doc.sections[1:]] == [
        (1, "PART II"), (2, "Item 7."), (2, "Item 8. Financial Statements"), (1, "PART III"),
        (2, "Item 10. Directors")]


def test_docx_bold_lead_ins_are_body_text_not_headings():
    d = docx.Document()
    _para(d, ("Warning:", True), (" unplug the unit before you open it.", None))
    _para(d, ("Note", True), (" that the warranty ends after two years.", None))
    _para(d, ("The fuse sits behind the panel. ", None), ("Never bypass it.", True))
    _para(d, ("Tip:", True), (" Keep the receipt", None))  # short and unpunctuated: only the bold decides
    _para(d, ("Spare fuses", True), (" come in the box", None))
    doc = parse_bytes(_saved(d), path="manual.docx", doc_id="d")
    assert [s.level for s in doc.sections] == [0]
    assert doc.sections[0].text.splitlines()[0] == "Warning: unplug the unit before you open it."


def test_docx_with_heading_styles_ignores_bold_paragraphs():
    d = docx.Document(io.BytesIO(_docx()))
    _para(d, ("Troubleshooting", True), size=16)  # bold and large, but the document uses Heading styles
    _para(d, ("Restart the service.", None))
    doc = parse_bytes(_saved(d), path="handbook.docx", doc_id="d")
    assert [(s.level, s.path_str) for s in doc.sections] == [
        (0, ""), (1, "Installation"), (2, "Installation > On Linux"), (1, "Reference"),
        (2, "Reference > Tuning notes")]
    assert doc.sections[4].text.splitlines()[-3:] == ["Troubleshooting", "", "Restart the service."]


def test_pptx_slides_are_pages_with_titles_tables_and_notes():
    doc = parse_bytes(_pptx(), path="deck.pptx", doc_id="d")
    assert doc.format == "pptx" and doc.title == "Quarterly Results"
    assert [(s.level, s.path_str) for s in doc.sections[1:]] == [(1, "Quarterly Results"), (1, "By Region")]
    assert doc.sections[1].text.splitlines() == ["Revenue grew 12%", "Margins held"]
    assert doc.sections[2].text.splitlines() == ["Region | Revenue", "Europe | 1,200", "Asia | 870", "",
                                                 "Mention the Asia launch."]
    at = doc.text.index("Europe")
    assert len(doc.page_starts) == 2 and doc.page_span(at, at + 6) == (2, 2)
    assert doc.page_span(doc.text.index("Margins"), doc.text.index("Margins") + 3) == (1, 1)


def test_office_files_are_found_by_their_zip_parts_not_their_names():
    assert parse_bytes(_docx(), path="upload.bin", doc_id="d").format == "docx"
    assert parse_bytes(_pptx(), path="slides", doc_id="d").format == "pptx"
    other = io.BytesIO()
    with zipfile.ZipFile(other, "w") as zf:
        zf.writestr("data.csv", "a,b\n1,2\n")
    with pytest.raises(ParseError) as e:  # a zip that is not an Office file: binary, never parsed as one
        parse_bytes(other.getvalue(), path="data.zip", doc_id="d")
    assert e.value.reason == "binary"
    with pytest.raises(ParseError) as e:  # … and named .docx: says what is missing
        parse_bytes(other.getvalue(), path="fake.docx", doc_id="d")
    assert (e.value.reason, "word/document.xml" in str(e.value)) == ("corrupt", True)
    assert "*.docx" in IngestConfig().include and "*.pptx" in IngestConfig().include


@pytest.mark.parametrize(("raw", "name", "reason", "words"), [
    (lambda: _docx()[: len(_docx()) // 2], "cut.docx", "corrupt", "truncated"),
    (lambda: _pptx()[:-200], "cut.pptx", "corrupt", "truncated"),
    (lambda: b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600) + "EncryptedPackage".encode("utf-16-le") + bytes(600),
     "locked.docx", "encrypted", "password"),
    (lambda: b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(2000), "old.pptx", "unsupported", "legacy"),
    (lambda: b"just text", "notes.docx", "corrupt", "not a zip"),
])
def test_bad_office_files_get_a_reason(raw, name, reason, words):
    with pytest.raises(ParseError) as e:
        parse_bytes(raw(), path=name, doc_id="d")
    assert e.value.reason == reason and words in str(e.value), str(e.value)


def test_a_damaged_part_inside_a_whole_zip_is_corrupt():
    raw = bytearray(_docx())
    with zipfile.ZipFile(io.BytesIO(bytes(raw))) as zf:
        info = zf.getinfo("word/document.xml")
    at = info.header_offset + 30 + len(info.filename) + len(info.extra) + 10
    raw[at] ^= 0xFF  # one byte of the compressed document flipped: its CRC no longer matches
    with pytest.raises(ParseError) as e:
        parse_bytes(bytes(raw), path="flipped.docx", doc_id="d")
    assert e.value.reason == "corrupt"


def test_ingest_takes_office_files_and_reports_bad_ones(tmp_path, ray_session, installed_models):
    """Through the whole ingest (Ray parse tasks, embedder, writer): DOCX and PPTX are in with their sections
    (a slide's page on its hits), the bad ones reported with their reason, the rest of the batch ingested."""
    from index_probe import assert_consistent, snapshot
    from support import make_config, search

    from pipelines.ingest import run_ingest

    corpus = tmp_path / "office"
    corpus.mkdir()
    (corpus / "handbook.docx").write_bytes(_docx())
    (corpus / "deck.pptx").write_bytes(_pptx())
    (corpus / "cut.docx").write_bytes(_docx()[:3000])
    (corpus / "locked.pptx").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600)
                                         + "EncryptedPackage".encode("utf-16-le") + bytes(600))
    cfg = make_config(tmp_path / "idx")
    report = run_ingest(cfg, corpus, source="office")
    reasons = {p.rsplit("/", 1)[-1]: r for p, r, _ in report.failed}
    assert reasons == {"cut.docx": "corrupt", "locked.pptx": "encrypted"}
    assert report.new == 2
    assert_consistent(snapshot(cfg))
    hit = search(cfg, "Europe 1,200 revenue region", mode="bm25")[0]
    assert (hit.path, hit.section_path, hit.first_page, hit.last_page) == ("deck.pptx", "By Region", 2, 2)
    hit = search(cfg, "strata 1.0 2 MB package manager", mode="bm25")[0]
    assert (hit.path, hit.section_path, hit.first_page) == ("handbook.docx", "Installation > On Linux", None)
