"""Perl POD (``.pod`` files and the POD blocks of ``.pm``/``.pl`` code): ``=headN`` headings,
formatting codes rendered, other commands and non-text ``=begin`` blocks dropped.

>>> src = "package X;\\n=head1 NAME\\n\\nX - do B<things> with C<< $a->b >>\\n\\n=cut\\nsub f {}\\n"
>>> text, heads, title = parse(src)
>>> text, [(h.level, h.title) for h in heads], title
('NAME\\nX - do things with $a->b', [(1, 'NAME')], 'X - do things with $a->b')
"""

from __future__ import annotations

import html
import re

from pipelines.parse.document import Heading
from pipelines.parse.sections import LineBuilder

__all__ = ["parse", "render_codes"]

_CMD = re.compile(r"=([a-zA-Z]\w*)[ \t]*(.*)", re.S)
_SPACE = re.compile(r"\s+")
_TOK = re.compile(r"([A-Z])(<+)|>+")
_ENTITIES = {"lt": "<", "gt": ">", "verbar": "|", "sol": "/", "quot": '"', "amp": "&",
             "apos": "'", "nbsp": "\u00a0"}
_TEXT_FORMATS = frozenset({"text", "plain", "txt"})
_BULLETS = frozenset({"*", "-", "+", "o", "\u2022"})


def _entity(name: str) -> str:
    name = name.strip()
    if name in _ENTITIES:
        return _ENTITIES[name]
    try:
        if name[:2].lower() == "0x":
            return chr(int(name[2:], 16))
        if name[:1] == "0" and len(name) > 1:
            return chr(int(name, 8))
        if name.isdigit():
            return chr(int(name))
    except (ValueError, OverflowError):
        return ""
    out = html.unescape(f"&{name};")
    return "" if out.startswith("&") else out


def _link(content: str) -> str:
    text, sep, target = content.partition("|")
    if sep:
        return text.strip()
    t = content.strip()
    if "://" in t or t.startswith("mailto:") or "/" not in t:
        return t
    name, _, section = t.partition("/")
    section = section.strip().strip('"')
    return f'"{section}" in {name}' if name.strip() else f'"{section}"'


def _finish(code: str, content: str) -> str:
    if code in "XZ":
        return ""
    if code == "E":
        return _entity(content)
    if code == "L":
        return _link(content)
    return content


def render_codes(s: str) -> str:
    """Render POD formatting codes (``B<>``, ``C<< >>``, ``L<text|target>``, ``E<lt>`` …)."""
    if "<" not in s:
        return s
    stack: list[tuple[str, int, list[str]]] = []  # (code letter, bracket count, parts)
    parts: list[str] = []
    pos = 0
    for m in _TOK.finditer(s):
        if m.start() < pos:
            continue  # inside whitespace consumed after a multi-bracket opener
        cur = stack[-1][2] if stack else parts
        cur.append(s[pos : m.start()])
        pos = m.end()
        if m.group(1):
            n = len(m.group(2))
            if n > 1:
                ws = _SPACE.match(s, pos)
                if ws:
                    pos = ws.end()
                else:  # "C<<x>>" without spaces: one bracket, the rest is literal
                    stack.append((m.group(1), 1, ["<" * (n - 1)]))
                    continue
            stack.append((m.group(1), n, []))
            continue
        k = len(m.group(0))
        while k and stack:
            code, n, frame = stack[-1]
            if n > 1:
                last = frame[-1] if frame else ""
                if k < n or not last[-1:].isspace():
                    break
                frame[-1] = last.rstrip()
            stack.pop()
            k -= n
            (stack[-1][2] if stack else parts).append(_finish(code, "".join(frame)))
        if k:
            (stack[-1][2] if stack else parts).append(">" * k)
    (stack[-1][2] if stack else parts).append(s[pos:])
    while stack:  # unclosed codes: keep their content
        code, _, frame = stack.pop()
        (stack[-1][2] if stack else parts).append(_finish(code, "".join(frame)))
    return "".join(parts)


class _Pod:
    def __init__(self) -> None:
        self.out = LineBuilder()
        self.title: str | None = None
        self.want_title = False
        self.skip: list[str] = []  # formats of enclosing non-text =begin blocks
        self.prefix = ""

    def paragraph(self, lines: list[str]) -> None:
        first = lines[0]
        if first.startswith("=") and len(first) > 1 and first[1].isalpha():
            m = _CMD.match("\n".join(lines))
            if m:
                self.command(m.group(1), m.group(2).strip())
            return
        if self.skip:
            return
        if first[:1] in (" ", "\t"):
            self.out.blank()
            for ln in lines:
                self.out.line(ln)
            self.out.blank()
            return
        text = render_codes("\n".join(lines))
        if self.want_title:
            self.want_title = False
            self.title = text.strip().split("\n")[0].strip() or None
        if self.prefix:
            text, self.prefix = self.prefix + text, ""
        for ln in text.split("\n"):
            self.out.line(ln)
        self.out.blank()

    def command(self, cmd: str, arg: str) -> None:
        if cmd == "begin":
            fmt = arg.split()[0] if arg.split() else ""
            if self.skip or not (fmt.startswith(":") or fmt.lower() in _TEXT_FORMATS):
                self.skip.append(fmt)
            return
        if cmd == "end":
            if self.skip:
                self.skip.pop()
            return
        if self.skip:
            return
        if cmd.startswith("head") and cmd[4:].isdigit():
            title = render_codes(arg).strip()
            self.out.heading(min(int(cmd[4:]), 6) if int(cmd[4:]) > 0 else 1, title)
            self.want_title = self.title is None and title.upper() == "NAME"
            self.prefix = ""
        elif cmd == "item":
            label = render_codes(arg).strip()
            if label in _BULLETS or not label:
                self.prefix = "\u2022 "
            elif re.fullmatch(r"\d+\.?", label):
                self.prefix = label.rstrip(".") + ". "
            else:
                self.prefix = ""
                self.out.blank()
                self.out.line(label if not label.startswith("* ") else "\u2022 " + label[2:])
        # =pod =cut =over =back =for =encoding and unknown commands: dropped


def parse(text: str) -> tuple[str, list[Heading], str | None]:
    """Return (rendered POD text, ``=headN`` marks, first line of the NAME section)."""
    pod = _Pod()
    in_pod = False
    para: list[str] = []
    for line in text.split("\n"):
        if not in_pod:
            if line[:1] == "=" and line[1:2].isalpha() and not line.startswith("=cut"):
                in_pod = True
            else:
                continue
        if line.startswith("=cut") and not line[4:5].isalnum():
            if para:
                pod.paragraph(para)
                para = []
            in_pod = False
            continue
        if line.strip():
            para.append(line)
        elif para:
            pod.paragraph(para)
            para = []
    if para:
        pod.paragraph(para)
    return pod.out.text().rstrip("\n"), pod.out.headings, pod.title
