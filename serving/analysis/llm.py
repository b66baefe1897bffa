"""Query analysis with the LLM (one call): intent, complexity, rephrasings and keyword expansions,
a HyDE passage and a route recommendation. :func:`serving.analysis.analyzer.analyse_query` merges
the hints into the rule-based plan; if the call fails or times out, the rule-based path stands alone.

>>> hints = LLMHints(intent="factual", complexity="simple", rephrasings=["epoll edge mode", "focos"],
...                  keywords=["EPOLLET"], hypothetical_passage="", route="hybrid")
>>> hints.variant_texts("Which epoll flag gives edge-triggered mode?")
[('epoll edge mode', 'llm-rephrasing'), ('EPOLLET', 'llm-keywords')]
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from serving.llm.forms import parse_form, schema_of
from serving.llm.messages import defuse

Intent = Literal["factual", "procedural", "definition", "comparison", "troubleshooting", "overview", "other"]
Complexity = Literal["simple", "multi_part", "broad"]
Route = Literal["lexical", "hybrid", "hybrid+awareness"]

ANALYSIS_SYSTEM = (
    "You analyse search questions for a technical documentation search engine. Classify the question, "
    "rewrite it in up to 2 other ways, list keywords a relevant passage would contain, write a short "
    "hypothetical passage that would answer it, and recommend a route: 'lexical' for exact identifiers, "
    "error codes or names; 'hybrid+awareness' for questions spanning several sections or documents "
    "(comparisons, overviews, multi-part questions); otherwise 'hybrid'. Reply with JSON only."
)


class AnalysisForm(BaseModel):
    """One LLM call analysing a question: intent, complexity, rephrasings, HyDE passage, route."""

    intent: Intent
    complexity: Complexity
    rephrasings: list[Annotated[str, StringConstraints(max_length=160)]] = Field(
        max_length=2, description="other ways to ask the same question")
    keywords: list[Annotated[str, StringConstraints(max_length=40)]] = Field(
        max_length=6, description="expansions: terms a relevant passage would contain")
    hypothetical_passage: str = Field(max_length=400, description="a short passage that would answer the question")
    route: Route


def analysis_messages(question: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": ANALYSIS_SYSTEM},
            {"role": "user", "content": f"<question>{defuse(question.strip())}</question>"}]


_WORD = re.compile(r"[a-z0-9_]{3,}")
_COMMON = frozenset("the and for with what which how does that this from are can why when where who".split())


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _COMMON}


@dataclass
class LLMHints:
    intent: str
    complexity: str
    rephrasings: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    hypothetical_passage: str = ""
    route: str | None = None
    usage: dict[str, int] = field(default_factory=dict)

    def variant_texts(self, question: str | None = None) -> list[tuple[str, str]]:
        """(text, kind) of the extra searches the hints ask for; with ``question``, rephrasings and the
        HyDE passage must share a content word with it, and keywords count only when something else
        did (a small model's off-topic output is not searched)."""
        out = [(r.strip(), "llm-rephrasing") for r in self.rephrasings if r.strip()]
        if self.keywords:
            out.append((" ".join(k.strip() for k in self.keywords if k.strip()), "llm-keywords"))
        if self.hypothetical_passage.strip():
            out.append((self.hypothetical_passage.strip(), "llm-hyde"))
        if question is not None:  # keywords stay when the rest of the analysis is on topic
            anchor = _words(question)
            on_topic = [(t, k) for t, k in out if k != "llm-keywords" and _words(t) & anchor]
            out = [(t, k) for t, k in out if (t, k) in on_topic or (k == "llm-keywords" and on_topic)]
        return [(t, k) for t, k in out if t]


async def analyse_with_llm(question: str, llm, *, timeout_s: float = 60.0, max_tokens: int = 220) -> LLMHints:
    """Ask the verifier model to analyse ``question`` (raises on failure; callers fall back)."""

    async def run():
        last = None
        async for event in llm.stream("verifier", analysis_messages(question), max_tokens=max_tokens,
                                      temperature=0.0, schema=schema_of(AnalysisForm)):
            last = event
        return last

    last = await asyncio.wait_for(run(), timeout=timeout_s)
    form = parse_form(AnalysisForm, last.text)
    return LLMHints(intent=form.intent, complexity=form.complexity, rephrasings=form.rephrasings[:3],
                    keywords=form.keywords[:8], hypothetical_passage=form.hypothetical_passage, route=form.route,
                    usage={"prompt_tokens": last.prompt_tokens, "completion_tokens": last.completion_tokens})
