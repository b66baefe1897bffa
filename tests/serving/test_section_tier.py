"""The section tier of a decomposed question: its sections are looked for per target and for the question as a
whole, and the searches take turns (issue 50, item 4: on the long manuals' tune split, "Who first drafted Debian's
packaging rulebook, and in which year?" found its "Early history" section only as a whole question)."""

from __future__ import annotations

import numpy as np

from cluster.config import scripted_config
from serving.analysis.analyzer import analyse_query
from serving.protocol import ContextRequest
from serving.retrieval.filters import ResolvedFilters
from serving.retrieval.sections import SectionHit, SectionTier

QUESTION = "Who first drafted the packaging rulebook, and in which year?"


def _tier_over(tmp_path, found_by: dict[str, list[tuple[str, float]]]):
    """A section tier whose vector search returns, for the vector of each text, the given (section, score) list."""
    plan = analyse_query(ContextRequest(query=QUESTION), scripted_config(tmp_path))
    texts = plan.texts_to_embed()
    vectors = {text: np.full(4, i, dtype=np.float32) for i, text in enumerate(texts)}
    by_vector = {i: found_by.get(text, []) for i, text in enumerate(texts)}
    tier = SectionTier(view=None, cfg=scripted_config(tmp_path))
    tier.similar = lambda vector, *, k, filters, target: [  # noqa: E731
        SectionHit(sid, "doc", sid, sid, score, target) for sid, score in by_vector[int(vector[0])][:k]]
    return plan, texts, tier, vectors


def test_a_decomposed_question_is_embedded_and_searched_whole(tmp_path):
    plan, texts, tier, vectors = _tier_over(tmp_path, {QUESTION: [("early-history", 0.64)]})
    assert len(plan.targets) == 2 and plan.awareness
    assert QUESTION in texts  # the whole question has a vector beside its targets'
    hits = tier.search(plan, vectors, ResolvedFilters(), [])
    assert [h.section_id for h in hits] == ["early-history"]
    assert hits[0].target == plan.targets[0].text  # a whole-question section is picked from by the first target


def test_each_search_gets_its_best_section_in_before_any_second_one(tmp_path):
    first = analyse_query(ContextRequest(query=QUESTION), scripted_config(tmp_path)).targets[0].variants[0].text
    plan, _, tier, vectors = _tier_over(tmp_path, {
        first: [("helpers", 0.67), ("scope", 0.66), ("tutorial", 0.65)],
        QUESTION: [("early-history", 0.64), ("authors", 0.63)]})
    order = [h.section_id for h in tier.search(plan, vectors, ResolvedFilters(), [])]
    # by score alone the whole question's best (0.64) would come after all three of the first target's
    assert order == ["helpers", "early-history", "scope", "authors", "tutorial"]
