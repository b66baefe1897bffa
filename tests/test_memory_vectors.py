"""The in-memory exact vector search returns what LanceDB's flat cosine search returns, on every
committed version (appends, deletes, compaction), and reloads only the fragments a commit changed."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from lance.fragment import LanceFragment

from cluster.config import load_config
from cluster.store.lance_store import LanceStore
from cluster.store.memory_vectors import MemoryVectors
from cluster.store.schema import CHUNKS, chunks_schema

DIM = 16


def _rows(rng: np.random.Generator, start: int, n: int) -> pa.Table:
    vectors = rng.standard_normal((n, DIM)).astype(np.float32) * rng.uniform(0.5, 3.0, (n, 1)).astype(np.float32)
    schema = chunks_schema(DIM)
    data = {f.name: pa.nulls(n, f.type) for f in schema}
    data.update(chunk_id=pa.array([f"c{i}" for i in range(start, start + n)]),
                doc_id=pa.array([f"d{i // 7}" for i in range(start, start + n)]),
                vector=pa.FixedSizeListArray.from_arrays(pa.array(vectors.ravel()), DIM))
    return pa.table(data, schema=schema)


def _same(store: LanceStore, queries: list[np.ndarray], k: int) -> None:
    """``store``'s in-memory search against LanceDB's own (a second reader with memory search off)."""
    on = load_config(index={"memory_search_mb": 64}).index
    off = load_config(index={"memory_search_mb": 0}).index
    reader = LanceStore(store.db, store.dim)
    reader._tables = {CHUNKS: store.db.open_table(CHUNKS)}
    got = store.vector_search_many(CHUNKS, queries, k=k, index=on, columns=["chunk_id", "doc_id"])
    want = reader.vector_search_many(CHUNKS, queries, k=k, index=off, columns=["chunk_id", "doc_id"])
    assert len(got) == len(want) == len(queries)
    for g, w in zip(got, want):
        assert g.column("chunk_id").to_pylist() == w.column("chunk_id").to_pylist()
        assert g.column("doc_id").to_pylist() == w.column("doc_id").to_pylist()
        np.testing.assert_allclose(g.column("_distance").to_numpy(), w.column("_distance").to_numpy(), atol=1e-5)


def test_memory_search_matches_lancedb_across_versions(tmp_path, monkeypatch) -> None:
    rng = np.random.default_rng(7)
    cfg = load_config(storage={"data_dir": tmp_path})
    store = LanceStore.open(cfg.storage, dim=DIM, create=True)
    table = store.table(CHUNKS)
    reads: list[int] = []  # fragment ids read by the in-memory copy
    real = LanceFragment.to_table
    monkeypatch.setattr(LanceFragment, "to_table",
                        lambda self, *a, **kw: reads.append(self.fragment_id) or real(self, *a, **kw))
    queries = [rng.standard_normal(DIM).astype(np.float32) for _ in range(3)]

    _same(store, queries, 5)  # empty table: no rows either way
    table.add(_rows(rng, 0, 40))
    _same(store, queries, 10)
    assert len(reads) == 1
    table.add(_rows(rng, 40, 30))  # a second fragment: loaded alone
    _same(store, queries[:1], 25)
    assert len(reads) == 2
    _same(store, queries, 100)  # k above the row count
    table.delete("doc_id IN ('d1', 'd8')")  # deletion files on both fragments
    _same(store, queries, 12)
    assert len(reads) == 4  # both fragments changed
    table.to_lance().optimize.compact_files()
    table.checkout_latest()
    _same(store, queries, 12)
    assert len(reads) == 5  # one compacted fragment
    _same(store, queries, 3)
    assert len(reads) == 5  # same version: nothing read


def test_memory_search_cap_and_filters_use_lancedb(tmp_path, monkeypatch) -> None:
    rng = np.random.default_rng(3)
    cfg = load_config(storage={"data_dir": tmp_path})
    store = LanceStore.open(cfg.storage, dim=DIM, create=True)
    store.table(CHUNKS).add(_rows(rng, 0, 50))
    used: list[str] = []
    monkeypatch.setattr(MemoryVectors, "search", lambda self, *a, **kw: used.append("memory") or [])
    q = [rng.standard_normal(DIM).astype(np.float32)]
    store.vector_search_many(CHUNKS, q, k=3, index=load_config().index, columns=["chunk_id"])
    assert used == ["memory"]
    hits = store.vector_search_many(CHUNKS, q, k=3, index=load_config().index, columns=["chunk_id"],
                                    where="doc_id = 'd2'")[0]
    assert used == ["memory"]  # a filtered search is LanceDB's (prefilter)
    assert set(hits.column("chunk_id").to_pylist()) <= {f"c{i}" for i in range(14, 21)} and hits.num_rows == 3
    tiny = load_config(index={"memory_search_mb": 1}).index
    monkeypatch.setattr("cluster.store.lance_store.vector_bytes", lambda rows, dim: 2 * 2**20)
    store.vector_search_many(CHUNKS, q, k=3, index=tiny, columns=["chunk_id"])
    assert used == ["memory"]


@pytest.mark.parametrize("k", [1, 4])
def test_ties_and_zero_vectors(tmp_path, k) -> None:
    import lance
    vectors = np.array([[1, 0], [1, 0], [0, 0], [0, 1]], dtype=np.float32)
    data = pa.table({"chunk_id": ["a", "b", "z", "y"],
                     "vector": pa.FixedSizeListArray.from_arrays(pa.array(vectors.ravel()), 2)})
    dataset = lance.write_dataset(data, str(tmp_path / "t.lance"))
    hit = MemoryVectors(["chunk_id"]).search(dataset, [np.array([2.0, 0.0])], k=k)[0]
    assert hit.column("chunk_id").to_pylist() == ["a", "b", "z", "y"][:k]  # ties in table order; zero row at cos 0


def test_one_budget_for_every_index_of_the_process(tmp_path) -> None:
    """Two tenants' indexes under a budget that holds one: searching the second gives the first's vectors
    back, and its next search loads them again, with the same hits."""
    from cluster.store.memory_vectors import BUDGET as budget

    rng = np.random.default_rng(5)
    stores = []
    for name in ("a", "b"):
        store = LanceStore.open(load_config(storage={"data_dir": tmp_path / name}).storage, dim=DIM, create=True)
        store.table(CHUNKS).add(_rows(rng, 0, 400))
        stores.append(store)
    one = 400 * DIM * 4
    limit = int(one * 1.6)  # room for one index's vectors (and ids), not two
    index = load_config().index.model_copy(update={"memory_search_mb": limit / 2**20})
    q = [rng.standard_normal(DIM).astype(np.float32)]
    first = stores[0].vector_search_many(CHUNKS, q, k=5, index=index, columns=["chunk_id"])[0]
    assert one <= budget.held_bytes() <= limit
    stores[1].vector_search_many(CHUNKS, q, k=5, index=index, columns=["chunk_id"])
    assert one <= budget.held_bytes() <= limit  # the first index gave its vectors back
    held = [m for s in stores for m in s._memory.values()]
    assert [bool(m._current) for m in held] == [False, True]
    again = stores[0].vector_search_many(CHUNKS, q, k=5, index=index, columns=["chunk_id"])[0]
    assert again.column("chunk_id").to_pylist() == first.column("chunk_id").to_pylist()
    assert [bool(m._current) for m in held] == [True, False] and budget.held_bytes() <= limit
    tiny = index.model_copy(update={"memory_search_mb": one / 2 / 2**20})  # the index outgrew the limit
    lance_hits = stores[0].vector_search_many(CHUNKS, q, k=5, index=tiny, columns=["chunk_id"])[0]
    assert lance_hits.column("chunk_id").to_pylist() == first.column("chunk_id").to_pylist()
    assert not stores[0]._memory  # its copy is given back, not kept beside LanceDB's search
