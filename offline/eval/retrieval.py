"""The retrieval evaluation runner: judged queries × named configurations → metrics, per-query
scores and timings, through the serving code path (:class:`serving.services.local.SearchPipeline`).

* ``search`` configurations rank the documents of the ``/v1/search`` hits (a document scores as
  its best chunk: first occurrence); ``context`` configurations rank the documents of the
  ``/v1/context`` pack in pack order (direct hits, section tier, neighbours …) at a fixed budget.
* Hits map to corpus ids through the ingested file paths (``{relative path: corpus id}`` from
  :func:`offline.eval.beir.write_corpus_files`), only for hits of the evaluated ``source`` label;
  any other hit is a retrieved, non-relevant document.
* A configuration that cannot run here (the reranker without a trained model) is reported as
  skipped with its reason.
* Sweeps: every configuration again at ``top_k = candidates = k`` for each ``k``, and the hybrid
  ones at each ``bm25_weight`` → metric curves.

>>> # pipe = SearchPipeline(cfg)
>>> # ev = evaluate_retrieval(PipelinePool(cfg), queries, qrels, resolve_configs(), DocumentMap(paths, "scifact"))
>>> # ev.results[0].metrics["ndcg@10"]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from cluster.config import StrataConfig, apply_config_overrides
from offline.eval.configs import EvalConfig, skip_reason, with_request
from offline.eval.metrics import collapse_to_documents, evaluate, judged_queries, paired_randomization_p, per_query

__all__ = ["BASE_REQUEST", "ConfigResult", "DocumentMap", "PipelinePool", "RetrievalEvaluation", "Sweep",
           "evaluate_config", "evaluate_retrieval", "git_commit", "significance"]

#: Fields every evaluated request starts from (a configuration's own fields override them). The rerank
#: stage is off unless a configuration turns it on, whatever ``rerank.enabled`` says: ``bm25`` is BM25.
BASE_REQUEST: dict[str, Any] = {"top_k": 200, "candidates": 200, "multi_query": False, "hyde": False,
                                "rerank": False, "use_cache": False}
KS = (10, 100)
MAIN_METRICS = ("ndcg@10", "recall@10", "recall@100", "mrr@10")
Progress = Callable[[str], None]


@dataclass(frozen=True)
class DocumentMap:
    """Maps a hit's ``(source, path)`` to a corpus id; ``source=None`` accepts every source.

    >>> m = DocumentMap({"4983.md": "4983"}, source="scifact")
    >>> m.corpus_id("scifact", "4983.md"), m.corpus_id("other", "4983.md"), m.corpus_id("scifact", "x.md")
    ('4983', None, None)
    """

    path_to_id: Mapping[str, str]
    source: str | None = None

    def corpus_id(self, source: str, path: str) -> str | None:
        if self.source is not None and source != self.source:
            return None
        return self.path_to_id.get(path)


@dataclass
class Sweep:
    """Parameter sweeps: ``top_k`` values (each also sets ``candidates``) for the configurations
    named in ``configs`` (``None``: every one that ran), and BM25 shares for ``weight_configs``."""

    top_k: Sequence[int] = ()
    bm25_weights: Sequence[float] = ()
    configs: Sequence[str] | None = None
    weight_configs: Sequence[str] = ("hybrid-rrf", "hybrid-linear")


@dataclass
class ConfigResult:
    """One configuration's outcome (``status`` ``ok`` or ``skipped`` with ``reason``)."""

    name: str
    label: str
    endpoint: str
    status: str
    request: dict[str, Any]
    config_overrides: dict[str, Any]
    params: dict[str, Any] = field(default_factory=dict)
    reason: str | None = None
    metrics: dict[str, float] = field(default_factory=dict)
    per_query: dict[str, dict[str, float]] = field(default_factory=dict)
    counts: dict[str, Any] = field(default_factory=dict)
    timings: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass
class RetrievalEvaluation:
    """Everything a report needs (``to_dict`` is the JSON report)."""

    dataset: dict[str, Any]
    base_request: dict[str, Any]
    results: list[ConfigResult]
    sweeps: dict[str, list[ConfigResult]] = field(default_factory=dict)
    significance: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)

    def result(self, name: str) -> ConfigResult:
        for r in self.results:
            if r.name == name:
                return r
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "RetrievalEvaluation":
        """Read back :meth:`to_dict` (e.g. a ``report.json``) to re-render a report."""
        return cls(dataset=dict(data["dataset"]), base_request=dict(data["base_request"]),
                   results=[ConfigResult(**r) for r in data["results"]],
                   sweeps={k: [ConfigResult(**r) for r in v] for k, v in data.get("sweeps", {}).items()},
                   significance=dict(data.get("significance", {})), meta=dict(data.get("meta", {})))


class PipelinePool:
    """One :class:`~serving.services.local.SearchPipeline` per distinct config override (opened lazily,
    reused: query embeddings stay cached across configurations with the same overrides), all acting for
    ``tenant`` (its index only)."""

    def __init__(self, cfg: StrataConfig, factory: Callable[[StrataConfig], Any] | None = None, *,
                 tenant: str = "default") -> None:
        self.cfg = cfg
        self.tenant = tenant
        self._factory = factory
        self._pipes: dict[str, Any] = {}

    def get(self, overrides: Mapping[str, Any]):
        key = json.dumps(overrides, sort_keys=True, default=str)
        if key not in self._pipes:
            factory = self._factory
            if factory is None:
                from serving.services.local import SearchPipeline

                def factory(cfg: StrataConfig):
                    return SearchPipeline(cfg, tenant=self.tenant)
            self._pipes[key] = factory(apply_config_overrides(self.cfg, overrides))
        return self._pipes[key]

    def close(self) -> None:
        for pipe in self._pipes.values():
            close = getattr(pipe, "close", None)
            if close is not None:
                close()
        self._pipes.clear()


@dataclass
class StagesSeen:
    """Which query stages the responses of one configuration report having run (``route`` of each
    response): routes, fusion, the cross-encoder, HyDE, multi-query variants.

    >>> from types import SimpleNamespace as NS
    >>> seen = StagesSeen()
    >>> seen.add(NS(route="hybrid", fusion="linear", rerank=True, hyde=None, variants=[]), {"rerank": 12.0})
    >>> seen.summary(1)
    'route hybrid; fusion linear; rerank 1/1; hyde 0/1; multi-query 0/1'
    """

    routes: dict[str, int] = field(default_factory=dict)
    fusions: dict[str, int] = field(default_factory=dict)
    reranked: int = 0
    hyde: int = 0
    multi_query: int = 0

    def add(self, route, timings_ms: Mapping[str, float]) -> None:
        self.routes[route.route] = self.routes.get(route.route, 0) + 1
        if route.route not in ("bm25", "vector"):
            self.fusions[route.fusion] = self.fusions.get(route.fusion, 0) + 1
        self.reranked += bool(route.rerank and "rerank" in timings_ms)
        self.hyde += route.hyde is not None
        self.multi_query += bool(route.variants)

    def summary(self, n: int, *, awareness: bool = False) -> str:
        def mix(counts: dict[str, int]) -> str:
            return ", ".join(f"{k}" if v == n else f"{k} {v}/{n}" for k, v in sorted(counts.items())) or "none"

        return (f"route {mix(self.routes)}; fusion {mix(self.fusions)}; rerank {self.reranked}/{n}; "
                f"hyde {self.hyde}/{n}; multi-query {self.multi_query}/{n}" + ("; awareness pack" if awareness else ""))


def _percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def evaluate_config(pool: PipelinePool, config: EvalConfig, queries: Mapping[str, str],
                    qrels: Mapping[str, Mapping[str, int]], docs: DocumentMap, *,
                    base_request: Mapping[str, Any] = BASE_REQUEST, context_budget: int | None = None,
                    ks: Sequence[int] = KS, params: Mapping[str, Any] | None = None,
                    keep_per_query: bool = True) -> ConfigResult:
    """Run every query of ``queries`` through one configuration and score it against ``qrels``.

    ``context_budget`` is the token budget of ``context`` configurations (default: the config's
    ``awareness.budget_tokens``).
    """
    from serving.protocol import ContextRequest, SearchRequest

    request = {**base_request, **config.request}
    if config.endpoint == "context":
        request.setdefault("budget_tokens", context_budget or pool.cfg.awareness.budget_tokens)
    result = ConfigResult(config.name, config.label, config.endpoint, "ok", request, dict(config.config),
                          params=dict(params or {}))
    reason = skip_reason(config, pool.cfg)
    if reason is not None:
        result.status, result.reason = "skipped", reason
        return result
    pipe = pool.get(config.config)

    def ask(text: str):
        if config.endpoint == "context":
            return pipe.context(ContextRequest(query=text, **request))
        return pipe.search(SearchRequest(query=text, **request))

    if queries:  # one untimed warm-up request: opening tables and first-call costs are not query latency
        ask(next(iter(queries.values())))
    run: dict[str, list[str]] = {}
    latencies: list[float] = []
    stage_ms: dict[str, list[float]] = {}
    items = unmapped = multi_target = 0
    stages = StagesSeen()
    used_tokens: list[int] = []
    started = time.perf_counter()
    for qid, text in queries.items():
        t0 = time.perf_counter()
        resp = ask(text)
        latencies.append(time.perf_counter() - t0)
        if config.endpoint == "context":
            found = [(p.source, p.path) for p in resp.passages]
            used_tokens.append(resp.used_tokens)
        else:
            found = [(h.source, h.path) for h in resp.hits]
        for stage, ms in resp.timings_ms.items():
            stage_ms.setdefault(stage, []).append(ms)
        multi_target += len(resp.route.targets) > 1
        stages.add(resp.route, resp.timings_ms)
        ids = []
        for source, path in found:
            items += 1
            corpus_id = docs.corpus_id(source, path)
            if corpus_id is None:
                unmapped += 1
                ids.append(f"\x00unmapped:{source}:{path}")  # keeps its rank; never relevant
            else:
                ids.append(corpus_id)
        run[qid] = collapse_to_documents(ids)
    elapsed = time.perf_counter() - started
    result.metrics = evaluate(run, qrels, ks=ks)
    if keep_per_query:
        result.per_query = {q: {k: round(v, 4) for k, v in s.items()} for q, s in per_query(run, qrels, ks=ks).items()}
    latencies.sort()
    result.counts = {
        "queries": len(queries), "items": items, "unmapped_items": unmapped, "multi_target_queries": multi_target,
        "mean_docs_per_query": round(sum(len(r) for r in run.values()) / max(len(run), 1), 1),
        "stages": stages.summary(len(queries), awareness=config.endpoint == "context")}
    if used_tokens:
        result.counts["mean_used_tokens"] = round(statistics.fmean(used_tokens), 1)
    result.timings = {
        "elapsed_s": round(elapsed, 2),
        "ms_p50": round(1000 * _percentile(latencies, 0.5), 1) if latencies else None,
        "ms_p95": round(1000 * _percentile(latencies, 0.95), 1) if latencies else None,
        "ms_mean": round(1000 * statistics.fmean(latencies), 1) if latencies else None,
        "stages_ms_mean": {k: round(statistics.fmean(v), 2) for k, v in sorted(stage_ms.items())}}
    return result


def significance(results: Sequence[ConfigResult], bases: Sequence[str] = ("bm25", "dense"),
                 metric: str = "ndcg@10", trials: int = 10_000) -> dict[str, dict[str, dict[str, float]]]:
    """``{config: {base: {"diff": mean difference, "p": paired randomization p}}}`` of ``metric``
    for every evaluated configuration against each evaluated base (per-query scores needed)."""
    scored = {r.name: {q: s[metric] for q, s in r.per_query.items()} for r in results if r.ok and r.per_query}
    out: dict[str, dict[str, dict[str, float]]] = {}
    for name, scores in scored.items():
        for base in bases:
            if base == name or base not in scored or not scores:
                continue
            diff = statistics.fmean(scores.values()) - statistics.fmean(scored[base].values())
            p = paired_randomization_p(scores, scored[base], trials=trials)
            out.setdefault(name, {})[base] = {"diff": round(diff, 4), "p": round(p, 4)}
    return out


def git_commit(repo: Path | None = None) -> str | None:
    """``HEAD`` of the repository holding this file (``-dirty`` with local changes, other than the
    benchmarks' own result files, which a run appends to between its records), if any."""
    repo = repo or Path(__file__).resolve().parents[2]
    try:
        sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True,
                             check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".",
                                ":(exclude)bench/results"], cwd=repo,
                               capture_output=True, text=True).stdout.strip()
        return sha + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return None


def evaluate_retrieval(pool: PipelinePool, queries: Mapping[str, str], qrels: Mapping[str, Mapping[str, int]],
                       configs: Sequence[EvalConfig], docs: DocumentMap, *, sweep: Sweep | None = None,
                       base_request: Mapping[str, Any] = BASE_REQUEST, context_budget: int | None = None,
                       dataset: Mapping[str, Any] | None = None,
                       progress: Progress | None = None) -> RetrievalEvaluation:
    """Evaluate ``configs`` on the judged queries of ``qrels`` (those also in ``queries``), then
    the sweeps; ``progress`` gets one line per finished run."""
    say = progress or (lambda _line: None)
    judged = [q for q in judged_queries(qrels) if q in queries]
    missing = [q for q in judged_queries(qrels) if q not in queries]
    if missing:
        raise ValueError(f"{len(missing)} judged queries have no text (first: {missing[:5]})")
    if not judged:
        raise ValueError("no judged queries to evaluate")
    q_text = {q: queries[q] for q in judged}
    q_rels = {q: dict(qrels[q]) for q in judged}
    budget = context_budget or pool.cfg.awareness.budget_tokens
    common = dict(base_request=base_request, context_budget=budget)

    def one(config: EvalConfig, **kw) -> ConfigResult:
        r = evaluate_config(pool, config, q_text, q_rels, docs, **common, **kw)
        if r.ok:
            say(f"{r.name}{_params(r.params)}: " + ", ".join(f"{k}={r.metrics[k]:.4f}" for k in MAIN_METRICS
                                                            if k in r.metrics) + f"  ({r.timings['elapsed_s']:.0f}s)")
        elif not r.params:
            say(f"{r.name}: skipped — {r.reason}")
        return r

    started = time.perf_counter()
    results = [one(c) for c in configs]
    sweeps: dict[str, list[ConfigResult]] = {}
    sweep = sweep or Sweep()
    runnable = [c for c, r in zip(configs, results) if r.ok and (sweep.configs is None or c.name in sweep.configs)]
    if sweep.top_k:
        points = []
        for k in sweep.top_k:
            ks = tuple(sorted({10, k, 100}))
            for c in runnable:
                points.append(one(with_request(c, top_k=k, candidates=k), ks=ks, params={"top_k": k, "candidates": k},
                                  keep_per_query=False))
        sweeps["top_k"] = points
    if sweep.bm25_weights:
        by_name = {c.name: c for c in configs}
        points = []
        for w in sweep.bm25_weights:
            for name in sweep.weight_configs:
                if name in by_name and any(r.name == name and r.ok for r in results):
                    points.append(one(with_request(by_name[name], bm25_weight=w), params={"bm25_weight": w}))
        sweeps["bm25_weight"] = points
    cfg = pool.cfg
    meta = {"when": time.strftime("%Y-%m-%dT%H:%M:%S"), "commit": git_commit(), "cpus": os.cpu_count(),
            "elapsed_s": round(time.perf_counter() - started, 1), "context_budget_tokens": budget,
            "document_score": "max over chunks (first occurrence); context: pack order",
            "retrieval": cfg.retrieval.model_dump(mode="json"), "models": cfg.models.model_dump(mode="json"),
            "rerank": cfg.rerank.model_dump(mode="json"), "index": cfg.storage.lance_location,
            "query_embeddings": "query embeddings are cached per pipeline after their first use (timings of later "
                                "runs exclude embedding); one untimed warm-up request per run"}
    ds = {"queries": len(judged), "judgments": sum(len(v) for v in q_rels.values()), **(dataset or {})}
    return RetrievalEvaluation(dataset=ds, base_request=dict(base_request), results=results, sweeps=sweeps,
                               significance=significance(results), meta=meta)


def _params(params: Mapping[str, Any]) -> str:
    return "" if not params else " [" + ", ".join(f"{k}={v}" for k, v in params.items()) + "]"
