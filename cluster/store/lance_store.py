"""LanceDB access for Strata: open/create tables, single-writer mutations, index upkeep, stats.

One process (the ingest writer) mutates the tables; readers (serving, ``strata search``)
open them read-only and see each committed version.

>>> # store = LanceStore.open(cfg.storage, dim=384)
>>> # store.table(CHUNKS).count_rows()
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from datetime import timedelta
from collections.abc import Iterable
from dataclasses import dataclass

import lancedb
import numpy as np
from lancedb.index import BTree, IvfPq
import pyarrow as pa

from cluster.config import IndexConfig, StorageConfig
from cluster.models.manifest import ModelManifest
from cluster.store.memory_vectors import MemoryVectors, vector_bytes
from cluster.store.schema import (
    CHUNKS,
    DOCUMENTS,
    DOCUMENTS_SCHEMA,
    KNOWN_COLUMNS,
    META,
    META_SCHEMA,
    SCHEMA_VERSION,
    SECTIONS,
    chunks_schema,
    sections_schema,
)

EMBEDDER_KEY = "embedder_manifest"
VECTOR_INDEX = "vector_idx"
SCALAR_INDEXES: dict[str, tuple[str, ...]] = {
    DOCUMENTS: ("doc_id",),
    SECTIONS: ("section_id", "doc_id"),
    CHUNKS: ("chunk_id", "doc_id"),
}


def commit_fragments(table, fragments: list[str]) -> int:
    """Commit Lance fragments written elsewhere (``lance.fragment.write_fragments``; each given as
    ``json.dumps(FragmentMetadata.to_json())``) to a LanceDB ``table`` as one Append; returns the rows.
    Until this commit the fragments' files are invisible to every reader (uncommitted garbage).

    >>> # rows = commit_fragments(store.table(CHUNKS), fragment_json_from_workers)
    """
    import lance
    from lance.fragment import FragmentMetadata

    if not fragments:
        return 0
    metadata = [FragmentMetadata.from_json(f) for f in fragments]
    table.checkout_latest()
    dataset = table.to_lance()
    lance.LanceDataset.commit(dataset, lance.LanceOperation.Append(metadata), read_version=dataset.version)
    table.checkout_latest()
    return sum(m.num_rows for m in metadata)


def _add_missing_columns(table, schema: pa.Schema) -> None:
    """Add the nullable columns of ``schema`` that ``table`` (written by an older version) lacks, as
    nulls: one metadata-only commit, once; rows written since carry every column."""
    have = set(table.schema.names)
    missing = [f for f in schema if f.name not in have and f.nullable]
    if missing:
        table.add_columns(missing)


def remove_uncommitted_files(table, *, older_than_hours: float) -> None:
    """Remove table versions older than ``older_than_hours`` and every data file no version references
    (the fragments of a writer or worker that died before its commit). Only while holding the index's
    single-writer lock, with no ingest's workers writing (Lance's ``delete_unverified``)."""
    table.to_lance().cleanup_old_versions(older_than=timedelta(hours=older_than_hours), delete_unverified=True)


def sql_in(column: str, values: Iterable[str]) -> str:
    """A safe ``column IN (...)`` predicate for string ids."""
    quoted = ",".join("'" + v.replace("'", "''") + "'" for v in values)
    return f"{column} IN ({quoted})"


@dataclass(frozen=True)
class TableStats:
    rows: int
    fragments: int
    unindexed_rows: int
    version: int


class LanceStore:
    """The ``documents``/``sections``/``chunks``/``meta`` tables of one Strata index."""

    def __init__(self, db: lancedb.DBConnection, dim: int) -> None:
        self.db = db
        self.dim = dim
        self._tables: dict[str, lancedb.table.Table] = {}
        self._datasets: dict[str, tuple[int, object]] = {}  # name -> (version, lance dataset) for scans
        self._memory: dict[tuple[str, tuple[str, ...]], MemoryVectors] = {}  # (table, id columns) -> vectors
        self._schemas = {DOCUMENTS: DOCUMENTS_SCHEMA, SECTIONS: sections_schema(dim), CHUNKS: chunks_schema(dim),
                         META: META_SCHEMA}

    # -- opening -----------------------------------------------------------------------------
    @classmethod
    def open(cls, storage: StorageConfig, *, dim: int, create: bool = False) -> "LanceStore":
        """Open (``create=True``: create missing tables) the index at ``storage.lance_location``."""
        if create and "://" not in storage.lance_location:
            storage.data_dir.mkdir(parents=True, exist_ok=True)
        db = lancedb.connect(storage.lance_location, storage_options=storage.storage_options or None)
        store = cls(db, dim)
        existing = set(store.table_names())
        for name, schema in store._schemas.items():
            if name in existing:
                store._tables[name] = db.open_table(name)
                if create:  # the writer: bring a table of an older index up to today's schema
                    _add_missing_columns(store._tables[name], schema)
            elif create:
                store._tables[name] = db.create_table(name, schema=schema)
            else:
                raise FileNotFoundError(f"no Strata index at {storage.lance_location} (table {name!r} missing): run `strata ingest` first")
        return store

    @staticmethod
    def exists(storage: StorageConfig) -> bool:
        """Whether the index has its tables (never creates anything: ``lancedb.connect`` would make the
        directory of a local path, e.g. of a tenant that has no index)."""
        location = storage.lance_location
        if "://" not in location and not (Path(location) / f"{CHUNKS}.lance").exists():
            return False
        try:
            db = lancedb.connect(storage.lance_location, storage_options=storage.storage_options or None)
            return CHUNKS in LanceStore._names(db)
        except (FileNotFoundError, OSError, ValueError):
            return False

    @staticmethod
    def _names(db: lancedb.DBConnection) -> list[str]:
        listed = db.list_tables()
        return list(getattr(listed, "tables", listed))

    def table_names(self) -> list[str]:
        return self._names(self.db)

    def table(self, name: str):
        return self._tables[name]

    def refresh(self) -> None:
        """Move every table handle to its latest committed version (for long-lived readers)."""
        for tbl in self._tables.values():
            tbl.checkout_latest()

    # -- meta and the embedder manifest --------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        rows = self.table(META).search().where(sql_in("key", [key])).select(["value"]).to_arrow()
        return rows.column("value")[0].as_py() if rows.num_rows else None

    def set_meta(self, key: str, value: str) -> None:
        data = pa.table({"key": [key], "value": [value]}, schema=META_SCHEMA)
        self.table(META).merge_insert("key").when_matched_update_all().when_not_matched_insert_all().execute(data)

    def embedder_manifest(self) -> ModelManifest | None:
        raw = self.get_meta(EMBEDDER_KEY)
        return ModelManifest.model_validate(json.loads(raw)) if raw else None

    def bind_embedder(self, manifest: ModelManifest, *, action: str, models_home: Path | None = None) -> None:
        """Record ``manifest`` on a new index, or refuse (``EmbedderMismatchError``) if it differs
        (naming a model installed under ``models_home`` that matches the index, if one is)."""
        stored = self.embedder_manifest()
        if stored is None:
            self.set_meta(EMBEDDER_KEY, manifest.model_dump_json())
            self.set_meta("schema_version", SCHEMA_VERSION)
        else:
            stored.check_compatible(manifest, action=action, models_home=models_home)

    # -- writes (single writer) ----------------------------------------------------------------
    def add(self, name: str, data: pa.Table) -> None:
        if data.num_rows:
            self.table(name).add(data)

    def append_fragments(self, name: str, fragments: list[str]) -> int:
        """Commit fragments that workers wrote to table ``name`` (:func:`commit_fragments`)."""
        return commit_fragments(self.table(name), fragments)

    def dataset_uri(self, name: str) -> str:
        """Where table ``name``'s Lance dataset lives (what ``lance.fragment.write_fragments`` takes)."""
        return self.table(name).to_lance().uri

    def upsert_documents(self, data: pa.Table) -> None:
        if data.num_rows:
            (self.table(DOCUMENTS).merge_insert("doc_id").when_matched_update_all()
             .when_not_matched_insert_all().execute(data))

    def delete_documents(self, doc_ids: list[str], *, batch: int = 1000) -> int:
        """Delete every row of ``doc_ids`` from chunks, sections and documents (documents last)."""
        deleted = 0
        for i in range(0, len(doc_ids), batch):
            predicate = sql_in("doc_id", doc_ids[i:i + batch])
            for name in (CHUNKS, SECTIONS, DOCUMENTS):
                result = self.table(name).delete(predicate)
                if name == DOCUMENTS:
                    deleted += getattr(result, "num_deleted_rows", 0) or 0
        return deleted

    # -- reads ---------------------------------------------------------------------------------
    def _dataset(self, name: str):
        """The lance dataset of table ``name`` at the handle's version, opened once per version: a dataset
        keeps its index and metadata caches, so a scan by id on it costs ~0.8 ms of CPU instead of ~2.6 ms
        on one opened per scan (11k-chunk index; a search reads rows by id once or twice)."""
        table = self.table(name)
        version = table.version
        cached = self._datasets.get(name)
        if cached is None or cached[0] != version:
            cached = self._datasets[name] = (version, table.to_lance())
        return cached[1]

    def scan(self, name: str, columns: list[str], where: str | None = None) -> pa.Table:
        """Column-projected scan of a whole table (optionally filtered). A nullable column of today's
        schema that the table lacks (an index written before it, opened by a reader, which never
        migrates: :func:`_add_missing_columns`) comes back as nulls."""
        dataset = self._dataset(name)
        have = set(dataset.schema.names)
        absent = [c for c in columns if c not in have]
        if not absent:
            return dataset.to_table(columns=columns, filter=where)
        table = dataset.to_table(columns=[c for c in columns if c in have], filter=where)
        for column in absent:
            field = self._schemas[name].field(column) if column in self._schemas.get(name, pa.schema([])).names else None
            if field is None or not field.nullable:
                raise ValueError(f"table {name!r} has no column {column!r}")
            table = table.append_column(field, pa.nulls(table.num_rows, field.type))
        return table.select(columns)

    def known_documents(self) -> dict[str, tuple[int, int, str, str | None]]:
        """doc_id → (n_bytes, mtime_ns, content_hash, chunking) of every complete document
        (:data:`KNOWN_COLUMNS`; ``chunking`` is None for documents indexed before it was recorded)."""
        t = self.scan(DOCUMENTS, ["doc_id", *KNOWN_COLUMNS])
        ids = t.column("doc_id").to_pylist()
        return dict(zip(ids, zip(*(t.column(c).to_pylist() for c in KNOWN_COLUMNS))))

    def orphan_doc_ids(self) -> list[str]:
        """doc ids present in chunks or sections but without a documents row (a torn write)."""
        complete = set(self.scan(DOCUMENTS, ["doc_id"]).column("doc_id").to_pylist())
        seen: set[str] = set()
        for name in (CHUNKS, SECTIONS):
            seen.update(self.scan(name, ["doc_id"]).column("doc_id").unique().to_pylist())
        return sorted(seen - complete)

    def vector_search(self, name: str, vector: np.ndarray, *, k: int, index: IndexConfig, where: str | None = None,
                      columns: list[str] | None = None) -> pa.Table:
        return self.vector_search_many(name, [vector], k=k, index=index, where=where, columns=columns)[0]

    def vector_search_many(self, name: str, vectors: list[np.ndarray], *, k: int, index: IndexConfig,
                           where: str | None = None, columns: list[str] | None = None) -> list[pa.Table]:
        """The best ``k`` rows for each of ``vectors``, in one LanceDB query (its multi-vector search: each
        vector's rows are exactly those of a search of its own, and the per-query cost is paid once)."""
        if not vectors:
            return []
        batch = [np.asarray(v, dtype=np.float32) for v in vectors]
        key = (name, tuple(columns or ()))
        if columns and not where:
            if self._fits_memory(name, index):
                memory = self._memory.get(key) or self._memory.setdefault(key, MemoryVectors(list(columns)))
                return memory.search(self._dataset(name), batch, k, limit_bytes=index.memory_search_mb * 2**20)
            self._memory.pop(key, None)  # the table outgrew the limit: its copy goes (and leaves the budget)
        query = self.table(name).search(batch if len(batch) > 1 else batch[0],
                                        vector_column_name="vector").distance_type("cosine")
        if self.has_vector_index(name):
            query = query.nprobes(index.nprobes).refine_factor(index.refine_factor)
        if where:
            query = query.where(where, prefilter=True)
        if columns:
            query = query.select([*columns, "_distance"])
        table = query.limit(k).to_arrow()
        if len(batch) == 1:
            return [table.drop_columns(["query_index"]) if "query_index" in table.column_names else table]
        which = np.asarray(table.column("query_index").to_numpy())
        rest = table.drop_columns(["query_index"])
        return [rest.filter(pa.array(which == i)) for i in range(len(batch))]

    def _fits_memory(self, name: str, index: IndexConfig) -> bool:
        """Whether ``name``'s vectors fit ``index.memory_search_mb`` (then :class:`MemoryVectors` searches them)."""
        if index.memory_search_mb <= 0:
            return False
        rows = sum(f.metadata.num_rows for f in self._dataset(name).get_fragments())
        return vector_bytes(rows, self.dim) <= index.memory_search_mb * 2**20

    # -- index upkeep --------------------------------------------------------------------------
    def has_vector_index(self, name: str) -> bool:
        return any(ix.name == VECTOR_INDEX for ix in self.table(name).list_indices())

    def stats(self, name: str) -> TableStats:
        tbl = self.table(name)
        raw = tbl.stats()
        fragments = raw["fragment_stats"]["num_fragments"] if isinstance(raw, dict) else raw.fragment_stats.num_fragments
        rows = tbl.count_rows()
        unindexed = rows
        if self.has_vector_index(name):
            ix = tbl.index_stats(VECTOR_INDEX)
            unindexed = ix.num_unindexed_rows if ix else rows
        return TableStats(rows=rows, fragments=fragments, unindexed_rows=unindexed, version=tbl.version)

    def maintain(self, index: IndexConfig) -> dict[str, str]:
        """After a bulk load: compact small fragments, build/refresh indexes, remove old versions and
        uncommitted files. Returns what was done. Only by the holder of the index's single-writer lock
        (the BM25 writer lock) once no ingest workers write: files no version references are deleted."""
        done: dict[str, str] = {}
        for name in (DOCUMENTS, SECTIONS, CHUNKS):
            tbl = self.table(name)
            dataset = tbl.to_lance()
            if len(dataset.get_fragments()) > 1:
                dataset.optimize.compact_files()
                tbl.checkout_latest()
            present = {ix.columns[0] for ix in tbl.list_indices() if ix.name != VECTOR_INDEX}
            for column in SCALAR_INDEXES[name]:
                if column not in present and tbl.count_rows():
                    tbl.create_index(column, config=BTree())
        chunks = self.table(CHUNKS)
        rows = chunks.count_rows()
        if rows >= index.ivf_min_rows:
            if not self.has_vector_index(CHUNKS):
                done[CHUNKS] = self._build_ivf_pq(rows, index)
            else:
                unindexed = chunks.index_stats(VECTOR_INDEX).num_unindexed_rows
                if unindexed > index.reindex_unindexed_fraction * rows:
                    done[CHUNKS] = self._build_ivf_pq(rows, index)
                elif unindexed:
                    chunks.to_lance().optimize.optimize_indices()
                    chunks.checkout_latest()  # the lance dataset committed a new version behind this handle
                    done[CHUNKS] = f"appended {unindexed} rows to the vector index"
        elif self.has_vector_index(CHUNKS):
            done[CHUNKS] = "kept the vector index (table shrank below ivf_min_rows)"
        else:
            done[CHUNKS] = f"flat: {rows} rows < ivf_min_rows {index.ivf_min_rows}"
        for name in (DOCUMENTS, SECTIONS, CHUNKS):
            tbl = self.table(name)
            tbl.checkout_latest()  # never commit from a stale version (a retryable commit conflict)
            scalar_stale = any(ix.num_unindexed_rows for ix in tbl.list_indices() if ix.name != VECTOR_INDEX)
            if scalar_stale:
                tbl.to_lance().optimize.optimize_indices(index_names=[ix.name for ix in tbl.list_indices()
                                                                      if ix.name != VECTOR_INDEX])
            if index.cleanup_older_than_hours > 0:  # the caller holds the writer lock (see docstring)
                remove_uncommitted_files(tbl, older_than_hours=index.cleanup_older_than_hours)
            tbl.checkout_latest()
        return done

    def _build_ivf_pq(self, rows: int, index: IndexConfig) -> str:
        config = ivf_pq_config(rows, self.dim, index)
        self.table(CHUNKS).create_index("vector", config=config, replace=True, name=VECTOR_INDEX)
        return f"built IVF_PQ ({config.num_partitions} partitions, {config.num_sub_vectors} sub-vectors) over {rows} rows"


def ivf_pq_config(rows: int, dim: int, index: IndexConfig) -> IvfPq:
    """The IVF_PQ settings of a ``rows`` × ``dim`` chunk index: ``index``'s, derived where unset.

    >>> c = ivf_pq_config(74_000, 384, IndexConfig())
    >>> (c.num_partitions, c.num_sub_vectors, c.max_iterations)
    (18, 48, 10)
    """
    return IvfPq(distance_type="cosine", num_partitions=index.num_partitions or derive_num_partitions(rows),
                 num_sub_vectors=index.num_sub_vectors or derive_num_sub_vectors(dim),
                 max_iterations=index.max_iterations)


def derive_num_partitions(rows: int) -> int:
    """About 4k vectors per partition (LanceDB's guidance), at least 1, at most sqrt(rows)."""
    return max(1, min(rows // 4096, int(math.sqrt(rows))))


def derive_num_sub_vectors(dim: int) -> int:
    """8 dimensions per PQ sub-vector when it divides the dimension, else the nearest divisor."""
    for width in (8, 4, 16, 2, 1):
        if dim % width == 0:
            return dim // width
    return dim
