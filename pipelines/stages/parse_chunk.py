"""Stateless Ray Data task: read files, parse them into a section tree, chunk them.

Input rows are work units, each a ``files`` list of file descriptions (doc_id, source, path,
relpath, size, mtime_ns, known_hash); output rows, one per file, follow
:data:`pipelines.records.PARSED_SCHEMA`. Bad input becomes a ``failed`` row with a reason, never an
exception; a file whose bytes hash to ``known_hash`` becomes ``unchanged``
without being parsed.

>>> # ds.map_batches(parse_chunk_batch, batch_format="pyarrow", fn_kwargs={"settings": ...})
"""

from __future__ import annotations

import hashlib
import time
from functools import lru_cache
from typing import Any

import pyarrow as pa

from cluster.config import ChunkingSettings, ModelsConfig
from cluster.models.registry import resolve_embedder
from cluster.models.tokenizer import load_tokenizer, passage_encoder
from cluster.telemetry.tracing import span
from pipelines.chunk import ChunkingConfig, chunk_with_config
from pipelines.parse import ParseError, ParsedDocument, ParserCrash, parse_bytes
from pipelines.parse.isolated import ParseTimeout, parse_with_limit, time_limit
from pipelines.records import PARSED_SCHEMA, STATUS_FAILED, STATUS_OK, STATUS_UNCHANGED, chunk_input, summary_input
from pipelines.summary import section_summary


@lru_cache(maxsize=4)
def _tokenizer(models_json: str):
    return load_tokenizer(resolve_embedder(ModelsConfig.model_validate_json(models_json)))


@lru_cache(maxsize=4)
def _passage_encoder(models_json: str):
    return passage_encoder(resolve_embedder(ModelsConfig.model_validate_json(models_json)))


@lru_cache(maxsize=4)
def _max_model_tokens(models_json: str) -> int:
    return resolve_embedder(ModelsConfig.model_validate_json(models_json)).manifest.max_tokens


def content_hash(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()[:32]


def chunking_setup(models_json: str, chunking_json: str):
    """The embedder's tokenizer and the :class:`ChunkingConfig` for these settings, as every parse
    task uses them (also for benchmarks that chunk without Ray).

    >>> # tokenizer, config = chunking_setup(cfg.models.model_dump_json(), cfg.chunking.model_dump_json())
    """
    return _tokenizer(models_json), chunking_config(models_json, chunking_json)


def chunking_config(models_json: str, chunking_json: str) -> ChunkingConfig:
    """The :class:`ChunkingConfig` of these settings for the embedder's window (no tokenizer loaded:
    the driver uses it for :attr:`ChunkingConfig.signature`)."""
    settings = ChunkingSettings.model_validate_json(chunking_json)
    return ChunkingConfig(chunk_tokens=settings.chunk_tokens, overlap_tokens=settings.overlap_tokens,
                          max_model_tokens=_max_model_tokens(models_json), header_tokens=settings.header_tokens,
                          balance_tail=settings.balance_tail)


def parse_chunk_batch(batch: pa.Table, *, models_json: str, chunking_json: str, max_file_bytes: int,
                      token_ids: bool = False, parse_timeout_s: float = 0.0) -> pa.Table:
    """Parse and chunk every file of ``batch`` (one Ray Data task call): its rows are work units,
    each a ``files`` list of file descriptions (:func:`pipelines.sources.units.work_units`).
    ``token_ids``: also send each embed input's token ids (``ingest.token_ids``); ``parse_timeout_s``: give
    up on a file after that long (``ingest.parse_timeout_s``, :func:`parse_and_chunk`)."""
    from cluster.telemetry.metrics import ingest_metrics

    tokenizer, config = chunking_setup(models_json, chunking_json)
    encode_ids = _passage_encoder(models_json) if token_ids else None
    started = time.perf_counter()
    rows = []
    files = [item for unit in batch.column("files").to_pylist() for item in unit]
    with span("ingest.parse_chunk", files=len(files)):
        for item in files:
            rows.append(process_file(item, tokenizer=tokenizer, config=config, max_file_bytes=max_file_bytes,
                                     encode_ids=encode_ids, parse_timeout_s=parse_timeout_s))
    ingest_metrics().stage_seconds.observe(time.perf_counter() - started, tags={"stage": "parse_chunk"})
    return pa.Table.from_pylist(rows, schema=PARSED_SCHEMA)


def process_file(item: dict[str, Any], *, tokenizer, config: ChunkingConfig, max_file_bytes: int,
                 encode_ids=None, parse_timeout_s: float = 0.0) -> dict[str, Any]:
    """One file → one :data:`PARSED_SCHEMA` row (status ok / unchanged / failed). With ``encode_ids``
    (:func:`cluster.models.tokenizer.passage_encoder`) an ok row carries its embed inputs' token ids;
    with ``parse_timeout_s`` > 0 a file that takes longer fails with reason ``timeout``."""
    row: dict[str, Any] = {
        "doc_id": item["doc_id"], "source": item["source"], "path": item["relpath"], "abs_path": item["path"],
        "title": None, "format": None, "n_bytes": item["size"], "mtime_ns": item["mtime_ns"], "content_hash": None,
        "chunking": None, "status": STATUS_FAILED, "reason": None, "detail": None, "n_tokens": 0, "chunks": [], "sections": [],
    }
    try:
        with open(item["path"], "rb") as fh:
            raw = fh.read(max_file_bytes + 1)
    except OSError as exc:
        row.update(reason="unreadable", detail=exc.strerror or str(exc))
        return row
    row["n_bytes"] = len(raw)
    if len(raw) > max_file_bytes:
        row.update(reason="too_large", detail=f"more than ingest.max_file_bytes={max_file_bytes} bytes")
        return row
    row["content_hash"] = content_hash(raw)
    if item.get("known_hash") == row["content_hash"]:
        row["status"] = STATUS_UNCHANGED
        return row
    try:
        doc, chunks = parse_and_chunk(raw, path=item["path"], doc_id=item["doc_id"], max_bytes=max_file_bytes,
                                      tokenizer=tokenizer, config=config, timeout_s=parse_timeout_s)
    except ParseError as exc:  # bad input: a deliberate verdict with its reason
        row.update(reason=exc.reason, detail=exc.detail or str(exc))
        return row
    except ParserCrash as exc:  # a bug in decoding or a parser: its own reason, never "malformed"
        row.update(reason=ParserCrash.reason, detail=exc.detail)
        return row
    except Exception as exc:  # a chunker bug must not kill the pipeline either: report it per file
        row.update(reason=ParserCrash.reason, detail=f"chunker crash: {type(exc).__name__}: {exc}")
        return row
    if not chunks:
        row.update(reason="empty", detail="no text to index after parsing")
        return row
    row.update(status=STATUS_OK, chunking=config.signature, title=doc.title, format=doc.format, n_tokens=sum(c.n_tokens for c in chunks),
               chunks=_chunk_rows(doc, chunks), sections=_section_rows(doc, chunks, tokenizer))
    if encode_ids is not None:
        chunk_inputs = [chunk_input(c) for c in row["chunks"]]
        summary_inputs = [summary_input(s) for s in row["sections"]]
        ids = _token_ids(encode_ids, chunk_inputs + summary_inputs)
        row.update(chunk_token_ids=[ids[t] for t in chunk_inputs], summary_token_ids=[ids[t] for t in summary_inputs])
    return row


def parse_and_chunk(raw: bytes, *, path: str, doc_id: str, max_bytes: int, tokenizer, config: ChunkingConfig,
                    timeout_s: float = 0.0):
    """The parsed document and its chunks. With ``timeout_s`` > 0 (``ingest.parse_timeout_s``) the file
    is given up after that long (:class:`pipelines.parse.isolated.ParseTimeout`, reason ``timeout``): a
    PDF is parsed in this worker's parser process (killed at the limit), any other format under a timer,
    and the chunking gets what is left of the time."""
    if not timeout_s or timeout_s <= 0:
        doc = parse_bytes(raw, path=path, doc_id=doc_id, max_bytes=max_bytes)
        return doc, chunk_with_config(doc, tokenizer, config)
    started = time.monotonic()
    doc = parse_with_limit(raw, path=path, doc_id=doc_id, max_bytes=max_bytes, timeout_s=timeout_s)
    left = timeout_s - (time.monotonic() - started)
    if left <= 0:
        raise ParseTimeout(timeout_s, "parsing and chunking")
    with time_limit(left, "parsing and chunking"):
        return doc, chunk_with_config(doc, tokenizer, config)


def _token_ids(encode_ids, texts: list[str]) -> dict[str, list[int]]:
    """Each distinct text's token ids (a one-chunk section's summary is its chunk's input: once)."""
    distinct = list(dict.fromkeys(texts))
    return dict(zip(distinct, encode_ids(distinct)))


def _facets(doc: ParsedDocument) -> dict[str, str]:
    """section_id → facet path ``/<doc_id>/<top section id>/…/<section id>`` (root: ``/<doc_id>``)."""
    facets: dict[str, str] = {}
    for section in doc.sections:  # document order: parents come before children
        if section.parent_id is None:
            facets[section.section_id] = f"/{doc.doc_id}"
        else:
            facets[section.section_id] = f"{facets[section.parent_id]}/{section.section_id}"
    return facets


def _chunk_rows(doc: ParsedDocument, chunks) -> list[dict[str, Any]]:
    facets = _facets(doc)
    return [{
        "chunk_id": c.chunk_id, "section_id": c.section_id, "section_path": c.section_path,
        "section_facet": facets[c.section_id], "ordinal": c.ordinal, "start": c.start, "end": c.end,
        "n_tokens": c.n_tokens, "content_hash": c.content_hash, "text": c.text, "header": c.header,
        "first_page": c.first_page, "last_page": c.last_page,
    } for c in chunks]


def _section_rows(doc: ParsedDocument, chunks, tokenizer) -> list[dict[str, Any]]:
    by_section: dict[str, list] = {}
    for chunk in chunks:
        by_section.setdefault(chunk.section_id, []).append(chunk)
    titles = {s.section_id: s.title for s in doc.sections}
    token_counts = [len(e.ids) for e in tokenizer.encode_batch([s.text for s in doc.sections], add_special_tokens=False)]
    summaries: dict[str, tuple[str, str]] = {}
    for section in reversed(doc.sections):  # children before their parents: a parent may share one's summary
        own = by_section.get(section.section_id, [])
        summaries[section.section_id] = section_summary(
            title=section.title, header=" > ".join(p for p in (doc.title, section.path_str) if p),
            lead=(own[0].text, own[0].header) if own else None,
            child_titles=[titles[c] for c in section.children],
            only_child=summaries[section.children[0]] if len(section.children) == 1 else None)
    rows = []
    for section, n_tokens in zip(doc.sections, token_counts):
        summary, summary_header = summaries[section.section_id]
        rows.append({
            "section_id": section.section_id, "parent_id": section.parent_id, "level": section.level,
            "ordinal": section.ordinal, "title": section.title, "path": list(section.path),
            "path_str": section.path_str, "start": section.start, "end": section.end, "n_tokens": n_tokens,
            "n_chunks": len(by_section.get(section.section_id, ())), "text": section.text,
            "summary": summary, "summary_header": summary_header,
        })
    return rows
