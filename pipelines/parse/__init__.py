"""Document parsing: raw bytes → normalized plain text + section tree.

>>> doc = parse_bytes(b"# Install\\nRun it.\\n## Linux\\napt install\\n", path="a/README.md", doc_id="d1")
>>> doc.format, doc.title, [(s.level, s.path_str) for s in doc.sections]
('markdown', 'Install', [(0, ''), (1, 'Install'), (2, 'Install > Linux')])

PDFs are recognised by their magic bytes (``%PDF-``, also inside gzip) and read from the bytes
(:mod:`pipelines.parse.pdf`); their documents carry the offset where each page starts. Word and PowerPoint
files (DOCX, PPTX) are recognised by their zip parts (:mod:`pipelines.parse.office`); a slide is a page.

Every bad input raises :class:`ParseError` (reasons: empty, binary, undecodable, too_large,
malformed, unsupported; for PDFs and Office files encrypted, corrupt; for PDFs no_text_layer). Any other exception inside decoding or a parser is a bug, not bad input: it escapes
:func:`parse_bytes` as :class:`ParserCrash` (``parser crash: <Type>: …``, the original as its cause),
never disguised as a malformed file.
"""

from __future__ import annotations

from collections.abc import Callable

from pipelines.parse import html, man, markdown, office, pdf, pod, rst, text
from pipelines.parse.cover import filing_cover
from pipelines.parse.decode import GZIP_MAGIC, decode_bytes, gunzip_capped, gunzip_head
from pipelines.parse.detect import BINARY_FORMATS, detect_binary, detect_format, split_ext
from pipelines.parse.document import Heading, ParsedDocument, ParseError, ParserCrash, Section
from pipelines.parse.sections import build_sections, clean_title

__all__ = [
    "ParseError", "ParserCrash", "ParsedDocument", "Section", "Heading", "parse_bytes", "parse_text",
    "detect_format", "decode_bytes", "build_sections", "PARSERS", "BYTES_PARSERS",
]

Parser = Callable[[str], tuple[str, list[Heading], str | None]]
PARSERS: dict[str, Parser] = {
    "markdown": markdown.parse,
    "rst": rst.parse,
    "html": html.parse,
    "text": text.parse,
    "man": man.parse,
    "pod": pod.parse,
}
#: Parsers of :data:`pipelines.parse.detect.BINARY_FORMATS`: raw bytes → (text, headings, title, page starts).
BytesParser = Callable[[bytes], tuple[str, list[Heading], str | None, list[int]]]
BYTES_PARSERS: dict[str, BytesParser] = {
    "pdf": pdf.parse,
    "docx": office.parse_docx,
    "pptx": office.parse_pptx,
}
_OFFICE_EXT = {".docx": "DOCX", ".pptx": "PPTX", ".docm": "DOCX", ".pptm": "PPTX"}


def _fallback_title(path: str) -> str:
    name, ext = split_ext(path)
    if ext and len(name) > len(ext):
        name = name[: -len(ext)]
    return name or path


def parse_text(content: str, *, path: str, doc_id: str, fmt: str | None = None) -> ParsedDocument:
    """Parse already-decoded text (format detected from ``path``/content unless given)."""
    try:
        fmt = fmt or detect_format(path, content)
        if fmt in BINARY_FORMATS:
            raise ParseError("unsupported", f"{fmt} is read from the file's bytes, not from text")
        plain, headings, title = PARSERS[fmt](content)
        return _document(doc_id, path, fmt, plain, headings, title)
    except ParseError:
        raise
    except Exception as exc:  # a bug on odd input: reported as a crash (never as "malformed")
        raise ParserCrash(exc, fmt=fmt) from exc


def _document(doc_id: str, path: str, fmt: str, plain: str, headings: list[Heading], title: str | None,
              page_starts: list[int] | None = None) -> ParsedDocument:
    if not plain.strip():
        raise ParseError("empty", f"no text after parsing as {fmt}")
    cover = filing_cover(plain)
    if cover is not None:  # an SEC filing: titled by its cover page, whose large print heads no section
        title = cover[0]
        headings = [h for h in headings if h.start >= cover[1]]
    title = clean_title(title or "")
    if not title:
        title = next((t for h in headings if (t := clean_title(h.title))), "")
    if not title:
        title = clean_title(_fallback_title(path))
    doc = build_sections(doc_id, plain, headings, title=title, fmt=fmt)
    doc.page_starts = list(page_starts or ())
    return doc


def parse_binary(raw: bytes, *, path: str, doc_id: str, fmt: str) -> ParsedDocument:
    """Parse the raw bytes of a :data:`~pipelines.parse.detect.BINARY_FORMATS` file (already gunzipped)."""
    try:
        plain, headings, title, page_starts = BYTES_PARSERS[fmt](raw)
        return _document(doc_id, path, fmt, plain, headings, title, page_starts)
    except ParseError:
        raise
    except Exception as exc:  # a bug (or the library's) on odd input: a crash, never "malformed"
        raise ParserCrash(exc, fmt=fmt) from exc


def parse_bytes(
    raw: bytes, *, path: str, doc_id: str, max_bytes: int = 50_000_000
) -> ParsedDocument:
    """decode → detect format → parse → build the section tree (binary formats: detect by magic bytes →
    parse the bytes)."""
    if len(raw) > max_bytes:
        raise ParseError("too_large", f"{len(raw)} bytes > {max_bytes}")
    fmt = detect_binary(raw[:2048])
    if fmt is None and raw.startswith(GZIP_MAGIC):
        fmt = detect_binary(gunzip_head(raw, 2048))
        if fmt is not None:
            raw = gunzip_capped(raw, max_bytes=max_bytes)
    if fmt is None and raw.startswith(office.ZIP_MAGIC):
        fmt = office.detect_office(raw)
    if fmt is not None:
        return parse_binary(raw, path=path, doc_id=doc_id, fmt=fmt)
    ext = split_ext(path)[1]
    if ext == ".pdf" and raw.strip():
        raise ParseError("corrupt", "not a PDF: no %PDF- header")
    if ext in _OFFICE_EXT and raw.strip():
        verdict = office.ole_verdict(raw)
        if verdict is not None:
            raise verdict
        raise office.not_office(raw, _OFFICE_EXT[ext])
    try:
        content = decode_bytes(raw, max_bytes=max_bytes)
    except ParseError:  # the expected verdicts: too_large, malformed gzip, empty, binary, undecodable
        raise
    except Exception as exc:
        raise ParserCrash(exc, fmt="decode") from exc
    return parse_text(content, path=path, doc_id=doc_id)
