"""troff man pages (man(7), pod2man output, basic mdoc): ``.SH``/``.SS`` headings, text of font
macros kept, other requests, comments, macro definitions and false conditionals dropped,
escapes rendered.

>>> src = '.TH LS 1 2022\\n.SH NAME\\nls \\\\- list\\n.SH "SEE ALSO"\\n.BR dir (1),\\n.I \\\\fBfoo\\\\fP\\n'
>>> text, heads, title = parse(src)
>>> title, [(h.level, h.title) for h in heads]
('LS(1)', [(1, 'NAME'), (1, 'SEE ALSO')])
>>> text
'NAME\\nls - list\\n\\nSEE ALSO\\ndir(1),\\nfoo\\n'
"""

from __future__ import annotations

import re

from pipelines.parse.document import Heading
from pipelines.parse.sections import LineBuilder

__all__ = ["parse", "render_escapes"]

_GLYPHS = {
    "em": "\u2014", "en": "\u2013", "hy": "-", "mi": "-", "aq": "'", "dq": '"', "bu": "\u2022",
    "co": "\u00a9", "rg": "\u00ae", "tm": "\u2122", "lq": '"', "rq": '"', "oq": "'", "cq": "'",
    "Lq": '"', "Rq": '"', "pl": "+", "mu": "\u00d7", "di": "\u00f7", ">=": "\u2265",
    "<=": "\u2264", "!=": "\u2260", "->": "\u2192", "<-": "\u2190", "de": "\u00b0", "ga": "`",
    "aa": "\u00b4", "ul": "_", "rs": "\\", "sl": "/", "ti": "~", "ha": "^", "ba": "|", "br": "|",
    "sc": "\u00a7", "ps": "\u00b6", "Fo": "\u00ab", "Fc": "\u00bb", "fo": "\u2039", "fc": "\u203a",
    "ct": "\u00a2", "Po": "\u00a3", "Eu": "\u20ac", "eu": "\u20ac", "Ye": "\u00a5", "pc": "\u00b7",
    "+-": "\u00b1", "sq": "\u25a1", "ci": "\u25cb", "**": "*", "eq": "=", "lh": "\u261c",
    "rh": "\u261e", "at": "@", "sh": "#", "Do": "$", "dd": "\u2021", "dg": "\u2020", "or": "|",
    "ff": "ff", "fi": "fi", "fl": "fl", "12": "\u00bd", "14": "\u00bc", "34": "\u00be",
":a": "\u00e4", ":o": "\u00f6", ":u": "\u00fc", ":A": "\u00c4", ":O": "\u00d6",
    ":U": "\u00dc", "ss": "\u00df", "'e": "\u00e9", "`e": "\u00e8", "'a": "\u00e1", ",c": "\u00e7",
}
_DEFAULT_STRINGS = {
    "lq": '"', "rq": '"', "R": "\u00ae", "Tm": "\u2122", "Aq": "'", 'L"': '"', 'R"': '"',
    "C`": '"', "C'": '"', "--": "\u2014", "PI": "pi", "C+": "C++",
}
_SINGLE = {
    "-": "-", "e": "\\", "E": "\\", "\\": "\\", " ": " ", "~": " ", "0": " ", "'": "'", "`": "`",
    ".": ".", "t": "\t", "_": "_",
}
_ESC = re.compile(
    r"""\\(?:
      (?P<comment>["\#].*)
    | \*(?:\[(?P<s1>[^\]\s]{0,64})(?:\s[^\]]{0,200})?\]|\((?P<s2>..)|(?P<s3>[^(\[]))
    | \((?P<g2>..)
    | \[(?P<g3>[^\]]{0,64})\]
    | s[-+]?(?:\(\d\d|\[[^\]]{0,64}\]|'[^']{0,64}'|[1-3]\d(?!\w)|\d)
    | [fFgkmMnVYj][-+]?(?:\[[^\]]{0,64}\]|\(..|.)
    | [hvwoXlLDNbxRZSAB](?P<q>[^\s\w\\]?)(?:(?!(?P=q)).){0,200}(?P=q)
    | \$(?:\d|\*|@)
    | (?P<ch>.)
    )""",
    re.X,
)


def render_escapes(s: str, strings: dict[str, str] | None = None) -> str:
    """Render troff escapes in one line of text (``\\fB`` fonts dropped, ``\\-`` → ``-`` …)."""
    if "\\" not in s:
        return s
    table = strings if strings is not None else _DEFAULT_STRINGS

    def sub(m: re.Match[str]) -> str:
        ch = m.group("ch")
        if ch is not None:
            return _SINGLE.get(ch, "" if ch.isalpha() or ch in "&|^%:){}/,!?" else ch)
        g = m.group("g2") or m.group("g3")
        if g is not None:
            if g.startswith("u") and len(g) >= 5:
                try:
                    return chr(int(g[1:].split("_")[0], 16))
                except ValueError:
                    return ""
            return _GLYPHS.get(g, "")
        name = m.group("s1") or m.group("s2") or m.group("s3")
        if name is not None:
            return table.get(name, "")
        return ""

    return _ESC.sub(sub, s)


_ARG = re.compile(r'"((?:[^"\\]|\\.|"")*)(?:"|$)|((?:\\.|[^\s\\"])(?:\\.|[^\s\\])*)')
_REQ = re.compile(r"[.'][ \t]*([^\s\\]*)[ \t]*(.*)")
_COND_SIMPLE = re.compile(r"!?(?:[ntoev]|[dcrmFS][ \t]+\S+)(?=\s|\\|$)")
_COND_STR = re.compile(r"!?([^\w\s\\(])(?:(?!\1).)*\1(?:(?!\1).)*\1")
_FONT_ALT = frozenset({"BR", "BI", "IB", "IR", "RB", "RI"})
_FONT_SPACE = frozenset({"B", "I", "SM", "SB", "R", "EM", "CW"})
_BREAK = frozenset({"PP", "LP", "P", "sp", "TP", "TQ", "HP", "Sp", "Pp", "Lp", "bp", "ne"})
_HEAD = {"SH": 1, "SS": 2, "Sh": 1, "Ss": 2}
_DEFINE = frozenset({"de", "de1", "am", "am1", "ig", "dei", "ami"})
_MAX_SKIP = 2000
_MAX_NESTING = 8  # ".if n .if n …" on one line


def _args(s: str) -> list[str]:
    out: list[str] = []
    for m in _ARG.finditer(s):
        if m.group(2) is not None:
            if m.group(2).startswith('\\"'):
                break
            out.append(m.group(2))
        else:
            out.append(m.group(1).replace('""', '"'))
    return out


def _eval_cond(rest: str) -> tuple[bool, str]:
    """Evaluate a roff condition at the start of ``rest`` as nroff would; unknown → False."""
    m = _COND_SIMPLE.match(rest) or _COND_STR.match(rest)
    if m is not None:
        tok = m.group(0)
        neg = tok.startswith("!")
        core = tok[1:] if neg else tok
        value = core == "n" or core == "o"
        body = rest[m.end():]
    else:
        tok, _, body = rest.partition(" ")
        neg, value = tok.startswith("!"), False  # numeric expression: cannot evaluate
    return (not value) if neg else value, body.strip()


class _Man:
    def __init__(self) -> None:
        self.out = LineBuilder()
        self.title: str | None = None
        self.strings = dict(_DEFAULT_STRINGS)
        self.pending_heading = 0
        self.ie_stack: list[bool] = []
        self.table = 0  # 0: no table, 1: tbl preamble, 2: tbl data
        self.prefix = ""  # bullet of an ``.IP \(bu`` item, put before the item's first line
        self.balanced = True  # False once a \{ block never closed: stop skipping blocks

    def esc(self, s: str) -> str:
        return render_escapes(s, self.strings)

    def emit(self, s: str) -> None:
        if not s.strip():
            return
        if self.pending_heading:
            level, self.pending_heading = self.pending_heading, 0
            self.out.heading(level, s.strip())
        else:
            if self.prefix:
                s, self.prefix = self.prefix + s.lstrip(), ""
            self.out.line(s)

    def text_line(self, line: str) -> None:
        if not line.strip():
            self.out.blank()
            return
        if self.table:
            if self.table == 1:
                if line.rstrip().endswith("."):
                    self.table = 2
                return
            if line.strip() in ("_", "=", "T}", "T{"):
                return
            line = line.replace("T{", "").replace("T}", "").replace("\t", " | ")
        if line.endswith("\\") and not line.endswith("\\\\"):
            line = line[:-1]
        self.emit(self.esc(line))

    def request(self, name: str, rest: str, lines: list[str], i: int, depth: int = 0) -> int:
        """Handle one request line; return the index of the next line to read."""
        if name in ("if", "ie", "el"):
            if name == "el":
                cond, body = (not self.ie_stack.pop()) if self.ie_stack else False, rest.strip()
            else:
                cond, body = _eval_cond(rest)
                if name == "ie":
                    self.ie_stack.append(cond)
            if body.startswith("\\{"):
                body = body[2:]
                if not cond and self.balanced:
                    j = _skip_block(lines, i, body)
                    self.balanced = j > i + 1
                    return j
            if body.endswith("\\") and not body.endswith("\\\\"):
                body = body[:-1]
            body = body.strip()
            if cond and body and body != "\\}" and depth < _MAX_NESTING:
                self.line(body, lines, i, depth + 1)
            return i + 1
        if name in _DEFINE:
            end = ".."
            a = _args(rest)
            if name != "ig" and len(a) > 1:
                end = "." + a[1]
            elif name == "ig" and a:
                end = "." + a[0]
            j = i + 1
            while j < len(lines) and lines[j].strip() != end and lines[j].rstrip() != "..":
                j += 1
            return j + 1
        if name in _HEAD:
            title = " ".join(self.esc(a) for a in _args(rest)).strip()
            if title:
                self.pending_heading = 0
                self.out.heading(_HEAD[name], title)
            else:
                self.pending_heading = _HEAD[name]
        elif name in _FONT_ALT:
            self.emit("".join(self.esc(a) for a in _args(rest)))
        elif name in _FONT_SPACE:
            self.emit(" ".join(self.esc(a) for a in _args(rest)))
        elif name in _BREAK:
            self.prefix = ""
            self.out.blank()
        elif name == "IP":
            self.out.blank()
            a = _args(rest)
            label = self.esc(a[0]).strip() if a else ""
            if label in ("\u2022", "*", "-", "o", "+"):
                self.prefix = "\u2022 "
            elif label:
                self.emit(label)
        elif name in ("TH", "Dt"):
            a = [self.esc(x).strip() for x in _args(rest)]
            if a and a[0]:
                self.title = f"{a[0]}({a[1]})" if len(a) > 1 and a[1] else a[0]
        elif name == "ds" or name == "ds1":
            key, _, value = rest.partition(" ")
            value = value.lstrip()
            self.strings[key] = self.esc(value[1:] if value.startswith('"') else value)
        elif name == "TS":
            self.table = 1
        elif name == "TE":
            self.table = 0
        elif name in ("SY", "Nm", "Nd", "OP"):
            a = _args(rest)
            if a:
                prefix = "- " if name == "Nd" else ""
                self.emit(prefix + " ".join(self.esc(x) for x in a))
        return i + 1

    def line(self, line: str, lines: list[str], i: int, depth: int = 0) -> int:
        if line[:1] in (".", "'"):
            m = _REQ.match(line)
            assert m is not None
            name, rest = m.group(1), m.group(2)
            if not name:
                return i + 1  # comment (.\"), empty request, or .\}
            return self.request(name, rest, lines, i, depth)
        self.text_line(line)
        return i + 1


def _skip_block(lines: list[str], i: int, first: str) -> int:
    """Skip a false ``\\{ … \\}`` block that opens on line ``i``; return the next line index."""
    depth = 1 + first.count("\\{") - first.count("\\}")
    j = i + 1
    limit = min(len(lines), i + _MAX_SKIP)
    while depth > 0 and j < limit:
        depth += lines[j].count("\\{") - lines[j].count("\\}")
        j += 1
    return j if depth <= 0 else i + 1  # unbalanced: do not skip


def parse(text: str) -> tuple[str, list[Heading], str | None]:
    """Return (rendered text, .SH/.SS heading marks, ``NAME(SECTION)`` from ``.TH``)."""
    lines = text.split("\n")
    man = _Man()
    i, n = 0, len(lines)
    while i < n:
        i = man.line(lines[i], lines, i)
    return man.out.text(), man.out.headings, man.title
