"""Query analysis with the LLM (one call): intent, complexity, rephrasings and keyword expansions,
a HyDE passage and a route recommendation. :func:`serving.analysis.analyzer.analyse_query` merges
the hints into the rule-based plan; if the call fails or times out, the rule-based path stands alone.

>>> LLMHints(intent="factual", complexity="simple", rephrasings=["a"], keywords=["b"],
...          hypothetical_passage="c", route="hybrid").variant_texts()
[('a', 'llm-rephrasing'), ('b', 'llm-keywords'), ('c', 'llm-hyde')]
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from serving.answer.forms import AnalysisForm, parse_form, schema_of
from serving.answer.prompts import analysis_messages


@dataclass
class LLMHints:
    intent: str
    complexity: str
    rephrasings: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    hypothetical_passage: str = ""
    route: str | None = None
    usage: dict[str, int] = field(default_factory=dict)

    def variant_texts(self) -> list[tuple[str, str]]:
        """(text, kind) of the extra searches the hints ask for."""
        out = [(r.strip(), "llm-rephrasing") for r in self.rephrasings if r.strip()]
        if self.keywords:
            out.append((" ".join(k.strip() for k in self.keywords if k.strip()), "llm-keywords"))
        if self.hypothetical_passage.strip():
            out.append((self.hypothetical_passage.strip(), "llm-hyde"))
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
