"""Embedding actors (Ray Data actor pool): add chunk and section-summary vectors to parsed rows.

Each actor loads the embedder once (fastembed/onnxruntime; the CUDA provider when a GPU is
visible and granted). Identical texts in a batch are embedded once (a one-chunk section's
summary is that chunk), and texts whose vectors the index's embedding cache already holds
(:mod:`cluster.store.embed_cache`) are not embedded at all: only the misses are, and they travel
on to the single writer, which stores them. When the parse tasks sent the inputs' token ids
(``ingest.token_ids``, on by default when GPUs embed) the actor runs the model on them and tokenizes
nothing (:meth:`cluster.models.embedder.Embedder.embed_ids`).

>>> # ds.map_batches(EmbedDocuments, fn_constructor_kwargs=..., compute=ActorPoolStrategy(size=1))
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from cluster.config import EmbedderConfig, IngestConfig, ModelsConfig, StorageConfig
from cluster.models.embedder import Embedder
from cluster.store.embed_cache import EmbeddingCache, text_key
from cluster.models.registry import resolve_embedder
from cluster.telemetry.tracing import span
from pipelines.records import STATUS_OK, TOKEN_ID_FIELDS, chunk_input, embedded_schema, summary_input


CPU_UNIT_TOKENS = 16_384  # ~7 s of one single-threaded MiniLM actor: the most a finished ingest waits on one actor
GPU_UNIT_TOKENS = 262_144  # ~0.1 s of an H100, far above Ray's per-task overhead
CPU_COMMIT_ROWS = 4_096  # chunks per writer commit when CPUs embed: ~1 min of 2 cores, progress and a small redo
GPU_COMMIT_ROWS = 65_536  # when GPUs embed: ~0.4 s of 8 H100s; per-commit costs amortised (bench/sink_bench.py)
#: BM25 shards of a new index per embedding GPU: with every core of a 16-core node busy one shard writer
#: indexed 8.2–9.1k chunks/s (bench/head_writer_bench.py), one H100 embeds MiniLM-L6 at ~24.5k chunks/s
#: (bench/gpu_embed_bench.py). The shard writers run on the worker nodes (``ingest.bm25_writers``), so
#: each GPU node hosts about three, ~3 of its cores (on one measured node three indexed 48-57k chunks/s
#: while it embedded: bench/gpu_node_bench.py).
GPU_BM25_SHARDS_PER_GPU = 3
#: Embedding actors sharing each GPU. An actor that tokenizes (ingest.token_ids off: twice a text, to
#: sort by length, then each batch in fastembed) does it between its model calls, in one thread: one
#: kept an H100 a quarter busy, 5.1k texts/s against the GPU's 19-27k on ready ids, on a 16-core node
#: with its three BM25 shard writers running; 2 actors 7.3k, 4 actors 9.6k, 6 actors 10.7k
#: (bench/gpu_node_bench.py, torch in place of onnxruntime). With the token ids from the parse tasks
#: (the GPU default) one process reached 23-25k: the actors only pad, run and pool; four still overlap
#: one's CPU work with another's GPU time, and leave the node's cores room for the shard writers.
GPU_ACTORS_PER_GPU = 4


@dataclass(frozen=True)
class EmbedPool:
    """How many embedding actors run, what each reserves, and the settings each gets."""

    actors: int
    gpus: float  # per actor; 0: CPU
    embedder: EmbedderConfig
    unit_tokens: int  # text per work unit (pipelines.sources.units): seconds of work for one actor
    commit_rows: int  # chunks per commit of the single writer (ingest.writer_batch_rows, or by device)
    writer: str = "driver"  # who writes the Lance rows (ingest.writer, or by device): "driver" or "workers"
    bm25_shards: int = 1  # BM25 shards of a new index when ingest.bm25_shards is 0 (by device)
    bm25_writers: str = "driver"  # where shard writers run (ingest.bm25_writers, or by writer): "driver" or "workers"
    token_ids: bool = False  # parse tasks send the embed inputs' token ids (ingest.token_ids, or by device)


def plan_embed_pool(ingest: IngestConfig, embedder: EmbedderConfig, eligible: list[dict[str, float]],
                    driver_cpus: float | None = None) -> EmbedPool:
    """Size the actor pool from the resources of the nodes that may host it
    (:func:`cluster.runtime.eligible_node_resources`). On GPUs
    (``embedder.device`` not ``cpu`` and an eligible GPU, or ``embed_actor_gpus`` set)
    :data:`GPU_ACTORS_PER_GPU` actors share each GPU (``embed_actor_gpus``, when set, is each one's
    share), and the parse tasks send the inputs' token ids (``ingest.token_ids``). On CPUs there is
    one actor per eligible CPU, each with one onnxruntime thread:
    single-threaded sessions have no intra-op barrier, so when parse tasks, the writer and Ray's own
    processes take a core for a moment no sibling thread spins waiting (measured on 2 cores: the
    same texts in 118.7 s with 2 actors × 1 thread, 126.8 s with 1 actor × 2 threads).
    An explicit ``embed_actors`` / ``embedder.threads`` wins. A work unit is ~7 s of one CPU actor
    (:data:`CPU_UNIT_TOKENS`) or ~0.1 s of one H100 (:data:`GPU_UNIT_TOKENS`) unless
    ``ingest.unit_tokens`` is set. The writer commits :data:`CPU_COMMIT_ROWS` or
    :data:`GPU_COMMIT_ROWS` chunks at a time unless ``ingest.writer_batch_rows`` is set.

    GPUs embed faster than one process writes (``bench/sink_bench.py``), so on GPUs the writer is
    ``workers`` (they write the Lance fragments, the driver commits them) and a new index gets
    :data:`GPU_BM25_SHARDS_PER_GPU` BM25 shards per embedding GPU, each indexed by its own process
    on a worker node (``bm25_writers``), unless ``ingest.writer`` / ``ingest.bm25_writers`` say
    otherwise (``ingest.bm25_shards``, when set, wins in :func:`cluster.store.bm25.open_bm25`). Shard
    writers on the driver's node are at most its cores less one (``driver_cpus``, when known; at
    least 2). On CPUs the driver writes, one shard.

    >>> pool = plan_embed_pool(IngestConfig(), EmbedderConfig(), [{"CPU": 2.0}])
    >>> pool.actors, pool.gpus, pool.embedder.threads, pool.unit_tokens, pool.commit_rows
    (2, 0.0, 1, 16384, 4096)
    >>> pool.writer, pool.bm25_shards, pool.bm25_writers, pool.token_ids
    ('driver', 1, 'driver', False)
    >>> gpu_pool = plan_embed_pool(IngestConfig(), EmbedderConfig(), [{"CPU": 9.0}] + [{"CPU": 16.0, "GPU": 1.0}] * 8,
    ...                            driver_cpus=9.0)
    >>> gpu_pool.actors, gpu_pool.gpus, gpu_pool.commit_rows, gpu_pool.writer, gpu_pool.bm25_shards, gpu_pool.bm25_writers
    (32, 0.25, 65536, 'workers', 24, 'workers')
    >>> gpu_pool.token_ids  # the parse tasks tokenize, so the GPU nodes' cores do not
    True
    >>> plan_embed_pool(IngestConfig(bm25_writers="driver"), EmbedderConfig(), [{"CPU": 8.0, "GPU": 8.0}],
    ...                 driver_cpus=8.0).bm25_shards
    7
    """
    gpus_seen = sum(r.get("GPU", 0) for r in eligible)
    gpus = ingest.embed_actor_gpus or (1 / GPU_ACTORS_PER_GPU if embedder.device != "cpu" and gpus_seen >= 1 else 0.0)
    if gpus:
        actors = ingest.embed_actors or max(1, math.floor(gpus_seen / gpus + 1e-9))
        shards = GPU_BM25_SHARDS_PER_GPU * math.ceil(actors * gpus - 1e-9)
        writer = _writer(ingest, "workers")
        placement = _bm25_writers(ingest, writer)
        if driver_cpus is not None and placement == "driver":
            shards = min(shards, int(driver_cpus) - 1)
        return EmbedPool(actors, gpus, embedder, ingest.unit_tokens or GPU_UNIT_TOKENS,
                         ingest.writer_batch_rows or GPU_COMMIT_ROWS, writer=writer,
                         bm25_shards=min(64, max(2, shards)), bm25_writers=placement,
                         token_ids=ingest.token_ids != "off")
    unit, commit_rows = ingest.unit_tokens or CPU_UNIT_TOKENS, ingest.writer_batch_rows or CPU_COMMIT_ROWS
    writer = _writer(ingest, "driver")
    placement = _bm25_writers(ingest, writer)
    token_ids = ingest.token_ids == "on"
    if ingest.embed_actors:
        return EmbedPool(ingest.embed_actors, 0.0, embedder, unit, commit_rows, writer=writer, bm25_writers=placement,
                         token_ids=token_ids)
    cpus = int(sum(r.get("CPU", 0) for r in eligible))
    return EmbedPool(max(1, cpus), 0.0, embedder.model_copy(update={"threads": embedder.threads or 1}), unit,
                     commit_rows, writer=writer, bm25_writers=placement, token_ids=token_ids)


def _writer(ingest: IngestConfig, auto: str) -> str:
    return auto if ingest.writer == "auto" else ingest.writer


def _bm25_writers(ingest: IngestConfig, writer: str) -> str:
    """Where shard writers run: as set, or (auto) where the Lance fragments are written."""
    return ingest.bm25_writers if ingest.bm25_writers != "auto" else writer


class EmbedDocuments:
    """Callable class for ``Dataset.map_batches`` (one instance per actor)."""

    def __init__(self, models_json: str, embedder_json: str, storage_json: str | None = None) -> None:
        """``storage_json``: the index's storage settings, to read its embedding cache (None: no cache)."""
        resolved = resolve_embedder(ModelsConfig.model_validate_json(models_json))
        self.embedder = Embedder.load(resolved, EmbedderConfig.model_validate_json(embedder_json))
        self.fingerprint = resolved.manifest.fingerprint
        self.schema = embedded_schema(self.embedder.dim)
        self.cache = (EmbeddingCache.open(StorageConfig.model_validate_json(storage_json), dim=self.embedder.dim)
                      if storage_json else None)

    def __call__(self, batch: pa.Table) -> pa.Table:
        from cluster.telemetry.metrics import ingest_metrics

        started = time.perf_counter()
        statuses = batch.column("status").to_pylist()
        chunks = batch.column("chunks").to_pylist()
        sections = batch.column("sections").to_pylist()
        chunk_ids, summary_ids = (batch.column(name).to_pylist() if name in batch.column_names else [None] * batch.num_rows
                                  for name in TOKEN_ID_FIELDS)
        batch = batch.drop_columns([name for name in TOKEN_ID_FIELDS if name in batch.column_names])
        texts: list[str] = []
        text_ids: list[list[int] | None] = []  # each text's token ids, when the parse task sent them
        first_row: list[int] = []  # the row that first used each text (cache counts are charged to it)
        index: dict[str, int] = {}

        def slot(text: str, row: int, ids: list[int] | None) -> int:
            if text not in index:
                index[text] = len(texts)
                texts.append(text)
                text_ids.append(ids)
                first_row.append(row)
            return index[text]

        chunk_slots = [[slot(chunk_input(c), r, ids[i] if ids else None) for i, c in enumerate(cs)] if st == STATUS_OK else []
                       for r, (st, cs, ids) in enumerate(zip(statuses, chunks, chunk_ids))]
        section_slots = [[slot(summary_input(s), r, ids[i] if ids else None) for i, s in enumerate(ss)]
                         if st == STATUS_OK else []
                         for r, (st, ss, ids) in enumerate(zip(statuses, sections, summary_ids))]
        keys = [text_key(t) for t in texts]
        dim = self.embedder.dim
        vectors = np.zeros((len(texts), dim), np.float32)
        cached = self.cache.lookup(self.fingerprint, keys) if self.cache is not None and texts else {}
        for i, key in enumerate(keys):
            if key in cached:
                vectors[i] = cached[key]
        missing = [i for i, key in enumerate(keys) if key not in cached]
        with span("ingest.embed", texts=len(missing), cached=len(texts) - len(missing), device=self.embedder.device):
            if missing and all(text_ids[i] is not None for i in missing):  # no tokenizing here
                vectors[missing] = self.embedder.embed_ids([text_ids[i] for i in missing])
            elif missing:
                vectors[missing] = self.embedder.embed([texts[i] for i in missing])
        chunk_vectors = [vectors[s] for s in chunk_slots]
        section_vectors = [vectors[s] for s in section_slots]
        centroids = [section_centroids(cv, sv, [c["section_id"] for c in cs], [s["section_id"] for s in ss])
                     if st == STATUS_OK else sv for st, cv, sv, cs, ss in
                     zip(statuses, chunk_vectors, section_vectors, chunks, sections)]
        hits = np.zeros(batch.num_rows, np.int32)
        new_slots: list[list[int]] = [[] for _ in range(batch.num_rows)]
        for i, row in enumerate(first_row):
            if keys[i] in cached:
                hits[row] += 1
            else:
                new_slots[row].append(i)
        misses = np.asarray([len(s) for s in new_slots], np.int32)
        out = (batch.append_column("chunk_vectors", vector_lists(chunk_vectors, dim))
               .append_column("section_vectors", vector_lists(section_vectors, dim))
               .append_column("section_centroids", vector_lists(centroids, dim))
               .append_column("cache_hits", pa.array(hits, pa.int32()))
               .append_column("cache_misses", pa.array(misses, pa.int32()))
               .append_column("new_cache_keys", pa.array([[keys[i] for i in s] for s in new_slots],
                                                         pa.list_(pa.string())))
               .append_column("new_cache_vectors", vector_lists([vectors[s] for s in new_slots], dim)))
        ingest_metrics().stage_seconds.observe(time.perf_counter() - started, tags={"stage": "embed"})
        return out.cast(self.schema)


def section_centroids(chunk_vectors: np.ndarray, summary_vectors: np.ndarray, chunk_sections: list[str],
                      section_ids: list[str]) -> np.ndarray:
    """Per section: the normalised mean of its own chunks' vectors (its summary vector when it has none).

    >>> c = section_centroids(np.eye(2, dtype=np.float32), np.ones((2, 2), np.float32) / 2 ** .5, ["a", "a"], ["a", "b"])
    >>> np.round(c.astype(float), 3).tolist()
    [[0.707, 0.707], [0.707, 0.707]]
    """
    if len(section_ids) == 0:
        return summary_vectors
    position = {sid: i for i, sid in enumerate(section_ids)}
    sums = np.zeros_like(summary_vectors)
    counts = np.zeros(len(section_ids), dtype=np.int64)
    rows = np.fromiter((position[s] for s in chunk_sections), dtype=np.int64, count=len(chunk_sections))
    np.add.at(sums, rows, chunk_vectors)
    np.add.at(counts, rows, 1)
    norms = np.linalg.norm(sums, axis=1, keepdims=True)
    return np.where(counts[:, None] > 0, sums / np.maximum(norms, 1e-12), summary_vectors).astype(np.float32)


def vector_lists(per_row: list[np.ndarray], dim: int) -> pa.Array:
    """A ``list<fixed_size_list<float32, dim>>`` column from one (n_i, dim) array per row."""
    flat = np.concatenate(per_row) if per_row else np.zeros((0, dim), np.float32)
    values = pa.FixedSizeListArray.from_arrays(pa.array(flat.astype(np.float32).ravel(), pa.float32()), dim)
    offsets = np.cumsum([0] + [len(v) for v in per_row]).astype(np.int32)
    return pa.ListArray.from_arrays(pa.array(offsets), values, type=pa.list_(pa.list_(pa.float32(), dim)))
