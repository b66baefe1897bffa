"""The tantivy BM25 index over chunks: one writer (the ingest sink), many readers.

An index is one tantivy directory (:class:`Bm25Index`), or ``N`` of them, *shards*
(:class:`ShardedBm25`, ``ingest.bm25_shards``): every document lives in the shard its id hashes to
(:func:`shard_of`), each shard has its own writer (on GPU clusters a process of its own, so BM25
indexing scales past one tantivy writer), and a search asks every shard and merges the hits by
score. Each shard scores with its own term statistics, as Elasticsearch's shards do by default;
documents are spread by hash, so the shards' statistics agree closely. :func:`open_bm25` opens
either kind from the directory's layout.

Fields (:func:`_schema`): ``chunk_id`` (stored, raw), ``doc_id`` (stored, raw, for deletes and
filters), ``text`` (en_stem; the document title, section path and chunk text, since passages that
never name their document must still be found by it) and ``section`` (a facet
``/<doc_id>/<section id>/<subsection id>…`` for section-subtree filters). ``text`` keeps term
frequencies but no positions: BM25 needs only those, and queries are bags of words
(:func:`safe_query_text`), never phrases. That and indexing nothing no query reads (``title`` and
``section_path`` had fields of their own until 2026-11) cut tantivy's CPU a chunk by ~30%
(``bench/sink_bench.py``). An index built before keeps its own schema (:class:`Bm25Index` opens it
with the one it was written with) and works as it did.

>>> safe_query_text('0-dimensional AND "quoted" +x NOT y epoll_wait')
'0 dimensional and quoted x not y epoll wait'
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import pyarrow as pa
import pyarrow.compute as pc
import tantivy

#: A query word: a run of letters and digits (``str.isalnum``), each of which tantivy's tokenizer
#: also keeps whole, so no query word becomes a phrase (which a field without positions refuses).
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
#: The chunk columns a BM25 document is made of.
BM25_COLUMNS = ("chunk_id", "doc_id", "title", "section_path", "section_facet", "text")
MAX_WRITER_THREADS = 8  # tantivy's indexing threads stop paying off beyond ~8 (and each needs its own heap)
HEAP_BYTES_PER_THREAD = 64_000_000
MIN_HEAP_BYTES_PER_THREAD = 16_000_000  # tantivy refuses less than ~15 MB a thread
#: What a sharded writer says when :meth:`Bm25Writer.add_json` gets no shard numbers.
NEED_SHARDS = "a sharded BM25 index routes documents by their shard: pass shards (shards_of(doc_ids))"
SHARDS_FILE = "shards.json"  # a sharded index's layout: {"shards": N}; its shards are shard-00 … shard-<N-1>


def shard_of(doc_id: str, shards: int) -> int:
    """The shard that holds ``doc_id``'s chunks: a stable hash of the id, modulo ``shards``.

    >>> shard_of("3f2a", 1), shard_of("3f2a", 4) == shard_of("3f2a", 4)
    (0, True)
    """
    if shards <= 1:
        return 0
    return int.from_bytes(hashlib.blake2b(doc_id.encode(), digest_size=8).digest(), "big") % shards


def shards_of(doc_ids: Sequence[str] | pa.Array | pa.ChunkedArray, shards: int) -> pa.Array:
    """:func:`shard_of` of every id (int32), each distinct id hashed once (a document's chunks share
    it): what :meth:`Bm25Writer.add_json` routes by. Fragment-writing workers compute it per document,
    so the writer's thread does not.

    >>> shards_of(["a", "b", "a"], 4).to_pylist() == [shard_of("a", 4), shard_of("b", 4), shard_of("a", 4)]
    True
    """
    if shards <= 1:  # one directory: nothing to hash
        return pa.array([0] * len(doc_ids), pa.int32())
    ids = doc_ids.combine_chunks() if isinstance(doc_ids, pa.ChunkedArray) else pa.array(doc_ids, pa.string())
    distinct = pc.unique(ids)
    numbers = pa.array([shard_of(d, shards) for d in distinct.to_pylist()], pa.int32())
    return pc.take(numbers, pc.index_in(ids, value_set=distinct))


def shard_dir(path: Path, shard: int) -> Path:
    """The tantivy directory of ``shard`` in the sharded index at ``path``."""
    return Path(path) / f"shard-{shard:02d}"


def writer_threads(requested: int = 0) -> int:
    """Indexing threads: ``requested``, or (0) this machine's cores, at most :data:`MAX_WRITER_THREADS`.

    >>> writer_threads(3)
    3
    """
    return requested if requested > 0 else max(1, min(os.cpu_count() or 1, MAX_WRITER_THREADS))


def document_json(row: dict, head: str = "") -> str:
    """One chunk (keys: :data:`BM25_COLUMNS`) as the tantivy JSON document :meth:`Bm25Index.add_json` takes, its
    words after its document's title, its section path and, for a chunk that starts inside a table, that table's
    ``head`` (caption and column heads: "Year Ended December 31, 2024" for its rows of figures).
    Fragment-writing workers render these, so the writer's thread only hands strings to tantivy.

    >>> document_json({"chunk_id": "c", "doc_id": "d", "title": "T", "section_path": "", "section_facet": "/d/s",
    ...                "text": "x"})
    '{"chunk_id": "c", "doc_id": "d", "text": "T\\\\nx", "section": "/d/s"}'
    """
    body = "\n".join(p for p in (row["title"], row["section_path"], head, row["text"]) if p)
    return json.dumps({"chunk_id": row["chunk_id"], "doc_id": row["doc_id"], "text": body,
                       "section": row["section_facet"]})


def _strings(values: Iterable[str] | pa.Array) -> Iterable[str]:
    return values.to_pylist() if isinstance(values, (pa.Array, pa.ChunkedArray)) else values


def safe_query_text(text: str, *, max_terms: int = 64) -> str:
    """Reduce free text to lower-cased word tokens so tantivy's query parser sees no operators,
    phrases or field syntax (``AND``/``OR``/``NOT``/``+``/``-``/``:``/quotes)."""
    return " ".join(_WORD.findall(text.lower())[:max_terms])  # lower first: "İ" lowers to "i" + a combining dot


def _schema() -> tantivy.Schema:
    """The schema of a new index (see the module docstring); the ids need no frequencies either."""
    sb = tantivy.SchemaBuilder()
    sb.add_text_field("chunk_id", stored=True, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("doc_id", stored=True, tokenizer_name="raw", index_option="basic")
    sb.add_text_field("text", stored=False, tokenizer_name="en_stem", index_option="freq")
    sb.add_facet_field("section")
    return sb.build()


def schema_before_2026_11() -> tantivy.Schema:
    """The schema indexes were built with before 2026-11 (positions; ``title`` and ``section_path``
    fields no query read): such indexes still open and work; tests and ``bench/sink_bench.py`` build
    one to compare. Its documents are :func:`document_json`'s plus ``title`` and ``section_path``."""
    sb = tantivy.SchemaBuilder()
    sb.add_text_field("chunk_id", stored=True, tokenizer_name="raw")
    sb.add_text_field("doc_id", stored=True, tokenizer_name="raw")
    sb.add_text_field("text", stored=False, tokenizer_name="en_stem")
    sb.add_text_field("title", stored=False, tokenizer_name="en_stem")
    sb.add_text_field("section_path", stored=False, tokenizer_name="en_stem")
    sb.add_facet_field("section")
    return sb.build()


@dataclass(frozen=True)
class Bm25Hit:
    chunk_id: str
    doc_id: str
    score: float


class Bm25Index:
    """A tantivy index directory. Call :meth:`writer_session` once per ingest (single writer)."""

    def __init__(self, path: Path, *, create: bool = False) -> None:
        self.path = Path(path)
        if self.path.is_dir() and tantivy.Index.exists(str(self.path)):  # with the schema it was built with (older ones differ)
            self.index = tantivy.Index.open(str(self.path))
        elif create:
            self.path.mkdir(parents=True, exist_ok=True)
            self.index = tantivy.Index(_schema(), path=str(self.path))
        else:
            raise FileNotFoundError(f"no BM25 index at {self.path}: run `strata ingest` first")
        # Searches reload explicitly (:meth:`search`), so no reader reloads on every commit behind
        # their back (an ingest's driver holds every shard, and would reload each on each commit).
        self.index.config_reader("Manual")
        self.schema = self.index.schema
        self._writer: tantivy.IndexWriter | None = None

    # -- writing -------------------------------------------------------------------------------
    def open_writer(self, heap_bytes: int | None = None, threads: int = 0) -> None:
        """Take the index lock (a second writer anywhere fails with a clear error).

        ``threads``: tantivy indexing threads (0: :func:`writer_threads`); each indexes its own
        segment in parallel. ``heap_bytes``: the indexing memory of all threads (default 64 MB a
        thread); a small heap lowers the thread count so each keeps tantivy's minimum."""
        threads = writer_threads(threads)
        if heap_bytes is None:
            heap_bytes = HEAP_BYTES_PER_THREAD * threads
        threads = max(1, min(threads, heap_bytes // MIN_HEAP_BYTES_PER_THREAD))
        try:
            self._writer = self.index.writer(heap_size=heap_bytes, num_threads=threads)
        except ValueError as exc:
            raise RuntimeError(f"another process is writing the BM25 index at {self.path}: {exc}") from exc

    @property
    def writing(self) -> bool:
        """Whether this process holds the writer (the index's lock)."""
        return self._writer is not None

    def close_writer(self) -> None:
        if self._writer is not None:
            self._writer.wait_merging_threads()
            self._writer = None

    def add_chunks(self, rows: list[dict]) -> None:
        """Add chunk rows (keys: :data:`BM25_COLUMNS`)."""
        self.add_json(document_json(row) for row in rows)

    def add_json(self, documents: Iterable[str] | pa.Array, shards: Sequence[int] | pa.Array | None = None) -> None:
        """Add documents rendered by :func:`document_json` (the writer's hot path: no per-field Python).
        ``shards`` (each document's shard, which routes it in a sharded index) is not needed here."""
        assert self._writer is not None, "open_writer() first"
        add = self._writer.add_json
        for doc in _strings(documents):
            add(doc)

    def delete_documents(self, doc_ids: list[str]) -> None:
        assert self._writer is not None, "open_writer() first"
        for doc_id in doc_ids:
            self._writer.delete_documents_by_term("doc_id", doc_id)

    def commit(self) -> None:
        assert self._writer is not None, "open_writer() first"
        self._writer.commit()

    # -- reading -------------------------------------------------------------------------------
    shards = 1

    @property
    def parts(self) -> list["Bm25Index"]:
        """The tantivy directories of this index: itself (a :class:`ShardedBm25` has one per shard)."""
        return [self]

    def reload(self) -> None:
        """See the latest commit (readers in other processes than the writer)."""
        self.index.reload()

    def num_docs(self) -> int:
        self.index.reload()
        return self.index.searcher().num_docs

    def search(self, text: str, *, k: int = 10, doc_ids: list[str] | None = None,
               section_facet: str | None = None) -> list[Bm25Hit]:
        """BM25 over ``text`` (OR of analysed terms), optionally within documents or a section subtree."""
        query_text = safe_query_text(text)
        if not query_text or k <= 0:
            return []
        query = self.index.parse_query(query_text, ["text"])
        filters: list[tantivy.Query] = []
        if doc_ids:
            filters.append(tantivy.Query.term_set_query(self.schema, "doc_id", list(doc_ids)))
        if section_facet:
            filters.append(tantivy.Query.term_query(self.schema, "section", tantivy.Facet.from_string(section_facet)))
        if filters:
            query = tantivy.Query.boolean_query([(tantivy.Occur.Must, query)] + [(tantivy.Occur.Must, f) for f in filters])
        self.index.reload()
        searcher = self.index.searcher()
        # Equal scores come back in segment order, which parallel indexing makes vary between runs:
        # fetch past the k-th score's ties and order them by chunk_id, so a search is deterministic.
        limit = k + 1
        while True:
            raw = searcher.search(query, limit).hits
            if len(raw) < limit or raw[-1][0] < raw[k - 1][0]:
                break
            limit *= 2
        hits = []
        for score, address in raw:
            doc = searcher.doc(address)
            hits.append(Bm25Hit(doc["chunk_id"][0], doc["doc_id"][0], float(score)))
        hits.sort(key=lambda hit: (-hit.score, hit.chunk_id))
        return hits[:k]


class Bm25Writer(Protocol):
    """What the ingest writer needs of a BM25 index: :class:`Bm25Index`, :class:`ShardedBm25`, or
    :class:`pipelines.sink.bm25_shards.ShardWriterPool` (one writer process per shard)."""

    shards: int

    def open_writer(self, heap_bytes: int | None = None, threads: int = 0) -> None: ...
    def add_json(self, documents: Iterable[str] | pa.Array, shards: Sequence[int] | pa.Array | None = None) -> None:
        """Add rendered documents; ``shards``: each one's shard (:func:`shards_of` of its doc_id),
        required by a sharded index."""
    def delete_documents(self, doc_ids: list[str]) -> None: ...
    def commit(self) -> None: ...
    def close_writer(self) -> None: ...


class ShardedBm25:
    """``shards`` tantivy directories under ``path`` (see the module docstring); the same reading and
    writing methods as :class:`Bm25Index`. Writing here opens every shard's writer in this process
    (deletes, maintenance); an ingest on Ray writes each shard in its own process
    (:class:`pipelines.sink.bm25_shards.ShardWriterPool`).

    >>> # bm25 = open_bm25(path, create=True, shards=4); bm25.search("epoll edge triggered", k=10)
    """

    def __init__(self, path: Path, shards: int, *, create: bool = False) -> None:
        self.path = Path(path)
        self.shards = shards
        self.parts = [Bm25Index(shard_dir(self.path, i), create=create) for i in range(shards)]

    def _route(self, doc_ids: Iterable[str]) -> dict[int, list[str]]:
        by_shard: dict[int, list[str]] = {}
        for doc_id in doc_ids:
            by_shard.setdefault(shard_of(doc_id, self.shards), []).append(doc_id)
        return by_shard

    # -- writing -------------------------------------------------------------------------------
    def open_writer(self, heap_bytes: int | None = None, threads: int = 0) -> None:
        """Every shard's writer, ``threads`` tantivy threads each (0: the cores shared out, at least 1)."""
        each = threads or max(1, writer_threads() // self.shards)
        opened = []
        try:
            for part in self.parts:
                part.open_writer(heap_bytes, threads=each)
                opened.append(part)
        except Exception:
            for part in opened:
                part.close_writer()
            raise

    @property
    def writing(self) -> bool:
        return any(part.writing for part in self.parts)

    def close_writer(self) -> None:
        for part in self.parts:
            part.close_writer()

    def add_json(self, documents: Iterable[str] | pa.Array, shards: Sequence[int] | pa.Array | None = None) -> None:
        """Add rendered documents, each to its ``shards`` entry's shard (required here)."""
        if shards is None:
            raise ValueError(NEED_SHARDS)
        buckets: dict[int, list[str]] = {}
        numbers = shards.to_pylist() if isinstance(shards, (pa.Array, pa.ChunkedArray)) else shards
        for doc, shard in zip(_strings(documents), numbers, strict=True):
            buckets.setdefault(shard, []).append(doc)
        for shard, docs in buckets.items():
            self.parts[shard].add_json(docs)

    def add_chunks(self, rows: list[dict]) -> None:
        self.add_json([document_json(row) for row in rows], shards_of([row["doc_id"] for row in rows], self.shards))

    def delete_documents(self, doc_ids: list[str]) -> None:
        for shard, ids in self._route(doc_ids).items():
            self.parts[shard].delete_documents(ids)

    def commit(self) -> None:
        for part in self.parts:
            part.commit()

    # -- reading -------------------------------------------------------------------------------
    def reload(self) -> None:
        for part in self.parts:
            part.reload()

    def num_docs(self) -> int:
        return sum(part.num_docs() for part in self.parts)

    def search(self, text: str, *, k: int = 10, doc_ids: list[str] | None = None,
               section_facet: str | None = None) -> list[Bm25Hit]:
        """Each shard's best ``k`` (only the shards that can hold ``doc_ids`` or the facet's document),
        merged by score, ties by chunk_id as in :meth:`Bm25Index.search`."""
        if doc_ids:
            targets = {shard: ids for shard, ids in self._route(doc_ids).items()}
        else:
            targets = {shard: None for shard in range(self.shards)}
        if section_facet:
            owner = shard_of(section_facet.strip("/").split("/")[0], self.shards)
            targets = {owner: targets[owner]} if owner in targets else {}
        hits = [hit for shard, ids in targets.items()
                for hit in self.parts[shard].search(text, k=k, doc_ids=ids, section_facet=section_facet)]
        hits.sort(key=lambda hit: (-hit.score, hit.chunk_id))
        return hits[:k]


class ShardCountError(RuntimeError):
    """An existing index asked for another shard count (the CLI shows the message alone)."""


def open_bm25(path: Path, *, create: bool = False, shards: int = 0, new_shards: int = 1) -> Bm25Index | ShardedBm25:
    """The BM25 index at ``path``, one directory or sharded, as its layout says. ``create``: make it
    if missing, with ``shards`` shards, or ``new_shards`` when ``shards`` is 0 (1: one directory).
    An existing index keeps the shard count it was built with; asking for another one with
    ``shards`` is refused (it needs a new index).

    >>> import tempfile; d = Path(tempfile.mkdtemp())
    >>> open_bm25(d / "a", create=True, shards=3).shards, open_bm25(d / "a").shards
    (3, 3)
    >>> open_bm25(d / "b", create=True).shards, open_bm25(d / "c", create=True, new_shards=4).shards
    (1, 4)
    >>> open_bm25(d / "b", create=True, new_shards=4).shards
    1
    >>> open_bm25(d / "b", shards=2)
    Traceback (most recent call last):
    cluster.store.bm25.ShardCountError: the BM25 index at ... has 1 shard; ingest.bm25_shards = 2 needs a new index (another data_dir), or 0 to keep 1
    """
    path = Path(path)
    layout = path / SHARDS_FILE
    if layout.exists():
        have = int(json.loads(layout.read_text())["shards"])
    elif path.is_dir() and tantivy.Index.exists(str(path)):
        have = 1
    elif create:
        have = max(1, shards or new_shards)
        if have > 1:
            path.mkdir(parents=True, exist_ok=True)
            for i in range(have):
                Bm25Index(shard_dir(path, i), create=True)
            tmp = path / (SHARDS_FILE + ".tmp")
            tmp.write_text(json.dumps({"shards": have}))
            tmp.replace(layout)  # the layout appears whole, after its shards
    else:
        raise FileNotFoundError(f"no BM25 index at {path}: run `strata ingest` first")
    if shards and shards != have:
        raise ShardCountError(f"the BM25 index at {path} has {have} shard{'s' if have > 1 else ''}; "
                         f"ingest.bm25_shards = {shards} needs a new index (another data_dir), or 0 to keep {have}")
    return Bm25Index(path, create=create) if have == 1 else ShardedBm25(path, have)
