"""Arrow schemas of Strata's LanceDB tables.

``documents`` (one row per ingested file, written last: a document row marks its chunks and
sections complete), ``sections`` (the document → section → subsection hierarchy with an
extractive summary and its embedding), ``chunks`` (retrievable passages with vectors) and
``meta`` (key/value: the embedder manifest, schema version).

>>> chunks_schema(384).field("vector").type
FixedSizeListType(fixed_size_list<item: float>[384])
"""

from __future__ import annotations

import pyarrow as pa

SCHEMA_VERSION = "1"
DOCUMENTS, SECTIONS, CHUNKS, META = "documents", "sections", "chunks", "meta"


def vector_type(dim: int) -> pa.DataType:
    return pa.list_(pa.float32(), dim)


DOCUMENTS_SCHEMA = pa.schema([
    pa.field("doc_id", pa.string(), nullable=False),
    pa.field("source", pa.string()),
    pa.field("path", pa.string()),
    pa.field("title", pa.string()),
    pa.field("format", pa.string()),
    pa.field("n_bytes", pa.int64()),
    pa.field("mtime_ns", pa.int64()),
    pa.field("content_hash", pa.string()),
    # what the chunks depend on besides the bytes (pipelines.chunk.ChunkingConfig.signature); null in
    # indexes written before it was recorded
    pa.field("chunking", pa.string()),
    pa.field("n_sections", pa.int32()),
    pa.field("n_chunks", pa.int32()),
    pa.field("n_tokens", pa.int64()),
    pa.field("ingested_at", pa.timestamp("us", tz="UTC")),
])

#: The ``documents`` columns that decide whether a discovered file must be ingested again.
KNOWN_COLUMNS = ("n_bytes", "mtime_ns", "content_hash", "chunking")

META_SCHEMA = pa.schema([pa.field("key", pa.string(), nullable=False), pa.field("value", pa.string())])


def sections_schema(dim: int) -> pa.Schema:
    return pa.schema([
        pa.field("section_id", pa.string(), nullable=False),
        pa.field("doc_id", pa.string(), nullable=False),
        pa.field("parent_id", pa.string()),
        pa.field("level", pa.int16()),
        pa.field("ordinal", pa.int32()),
        pa.field("title", pa.string()),
        pa.field("path", pa.list_(pa.string())),
        pa.field("path_str", pa.string()),
        pa.field("start", pa.int64()),
        pa.field("end", pa.int64()),
        pa.field("n_tokens", pa.int32()),
        pa.field("n_chunks", pa.int32()),
        pa.field("text", pa.string()),
        pa.field("summary", pa.string()),
        pa.field("vector", vector_type(dim)),  # embedding of the summary
        pa.field("centroid", vector_type(dim)),  # normalised mean of the section's own chunk vectors
    ])


def chunks_schema(dim: int) -> pa.Schema:
    return pa.schema([
        pa.field("chunk_id", pa.string(), nullable=False),
        pa.field("doc_id", pa.string(), nullable=False),
        pa.field("section_id", pa.string()),
        pa.field("section_path", pa.string()),
        pa.field("section_facet", pa.string()),
        pa.field("title", pa.string()),
        pa.field("source", pa.string()),
        pa.field("path", pa.string()),
        pa.field("ordinal", pa.int32()),
        pa.field("start", pa.int64()),
        pa.field("end", pa.int64()),
        pa.field("n_tokens", pa.int32()),
        pa.field("content_hash", pa.string()),
        pa.field("text", pa.string()),
        pa.field("vector", vector_type(dim)),
        # pages (1-based) the chunk's text lies on, for paged formats (PDF); null otherwise and in indexes
        # written before pages were stored (the writer adds the columns when it opens one: last, as here)
        pa.field("first_page", pa.int32()),
        pa.field("last_page", pa.int32()),
    ])
