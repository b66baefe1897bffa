"""Multi-target questions → one sub-question per target (rule-based).

"Compare X and Y", "differences between section 1 and section 89", "X vs Y", "how does X differ
from Y", several questions in one and two questions joined by "and" ("What is X, and how do I Y?")
are split so each target is retrieved on its own; a short target borrows the shared context of
the longer one.

>>> decompose("Compare how errors are reported in section 1 and section 89").targets
['how errors are reported in section 1', 'how errors are reported in section 89']
>>> decompose("What is a venv? How do I delete one?").targets
['What is a venv?', 'How do I delete one?']
>>> len(decompose("من هو مؤلف الكتاب؟ متى نشر؟").targets)  # Arabic question marks too
2
>>> decompose("What is a venv, and how do I delete one?").targets   # two questions joined by "and"
['What is a venv', 'how do I delete one']
>>> decompose("How do I read and write files?").targets, decompose("What is a venv, and why?", max_targets=1).targets
(['How do I read and write files?'], ['What is a venv, and why?'])
>>> [r.number for r in decompose("differences between section 2.1 and chapter 7").section_refs]
['2.1', '7']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_PAIR_PATTERNS = [
    r"^(?:please\s+)?(?:compare|contrast)\s+(?:the\s+)?(?P<a>.+?)\s+(?:and|with|to|against|vs\.?|versus)\s+(?P<b>.+)$",
    r"^.*?\b(?:differences?|distinctions?|similarities|similarity|relationship)\s+(?:is\s+there\s+)?between\s+(?P<a>.+?)\s+and\s+(?P<b>.+)$",
    r"^how\s+(?:does|do|is|are)\s+(?P<a>.+?)\s+(?:differ|different|compare)\s+(?:from|to|with)\s+(?P<b>.+)$",
    r"^(?P<a>.+?)\s+(?:vs\.?|versus|compared\s+(?:to|with))\s+(?P<b>.+)$",
]
_ASKS = (r"(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|does|do|did|can|could|should|must|"
         r"may|might|will|would|shall)")
# "What is X, and how do I Y?": two questions joined by "and"/"but"/";" — each clause starts with a question word
_PIED = r"(?:(?:in|on|at|for|from|to|with|by|of|under)\s+)?"  # "… and in which version …"
_COMPOUND = re.compile(rf"^(?P<a>{_PIED}{_ASKS}\b.+?)(?:,\s*|;\s*|\s+)(?:and|but)\s+(?:also\s+)?"
                       rf"(?P<b>{_PIED}{_ASKS}\b.+)$", re.IGNORECASE)
_ORDINAL_REF = re.compile(r"\b(first|second|third|fourth|fifth|last|final)\s+(section|chapter|part)\b", re.IGNORECASE)
_ORDINALS = {"first": "1", "second": "2", "third": "3", "fourth": "4", "fifth": "5", "last": "-1", "final": "-1"}
_SECTION_REF = re.compile(r"\b(section|chapter|part|appendix|§)\s*(\d+(?:\.\d+)*|[IVXLC]+\b|[A-Z]\b)", re.IGNORECASE)


@dataclass(frozen=True)
class SectionRef:
    """An explicit reference such as "section 89" or "chapter 2.1"."""

    label: str
    number: str


@dataclass
class Decomposition:
    targets: list[str]
    kind: str = "single"  # single | comparison | multi_question
    section_refs: list[SectionRef] = field(default_factory=list)

    @property
    def multi_target(self) -> bool:
        return len(self.targets) > 1


def _clean(text: str) -> str:
    return " ".join(text.strip().rstrip("?.!").split())


def _split_list(text: str) -> list[str]:
    """"a, b and c" → [a, b, c] (only comma lists: "reading and writing files" stays whole)."""
    if "," not in text:
        return [text]
    parts = [p for p in re.split(r",\s*(?:and\s+)?|\s+and\s+", text) if p.strip()]
    return parts if len(parts) > 1 else [text]


_PREPOSITION = re.compile(r"^(?P<head>.+\b(?:in|of|for|on|from|with|under|within|inside|about))\s+(?P<tail>.+)$",
                          re.IGNORECASE)


def _borrow_context(a: str, b: str) -> str:
    """"errors in section 1" + "section 89" → "errors in section 89": a short ``b`` takes the
    head of ``a`` up to its last preposition when ``a``'s tail is about as long as ``b``."""
    match = _PREPOSITION.match(a)
    if match and len(b.split()) <= 3 and abs(len(match.group("tail").split()) - len(b.split())) <= 1:
        return f"{match.group('head')} {b}"
    return b


def section_refs(query: str) -> list[SectionRef]:
    refs: list[SectionRef] = []
    for match in _SECTION_REF.finditer(query):
        ref = SectionRef(label=f"{match.group(1).lower()} {match.group(2)}", number=match.group(2))
        if ref not in refs:
            refs.append(ref)
    for match in _ORDINAL_REF.finditer(query):
        ref = SectionRef(label=f"{match.group(1).lower()} {match.group(2).lower()}", number=_ORDINALS[match.group(1).lower()])
        if ref not in refs:
            refs.append(ref)
    return refs


#: A question mark that ends a question: written against a word, then a space or the end; or standing alone
#: before the end or a word that is not lower case ("What is epoll ? What is inotify ?"). Otherwise one standing
#: alone or quoted is the character itself ("a literal * or ? in a pattern", "what does `?` match"), and one
#: inside a word is part of it ("file?.txt").
_QUESTION_END = re.compile(r"(?<=[^\s\"'`“‘(\[])[?؟]+(?=\s|$)|(?<=\s)[?؟]+(?=\s*$|\s+(?![a-z]))")


def questions_of(text: str) -> list[str]:
    """The questions of ``text``, each up to its question mark (Latin or Arabic); text after the last one is left
    out, and so is a "question" of one word.

    >>> questions_of("What is epoll? when was it added?")
    ['What is epoll?', 'when was it added?']
    >>> questions_of("How do I match a literal * or ? in a wildcard pattern?"), questions_of("What is A ? What is B ?")
    (['How do I match a literal * or ? in a wildcard pattern?'], ['What is A ?', 'What is B ?'])
    """
    found, start = [], 0
    for mark in _QUESTION_END.finditer(text):
        found.append(text[start: mark.end()].strip())
        start = mark.end()
    return [q for q in found if len(q.split()) >= 2]


def question_end(text: str) -> int:
    """Where the last question of ``text`` ends (after its question mark), or -1 when none does.

    >>> question_end("What was the capex for 3M? Use the cash flow statement."), question_end("Match ? in a glob")
    (26, -1)
    """
    return max((mark.end() for mark in _QUESTION_END.finditer(text)), default=-1)


def decompose(query: str, *, max_targets: int = 4) -> Decomposition:
    """Split ``query`` into targets (at most ``max_targets``; 1 = never split); a plain question has one target."""
    refs = section_refs(query)
    if max_targets <= 1:
        return Decomposition(targets=[query.strip()], section_refs=refs)
    questions = questions_of(query)
    if len(questions) > 1:
        return Decomposition(targets=questions[:max_targets], kind="multi_question", section_refs=refs)
    cleaned = _clean(query)
    compound = _COMPOUND.match(cleaned)
    if compound and min(len(compound.group("a").split()), len(compound.group("b").split())) >= 3:
        return Decomposition(targets=[compound.group("a"), compound.group("b")][:max_targets], kind="multi_question",
                             section_refs=refs)
    for pattern in _PAIR_PATTERNS:
        match = re.match(pattern, cleaned, flags=re.IGNORECASE)
        if not match:
            continue
        if pattern == _PAIR_PATTERNS[-1] and (len(match.group("a").split()) > 5 or len(match.group("b").split()) > 5):
            continue  # "men are more susceptible … compared with women" is one claim, not two targets
        firsts = _split_list(match.group("a"))
        rest = _split_list(match.group("b"))
        head = firsts[0]
        targets = [head] + [_borrow_context(head, t) for t in firsts[1:] + rest]
        targets = [t for t in dict.fromkeys(_clean(t) for t in targets) if t]
        if len(targets) > 1:
            return Decomposition(targets=targets[:max_targets], kind="comparison", section_refs=refs)
    return Decomposition(targets=[query.strip()], section_refs=refs)
