"""Held-out evaluation of a trained reranker (``strata reranker evaluate``): report only, never tune.

The evaluation queries' candidate lists are mined with the hybrid retriever (as in training); the
installed model scores each list's first ``max(top_ns)`` chunks once through the serving loader
(fastembed ``TextCrossEncoder``, :class:`~serving.rerank.cross_encoder.CrossEncoderReranker`);
each ``top_n`` is then the serving stage's exact reordering with the configured ``rerank.weight``
(:mod:`.rank_eval`). Also reported: the cross-encoder alone (weight 1) and scoring throughput.

>>> # evaluate_heldout(cfg, Path("../shared/data/scifact"), Path("bench/data/scifact-heldout.txt"), model_dir)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from cluster.config import StrataConfig
from offline.eval.beir import load_beir, read_id_list
from offline.eval.metrics import judged_queries

__all__ = ["evaluate_heldout"]


def evaluate_heldout(cfg: StrataConfig, beir_dir: Path, queries_file: Path, model_dir: Path, *, split: str = "train",
                     top_ns: Sequence[int] = (20, 30, 50, 100), weight: float, record: bool = False,
                     work_dir: Path | None = None, end_to_end: bool = True,
                     log: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Rows of ``{"label", "top_n", "weight", "metrics"}`` plus throughput; ``end_to_end`` adds a run
    of every query through ``SearchPipeline`` with the rerank stage on (``rerank.top_n``); with
    ``record`` the result is stored in the model directory's ``training.json`` / ``MODEL_CARD.md``."""
    from offline.reranker.card import add_evaluation
    from offline.reranker.job import load_or_mine
    from offline.reranker.rank_eval import evaluate_setting, score_lists
    from serving.rerank.cross_encoder import CrossEncoderReranker

    say = log or (lambda _m: None)
    ds = load_beir(beir_dir, split=split)
    wanted = set(read_id_list(queries_file))
    qids = [q for q in judged_queries(ds.qrels) if q in wanted and q in ds.queries]
    depth = max(top_ns)
    work = Path(work_dir or Path(cfg.storage.data_dir) / "reranker-train").expanduser()
    lists = load_or_mine(cfg, ds, qids, work / f"eval-{Path(queries_file).stem}.jsonl", depth=max(100, depth), log=say)
    reranker = CrossEncoderReranker.load(cfg.rerank, directory=model_dir)
    t0 = time.perf_counter()
    scores = score_lists(lists, reranker.score_pairs, depth=depth)
    seconds = time.perf_counter() - t0
    pairs = sum(len(s) for s in scores.values())
    rows = [{"label": "hybrid (retrieval order)", "top_n": 0, "weight": None,
             "metrics": evaluate_setting(lists, scores, top_n=0, weight=None)}]
    for n in top_ns:
        rows.append({"label": f"+ rerank top_n {n}, weight {weight:g}", "top_n": n, "weight": weight,
                     "metrics": evaluate_setting(lists, scores, top_n=n, weight=weight)})
    for n in top_ns:
        rows.append({"label": f"+ rerank top_n {n}, cross-encoder only", "top_n": n, "weight": 1.0,
                     "metrics": evaluate_setting(lists, scores, top_n=n, weight=1.0)})
    result = {
        "description": (f"{len(lists)} held-out queries (`{queries_file}`), never used for training or selection; "
                        f"documents ranked by their best chunk. The int8 model is scored through the serving "
                        f"loader (fastembed) at {pairs / seconds:.1f} pairs/s on this machine, i.e. about "
                        + ", ".join(f"{1000 * n / (pairs / seconds):.0f} ms for top_n {n}" for n in top_ns)
                        + " of rerank time per query."),
        "queries": len(lists), "queries_file": str(queries_file), "pairs_per_s": round(pairs / seconds, 1),
        "rows": [{**r, "metrics": {k: round(v, 4) for k, v in r["metrics"].items()}} for r in rows],
    }
    if end_to_end:
        result["end_to_end"] = _end_to_end(cfg, ds, qids, model_dir, weight=weight, log=say)
        e = result["end_to_end"]
        result["rows"].append({"label": f"SearchPipeline, rerank on (top_n {e['top_n']}, weight {weight:g})",
                               "top_n": e["top_n"], "weight": weight, "metrics": e["metrics"]})
        result["notes"] = (f"The last row runs every query through the serving code (`SearchPipeline`, rerank "
                           f"stage on): rerank stage p50 {e['rerank_ms_p50']:.0f} ms, whole query p50 "
                           f"{e['query_ms_p50']:.0f} ms on this machine.")
    if record:
        add_evaluation(model_dir, "heldout", result)
        say(f"recorded in {model_dir}/training.json and MODEL_CARD.md")
    return result


def _end_to_end(cfg: StrataConfig, ds, qids: Sequence[str], model_dir: Path, *, weight: float,
                log: Callable[[str], None]) -> dict[str, Any]:
    """Every query through the in-process serving code with the reranker on; metrics and latency."""
    from offline.eval.metrics import collapse_to_documents, evaluate
    from offline.reranker.job import corpus_path_map
    from offline.reranker.mining import MINING_REQUEST
    from offline.reranker.rank_eval import METRIC_KS
    from serving.protocol import SearchRequest
    from serving.services.local import SearchPipeline

    on = cfg.model_copy(deep=True)
    on.rerank.enabled, on.rerank.model_dir, on.rerank.weight = True, Path(model_dir), weight
    pipe = SearchPipeline(on)
    paths = corpus_path_map(ds.corpus)
    run, total_ms, rerank_ms = {}, [], []
    for qid in qids:
        t0 = time.perf_counter()
        response = pipe.search(SearchRequest(query=ds.queries[qid], top_k=100, **{**MINING_REQUEST, "rerank": True}))
        total_ms.append(1000 * (time.perf_counter() - t0))
        rerank_ms.append(response.timings_ms.get("rerank", 0.0))
        run[qid] = collapse_to_documents(paths[h.path] for h in response.hits if h.path in paths)
    pipe.close()
    total_ms.sort()
    rerank_ms.sort()
    metrics = evaluate(run, {q: ds.qrels[q] for q in qids}, ks=METRIC_KS)
    log(f"end to end: nDCG@10 {metrics['ndcg@10']:.4f}, rerank p50 {rerank_ms[len(rerank_ms) // 2]:.0f} ms")
    return {"top_n": on.rerank.top_n, "metrics": {k: round(v, 4) for k, v in metrics.items()},
            "rerank_ms_p50": round(rerank_ms[len(rerank_ms) // 2], 1),
            "rerank_ms_mean": round(sum(rerank_ms) / len(rerank_ms), 1),
            "query_ms_p50": round(total_ms[len(total_ms) // 2], 1),
            "query_ms_mean": round(sum(total_ms) / len(total_ms), 1)}
