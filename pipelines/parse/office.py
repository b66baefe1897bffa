"""Office documents (OOXML): Word ``.docx`` and PowerPoint ``.pptx``, read with python-docx and python-pptx
(both MIT, on lxml), imported on the first such file only.

A zip whose parts name ``word/document.xml`` is a DOCX, ``ppt/presentation.xml`` a PPTX, whatever the file
is called (:func:`detect_office`).

- **DOCX**: the body's paragraphs and tables in document order. Headings come from the paragraph styles:
  ``Heading N`` (or a style based on one) is level N; else an outline level set on the paragraph or its
  style. The ``Title`` style (or the core properties' title) is the document title. A table is written one
  row a line, its cells separated by `` | `` (a merged cell once), with a blank line around it.
- **PPTX**: each slide is a page (``p. 3`` is slide 3); its title placeholder is a level-1 heading, then the
  text of its shapes top to bottom, left to right (groups opened), tables as rows, and the speaker notes.

Bad files raise :class:`ParseError`: ``encrypted`` (a password-protected Office file is an encrypted OLE
container, not a zip), ``corrupt`` (a broken zip or a missing part), ``too_large`` (parts that inflate
beyond :data:`MAX_XML_BYTES`).

>>> detect_office(b"plain text"), detect_office(b"PK\\x03\\x04 not really a zip")
(None, None)
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib

from pipelines.parse.decode import normalize_text
from pipelines.parse.document import Heading, ParseError
from pipelines.parse.sections import LineBuilder, clean_title

__all__ = ["detect_office", "ole_verdict", "not_office", "parse_docx", "parse_pptx", "ZIP_MAGIC", "OLE_MAGIC", "MAX_XML_BYTES"]

ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # legacy .doc/.ppt, and encrypted OOXML
_ENCRYPTED_STREAM = "EncryptedPackage".encode("utf-16-le")
MAX_XML_BYTES = 200_000_000  # the document's XML parts inflated (media left out): a zip bomb stops here
_MAIN_PART = {"word/document.xml": "docx", "ppt/presentation.xml": "pptx"}
_HEADING_STYLE = re.compile(r"^heading\s*([1-9])$", re.I)
_WS = re.compile(r"[ \t\r\f\v\u00a0]+")


def detect_office(raw: bytes) -> str | None:
    """``docx`` or ``pptx`` for a zip holding that document's main part, else None."""
    if not raw.startswith(ZIP_MAGIC):
        return None
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as zf:
            names = set(zf.namelist())
    except (zipfile.BadZipFile, ValueError, OSError):
        return None
    return next((fmt for part, fmt in _MAIN_PART.items() if part in names), None)


def ole_verdict(raw: bytes) -> ParseError | None:
    """The verdict on an OLE compound file given a ``.docx``/``.pptx`` name: encrypted OOXML, or a legacy
    binary document."""
    if not raw.startswith(OLE_MAGIC):
        return None
    if _ENCRYPTED_STREAM in raw[:1_000_000] or _ENCRYPTED_STREAM in raw[-1_000_000:]:
        return ParseError("encrypted", "needs a password")
    return ParseError("unsupported", "a legacy binary Office file (.doc/.ppt): save it as .docx/.pptx")


def not_office(raw: bytes, kind: str) -> ParseError:
    """Why a file named like a DOCX/PPTX (``kind``) is not one: an OLE container (encrypted, or a legacy
    binary file), a damaged zip, a zip without the main part, or no zip at all."""
    verdict = ole_verdict(raw)
    if verdict is not None:
        return verdict
    if not raw.startswith(ZIP_MAGIC):
        return ParseError("corrupt", f"not a {kind}: not a zip")
    try:
        with zipfile.ZipFile(io.BytesIO(raw)):
            pass
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        return ParseError("corrupt", f"{kind} zip is damaged or truncated: {exc}")
    return ParseError("corrupt", f"not a {kind}: the zip has no {'word/document.xml' if kind == 'DOCX' else 'ppt/presentation.xml'}")


def _check_zip(raw: bytes, kind: str) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as zf:
            infos = zf.infolist()
            bad = zf.testzip() if len(raw) < 5_000_000 else None  # CRCs of a small file: truncation shows
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, zlib.error) as exc:
        raise ParseError("corrupt", f"{kind} zip is damaged: {exc}") from None
    if bad is not None:
        raise ParseError("corrupt", f"{kind} part {bad} is damaged")
    inflated = sum(i.file_size for i in infos if "/media/" not in i.filename)
    if inflated > MAX_XML_BYTES:
        raise ParseError("too_large", f"{kind} parts inflate to {inflated} bytes > {MAX_XML_BYTES}")


def _clean(text: str) -> str:
    return _WS.sub(" ", normalize_text(text)).strip()


def _row(cells) -> str:
    """One table row: its cells' texts joined with `` | `` (a merged cell, repeated by the library, once)."""
    out, seen = [], set()
    for cell in cells:
        key = id(cell._tc) if hasattr(cell, "_tc") else id(cell)
        if key in seen:
            continue
        seen.add(key)
        out.append(_clean(cell.text.replace("\n", " ")))
    return " | ".join(out)


def _table(out: LineBuilder, rows) -> None:
    lines = [line for line in (_row(r.cells) for r in rows) if line.replace("|", "").strip()]
    if lines:
        out.blank()
        for line in lines:
            out.line(line)
        out.blank()


# ------------------------------------------------------------------ DOCX


def _style_level(style) -> int | None:
    """Heading level of a paragraph style: ``Heading N`` (or based on one), else its outline level."""
    for _ in range(8):
        if style is None:
            return None
        m = _HEADING_STYLE.match(style.name or "")
        if m:
            return int(m.group(1))
        lvl = style.element.find(".//{*}pPr/{*}outlineLvl")
        if lvl is not None:
            return _outline_level(lvl)
        style = style.base_style
    return None


def _outline_level(el) -> int | None:
    val = el.get("{http://schemas.openxmlformats.org/wordprocessingml/2006/main}val")
    return int(val) + 1 if val and val.isdigit() and int(val) < 9 else None  # 9: body text


def _paragraph_level(p) -> tuple[int | None, bool]:
    """(heading level or None, whether it is the document's Title)."""
    lvl = p._p.find("./{*}pPr/{*}outlineLvl")
    if lvl is not None:
        return _outline_level(lvl), False
    style = p.style
    if style is not None and (style.name or "").lower() == "title":
        return None, True
    return _style_level(style), False


def parse_docx(raw: bytes) -> tuple[str, list[Heading], str | None, list[int]]:
    """DOCX bytes → (text, heading marks, title or None, no page starts)."""
    _check_zip(raw, "DOCX")
    import docx  # noqa: PLC0415 (python-docx: imported on the first DOCX only)
    from docx.table import Table  # noqa: PLC0415

    try:
        document = docx.Document(io.BytesIO(raw))
    except Exception as exc:  # noqa: BLE001 - a missing or unreadable part: the file is damaged
        raise ParseError("corrupt", f"DOCX does not open: {type(exc).__name__}: {exc}") from None
    out = LineBuilder()
    title = None
    for block in document.iter_inner_content():
        if isinstance(block, Table):
            _table(out, block.rows)
            continue
        text = _clean(block.text)
        if not text:
            continue
        level, is_title = _paragraph_level(block)
        if is_title and title is None:
            title = text
            continue
        if level:
            out.heading(min(level, 6), clean_title(text))
            continue
        out.line(text)
        out.blank()
    props_title = _clean(document.core_properties.title or "")
    return out.text(), out.headings, (props_title or title), []


# ------------------------------------------------------------------ PPTX


def _shapes(shapes):
    """Shapes in reading order (top to bottom, then left to right), groups opened."""
    from pptx.enum.shapes import MSO_SHAPE_TYPE  # noqa: PLC0415

    ordered = sorted(shapes, key=lambda s: ((s.top or 0) // 50_000, s.left or 0))  # rows ~0.05 inch apart
    for shape in ordered:
        if shape.shape_type == MSO_SHAPE_TYPE.GROUP:
            yield from _shapes(shape.shapes)
        else:
            yield shape


def parse_pptx(raw: bytes) -> tuple[str, list[Heading], str | None, list[int]]:
    """PPTX bytes → (text, heading marks, title or None, start offset of each slide)."""
    _check_zip(raw, "PPTX")
    import pptx  # noqa: PLC0415 (python-pptx: imported on the first PPTX only)

    try:
        deck = pptx.Presentation(io.BytesIO(raw))
    except Exception as exc:  # noqa: BLE001
        raise ParseError("corrupt", f"PPTX does not open: {type(exc).__name__}: {exc}") from None
    out = LineBuilder()
    starts: list[int] = []
    for slide in deck.slides:
        out.blank()
        starts.append(out.pos)
        title_shape = slide.shapes.title
        if title_shape is not None and _clean(title_shape.text_frame.text):
            out.heading(1, clean_title(_clean(title_shape.text_frame.text)))
        for shape in _shapes(slide.shapes):
            if title_shape is not None and shape.shape_id == title_shape.shape_id:
                continue
            if getattr(shape, "has_table", False) and shape.has_table:
                _table(out, shape.table.rows)
            elif getattr(shape, "has_text_frame", False) and shape.has_text_frame:
                lines = [_clean(p.text) for p in shape.text_frame.paragraphs]
                for line in (ln for ln in lines if ln):
                    out.line(line)
                out.blank()
        if slide.has_notes_slide:
            notes = _clean(slide.notes_slide.notes_text_frame.text if slide.notes_slide.notes_text_frame else "")
            if notes:
                out.line(notes)
                out.blank()
    title = _clean(deck.core_properties.title or "") or None
    return out.text(), out.headings, title, starts
