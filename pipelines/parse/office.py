"""Office documents (OOXML): Word ``.docx`` and PowerPoint ``.pptx``, read with python-docx and python-pptx
(both MIT, on lxml), imported on the first such file only.

A zip whose parts name ``word/document.xml`` is a DOCX, ``ppt/presentation.xml`` a PPTX, whatever the file
is called (:func:`detect_office`).

- **DOCX**: the body's paragraphs and tables in document order. Headings come from the paragraph styles:
  ``Heading N`` (or a style based on one) is level N; else an outline level set on the paragraph or its
  style. A document with no such heading at all gets its headings from direct formatting instead: a short,
  heading-like paragraph (outside tables and lists) set larger than the body text or wholly bold, its level
  from its size (larger is higher), then from its numbering (``1`` > ``1.2``; ``PART II`` > ``Item 7``)
  (:func:`_format_levels`). The ``Title`` style (or the core properties' title) is the document title. A
  table is written one row a line, its cells separated by `` | `` (a merged cell once), with a blank line
  around it.
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
from collections import Counter

from pipelines.parse.decode import normalize_text
from pipelines.parse.document import Heading, ParseError
from pipelines.parse.sections import LineBuilder, clean_title, size_levels
from pipelines.parse.text import THRESHOLD, numbering_level, score_line

__all__ = ["detect_office", "ole_verdict", "not_office", "parse_docx", "parse_pptx", "ZIP_MAGIC", "OLE_MAGIC", "MAX_XML_BYTES"]

ZIP_MAGIC = b"PK\x03\x04"
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # legacy .doc/.ppt, and encrypted OOXML
_ENCRYPTED_STREAM = "EncryptedPackage".encode("utf-16-le")
MAX_XML_BYTES = 200_000_000  # the document's XML parts inflated (media left out): a zip bomb stops here
_MAIN_PART = {"word/document.xml": "docx", "ppt/presentation.xml": "pptx"}
_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_HEADING_STYLE = re.compile(r"^heading\s*([1-9])$", re.I)
_WS = re.compile(r"[ \t\r\f\v\u00a0]+")
_FORMAT_SIGNAL = 4  # bold or larger type: what a paragraph's formatting adds to the score of its words
_MAX_RUN = 3  # more formatted short paragraphs in a row are a bold block (an address, a list), not headings


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


def _style_chain(style):
    """A style, then the styles it is based on (eight at the most: a loop of base styles ends)."""
    for _ in range(8):
        if style is None:
            return
        yield style
        style = style.base_style


def _style_level(style) -> int | None:
    """Heading level of a paragraph style: ``Heading N`` (or based on one), else its outline level."""
    for st in _style_chain(style):
        m = _HEADING_STYLE.match(st.name or "")
        if m:
            return int(m.group(1))
        lvl = st.element.find(".//{*}pPr/{*}outlineLvl")
        if lvl is not None:
            return _outline_level(lvl)
    return None


def _outline_level(el) -> int | None:
    val = el.get(f"{_W}val")
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


class _Fonts:
    """Effective bold and size (pt) of runs: the run's own setting, else its character style's, else its
    paragraph style's (each with the styles it is based on), else the document defaults."""

    def __init__(self, document) -> None:
        sz = document.styles.element.find("./{*}docDefaults/{*}rPrDefault/{*}rPr/{*}sz")
        val = sz.get(f"{_W}val") if sz is not None else None
        self.default_size = int(val) / 2 if val and val.isdigit() else 10.0  # half-points; Word's own: 10 pt
        self._styles: dict[tuple[str, str], object] = {}

    def _styled(self, style, attr: str):
        key = (style.style_id or style.name or "", attr)
        if key not in self._styles:
            values = (getattr(st.font, attr) for st in _style_chain(style))
            self._styles[key] = next((v for v in values if v is not None), None)
        return self._styles[key]

    def runs(self, p) -> list[tuple[int, bool, float]]:
        """(characters, bold, size) of each run of paragraph ``p`` that has text (hyperlinks' included)."""
        from docx.text.run import Run  # noqa: PLC0415

        out = []
        para_style = p.style
        for r_el in p._p.xpath("./w:r | ./w:hyperlink/w:r"):
            run = Run(r_el, p)
            n = len(run.text.strip())
            if not n:
                continue
            styles = ([run.style] if r_el.style else []) + ([para_style] if para_style is not None else [])
            bold, size = run.bold, run.font.size
            for st in styles:
                bold = self._styled(st, "bold") if bold is None else bold
                size = self._styled(st, "size") if size is None else size
            out.append((n, bool(bold), size.pt if size is not None else self.default_size))
        return out


def _listed(p) -> bool:
    """A list item: numbered or bulleted by Word (its number is not in the text), or in a ``List …`` style."""
    style = p.style
    return p._p.find("./{*}pPr/{*}numPr") is not None or (style is not None and (style.name or "").startswith("List"))


def _format_levels(document, blocks) -> dict[int, int]:
    """Heading levels by block index for a document without heading styles, from direct formatting.

    A heading is a short paragraph whose words read like a heading (:func:`~pipelines.parse.text.score_line`,
    with what its formatting adds) and that is set larger than the body text (a level per size,
    :func:`~pipelines.parse.sections.size_levels`) or wholly bold at the body size (the level below those);
    within a size, its numbering's depth (``1``, ``1.2``; ``Item 7``) orders the levels. A bold lead-in of a
    body paragraph is no heading (every run must be bold), nor a paragraph in a table or a list, nor a run of
    more than :data:`_MAX_RUN` such paragraphs in a row (a bold block), nor bold text where the body is bold.
    """
    fonts = _Fonts(document)
    runs = {i: fonts.runs(block) for i, (block, text, _, is_title) in enumerate(blocks) if text and not is_title}
    info = {i: (all(bold for _, bold, _ in rr), min(size for _, _, size in rr))  # (wholly bold, smallest size)
            for i, rr in runs.items() if rr and not _listed(blocks[i][0])}
    shaped = {i for i in info
              if score_line(blocks[i][1], blank_before=True, blank_after=True)[0] + _FORMAT_SIGNAL >= THRESHOLD}
    chars: Counter = Counter()  # characters per (size, bold) of the body text: the paragraphs unlike headings
    for i, rr in runs.items():
        for n, bold, size in rr if i not in shaped else ():
            chars[size, bold] += n
    if not shaped or not chars:
        return {}
    sizes: Counter = Counter()
    for (size, _), n in chars.items():
        sizes[size] += n
    body = sizes.most_common(1)[0][0]
    bold_counts = chars[body, True] * 2 < sizes[body]  # bold is a signal unless the body text is bold
    per_size: dict[float, list[bool]] = {}
    for i, (_, size) in info.items():
        per_size.setdefault(size, []).append(i in shaped)
    levels = size_levels((s for s, ok in per_size.items() if sum(ok) * 2 > len(ok)), body)  # mostly short
    bold_level = min(len(set(levels.values())) + 1, 6)
    keys: dict[int, tuple[int, int | None]] = {}  # block index → (level by size, numbering's level)
    for i in sorted(shaped):
        bold, size = info[i]
        level = levels.get(size) or (bold_level if bold and bold_counts and abs(size - body) < 1 else 0)
        if level:
            keys[i] = (level, numbering_level(blocks[i][1]))
    run: list[int] = []
    for i in [*sorted(keys), None]:  # drop runs of more than _MAX_RUN headings in a row
        if run and (i is None or i != run[-1] + 1):
            if len(run) > _MAX_RUN:
                for j in run:
                    del keys[j]
            run = []
        if i is not None:
            run.append(i)
    top: dict[int, int] = {}  # an unnumbered heading sits with the least deep numbered one at its size
    for level, depth in sorted(k for k in keys.values() if k[1]):
        top.setdefault(level, depth)
    keys = {i: (level, depth or top.get(level, 1)) for i, (level, depth) in keys.items()}
    ranks = {key: rank for rank, key in enumerate(sorted(set(keys.values())), 1)}
    return {i: min(ranks[key], 6) for i, key in keys.items()}


def parse_docx(raw: bytes) -> tuple[str, list[Heading], str | None, list[int]]:
    """DOCX bytes → (text, heading marks, title or None, no page starts)."""
    _check_zip(raw, "DOCX")
    import docx  # noqa: PLC0415 (python-docx: imported on the first DOCX only)
    from docx.table import Table  # noqa: PLC0415

    try:
        document = docx.Document(io.BytesIO(raw))
    except Exception as exc:  # noqa: BLE001 - a missing or unreadable part: the file is damaged
        raise ParseError("corrupt", f"DOCX does not open: {type(exc).__name__}: {exc}") from None
    blocks: list[tuple[object, str, int | None, bool]] = []  # (table or paragraph, text, level, is Title)
    for block in document.iter_inner_content():
        if isinstance(block, Table):
            blocks.append((block, "", None, False))
        elif text := _clean(block.text):
            blocks.append((block, text, *_paragraph_level(block)))
    if not any(level for _, _, level, _ in blocks):  # no heading styles: the direct formatting tells
        levels = _format_levels(document, blocks)
        blocks = [(b, text, levels.get(i), is_title) for i, (b, text, _, is_title) in enumerate(blocks)]
    out = LineBuilder()
    title = None
    for block, text, level, is_title in blocks:
        if isinstance(block, Table):
            _table(out, block.rows)
            continue
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
