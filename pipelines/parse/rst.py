"""reStructuredText: section titles with under- (and optional over-) lines; levels in order of
first appearance of each adornment style, as docutils assigns them. Body text is kept as-is.

>>> text, heads, _ = parse("=====\\n Top\\n=====\\n\\nIntro\\n\\nPart\\n----\\nbody\\n\\n----\\n\\nmore\\n")
>>> [(h.level, h.title) for h in heads]
[(1, 'Top'), (2, 'Part')]
>>> text.split("\\n")[:4]
['Top', '', 'Intro', '']
"""

from __future__ import annotations

import re

from pipelines.parse.document import Heading
from pipelines.parse.sections import LineBuilder

__all__ = ["parse"]

_ADORN = re.compile(r"([=\-`:'\"~^_*+#<>])\1+[ \t]*$")
_ROLE = re.compile(r":[\w.+-]+(?::[\w.+-]+)*:`([^`]*?)(?:\s*<[^<>`]*>)?`")
_LITERAL = re.compile(r"``(.+?)``")
_REF = re.compile(r"`([^`<]+?)(?:\s*<[^<>`]*>)?`__?")
_EMPH = re.compile(r"(\*\*|\*)(\S(?:.*?\S)?)\1")
_TITLE_DIRECTIVE = re.compile(r"^\.\. title::[ \t]+(\S.*?)[ \t]*$", re.M)


def _adornment(line: str) -> str | None:
    """The adornment char if ``line`` is an unindented run of one punctuation char."""
    if line and _ADORN.match(line):
        return line[0]
    return None


def clean_inline(title: str) -> str:
    """Drop inline markup from a title: roles, ``literals``, `refs`_, *emphasis*.

    >>> clean_inline(":mod:`argparse` --- ``-`` and `Docs <http://x>`_ **now**")
    'argparse --- - and Docs now'
    """
    if len(title) > 500:
        return title  # regexes below may backtrack on very long lines
    if "`" in title:
        title = _ROLE.sub(lambda m: m.group(1).lstrip("~!"), title)
        title = _LITERAL.sub(r"\1", title)
        title = _REF.sub(r"\1", title)
    if "*" in title:
        title = _EMPH.sub(r"\2", title)
    return title


def _title_fits(title: str, adorn: str) -> bool:
    n, t = len(adorn.rstrip()), len(title)
    return n >= t or (n >= 3 and 2 * n >= t)


def parse(text: str) -> tuple[str, list[Heading], str | None]:
    """Return (plain text without adornment lines, heading marks, ``.. title::`` if any)."""
    lines = text.split("\n")
    n = len(lines)
    out = LineBuilder()
    styles: dict[tuple[str, bool], int] = {}
    boundary = True  # previous line is blank, a consumed title, or the start of the text
    i = 0
    while i < n:
        line = lines[i]
        if not line.strip():
            out.line(line)
            boundary = True
            i += 1
            continue
        if boundary and i + 1 < n:
            c = _adornment(line)
            if c is not None:
                # Overline + title + underline (title may be indented).
                if i + 2 < n and lines[i + 2].startswith(c) and _adornment(lines[i + 2]) == c:
                    title = lines[i + 1].strip()
                    if title and _adornment(title) is None and _title_fits(title, line):
                        level = styles.setdefault((c, True), len(styles) + 1)
                        out.heading(level, clean_inline(title) or title)
                        i += 3
                        continue
            elif line[0] not in " \t":
                u = _adornment(lines[i + 1])
                title = line.strip()
                if u is not None and _title_fits(title, lines[i + 1]) and not _is_table_row(title):
                    level = styles.setdefault((u, False), len(styles) + 1)
                    out.heading(level, clean_inline(title) or title)
                    i += 2
                    continue
        out.line(line)
        boundary = False
        i += 1
    m = _TITLE_DIRECTIVE.search(text)
    return out.text(), out.headings, (m.group(1) if m else None)


def _is_table_row(title: str) -> bool:
    return title[0] in "+|" and title[-1] in "+|"
