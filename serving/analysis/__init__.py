"""Query analysis: identifiers, rule-based rephrasings, multi-target decomposition and routing.

The first stage of every query: ``query → analyse → retrieve → rerank → expand``.
"""

from serving.analysis.analyzer import QueryPlan, TargetPlan, Variant, analyse_query

__all__ = ["QueryPlan", "TargetPlan", "Variant", "analyse_query"]
