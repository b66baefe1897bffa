"""HTML: body text with block structure as line breaks, h1–h6 as headings, ``<title>`` as title.

A page without any h1–h6 (SEC filings as EDGAR serves them, pages exported from word processors) gets its
headings from its blocks instead (:func:`_inferred_headings`): a block of its own that is wholly bold
(``<b>``, ``<strong>``, a bold ``font-weight`` or ``font``) and reads like a heading, or a labelled one (``Item 7.``,
``PART II``, ``Note 12``) in capitals or bold; a table row of a label and a title (``Item 7. | Management's
Discussion …``) too, which is how many filings lay their Items out.

Skips script/style/head/nav-like elements (``nav``, ``role="navigation"``, common doc-generator
navigation classes) and tolerates broken markup (unclosed tags, stray end tags).

>>> text, heads, title = parse("<html><head><title>T</title></head><body><nav>menu</nav>"
...                            "<h1>Intro</h1><p>Hello <b>world</b></p><pre>a\\n  b</pre>")
>>> text, [(h.level, h.title) for h in heads], title
('Intro\\n\\nHello world\\n\\na\\n  b', [(1, 'Intro')], 'T')
"""

from __future__ import annotations

import bisect
import itertools
import re
from html.parser import HTMLParser
from typing import NamedTuple

from pipelines.parse.document import Heading
from pipelines.parse.running import running_spans
from pipelines.parse.text import THRESHOLD, all_caps, keyword_label, nest_under_labels, numbering_level, score_line

__all__ = ["parse"]

_SKIP_TAGS = frozenset(
    {"script", "style", "noscript", "template", "head", "nav", "svg", "math", "button",
     "select", "iframe", "object", "canvas", "map", "datalist", "dialog", "ix:header"}
)
_SKIP_ROLES = frozenset({"navigation", "search", "banner", "contentinfo", "menu", "menubar"})
# Navigation chrome of Sphinx, DocBook (PostgreSQL), javadoc and rustdoc pages.
_SKIP_CLASSES = frozenset(
    {"navheader", "navfooter", "sphinxsidebar", "related", "headerlink", "topnav", "subnav",
     "bottomnav", "top-nav", "sub-nav", "skip-nav", "skipnav", "breadcrumbs", "breadcrumb",
     "sidebar", "sidebar-elems", "search-container", "toc-nav", "mobile-nav", "flex-nav",
     "header-container", "nav-bar", "navbar", "footer", "copy-button", "copybtn",
     "srclink", "rightside", "anchor", "doc-anchor", "out-of-band", "rustdoc-breadcrumbs"}
)
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
     "source", "track", "wbr", "keygen", "command", "basefont", "frame", "isindex"}
)
_PARA = frozenset(
    {"p", "div", "pre", "table", "section", "article", "blockquote", "ul", "ol", "dl",
     "h1", "h2", "h3", "h4", "h5", "h6", "header", "footer", "main", "aside", "figure",
     "figcaption", "form", "fieldset", "address", "details", "center", "hgroup", "hr",
     "body", "html", "caption", "legend", "summary", "menu", "dir", "frameset"}
)
_HEAD_CONTENT = frozenset(
    {"title", "meta", "link", "style", "script", "base", "noscript", "template", "head", "html"}
)
_LINE = frozenset({"li", "tr", "dt", "dd", "option", "thead", "tbody", "tfoot", "br"})
_CELL = frozenset({"td", "th"})
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_WS = re.compile(r"[ \t\n\r\f\v\xa0]+")
_BOLD_TAGS = frozenset({"b", "strong"})
_BOLD_STYLE = re.compile(r"font-weight\s*:\s*(?:bold|bolder|[6-9]00)\b|(?:^|;)\s*font\s*:[^;]*\b(?:bold|bolder|[6-9]00)\b",
                         re.I)  # font-weight, or the font shorthand ("font: bold 10pt Times")
_FORMAT_SIGNAL = 4  # a wholly bold block: what its formatting adds to the score of its words (as for DOCX)
_MAX_RUN = 3  # more bold blocks in a row are a bold passage (a cover page, an address), not headings
_MAX_LABELLED = 150  # characters of a labelled heading ("Item 5. Market for Registrant's Common Equity, …")
_CELLS = re.compile(r" \| ")
_HIDDEN_STYLE = re.compile(r"(?:^|;)\s*display\s*:\s*none\b", re.I)
_PAGE_BREAK = re.compile(r"\b(?:page-)?break-(?:before|after)\s*:\s*(?:always|page)\b", re.I)
_MIN_TERMS = 3  # a definition list of fewer terms is no list of entries
_MIN_DEFINITION = 100  # characters of definition per term, on average, that make a list's terms its entries
_MAX_TERM = 120  # characters of a term kept as its entry's heading (a builtin's whole synopsis is longer)
_MAX_LIST_DEPTH = 3  # entries of lists nested deeper stay text (bash's shopt options are at 3; a hostile page nests
# thousands, and each level would lengthen every section path below it)
_SENTENCE_END = frozenset(".:;,!?\u3002\uff01\uff1f")  # a bold sentence is emphasis, not a heading


class _Term(NamedTuple):
    """A ``<dt>`` read: its list, that list's nesting depth, its text and its output span."""

    list_id: int
    depth: int
    title: str
    start: int
    end: int


class _Extractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.pos = 0
        self.need_break = 0  # newlines owed before the next text
        self.need_space = False
        self.at_line_start = True
        self.trail_nl = 0  # newlines at the end of the output so far
        self.pre_start = False  # just opened <pre>: drop one leading newline
        self.stack: list[tuple[str, int]] = []  # (tag, flags)
        self.counts: dict[str, int] = {}
        self.skip = 0
        self.pre = 0
        self.cells = 0  # cells seen in the current table row
        self.in_cell = 0  # open td/th elements
        self.heading: tuple[int, int] | None = None  # (level, start) of the open h1..h6
        self.heading_parts: list[str] = []
        self.headings: list[Heading] = []
        self.title_parts: list[str] | None = None
        self.title: str | None = None
        self.bold = 0  # open bold elements
        self.bold_spans: list[tuple[int, int]] = []  # output ranges of text set in bold
        self.page_breaks: list[int] = []  # output positions of printed page breaks (``page-break-after: always``)
        self.tables: list[bool] = []  # per open table: whether a row of several cells was seen yet
        self.row: tuple[int, int] | None = None  # (output position, index into parts) where the open row began
        self.captions: list[tuple[int, int]] = []  # output spans of the one-cell rows that open a table
        self.lists: list[int] = []  # ids of the open definition lists (``<dl>``), innermost last
        self.list_ends: dict[int, int] = {}  # definition list id → output position of its end
        self.term: tuple[int, int, int] | None = None  # (list id, depth, start) of the open ``<dt>``
        self.term_parts: list[str] = []
        self.terms: list[_Term] = []  # one per ``<dt>``

    def updatepos(self, i: int, j: int) -> int:
        return j  # skip line/column bookkeeping (getpos() is unused): ~10% faster

    # -- output -------------------------------------------------------------------------
    def _break(self, n: int) -> None:
        self.need_break = max(self.need_break, n)
        self.need_space = False

    def _emit(self, s: str) -> None:
        if self.need_break:
            if self.pos:
                s = "\n" * max(0, self.need_break - self.trail_nl) + s
            self.need_break = 0
            self.at_line_start = True
        elif self.need_space:
            s = " " + s
        self.need_space = False
        if self.heading is not None and self.heading[1] < 0:
            self.heading = (self.heading[0], self.pos + len(s) - len(s.lstrip("\n ")))
        if self.term is not None and self.term[2] < 0:
            self.term = (*self.term[:2], self.pos + len(s) - len(s.lstrip("\n ")))
        if self.bold and not self.pre:
            lead = len(s) - len(s.lstrip("\n "))
            if lead < len(s):
                self.bold_spans.append((self.pos + lead, self.pos + len(s)))
        self.parts.append(s)
        self.pos += len(s)
        self.at_line_start = s.endswith("\n")
        body = s.rstrip("\n")
        if not self.at_line_start:
            self.trail_nl = 0
        elif body:
            self.trail_nl = len(s) - len(body)
        else:
            self.trail_nl += len(s)

    def _text(self, data: str) -> None:
        if self.pre:
            if self.pre_start:
                self.pre_start = False
                if data.startswith("\n"):
                    data = data[1:]
            if data:
                self._emit(data.replace("\xa0", " "))
            return
        collapsed = _WS.sub(" ", data)
        if not collapsed:
            return
        if collapsed == " ":
            if not self.at_line_start and not self.need_break:
                self.need_space = True
            return
        if collapsed[0] == " " and not self.at_line_start and not self.need_break:
            self.need_space = True
        trail = collapsed[-1] == " "
        self._emit(collapsed.strip(" "))
        self.need_space = trail

    # -- tree tracking --------------------------------------------------------------------
    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.title_parts is not None:
            self._end_title()  # unclosed <title>
        if tag == "title":
            if self.title is None and (self.counts.get("head") or not self.skip):
                self.title_parts = []
            return
        if self.counts.get("head") and tag not in _HEAD_CONTENT:
            self.handle_endtag("head")  # body content without </head>: head ended implicitly
        if not self.skip and any(k == "style" and v and _PAGE_BREAK.search(v) for k, v in attrs):
            self.page_breaks.append(self.pos)
        if tag in _VOID:
            if tag == "br" and not self.skip:
                self.need_break = min(self.need_break + 1, 2) if self.need_break else 1
                self.need_space = False
            elif tag == "hr" and not self.skip:
                self._break(2)
            return
        flags = 0
        if tag in _SKIP_TAGS or _skip_attrs(attrs):
            flags |= 1
            self.skip += 1
        if tag == "pre":
            flags |= 2
            self.pre += 1
            self.pre_start = True
        if tag in _BOLD_TAGS or any(k == "style" and v and _BOLD_STYLE.search(v) for k, v in attrs):
            flags |= 8
            self.bold += 1
        self.stack.append((tag, flags))
        self.counts[tag] = self.counts.get(tag, 0) + 1
        if self.skip:
            return
        if tag in _PARA or tag in _LINE:
            self._block(tag)
            if tag == "tr":
                self.cells = 0
                self.row = (self.pos, len(self.parts))
            elif tag == "table":
                self.tables.append(False)
        elif tag in _CELL:
            flags |= 4
            self.stack[-1] = (tag, flags)
            self.in_cell += 1
            if self.cells and not self.need_break:
                self.need_space = False
                self._emit(" |")
                self.need_space = True
            self.cells += 1
        level = _HEADINGS.get(tag)
        if level is not None:
            self._close_heading()
            self.heading = (level, -1)
            self.heading_parts = []
        if tag == "dl":
            self.stack[-1] = (tag, flags | 16)  # a definition list read (one in skipped markup is not)
            self.lists.append(len(self.list_ends))
            self.list_ends[self.lists[-1]] = -1
        elif tag in ("dt", "dd"):  # a term ends where its definition (or the next term) begins
            self._close_term()
            if tag == "dt" and self.lists:
                self.term, self.term_parts = (self.lists[-1], len(self.lists), -1), []

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            if self.title_parts is not None:
                self._end_title()
            return
        if not self.counts.get(tag):
            return  # stray end tag
        while self.stack:
            t, flags = self.stack.pop()
            self.counts[t] -= 1
            if flags & 1:
                self.skip -= 1
            if flags & 2:
                self.pre -= 1
            if flags & 4:
                self.in_cell -= 1
            if flags & 8:
                self.bold -= 1
            if not self.skip and t in _HEADINGS:
                self._close_heading()
            if not self.skip and t in ("dt", "dl"):
                self._close_term()
            if flags & 16 and self.lists:
                self.list_ends[self.lists.pop()] = self.pos
            if not self.skip and t == "tr":
                self._end_row()
            elif not self.skip and t == "table" and self.tables:
                self.tables.pop()
            if not self.skip and (t in _PARA or t in _LINE):
                self._block(t)
            if t == tag:
                break

    def _end_row(self) -> None:
        """Note a row of one filled cell, the first, of several words, above a table's first row of several: a
        caption ("CONSOLIDATED STATEMENTS OF OPERATIONS" spanning an earnings release's table)."""
        if self.row is None or not self.tables:
            return
        start, first = self.row
        self.row = None
        text = "".join(self.parts[first:])
        split = text.split(" |")
        cells = [c for c in split if c.strip()]
        if len(cells) > 1:
            self.tables[-1] = True
        elif cells and not self.tables[-1] and split[0].strip() and len(cells[0].split()) > 1:  # not a "Page" column
            lead = len(text) - len(text.lstrip("\n "))
            self.captions.append((start + lead, start + len(text.rstrip(" |"))))

    def _block(self, tag: str) -> None:
        """Line break(s) for a block element; inside a table cell only a space."""
        if self.in_cell and tag not in ("table", "tr", "pre"):
            if not self.at_line_start and not self.need_break:
                self.need_space = True
            return
        self._break(2 if tag in _PARA else 1)

    def _end_title(self) -> None:
        self.title = _WS.sub(" ", "".join(self.title_parts or ())).strip() or None
        self.title_parts = None

    def _close_heading(self) -> None:
        if self.heading is None:
            return
        level, start = self.heading
        self.heading = None
        title = _WS.sub(" ", "".join(self.heading_parts)).strip()
        if title and start >= 0:
            self.headings.append(Heading(level, title, start, self.pos))

    def _close_term(self) -> None:
        if self.term is None:
            return
        (dl, depth, start), self.term = self.term, None
        title = _WS.sub(" ", "".join(self.term_parts)).strip()
        if title and start >= 0:
            self.terms.append(_Term(dl, depth, title, start, self.pos))

    def handle_data(self, data: str) -> None:
        if self.title_parts is not None:
            self.title_parts.append(data)
            return
        if self.skip:
            return
        if self.heading is not None:
            self.heading_parts.append(data)
        if self.term is not None:
            self.term_parts.append(data)
        self._text(data)

    def finish(self) -> str:
        self.close()
        self._close_heading()
        self._close_term()
        return "".join(self.parts)

    def term_headings(self) -> list[Heading]:
        """The terms of the definition lists that are a manual's entries, not a glossary's: a list of at least
        :data:`_MIN_TERMS` terms whose definitions run :data:`_MIN_DEFINITION` characters on average (a man page's
        options and builtins, an API reference's functions), each as a heading mark whose level is its list's depth."""
        by_list: dict[int, list[_Term]] = {}
        for term in self.terms:
            by_list.setdefault(term.list_id, []).append(term)
        out = []
        for dl, terms in by_list.items():
            if len(terms) < _MIN_TERMS or terms[0].depth > _MAX_LIST_DEPTH:
                continue
            end = self.list_ends.get(dl, -1)
            ends = [t.start for t in terms[1:]] + [end if end >= 0 else self.pos]  # where each definition ends
            if sum(b - t.end for t, b in zip(terms, ends)) / len(terms) < _MIN_DEFINITION:
                continue
            out += [Heading(t.depth, t.title[:_MAX_TERM], t.start, t.end) for t in terms]
        return sorted(out, key=lambda h: h.start)


def _skip_attrs(attrs: list[tuple[str, str | None]]) -> bool:
    for k, v in attrs:
        if not v:
            if k == "hidden":
                return True
            continue
        if k == "role" and v.lower() in _SKIP_ROLES:
            return True
        if k == "class" and not _SKIP_CLASSES.isdisjoint(v.lower().split()):
            return True
        if k == "aria-hidden" and v == "true":
            return True
        if k == "style" and _HIDDEN_STYLE.search(v):  # an inline XBRL header's facts, a collapsed menu
            return True
    return False


_QUOTED_TAG = re.compile(r"""<[^<>"']*(?:(?:"[^"]*"|'[^']*')[^<>"']*)*>""")
_QUOTED_TAG_SPAN = 2048
_LONG_TAG_SPAN = 1 << 20
_LONG_TAG_TRIES = 32


def sanitize(text: str) -> str:
    """Escape every ``<`` that opens markup (``<x``, ``</``, ``<!``, ``<?``) but is not closed by
    a ``>`` before the next ``<`` (honouring quoted attributes and comments).

    Python 3.11's HTMLParser rescans to the end of the input for each such unterminated
    construct (quadratic time on junk like ``"<a" * 10**5``); after this pass it cannot.

    >>> sanitize('<p class="a<b">x < y <b and <!-- c --> <a href=x>')
    '<p class="a<b">x < y &lt;b and <!-- c --> <a href=x>'
    """
    out: list[str] = []
    n = len(text)
    last = 0
    i = text.find("<")
    comments_closed = True  # False once a "<!--" had no "-->" after it
    long_budget = _LONG_TAG_TRIES
    while 0 <= i < n - 1:
        c = text[i + 1]
        if not (c.isalpha() or c in "/!?"):
            i = text.find("<", i + 1)
            continue
        end = -1
        if c == "!" and text.startswith("<!--", i):
            if comments_closed:
                j = text.find("-->", i + 4)
                if j >= 0:
                    end = j + 3
                else:
                    comments_closed = False
        else:
            m = _QUOTED_TAG.match(text, i, min(n, i + _QUOTED_TAG_SPAN))
            if m is None and long_budget and n - i > _QUOTED_TAG_SPAN:
                long_budget -= 1  # a few very long tags (data: URIs, SVG paths) per document
                m = _QUOTED_TAG.match(text, i, min(n, i + _LONG_TAG_SPAN))
            if m is not None:
                end = m.end()
        if end < 0:
            out.append(text[last:i])
            out.append("&lt;")
            last = i + 1
            i = text.find("<", i + 1)
        else:
            i = text.find("<", end)
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


def _blocks(lines: list[str]) -> list[int]:
    """Indexes of the lines that are blocks of their own (a blank line around, something after) and short
    enough to be a heading: the only lines :func:`_inferred_headings` reads."""
    last = len(lines) - 1
    return [i for i, line in enumerate(lines)
            if i < last and line.strip() and len(line) <= _MAX_LABELLED * 2
            and (i == 0 or not lines[i - 1].strip()) and not lines[i + 1].strip()]


def _bold_lines(text: str, spans: list[tuple[int, int]], only: list[int]) -> set[int]:
    """Of the lines ``only`` (indexes into ``text``'s lines), those whose every character lies in a bold span
    (but spaces and the ``|`` between table cells)."""
    bold = bytearray(len(text))
    for a, b in spans:
        bold[a:b] = b"\x01" * (b - a)
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    return {i for i in only
            if all(bold[starts[i] + k] for k, ch in enumerate(lines[i]) if not ch.isspace() and ch != "|")}


def _inferred_headings(text: str, bold: set[int], captions: set[int] = frozenset()) -> list[Heading]:
    """Headings of a page that has no heading markup: blocks of their own (a blank line around) that are
    wholly bold and read like a heading (up to 80 characters, no final punctuation, and
    :func:`~pipelines.parse.text.score_line` with what bold adds, as Word paragraphs are read), or that open with a filing or contract label (``Item 7.``, ``PART II``, ``Note 12``,
    ``Article 4``) and are bold or in capitals, up to 150 characters; a table row of two cells, a label and
    a title, is read as one line. More than :data:`_MAX_RUN` bold blocks in a row are a bold passage (a cover
    page) and none of them is a heading. Levels: the label's, else capitals over Title Case, then
    :func:`~pipelines.parse.text.nest_under_labels`. ``captions``: lines that are a table's caption row
    (:meth:`_Extractor._end_row`), read like a block of their own.

    >>> page = "PART II\\n\\nItem 7. | Management's Discussion and Analysis\\n\\nRESULTS OF OPERATIONS\\n\\nSales rose."
    >>> [(h.level, h.title) for h in _inferred_headings(page, bold={0, 2})]
    [(1, 'PART II'), (2, "Item 7. Management's Discussion and Analysis"), (3, 'RESULTS OF OPERATIONS')]
    """
    lines = text.split("\n")
    blocks = set(_blocks(lines)) | set(captions)
    found: list[tuple[int, Heading]] = []
    pos = 0
    for i, line in enumerate(lines):
        start, pos = pos, pos + len(line) + 1
        s = line.strip().rstrip(" |") if i in captions else line.strip()
        if i not in blocks:
            continue  # not a block of its own, or nothing after it
        cells = _CELLS.split(s)
        if len(cells) == 2 and keyword_label(cells[0]) and cells[1][:1].isupper():
            title = f"{cells[0]} {cells[1]}"  # a row of the label and its title
        elif len(cells) == 1:
            title = s
        else:
            continue
        label = keyword_label(title)
        if label and len(title) <= _MAX_LABELLED and not title.endswith((",", ";")) and (i in bold or all_caps(title)):
            level = numbering_level(title) or 1
        elif title[0].isalnum() and len(title) <= 80 and title[-1] not in _SENTENCE_END:
            score, level = score_line(title, blank_before=True, blank_after=True)
            if not (score + _FORMAT_SIGNAL * (i in bold) >= THRESHOLD and (i in bold or all_caps(title))):
                continue
        else:
            continue
        at = start + len(line) - len(line.lstrip())
        found.append((i, Heading(level, title, at, at + len(s))))
    heads: list[Heading] = []
    run: list[tuple[int, Heading]] = []  # bold headings in adjacent blocks

    def flush() -> None:
        if len(run) <= _MAX_RUN:
            heads.extend(x for _, x in run)
        run.clear()

    for i, h in found:
        if i in bold and run and i == run[-1][0] + 2:
            run.append((i, h))
            continue
        flush()
        if i in bold:
            run.append((i, h))
        else:
            heads.append(h)
    flush()
    return nest_under_labels(heads)


def parse(text: str) -> tuple[str, list[Heading], str | None]:
    """Return (body text, heading marks, ``<title>`` text): h1–h6, else the headings its blocks read as. A
    paginated page's running footers, page numbers and "Table of Contents" links are left out
    (:func:`~pipelines.parse.running.running_spans`).

    >>> page = ('<p>Sales rose.</p><p>Acme | 2024 Form 10-K | %d</p><hr style="page-break-after:always"/>'
    ...         '<p><a href="#toc">Table of Contents</a></p>')
    >>> parse("".join(page % n for n in range(1, 5)))[0]
    'Sales rose.\\n\\nSales rose.\\n\\nSales rose.\\n\\nSales rose.'
    """
    ex = _Extractor()
    ex.feed(sanitize(text))
    raw = ex.finish()
    spans = running_spans(raw, ex.page_breaks)
    out, headings, (bold, captions) = _without(raw, spans, ex.headings, ex.bold_spans, ex.captions)
    if not headings:
        lines = out.split("\n")
        caption_lines = _caption_lines(out, captions)
        headings = _inferred_headings(out, _bold_lines(out, bold, sorted(set(_blocks(lines)) | caption_lines)),
                                      caption_lines)
    return out, _with_terms(headings, ex.term_headings(), raw, spans), ex.title


def _with_terms(headings: list[Heading], terms: list[Heading], raw: str,
                spans: list[tuple[int, int]]) -> list[Heading]:
    """``headings`` and the entries of the page's definition lists (``terms``, from
    :meth:`_Extractor.term_headings`: at offsets of the parser's ``raw`` text, their lists' depths as levels), each
    entry below the heading it falls under and a nested list's one level deeper: a man page's ``SHELL BUILTIN
    COMMANDS`` gets a section per builtin, and ``shopt``'s options one each under it."""
    if not terms:
        return headings
    if spans:  # moved with the text, as the headings were
        terms = _without(raw, spans, terms)[1]
    starts = [h.start for h in headings]
    out = list(headings)
    for term in terms:
        k = bisect.bisect_right(starts, term.start)
        out.append(Heading((headings[k - 1].level if k else 0) + term.level, term.title, term.start, term.end))
    return sorted(out, key=lambda h: h.start)


def _caption_lines(text: str, captions: list[tuple[int, int]]) -> set[int]:
    """The indexes of the lines that are a table's caption row, but a caption that opens several tables (the
    company's name above each statement): that one names no section."""
    breaks = [i for i, ch in enumerate(text) if ch == "\n"] if captions else []
    lines = [bisect.bisect_left(breaks, start) for start, _ in captions]
    seen: dict[str, int] = {}
    for start, end in captions:
        key = " ".join(text[start:end].lower().split())
        seen[key] = seen.get(key, 0) + 1
    return {i for i, (start, end) in zip(lines, captions) if seen[" ".join(text[start:end].lower().split())] == 1}


def _without(text: str, spans: list[tuple[int, int]], headings: list[Heading],
             *marks: list[tuple[int, int]]) -> tuple[str, list[Heading], tuple[list[tuple[int, int]], ...]]:
    """``text`` without the lines ``spans`` (sorted; each a whole line, which goes with its line break and, between
    blank lines, one of them), and the headings and the spans of ``marks`` (bold text, captions) moved with the text
    (one on a removed line is dropped)."""
    if not spans:
        return text, headings, marks
    cuts: list[tuple[int, int]] = []
    for start, end in spans:
        end += text[end:end + 1] == "\n"
        if text[end:end + 1] == "\n" and (start == 0 or text[max(0, start - 2):start] == "\n\n"):
            end += 1
        if cuts and start < cuts[-1][1]:
            start = cuts[-1][1]
        cuts.append((start, max(start, end)))

    starts = [start for start, _ in cuts]
    shifts = list(itertools.accumulate((end - start for start, end in cuts), initial=0))  # removed before cut k

    def moved(at: int) -> int | None:
        k = bisect.bisect_right(starts, at)  # cuts starting at or before ``at``
        if k and at < cuts[k - 1][1]:
            return None
        return at - shifts[k]

    def span(start: int, end: int) -> tuple[int, int] | None:
        a, b = moved(start), moved(max(start, end - 1))
        return None if a is None or b is None else (a, b + (end > start))

    out = "".join(text[a:b] for a, b in zip([0] + [e for _, e in cuts], [s for s, _ in cuts] + [len(text)])).rstrip("\n")

    def kept(start: int, end: int) -> tuple[int, int] | None:  # within the text that is left, and not empty
        where = span(start, end)
        return (where[0], min(where[1], len(out))) if where and where[0] < len(out) else None

    heads = [Heading(h.level, h.title, *where) for h in headings if (where := kept(h.start, h.end))]
    return out, heads, tuple([m for a, b in spans_ if (m := kept(a, b))] for spans_ in marks)
