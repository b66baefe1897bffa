"""PDF: text in reading order per page, headings from the outline or the fonts, page boundaries.

Read with PDFium (pypdfium2, Apache-2.0/BSD-3-Clause), imported on the first PDF only. Per page,
PDFium's text (content order, its own line breaks; a line-end hyphen it recognises comes as U+FFFE
with the break removed) is cut into lines, and each line gets its position, font size and weight
from a few of its characters. Then, over the whole document:

- **running lines are dropped**: a line near the top or bottom edge whose text (digits folded)
  repeats at that edge on several pages, a bare page number there, an edge line that carries the
  page's printed number (the same offset from the page index as on most pages), and text repeated
  at the same place on most pages (watermarks: all but the first);
- **headings** come from the outline (bookmarks) when there is one: each entry is found on its
  target page (its printed line, numbering allowed, up to three wrapped lines) and marks that line;
  one not found is inserted where its destination points. Without an outline, lines set larger than
  the body text (or wholly bold at its size) and short enough are headings, one level per size;
- **hyphenation** at line ends is repaired (``exam-`` / ``ple`` → ``example``), the document's own
  words deciding: kept as a compound when it writes the compound (``end-of``) or uses both halves
  as words and never the joined form (``moving-average``);
- a vertical gap, a jump up (a new column) or a change of size starts a paragraph (a blank line);
- **tables are kept as rows of cells**: a line whose words are set apart by a wide gap (0.9 em or more,
  measured on PDFium's character boxes at the spaces only) is cut into cells there; consecutive lines whose
  gaps line up (a shared white column, for most of their gaps) are a table, written one row a line with
  `` | `` between cells and a blank line around it. Lines in a fixed-pitch font (code) are never cut.

Bad files raise :class:`ParseError`: ``encrypted`` (needs a password), ``corrupt`` (truncated before
``%%EOF``, unreadable structure, a page that does not load), ``no_text_layer`` (scanned pages need
OCR). :func:`parse` returns the text, the heading marks, a title and the offset where each page starts.
"""

from __future__ import annotations

import ctypes
import re
import threading
from collections import Counter
from dataclasses import dataclass

from pipelines.parse.decode import normalize_text
from pipelines.parse.document import Heading, ParseError
from pipelines.parse.running import PAGE_NUMBER, fold, running_key
from pipelines.parse.sections import LineBuilder, clean_title, size_levels
from pipelines.parse.text import THRESHOLD, all_caps, keyword_label, numbering_level, score_line

__all__ = ["parse", "is_pdf", "PDF_MAGIC"]

PDF_MAGIC = b"%PDF-"
_HEADER_WINDOW = 1024  # the header may follow up to 1 KiB of junk (PDF 32000-1, 7.5.2 note)
_EOF_WINDOW = 2048
_EDGE_BAND = 0.15  # share of the page height at the top and at the bottom where running lines sit
_MIN_PAGE_TEXT = 16  # non-space characters for a page to count as having text
_MIN_MEAN_TEXT = 40  # … and a document of 4 pages or more needs this many a page on average (half a line)
_LOCK = threading.Lock()  # PDFium is not thread-safe (uploads parse in a thread of the ingress)

_LIGATURES = str.maketrans({"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
                            "\ufb05": "st", "\ufb06": "st", "\u00a0": " ", "\u2002": " ", "\u2003": " ",
                            "\u2009": " ", "\ufeff": None, "\u200b": None})
_LINE_RE = re.compile(r"[^\r\n]+")
_LEAD_NUMBER = re.compile(r"\s*(\d{1,5})\b")
_TRAIL_NUMBER = re.compile(r"\b(\d{1,5})\s*$")
_NUMBERING = re.compile(r"(?:chapter|section|part|appendix|annex|kapitel|chapitre)|\d+|[a-z]"
                        r"|(?=[ivxlc])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})")
_NUM_PREFIX = re.compile(r"(?:(?:chapter|part|appendix|section|annex)\s+)?(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)*|[IVXLC]+)\.?$",
                         re.I)
_NUMBERED = re.compile(r"(?:\d+(?:\.\d+)+|\d+\.?|[A-Z]\.\d+(?:\.\d+)*)\s+\S")  # "2.1 Setup": a heading of its own
_LABEL_ONLY = re.compile(r"(?:(?:chapter|part|appendix|section|annex|item|note|article|schedule|exhibit)\s+)?"
                         r"(?:\d+[a-z]?|[ivxlcdm]+|[a-z])\.?", re.I)  # "Item 7.", "PART II": its title follows
_PAGE_TAIL = re.compile(r"\s(?:\d{1,4}|[ivxlc]{1,6})$")  # a labelled line ending in a page number: a contents entry
_FILING_LABELS = frozenset({"item", "note", "article", "schedule"})
_MAX_LEVEL = 9
_BOLD_NAME = re.compile(r"bold|black|heavy|demi|semibold|cmbx|cmb\d|-bd\b|,bd\b|\.b\b", re.I)
_HYPHEN_END = re.compile(r"([^\W\d_]{2,})[-\u2010\u00ad\ufffe]$")
_WORD_START = re.compile(r"([^\W\d_]+)(\S*)\s*")
_SOFT = re.compile(r"(\w*)\ufffe(\w*)")
_SOFT_FRAGMENT = re.compile(r"\w*\ufffe\w*")
_WORD = re.compile(r"[^\W\d_]{3,}")
_COMPOUND = re.compile(r"\b[^\W\d_]{2,}-[^\W\d_]{2,}\b")
_TOC_ENTRY = re.compile(r"(?:\.\s*){3,}\d*\s*$|^\s*(?:\d+(?:\.\d+)*|[A-Z]|[IVXLC]+)\.?\s+\D.*\s\d{1,4}\s*$")
_SPACES = re.compile(r" +")
_MONO_NAME = re.compile(r"mono|courier|cmtt|typewriter|consol|lmtt|menlo|inconsolata", re.I)
_PLAIN_WORD = re.compile(r"[(\"“‘]?[^\W\d_]+[)\"”’]?[.,;:]?")
_CELL_GAP = 0.9  # a gap between words this wide (in ems of the font size) may separate two table cells
_JUNK_TITLE = re.compile(r"^(?:untitled|microsoft \w+ - |document\d*$)|\.(?:docx?|pdf|tex|dvi|odt|rtf|indd|qxd)$",
                         re.I)


def is_pdf(head: bytes) -> bool:
    """Whether these leading bytes start a PDF: ``%PDF-`` first, after nothing but blanks, NULs or a BOM
    (readers accept such junk within the first KiB).

    >>> is_pdf(b"%PDF-1.7\\n%\\xe2\\xe3"), is_pdf(b"\\r\\n\\x00%PDF-1.4"), is_pdf(b"# %PDF- in markdown")
    (True, True, False)
    """
    at = head.find(PDF_MAGIC, 0, _HEADER_WINDOW + len(PDF_MAGIC))
    return at == 0 or (at > 0 and not head[:at].strip(b"\x00\t\n\r\x0c \xef\xbb\xbf"))


@dataclass(slots=True)
class _Line:
    text: str
    page: int
    top: float
    bottom: float
    size: float
    weight: int  # PDFium's estimate (400 regular, 700 bold; -1 → 0 unknown), the smaller of the line's ends
    bold: bool  # the font names at both ends of the line say bold
    drop: bool = False
    stamp: bool = False  # a watermark's one kept occurrence: text, never a heading or the title
    level: int = 0  # > 0: a heading of this level
    title: str = ""
    cells: tuple[str, ...] = ()  # the line cut at its wide gaps (2 or more cells), else empty
    gaps: tuple[tuple[float, float], ...] = ()  # the x extent of each wide gap
    table: bool = False  # a row of a table: written as its cells


@dataclass(slots=True)
class _Page:
    lines: list[_Line]
    height: float
    n_chars: int  # non-space characters PDFium found


class _Outline:
    __slots__ = ("level", "title", "page", "y")

    def __init__(self, level: int, title: str, page: int, y: float | None) -> None:
        self.level, self.title, self.page, self.y = level, title, page, y


def _font_name(tp_raw, index: int, buf, flags) -> str:
    n = _pdfium().FPDFText_GetFontInfo(tp_raw, index, buf, len(buf), flags)
    return buf.value.decode("latin-1", "replace") if 0 < n <= len(buf) else ""


_RAW = None


def _pdfium():
    global _RAW
    if _RAW is None:
        import pypdfium2.raw as raw  # noqa: PLC0415 (the C library loads on the first PDF only)

        _RAW = raw
    return _RAW


def _open(raw: bytes):
    import pypdfium2 as pdfium  # noqa: PLC0415

    tail = raw[-_EOF_WINDOW:].rstrip(b"\x00\r\n\t\f ")
    if b"%%EOF" not in tail:
        raise ParseError("corrupt", "truncated: the file ends before %%EOF")
    try:
        return pdfium.PdfDocument(raw)
    except pdfium.PdfiumError as exc:
        c = _pdfium()
        code = getattr(exc, "err_code", None)
        if code == c.FPDF_ERR_PASSWORD:
            raise ParseError("encrypted", "needs a password") from None
        if code == c.FPDF_ERR_SECURITY:
            raise ParseError("encrypted", "unsupported security handler") from None
        raise ParseError("corrupt", str(exc)) from None


def _page_lines(page, page_no: int, buf, flags) -> _Page:
    c = _pdfium()
    tp = page.get_textpage()
    try:
        text = tp.get_text_range()
        raw_tp = tp.raw
        lines = []
        n_chars = 0
        box = c.FS_RECTF()
        for m in _LINE_RE.finditer(text):
            s = m.group()
            stripped = s.strip()
            if not stripped:
                continue
            n_chars += len(stripped) - stripped.count(" ")
            a = m.start() + len(s) - len(s.lstrip())
            b = m.start() + len(s.rstrip()) - 1
            ia = c.FPDFText_GetCharIndexFromTextIndex(raw_tp, a)
            ib = c.FPDFText_GetCharIndexFromTextIndex(raw_tp, b)
            if ia < 0:
                continue
            ib = ib if ib >= 0 else ia
            if c.FPDFText_GetLooseCharBox(raw_tp, ia, box):
                top, bottom = box.top, box.bottom
            else:  # pragma: no cover - a char PDFium listed but cannot place
                top = bottom = 0.0
            size = max(c.FPDFText_GetFontSize(raw_tp, ia), c.FPDFText_GetFontSize(raw_tp, ib))
            weight = min(c.FPDFText_GetFontWeight(raw_tp, ia), c.FPDFText_GetFontWeight(raw_tp, ib))
            bold = bool(_BOLD_NAME.search(_font_name(raw_tp, ia, buf, flags))
                        and _BOLD_NAME.search(_font_name(raw_tp, ib, buf, flags)))
            text_line = normalize_text(stripped.translate(_LIGATURES)).strip()
            if text_line:
                ln = _Line(text_line, page_no, top, bottom, round(size, 1), max(weight, 0), bold)
                if " " in stripped and size > 0:
                    _cut_cells(ln, stripped, raw_tp, a, size, box, buf, flags)
                lines.append(ln)
        return _Page(lines, page.get_height(), n_chars)
    finally:
        tp.close()


def _cut_cells(ln: _Line, stripped: str, raw_tp, at: int, size: float, box, buf, flags) -> None:
    """Cut ``ln`` into cells at its wide gaps: the space runs of ``stripped`` (which starts at text index
    ``at``) whose neighbouring characters are at least :data:`_CELL_GAP` ems apart. Fixed-pitch lines stay whole."""
    c = _pdfium()
    first = c.FPDFText_GetCharIndexFromTextIndex(raw_tp, at)
    if _MONO_NAME.search(_font_name(raw_tp, first, buf, flags)) or flags.value & 1:  # FPDF_FONT_FIXEDPITCH
        return
    cells: list[str] = []
    gaps: list[tuple[float, float]] = []
    prev = 0
    for sp in _SPACES.finditer(stripped):
        left = c.FPDFText_GetCharIndexFromTextIndex(raw_tp, at + sp.start() - 1)
        right = c.FPDFText_GetCharIndexFromTextIndex(raw_tp, at + sp.end())
        if left < 0 or right < 0 or not c.FPDFText_GetLooseCharBox(raw_tp, left, box):
            continue
        x0 = box.right
        if not c.FPDFText_GetLooseCharBox(raw_tp, right, box):
            continue
        if box.left - x0 >= _CELL_GAP * size:
            cells.append(stripped[prev:sp.start()])
            gaps.append((x0, box.left))
            prev = sp.end()
    if len(gaps) >= 4 and len(gaps) * 4 >= 3 * len(_SPACES.findall(stripped)):  # (nearly) every space is wide
        widths = [b - a for a, b in gaps]
        if max(widths) <= 1.5 * min(widths) and sum(bool(_PLAIN_WORD.fullmatch(cell)) for cell in cells) * 2 > len(cells):
            return  # words spread evenly over a loosely justified line: prose, not cells
    if gaps:
        cells.append(stripped[prev:])
        cleaned = tuple(normalize_text(cell.translate(_LIGATURES)).replace("\ufffe", "-").strip() for cell in cells)
        if all(cleaned):
            ln.cells, ln.gaps = cleaned, tuple(gaps)


def _outline(pdf) -> list[_Outline]:
    c = _pdfium()
    entries = []
    for bm in pdf.get_toc(max_depth=16):
        title = clean_title(normalize_text(bm.get_title().translate(_LIGATURES)))
        if not title:
            continue
        dest = bm.get_dest()
        if dest is None:  # an action rather than a destination: follow a GoTo action
            action = c.FPDFBookmark_GetAction(bm.raw)
            if action and c.FPDFAction_GetType(action) == c.PDFACTION_GOTO:
                raw_dest = c.FPDFAction_GetDest(pdf.raw, action)
                if raw_dest:
                    import pypdfium2 as pdfium  # noqa: PLC0415

                    dest = pdfium.PdfDest(raw_dest, pdf=pdf)
        page = dest.get_index() if dest is not None else None
        if page is None:
            continue
        y = None
        mode, pos = dest.get_view()
        if mode == c.PDFDEST_VIEW_XYZ and len(pos) >= 2:
            y = pos[1]
        elif mode in (c.PDFDEST_VIEW_FITH, c.PDFDEST_VIEW_FITBH) and pos:
            y = pos[0]
        entries.append(_Outline(bm.level + 1, title, page, y))
    return entries


# ------------------------------------------------------------------ running headers and footers


def _edge_lines(page: _Page) -> tuple[list[tuple[int, _Line]], list[tuple[int, _Line]]]:
    """(row, line) for the lines of the two outermost rows (row 0 the outermost; lines sharing a baseline,
    a title and a page number, are one row) in the top band and in the bottom band."""
    band = _EDGE_BAND * page.height

    def rows(lines: list[_Line], taken=()) -> list[tuple[int, _Line]]:
        out: list[tuple[int, _Line]] = []
        levels: list[float] = []
        for ln in lines:
            if any(ln is t for _, t in taken):
                continue
            if not any(abs(ln.bottom - lv) < 2 for lv in levels):
                if len(levels) == 2:
                    break
                levels.append(ln.bottom)
            out.append((len(levels) - 1, ln))
        return out

    top = rows([ln for ln in sorted(page.lines, key=lambda ln: -ln.top) if ln.top >= page.height - band])
    bottom = rows([ln for ln in sorted(page.lines, key=lambda ln: ln.bottom) if ln.bottom <= band], top)
    return top, bottom


def _edge_numbers(text: str) -> set[int]:
    """The numbers a running line starts or ends with (``9.6. TITLE 245`` → {9, 245})."""
    found = set()
    for rx in (_LEAD_NUMBER, _TRAIL_NUMBER):
        m = rx.match(text) if rx is _LEAD_NUMBER else rx.search(text)
        if m:
            found.add(int(m.group(1)))
    return found


def _drop_running_lines(pages: list[_Page], protected: set[int]) -> None:
    """Mark page headers and footers (and watermarks) ``drop``; ``protected``: ids of lines an
    outline entry names on its own page (a heading, never a running title)."""
    n = len(pages)
    edges = [_edge_lines(p) for p in pages]
    counts: Counter = Counter()
    for top, bottom in edges:
        counts.update({("t", running_key(ln.text)) for _, ln in top} | {("b", running_key(ln.text)) for _, ln in bottom})
    repeat = 2 if n <= 4 else 3
    # the printed page number: the same offset from the page index on most pages
    offsets: Counter = Counter()
    for i, (top, bottom) in enumerate(edges):
        offsets.update({k - i for _, ln in top + bottom for k in _edge_numbers(ln.text)})
    offset = None
    if offsets:
        off, k = offsets.most_common(1)[0]
        if k >= 3 and k >= 0.3 * n:
            offset = off
    for i, (top, bottom) in enumerate(edges):
        for edge, lines in (("t", top), ("b", bottom)):
            for row, ln in lines:
                if id(ln) in protected:
                    continue
                if (counts[(edge, running_key(ln.text))] >= repeat
                        or (offset is not None and offset + i in _edge_numbers(ln.text))
                        or (row == 0 and PAGE_NUMBER.fullmatch(ln.text.strip()))):
                    ln.drop = True
    if n >= 3:  # watermarks and stamps: the same text at the same height on most pages
        seen: Counter = Counter()
        for p in pages:
            seen.update({(ln.text, round(ln.top)) for ln in p.lines})
        marks = {key for key, k in seen.items() if k >= max(3, 0.6 * n)}
        seen_once: set = set()
        if marks:  # the first occurrence stays (a form's or an exam copy's preamble is text too)
            for p in pages:
                for ln in p.lines:
                    key = (ln.text, round(ln.top))
                    if key in marks and id(ln) not in protected:
                        if key in seen_once:
                            ln.drop = True
                        ln.stamp = True
                        seen_once.add(key)


# ------------------------------------------------------------------ tables


def _aligned(upper: _Line, lower: _Line) -> int:
    """How many of ``lower``'s gaps share a white column with a gap of ``upper`` (at least half the narrower
    one: a column's cells start, or end, at one x, so their gaps overlap wholly; prose's only by chance)."""
    return sum(1 for g in lower.gaps
               if any(min(g[1], h[1]) - max(g[0], h[0]) >= 0.5 * min(g[1] - g[0], h[1] - h[0]) - 1.0
                      for h in upper.gaps))


def _linked(upper: _Line, lower: _Line) -> int:
    """The columns two consecutive cut lines share (0: not rows of one table): close below each other, and
    half the gaps of the one with more line up, three quarters from four gaps on (justified prose with loose
    spacing lines up by chance at a few of its many gaps)."""
    if upper.bottom - lower.top > 2.5 * max(upper.size, lower.size) or lower.top > upper.top:
        return 0
    k, most = _aligned(upper, lower), max(len(upper.gaps), len(lower.gaps))
    return k if k and (k * 2 >= most if most < 4 else k * 4 >= 3 * most) else 0


def _find_tables(pages: list[_Page]) -> None:
    """Mark ``table`` the rows of runs of consecutive cut lines that line up: three rows or more, or two
    that share two columns or more."""
    for p in pages:
        run: list[_Line] = []
        shared = 0
        for ln in [*(ln for ln in p.lines if not ln.drop), None]:
            if ln is not None and ln.gaps and run and (k := _linked(run[-1], ln)):
                run.append(ln)
                shared = max(shared, k)
                continue
            if len(run) >= 3 or (len(run) == 2 and shared >= 2):
                for row in run:
                    row.table = True
            run, shared = ([ln], 0) if ln is not None and ln.gaps else ([], 0)


# ------------------------------------------------------------------ headings


def _prefix_is_numbering(prefix: str) -> bool:
    return all(_NUMBERING.fullmatch(tok) for tok in prefix.split())


def _matches(line_fold: str, title_fold: str) -> bool:
    if not line_fold or not title_fold:
        return False
    if line_fold == title_fold:
        return True
    if line_fold.endswith(title_fold) and _prefix_is_numbering(line_fold[: -len(title_fold)]):
        return True
    return title_fold.endswith(line_fold) and _prefix_is_numbering(title_fold[: -len(line_fold)]) \
        and len(line_fold) >= 3


def _heading_title(printed: str, title: str) -> str:
    """An outline entry's title with the numbering the page prints before it (``2.5.4``, ``Chapter 3``);
    whatever else shares the printed line (a stray ``}``) is left out.

    >>> _heading_title("} 2.5.4 Function Overloading", "Function Overloading")
    '2.5.4 Function Overloading'
    """
    at = printed.lower().rfind(title.lower())
    if at > 0:
        m = _NUM_PREFIX.search(printed[:at].rstrip())
        if m:
            return f"{m.group()} {title}"
    return title


def _place_outline(pages: list[_Page], outline: list[_Outline]) -> list[tuple[int, int, _Outline, int]]:
    """Where each outline entry goes: (page, line index, entry, lines it spans; 0 = insert before)."""
    placed = []
    cursor: dict[int, int] = {}  # page → first line a later entry may use
    for entry in outline:
        if not 0 <= entry.page < len(pages):
            continue
        title_fold = fold(entry.title)
        hit = None
        for p in (entry.page, entry.page + 1):
            if p >= len(pages):
                break
            lines = pages[p].lines
            start = cursor.get(p, 0)
            for i in range(start, len(lines)):
                if lines[i].drop:
                    continue
                joined = ""
                for k in range(3):
                    if i + k >= len(lines):
                        break
                    joined = f"{joined} {lines[i + k].text}".strip()
                    jf = fold(joined)
                    if _matches(jf, title_fold):
                        hit = (p, i, k + 1)
                        break
                    if len(jf) >= len(title_fold):
                        break
                if hit:
                    break
            if hit:
                break
        if hit:
            p, i, span = hit
            placed.append((p, i, entry, span))
            cursor[p] = i + span
            for q in range(entry.page, p):
                cursor[q] = len(pages[q].lines)
            continue
        p = entry.page
        lines = pages[p].lines
        start = cursor.get(p, 0)
        i = start
        if entry.y is not None:
            while i < len(lines) and lines[i].top > entry.y + 2:
                i += 1
            if i >= len(lines):
                i = start
        placed.append((p, i, entry, 0))
        cursor[p] = i
    return placed


def _font_headings(pages: list[_Page], body: float, body_weight: int) -> None:
    """No outline: mark lines set larger than the body text (one level per size) or wholly bold at
    its size (the level below; print up to 12 % larger counts as the body size) as headings; a heading's
    wrapped lines merge (consecutive, no paragraph gap between them, in the same case: "ITEM 1. BUSINESS"
    and the bold "Overview" under it are two headings).

    Filings and contracts set their headings at the body size: a bold ``Item 7. Management's Discussion and
    Analysis of Financial Condition and Results of Operations`` (a label's line may run to 150 characters and
    end in a full stop), ``ITEM 7. …`` in capitals of the body weight (a labelled line that starts a paragraph
    and reads as a heading, its capital continuation lines joined), or ``Item 7.`` alone above its title.
    Within a size, the label's numbering orders the levels (``PART II`` > ``Item 7`` > ``Note 12``;
    ``2`` > ``2.1``): see :func:`_numbered_levels`."""
    lengths: dict[float, list[int]] = {}
    for p in pages:
        for ln in p.lines:
            if not ln.drop and not ln.stamp:
                lengths.setdefault(round(ln.size * 2) / 2, []).append(len(ln.text))
    levels = size_levels((s for s, n in lengths.items() if sum(n) / len(n) <= 70), body)  # short lines' sizes
    bold_level = min(len(set(levels.values())) + 1, 6)
    marked: list[_Line] = []
    for p in pages:
        visible = [ln for ln in p.lines if not ln.drop and not ln.stamp]
        run: list[list[_Line]] = []  # consecutive heading lines of one level, a list of lines per heading
        run_level = 0
        run_plain = False  # the run opened with a labelled line of the body weight
        for k, ln in enumerate([*visible, None]):
            level, plain = 0, False
            label = None
            head = run[-1] if run else []
            label_lead = len(head) == 1 and bool(_LABEL_ONLY.fullmatch(head[0].text))  # "Chapter 3", then its title
            if ln is not None and not ln.table and _heading_shaped(ln.text):
                label = keyword_label(ln.text)
                s = round(ln.size * 2) / 2
                bold = ln.bold or ln.weight >= max(600, body_weight + 200)
                if s in levels:
                    level = levels[s]
                elif not body - 1 < ln.size < max(body + 1, body * 1.12):
                    pass  # smaller print, or larger print in long lines: only the body size's rules below
                elif head and len(head) < 3 and len(ln.text) <= 150 and not _new_paragraph(head[-1], ln) and (
                        (label_lead and not label and (bold or all_caps(ln.text)))
                        or (run_plain and all_caps(ln.text) and all_caps(head[-1].text))):
                    level = run_level  # "Item 7." then its title; a capital heading's wrapped line
                elif bold:
                    if (len(ln.text) <= 80 and not ln.text.endswith((".", ":"))) or (label and len(ln.text) <= 150):
                        level = bold_level
                elif label and not _PAGE_TAIL.search(ln.text) and (k == 0 or visible[k - 1].table
                                                                   or _new_paragraph(visible[k - 1], ln)):
                    nxt = visible[k + 1] if k + 1 < len(visible) else None
                    ends = nxt is None or nxt.table or _new_paragraph(ln, nxt) or (all_caps(ln.text) and all_caps(nxt.text))
                    if score_line(ln.text, blank_before=True, blank_after=ends)[0] >= THRESHOLD:
                        level, plain = bold_level, True
            if run:
                joins = level and (level == run_level or label_lead) and (label_lead or not _NUMBERED.match(ln.text)) \
                    and not label and (not run_plain or not plain)
                if joins and (label_lead or (not _new_paragraph(head[-1], ln) and all_caps(ln.text) == all_caps(head[-1].text))):
                    head.append(ln)  # a wrapped line of the same heading
                    run_level = min(run_level, level)
                    continue
                if joins and level == run_level:  # after a gap or in another case: the next heading of the run
                    run.append([ln])
                    continue
                if sum(map(len, run)) <= 3:  # more lines in a row are a bold or large paragraph, not headings
                    for lines in run:
                        _mark(lines, run_level)
                        marked.append(lines[0])
                run = []
            if level:
                run, run_level, run_plain = [[ln]], level, plain
    for ln, level in zip(marked, _numbered_levels(marked)):
        ln.level = level


def _numbered_levels(marked: list[_Line]) -> list[int]:
    """The final level of each heading line, in order: by its size's level first, then by its label's numbering
    (``PART II`` 1, ``Item 7`` 2, ``Note 12`` 3; ``2`` 1, ``2.1`` 2), as Word documents are read
    (:func:`pipelines.parse.office._format_levels`). An unnumbered heading sits with the least deep numbered
    one of its size; where that size has filing or contract labels (Item, Note, Article, Schedule), as in
    :func:`pipelines.parse.text.nest_under_labels`, an unnumbered one sits below the deepest label ("Results of
    Operations" inside Item 7) and a plain number at a Note's depth ("1. Summary of …" inside Item 8)."""
    depth = {id(ln): numbering_level(ln.title) for ln in marked}
    by_size: dict[int, list[_Line]] = {}
    for ln in marked:
        by_size.setdefault(ln.level, []).append(ln)
    keys: dict[int, tuple[int, int]] = {}
    for level, lines in by_size.items():
        numbered = [depth[id(ln)] for ln in lines if depth[id(ln)]]
        filing = any(keyword_label(ln.title) in _FILING_LABELS for ln in lines)
        unnumbered = (max(numbered) + 1 if filing else min(numbered)) if numbered else 1
        for ln in lines:
            d = depth[id(ln)]
            if d and filing and not keyword_label(ln.title):
                d += 2  # "1. Summary of Significant Accounting Policies": a note, inside the Items
            keys[id(ln)] = (level, d or unnumbered)
    ranks = {key: rank for rank, key in enumerate(sorted(set(keys.values())), 1)}
    return [min(ranks[keys[id(ln)]], _MAX_LEVEL) for ln in marked]


def _heading_shaped(text: str) -> bool:
    """Short, with a letter, not ending like a clause, and not a table-of-contents entry (a numbered title
    followed by its page number, or dot leaders).

    >>> [_heading_shaped(t) for t in ("2.1 Setup", "9 Commands manual 71", "Setup . . . . 7", "Version 2.8")]
    [True, False, False, True]
    """
    return 2 <= len(text) <= 150 and len(text.split()) <= 20 and any(ch.isalpha() for ch in text) \
        and not text.endswith((",", ";")) and not _TOC_ENTRY.search(text)


def _mark(run: list[_Line], level: int) -> None:
    run[0].level = level
    run[0].title = " ".join(ln.text for ln in run)
    for ln in run[1:]:
        ln.drop = True


# ------------------------------------------------------------------ text


def _repair_hyphens(pages: list[_Page], vocab: tuple[set[str], set[str]]) -> None:
    """``exam-`` at a line end followed by ``ple …`` → ``example`` / ``…``; across pages too."""
    prev: _Line | None = None
    for p in pages:
        for ln in p.lines:
            if ln.drop:
                continue
            if ln.level or ln.table:
                prev = None
                continue
            if "\ufffe" in ln.text:
                ln.text = _SOFT.sub(lambda m: _join(m.group(1), m.group(2), vocab), ln.text)
            if prev is not None:
                m = _HYPHEN_END.search(prev.text)
                nxt = _WORD_START.match(ln.text)
                if m and nxt:
                    head = prev.text[: m.start(1)]
                    prev.text = head + _join(m.group(1), nxt.group(1), vocab) + nxt.group(2)
                    ln.text = ln.text[nxt.end():]
                    if not ln.text:
                        ln.drop = True
                        continue
                elif prev.text.endswith("\ufffe"):
                    prev.text = prev.text[:-1] + "-"
            prev = ln
    if prev is not None and prev.text.endswith("\ufffe"):
        prev.text = prev.text[:-1] + "-"


def _vocabulary(pages: list[_Page]) -> tuple[set[str], set[str]]:
    """The document's words and hyphenated compounds (lowercase), the halves of broken words left out."""
    kept = []
    broken = False
    for p in pages:
        for ln in p.lines:
            if ln.drop:
                continue
            text = _SOFT_FRAGMENT.sub(" ", ln.text)
            if broken:
                text = _WORD_START.sub("", text, count=1)
            broken = bool(_HYPHEN_END.search(text))
            kept.append(_HYPHEN_END.sub("", text))
    everything = " ".join(kept).lower()
    return set(_WORD.findall(everything)), set(_COMPOUND.findall(everything))


def _join(left: str, right: str, vocab: tuple[set[str], set[str]]) -> str:
    """A word broken at a line-end hyphen: joined when the document writes it joined, hyphenated when it
    writes the compound with a hyphen (``end-of``) or both halves are words it uses; else joined when the
    second half starts lowercase.

    >>> vocab = ({"postscript", "moving", "average", "example"}, {"end-of"})
    >>> [_join(a, b, vocab) for a, b in [("Post", "Script"), ("end", "of"), ("moving", "average"), ("exam", "ple"),
    ...                                   ("Anglo", "Saxon")]]
    ['PostScript', 'end-of', 'moving-average', 'example', 'Anglo-Saxon']
    """
    if not left or not right:
        return f"{left}-{right}" if (left or right) else ""
    words, compounds = vocab
    hyphenated, joined = f"{left}-{right}".lower(), f"{left}{right}".lower()
    if hyphenated in compounds and joined not in words:
        return f"{left}-{right}"
    if joined in words:
        return left + right
    if len(left) >= 4 and len(right) >= 4 and left.lower() in words and right.lower() in words:
        return f"{left}-{right}"  # two words the document uses alone: a compound (``moving-average``)
    if right[0].islower() and left[-1].isalpha():
        return left + right
    return f"{left}-{right}"


def _build_text(pages: list[_Page], placed) -> tuple[str, list[Heading], list[int]]:
    inserts: dict[tuple[int, int], list[_Outline]] = {}
    for p, i, entry, span in placed:
        if span:
            lines = pages[p].lines
            lines[i].level = entry.level
            lines[i].title = _heading_title(" ".join(ln.text for ln in lines[i:i + span]), entry.title)
            lines[i].drop = False
            for ln in lines[i + 1:i + span]:
                ln.drop = True
        else:
            inserts.setdefault((p, i), []).append(entry)
    out = LineBuilder()
    page_starts: list[int] = []
    for n, page in enumerate(pages):
        page_starts.append(out.pos)
        prev: _Line | None = None
        for i, ln in enumerate([*page.lines, None]):
            for entry in inserts.get((n, i), ()):
                out.heading(entry.level, entry.title)
                prev = None
            if ln is None or ln.drop:
                continue
            if ln.level:
                out.heading(ln.level, ln.title)
                prev = None
                continue
            if ln.table:
                if prev is None or not prev.table:
                    out.blank()
                out.line(" | ".join(ln.cells))
            else:
                if prev is not None and (prev.table or _new_paragraph(prev, ln)):
                    out.blank()
                out.line(ln.text)
            prev = ln
    return out.text(), out.headings, page_starts


def _new_paragraph(prev: _Line, ln: _Line) -> bool:
    size = max(prev.size, ln.size, 1.0)
    gap = prev.bottom - ln.top
    return gap > 0.5 * size or ln.top > prev.top + size or abs(prev.size - ln.size) > 1.0


def _title(pdf, pages: list[_Page], body: float) -> str | None:
    try:
        meta = clean_title(normalize_text(pdf.get_metadata_value("Title") or ""))
    except Exception:  # noqa: BLE001 - a broken Info dictionary is no reason to fail the file
        meta = ""
    if meta and not _JUNK_TITLE.search(meta) and any(ch.isalpha() for ch in meta):
        return meta
    first = next((p for p in pages if any(not ln.drop for ln in p.lines)), None)
    if first is None:
        return None
    lines = [ln for ln in first.lines if not ln.drop and not ln.stamp and any(ch.isalpha() for ch in ln.text)]
    if not lines:
        return None
    big = max(ln.size for ln in lines)
    if big < body * 1.2:
        return None
    return clean_title(" ".join(ln.text for ln in lines if ln.size >= big - 0.5)[:200]) or None


def _body_style(pages: list[_Page]) -> tuple[float, int]:
    sizes: Counter = Counter()
    weights: Counter = Counter()
    for p in pages:
        for ln in p.lines:
            if not ln.drop and not ln.stamp:
                sizes[round(ln.size * 2) / 2] += len(ln.text)
    if not sizes:
        return 10.0, 400
    body = sizes.most_common(1)[0][0]
    for p in pages:
        for ln in p.lines:
            if not ln.drop and round(ln.size * 2) / 2 == body:
                weights[ln.weight] += len(ln.text)
    return body, (weights.most_common(1)[0][0] if weights else 400)


def parse(raw: bytes) -> tuple[str, list[Heading], str | None, list[int]]:
    """Parse PDF bytes → (text, heading marks, title or None, start offset of each page in the text).

    Raises :class:`ParseError` ``encrypted``, ``corrupt`` or ``no_text_layer``.
    """
    with _LOCK:
        pdf = _open(raw)
        try:
            return _parse_open(pdf)
        finally:
            pdf.close()


def _parse_open(pdf) -> tuple[str, list[Heading], str | None, list[int]]:
    import pypdfium2 as pdfium  # noqa: PLC0415

    buf = ctypes.create_string_buffer(256)
    flags = ctypes.c_int()
    pages: list[_Page] = []
    for i in range(len(pdf)):
        try:
            page = pdf[i]
        except pdfium.PdfiumError as exc:
            raise ParseError("corrupt", f"page {i + 1} does not load: {exc}") from None
        try:
            pages.append(_page_lines(page, i, buf, flags))
        finally:
            page.close()
    with_text = sum(1 for p in pages if p.n_chars >= _MIN_PAGE_TEXT)
    n_chars = sum(p.n_chars for p in pages)
    if with_text == 0 or (len(pages) >= 4 and (with_text < len(pages) / 4 or n_chars < _MIN_MEAN_TEXT * len(pages))):
        raise ParseError("no_text_layer", f"scanned pages need OCR ({with_text} of {len(pages)} pages have text)")
    try:
        outline = _outline(pdf)
    except Exception:  # noqa: BLE001 - a broken outline: fall back to the fonts
        outline = []
    protected = set()
    for entry in outline:
        if 0 <= entry.page < len(pages):
            tf = fold(entry.title)
            protected.update(id(ln) for ln in pages[entry.page].lines if _matches(fold(ln.text), tf))
    _drop_running_lines(pages, protected)
    _find_tables(pages)
    body, body_weight = _body_style(pages)
    placed = _place_outline(pages, outline) if outline else []
    if not outline:
        _font_headings(pages, body, body_weight)
    _repair_hyphens(pages, _vocabulary(pages))
    title = _title(pdf, pages, body)
    text, headings, page_starts = _build_text(pages, placed)
    return text, headings, title, page_starts

