"""Bulk ingest: source → parse/chunk (Ray tasks) → embed (Ray actor pool) → [write Lance fragments
(Ray tasks, ``ingest.writer = "workers"``)] → single committer (the driver's :class:`IndexSink`).

>>> # report = run_ingest(load_config(), "docs/")
>>> # print(report.summary())
"""

from __future__ import annotations

import time
from pathlib import Path

import ray

from cluster.config import IngestConfig, StrataConfig, absolute_paths
from cluster.models.registry import resolve_embedder
from cluster.runtime import (driver_node_cpus, eligible_node_resources, init_ray, stop_ray, telemetry_env,
                             worker_node_ids)
from cluster.store.bm25 import Bm25Index, ShardedBm25, open_bm25
from cluster.store.embed_cache import EmbeddingCache
from cluster.store.journal import IngestJournal
from cluster.store.lance_store import LanceStore
from cluster.store.schema import CHUNKS, DOCUMENTS, SECTIONS
from cluster.tenants import DEFAULT_TENANT, tenant_config
from cluster.telemetry.tracing import setup_tracing, span
from pipelines.delete import delete_documents
from pipelines.progress import IngestProgress
from pipelines.report import IngestReport
from pipelines.sink.bm25_shards import ShardWriterPool
from pipelines.sink.fragments import fragment_targets, write_fragments_batch
from pipelines.sink.writer import IndexSink
from pipelines.sources.files import SkippedFile, SourceFile, discover
from pipelines.sources.units import BYTES_PER_TOKEN, work_units
from pipelines.stages.embed import EmbedDocuments, EmbedPool, plan_embed_pool
from pipelines.stages.parse_chunk import chunking_config, parse_chunk_batch
from pipelines.stages.run_ahead import limit_run_ahead, run_ahead_units


def open_index_for_write(cfg: StrataConfig, tenant: str = DEFAULT_TENANT, *, new_bm25_shards: int = 1):
    """Open (creating if needed) ``tenant``'s index for writing; refuses a different embedder.
    A new BM25 index gets ``ingest.bm25_shards`` shards, or ``new_bm25_shards`` when that is 0."""
    cfg = tenant_config(cfg, tenant)
    resolved = resolve_embedder(cfg.models)
    store = LanceStore.open(cfg.storage, dim=resolved.manifest.dim, create=True)
    store.bind_embedder(resolved.manifest, action="append to this index", models_home=cfg.models.home)
    bm25 = open_bm25(cfg.storage.bm25_path, create=True, shards=cfg.ingest.bm25_shards, new_shards=new_bm25_shards)
    return resolved, store, bm25


def run_ingest(cfg: StrataConfig, path: str | Path, *, source: str | None = None, prune: bool = False,
               tenant: str = DEFAULT_TENANT) -> IngestReport:
    """Ingest every matching file under ``path`` into ``tenant``'s index (idempotent, resumable).

    Each tenant has its own index (:func:`cluster.tenants.tenant_config`): its own tables, BM25
    directory, journal, embedding cache and single-writer lock."""
    cfg = tenant_config(cfg, tenant)
    setup_tracing(cfg.telemetry)
    started = time.perf_counter()
    report = IngestReport(tenant=tenant)
    init_ray(cfg.ray, env=telemetry_env(cfg))
    from cluster.telemetry.metrics import ingest_metrics

    metrics = ingest_metrics()
    # The embedding pool shapes the writer too: GPUs embed ~100x faster than these CPUs, so on GPUs
    # workers write the Lance fragments, commits are larger and a new BM25 index is sharded.
    eligible = eligible_node_resources(cfg.ingest.worker_resources)
    pool = plan_embed_pool(cfg.ingest, cfg.embedder, eligible, driver_cpus=driver_node_cpus())
    resolved, store, bm25 = open_index_for_write(cfg, new_bm25_shards=pool.bm25_shards)
    cache = EmbeddingCache.open(cfg.storage, dim=store.dim, create=True) if cfg.ingest.embed_cache else None
    # A sharded BM25 index is written by one process per shard (the driver still decides every commit),
    # beside the driver or spread over the worker nodes (ingest.bm25_writers).
    bm25_writer = bm25
    if isinstance(bm25, ShardedBm25):
        nodes = worker_node_ids(cfg.ingest.worker_resources) if pool.bm25_writers == "workers" else []
        bm25_writer = ShardWriterPool(bm25, nodes, fallback=cfg.ingest.bm25_writers == "auto")
    sink = IndexSink(store, bm25_writer, IngestJournal(cfg.storage.journal_path), known=store.known_documents(),
                     batch_rows=pool.commit_rows, cache=cache, fingerprint=resolved.manifest.fingerprint,
                     bm25_threads=cfg.ingest.bm25_threads)
    try:
        with span("ingest", path=str(path)):
            report.recovered = sink.recover()
            items, seen_ids, label = [], set(), None
            chunking = chunking_config(cfg.models.model_dump_json(), cfg.chunking.model_dump_json()).signature
            with span("ingest.discover"):
                for entry in discover(Path(path), include=cfg.ingest.include, exclude=cfg.ingest.exclude,
                                      max_bytes=cfg.ingest.max_file_bytes, source=source):
                    report.files_seen += 1
                    if isinstance(entry, SkippedFile):
                        report.failed.append((entry.path, entry.reason, entry.detail))
                        metrics.failures.inc(tags={"reason": entry.reason})
                        continue
                    label = entry.source
                    seen_ids.add(entry.doc_id)
                    known = sink.known.get(entry.doc_id)
                    # chunked with other settings (or by an older chunker): chunk it again, whatever its bytes
                    rechunk = known is not None and known[3] is not None and known[3] != chunking
                    if known and not rechunk and known[0] == entry.size and known[1] == entry.mtime_ns:
                        report.unchanged += 1
                        continue
                    report.rechunked += rechunk
                    items.append(_item(entry, known[2] if known and not rechunk else None))
            if report.unchanged:
                metrics.documents.inc(report.unchanged, tags={"status": "unchanged"})
            if items:
                report.plan = {"embed_actors": pool.actors, "device": "GPU" if pool.gpus else "CPU",
                               "parse_tasks": _parse_tasks(cfg.ingest, eligible), "writer": pool.writer,
                               "commit_rows": pool.commit_rows, "bm25_shards": bm25.shards,
                               "bm25_writer_nodes": len(set(getattr(bm25_writer, "placed", []))) or 1,
                               "token_ids": pool.token_ids}
                _run_pipeline(cfg, pool, eligible, items, sink, report, metrics, started)
            sink.close()
            if prune and label is not None:
                report.deleted = _prune(store, bm25, label, seen_ids)
            c = sink.counts
            report.new, report.updated, report.unchanged = c.new, c.updated, report.unchanged + c.unchanged
            report.chunks, report.sections, report.tokens, report.commits = c.chunks, c.sections, c.tokens, c.commits
            report.cache_hits, report.cache_misses = c.cache_hits, c.cache_misses
            for result, n in (("hit", c.cache_hits), ("miss", c.cache_misses)):
                if n:
                    metrics.embed_cache.inc(n, tags={"result": result})
            report.failed += c.failed
            for path_, reason, _ in c.failed:
                metrics.failures.inc(tags={"reason": reason})
            if c.commits or report.deleted or report.recovered:
                with span("ingest.index"):
                    report.index_actions = store.maintain(cfg.index)
                    if cache is not None:
                        cache.maintain(cleanup_older_than_hours=cfg.index.cleanup_older_than_hours)
            report.totals = record_table_stats(store)
    finally:
        sink.bm25.close_writer()
    report.elapsed_s = time.perf_counter() - started
    return report


def ingest_complete(cfg: StrataConfig, path: str | Path, *, source: str | None = None,
                    tenant: str = DEFAULT_TENANT, keep_going: bool = False) -> IngestReport:
    """:func:`run_ingest` for scripts (evaluation, benchmarks): the Ray it connected to is let go
    afterwards (an embedded one it started is stopped, :func:`cluster.runtime.stop_ray`), and a file
    that failed raises ``RuntimeError`` naming it (an evaluation over a partial corpus would be wrong
    without saying so) unless ``keep_going``: then the report's ``failed`` says what was left out.

    >>> # report = ingest_complete(cfg, "corpus/", source="scifact"); report.chunks
    """
    import ray

    started_ray = not ray.is_initialized()
    try:
        report = run_ingest(cfg, path, source=source, tenant=tenant)
    finally:
        if started_ray:
            stop_ray()
    if report.failed and not keep_going:
        raise RuntimeError(f"{len(report.failed)} corpus files failed to ingest: {report.summary(max_failures=5)}")
    return report


def _item(entry: SourceFile, known_hash: str | None) -> dict:
    return {"doc_id": entry.doc_id, "source": entry.source, "path": entry.path, "relpath": entry.relpath,
            "size": entry.size, "mtime_ns": entry.mtime_ns, "known_hash": known_hash or ""}


def _run_pipeline(cfg: StrataConfig, pool: EmbedPool, eligible: list[dict[str, float]], items: list[dict],
                  sink: IndexSink, report: IngestReport, metrics, started: float) -> None:
    ingest = cfg.ingest
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.verbose_progress = False
    parse_tasks = _parse_tasks(ingest, eligible)
    # Parsed units wait in the object store until an actor embeds them: hold parsing a few units ahead.
    limit_run_ahead(ctx, parse_chunk_batch.__name__, run_ahead_units(pool.actors, parse_tasks))
    # The workers may be other machines: they get the settings as JSON, model paths resolved here.
    shipped = absolute_paths(cfg)
    models_json = shipped.models.model_dump_json()
    # The embed actors look texts up in the index's embedding cache, unless it held nothing when
    # this ingest began (a first ingest: every lookup would miss; they skip importing LanceDB too).
    lookups = sink.cache is not None and sink.cache.rows() > 0
    storage_json = shipped.storage.model_dump_json() if lookups else None
    resources = dict(ingest.worker_resources) or None  # custom resources pin parse tasks and embed actors
    # One block per work unit (largest files first), one row each: its files. Parse tasks and embed
    # calls take whole blocks. (from_items builds the blocks here; from_arrow would run a Ray task per
    # block for its metadata, which never starts while a Serve app holds every CPU of the cluster.)
    units = work_units(items, unit_bytes=pool.unit_tokens * BYTES_PER_TOKEN, workers=pool.actors)
    ds = ray.data.from_items([{"files": unit} for unit in units], override_num_blocks=len(units))
    ds = ds.map_batches(
        parse_chunk_batch, batch_format="pyarrow", batch_size=None, num_cpus=ingest.parse_task_cpus,
        compute=ray.data.TaskPoolStrategy(size=parse_tasks), resources=resources,
        fn_kwargs={"models_json": models_json, "chunking_json": cfg.chunking.model_dump_json(),
                   "max_file_bytes": ingest.max_file_bytes, "token_ids": pool.token_ids,
                   "parse_timeout_s": ingest.parse_timeout_s},
    )
    ds = ds.map_batches(
        EmbedDocuments, batch_format="pyarrow", batch_size=None,
        compute=ray.data.ActorPoolStrategy(size=pool.actors), num_cpus=ingest.embed_actor_cpus,
        num_gpus=pool.gpus or None, resources=resources,
        fn_constructor_kwargs={"models_json": models_json, "embedder_json": pool.embedder.model_dump_json(),
                               "storage_json": storage_json},
    )
    if pool.writer == "workers":  # the same nodes as embedding write the fragments; the driver commits them
        targets = fragment_targets(sink.store, sink.cache, sink.fingerprint,
                                   storage_options=shipped.storage.storage_options, bm25_shards=sink.bm25.shards)
        ds = ds.map_batches(write_fragments_batch, batch_format="pyarrow", batch_size=None,
                            num_cpus=ingest.fragment_task_cpus, resources=resources,
                            fn_kwargs={"targets_json": targets, "unit_chunks": pool.commit_rows})
    progress = IngestProgress(len(items), enabled=ingest.progress)
    try:
        for batch in ds.iter_batches(batch_size=None, batch_format="pyarrow", prefetch_batches=1):
            if report.first_batch_s is None:  # start-up: Ray, the workers, the model, the first unit
                report.first_batch_s = round(time.perf_counter() - started, 2)
            counts = sink.accept(batch)
            for status in ("ok", "unchanged", "failed"):
                if counts[status]:
                    metrics.documents.inc(counts[status], tags={"status": status})
            progress.update(docs=batch.num_rows, chunks=counts["chunks"], tokens=counts["tokens"])
    finally:
        report.pipeline_s = round(time.perf_counter() - started, 2)
        progress.close()


def _parse_tasks(ingest: IngestConfig, eligible: list[dict[str, float]]) -> int:
    """Parse/chunk tasks at once: ``ingest.parse_tasks``, or half the eligible CPUs (at least 1)."""
    return ingest.parse_tasks or max(1, int(sum(r.get("CPU", 0) for r in eligible)) // 2)


def _prune(store: LanceStore, bm25: Bm25Index | ShardedBm25, source: str, seen: set[str]) -> int:
    """Delete documents of ``source`` that are no longer on disk."""
    docs = store.scan(DOCUMENTS, ["doc_id", "source"])
    stale = [d for d, s in zip(docs.column("doc_id").to_pylist(), docs.column("source").to_pylist())
             if s == source and d not in seen]
    if stale:
        delete_documents(store, bm25, stale)
    return len(stale)


def record_table_stats(store: LanceStore) -> dict[str, int]:
    """Publish row/fragment/unindexed gauges; returns row counts per table."""
    from cluster.telemetry.metrics import ingest_metrics

    metrics = ingest_metrics()
    totals = {}
    for name in (DOCUMENTS, SECTIONS, CHUNKS):
        stats = store.stats(name)
        tags = {"table": name}
        metrics.table_rows.set(stats.rows, tags=tags)
        metrics.fragments.set(stats.fragments, tags=tags)
        metrics.unindexed_rows.set(stats.unindexed_rows, tags=tags)
        totals[name] = stats.rows
    return totals
