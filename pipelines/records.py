"""The Arrow record passed between pipeline stages: one row per source document.

parse/chunk tasks fill the document fields plus nested ``chunks`` and ``sections``; the
embedding actors add ``chunk_vectors``, ``section_vectors`` (summary embeddings) and
``section_centroids`` (mean of a section's chunk vectors); the writer flattens rows into the
LanceDB tables and the BM25 index — in the driver (``ingest.writer = "driver"``), or workers write
the Lance fragments and send :data:`WRITTEN_SCHEMA` rows for the driver to commit
(``ingest.writer = "workers"``).
"""

from __future__ import annotations

import pyarrow as pa

from pipelines.chunk.chunk import with_header

STATUS_OK, STATUS_UNCHANGED, STATUS_FAILED = "ok", "unchanged", "failed"

CHUNK_STRUCT = pa.struct([
    ("chunk_id", pa.string()), ("section_id", pa.string()), ("section_path", pa.string()),
    ("section_facet", pa.string()), ("ordinal", pa.int32()), ("start", pa.int64()), ("end", pa.int64()),
    ("n_tokens", pa.int32()), ("content_hash", pa.string()), ("text", pa.string()), ("header", pa.string()),
    ("first_page", pa.int32()), ("last_page", pa.int32()),  # 1-based pages of paged formats (PDF); else null
])

SECTION_STRUCT = pa.struct([
    ("section_id", pa.string()), ("parent_id", pa.string()), ("level", pa.int16()), ("ordinal", pa.int32()),
    ("title", pa.string()), ("path", pa.list_(pa.string())), ("path_str", pa.string()), ("start", pa.int64()),
    ("end", pa.int64()), ("n_tokens", pa.int32()), ("n_chunks", pa.int32()), ("text", pa.string()),
    ("summary", pa.string()), ("summary_header", pa.string()),
])


def chunk_input(chunk: dict) -> str:
    """The text the embedder sees for a ``chunks`` entry of a parsed record: its header, then its
    text. Records carry the two apart (the text once: parsed records wait in Ray's object store).

    >>> chunk_input({"header": "Guide > Install", "text": "Run it."})
    'Guide > Install\\nRun it.'
    """
    return with_header(chunk["header"], chunk["text"])


def summary_input(section: dict) -> str:
    """The text the embedder sees for a ``sections`` entry's summary (a lead summary is its first
    chunk's input, so it is embedded once).

    >>> summary_input({"summary_header": "", "summary": "Subsections: A; B"})
    'Subsections: A; B'
    """
    return with_header(section["summary_header"], section["summary"])


#: With ``ingest.token_ids`` on (the default when GPUs embed) the parse tasks also send each embed
#: input's token ids (:func:`cluster.models.tokenizer.input_tokenizer`), parallel to ``chunks`` (their
#: :func:`chunk_input`) and ``sections`` (their :func:`summary_input`); null when off. The embedding
#: actors run the model on them and drop them (:func:`embedded_schema` has no such columns).
TOKEN_ID_FIELDS = ("chunk_token_ids", "summary_token_ids")
TOKEN_IDS = pa.list_(pa.list_(pa.int32()))

PARSED_SCHEMA = pa.schema([
    ("doc_id", pa.string()), ("source", pa.string()), ("path", pa.string()), ("abs_path", pa.string()),
    ("title", pa.string()), ("format", pa.string()), ("n_bytes", pa.int64()), ("mtime_ns", pa.int64()),
    ("content_hash", pa.string()), ("chunking", pa.string()), ("status", pa.string()), ("reason", pa.string()),
    ("detail", pa.string()), ("n_tokens", pa.int64()), ("chunks", pa.list_(CHUNK_STRUCT)), ("sections", pa.list_(SECTION_STRUCT)),
    ("chunk_token_ids", TOKEN_IDS), ("summary_token_ids", TOKEN_IDS),
])


def embedded_schema(dim: int) -> pa.Schema:
    """The parsed record plus vectors, and what the embedding cache needs: per row, the texts it was
    the first in its batch to use that were served from the cache (``cache_hits``) or embedded
    (``cache_misses``), and the misses' keys and vectors for the writer to store."""
    vectors = pa.list_(pa.list_(pa.float32(), dim))
    parsed = pa.schema([field for field in PARSED_SCHEMA if field.name not in TOKEN_ID_FIELDS])
    return (parsed.append(pa.field("chunk_vectors", vectors)).append(pa.field("section_vectors", vectors))
            .append(pa.field("section_centroids", vectors)).append(pa.field("cache_hits", pa.int32()))
            .append(pa.field("cache_misses", pa.int32())).append(pa.field("new_cache_keys", pa.list_(pa.string())))
            .append(pa.field("new_cache_vectors", vectors)))


#: What a fragment-writing worker (:mod:`pipelines.sink.fragments`) sends the driver for each record:
#: the ``documents`` columns, the status and cache counts, the chunks' BM25 documents (tantivy JSON)
#: and, on the first row of each written batch (a *unit*: the driver commits whole units only), the
#: uncommitted Lance fragments' metadata (JSON ``{table: [FragmentMetadata JSON, ...]}``). No vectors.
WRITTEN_SCHEMA = pa.schema([
    ("doc_id", pa.string()), ("source", pa.string()), ("path", pa.string()), ("title", pa.string()),
    ("format", pa.string()), ("n_bytes", pa.int64()), ("mtime_ns", pa.int64()), ("content_hash", pa.string()),
    ("chunking", pa.string()), ("n_sections", pa.int32()), ("n_chunks", pa.int32()), ("n_tokens", pa.int64()),
    ("status", pa.string()), ("reason", pa.string()), ("detail", pa.string()),
    ("cache_hits", pa.int32()), ("cache_misses", pa.int32()), ("bm25", pa.list_(pa.string())),
    ("bm25_shard", pa.int32()), ("unit", pa.string()), ("unit_rows", pa.int32()), ("fragments", pa.string()),
])
