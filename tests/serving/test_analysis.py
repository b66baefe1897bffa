"""Query analysis, routing, fusion, packing and request limits (pure functions, no Ray)."""

from __future__ import annotations

import doctest
import importlib

import pytest
from pydantic import ValidationError

from cluster.config import load_config
from serving.analysis import analyse_query
from serving.analysis.decompose import decompose
from serving.analysis.identifiers import find_identifiers
from serving.analysis.variants import rephrasings
from serving.expansion.packing import Piece, pack
from serving.protocol import ContextRequest, LimitError, SearchRequest, check_limits
from serving.retrieval.fusion import linear, rrf

MODULES = ["serving.analysis.identifiers", "serving.analysis.variants", "serving.analysis.decompose",
           "serving.analysis.router", "serving.analysis.analyzer", "serving.retrieval.fusion",
           "serving.retrieval.filters", "serving.expansion.packing", "serving.cache", "serving.protocol",
           "serving.api.api_router", "serving.analysis.script"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0


@pytest.mark.parametrize("query, expected", [
    ("EACCES", ["EACCES"]),
    ("what does --no-deps do", ["--no-deps"]),
    ("os.path.join on /etc/hosts", ["os.path.join", "/etc/hosts"]),
    ("ModuleNotFoundError when importing", ["ModuleNotFoundError"]),
    ("error E0502 in rustc", ["E0502"]),
    ("how do I create a virtual environment", []),
    ("Globex FY2024 capex FY24 CY2023", []),  # period codes are periods, read by both retrievers
])
def test_identifiers(query, expected):
    assert find_identifiers(query) == expected


@pytest.mark.parametrize("query, route", [
    ("EPOLLET", "lexical"),
    ("ERR_CONNECTION_REFUSED", "lexical"),
    ("how do I create a virtual environment", "hybrid"),
    ("Globex FY2024 capex", "hybrid"),
    ("compare tuples and lists", "hybrid+awareness"),
    ("differences between section 1 and section 89", "hybrid+awareness"),
    ("give me an overview of transactions", "hybrid+awareness"),
])
def test_router(query, route):
    plan = analyse_query(SearchRequest(query=query), load_config())
    assert plan.route == route, plan.reasons
    assert plan.reasons


def test_forced_mode_and_router_off():
    cfg = load_config()
    assert analyse_query(SearchRequest(query="EPOLLET", mode="vector"), cfg).route == "vector"
    cfg.retrieval.router = False
    assert analyse_query(SearchRequest(query="compare a and b"), cfg).route == "hybrid"


def test_lexical_route_leans_on_bm25():
    cfg = load_config()
    plan = analyse_query(SearchRequest(query="EPOLLET"), cfg)
    assert plan.bm25_weight == cfg.retrieval.lexical_bm25_weight > cfg.retrieval.bm25_weight


def test_a_query_the_english_embedder_cannot_read_leans_on_bm25(tmp_path, installed_models):
    """MiniLM (the default, not multilingual) embeds Arabic to vectors that find almost nothing: an Arabic query
    gets retrieval.foreign_script_bm25_weight, with the reason in the route info; English queries, queries
    that force a weight, and a multilingual embedder keep the configured weights."""
    from support import embedder_variant

    cfg = load_config()
    arabic = analyse_query(SearchRequest(query="كم يبلغ عدد سكان مكة؟"), cfg)
    assert arabic.bm25_weight == cfg.retrieval.foreign_script_bm25_weight != cfg.retrieval.bm25_weight
    assert any("Latin script" in r for r in arabic.reasons), arabic.reasons
    assert analyse_query(SearchRequest(query="How many people live in Mecca?"), cfg).bm25_weight == cfg.retrieval.bm25_weight
    forced = analyse_query(SearchRequest(query="كم يبلغ عدد سكان مكة؟", bm25_weight=0.2), cfg)
    assert forced.bm25_weight == 0.2
    multilingual = load_config(models={"embedder_dir": str(embedder_variant(tmp_path / "m", multilingual=True))})
    assert analyse_query(SearchRequest(query="كم يبلغ عدد سكان مكة؟"), multilingual).bm25_weight == cfg.retrieval.bm25_weight


def test_decomposition():
    assert decompose("differences between section 1 and section 89").targets == ["section 1", "section 89"]
    d = decompose("Compare the error handling in Python and Perl")
    assert d.targets == ["error handling in Python", "error handling in Perl"] and d.kind == "comparison"
    assert decompose("tuples vs lists").targets == ["tuples", "lists"]
    assert decompose("how do I read a file").targets == ["how do I read a file"]
    assert [r.number for r in decompose("the first section and the last section").section_refs] == ["1", "-1"]
    assert len(decompose("compare a, b, c, d, e and f", max_targets=4).targets) == 4


def test_rephrasings_are_distinct_from_the_query():
    variants = rephrasings("What is a virtual environment?")
    texts = [t for t, _ in variants]
    assert "a virtual environment is" in texts or "virtual environment is" in texts
    assert all(t.lower() != "what is a virtual environment" for t in texts)
    assert rephrasings("EPOLLET") == []


def test_an_analysts_name_for_a_measure_is_also_searched_as_a_statement_writes_it():
    """ "capex" and "top line" are searched as "capital expenditures" and "net sales" too (a filing's rows); a
    question without such a name, and an acronym reports print themselves (SG&A), get no such variant."""
    cfg = load_config()
    plan = analyse_query(SearchRequest(query="What was Northwind's FY2023 capex?"), cfg)
    measures = [v.text for v in plan.targets[0].variants if v.kind == "measures"]
    assert measures == ["What was Northwind's fiscal 2023 capital expenditures purchases of property and equipment?"]
    for query in ("What does the top command show?", "What defines competitive advantage in SG&A functions?"):
        assert not [v for v in analyse_query(SearchRequest(query=query), cfg).targets[0].variants if v.kind == "measures"]


def test_the_rephrasings_of_a_question_naming_a_measure_use_the_statements_words():
    """The statement and keyword rephrasings are made from the spelled question: "top line" matches no line item,
    and rephrasings that kept it outweighed the one variant with "net sales" (a 10-Q's boilerplate about "the quarter
    ended September 30, 2025" ranked above its net sales rows)."""
    plan = analyse_query(SearchRequest(query="What was Halberd's top line for the quarter ended September 30, 2025?"),
                         load_config())
    variants = plan.targets[0].variants
    assert variants[0].text.startswith("What was Halberd's top line")  # the question itself is searched as asked
    rephrased = [v.text for v in variants if v.kind in ("statement", "keywords")]
    assert rephrased and all("net sales" in t and "top line" not in t for t in rephrased)


def test_a_question_asking_an_amount_spells_its_measures_acronym_in_its_rephrasings():
    """A statement prints "Depreciation and amortization", not "D&A": a question asking the amount (the search
    service tells, ``amount=``) is also searched with the acronym spelled out; the question itself as typed. One
    that does not ask an amount keeps the acronym ("SG&A functions" is how a business report says it)."""
    cfg = load_config()
    question = "How much D&A did Northwind Precision Instruments record in 2024?"
    variants = analyse_query(SearchRequest(query=question), cfg, amount=True).targets[0].variants
    assert variants[0].text == question
    assert any("depreciation and amortization" in v.text for v in variants[1:])
    plain = analyse_query(SearchRequest(query=question), cfg).targets[0].variants
    assert not any("depreciation" in v.text for v in plain)


def test_a_question_naming_a_reporting_period_is_also_searched_without_it():
    """Every page of a 10-Q names its quarter, so "for the quarter ended September 30, 2025" matches them all and the
    words of what is asked weigh little: the question is also searched without its period (the query itself keeps
    it). A year alone, or a question that asks for the period, keeps its words."""
    cfg = load_config()
    plan = analyse_query(SearchRequest(query="What was Halberd's top line for the quarter ended September 30, 2025?"), cfg)
    bare = [v for v in plan.targets[0].variants if v.kind == "without period"]
    assert [v.text for v in bare] == ["What was Halberd's revenue net sales?"]
    for query in ("Who won the World Cup in 1998?", "In which fiscal quarter did the plan start?"):
        assert not [v for v in analyse_query(SearchRequest(query=query), cfg).targets[0].variants
                    if v.kind == "without period"]


def test_multi_query_can_be_switched_off():
    cfg = load_config()
    plan = analyse_query(SearchRequest(query="How do I create a venv?", multi_query=False), cfg)
    assert [len(t.variants) for t in plan.targets] == [1]
    plan = analyse_query(SearchRequest(query="How do I create a venv?"), cfg)
    assert len(plan.targets[0].variants) > 1


def test_context_requests_expand_unless_lexical():
    cfg = load_config()
    assert analyse_query(ContextRequest(query="how do I create a venv"), cfg).awareness
    assert not analyse_query(ContextRequest(query="EPOLLET"), cfg).awareness
    assert not analyse_query(ContextRequest(query="how do I create a venv", awareness=False), cfg).awareness


def test_fusion():
    fused = dict(rrf([["a", "b"], ["b", "c"]], k=60, weights=[1.0, 3.0]))
    assert max(fused, key=fused.get) == "b"
    assert fused["c"] > fused["a"]  # the heavier ranking wins ties of rank
    assert linear([[("a", 10.0), ("b", 0.0)], [("b", 1.0), ("a", 0.0)]], weights=[0.2, 0.8])[0][0] == "b"


def test_packing_merges_overlaps_and_orders_by_position():
    def piece(ordinal, start, end, text, priority, section="s"):
        return Piece("doc", section, ordinal, start, end, text, len(text), [f"c{ordinal}"],
                     [{"kind": "direct", "of": f"c{ordinal}"}], 1.0, priority, {})

    text = "alpha beta gamma delta epsilon zeta"
    pieces = [piece(2, 17, 36, text[17:36], 0), piece(1, 6, 22, text[6:22], 1), piece(5, 100, 110, "x" * 10, 2, "t")]
    packed = pack(pieces)
    assert [p.text for p in packed] == [text[6:36], "x" * 10]
    assert packed[0].chunk_ids == ["c1", "c2"] and len(packed[0].reasons) == 2


@pytest.mark.parametrize("body", [
    {"query": ""}, {"query": "   "}, {"query": "x", "top_k": 0}, {"query": "x", "mode": "magic"},
    {"query": "x", "filters": {"doc_ids": []}}, {"query": "x", "filters": {"unknown": 1}}, {"query": "x", "extra": 1},
])
def test_invalid_requests_are_rejected(body):
    with pytest.raises(ValidationError):
        SearchRequest.model_validate(body)


def test_configured_limits():
    cfg = load_config(rerank={"enabled": False}, answer={"enabled": False})
    with pytest.raises(LimitError, match="top_k"):
        check_limits(SearchRequest(query="x", top_k=cfg.retrieval.max_top_k + 1), cfg)
    with pytest.raises(LimitError, match="characters"):
        check_limits(SearchRequest(query="x" * (cfg.retrieval.max_query_chars + 1)), cfg)
    with pytest.raises(LimitError, match="cross-encoder"):
        check_limits(SearchRequest(query="x", rerank=True), cfg)
    check_limits(SearchRequest(query="fine"), cfg)
    check_limits(SearchRequest(query="x", rerank=True), load_config())  # off by default, deployed for answers
