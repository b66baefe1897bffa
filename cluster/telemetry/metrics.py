"""Strata's Prometheus metrics, defined once, exported through Ray's metrics agent.

Ray prefixes custom metrics with ``ray_`` on its Prometheus endpoint (``ray.init(
_metrics_export_port=P)`` or the cluster's metrics port), e.g. ``ray_strata_ingest_chunks_total``.
Metrics are created lazily in whichever Ray process records them (driver, task or actor).

>>> # ingest_metrics().chunks.inc(12)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ray.util.metrics import Counter, Gauge, Histogram

LATENCY_BOUNDARIES_S = [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]
BATCH_BOUNDARIES = [1, 16, 64, 256, 1024, 4096, 16384, 65536]


@dataclass(frozen=True)
class IngestMetrics:
    documents: Counter
    chunks: Counter
    sections: Counter
    tokens: Counter
    failures: Counter
    embed_cache: Counter
    stage_seconds: Histogram
    writer_batch_rows: Histogram
    fragments: Gauge
    unindexed_rows: Gauge
    table_rows: Gauge


@lru_cache(maxsize=1)
def ingest_metrics() -> IngestMetrics:
    """The ingest metric handles of this process (requires ``ray.init``)."""
    return IngestMetrics(
        documents=Counter("strata_ingest_documents_total", "Documents processed by ingest, by outcome",
                          tag_keys=("status",)),
        chunks=Counter("strata_ingest_chunks_total", "Chunks written to the index"),
        sections=Counter("strata_ingest_sections_total", "Sections written to the index"),
        tokens=Counter("strata_ingest_tokens_total", "Embedder tokens of chunks written to the index"),
        failures=Counter("strata_ingest_failures_total", "Files skipped or failed, by reason", tag_keys=("reason",)),
        embed_cache=Counter("strata_ingest_embed_cache_total", "Distinct texts to embed, served from the embedding "
                            "cache (hit) or embedded (miss)", tag_keys=("result",)),
        stage_seconds=Histogram("strata_ingest_stage_seconds", "Latency of one pipeline stage call",
                                boundaries=LATENCY_BOUNDARIES_S, tag_keys=("stage",)),
        writer_batch_rows=Histogram("strata_writer_batch_rows", "Chunk rows per single-writer commit",
                                    boundaries=BATCH_BOUNDARIES),
        fragments=Gauge("strata_lance_fragments", "Fragments of a LanceDB table", tag_keys=("table",)),
        unindexed_rows=Gauge("strata_lance_unindexed_rows", "Rows of a LanceDB table not covered by its vector index",
                             tag_keys=("table",)),
        table_rows=Gauge("strata_lance_rows", "Rows of a LanceDB table", tag_keys=("table",)),
    )


CANDIDATE_BOUNDARIES = [1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500]


@dataclass(frozen=True)
class QueryMetrics:
    stage_seconds: Histogram
    candidates: Histogram
    cache_requests: Counter
    routes: Counter
    errors: Counter
    index_version_changes: Counter


@lru_cache(maxsize=1)
def query_metrics() -> QueryMetrics | None:
    """The query-path metric handles, or None outside Ray (the in-process naive pipeline).

    ``ray.serve.metrics`` adds ``application``/``deployment``/``replica`` tags inside a Serve replica."""
    import ray
    from ray.serve.metrics import Counter, Histogram  # noqa: F811 (Serve-tagged variants)

    if not ray.is_initialized():
        return None
    return QueryMetrics(
        stage_seconds=Histogram("strata_query_stage_seconds", "Latency of one query stage (total: the whole request)",
                                boundaries=LATENCY_BOUNDARIES_S, tag_keys=("stage", "route")),
        candidates=Histogram("strata_query_candidates", "Candidates produced by a query stage",
                             boundaries=CANDIDATE_BOUNDARIES, tag_keys=("stage",)),
        cache_requests=Counter("strata_query_cache_requests_total", "Query cache lookups by cache and result",
                               tag_keys=("cache", "result")),
        routes=Counter("strata_query_routes_total", "Queries by the route the router chose", tag_keys=("route",)),
        errors=Counter("strata_query_errors_total", "Failed query requests by HTTP status", tag_keys=("status",)),
        index_version_changes=Counter("strata_index_version_changes_total",
                                      "New index versions picked up by a serving replica"),
    )


@dataclass(frozen=True)
class AnswerMetrics:
    """``/v1/answer``: tokens, time to first token, verification outcomes, retries, refusals."""

    tokens: Counter
    ttft_seconds: Histogram
    answer_seconds: Histogram
    verifications: Counter
    retries: Counter
    requests: Counter


TTFT_BOUNDARIES_S = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60]


@lru_cache(maxsize=1)
def answer_metrics() -> AnswerMetrics | None:
    """The answer-path metric handles, or None outside Ray (in-process ``strata ask``).

    Refusal rate = ``strata_answer_requests_total{outcome="refused"}`` ÷ all requests."""
    import ray
    from ray.serve.metrics import Counter, Histogram  # noqa: F811 (Serve-tagged variants)

    if not ray.is_initialized():
        return None
    return AnswerMetrics(
        tokens=Counter("strata_answer_tokens_total", "LLM tokens by model, role (writer/verifier/analysis) and "
                       "direction (in = prompt, out = completion)", tag_keys=("model", "role", "direction")),
        ttft_seconds=Histogram("strata_answer_ttft_seconds", "Time from the request to the answer's first token",
                               boundaries=TTFT_BOUNDARIES_S),
        answer_seconds=Histogram("strata_answer_seconds", "Whole /v1/answer latency by outcome",
                                 boundaries=TTFT_BOUNDARIES_S + [120, 300], tag_keys=("outcome",)),
        verifications=Counter("strata_answer_verifications_total",
                              "Verification results of written answers (pass / fail / blank)", tag_keys=("result",)),
        retries=Counter("strata_answer_retries_total", "Writer retries with a widened context", tag_keys=("expansion",)),
        requests=Counter("strata_answer_requests_total", "Answer requests by outcome (answered / refused / error / "
                         "overloaded)", tag_keys=("outcome",)),
    )
