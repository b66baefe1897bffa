"""Query analysis → a retrieval plan: targets, their variants, the route and fusion settings.

>>> from cluster.config import load_config
>>> from serving.protocol import SearchRequest
>>> plan = analyse_query(SearchRequest(query="compare venv and virtualenv"), load_config())
>>> plan.route, [t.text for t in plan.targets]
('hybrid+awareness', ['venv', 'virtualenv'])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cluster.config import StrataConfig
from serving.analysis.decompose import SectionRef, decompose
from serving.analysis.identifiers import find_identifiers
from serving.analysis.measure_names import spell_measure_names
from serving.analysis.period_codes import spell_period_codes
from serving.analysis.period_phrases import without_periods
from serving.analysis.router import decide_route
from serving.analysis.script import embedder_reads
from serving.analysis.variants import rephrasings
from serving.protocol import ContextRequest, SearchRequest

if TYPE_CHECKING:
    from serving.analysis.llm import LLMHints


@dataclass(frozen=True)
class Variant:
    """One text searched for a target: the target itself, a rephrasing or a keyword variant."""

    text: str
    kind: str
    weight: float


@dataclass
class TargetPlan:
    text: str
    variants: list[Variant]


@dataclass
class QueryPlan:
    """Everything later stages need to know about a query."""

    query: str
    route: str
    reasons: list[str]
    targets: list[TargetPlan]
    identifiers: list[str]
    section_refs: list[SectionRef]
    use_bm25: bool
    use_dense: bool
    fusion: str
    bm25_weight: float
    rrf_k: int
    candidates: int
    awareness: bool
    hyde: bool
    multi_query: bool
    notes: list[str] = field(default_factory=list)
    dense_rule_variants: bool = True

    def dense_variant(self, target: TargetPlan, variant: Variant) -> bool:
        """Whether ``variant`` is searched by the dense side too: the target's own text and an LLM's
        variants always; the rule-based rephrasings and keywords only with ``dense_rule_variants`` (they
        are the query's own words, which the BM25 side searches)."""
        return variant is target.variants[0] or self.dense_rule_variants or variant.kind.startswith("llm-")

    def section_searches(self) -> list[tuple[str, str]]:
        """(text, target) of each section-tier search: every target's own text and, for a decomposed question,
        the whole question (for the first target), whose sections its parts may not find."""
        searches = [(t.variants[0].text, t.text) for t in self.targets]
        if len(self.targets) > 1:
            searches.append((self.query, self.targets[0].text))
        return searches

    def texts_to_embed(self) -> list[str]:
        """Distinct texts that need a query embedding (dense retrieval and the section tier)."""
        if not (self.use_dense or self.awareness):
            return []
        texts = [v.text for t in self.targets for v in t.variants if self.dense_variant(t, v)]
        if self.awareness:
            texts += [text for text, _ in self.section_searches()]
        return list(dict.fromkeys(texts))


def analyse_query(request: SearchRequest, cfg: StrataConfig, hints: "LLMHints | None" = None, *,
                  amount: bool = False) -> QueryPlan:
    """Analyse ``request`` with the rule-based analyser (``retrieval.*`` settings as defaults).

    ``hints`` (from :func:`serving.analysis.llm.analyse_with_llm`) add the LLM's rephrasings,
    keywords and HyDE passage as variants of the first target, and its route unless a mode is forced.
    ``amount``: the question asks the amount of a financial measure (the services tell,
    :func:`serving.answer.span.asks_measure`), so the acronyms it names are spelled out in its rephrasings too
    ("R&D" as the statement's "Research and development" row says it)."""
    settings = cfg.retrieval
    query = request.query.strip()
    identifiers = find_identifiers(query)
    decomposition = decompose(query, max_targets=cfg.awareness.max_targets)
    forced = request.mode if request.mode != "auto" else (None if settings.router else "hybrid")
    decision = decide_route(query, identifiers=identifiers, n_targets=len(decomposition.targets),
                            n_section_refs=len(decomposition.section_refs), forced=forced)
    route = decision.route
    reasons = list(decision.reasons)
    if hints is not None and hints.route and not forced and hints.route != route:
        reasons.append(f"LLM analysis ({hints.intent}, {hints.complexity}) recommends {hints.route!r} "
                       f"over the rules' {route!r}")
        route = hints.route
    awareness = route == "hybrid+awareness"
    if isinstance(request, ContextRequest):  # a context pack expands by default unless lexical/forced
        awareness = request.awareness if request.awareness is not None else route in ("hybrid", "hybrid+awareness")
    multi_query = settings.multi_query if request.multi_query is None else request.multi_query
    bm25_weight = request.bm25_weight
    if bm25_weight is None:
        bm25_weight = settings.lexical_bm25_weight if route == "lexical" else settings.bm25_weight
        if route != "lexical" and not embedder_reads(cfg.models, query):
            bm25_weight = settings.foreign_script_bm25_weight
            reasons.append(f"query mostly outside the Latin script, which the embedder was not trained on: "
                           f"BM25 share {bm25_weight:g}")
    targets = []
    for text in decomposition.targets:
        variants = [Variant(text, "query" if text == query else "target", 1.0)]
        if multi_query:
            spelled = spell_period_codes(text)  # "FY2024" as a filing says it: "fiscal 2024"
            named = spell_measure_names(spelled, acronyms=amount)  # "capex" as a statement says it
            # the rephrasings carry the statement's words too: "top line" matches no line item
            variants += [Variant(v, kind, settings.variant_weight) for v, kind in rephrasings(named)]
            if spelled != text:
                variants.append(Variant(spelled, "periods", settings.variant_weight))
            if named != spelled:
                variants.append(Variant(named, "measures", settings.variant_weight))
            if (bare := without_periods(named)) != named and bare:  # what is asked, without the period every page names
                variants.append(Variant(bare, "without period", settings.variant_weight))
        targets.append(TargetPlan(text, variants))
    if decomposition.multi_target and multi_query:  # the whole question still counts, once
        targets[0].variants.append(Variant(query, "query", settings.variant_weight))
    if hints is not None:
        seen = {v.text for t in targets for v in t.variants}
        targets[0].variants += [Variant(text, kind, settings.variant_weight)
                                for text, kind in hints.variant_texts(query) if text not in seen]
    return QueryPlan(
        query=query, route=route, reasons=reasons, targets=targets, identifiers=identifiers,
        section_refs=decomposition.section_refs,
        use_bm25=route != "vector", use_dense=route != "bm25",
        fusion=request.fusion or settings.fusion, bm25_weight=bm25_weight, rrf_k=settings.rrf_k,
        candidates=request.candidates or settings.candidates, awareness=awareness,
        hyde=settings.hyde if request.hyde is None else request.hyde, multi_query=multi_query,
        dense_rule_variants=settings.dense_rule_variants,
    )
