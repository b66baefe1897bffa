"""Document parsing: raw bytes → normalized plain text + section tree.

>>> doc = parse_bytes(b"# Install\\nRun it.\\n## Linux\\napt install\\n", path="a/README.md", doc_id="d1")
>>> doc.format, doc.title, [(s.level, s.path_str) for s in doc.sections]
('markdown', 'Install', [(0, ''), (1, 'Install'), (2, 'Install > Linux')])

Every bad input raises :class:`ParseError` (reasons: empty, binary, undecodable, too_large,
malformed). Any other exception inside decoding or a parser is a bug, not bad input: it escapes
:func:`parse_bytes` as :class:`ParserCrash` (``parser crash: <Type>: …``, the original as its cause),
never disguised as a malformed file.
"""

from __future__ import annotations

from collections.abc import Callable

from pipelines.parse import html, man, markdown, pod, rst, text
from pipelines.parse.decode import decode_bytes
from pipelines.parse.detect import detect_format, split_ext
from pipelines.parse.document import Heading, ParsedDocument, ParseError, ParserCrash, Section
from pipelines.parse.sections import build_sections, clean_title

__all__ = [
    "ParseError", "ParserCrash", "ParsedDocument", "Section", "Heading", "parse_bytes", "parse_text",
    "detect_format", "decode_bytes", "build_sections", "PARSERS",
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


def _fallback_title(path: str) -> str:
    name, ext = split_ext(path)
    if ext and len(name) > len(ext):
        name = name[: -len(ext)]
    return name or path


def parse_text(content: str, *, path: str, doc_id: str, fmt: str | None = None) -> ParsedDocument:
    """Parse already-decoded text (format detected from ``path``/content unless given)."""
    try:
        fmt = fmt or detect_format(path, content)
        plain, headings, title = PARSERS[fmt](content)
        if not plain.strip():
            raise ParseError("empty", f"no text after parsing as {fmt}")
        title = clean_title(title or "")
        if not title:
            title = next((t for h in headings if (t := clean_title(h.title))), "")
        if not title:
            title = clean_title(_fallback_title(path))
        return build_sections(doc_id, plain, headings, title=title, fmt=fmt)
    except ParseError:
        raise
    except Exception as exc:  # a bug on odd input: reported as a crash (never as "malformed")
        raise ParserCrash(exc, fmt=fmt) from exc


def parse_bytes(
    raw: bytes, *, path: str, doc_id: str, max_bytes: int = 50_000_000
) -> ParsedDocument:
    """decode → detect format → parse → build the section tree."""
    try:
        content = decode_bytes(raw, max_bytes=max_bytes)
    except ParseError:  # the expected verdicts: too_large, malformed gzip, empty, binary, undecodable
        raise
    except Exception as exc:
        raise ParserCrash(exc, fmt="decode") from exc
    return parse_text(content, path=path, doc_id=doc_id)
