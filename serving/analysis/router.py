"""The router: which method mix answers a query best, and why.

* ``lexical`` — BM25-led hybrid for exact identifiers, error codes, flags and paths;
* ``hybrid`` — BM25 + dense fused (the default);
* ``hybrid+awareness`` — hybrid plus the section tier and expansion, for multi-target
  questions, explicit section references and broad questions;
* ``bm25`` / ``vector`` — only when a request forces them.

>>> decide_route("EACCES", identifiers=["EACCES"], n_targets=1, n_section_refs=0).route
'lexical'
>>> decide_route("compare venv and virtualenv", identifiers=[], n_targets=2, n_section_refs=0).route
'hybrid+awareness'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_BROAD = re.compile(r"\b(overview|summar(?:y|ise|ize)|all (?:the )?(?:ways|options|steps)|list (?:all|every)|"
                    r"explain .* in detail|everything|throughout|across)\b", re.IGNORECASE)


@dataclass(frozen=True)
class RouteDecision:
    route: str
    reasons: list[str]

    @property
    def awareness(self) -> bool:
        return self.route == "hybrid+awareness"


def decide_route(query: str, *, identifiers: list[str], n_targets: int, n_section_refs: int,
                 forced: str | None = None, long_query_words: int = 24) -> RouteDecision:
    """Pick a route for ``query`` from its analysis (``forced``: a mode the request named)."""
    if forced and forced != "auto":
        return RouteDecision(forced, [f"mode {forced!r} requested"])
    words = query.split()
    reasons: list[str] = []
    if n_targets > 1:
        reasons.append(f"{n_targets} targets (multi-target question): retrieve each, add the section tier")
    if n_section_refs:
        reasons.append(f"{n_section_refs} explicit section reference(s)")
    if _BROAD.search(query):
        reasons.append("broad question: section context helps")
    if len(words) >= long_query_words:
        reasons.append(f"long question ({len(words)} words)")
    if reasons:
        return RouteDecision("hybrid+awareness", reasons)
    if identifiers:
        covered = sum(1 for w in words if any(i in w or w.strip("?.,") in i for i in identifiers))
        if len(words) <= 6 or covered / max(len(words), 1) >= 0.4:
            return RouteDecision("lexical", [f"exact identifiers {identifiers[:5]}: BM25-led"])
        reasons.append(f"identifiers {identifiers[:5]} in a natural-language question")
    return RouteDecision("hybrid", reasons or ["default: BM25 + dense fused"])
