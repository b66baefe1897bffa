"""Adaptive fusion on the real sample index with the shipped cross-encoder as the judge: it must lean
lexical for an exact identifier that only BM25 places well, and dense for a paraphrase whose words
BM25 matches in the wrong document; without a judge it keeps the route's prior and says so."""

from __future__ import annotations

import pytest

from serving.protocol import SearchRequest
from serving.retrieval.fusion import ADAPTIVE_SHARE_RANGE, judged_bm25_share


@pytest.fixture(scope="module")
def pipeline(sample_index):
    from serving.services.local import SearchPipeline

    cfg, _ = sample_index
    assert cfg.retrieval.fusion == "adaptive"  # the product default
    return SearchPipeline(cfg)


def _search(pipeline, query: str, mode: str = "hybrid"):
    return pipeline.search(SearchRequest(query=query, top_k=3, mode=mode, use_cache=False))


def test_an_identifier_leans_lexical(pipeline):
    response = _search(pipeline, "EPOLLONESHOT")
    assert response.route.bm25_weight > 0.55, response.route.fusion_note
    assert "cross-encoder" in response.route.fusion_note
    assert "EPOLLONESHOT" in response.hits[0].text


def test_a_paraphrase_leans_dense(pipeline):
    response = _search(pipeline, "isolate the packages of one project from another")
    assert response.route.bm25_weight < 0.45, response.route.fusion_note
    assert response.hits[0].path == "python-tutorial/venv.rst.txt"
    assert _search(pipeline, "isolate the packages of one project from another", "bm25").hits[0].path != \
        "python-tutorial/venv.rst.txt"  # BM25 alone gets it wrong: the lean matters


def test_the_route_prior_is_the_starting_point(pipeline):
    lexical = _search(pipeline, "EPOLLONESHOT", mode="auto")
    assert lexical.route.route == "lexical" and "prior 0.80" in lexical.route.fusion_note


def test_without_a_judge_the_prior_stands(sample_index):
    from serving.analysis import analyse_query
    from serving.index.view import IndexView
    from serving.retrieval.filters import ResolvedFilters
    from serving.retrieval.hybrid import HybridRetriever
    from serving.services.local import SearchPipeline

    cfg, _ = sample_index
    pipe = SearchPipeline(cfg)
    plan_response = _search(pipe, "isolate the packages of one project from another")
    plan = analyse_query(SearchRequest(query="isolate the packages of one project from another", mode="hybrid"), cfg)
    vectors = {v.text: pipe.stages.encoder.encode([v.text], tenant="default")[0] for t in plan.targets for v in t.variants}
    result = HybridRetriever(IndexView.open(cfg), judge=None).retrieve(plan, vectors, ResolvedFilters(), depth=3)
    assert result.bm25_shares == [plan.bm25_weight] and "no cross-encoder" in result.fusion_note
    assert plan_response.route.bm25_weight != plan.bm25_weight  # with the judge it moved


@pytest.mark.parametrize("bm25_top, dense_top, expected", [(3.0, 3.0, 0.5), (9.0, -9.0, ADAPTIVE_SHARE_RANGE[1]),
                                                           (-9.0, 9.0, ADAPTIVE_SHARE_RANGE[0])])
def test_judged_share_follows_the_verdict_within_bounds(bm25_top, dense_top, expected):
    assert judged_bm25_share(0.5, bm25_top, dense_top) == pytest.approx(expected)
    assert judged_bm25_share(0.5, 1.0, 0.0) > 0.5 > judged_bm25_share(0.5, 0.0, 1.0)
    assert judged_bm25_share(0.8, 0.0, 0.0) == pytest.approx(0.8)
