"""Ranking metrics: hand-computed examples and the BEIR / pytrec_eval conventions."""

from __future__ import annotations

import doctest
import math

import pytest

import offline.eval
import offline.eval.metrics as metrics
from offline.eval.metrics import (
    collapse_to_documents,
    evaluate,
    judged_queries,
    mrr_at_k,
    ndcg_at_k,
    per_query,
    recall_at_k,
)


def test_docstring_examples():
    for mod in (metrics, offline.eval):
        result = doctest.testmod(mod)
        assert result.attempted > 0 and result.failed == 0, mod.__name__


def test_graded_ndcg_by_hand():
    # judged: a=3, b=2, c=1 (d unjudged); ranking d, b, a, c
    judgments = {"a": 3, "b": 2, "c": 1}
    ranking = ["d", "b", "a", "c"]
    dcg = 0 / math.log2(2) + 2 / math.log2(3) + 3 / math.log2(4) + 1 / math.log2(5)
    idcg = 3 / math.log2(2) + 2 / math.log2(3) + 1 / math.log2(4)
    assert ndcg_at_k(ranking, judgments, 10) == pytest.approx(dcg / idcg)
    assert ndcg_at_k(ranking, judgments, 10) == pytest.approx(0.670439, abs=1e-6)  # pytrec_eval ndcg_cut_10
    # cut at 2: only d, b count; the ideal is cut at 2 as well (3, 2)
    assert ndcg_at_k(ranking, judgments, 2) == pytest.approx((2 / math.log2(3)) / (3 + 2 / math.log2(3)))


def test_gain_is_linear_not_exponential():
    # trec_eval / pytrec_eval ndcg_cut use gain = rel; 2**rel - 1 would give a different figure
    judgments = {"a": 2, "b": 1}
    linear = (1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3))
    assert ndcg_at_k(["b", "a"], judgments, 10) == pytest.approx(linear)
    assert ndcg_at_k(["b", "a"], judgments, 10) == pytest.approx(0.859719, abs=1e-6)  # pytrec_eval
    exponential = (1 + 3 / math.log2(3)) / (3 + 1 / math.log2(3))
    assert ndcg_at_k(["b", "a"], judgments, 10) != pytest.approx(exponential)


def test_ideal_counts_relevant_documents_not_retrieved():
    # one of two relevant documents retrieved at rank 1: nDCG < 1, recall 0.5
    assert ndcg_at_k(["a"], {"a": 1, "b": 1}, 10) == pytest.approx(1 / (1 + 1 / math.log2(3)))
    assert recall_at_k(["a"], {"a": 1, "b": 1}, 10) == 0.5


def test_zero_and_negative_judgments_are_not_relevant():
    judgments = {"a": 0, "b": -1, "c": 1}
    assert mrr_at_k(["a", "b", "c"], judgments, 10) == pytest.approx(1 / 3)
    assert recall_at_k(["a", "b"], judgments, 10) == 0.0
    assert ndcg_at_k(["c", "b", "a"], judgments, 10) == 1.0
    assert ndcg_at_k(["a", "b", "c"], judgments, 10) == pytest.approx(0.5)  # pytrec_eval: negatives add no loss


def test_repeated_ids_count_once():
    # "x" twice must not push "a" out of the top 2, nor be counted twice
    assert mrr_at_k(["x", "x", "a"], {"a": 1}, 2) == 0.5
    assert ndcg_at_k(["a", "a"], {"a": 1, "b": 1}, 10) == pytest.approx(1 / (1 + 1 / math.log2(3)))


def test_cutoffs():
    ranking = [f"d{i}" for i in range(150)]
    judgments = {"d5": 1, "d50": 1, "d140": 1}
    assert recall_at_k(ranking, judgments, 10) == pytest.approx(1 / 3)
    assert recall_at_k(ranking, judgments, 100) == pytest.approx(2 / 3)
    assert mrr_at_k(ranking, judgments, 10) == pytest.approx(1 / 6)
    assert mrr_at_k(ranking, judgments, 5) == 0.0
    with pytest.raises(ValueError):
        recall_at_k(ranking, judgments, 0)


def test_evaluate_averages_over_judged_queries_only():
    run = {"q1": ["a"], "q2": ["x"], "q_unjudged": ["a"]}
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}, "q4": {"a": 0}}
    # q3 is judged but missing from the run: it counts, as 0; q4 has no relevant doc: left out
    assert judged_queries(qrels) == ["q1", "q2", "q3"]
    scores = evaluate(run, qrels, ks=(10,))
    assert scores == {"ndcg@10": pytest.approx(1 / 3), "recall@10": pytest.approx(1 / 3), "mrr@10": pytest.approx(1 / 3)}
    assert set(per_query(run, qrels, ks=(10,))) == {"q1", "q2", "q3"}
    assert evaluate({}, {}, ks=(10,), metrics=("mrr",)) == {"mrr@10": 0.0}
    with pytest.raises(ValueError):
        evaluate(run, qrels, metrics=("map",))


def test_known_trec_example():
    """Figures from pytrec_eval (pytrec-eval-terrier 0.5.11: ndcg_cut_10, recall_10, recip_rank) on this run."""
    qrels = {"q1": {"d1": 2, "d2": 1, "d3": 1}, "q2": {"d7": 1}}
    run = {"q1": ["d4", "d1", "d5", "d3"], "q2": ["d7", "d8"]}
    q1_dcg = 2 / math.log2(3) + 1 / math.log2(5)
    q1_idcg = 2 + 1 / math.log2(3) + 1 / 2
    scores = evaluate(run, qrels, ks=(10,))
    assert scores["ndcg@10"] == pytest.approx((q1_dcg / q1_idcg + 1.0) / 2)
    assert scores["ndcg@10"] == pytest.approx((0.540586 + 1.0) / 2, abs=1e-6)
    assert scores["recall@10"] == pytest.approx((2 / 3 + 1) / 2)
    assert scores["mrr@10"] == pytest.approx((1 / 2 + 1) / 2)


def test_collapse_chunks_to_documents_keeps_best_rank():
    chunk_docs = ["d2", "d1", "d2", "d3", "d1"]
    assert collapse_to_documents(chunk_docs) == ["d2", "d1", "d3"]
    assert collapse_to_documents([]) == []


def test_paired_randomization_p():
    from offline.eval.metrics import paired_randomization_p

    a = {f"q{i}": 1.0 if i % 2 else 0.0 for i in range(40)}
    assert paired_randomization_p(a, dict(a)) == 1.0
    better = {q: min(1.0, v + 0.5) for q, v in a.items()}
    assert paired_randomization_p(better, a) < 0.001
    # one query differs: no evidence
    one = dict(a, q0=1.0)
    assert paired_randomization_p(one, a) > 0.5
    assert paired_randomization_p(one, a, seed=3) == paired_randomization_p(one, a, seed=3)
    with pytest.raises(ValueError):
        paired_randomization_p({"q": 1.0}, {"r": 1.0})
