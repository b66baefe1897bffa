"""Fast, rule-based sentence splitting into character spans.

>>> text = "Dr. Smith measured 3.14 m. See example.com for v1.2.3.\\n\\n- item one\\n- item two"
>>> [text[a:b] for a, b in split_sentences(text)]
['Dr. Smith measured 3.14 m.', 'See example.com for v1.2.3.', '- item one', '- item two']

The text is first cut into *units*: a blank line always ends one, and a line that looks like
a list item, code or a table's row of figures (or follows one) starts a new one; other lines joined by single
newlines stay together. Each unit is then cut after ``.``/``!``/``?``/``…`` (plus closing
quotes/brackets) when whitespace and a sentence start (uppercase/uncased letter, digit, or an
opening quote/bracket before one) follow, unless the word before is a known abbreviation, a
single capital initial or a dotted acronym (``U.S.``). CJK full stops (``。！？``) always cut.
Every regex is possessive or anchored at a run start, so the whole scan is linear.
"""

from __future__ import annotations

import re

from pipelines.chunk.rows import is_figure_row

__all__ = ["split_sentences"]

_CLOSERS = "\"'”’)\\]}»」』）"
_OPENERS = "\"'“‘([{«¿¡`*_「『（"

# A sentence-final run (matched from its first character only): ASCII terminators need
# following whitespace; CJK ones do not. The leading character class lets `re` scan fast.
_END_RE = re.compile(
    rf"[.!?…。！？](?<![.!?…。！？]{{2}})"
    rf"(?:(?<=[.!?…])[.!?…]*+[{_CLOSERS}]*+\s++|(?<=[。！？])[。！？]*+[{_CLOSERS}]*+\s*+)"
)

# List items: bullets, "1." / "2)", "a." / "a)" / "(b)", roman "(iv)" / "iv)"; then a space.
_ITEM_RE = re.compile(
    r"[ \t]*+(?:[-*+•‣◦▪–—]|\(?\d{1,3}[.)]|\(?[a-z][.)]|\(?[A-Za-z]\)"
    r"|\([ivxIVX]{1,5}\)|[ivx]{1,4}\))[ \t]"
)

_CODE_START_RE = re.compile(
    r"(?:\t|    )"  # indented block
    r"|[ \t]*+(?:>>>|\$ |#!|//|/\*|\*/|```|~~~|[{}<|@])"  # prompts, comments, braces, tags, tables
    r"|[ \t]*+(?:def|async\s+def|class|fn|func|function)\s+\w+\s*[(:{<]"
    r"|[ \t]*+(?:from\s+[\w.]+\s+)?import\s+[\w.*]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+)*;?\s*$"
    r"|[ \t]*+#(?:include|define|ifn?def|endif|pragma)\b"
    r"|[ \t]*+[A-Za-z_][\w.\[\]]*+\s*+[-+*/|&]?=\s*\S"  # assignment at line start
)


def _is_code(line: str) -> bool:
    """Heuristic: does this (non-blank) line look like source code or a table row (a row is a unit of its own, so a
    chunk never ends inside one: :func:`pipelines.chunk.rows.is_figure_row`)?"""
    if _CODE_START_RE.match(line) is not None or is_figure_row(line):
        return True
    tail = line.rstrip()
    if tail.endswith(("{", "=>", "->")):
        return True
    return tail.endswith(";") and ("(" in tail or "=" in tail)


# Lower-cased abbreviations (with their final dot) after which a sentence never ends.
_ABBREVIATIONS = frozenset(
    """e.g. i.e. etc. vs. v. cf. al. approx. ca. viz. resp. incl. esp. dr. mr. mrs. ms. prof.
    sr. jr. st. mt. ft. hon. rev. gen. col. capt. lt. sgt. gov. pres. fig. figs. eq. eqs.
    ref. refs. ch. vol. vols. ed. eds. est. dept. inc. ltd. co. corp. bros.
    jan. feb. apr. jun. jul. aug. sep. sept. oct. nov. dec. ave. blvd. tel. ext.
    univ.""".split()
)
# Abbreviations that end a sentence unless a number follows ("No. 5" vs "I said no. Then").
_NUMBER_ABBREVIATIONS = frozenset({"no.", "nos.", "p.", "pp."})
_ACRONYM_RE = re.compile(r"(?:[A-Za-z]\.){2,}|[A-Z]\.")


def split_sentences(text: str) -> list[tuple[int, int]]:
    """Return ``(start, end)`` character spans of the sentences of ``text``, in order.

    Spans never overlap, contain no leading/trailing whitespace and together cover every
    non-whitespace character of ``text``.

    >>> split_sentences("One. Two!\\n\\nThree")
    [(0, 4), (5, 9), (11, 16)]
    """
    spans: list[tuple[int, int]] = []
    for start, end in _units(text):
        _split_unit(text, start, end, spans)
    return spans


def _units(text: str) -> list[tuple[int, int]]:
    """Cut ``text`` into stripped line groups (paragraph pieces, list items, code lines)."""
    units: list[tuple[int, int]] = []
    unit_start = -1
    unit_end = -1
    prev_code = False
    pos = 0
    for line in text.split("\n"):
        line_start = pos
        pos += len(line) + 1
        lstripped = line.lstrip()
        if not lstripped:  # blank line: paragraph break
            if unit_start >= 0:
                units.append((unit_start, unit_end))
                unit_start = -1
            prev_code = False
            continue
        is_code = _is_code(line)
        if unit_start >= 0 and (is_code or prev_code or _ITEM_RE.match(line) is not None):
            units.append((unit_start, unit_end))
            unit_start = -1
        if unit_start < 0:
            unit_start = line_start + len(line) - len(lstripped)
        unit_end = line_start + len(line.rstrip())
        prev_code = is_code
    if unit_start >= 0:
        units.append((unit_start, unit_end))
    return units


def _split_unit(text: str, start: int, end: int, out: list[tuple[int, int]]) -> None:
    """Append the sentence spans of the stripped unit ``text[start:end]`` to ``out``."""
    s = start
    for m in _END_RE.finditer(text, start, end):
        nxt = m.end()
        if nxt >= end:
            break
        stop = m.start() + len(m.group().rstrip())  # end of terminator + closers
        if text[m.start()] not in "。！？" and not _is_boundary(text, m.start(), stop, nxt, end):
            continue
        if stop > s:
            out.append((s, stop))
        s = nxt
    if end > s:
        out.append((s, end))


def _is_boundary(text: str, punct: int, stop: int, nxt: int, end: int) -> bool:
    """Decide whether the terminator at ``punct`` (ending at ``stop``) ends a sentence."""
    j = nxt
    while j < end and text[j] in _OPENERS:
        j += 1
    if j < end:
        c = text[j]
        if not (c.isdigit() or (c.isalpha() and not c.islower())):
            return False
    if stop != punct + 1 or text[punct] != ".":
        return True  # "?", "!", "...", or closers after the dot: a real end
    i = punct
    while i > 0 and punct - i < 40 and not text[i - 1].isspace():
        i -= 1
    word = text[i : punct + 1].lstrip(_OPENERS)
    low = word.lower()
    if low in _NUMBER_ABBREVIATIONS:
        return not (j < end and text[j].isdigit())
    if low in _ABBREVIATIONS:
        return False
    return _ACRONYM_RE.fullmatch(word) is None
