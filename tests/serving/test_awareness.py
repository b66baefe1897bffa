"""Awareness expansion on real multi-section documents of the sample corpus.

Each question has two halves in distant sections of one document; the second half is outside
the plain hybrid top-k context pack, and awareness (decomposition + section tier + expansion)
brings it in at the same token budget.
"""

from __future__ import annotations

import pytest

from serving.protocol import ContextRequest, SearchRequest

BUDGET = 700
CASES = [
    # (question, evidence of the first half, evidence of the second half) as (path, section path) pieces
    # (epoll's "Compare edge-triggered mode and the epoll_wait example" was one until chunker v7: since a section's
    # small last chunk is balanced with the one before, the plain top-k pack holds the example.)
    ("Compare keyword arguments and the recap in the control flow tutorial",
     ("python-tutorial/controlflow", "Keyword Arguments"), ("python-tutorial/controlflow", "Recap")),
    ("How does a futex wait operation differ from the futex history in Linux?",
     ("man7/futex", ""), ("man7/futex", "VERSIONS")),
    ("What is the difference between the first section and the last section of the glob manual?",
     ("man7/glob", "NAME"), ("man7/glob", "SEE ALSO")),
]


@pytest.fixture(scope="module")
def pipeline(sample_index):
    from serving.services.local import SearchPipeline

    cfg, _ = sample_index
    return SearchPipeline(cfg)


def _has(passages, evidence) -> bool:
    path, section = evidence
    return any(p.path.startswith(path) and section in p.section_path for p in passages)


@pytest.mark.parametrize("question, first, second", CASES, ids=["controlflow", "futex", "glob-sections"])
def test_awareness_brings_in_the_second_half(pipeline, question, first, second):
    plain = pipeline.context(ContextRequest(query=question, top_k=3, budget_tokens=BUDGET, mode="hybrid",
                                            awareness=False, use_cache=False))
    aware = pipeline.context(ContextRequest(query=question, top_k=3, budget_tokens=BUDGET, use_cache=False))
    assert not _has(plain.passages, second), "the case must be hard: plain top-k already has the second half"
    assert aware.route.route == "hybrid+awareness" and len(aware.route.targets) == 2
    assert _has(aware.passages, first) and _has(aware.passages, second), [
        (p.path, p.section_path) for p in aware.passages]
    assert aware.used_tokens <= BUDGET and plain.used_tokens <= BUDGET


def test_context_pack_is_deduplicated_ordered_and_explained(pipeline):
    response = pipeline.context(ContextRequest(query="Compare raising exceptions and defining clean-up actions",
                                               top_k=4, budget_tokens=1500, use_cache=False))
    chunk_ids = [c for p in response.passages for c in p.chunk_ids]
    assert len(chunk_ids) == len(set(chunk_ids)), "a chunk appears twice"
    assert all(p.reasons for p in response.passages)
    kinds = {r.kind for p in response.passages for r in p.reasons}
    assert "direct" in kinds and kinds & {"neighbour", "parent", "sibling", "section_tier"}
    by_doc: dict[str, list[int]] = {}
    for p in response.passages:
        by_doc.setdefault(p.doc_id, []).append(p.start)
    assert all(starts == sorted(starts) for starts in by_doc.values()), "passages not in document order"
    docs_in_order = [p.doc_id for p in response.passages]
    assert docs_in_order == sorted(docs_in_order, key=docs_in_order.index), "a document's passages are split"
    for p in response.passages:  # merged spans keep the document's text exactly (no doubled overlap)
        if len(p.chunk_ids) > 1:
            assert p.n_tokens < sum(1 for _ in p.chunk_ids) * 260
    assert response.used_tokens <= 1500


@pytest.fixture(scope="module")
def pipeline_without_fill(sample_index):
    """The defaults but ``awareness.fill_with_hits`` off: a pack of the top_k hits and their expansion only."""
    from serving.services.local import SearchPipeline

    cfg, _ = sample_index
    return SearchPipeline(cfg.model_copy(update={"awareness": cfg.awareness.model_copy(update={"fill_with_hits": False})}))


@pytest.mark.parametrize("mode", ["window", "heading", "section"])
def test_expansion_modes(pipeline_without_fill, mode):
    pipeline = pipeline_without_fill  # hits below top_k would merge with the neighbours they touch
    response = pipeline.context(ContextRequest(query="How do I handle exceptions with try and except?", top_k=1,
                                               budget_tokens=1200, expansion=mode, window=1, use_cache=False))
    direct = [p for p in response.passages if any(r.kind == "direct" for r in p.reasons)]
    assert direct
    expanded = [r for p in response.passages for r in p.reasons if r.kind in ("neighbour", "section")]
    assert expanded, "the hit was not expanded"
    if mode in ("heading", "section"):
        hit_section = direct[0].section_id
        chunk_passages = [p for p in response.passages if p.chunk_ids]
        assert all(p.section_id == hit_section for p in chunk_passages if any(r.kind in ("neighbour", "section")
                                                                                  for r in p.reasons))


def test_room_left_goes_to_the_hits_below_top_k(pipeline, pipeline_without_fill):
    """With awareness, the room the top_k hits and their expansion leave is filled with the next hits in rank order,
    whole; the pack without the fill is a part of the pack with it."""
    request = ContextRequest(query="How do I handle exceptions with try and except?", top_k=2, budget_tokens=2500,
                             use_cache=False)
    filled, unfilled = pipeline.context(request), pipeline_without_fill.context(request)
    ranked = [h.chunk_id for h in pipeline.search(SearchRequest(query=request.query, top_k=60, use_cache=False)).hits]
    before = {c for p in unfilled.passages for c in p.chunk_ids}
    after = {c for p in filled.passages for c in p.chunk_ids}
    added = after - before
    assert before <= after and added, (sorted(before), sorted(after))
    assert all(c in ranked[2:] for c in added), "a chunk added by the fill is not a hit ranked below top_k"
    assert filled.used_tokens > unfilled.used_tokens and filled.used_tokens <= 2500
    assert filled.used_tokens >= 2500 - max(p.n_tokens for p in filled.passages), "room a whole hit would fit is left"


def test_search_reports_route_stage_scores_and_timings(pipeline):
    response = pipeline.search(SearchRequest(query="How do I handle exceptions with try and except?", top_k=5,
                                             use_cache=False))
    assert response.route.route == "hybrid" and response.route.rerank is False and response.route.rerank_note
    hit = response.hits[0]
    assert hit.path.endswith("errors.rst.txt")
    assert {"bm25", "dense", "fused"} <= set(hit.scores) and hit.ranks["fused"] == 1
    assert {"analyse", "embed", "bm25", "dense", "fuse", "total"} <= set(response.timings_ms)
    assert response.candidates["bm25"] > 0 and response.candidates["dense"] > 0


def test_lexical_route_finds_identifiers(pipeline):
    response = pipeline.search(SearchRequest(query="EPOLLONESHOT", top_k=3, use_cache=False))
    assert response.route.route == "lexical"
    assert response.hits[0].path.startswith("man7/epoll") and "EPOLLONESHOT" in response.hits[0].text


def test_filters_restrict_to_documents_and_section_subtrees(pipeline, sample_index):
    first = pipeline.search(SearchRequest(query="exceptions", top_k=3, mode="hybrid", use_cache=False)).hits[0]
    other = pipeline.search(SearchRequest(query="exceptions", top_k=10, mode="hybrid", use_cache=False,
                                          filters={"doc_ids": ["0" * 16, first.doc_id]})).hits
    assert other and {h.doc_id for h in other} == {first.doc_id}
    by_source = pipeline.search(SearchRequest(query="exceptions", top_k=5, use_cache=False,
                                              filters={"sources": ["no-such-source"]}))
    assert by_source.hits == []
    view = pipeline.stages.index.get("default")
    section = view.sections_by_id([first.section_id])[first.section_id]
    parent = section["parent_id"]
    within = pipeline.search(SearchRequest(query="exceptions", top_k=20, mode="hybrid", use_cache=False,
                                           filters={"section_id": parent})).hits
    allowed = {parent} | {s["section_id"] for s in view.children_of([parent])}
    allowed |= {s["section_id"] for s in view.children_of(list(allowed))}
    assert within and all(h.section_id in allowed for h in within)


def test_hyde_and_linear_fusion_run(pipeline):
    response = pipeline.search(SearchRequest(query="How do I handle exceptions with try and except?", top_k=5,
                                             hyde=True, fusion="linear", use_cache=False))
    assert response.route.hyde and "pseudo-relevance" in response.route.hyde
    assert response.route.fusion == "linear"
    assert any("hyde" in h.scores for h in response.hits)
    assert response.hits[0].path.endswith("errors.rst.txt")
