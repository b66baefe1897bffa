"""Plain text: the text is kept unchanged; a multi-signal line scorer marks likely headings.

Positive signals: section numbering (``3``, ``3.2.1``, ``IV.``, ``A.``), Chapter/Part/Appendix/
Section keywords and those of filings and contracts (``PART II``, ``Item 7.``, ``Item 1A.``, ``Note 12``,
``Article 4``, ``Schedule B``, ``Exhibit 10.1``), ALL CAPS, Title Case, an ``===``/``---`` underline, blank lines around.
Negative signals: sentence punctuation at the end, lowercase start, bullets, code, digits,
long lines, table-like column gaps, neighbouring numbered lines (a list, not headings).
A table of contents' entries (a title found again later, with nothing under it here) are dropped.

>>> t = "1. Introduction\\n\\nThis tool ingests text.\\n\\nINSTALLATION\\n\\n- run it.\\n"
>>> _, heads, _ = parse(t)
>>> [(h.level, h.title) for h in heads]
[(1, '1. Introduction'), (1, 'INSTALLATION')]
"""

from __future__ import annotations

import re

from pipelines.parse.document import Heading

__all__ = ["parse", "score_line", "numbering_level", "keyword_label", "nest_under_labels", "all_caps", "FILING_LABELS", "THRESHOLD"]

THRESHOLD = 4
_MAX_LEN = 100
_MAX_WORDS = 14

_NUM = re.compile(
    r"(?:(?P<dec>\d{1,3}(?:\.\d{1,3})+|\d{1,2})\.?|(?P<roman>[IVXLC]{1,6})\.|(?P<alpha>[A-Z])\.)"
    r"[ \t\xa0]+(?P<rest>\S.*)"
)
_CHAPTER = re.compile(
    r"(?P<kw>chapter|part|book|appendix|section|item|note|article|schedule|exhibit)[ \t\xa0]+"
    r"(?P<n>\d{1,3}[A-Z]?(?:\.\d{1,3})*|[IVXLCDM]{1,7}|[A-Z]|one|two|three|four|five|six|seven|eight"
    r"|nine|ten|eleven|twelve)\b\.?(?:[ \t\xa0]*[:.\-\u2013\u2014][ \t\xa0]*|[ \t\xa0]+|$)(?P<rest>.*)",
    re.I,
)
_BULLET = re.compile(r"(?:[-*+\u2022\u25cf\u25e6\u2023\u2043>|]|o[ \t]|\d{1,3}\)|\(\w{1,3}\))")
_CODE = re.compile(r"[{};]|\(\)|\s=\s|==|=>|->|</?\w|^(?:\$|#include|//|def |class |import )")
_GAP = re.compile(r"\S(?: {3,}|\t)\S")
_WIKI = re.compile(r"(=+)[ \t]*([^=\s].*?)[ \t]*\1")
_IDENT = re.compile(r"\w_\w|^\w{1,3}:\s")
_UNDERLINE = re.compile(r"^[ \t]*([=\-~*^#])\1{2,}[ \t]*$")
_WORD = re.compile(r"[^\W\d_][\w'\u2019-]*")
_CAPTION = re.compile(r"(?:figure|fig\.|table|listing|example)\s+\d", re.I)
_SMALL = frozenset(
    "a an and as at but by for from in into nor of on or over per the to via vs with without "
    "is are be".split()
)


_KEYWORD_LEVEL = {"item": 2, "note": 3, "schedule": 2}
#: labels of filings and contracts: a heading without a label in a document that has them sits inside them
FILING_LABELS = frozenset({"item", "note", "article", "schedule"})
_TOC_TAIL = re.compile(r"(?:[ \t]*[.\u2026·][ \t.\u2026·]*|[ \t]{2,}|[ \t]+)(?:\d{1,4}|[ivxlc]{1,6})$")


_TOC_KEYWORD = re.compile(r"(?:chapter|part|appendix)\s+(?=[\dIVXLC])", re.I)


def _toc_key(title: str) -> str:
    """A heading's title without a table of contents' dot leader and page number or a leading Chapter/Part/
    Appendix keyword (a contents list often leaves it out), case-folded.

    >>> _toc_key("Chapter\xa02.\xa0Getting started"), _toc_key("2. Getting started ..... 14")
    ('2. getting started', '2. getting started')
    """
    return " ".join(_TOC_KEYWORD.sub("", " ".join(_TOC_TAIL.sub("", title).split()), count=1).split()).casefold()


def _drop_contents_entries(text: str, headings: list[Heading], min_words: int = 8) -> list[Heading]:
    """Drop headings that are table-of-contents entries: the same title (less a page number) appears again
    later, and this one has (almost) nothing under it before the next heading. The later one, with the
    body, stays: a filing's "Item 7. Management's Discussion … 45" at the top no longer makes an empty
    section in front of the real Item 7."""
    keys = [_toc_key(h.title) for h in headings]
    out = []
    for i, h in enumerate(headings):
        body_end = headings[i + 1].start if i + 1 < len(headings) else len(text)
        body = text[h.end:body_end]
        thin = len(body.split()) < min_words
        if not thin and keys[i] in keys[i + 1:]:  # a contents entry whose body is more contents entries
            lines = [_toc_key(line) for line in body.split("\n") if line.strip()]
            later = set(keys[i + 1:])
            starts = {k[:24] for k in later if len(k) > 24}  # a wrapped entry's first line starts a longer title
            thin = sum(line in later or line[:24] in starts for line in lines) * 2 >= len(lines)
        if thin and keys[i] and keys[i] in keys[i + 1:]:
            continue
        out.append(h)
    return out


def _title_case(words: list[str]) -> bool:
    if not words or not words[0][0].isupper():
        return False
    sig = [w for w in words if w.lower() not in _SMALL]
    return bool(sig) and sum(w[0].isupper() for w in sig) * 4 >= len(sig) * 3


def _numbering(s: str) -> tuple[int, str, str] | None:
    """(depth, kind, rest) for a numbered line: kind is 'dec', 'roman' or 'alpha'."""
    m = _NUM.match(s)
    if m is None:
        return None
    if m.group("dec"):
        return m.group("dec").count(".") + 1, "dec", m.group("rest")
    if m.group("roman"):
        return 1, "roman", m.group("rest")
    return 2, "alpha", m.group("rest")


def _label(s: str, in_list: bool = False) -> tuple[int, int, str] | None:
    """(score, level, rest) of a line that opens with a keyword and number (``Item 7.``, ``PART II``) or
    with section numbering (``2.3``, ``IV.``) followed by a title; else None. ``in_list``: the numbered
    line has numbered neighbours (a list item, not a heading)."""
    m = _CHAPTER.match(s)
    if m:
        if m.group("rest") and not _titled(m.group("rest")):
            return None
        kw = m.group("kw").lower()
        depth = m.group("n").count(".") + 1
        # Filings and contracts: PART I > Item 7 > Note 12; articles hold sections; exhibits are appendices.
        return 5, (max(2, depth) if kw == "section" else _KEYWORD_LEVEL.get(kw, 1)), m.group("rest") or s
    num = _numbering(s)
    if num is None:
        return None
    depth, kind, rest = num
    if not (rest[0].isupper() or (kind == "dec" and depth > 1 and rest[0].isalnum())):
        return None
    return (4 if depth > 1 else 3 if kind != "alpha" else 2) - 6 * in_list, depth, rest


def numbering_level(s: str) -> int | None:
    """The level a heading's own label gives: its numbering's depth, or its keyword's; None without one.

    >>> [numbering_level(t) for t in ("2. Scope", "2.3 Fees", "PART II", "Item 7.", "Note 12", "Scope")]
    [1, 2, 1, 2, 3, None]
    """
    label = _label(s)
    return label[1] if label else None


def all_caps(s: str) -> bool:
    """Set in capitals: three letters or more and none lower case ("ITEM 7. MD&A", not "Item 7." nor "10-K").

    >>> all_caps("ITEM 7. MANAGEMENT'S DISCUSSION"), all_caps("Item 7."), all_caps("10-K")
    (True, False, False)
    """
    letters = [ch for ch in s if ch.isalpha()]
    return len(letters) >= 3 and not any(ch.islower() for ch in letters)


def _titled(rest: str) -> bool:
    """What follows a label reads as a title: a capital or a figure first ("[Reserved]" and quotes allowed)."""
    first = rest.lstrip("[(\"'\u201c\u2018")[:1]
    return first.isupper() or first.isdigit()


def keyword_label(s: str) -> str | None:
    """The keyword a heading's label opens with (``part``, ``item``, ``note``, ``article``, ``section`` …,
    lower case), when it is followed by a number and then nothing, or a title that is not lower case.

    >>> [keyword_label(t) for t in ("Item 7.", "NOTE 12 \u2014 INCOME TAXES", "PART II", "Note 12 to the statements",
    ...                             "Item 6. [Reserved]")]
    ['item', 'note', 'part', None, 'item']
    """
    m = _CHAPTER.match(s)
    if m is None or (m.group("rest") and not _titled(m.group("rest"))):
        return None
    return m.group("kw").lower()


def nest_under_labels(headings: list[Heading]) -> list[Heading]:
    """In a document whose headings carry filing or contract labels (``Item 7.``, ``Note 12``, ``Article 4``),
    the headings without a keyword label sit inside the labelled ones instead of beside them: a numbered one
    (``1. Summary of Significant Accounting Policies``) at a Note's depth and below, an unnumbered one
    (``RESULTS OF OPERATIONS``, ``Liquidity and Capital Resources``) below the deepest label, its own order
    (capitals over Title Case) kept. Other documents' headings are returned as they are.

    >>> hs = [Heading(1, "PART II", 0, 7), Heading(2, "Item 7. MD&A", 8, 19), Heading(1, "RESULTS", 20, 27),
    ...       Heading(2, "Liquidity", 28, 37), Heading(1, "1. Policies", 38, 49)]
    >>> [(h.level, h.title) for h in nest_under_labels(hs)]
    [(1, 'PART II'), (2, 'Item 7. MD&A'), (3, 'RESULTS'), (4, 'Liquidity'), (3, '1. Policies')]
    """
    kinds = [keyword_label(h.title) for h in headings]
    if not any(k in FILING_LABELS for k in kinds):
        return headings
    deepest = max(h.level for h, k in zip(headings, kinds) if k)
    out = []
    for h, kind in zip(headings, kinds):
        if not kind:
            num = _numbering(h.title)
            h = Heading(2 + num[0] if num else deepest + h.level, h.title, h.start, h.end)
        out.append(h)
    return out


def score_line(
    s: str, *, blank_before: bool, blank_after: bool, underline: str | None = None,
    indent: int = 0, in_list: bool = False, first: bool = False,
) -> tuple[int, int]:
    """(score, level) of stripped line ``s``; a heading when score >= :data:`THRESHOLD`.

    ``first``: the first non-blank line of the document (often its title).
    """
    if len(s) > _MAX_LEN:
        return -10, 0
    w = _WIKI.fullmatch(s)
    if w is not None:  # "== Title ==" (wiki style)
        return 10, max(1, min(len(w.group(1)) - 1, 6))
    if _BULLET.match(s) or _CODE.search(s):
        return -10, 0
    score, level, rest = _label(s, in_list) or (0, 0, s)
    words = _WORD.findall(rest)
    n_words = len(rest.split())
    letters = sum(len(w) for w in words)
    if n_words > _MAX_WORDS or not words:
        return -10, 0
    last = rest[-1]
    if last == "?" and score > 0 and blank_before:
        score -= 1  # a numbered question: a FAQ's heading ("7.12. How do I put a package on hold?")
    elif last in ".?,;!" or (last in "'\"" and len(rest) > 1 and rest[-2] in ".?!,"):
        score -= 5
    elif last == ":":
        score -= 1
    if rest[0].islower():
        score -= 4
    if letters * 5 < len(rest.replace(" ", "")) * 3:
        score -= 4  # mostly digits / punctuation
    if _IDENT.search(rest):
        score -= 3  # snake_case / CONST_NAME identifiers, "key: value" lines
    if _GAP.search(rest):
        score -= 3
    if _CAPTION.match(rest):
        score -= 3
    if len(s) > 80 or n_words > 12:
        score -= 3
    if indent >= 4:
        score -= 1
    caps = letters >= 3 and rest.upper() == rest and any(c.isalpha() for c in rest)
    if underline is not None:
        score += 4
        level = level or {"=": 1, "-": 2}.get(underline, 3)
    if caps:
        score += 3 if blank_before else 1
        level = level or 1
    elif _title_case(words):
        score += 2 if (blank_before and blank_after and n_words <= 10) else 1
        level = level or 2
    score += blank_before + blank_after
    if first and blank_after and n_words <= 10 and score > -2 and last != ":":
        score += 2
    return score, level or 2


def parse(text: str) -> tuple[str, list[Heading], str | None]:
    """Return (the unchanged text, detected heading marks, None)."""
    lines = text.split("\n")
    n = len(lines)
    stripped = [ln.strip() for ln in lines]
    numbered: list[int] = [0] * n  # numbering depth of "1." / "2.3" style lines (0 = none)
    for i, s in enumerate(stripped):
        if s and (s[0].isdigit() or s[0].isupper()):
            num = _numbering(s)
            if num is not None:
                numbered[i] = num[0]
    headings: list[Heading] = []
    first = next((i for i, s in enumerate(stripped) if s), -1)
    last = next((i for i in range(n - 1, -1, -1) if stripped[i]), -1)
    pos = 0
    for i, line in enumerate(lines):
        s = stripped[i]
        start = pos
        pos += len(line) + 1
        if not s or len(s) > _MAX_LEN or i >= last:
            continue  # blank, too long, or nothing after it (a heading needs a body)
        underline = None
        nxt = i + 1
        if nxt < n and _UNDERLINE.match(lines[nxt]) and len(stripped[nxt]) * 2 >= len(s):
            underline = stripped[nxt][0]
            nxt += 1
        blank_before = i == 0 or not stripped[i - 1]
        blank_after = nxt >= n or not stripped[nxt]
        d = numbered[i]
        if underline is None and not d and s[0] != "=" and (
            (not blank_before and not blank_after) or s[0].islower() or s[-1] in ".?,;!"
        ):
            continue  # cannot reach the threshold: skip the full scoring (most prose lines)
        in_list = bool(d) and any(
            numbered[j] == d for j in (i - 2, i - 1, i + 1, i + 2) if 0 <= j < n
        )
        indent = len(line) - len(line.lstrip())
        cols = indent if "\t" not in line[:indent] else len(line[:indent].expandtabs(8))
        sc, level = score_line(s, blank_before=blank_before, blank_after=blank_after,
                               underline=underline, indent=cols, in_list=in_list,
                               first=i == first)
        if sc >= THRESHOLD:
            a = start + indent
            w = _WIKI.fullmatch(s)
            title, end = (w.group(2) if w else s), a + len(s)
            if d and not blank_after and underline is None:
                title, end = _wrapped_question(lines, stripped, numbered, i, start, title, end)
            headings.append(Heading(level, title, a, end))
    return text, nest_under_labels(_drop_contents_entries(text, headings)), None


def _wrapped_question(lines: list[str], stripped: list[str], numbered: list[int], i: int, line_start: int,
                      title: str, end: int) -> tuple[str, int]:
    """A numbered heading at line ``i`` that wraps onto one or two more lines ending in "?" before a blank line (a
    FAQ's "11.8. How does the package management system deal with packages that / contain configuration files for
    other packages?"): its whole title and the end of its last line; else ``title`` and ``end`` as they were.

    >>> text, heads, _ = parse("Intro\\n\\n11.8. How does it deal with packages that\\ncontain other files?\\n\\nBody.\\n")
    >>> heads[-1].title, text[heads[-1].end:].strip()
    ('11.8. How does it deal with packages that contain other files?', 'Body.')
    """
    pos = line_start
    for j in (i + 1, i + 2):
        pos += len(lines[j - 1]) + 1  # the start of line j
        if j >= len(lines) or not stripped[j] or numbered[j]:
            return title, end
        if stripped[j].endswith("?"):
            if j + 1 < len(lines) and stripped[j + 1]:
                return title, end
            return " ".join([title, *stripped[i + 1: j + 1]]), pos + len(lines[j].rstrip())
    return title, end
