"""The embedding cache of an index: a LanceDB table ``embed_cache`` of (embedder fingerprint,
text hash) → vector, kept beside the index's other tables (the same shared storage).

The embedding actors look every text up before embedding it and embed only the misses; the single
writer appends the vectors of the misses when it commits their documents. So a re-ingest after a
path move (the document id changes, its texts do not), a chunking change that keeps most texts, or
a crash mid-ingest reuses the vectors it already paid for. Rows are never updated: a vector is a
pure function of (fingerprint, text), and an entry written twice (two actors missing the same text
at once) is harmless; :meth:`EmbeddingCache.maintain` compacts and indexes the table.

>>> text_key("Hello")
'185f8db32271fe25f561a6fc938b2e26'
>>> # cache = EmbeddingCache.open(cfg.storage, dim=384, create=True)
>>> # found = cache.lookup(manifest.fingerprint, [text_key(t) for t in texts])
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

if TYPE_CHECKING:  # annotations only: fragment writers and benches import this without the config
    from cluster.config import StorageConfig

EMBED_CACHE = "embed_cache"
LOOKUP_BATCH = 2000  # hashes per ``IN (...)`` predicate


def text_key(text: str) -> str:
    """The cache key of one embedder input: the first 128 bits of its UTF-8 SHA-256, in hex."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def cache_schema(dim: int) -> pa.Schema:
    return pa.schema([
        pa.field("fingerprint", pa.string(), nullable=False),
        pa.field("text_hash", pa.string(), nullable=False),
        pa.field("vector", pa.list_(pa.float32(), dim)),
    ])


def cache_rows(fingerprint: str, keys: pa.Array | Sequence[str], vectors: pa.Array, dim: int) -> pa.Table:
    """The table rows of entries (``vectors``: a ``fixed_size_list<float32, dim>`` array)."""
    n = len(keys)
    return pa.table({"fingerprint": pa.array([fingerprint] * n, pa.string()),
                     "text_hash": pa.array(keys, pa.string()), "vector": vectors}, schema=cache_schema(dim))


class EmbeddingCache:
    """Lookups (the embedding actors) and appends (the single writer) of one index's vector cache."""

    def __init__(self, table, dim: int) -> None:
        self.table = table
        self.dim = dim

    @classmethod
    def open(cls, storage: StorageConfig, *, dim: int, create: bool = False) -> "EmbeddingCache | None":
        """The cache of the index at ``storage`` (created with ``create=True``); None when an index
        written before the cache existed has none and ``create`` is false."""
        import lancedb  # here, not at the top: embedding actors that skip the cache never import it (~2.7 s)

        if create and "://" not in storage.lance_location:
            storage.data_dir.mkdir(parents=True, exist_ok=True)
        db = lancedb.connect(storage.lance_location, storage_options=storage.storage_options or None)
        listed = db.list_tables()
        if EMBED_CACHE in list(getattr(listed, "tables", listed)):
            return cls(db.open_table(EMBED_CACHE), dim)
        if not create:
            return None
        return cls(db.create_table(EMBED_CACHE, schema=cache_schema(dim)), dim)

    def lookup(self, fingerprint: str, keys: Sequence[str]) -> dict[str, np.ndarray]:
        """``{key: vector}`` for the ``keys`` the cache holds for this embedder."""
        wanted = list(dict.fromkeys(keys))
        found: dict[str, np.ndarray] = {}
        if not wanted:
            return found
        self.table.checkout_latest()  # see what the writer committed since this handle opened
        dataset = self.table.to_lance()
        quoted_fp = fingerprint.replace("'", "''")
        for i in range(0, len(wanted), LOOKUP_BATCH):
            part = wanted[i:i + LOOKUP_BATCH]
            where = f"fingerprint = '{quoted_fp}' AND text_hash IN ({','.join(repr(k) for k in part)})"
            rows = dataset.to_table(columns=["text_hash", "vector"], filter=where)
            if not rows.num_rows:
                continue
            vectors = rows.column("vector").combine_chunks().values.to_numpy(zero_copy_only=False)
            vectors = vectors.reshape(-1, self.dim)
            for key, vector in zip(rows.column("text_hash").to_pylist(), vectors):
                found[key] = vector
        return found

    def add(self, fingerprint: str, keys: pa.Array | Sequence[str], vectors: pa.Array) -> int:
        """Append entries (``vectors``: a ``fixed_size_list<float32, dim>`` array); returns the count."""
        n = len(keys)
        if not n:
            return 0
        self.table.add(cache_rows(fingerprint, keys, vectors, self.dim))
        return n

    def append_fragments(self, fragments: list[str]) -> int:
        """Commit entries that workers wrote as Lance fragments (:func:`cluster.store.lance_store.commit_fragments`)."""
        from cluster.store.lance_store import commit_fragments

        return commit_fragments(self.table, fragments)

    def rows(self) -> int:
        return self.table.count_rows()

    def maintain(self, *, cleanup_older_than_hours: float) -> None:
        """Compact small appends and keep a BTree index on ``text_hash`` (lookups are by key)."""
        dataset = self.table.to_lance()
        if len(dataset.get_fragments()) > 1:
            dataset.optimize.compact_files()
            self.table.checkout_latest()
        indexes = list(self.table.list_indices())
        if not indexes and self.table.count_rows():
            from lancedb.index import BTree

            self.table.create_index("text_hash", config=BTree())
        elif any(ix.num_unindexed_rows for ix in indexes):
            self.table.to_lance().optimize.optimize_indices()
        self.table.checkout_latest()
        if cleanup_older_than_hours > 0:  # by the writer-lock holder, as LanceStore.maintain
            from cluster.store.lance_store import remove_uncommitted_files

            remove_uncommitted_files(self.table, older_than_hours=cleanup_older_than_hours)
