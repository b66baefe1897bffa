"""One writer process per BM25 shard during an ingest (``ingest.bm25_shards`` > 1).

One tantivy writer indexed 13–25k chunks/s here (``bench/sink_bench.py``; a second thread adds
30–80%, and tantivy uses at most 8), and its indexing threads spend ~60–90 µs of CPU a chunk inside
the process that owns the writer. A GPU cluster embeds far faster than that, so a sharded index
(:class:`cluster.store.bm25.ShardedBm25`) gets one :class:`Bm25ShardWriter` actor per shard: each
holds its shard's writer lock, indexes the documents routed to it (the fragment-writing workers
compute each document's shard) and commits when the driver says.
The driver stays the only committer: :class:`ShardWriterPool` has the writing methods of a BM25
index, so :class:`pipelines.sink.writer.IndexSink` drives it in its journaled order, and its
``commit`` returns once every shard has committed (a crash before that leaves the journal, and the
next ingest deletes the torn documents from every shard).

The actors run on the driver's node (the BM25 directories are on the writer's filesystem) and
reserve no CPUs: they are the driver's helpers, like the driver process itself.

>>> # pool = ShardWriterPool(open_bm25(path, create=True, shards=4)); pool.open_writer()
>>> # pool.add_json(documents, shards_of(doc_ids, pool.shards)); pool.commit(); pool.close_writer()
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from cluster.store.bm25 import NEED_SHARDS, Bm25Index, ShardedBm25, shard_of, writer_threads

#: How long a shard writer waits for its shard's lock: after a crash, Ray reaps the dead driver's
#: actors (which held the locks) within seconds; another live ingest still fails after this.
LOCK_WAIT_S = 30.0


@ray.remote(num_cpus=0)
class Bm25ShardWriter:
    """The writer of one shard directory (takes its lock for the actor's lifetime)."""

    def __init__(self, path: str, threads: int, lock_wait_s: float = LOCK_WAIT_S) -> None:
        from cluster.store.bm25 import Bm25Index

        self.index = Bm25Index(Path(path))
        deadline = time.monotonic() + lock_wait_s
        while True:
            try:
                self.index.open_writer(threads=threads)
                return
            except RuntimeError:  # the lock: a killed driver's shard writer may take seconds to be reaped
                if time.monotonic() >= deadline:
                    raise
                time.sleep(0.5)

    def ready(self) -> bool:
        return True

    def write(self, delete_ids: list[str], documents: pa.Array | pa.ChunkedArray | None = None,
              mine: pa.Array | None = None) -> int:
        """Delete these documents' chunks, then add rendered chunks (not committed yet): the rows
        ``mine`` of ``documents`` (every shard gets the same array from shared memory, no copies)."""
        if delete_ids:
            self.index.delete_documents(delete_ids)
        if documents is None or mine is None or not len(mine):
            return 0
        self.index.add_json(documents.take(mine).to_pylist())
        return len(mine)

    def cpu_seconds(self) -> float:
        """CPU time of this process so far (its tantivy threads included), for benchmarks."""
        return time.process_time()

    def commit(self) -> None:
        self.index.commit()

    def close(self) -> None:
        self.index.close_writer()


class ShardWriterPool:
    """A :class:`cluster.store.bm25.Bm25Writer` over one :class:`Bm25ShardWriter` per shard of ``index``
    (an unsharded index gets one, which benchmarks compare with the driver's own writer). Adds and
    deletes are sent at once and run while the driver writes LanceDB; :meth:`commit` waits."""

    def __init__(self, index: ShardedBm25 | Bm25Index) -> None:
        self.index = index
        self.shards = index.shards
        self._actors: list = []
        self._pending: list = []

    def open_writer(self, heap_bytes: int | None = None, threads: int = 0) -> None:
        """Start the shard writers on this (the driver's) node, ``threads`` tantivy threads each
        (0: the node's cores shared out, at least 1); raises if another process holds a shard."""
        here = NodeAffinitySchedulingStrategy(ray.get_runtime_context().get_node_id(), soft=False)
        each = threads or max(1, writer_threads() // self.shards)
        self._actors = [Bm25ShardWriter.options(scheduling_strategy=here).remote(str(part.path), each)
                        for part in self.index.parts]
        try:
            ray.get([actor.ready.remote() for actor in self._actors])
        except Exception as exc:
            self._kill()
            raise RuntimeError(f"could not open the BM25 shard writers at {self.index.path}: {exc}") from exc

    @property
    def writing(self) -> bool:
        return bool(self._actors)

    def _send(self, deletes: dict[int, list[str]], documents=None, rows: dict[int, pa.Array] | None = None) -> None:
        """``documents``: an object ref of every shard's documents, ``rows``: each shard's rows of it."""
        assert self._actors, "open_writer() first"
        rows = rows or {}
        for shard in deletes.keys() | rows.keys():
            self._pending.append(self._actors[shard].write.remote(deletes.get(shard, []), documents, rows.get(shard)))

    def add_json(self, documents: Sequence[str] | pa.Array | pa.ChunkedArray,
                 shards: Sequence[int] | pa.Array | pa.ChunkedArray | None = None) -> None:
        """Send each rendered document to the writer of its ``shards`` entry (:func:`cluster.store.bm25.
        shards_of` of its doc_id). The documents go into Ray's shared memory once, as Arrow; each
        shard is sent its row numbers."""
        if shards is None:
            raise ValueError(NEED_SHARDS)
        docs = _array(documents)
        if isinstance(shards, pa.ChunkedArray):
            shards = shards.combine_chunks()
        numbers = shards if isinstance(shards, pa.Array) else pa.array(shards, pa.int32())
        if len(docs) != len(numbers):
            raise ValueError(f"{len(docs)} documents but {len(numbers)} shard numbers")
        rows = {shard: pc.indices_nonzero(pc.equal(numbers, shard)) for shard in range(self.shards)}
        self._send({}, ray.put(docs), {shard: mine for shard, mine in rows.items() if len(mine)})

    def delete_documents(self, doc_ids: list[str]) -> None:
        routed: dict[int, list[str]] = {}
        for doc_id in doc_ids:
            routed.setdefault(shard_of(doc_id, self.shards), []).append(doc_id)
        self._send(routed, {})

    def commit(self) -> None:
        """Every shard commits what it was sent; returns when all have (raises if one failed)."""
        pending, self._pending = self._pending, []
        ray.get(pending + [actor.commit.remote() for actor in self._actors])

    def cpu_seconds(self) -> list[float]:
        """Each shard writer process's CPU time so far (benchmarks)."""
        return ray.get([actor.cpu_seconds.remote() for actor in self._actors])

    def close_writer(self) -> None:
        """Release every shard's lock (uncommitted additions are dropped) and stop the actors."""
        if not self._actors:
            return
        try:
            ray.get([actor.close.remote() for actor in self._actors])
        finally:
            self._kill()

    def _kill(self) -> None:
        for actor in self._actors:
            ray.kill(actor)
        self._actors, self._pending = [], []


def _array(values: Sequence[str] | pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """Arrow as it comes (a chunked array is not combined: that would copy every document)."""
    return values if isinstance(values, (pa.Array, pa.ChunkedArray)) else pa.array(values, pa.string())
