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

Where the actors run (``ingest.bm25_writers``): on the driver's node (``nodes`` empty; the BM25
directories may then be its local disk), or spread over the worker nodes (``nodes``: shard *i* on
``nodes[i % len(nodes)]``), so BM25 indexing grows with the cluster instead of with the head's
cores. A writer on another node must see the driver's index on shared storage: the driver stamps
the index with a random token (:data:`TOKEN_FILE`) and each writer checks it before it opens its
shard, so a node whose ``bm25_dir`` is its own local folder (same path, other files) is found out
at once (:class:`SharedStorageError`) instead of indexing into the wrong place. With
``fallback`` (``bm25_writers = "auto"``) such a shard's writer moves to the driver's node; without
it the ingest stops with that error. A remote writer is sent only its shard's documents; writers
beside the driver share one copy of the batch in Ray's shared memory.

The actors reserve no CPUs (the driver's helpers, like the driver process itself; on a worker
node they share its cores with the embedding actor's tokenizers).

>>> # pool = ShardWriterPool(open_bm25(path, create=True, shards=4), nodes=worker_node_ids({}))
>>> # pool.open_writer(); pool.add_json(documents, shards_of(doc_ids, pool.shards)); pool.commit()
>>> # pool.close_writer()
"""

from __future__ import annotations

import logging
import socket
import time
import uuid
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
#: The file in a sharded index's folder that holds the current ingest's token (see the module docstring).
TOKEN_FILE = "writers.token"

log = logging.getLogger(__name__)


class SharedStorageError(RuntimeError):
    """A shard writer's node does not see the driver's BM25 index (not shared storage)."""


def check_token(root: Path, token: str) -> None:
    """Raise :class:`SharedStorageError` unless ``root`` holds the index the driver stamped with
    ``token`` (:meth:`ShardWriterPool.open_writer`).

    >>> import tempfile; d = Path(tempfile.mkdtemp()); (d / TOKEN_FILE).write_text("t1")
    2
    >>> check_token(d, "t1")
    >>> check_token(d, "t2")
    Traceback (most recent call last):
    pipelines.sink.bm25_shards.SharedStorageError: node ... sees another BM25 index than the driver's at ...: ...
    """
    try:
        seen = (root / TOKEN_FILE).read_text()
    except OSError:
        seen = None
    if seen != token:
        what = "no BM25 index" if seen is None else "another BM25 index than the driver's"
        raise SharedStorageError(
            f"node {socket.gethostname()} sees {what} at {root}: storage.bm25_dir must be "
            f"storage every worker node shares for ingest.bm25_writers = 'workers' (or set it to 'driver')")


@ray.remote(num_cpus=0)
class Bm25ShardWriter:
    """The writer of one shard directory (takes its lock for the actor's lifetime)."""

    def __init__(self, path: str, threads: int, lock_wait_s: float = LOCK_WAIT_S, token: str | None = None) -> None:
        """``token``: check the index's token first (a writer on another node than the driver's)."""
        from cluster.store.bm25 import Bm25Index

        if token is not None:
            check_token(Path(path).parent, token)
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

    def node_id(self) -> str:
        return ray.get_runtime_context().get_node_id()

    def write(self, delete_ids: list[str], documents: pa.Array | pa.ChunkedArray | None = None,
              mine: pa.Array | None = None) -> int:
        """Delete these documents' chunks, then add rendered chunks (not committed yet): the rows
        ``mine`` of ``documents`` (writers on one node share the array from shared memory, no
        copies), or all of ``documents`` when ``mine`` is None (a remote writer's own)."""
        if delete_ids:
            self.index.delete_documents(delete_ids)
        if documents is None:
            return 0
        if mine is not None:
            documents = documents.take(mine)
        if not len(documents):
            return 0
        self.index.add_json(documents.to_pylist())
        return len(documents)

    def cpu_seconds(self) -> float:
        """CPU time of this process so far (its tantivy threads included), for benchmarks."""
        return time.process_time()

    def commit(self) -> None:
        self.index.commit()

    def close(self) -> None:
        self.index.close_writer()


class ShardWriterPool:
    """A :class:`cluster.store.bm25.Bm25Writer` over one :class:`Bm25ShardWriter` per shard of ``index``
    (an unsharded index gets one, which benchmarks compare with the driver's own writer), on the
    driver's node or spread over ``nodes`` (see the module docstring). Adds and deletes are sent at
    once and run while the driver writes LanceDB; :meth:`commit` waits."""

    def __init__(self, index: ShardedBm25 | Bm25Index, nodes: Sequence[str] = (), *, fallback: bool = False) -> None:
        """``nodes``: node ids to spread the shard writers over (empty: the driver's node);
        ``fallback``: a writer whose node does not see the index moves to the driver's node."""
        self.index = index
        self.shards = index.shards
        self.nodes = list(nodes)
        self.fallback = fallback
        self.placed: list[str] = []  # each shard writer's node id, once open
        self._actors: list = []
        self._remote: list[bool] = []
        self._pending: list = []

    def open_writer(self, heap_bytes: int | None = None, threads: int = 0) -> None:
        """Start the shard writers, ``threads`` tantivy threads each (0: on the driver's node its cores
        shared out, at least 1; on worker nodes 1); raises if another process holds a shard, or if a
        worker node does not see the index (:class:`SharedStorageError`, unless ``fallback``)."""
        here = ray.get_runtime_context().get_node_id()
        token = self._stamp() if self.nodes else None
        local_threads = threads or max(1, writer_threads() // self.shards)
        self._actors, self._remote = [], []
        for i, part in enumerate(self.index.parts):
            node = self.nodes[i % len(self.nodes)] if self.nodes else here
            self._start(part.path, node, here, local_threads if node == here else (threads or 1), token)
        try:
            self._await_ready(here, local_threads)
        except Exception as exc:
            self._kill()
            if isinstance(exc, SharedStorageError):
                raise
            raise RuntimeError(f"could not open the BM25 shard writers at {self.index.path}: {exc}") from exc

    def _stamp(self) -> str:
        """Write a new token into the index's folder (atomically) for the remote writers to check."""
        token = uuid.uuid4().hex
        tmp = self.index.path / (TOKEN_FILE + ".tmp")
        tmp.write_text(token)
        tmp.replace(self.index.path / TOKEN_FILE)
        return token

    def _start(self, path: Path, node: str, here: str, threads: int, token: str | None, slot: int | None = None) -> None:
        strategy = NodeAffinitySchedulingStrategy(node, soft=False)
        actor = Bm25ShardWriter.options(scheduling_strategy=strategy).remote(
            str(path), threads, LOCK_WAIT_S, token)
        remote = token is not None  # placed on a listed node: sent only its own documents
        if slot is None:
            self._actors.append(actor)
            self._remote.append(remote)
        else:
            self._actors[slot], self._remote[slot] = actor, remote

    def _await_ready(self, here: str, local_threads: int) -> None:
        """Wait for every writer; with ``fallback``, restart on the driver's node those whose node
        does not see the index."""
        for i, actor in enumerate(list(self._actors)):
            try:
                ray.get(actor.ready.remote())
            except ray.exceptions.RayActorError as exc:
                cause = getattr(exc, "cause", None) or exc
                shared = isinstance(cause, SharedStorageError) or SharedStorageError.__name__ in str(exc)
                if not shared:
                    raise
                if not self.fallback:
                    raise SharedStorageError(str(cause).split("SharedStorageError: ")[-1].strip()) from exc
                log.warning("BM25 shard %d's writer moves to the driver's node: %s", i, cause)
                self._start(self.index.parts[i].path, here, here, local_threads, None, slot=i)
                ray.get(self._actors[i].ready.remote())
        self.placed = ray.get([actor.node_id.remote() for actor in self._actors])

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
        rows = {shard: mine for shard in range(self.shards) if len(mine := pc.indices_nonzero(pc.equal(numbers, shard)))}
        local = {shard: mine for shard, mine in rows.items() if not self._remote[shard]}
        if local:
            self._send({}, ray.put(docs), local)
        for shard in rows.keys() - local.keys():  # only its own documents cross the network
            self._pending.append(self._actors[shard].write.remote([], docs.take(rows[shard]), None))

    def delete_documents(self, doc_ids: list[str]) -> None:
        routed: dict[int, list[str]] = {}
        for doc_id in doc_ids:
            routed.setdefault(shard_of(doc_id, self.shards), []).append(doc_id)
        self._send(routed, {})

    def commit(self) -> None:
        """Every shard commits what it was sent; returns when all have. A writer that died (its node
        lost) raises ``RuntimeError``: the batch is not committed, and the next ingest resumes."""
        pending, self._pending = self._pending, []
        try:
            ray.get(pending + [actor.commit.remote() for actor in self._actors])
        except ray.exceptions.RayActorError as exc:
            raise RuntimeError(f"a BM25 shard writer of {self.index.path} died ({type(exc).__name__}, its node lost?); "
                               "this batch is not committed: run the ingest again, it resumes") from exc

    def cpu_seconds(self) -> list[float]:
        """Each shard writer process's CPU time so far (benchmarks)."""
        return ray.get([actor.cpu_seconds.remote() for actor in self._actors])

    def close_writer(self) -> None:
        """Release every shard's lock (uncommitted additions are dropped) and stop the actors."""
        if not self._actors:
            return
        try:
            ray.get([actor.close.remote() for actor in self._actors])
        except ray.exceptions.RayActorError:
            pass  # a writer already lost (commit raised): its lock and uncommitted additions went with it
        finally:
            self._kill()

    def _kill(self) -> None:
        for actor in self._actors:
            ray.kill(actor)
        self._actors, self._remote, self._pending = [], [], []


def _array(values: Sequence[str] | pa.Array | pa.ChunkedArray) -> pa.Array | pa.ChunkedArray:
    """Arrow as it comes (a chunked array is not combined: that would copy every document)."""
    return values if isinstance(values, (pa.Array, pa.ChunkedArray)) else pa.array(values, pa.string())
