"""`strata eval retrieval`: configurations, the runner, the report, and a small real run on a
fixed SciFact slice (real pipeline, real models) where hybrid must beat its parts."""

from __future__ import annotations

import doctest
import hashlib
import json
from pathlib import Path

import pytest

import offline.eval.configs as configs_mod
import offline.eval.report as report_mod
import offline.eval.retrieval as retrieval_mod
from cluster.config import apply_config_overrides
from offline.eval.beir import BeirDataset, CorpusDoc, load_beir, read_id_list
from offline.eval.configs import STANDARD, rerank_unavailable_reason, resolve_configs, skip_reason
from offline.eval.report import markdown_report, read_evaluation, write_report
from offline.eval.retrieval import (
    BASE_REQUEST,
    DocumentMap,
    PipelinePool,
    Sweep,
    evaluate_config,
    evaluate_retrieval,
)
from offline.eval.retrieval_job import select_queries
from serving.protocol import RouteInfo, SearchHit, SearchResponse
from support import DEFAULT_RETRIEVAL_MARGIN, REPO, SHARED_DATA, make_config

SCIFACT = SHARED_DATA / "scifact"
HELDOUT = REPO / "bench" / "data" / "scifact-heldout.txt"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("module", [configs_mod, retrieval_mod, report_mod])
def test_docstring_examples(module):
    result = doctest.testmod(module)
    assert result.failed == 0


# -- configurations -------------------------------------------------------------------------------
def test_resolve_configs_names_aliases_and_errors():
    assert [c.name for c in resolve_configs(None)] == \
        ["bm25", "dense", "hybrid-rrf", "hybrid-linear", "hybrid-adaptive", "rerank", "awareness", "default",
         "default+rerank"]
    assert [c.name for c in resolve_configs(["vector", "linear", "dense"])] == ["dense", "hybrid-linear"]
    with pytest.raises(ValueError, match="unknown configurations.*nope"):
        resolve_configs(["bm25", "nope"])


def test_rerank_is_skipped_with_a_reason_unless_a_model_is_installed(tmp_path):
    cfg = make_config(tmp_path, models={"home": str(tmp_path / "no-models")}, rerank={"enabled": False})
    reason = rerank_unavailable_reason(cfg)
    assert reason is not None and ("model.onnx" in reason or "not set" in reason)
    assert skip_reason(STANDARD["rerank"], cfg) == reason
    assert skip_reason(STANDARD["hybrid-linear"], cfg) is None
    (tmp_path / "model").mkdir()
    cfg = make_config(tmp_path, rerank={"model_dir": str(tmp_path / "model")})
    assert "model.onnx" in rerank_unavailable_reason(cfg)
    (tmp_path / "model" / "model.onnx").write_bytes(b"x")
    assert rerank_unavailable_reason(cfg) is None
    on = apply_config_overrides(cfg, STANDARD["rerank"].config)
    assert on.rerank.enabled and not cfg.rerank.enabled  # a copy; the original is untouched


# -- the runner, over a stand-in pipeline with known rankings (metrics checked by hand) -------------
class _CannedPipeline:
    """Returns fixed hit paths per query (the runner's mapping and scoring are under test)."""

    def __init__(self, cfg, rankings):
        self.cfg, self.rankings, self.requests = cfg, rankings, []

    def search(self, request):
        self.requests.append(request)
        route = RouteInfo(route="hybrid", reasons=[], targets=[request.query], variants=[], identifiers=[],
                          fusion="linear", bm25_weight=0.5, rerank=False)
        hits = [SearchHit(rank=i, chunk_id=f"c{i}", doc_id="x", source=src, path=path, title="", section_id="s",
                          section_path="", ordinal=0, start=0, end=1, n_tokens=1, text="", score=1.0 / i)
                for i, (src, path) in enumerate(self.rankings[request.query], start=1)]
        return SearchResponse(query=request.query, index_version="v", route=route, hits=hits,
                              timings_ms={"total": 1.0})


def test_runner_maps_hits_to_documents_and_scores_them(tmp_path):
    cfg = make_config(tmp_path, models={"home": str(tmp_path / "no-models")}, rerank={"enabled": False})
    rankings = {
        # d1 relevant at rank 2 (after another source's hit with the same path: not d1), d1's 2nd chunk ignored
        "first": [("other", "d1.md"), ("ds", "d1.md"), ("ds", "d1.md"), ("ds", "d2.md")],
        "second": [("ds", "d3.md"), ("ds", "unknown.md"), ("ds", "d4.md")],
    }
    pool = PipelinePool(cfg, factory=lambda c: _CannedPipeline(c, rankings))
    docs = DocumentMap({"d1.md": "d1", "d2.md": "d2", "d3.md": "d3", "d4.md": "d4"}, source="ds")
    qrels = {"q1": {"d1": 1}, "q2": {"d4": 2, "d9": 1}}
    r = evaluate_config(pool, STANDARD["hybrid-linear"], {"q1": "first", "q2": "second"}, qrels, docs, ks=(2, 10))
    assert r.ok and r.counts["unmapped_items"] == 2 and r.counts["items"] == 7
    assert r.per_query["q1"]["mrr@10"] == 0.5
    assert r.per_query["q2"]["recall@2"] == 0.0 and r.per_query["q2"]["recall@10"] == 0.5
    # q2: d4 (rel 2) at rank 3 → DCG 2/log2(4) = 1; IDCG = 2 + 1/log2(3)
    assert r.per_query["q2"]["ndcg@10"] == pytest.approx(1 / (2 + 1 / 1.5849625), abs=1e-4)
    assert r.metrics["mrr@10"] == pytest.approx((0.5 + 1 / 3) / 2)
    sent = pool.get({}).requests[-1]
    assert sent.top_k == 200 and sent.use_cache is False and sent.mode == "hybrid" and sent.fusion == "linear"
    assert r.counts["stages"] == "route hybrid; fusion linear; rerank 0/2; hyde 0/2; multi-query 0/2"

    ev = evaluate_retrieval(pool, {"q1": "first", "q2": "second"}, qrels,
                            resolve_configs(["hybrid-linear", "rerank"]), docs, sweep=Sweep(top_k=(10,)),
                            dataset={"name": "tiny", "split": "test"})
    assert [(r.name, r.status) for r in ev.results] == [("hybrid-linear", "ok"), ("rerank", "skipped")]
    assert "model.onnx" in ev.result("rerank").reason or "not set" in ev.result("rerank").reason
    assert [(p.name, p.params) for p in ev.sweeps["top_k"]] == [("hybrid-linear", {"top_k": 10, "candidates": 10})]
    assert pool.get({}).requests[-1].candidates == 10
    only_bm25 = evaluate_retrieval(pool, {"q1": "first"}, {"q1": {"d1": 1}}, resolve_configs(["hybrid-linear"]), docs,
                                   sweep=Sweep(top_k=(10,), configs=["bm25"]))
    assert only_bm25.sweeps["top_k"] == []
    md = markdown_report(ev)
    assert "| `rerank` — " in md and "| skipped: " in md
    paths = write_report(ev, tmp_path / "out")
    assert paths["png"].read_bytes()[:8] == PNG_MAGIC
    assert json.loads(paths["json"].read_text())["results"][1]["status"] == "skipped"
    assert markdown_report(read_evaluation(paths["json"])) == md


@pytest.mark.parametrize("name", ["bm25", "dense", "hybrid-rrf", "hybrid-linear", "awareness", "default"])
def test_only_the_rerank_configurations_ask_for_the_cross_encoder(tmp_path, name):
    """``bm25`` is BM25 whatever ``rerank.enabled`` says (here: on)."""
    cfg = make_config(tmp_path, rerank={"enabled": True})
    request = {**BASE_REQUEST, **STANDARD[name].request}
    assert cfg.rerank.enabled and request["rerank"] is False
    assert {**BASE_REQUEST, **STANDARD["default+rerank"].request}["rerank"] is True


def test_select_queries(tmp_path):
    ds = BeirDataset({"d": CorpusDoc("d", "", "x")}, {"a": "qa", "b": "qb", "c": "qc"},
                     {"b": {"d": 1}, "a": {"d": 1}, "z": {"d": 0}}, split="dev")
    assert select_queries(ds) == ["a", "b"]
    assert select_queries(ds, ["b", "a", "b"], 1) == ["b"]
    with pytest.raises(ValueError, match="no relevant judgment"):
        select_queries(ds, ["c"])


# -- a small real run ------------------------------------------------------------------------------
# The fixed slice: the 176 pinned held-out SciFact queries, the 174 documents judged for them, and
# SLICE_DISTRACTORS other abstracts — the first by sha1(SLICE_SEED, corpus id); 274 abstracts,
# 639 chunks. Measured on it (nDCG@10): BM25 0.879, dense 0.888, hybrid linear 0.917 — hybrid wins
# 24 / loses 6 queries against BM25 and wins 20 / loses 12 against dense. (With 300 distractors:
# 0.856 / 0.868 / 0.889, the same order, at twice the ingest time.)
SLICE_SEED = "strata-test-slice-v1"
SLICE_DISTRACTORS = 100
SLICE_CONFIGS = ["bm25", "dense", "hybrid-linear", "awareness", "default"]  # the reranker: tests/serving/test_reranker.py
SLICE_SWEPT = ["bm25", "dense", "hybrid-linear"]  # awareness (~0.2 s a query in expansion) only once


def write_slice(root: Path) -> tuple[list[str], list[str]]:
    """Write the slice as a BEIR directory under ``root``; ``(query ids, corpus ids)``."""
    ds = load_beir(SCIFACT, split="train")
    queries = read_id_list(HELDOUT)
    judged = {d for q in queries for d in ds.qrels[q]}
    key = lambda d: hashlib.sha1(f"{SLICE_SEED}\x1f{d}".encode()).hexdigest()  # noqa: E731
    docs = sorted(judged | set(sorted((d for d in ds.corpus if d not in judged), key=key)[:SLICE_DISTRACTORS]))
    root.mkdir(parents=True)
    (root / "corpus.jsonl").write_text("".join(
        json.dumps({"_id": d, "title": ds.corpus[d].title, "text": ds.corpus[d].text}) + "\n" for d in docs))
    (root / "queries.jsonl").write_text("".join(json.dumps({"_id": q, "text": ds.queries[q]}) + "\n" for q in queries))
    (root / "qrels").mkdir()
    (root / "qrels" / "train.tsv").write_text("query-id\tcorpus-id\tscore\n" + "".join(
        f"{q}\t{d}\t{rel}\n" for q in queries for d, rel in ds.qrels[q].items()))
    return queries, docs


@pytest.fixture(scope="module")
def slice_run(tmp_path_factory, ray_session):
    """``strata eval retrieval`` on the slice: ingest + every configuration + a top_k sweep (the
    embedder is installed by scripts/install.sh)."""
    if not (SCIFACT / "queries.jsonl").is_file() or not HELDOUT.is_file():
        pytest.skip(f"SciFact not available at {SCIFACT}")
    from click.testing import CliRunner

    from cli.main import main

    base = tmp_path_factory.mktemp("eval-slice")
    queries, docs = write_slice(base / "scifact-slice")
    args = ["--data-dir", str(base / "index"), "eval", "retrieval", str(base / "scifact-slice"), "--split", "train"]
    result = CliRunner().invoke(main, args + ["--configs", ",".join(SLICE_CONFIGS), "--top-k-sweep", "10,50",
                                              "--sweep-configs", ",".join(SLICE_SWEPT), "--out", str(base / "out")])
    assert result.exit_code == 0, result.output + repr(result.exception)
    return base, args, queries, docs, result.output


def test_eval_retrieval_report_structure(slice_run):
    base, _, queries, docs, output = slice_run
    out = base / "out"
    assert "report: " in output and "bm25: ndcg@10=" in output
    report = json.loads((out / "report.json").read_text())
    assert set(report) == {"dataset", "base_request", "results", "sweeps", "significance", "meta"}
    assert report["dataset"]["queries"] == len(queries) and report["dataset"]["corpus_docs"] == len(docs)
    assert report["dataset"]["ingest"]["new"] == len(docs)
    results = {r["name"]: r for r in report["results"]}
    assert list(results) == SLICE_CONFIGS
    for name, r in results.items():
        if r["status"] != "ok":
            continue
        assert set(r["metrics"]) == {"ndcg@10", "ndcg@100", "recall@10", "recall@100", "mrr@10", "mrr@100"}
        assert all(0.0 <= v <= 1.0 for v in r["metrics"].values())
        assert len(r["per_query"]) == len(queries) and r["counts"]["unmapped_items"] == 0
        assert r["timings"]["ms_p50"] > 0
    aware = results["awareness"]
    assert aware["endpoint"] == "context"
    assert 0 < aware["counts"]["mean_used_tokens"] <= aware["request"]["budget_tokens"]
    swept = [n for n in SLICE_CONFIGS if results[n]["status"] == "ok" and n in SLICE_SWEPT]
    sweep = report["sweeps"]["top_k"]
    assert [(p["name"], p["params"]["top_k"]) for p in sweep] == [(n, k) for k in (10, 50) for n in swept]
    assert all("recall@50" in p["metrics"] for p in sweep if p["params"]["top_k"] == 50)
    assert set(report["significance"]["hybrid-linear"]) == {"bm25", "dense"}

    md = (out / "report.md").read_text()
    assert md.startswith("# Retrieval evaluation — scifact-slice (train split)")
    assert "| configuration | endpoint | ndcg@10 | recall@10 | recall@100 | mrr@10 |" in md
    for name in SLICE_CONFIGS:
        assert f"| `{name}` — " in md
    assert "## Sweep: top_k" in md and "| configuration | top_k=10 | top_k=50 |" in md and "](report.png)" in md
    png = (out / "report.png").read_bytes()
    assert png[:8] == PNG_MAGIC and len(png) > 10_000


def test_hybrid_beats_its_parts_on_the_slice(slice_run):
    base = slice_run[0]
    metrics = {r["name"]: r["metrics"] for r in json.loads((base / "out" / "report.json").read_text())["results"]}
    hybrid, parts = metrics["hybrid-linear"]["ndcg@10"], (metrics["bm25"]["ndcg@10"], metrics["dense"]["ndcg@10"])
    assert hybrid >= max(parts), f"hybrid {hybrid:.4f} vs bm25 {parts[0]:.4f}, dense {parts[1]:.4f}"
    assert metrics["hybrid-linear"]["recall@100"] >= min(metrics["bm25"]["recall@100"], metrics["dense"]["recall@100"])


def test_the_default_reaches_the_better_of_bm25_and_dense_on_the_slice(slice_run):
    """The shipped default (router, multi-query, adaptive fusion) on in-domain data; the other two
    sets: tests/eval/test_default_retrieval.py (same margin)."""
    base = slice_run[0]
    results = json.loads((base / "out" / "report.json").read_text())["results"]
    metrics = {r["name"]: r["metrics"]["ndcg@10"] for r in results}
    assert metrics["default"] >= max(metrics["bm25"], metrics["dense"]) - DEFAULT_RETRIEVAL_MARGIN, metrics


def test_eval_retrieval_reingest_is_idempotent_and_deterministic(slice_run):
    from click.testing import CliRunner

    from cli.main import main

    base, args, _, docs, _ = slice_run
    result = CliRunner().invoke(main, args + ["--configs", "bm25", "--top-k-sweep", "", "--out", str(base / "again")])
    assert result.exit_code == 0, result.output + repr(result.exception)
    again = json.loads((base / "again" / "report.json").read_text())
    assert again["dataset"]["ingest"]["unchanged"] == len(docs) and again["dataset"]["ingest"]["new"] == 0
    first = json.loads((base / "out" / "report.json").read_text())
    assert again["results"][0]["per_query"] == first["results"][0]["per_query"]
