"""Rule-based multi-query expansion: a keyword variant, question→statement rephrasings and
identifier spellings. An LLM-based rewriter can replace these once one is configured.

>>> [v for v, _ in rephrasings("How do I create a virtual environment?")]
['create a virtual environment', 'create virtual environment']
>>> keywords("What is the difference between a list and a tuple?")
'difference list tuple'
"""

from __future__ import annotations

import re

from serving.analysis.identifiers import find_identifiers, split_identifier

STOPWORDS = frozenset("""
a about above after again against all am an and any are as at be because been before being below between both but
by can could did do does doing down during each few for from further had has have having he her here hers herself
him himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or
other our ours ourselves out over own same she should so some such than that the their theirs them themselves then
there these they this those through to too under until up very was we were what when where which while who whom why
will with would you your yours yourself yourselves please tell explain describe show give find know want need
""".split())

_WORD = re.compile(r"[\w][\w.+#-]*", re.UNICODE)
# (pattern, replacement): question forms → the statement a passage would contain.
_REPHRASE = [
    (r"^(?:how|where) (?:do|can|should|would|could) (?:i|we|you|one) (.+)$", r"\1"),
    (r"^how to (.+)$", r"\1"),
    (r"^what (?:is|are) (?:the |an? )?(?:meaning|definition) of (.+)$", r"\1 means"),
    (r"^what (?:is|are|was|were) (?:the |an? )?(.+)$", r"\1 is"),
    (r"^what does (.+) (?:mean|do)$", r"\1 means"),
    (r"^why (?:does|do|is|are|did) (.+)$", r"\1 because"),
    (r"^when (?:does|do|is|are|should) (.+)$", r"\1 when"),
    (r"^(?:is|are|can|does|do) (.+)$", r"\1"),
]


def keywords(query: str) -> str:
    """Content words of ``query`` (stopwords and question words removed), in order."""
    words = [w.strip(".") for w in _WORD.findall(query)]
    return " ".join(w for w in words if w and w.lower() not in STOPWORDS)


def rephrasings(query: str) -> list[tuple[str, str]]:
    """``(text, kind)`` variants of ``query`` other than itself: a statement form and keywords."""
    base = " ".join(query.strip().rstrip("?!.").split())
    out: list[tuple[str, str]] = []
    lowered = base.lower()
    for pattern, replacement in _REPHRASE:
        if re.match(pattern, lowered):
            statement = re.sub(pattern, replacement, lowered)
            if statement and statement != lowered:
                out.append((statement, "statement"))
            break
    kw = keywords(base)
    if kw and kw.lower() != lowered and len(kw.split()) >= 1:
        out.append((kw.lower() if out else kw, "keywords"))
    spelled = [split_identifier(t) for t in find_identifiers(query)]
    spelled = [s for s in spelled if s and s not in lowered]
    if spelled:
        out.append((" ".join([kw or base, *spelled]), "identifier_words"))
    unique: list[tuple[str, str]] = []
    seen = {lowered}
    for text, kind in out:
        if text.lower() not in seen:
            seen.add(text.lower())
            unique.append((text, kind))
    return unique
