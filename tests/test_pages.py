"""Pages of paged documents (PDF) in the index: every chunk's ``first_page``/``last_page`` (null for other
formats) stored in the ``chunks`` table by both writers (the driver's and the fragment-writing workers');
an index written before the columns existed is read as nulls and upgraded in place by the next writer.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from support import make_config, search

from cluster.store.lance_store import LanceStore
from cluster.store.schema import CHUNKS, DOCUMENTS, DOCUMENTS_SCHEMA, chunks_schema

sys.path.insert(0, str(Path(__file__).parent / "parse"))
from pdfgen import Mark, Text, make_pdf  # noqa: E402

DIM = 384
PAGE_WORDS = {"Overview": 1, "Harbour": 2, "Lighthouse": 3}
FACT = "The lighthouse at Cape Wrath was built in 1828 by Robert Stevenson."
SKIP_INGEST = pytest.mark.skipif(os.environ.get("STRATA_TEST_SKIP_INGEST") == "1", reason="STRATA_TEST_SKIP_INGEST=1")


def report_pdf() -> bytes:
    """Three pages, each of its own word's body lines (16, 16, 6: some chunk runs over a page break);
    page 3 also states :data:`FACT`."""
    pages = []
    for word, n in (("Overview", 16), ("Harbour", 16), ("Lighthouse", 6)):
        lines = [f"{word} line {k} of the body text, written plainly for the reader." for k in range(n)]
        if word == "Lighthouse":
            lines.insert(3, FACT)
        items = [Text(72, 740, 16, "1 Overview", bold=True)] if word == "Overview" else []
        items += [Text(72, 710 - 14 * k, 10, line) for k, line in enumerate(lines)]
        pages.append(items)
    return make_pdf(pages, outline=[Mark(1, "Overview", 0, 760)], title="Coastal survey")


def expected_pages(text: str) -> tuple[int, int]:
    pages = {PAGE_WORDS[w] for w in re.findall(r"(\w+) line \d+ of", text)} | ({3} if "Cape Wrath" in text else set())
    return min(pages), max(pages)


@pytest.fixture(scope="module")
def pdf_index(tmp_path_factory, ray_session, installed_models):
    """An index of a three-page PDF and a Markdown note."""
    from pipelines.ingest import run_ingest

    root = tmp_path_factory.mktemp("pages")
    corpus = root / "corpus"
    corpus.mkdir()
    (corpus / "survey.pdf").write_bytes(report_pdf())
    (corpus / "notes.md").write_text("# Notes\n\nA plain note about rivers and deltas.\n")
    cfg = make_config(root / "idx")
    report = run_ingest(cfg, corpus, source="docs")
    assert report.new == 2 and not report.failed
    return cfg


@SKIP_INGEST
def test_pdf_chunks_carry_their_pages_in_the_index(pdf_index):
    rows = LanceStore.open(pdf_index.storage, dim=DIM).scan(CHUNKS, ["path", "text", "first_page", "last_page"]).to_pylist()
    pdf = [r for r in rows if r["path"] == "survey.pdf"]
    assert len(pdf) >= 3
    for r in pdf:
        assert (r["first_page"], r["last_page"]) == expected_pages(r["text"]), r["text"][:80]
    assert any(r["first_page"] < r["last_page"] for r in pdf)
    assert all(r["first_page"] is None and r["last_page"] is None for r in rows if r["path"] == "notes.md")


@SKIP_INGEST
def test_hits_passages_and_citations_carry_their_pages(pdf_index, capsys):
    from cli.query import _print_answer
    from serving.protocol import AnswerRequest, ContextRequest, citation_label
    from serving.services.local import AnswerPipeline, SearchPipeline

    hit = search(pdf_index, "Cape Wrath lighthouse Stevenson", mode="bm25")[0]
    assert hit.path == "survey.pdf" and FACT in hit.text
    assert (hit.first_page, hit.last_page) == expected_pages(hit.text) and hit.last_page == 3
    note = search(pdf_index, "rivers and deltas", mode="bm25")[0]
    assert note.path == "notes.md" and (note.first_page, note.last_page) == (None, None)

    pipe = SearchPipeline(pdf_index)
    try:
        context = pipe.context(ContextRequest(query="Cape Wrath lighthouse Stevenson", use_cache=False))
    finally:
        pipe.close()
    pdf = [p for p in context.passages if p.path == "survey.pdf" and p.chunk_ids]
    assert pdf and any(FACT in p.text for p in pdf)
    for p in pdf:  # a passage's pages span its chunks'
        assert (p.first_page, p.last_page) == expected_pages(p.text), p.text[:80]

    with AnswerPipeline(pdf_index) as pipe:
        response = pipe.answer(AnswerRequest(question="When was the lighthouse at Cape Wrath built?", use_cache=False))
    assert not response.refused and "1828" in response.answer, response.refusal_reason
    cited = [c for c in response.citations if any("1828" in q for q in c.quotes)]
    assert cited
    c = cited[0]
    assert c.first_page is not None and c.first_page <= 3 == c.last_page
    section = " > ".join(c.section_path) or c.title
    assert c.label == citation_label("survey.pdf", section, c.first_page, c.last_page)
    assert re.fullmatch(r"survey\.pdf § .+, (p\. 3|pp\. [12]–3)", c.label), c.label
    _print_answer(response)  # `strata ask` prints the label
    assert f"[{c.n}] {c.label}" in capsys.readouterr().out


def test_citation_labels():
    from serving.protocol import citation_label, pages_label

    assert citation_label("reports/acme.pdf", "2 Risks", 12, 12) == "reports/acme.pdf § 2 Risks, p. 12"
    assert citation_label("reports/acme.pdf", "2 Risks", 12, 13) == "reports/acme.pdf § 2 Risks, pp. 12–13"
    assert citation_label("notes.md", "Install", None, None) == "notes.md § Install"
    assert pages_label(None, None) == ""


# -- an index from before the page columns -----------------------------------------------------------------
OLD_CHUNKS = pa.schema([f for f in chunks_schema(DIM) if f.name not in ("first_page", "last_page")])


def _unit(rng, n: int) -> list[list[float]]:
    v = rng.standard_normal((n, DIM)).astype(np.float32)
    return (v / np.linalg.norm(v, axis=1, keepdims=True)).tolist()


def _record(doc_id: str, pages: list[tuple[int | None, int | None]], rng) -> dict:
    """An embedded record (:func:`pipelines.records.embedded_schema`) with one chunk per entry of ``pages``."""
    sid = f"{doc_id}-s0"
    texts = [f"passage {j} of {doc_id} about harbours" for j in range(len(pages))]
    chunks = [{"chunk_id": f"{doc_id}-c{j}", "section_id": sid, "section_path": "Survey", "section_facet": f"/{doc_id}",
               "ordinal": j, "start": 0, "end": len(t), "n_tokens": 7, "content_hash": "h", "text": t, "header": "",
               "first_page": first, "last_page": last} for j, (t, (first, last)) in enumerate(zip(texts, pages))]
    section = {"section_id": sid, "parent_id": None, "level": 0, "ordinal": 0, "title": "Survey", "path": ["Survey"],
               "path_str": "Survey", "start": 0, "end": 10, "n_tokens": 7 * len(pages), "n_chunks": len(pages),
               "text": " ".join(texts), "summary": texts[0], "summary_header": ""}
    vectors = _unit(rng, len(pages) + 1)
    return {"doc_id": doc_id, "source": "t", "path": f"{doc_id}.pdf", "abs_path": f"/x/{doc_id}.pdf", "title": "Survey",
            "format": "pdf", "n_bytes": 100, "mtime_ns": 1, "content_hash": "h", "status": "ok", "reason": None,
            "detail": None, "n_tokens": 7 * len(pages), "chunks": chunks, "sections": [section],
            "chunk_vectors": vectors[:-1], "section_vectors": vectors[-1:], "section_centroids": vectors[-1:],
            "cache_hits": 0, "cache_misses": 0, "new_cache_keys": [], "new_cache_vectors": []}


def _old_index(cfg, rng) -> None:
    """An index as the schema before pages wrote it: a chunks table without the page columns, one row."""
    store = LanceStore.open(cfg.storage, dim=DIM, create=True)
    store.db.drop_table(CHUNKS)
    row = {f.name: None for f in OLD_CHUNKS}
    row.update(chunk_id="old-c0", doc_id="old", path="old.md", ordinal=0, text="an old passage", vector=_unit(rng, 1)[0])
    store.db.create_table(CHUNKS, schema=OLD_CHUNKS).add(pa.Table.from_pylist([row], schema=OLD_CHUNKS))
    doc = {f.name: None for f in DOCUMENTS_SCHEMA}
    doc.update(doc_id="old", path="old.md", n_chunks=1)
    store.upsert_documents(pa.Table.from_pylist([doc], schema=DOCUMENTS_SCHEMA))


@pytest.mark.parametrize("workers", [False, True], ids=["driver", "workers"])
def test_an_index_from_before_pages_is_read_as_nulls_and_upgraded_by_the_writer(tmp_path, workers):
    from cluster.store.bm25 import open_bm25
    from cluster.store.embed_cache import EmbeddingCache
    from cluster.store.journal import IngestJournal
    from pipelines.records import embedded_schema
    from pipelines.sink.fragments import fragment_targets, write_fragments_batch
    from pipelines.sink.writer import IndexSink

    rng = np.random.default_rng(5)
    cfg = make_config(tmp_path / "idx")
    _old_index(cfg, rng)

    reader = LanceStore.open(cfg.storage, dim=DIM)  # a reader (a Serve replica) changes nothing …
    assert "first_page" not in reader.table(CHUNKS).schema.names
    # … and reads the missing columns as nulls
    assert reader.scan(CHUNKS, ["chunk_id", "first_page", "last_page"]).to_pylist() == [
        {"chunk_id": "old-c0", "first_page": None, "last_page": None}]

    store = LanceStore.open(cfg.storage, dim=DIM, create=True)  # the writer upgrades the table in place
    assert store.table(CHUNKS).schema == chunks_schema(DIM)
    cache = EmbeddingCache.open(cfg.storage, dim=DIM, create=True)
    sink = IndexSink(store, open_bm25(cfg.storage.bm25_path, create=True), IngestJournal(cfg.storage.journal_path),
                     known=store.known_documents(), batch_rows=4, cache=cache, fingerprint="fp", bm25_threads=1)
    sink.recover()
    batch = pa.Table.from_pylist([_record("new", [(1, 1), (1, 2), (3, 3)], rng), _record("flat", [(None, None)], rng)],
                                 schema=embedded_schema(DIM))
    if workers:
        targets = fragment_targets(store, cache, "fp", storage_options={}, bm25_shards=1)
        batch = write_fragments_batch(batch, targets_json=targets, unit_chunks=4)
    sink.accept(batch)
    sink.close()

    reader.refresh()  # the replica moves to the new version and sees the columns
    rows = {r["chunk_id"]: (r["first_page"], r["last_page"])
            for r in reader.scan(CHUNKS, ["chunk_id", "first_page", "last_page"]).to_pylist()}
    assert rows == {"old-c0": (None, None), "new-c0": (1, 1), "new-c1": (1, 2), "new-c2": (3, 3),
                    "flat-c0": (None, None)}
    assert store.table(DOCUMENTS).count_rows() == 3
