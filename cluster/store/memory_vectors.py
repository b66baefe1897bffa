"""Exact cosine search over a table's vectors held in memory, cached per lance fragment.

On 2 cores LanceDB's own search costs ~9 ms of CPU per query on an 11k-row flat table (its query
planning, not the arithmetic) and ~13-20 ms with IVF_PQ at ``refine_factor`` 10 (the refine reads
``k × refine_factor`` full vectors from disk), while a float32 matrix product over 100k × 384 costs
~4.7 ms on one thread (``bench/serve_bench.py`` measures the search's CPU). So a
reader whose index fits ``index.memory_search_mb`` keeps its vectors here and searches them exactly:
same rows and distances as LanceDB's flat cosine search (``1 - cos``), and never the ANN's misses.

The copy follows the committed version without re-reading it whole: vectors are cached per lance
fragment, keyed by the fragment's metadata (its data files and deletion file), so a commit that
appends fragments loads only those, a delete reloads only the fragments it touched, and a compaction
reloads the table once. One budget per process (:data:`BUDGET`, ``index.memory_search_mb``) bounds what
all its indexes hold together: a replica serving many tenants keeps the most recently searched ones.

>>> import lance, numpy as np, pyarrow as pa, tempfile
>>> vectors = np.eye(3, dtype=np.float32)
>>> data = pa.table({"chunk_id": ["a", "b", "c"],
...                  "vector": pa.FixedSizeListArray.from_arrays(pa.array(vectors.ravel()), 3)})
>>> dataset = lance.write_dataset(data, tempfile.mkdtemp() + "/t.lance")
>>> cache = MemoryVectors(["chunk_id"])
>>> hit = cache.search(dataset, [np.array([0.1, 1.0, 0.0])], k=2)[0]
>>> hit.column("chunk_id").to_pylist(), [round(d, 3) for d in hit.column("_distance").to_pylist()]
(['b', 'a'], [0.005, 0.9])
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa


@dataclass(frozen=True)
class _Fragment:
    ids: pa.Table  # the cached id columns, one row per live row of the fragment
    unit: np.ndarray  # (rows, dim) float32, each row scaled to unit length (zero rows stay zero)


def vector_bytes(rows: int, dim: int) -> int:
    """Bytes a float32 copy of ``rows`` vectors of ``dim`` takes.

    >>> vector_bytes(100_000, 384) // 2**20
    146
    """
    return rows * dim * 4


def _unit_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1.0)


class MemoryBudget:
    """One limit on the vectors every :class:`MemoryVectors` of this process holds (a replica serving many
    tenants opens an index each): admitting one past the limit makes the least recently searched give
    theirs back (their next search loads them again)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: OrderedDict[int, tuple[weakref.ref, int]] = OrderedDict()  # id(cache) -> (cache, bytes)

    def held_bytes(self) -> int:
        with self._lock:
            return sum(n for _, n in self._held.values())

    def admit(self, owner: "MemoryVectors", nbytes: int, limit: int, install: Callable[[], None]) -> None:
        """Make room for ``nbytes`` of ``owner`` under ``limit`` (others dropped, least recent first), then
        ``install`` them: both under this budget's lock, so nothing is held that is not counted."""
        with self._lock:
            self._held.pop(id(owner), None)
            total = sum(n for _, n in self._held.values())
            while self._held and total + nbytes > limit:
                _, (ref, n) = self._held.popitem(last=False)
                total -= n
                other = ref()
                if other is not None:
                    other._drop()
            install()
            self._held[id(owner)] = (weakref.ref(owner), nbytes)

    def touch(self, owner: "MemoryVectors") -> None:
        with self._lock:
            if id(owner) in self._held:
                self._held.move_to_end(id(owner))

    def forget(self, key: int) -> None:
        with self._lock:
            self._held.pop(key, None)


BUDGET = MemoryBudget()  # the process's: ``index.memory_search_mb`` bounds what all its indexes hold together


class MemoryVectors:
    """The vectors and ``id_columns`` of one table, per fragment, for exact cosine search; thread-safe."""

    def __init__(self, id_columns: list[str], vector_column: str = "vector", budget: MemoryBudget = BUDGET) -> None:
        self.id_columns = list(id_columns)
        self.vector_column = vector_column
        self.budget = budget
        self._fragments: dict[str, _Fragment] = {}  # fragment metadata (as JSON) -> its cached rows
        self._version: object = None
        self._current: list[_Fragment] = []
        self._lock = threading.Lock()
        weakref.finalize(self, budget.forget, id(self))

    def _drop(self) -> None:
        """Give the vectors back (called by the budget, under its lock; a search under way keeps its list)."""
        self._fragments, self._current, self._version = {}, [], None

    def _load(self, dataset, limit_bytes: int) -> list[_Fragment]:
        """The fragments of ``dataset``'s version, reusing those cached under identical metadata."""
        with self._lock:
            if self._version == dataset.version:
                self.budget.touch(self)
                return self._current
            kept: dict[str, _Fragment] = {}
            for fragment in dataset.get_fragments():
                key = repr(fragment.metadata)
                cached = self._fragments.get(key)
                if cached is None:
                    table = fragment.to_table(columns=[*self.id_columns, self.vector_column])
                    column = table.column(self.vector_column).combine_chunks()
                    width = column.type.list_size
                    matrix = column.flatten().to_numpy(zero_copy_only=False).reshape(-1, width)
                    cached = _Fragment(table.select(self.id_columns), _unit_rows(matrix.astype(np.float32)))
                kept[key] = cached
            current = [f for f in kept.values() if f.unit.shape[0]]

            def install() -> None:
                self._fragments, self._version, self._current = kept, dataset.version, current

            self.budget.admit(self, sum(f.unit.nbytes + f.ids.nbytes for f in current), limit_bytes, install)
            return current

    def search(self, dataset, vectors: list[np.ndarray], k: int, *, limit_bytes: int = 2**62) -> list[pa.Table]:
        """The ``k`` rows nearest to each of ``vectors`` (cosine), best first: the id columns and
        ``_distance`` (``1 - cos``), as LanceDB's search returns them. ``limit_bytes``: what the budget
        lets this process's caches hold together (loading this one may drop others)."""
        fragments = self._load(dataset, limit_bytes)
        queries = _unit_rows(np.stack([np.asarray(v, dtype=np.float32) for v in vectors]))
        schema = pa.schema([*(dataset.schema.field(c) for c in self.id_columns), pa.field("_distance", pa.float32())])
        if not fragments:
            return [schema.empty_table() for _ in vectors]
        # per query: the best k of each fragment, then the best k of those
        picks: list[list[tuple[np.ndarray, np.ndarray, int]]] = [[] for _ in vectors]
        for f, fragment in enumerate(fragments):
            take = min(k, fragment.unit.shape[0])
            for q in range(len(vectors)):
                # einsum, not ``@``: numpy's matmul calls OpenBLAS, whose worker threads spin after each call
                # (~10 ms of CPU per search on 2 cores, for 0.5 ms of arithmetic); einsum's loop is one thread
                column = np.einsum("ij,j->i", fragment.unit, queries[q])
                best = np.argpartition(-column, take - 1)[:take] if take < column.shape[0] else np.arange(take)
                picks[q].append((column[best], best, f))
        return [self._ranked(fragments, picks[q], k, schema) for q in range(len(vectors))]

    @staticmethod
    def _ranked(fragments: list[_Fragment], picks: list[tuple[np.ndarray, np.ndarray, int]], k: int,
                schema: pa.Schema) -> pa.Table:
        scores = np.concatenate([s for s, _, _ in picks])
        rows = np.concatenate([r for _, r, _ in picks])
        owner = np.concatenate([np.full(len(r), f) for _, r, f in picks])
        order = np.lexsort((rows, owner, -scores))[:k]  # best first; ties in table order
        rows, owner, scores = rows[order], owner[order], scores[order]
        owners = list(dict.fromkeys(owner.tolist()))
        grouped = pa.concat_tables([fragments[f].ids.take(pa.array(rows[owner == f])) for f in owners])
        rank_of_grouped = np.concatenate([np.flatnonzero(owner == f) for f in owners])
        ids = grouped.take(pa.array(np.argsort(rank_of_grouped, kind="stable")))
        return ids.append_column(schema.field("_distance"), pa.array((1.0 - scores).astype(np.float32)))
