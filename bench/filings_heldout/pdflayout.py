"""A small page-layout engine on top of pdfgen: blocks (headings, paragraphs with bold runs, tables) laid
out on US-letter pages with running headers/footers, a table of contents whose page numbers come from a
first layout pass, and the truth outline collected from the heading blocks."""

from __future__ import annotations

import sys
from pathlib import Path
from dataclasses import dataclass, field

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "parse"))
from pdfgen import Text, make_pdf  # noqa: E402

_REG = {" ": 278, "!": 278, '"': 355, "#": 556, "$": 556, "%": 889, "&": 667, "'": 191, "(": 333, ")": 333,
        "*": 389, "+": 584, ",": 278, "-": 333, ".": 278, "/": 278, ":": 278, ";": 278, "?": 556, "[": 278,
        "]": 278, "_": 556, "\u2014": 1000, "\u2013": 556, "\u201c": 333, "\u201d": 333, "\u2019": 222,
        "A": 667, "B": 667, "C": 722, "D": 722, "E": 667, "F": 611, "G": 778, "H": 722, "I": 278, "J": 500,
        "K": 667, "L": 556, "M": 833, "N": 722, "O": 778, "P": 667, "Q": 778, "R": 722, "S": 667, "T": 611,
        "U": 722, "V": 667, "W": 944, "X": 667, "Y": 667, "Z": 611, "a": 556, "b": 556, "c": 500, "d": 556,
        "e": 556, "f": 278, "g": 556, "h": 556, "i": 222, "j": 222, "k": 500, "l": 222, "m": 833, "n": 556,
        "o": 556, "p": 556, "q": 556, "r": 333, "s": 500, "t": 278, "u": 556, "v": 500, "w": 722, "x": 500,
        "y": 500, "z": 500, "\u00a7": 556}
_BOLD = dict(_REG)
_BOLD.update({"'": 238, ":": 333, ";": 333, "!": 333, "A": 722, "B": 722, "J": 556, "K": 722, "L": 611,
              "b": 611, "c": 556, "d": 611, "f": 333, "g": 611, "h": 611, "i": 278, "j": 278, "k": 556,
              "l": 278, "m": 889, "n": 611, "o": 611, "p": 611, "q": 611, "r": 389, "s": 556, "t": 333,
              "u": 611, "v": 556, "w": 778, "x": 556, "y": 556, "\u201c": 500, "\u201d": 500})

LEFT, RIGHT, TOP, BOTTOM = 72.0, 540.0, 720.0, 60.0


def width(text: str, size: float, bold: bool = False) -> float:
    table = _BOLD if bold else _REG
    return sum(table.get(c, 556) for c in text) * size / 1000


@dataclass
class H:
    """A heading: ``lines`` as printed (a long single line is wrapped); ``depth`` None = not in the outline."""
    lines: list[str]
    depth: int | None
    size: float = 10
    bold: bool = True
    align: str = "left"
    before: float = 14
    after: float = 8
    toc: str | None = None  # the TOC entry text, if it appears in the TOC
    toc_level: int = 0
    new_page: bool = False
    indent: float = 0


@dataclass
class P:
    """A paragraph of (text, bold) runs."""
    runs: list[tuple[str, bool]]
    indent: float = 0
    first: float = 0  # extra first-line indent
    size: float = 10
    leading: float = 14
    after: float = 8
    align: str = "left"


@dataclass
class L:
    """One free line (not a heading): e.g. '(in thousands)' or a signature line."""
    text: str
    size: float = 10
    bold: bool = False
    align: str = "left"
    x: float = LEFT
    after: float = 0
    leading: float = 14


@dataclass
class T:
    """A table: rows of cells; column 0 is the label at LEFT (+ indent); the others right-aligned at ``cols``."""
    rows: list[list[str]]
    cols: list[float]
    bold_rows: set = field(default_factory=set)
    size: float = 9
    leading: float = 12
    after: float = 10
    indents: dict = field(default_factory=dict)
    col0: float = LEFT
    left_cols: list = field(default_factory=list)  # x of cells 1.. that are left-aligned (before `cols`)


@dataclass
class Gap:
    pts: float


@dataclass
class Break:
    pass


@dataclass
class Tag:
    """Sets the running-header tag for pages started from here on (and the current page)."""
    name: str


def para(text: str, lead: str | None = None, **kw) -> P:
    runs = ([(lead, True)] if lead else []) + [(text, False)]
    return P(runs, **kw)


def _wrap_runs(runs, size, avail_first, avail):
    """Greedy wrap of (text, bold) runs into lines of [(text, bold)] that fit the width."""
    words = []
    for text, bold in runs:
        for w in text.split():
            words.append((w, bold))
    lines, cur, cur_w = [], [], 0.0
    limit = avail_first
    for w, bold in words:
        ww = width(w, size, bold)
        sp = width(" ", size, bold) if cur else 0
        if cur and cur_w + sp + ww > limit:
            lines.append(cur)
            cur, cur_w, limit, sp = [], 0.0, avail, 0
        cur.append((w, bold))
        cur_w += sp + ww
    if cur:
        lines.append(cur)
    out = []
    for line in lines:
        segs = []
        for w, bold in line:
            if segs and segs[-1][1] == bold:
                segs[-1] = (segs[-1][0] + " " + w, bold)
            else:
                if segs:
                    segs[-1] = (segs[-1][0] + " ", segs[-1][1])
                segs.append((w, bold))
        out.append(segs)
    return out


def _wrap_text(text, size, bold, avail):
    return ["".join(s for s, _ in line) for line in _wrap_runs([(text, bold)], size, avail, avail)]


class Layout:
    def __init__(self, header=None, footer=None):
        self.header = header  # (page_index, n_pages) -> list[Text]
        self.footer = footer
        self.pages: list[list[Text]] = [[]]
        self.tag = ""
        self.page_tags: list[str] = [""]
        self.y = TOP
        self.truth: list[tuple[int, str]] = []
        self.heading_pages: list[int] = []  # page index of each TOC heading, in order

    # -- primitives
    def new_page(self):
        if self.pages[-1] or self.y != TOP:
            self.pages.append([])
            self.page_tags.append(self.tag)
        self.y = TOP

    def need(self, h):
        if self.y - h < BOTTOM:
            self.new_page()

    def put(self, x, size, text, bold=False):
        self.pages[-1].append(Text(round(x, 2), round(self.y, 2), size, text, bold))

    def _x(self, text, size, bold, align, x0=LEFT):
        if align == "center":
            return (LEFT + RIGHT) / 2 - width(text, size, bold) / 2
        if align == "right":
            return RIGHT - width(text, size, bold)
        return x0

    # -- blocks
    def add(self, block):
        if isinstance(block, Break):
            self.new_page()
        elif isinstance(block, Tag):
            self.tag = block.name
            if not self.pages[-1]:
                self.page_tags[-1] = block.name
        elif isinstance(block, Gap):
            self.y -= block.pts
        elif isinstance(block, H):
            self._heading(block)
        elif isinstance(block, P):
            self._para(block)
        elif isinstance(block, L):
            self.need(block.leading)
            self.put(self._x(block.text, block.size, block.bold, block.align, block.x), block.size, block.text,
                     block.bold)
            self.y -= block.leading + block.after
        elif isinstance(block, T):
            self._table(block)
        else:
            raise TypeError(block)

    def _heading(self, h: H):
        avail = RIGHT - LEFT - h.indent
        lines = []
        for ln in h.lines:
            lines += _wrap_text(ln, h.size, h.bold, avail if h.align == "left" else avail - 72)
        lead = h.size * 1.35
        if h.new_page:
            self.new_page()
        elif self.y < TOP:
            self.y -= h.before
        self.need(lead * len(lines) + 14 * 3)
        if h.toc is not None:
            self.heading_pages.append(len(self.pages) - 1)
        for ln in lines:
            self.put(self._x(ln, h.size, h.bold, h.align, LEFT + h.indent), h.size, ln, h.bold)
            self.y -= lead
        self.y -= h.after - (lead - h.size * 1.35)
        if h.depth is not None:
            self.truth.append((h.depth, " ".join(h.lines)))

    def _para(self, p: P):
        avail = RIGHT - LEFT - p.indent
        lines = _wrap_runs(p.runs, p.size, avail - p.first, avail)
        for i, segs in enumerate(lines):
            self.need(p.leading)
            x = LEFT + p.indent + (p.first if i == 0 else 0)
            if p.align == "center":
                total = sum(width(s, p.size, b) for s, b in segs)
                x = (LEFT + RIGHT) / 2 - total / 2
            for s, b in segs:
                self.put(x, p.size, s, b)
                x += width(s, p.size, b)
            self.y -= p.leading
        self.y -= p.after

    def _table(self, t: T):
        self.need(t.leading * min(len(t.rows), 4))
        for r, row in enumerate(t.rows):
            self.need(t.leading)
            bold = r in t.bold_rows
            if row and row[0]:
                self.put(t.col0 + t.indents.get(r, 0), t.size, row[0], bold)
            nl = len(t.left_cols)
            for cell, xl in zip(row[1:1 + nl], t.left_cols):
                if cell:
                    self.put(xl, t.size, cell, bold)
            for cell, xr in zip(row[1 + nl:], t.cols):
                if cell:
                    self.put(xr - width(cell, t.size, bold), t.size, cell, bold)
            self.y -= t.leading
        self.y -= t.after

    def finish(self) -> list[list[Text]]:
        n = len(self.pages)
        out = []
        for i, items in enumerate(self.pages):
            tag = self.page_tags[i]
            rel = i - self.page_tags.index(tag)
            head = self.header(i, n, tag, rel) if self.header else []
            foot = self.footer(i, n, tag, rel) if self.footer else []
            out.append(head + items + foot)
        return out


def render(cover, toc_fn, body, header=None, footer=None):
    """Lay out cover + TOC + body twice: the first pass finds the page index of each TOC heading, the
    second prints them (``toc_fn(entries, page_indices)``, 0-based from the body's first page, returns the TOC blocks). Returns (pages, truth)."""
    entries = [(b.toc_level, b.toc) for b in body if isinstance(b, H) and b.toc is not None]
    idx = [0] * len(entries)
    for _ in range(2):
        lay = Layout(header, footer)
        for b in cover:
            lay.add(b)
        for b in toc_fn(entries, idx):
            lay.add(b)
        lay.truth = []
        start = len(lay.pages) - 1
        for b in body:
            lay.add(b)
        idx = [pg - start for pg in lay.heading_pages]
    return lay.finish(), lay.truth
