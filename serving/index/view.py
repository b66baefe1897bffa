"""Read-only view of one Strata index for query replicas, with freshness.

Every replica (retriever, expander, ingress) holds an :class:`IndexView`. :meth:`IndexView.version`
looks for a newly committed LanceDB version at most every ``serve.refresh_interval_s`` seconds and
moves the table handles (and tantivy's reader) forward, so running replicas serve a new ingest
without a restart. The version string ``"<documents>.<chunks>.<sections>"`` keys the result cache.
:meth:`IndexView.latest` is the version committed *now*, for reads by id (a deleted document is
gone, a finished upload is there): one ``stat`` of each table's ``_versions`` folder (object storage:
a listing), and the handles move only when a folder changed.

>>> # view = IndexView.open(load_config()); view.version(); view.chunks_by_id(["3f2a…"])
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterable
from pathlib import Path

import pyarrow as pa

from cluster.config import StrataConfig
from cluster.models.manifest import ModelManifest
from cluster.models.registry import resolve_embedder
from cluster.redact import public_source
from cluster.store.bm25 import Bm25Index, ShardedBm25, open_bm25
from cluster.store.lance_store import LanceStore, sql_in
from cluster.store.schema import CHUNKS, DOCUMENTS, SECTIONS

CHUNK_COLUMNS = ["chunk_id", "doc_id", "source", "path", "title", "section_id", "section_path", "section_facet",
                 "ordinal", "start", "end", "n_tokens", "text", "first_page", "last_page"]
SECTION_COLUMNS = ["section_id", "doc_id", "parent_id", "level", "ordinal", "title", "path", "path_str", "start",
                   "end", "n_tokens", "n_chunks", "summary"]
DOCUMENT_COLUMNS = ["doc_id", "source", "path", "title", "format", "n_sections", "n_chunks", "n_tokens",
                    "ingested_at"]
#: A version folder changed less than this long ago is not trusted as a stamp: a second commit within the
#: filesystem's timestamp granularity would leave its mtime unchanged.
SETTLE_NS = 200_000_000
_TABLES = (DOCUMENTS, CHUNKS, SECTIONS)


class IndexView:
    """LanceDB tables + the BM25 index of one index, opened for reading."""

    def __init__(self, cfg: StrataConfig, store: LanceStore, bm25: Bm25Index | ShardedBm25, manifest: ModelManifest) -> None:
        self.cfg = cfg
        self.store = store
        self.bm25 = bm25
        self.manifest = manifest
        self._lock = threading.Lock()
        self._checked = time.monotonic()
        self._folders = self._version_folders()
        self._stamp: tuple | None = None
        self._sources: tuple[str, list[str]] | None = None
        self._version = self._read_version()
        self.changes = 0

    @classmethod
    def open(cls, cfg: StrataConfig) -> "IndexView":
        """Open the configured index; refuses one built with a different embedder."""
        resolved = resolve_embedder(cfg.models)
        store = LanceStore.open(cfg.storage, dim=resolved.manifest.dim)
        stored = store.embedder_manifest()
        if stored is not None:
            stored.check_compatible(resolved.manifest, action="query this index", models_home=cfg.models.home)
        return cls(cfg, store, open_bm25(cfg.storage.bm25_path), resolved.manifest)

    # -- freshness ------------------------------------------------------------------------------
    def _read_version(self) -> str:
        return ".".join(str(self.store.table(name).version) for name in _TABLES)

    def _version_folders(self) -> list[Path] | None:
        """Each table's ``_versions`` folder (a commit adds a manifest there), or None on object storage."""
        uris = [self.store.dataset_uri(name) for name in _TABLES]
        return None if any("://" in uri for uri in uris) else [Path(uri) / "_versions" for uri in uris]

    def _committed(self) -> tuple | None:
        """A stamp of what is committed now, or None when it cannot be trusted (then: refresh)."""
        if self._folders is None:  # object storage: the latest version of each table (a listing)
            return tuple(self.store.table(name).to_lance().latest_version for name in _TABLES)
        try:
            stamp = tuple(os.stat(folder).st_mtime_ns for folder in self._folders)
        except OSError:
            return None
        return stamp if time.time_ns() - max(stamp) >= SETTLE_NS else None

    def latest(self) -> str:
        """The latest committed version, checked now (reads by id must see a delete or an upload at once):
        a stat of each table's version folder; the handles move (:meth:`refresh`) only when one changed."""
        stamp = self._committed()  # taken before the refresh: a commit after it changes the next stamp
        if stamp is None or stamp != self._stamp:
            with self._lock:
                self.refresh()
                self._stamp = stamp
        return self._version

    def version(self) -> str:
        """The index version, refreshed from storage at most every ``refresh_interval_s``."""
        interval = self.cfg.serve.refresh_interval_s
        now = time.monotonic()
        if now - self._checked >= interval:
            with self._lock:
                if now - self._checked >= interval:
                    self.refresh()
        return self._version

    def refresh(self) -> bool:
        """Move to the latest committed version now; True if it changed."""
        self.store.refresh()
        self.bm25.reload()
        self._checked = time.monotonic()
        latest = self._read_version()
        changed = latest != self._version
        if changed:
            self._version = latest
            self.changes += 1
        return changed

    # -- row access -------------------------------------------------------------------------------
    def _rows(self, table: str, columns: list[str], where: str) -> list[dict]:
        return self.store.scan(table, columns, where=where).to_pylist()

    def chunks_by_id(self, chunk_ids: Iterable[str], columns: list[str] | None = None) -> dict[str, dict]:
        ids = list(dict.fromkeys(chunk_ids))
        if not ids:
            return {}
        return {r["chunk_id"]: r for r in self._rows(CHUNKS, columns or CHUNK_COLUMNS, sql_in("chunk_id", ids))}

    def chunk_vectors(self, chunk_ids: Iterable[str]) -> dict[str, list[float]]:
        ids = list(dict.fromkeys(chunk_ids))
        if not ids:
            return {}
        table = self.store.scan(CHUNKS, ["chunk_id", "vector"], where=sql_in("chunk_id", ids))
        return dict(zip(table.column("chunk_id").to_pylist(), table.column("vector").to_pylist()))

    def chunks_in_range(self, doc_id: str, first: int, last: int) -> list[dict]:
        """Chunks of ``doc_id`` with ``first <= ordinal <= last``, in document order."""
        where = f"{sql_in('doc_id', [doc_id])} AND ordinal >= {int(first)} AND ordinal <= {int(last)}"
        return sorted(self._rows(CHUNKS, CHUNK_COLUMNS, where), key=lambda r: r["ordinal"])

    def chunks_at(self, places: Iterable[tuple[str, int]]) -> dict[tuple[str, int], dict]:
        """The chunks at ``(doc_id, ordinal)`` places, in one read, keyed by their place (missing ones absent)."""
        by_doc: dict[str, set[int]] = {}
        for doc_id, ordinal in places:
            if ordinal >= 0:
                by_doc.setdefault(doc_id, set()).add(int(ordinal))
        if not by_doc:
            return {}
        where = " OR ".join(f"({sql_in('doc_id', [d])} AND ordinal IN ({','.join(map(str, sorted(o)))}))"
                            for d, o in by_doc.items())
        return {(r["doc_id"], r["ordinal"]): r for r in self._rows(CHUNKS, CHUNK_COLUMNS, where)}

    def chunks_of_sections(self, section_ids: Iterable[str], *, with_vectors: bool = False) -> list[dict]:
        ids = list(dict.fromkeys(section_ids))
        if not ids:
            return []
        columns = CHUNK_COLUMNS + (["vector"] if with_vectors else [])
        return sorted(self._rows(CHUNKS, columns, sql_in("section_id", ids)), key=lambda r: (r["doc_id"], r["ordinal"]))

    def sections_by_id(self, section_ids: Iterable[str]) -> dict[str, dict]:
        ids = list(dict.fromkeys(section_ids))
        if not ids:
            return {}
        return {r["section_id"]: r for r in self._rows(SECTIONS, SECTION_COLUMNS, sql_in("section_id", ids))}

    def sections_of_documents(self, doc_ids: Iterable[str], columns: list[str] | None = None) -> list[dict]:
        ids = list(dict.fromkeys(doc_ids))
        if not ids:
            return []
        rows = self._rows(SECTIONS, columns or SECTION_COLUMNS, sql_in("doc_id", ids))
        return sorted(rows, key=lambda r: (r["doc_id"], r["ordinal"]))

    def children_of(self, section_ids: Iterable[str], *, with_vectors: bool = False) -> list[dict]:
        """The sections whose parent is one of ``section_ids``, in document order; ``with_vectors`` adds
        each one's ``centroid`` (the normalised mean of its own chunks' vectors)."""
        ids = list(dict.fromkeys(section_ids))
        if not ids:
            return []
        columns = SECTION_COLUMNS + (["centroid"] if with_vectors else [])
        return sorted(self._rows(SECTIONS, columns, sql_in("parent_id", ids)), key=lambda r: r["ordinal"])

    def section_text(self, section_id: str) -> str:
        rows = self._rows(SECTIONS, ["text"], sql_in("section_id", [section_id]))
        return rows[0]["text"] if rows else ""

    def sources(self) -> list[str]:
        """The documents' source labels as stored (read once per index version)."""
        cached = self._sources
        if cached is None or cached[0] != self._version:
            column = self.store.scan(DOCUMENTS, ["source"]).column("source").to_pylist()
            cached = self._sources = (self._version, sorted({s for s in column if s}))
        return cached[1]

    def stored_sources(self, labels: Iterable[str]) -> list[str]:
        """The stored labels that ``labels`` name: each label itself, and the ingested folders that
        responses show by their name (:func:`cluster.redact.public_source`; a source given to
        ``strata ingest`` as an absolute path: ``corpus`` names ``/data/corpus``)."""
        labels = list(dict.fromkeys(labels))
        named = {label for label in labels if not label.startswith("/")}
        extra = [s for s in self.sources() if s not in named and public_source(s) in named] if named else []
        return labels + extra

    def documents(self, *, offset: int = 0, limit: int = 100, source: str | None = None) -> tuple[int, list[dict]]:
        """(total, one page of documents ordered by path)."""
        where = sql_in("source", self.stored_sources([source])) if source else None
        table = self.store.scan(DOCUMENTS, DOCUMENT_COLUMNS, where=where)
        table = table.sort_by([("path", "ascending"), ("doc_id", "ascending")])
        return table.num_rows, table.slice(offset, limit).to_pylist()

    def document(self, doc_id: str) -> dict | None:
        rows = self._rows(DOCUMENTS, DOCUMENT_COLUMNS, sql_in("doc_id", [doc_id]))
        return rows[0] if rows else None

    def doc_ids_of_sources(self, sources: list[str]) -> list[str]:
        table: pa.Table = self.store.scan(DOCUMENTS, ["doc_id"], where=sql_in("source", self.stored_sources(sources)))
        return table.column("doc_id").to_pylist()

    def section_facet(self, section_id: str) -> str | None:
        """The BM25 facet of a section (``/<doc>/<top>/…/<section>``; a root section is ``/<doc>``)."""
        chain: list[dict] = []
        current = self.sections_by_id([section_id]).get(section_id)
        while current is not None:
            chain.append(current)
            parent = current["parent_id"]
            current = self.sections_by_id([parent]).get(parent) if parent else None
        if not chain:
            return None
        doc_id = chain[0]["doc_id"]
        ids = [s["section_id"] for s in reversed(chain) if s["parent_id"]]
        return "/" + "/".join([doc_id, *ids])
