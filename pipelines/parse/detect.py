"""Format detection from the file name (``.gz`` stripped) and, when that is not decisive,
from the content.

>>> detect_format("docs/intro.rst.txt.gz", "")
'rst'
>>> detect_format("ls.1ssl", ".TH LS 1\\n.SH NAME\\n")
'man'
>>> detect_format("README", "Title\\n=====\\n\\nbody\\n")
'rst'

Binary formats are recognised by their magic bytes before any decoding (:func:`detect_binary`):

>>> detect_binary(b"%PDF-1.7\\n"), detect_binary(b"plain text")
('pdf', None)
"""

from __future__ import annotations

import posixpath
import re

__all__ = ["detect_format", "detect_binary", "FORMATS", "BINARY_FORMATS", "split_ext"]

FORMATS = ("markdown", "rst", "html", "text", "man", "pod", "pdf", "docx", "pptx")
#: Formats read from the raw bytes (by their magic bytes or zip parts, whatever the file name), never decoded
#: as text.
BINARY_FORMATS = ("pdf", "docx", "pptx")

_EXT = {
    ".md": "markdown", ".markdown": "markdown", ".mdown": "markdown", ".mkd": "markdown",
    ".rst": "rst", ".rest": "rst",
    ".html": "html", ".htm": "html", ".xhtml": "html",
    ".man": "man",
    ".pod": "pod", ".pm": "pod", ".pl": "pod",
}
# Source code / config: "# ..." lines are comments, never markdown headings.
_CODE_EXT = frozenset(
    ".py .sh .bash .zsh .awk .sed .yaml .yml .toml .ini .cfg .conf .json .js .ts .css .c .h "
    ".cc .cpp .hpp .java .go .rs .rb .tcl .dot .mk .cmake .make .ps1 .bat .sql .xml .svg .csv "
    ".tsv .diff .patch .asc .lua .r .el .vim .properties .env .lock .in".split()
)
_MAN_EXT = re.compile(r"\.[1-9][a-z0-9_]{0,8}$", re.I)
_SNIFF_CHARS = 65536

_HTML = re.compile(r"<!doctype\s+html|<html[\s>]", re.I)
_MAN = re.compile(r"^[.'][ \t]*(?:TH|SH|Dd|Dt|Sh)\b", re.M)
_ROFF_REQUEST = re.compile(r"^[.'][ \t]*[A-Za-z\\]", re.M)
_POD = re.compile(r"^=(?:head[1-4]|pod|encoding|over|item|begin)\b", re.M)
_ATX = re.compile(r"(?:\A|\n[ \t]*\n)[ ]{0,3}#{1,6}[ \t]+\S")
_FENCE = re.compile(r"^[ ]{0,3}(?:```|~~~)", re.M)
_RST_UNDERLINE = re.compile(
    r"(?:\A|\n[ \t]*\n)(?:([=\-`:'\"~^_*+#<>])\1{2,}[ \t]*\n)?[ \t]*[^\s].{0,200}\n"
    r"([=\-`:'\"~^_*+#<>])\2{2,}[ \t]*(?:\n|\Z)"
)
_COMMENTY = re.compile(r"[^\n]*(?:SPDX|[Cc]opyright|-\*-|vim?:|\$Id)")
_MD_LINK = re.compile(r"\[[^\]\n]{1,200}\]\((?:https?://|\.{0,2}/|#)[^)\s]*\)")
_RST_DIRECTIVE = re.compile(r"^\.\. [a-zA-Z][\w:-]*::", re.M)


def split_ext(path: str) -> tuple[str, str]:
    """(file name without compression suffix, lower-cased format extension or '').

    >>> split_ext("a/b/intro.rst.txt.gz")
    ('intro.rst.txt', '.rst.txt')
    """
    name = posixpath.basename(path.replace("\\", "/"))
    for z in (".gz", ".gzip"):
        if name.lower().endswith(z):
            name = name[: -len(z)]
    lower = name.lower()
    if lower.endswith((".rst.txt", ".rest.txt")):
        return name, ".rst.txt"
    ext = posixpath.splitext(lower)[1]
    return name, ext


def _atx_is_heading(head: str, pos: int) -> bool:
    """An ATX-looking line at ``pos`` that is not a ``#`` comment (block, licence, modeline)."""
    if _COMMENTY.match(head, pos, pos + 80):
        return False
    eol = head.find("\n", pos)
    return eol < 0 or not head.startswith("#", eol + 1)


def _sniff(text: str) -> str:
    head = text[:_SNIFF_CHARS]
    start = head.lstrip()[:2048]
    if _HTML.search(start) or start.lower().startswith(("<?xml", "<!doctype")) and "<html" in head.lower():
        return "html"
    if _MAN.search(head):
        return "man"
    if _POD.search(head):
        return "pod"
    rst_headings = len(_RST_UNDERLINE.findall(head))
    if rst_headings and _RST_DIRECTIVE.search(head):
        return "rst"
    atx = next((m for m in _ATX.finditer(head) if _atx_is_heading(head, m.end() - 1)), None)
    fence = _FENCE.search(head)
    # "# ..." deep inside a text file is more likely a comment than a markdown heading.
    if atx and (atx.start() < 2000 or fence or _MD_LINK.search(head)):
        return "markdown"
    if fence and not rst_headings:
        return "markdown"
    if rst_headings:
        return "rst"
    return "text"


def detect_binary(head: bytes) -> str | None:
    """A format of :data:`BINARY_FORMATS` when the file's leading bytes carry its magic, else None."""
    from pipelines.parse.pdf import is_pdf

    return "pdf" if is_pdf(head) else None


def detect_format(path: str, text: str) -> str:
    """Return one of :data:`FORMATS` for a file ``path`` with decoded ``text``."""
    _, ext = split_ext(path)
    if ext == ".rst.txt":
        return "rst"
    fmt = _EXT.get(ext)
    if fmt is not None:
        return fmt
    if ext in _CODE_EXT:
        return "text"
    if _MAN_EXT.search(ext) and _ROFF_REQUEST.search(text[:_SNIFF_CHARS]):
        return "man"
    return _sniff(text)
