"""End-to-end ingest of a real corpus with the real embedder, Ray, LanceDB and tantivy."""

from __future__ import annotations

import re

import pytest
from index_probe import assert_consistent, snapshot
from support import SAMPLES, make_config, search

from cluster.store.lance_store import LanceStore
from cluster.store.schema import CHUNKS, SECTIONS
from pipelines.ingest import run_ingest


def test_sample_corpus_is_ingested_completely(sample_index):
    cfg, report = sample_index
    n_files = sum(1 for p in SAMPLES.rglob("*") if p.is_file())
    assert report.failed == []
    assert report.new == n_files
    assert report.chunks > 100 and report.tokens > 50_000
    snap = snapshot(cfg)
    assert len(snap["documents"]) == n_files
    assert_consistent(snap)
    store = LanceStore.open(cfg.storage, dim=384)
    assert not store.has_vector_index(CHUNKS), report.index_actions  # the default: flat below ivf_min_rows
    assert store.stats(CHUNKS).rows == report.chunks


def test_the_sample_pdf_is_cited_with_its_page(sample_index):
    """The demo's second question: bzip2's manual (a real PDF in samples/corpus) answers it, its hits carry pages."""
    from cli.demo import PDF_QUESTION
    from serving.protocol import citation_label

    cfg, report = sample_index
    hits = search(cfg, PDF_QUESTION, k=3)
    assert all(h.path == "bzip2/manual.pdf" and h.first_page for h in hits), [(h.path, h.section_path) for h in hits]
    # section 2.5 (pages 8-9) among the top three: since headers keep their section's own heading, "2.4. OPTIONS"
    # (BM25's first: "decompress" throughout) may rank above it
    top = next((h for h in hits if "MEMORY MANAGEMENT" in h.section_path), None)
    assert top is not None, [(h.path, h.section_path) for h in hits]
    assert top.first_page in (8, 9) and top.last_page in (8, 9)
    assert citation_label(top.path, top.section_path, top.first_page, top.last_page).endswith(f", p. {top.first_page}") \
        or top.first_page != top.last_page
    assert all(h.first_page is None for h in search(cfg, "How do I create a virtual environment?", k=3)
               if not h.path.endswith(".pdf"))


def test_ivf_pq_index_and_compaction_above_ivf_min_rows(tmp_path, ray_session, installed_models):
    """With ``index.ivf_min_rows`` below the corpus and small writer batches (many commits), the chunks
    get an IVF_PQ index covering every row, compacted to one fragment, and the dense search uses it."""
    cfg = make_config(tmp_path / "ivf", ingest={"writer_batch_rows": 128}, index={"ivf_min_rows": 256})
    report = run_ingest(cfg, SAMPLES, source="samples")
    store = LanceStore.open(cfg.storage, dim=384)
    assert store.has_vector_index(CHUNKS), report.index_actions
    stats = store.stats(CHUNKS)
    assert stats.unindexed_rows == 0 and stats.fragments == 1 and stats.rows == report.chunks
    hits = search(cfg, "How do I create a virtual environment?", mode="vector")
    assert hits and "venv" in hits[0].path, [h.path for h in hits]


def test_section_hierarchy_is_stored(sample_index):
    cfg, _ = sample_index
    store = LanceStore.open(cfg.storage, dim=384)
    rows = store.scan(SECTIONS, ["section_id", "doc_id", "parent_id", "level", "path", "title", "summary",
                                 "vector", "centroid", "n_chunks"]).to_pylist()
    by_id = {r["section_id"]: r for r in rows}
    roots = [r for r in rows if r["parent_id"] is None]
    assert len(roots) == len({r["doc_id"] for r in rows})  # one root per document
    nested = [r for r in rows if r["level"] >= 2]
    assert nested, "multi-level headings expected in the sample corpus"
    for row in nested:
        parent = by_id[row["parent_id"]]
        assert parent["doc_id"] == row["doc_id"]
        assert row["path"][:-1] == parent["path"]
    assert all(r["summary"] and len(r["vector"]) == 384 and len(r["centroid"]) == 384 for r in rows)
    one_chunk = [r for r in rows if r["n_chunks"] == 1]
    assert one_chunk and all(abs(sum(a * b for a, b in zip(r["vector"], r["centroid"])) - 1) < 1e-3 for r in one_chunk)
    errors = [r for r in rows if "Handling Exceptions" in r["title"]]
    assert errors and errors[0]["path"][-1] == "Handling Exceptions"


def test_search_modes_find_the_right_passage(sample_index):
    cfg, _ = sample_index
    from serving.protocol import SearchRequest
    from serving.services.local import SearchPipeline

    pipe = SearchPipeline(cfg)
    for mode in ("bm25", "vector", "hybrid"):
        hits = pipe.search(SearchRequest(query="How do I handle exceptions with try and except?", top_k=5, mode=mode)).hits
        assert hits, mode
        assert any(h.path.endswith("errors.rst.txt") for h in hits[:3]), (mode, [h.path for h in hits])
    hits = pipe.search(SearchRequest(query="epoll edge-triggered", top_k=3, mode="bm25")).hits
    assert hits[0].path.startswith("man7/epoll")


def test_reingest_unchanged_corpus_writes_nothing(sample_index):
    cfg, first = sample_index
    before = snapshot(cfg)
    report = run_ingest(cfg, SAMPLES, source="samples")
    assert (report.new, report.updated, report.chunks) == (0, 0, 0)
    assert report.unchanged == first.new
    after = snapshot(cfg)
    assert after["versions"] == before["versions"], "an unchanged corpus must not create new table versions"


def test_changed_and_deleted_documents(tmp_path, corpus_copy, ray_session, installed_models):
    cfg = make_config(tmp_path / "idx")
    run_ingest(cfg, corpus_copy, source="c")
    target = corpus_copy / "python-tutorial" / "errors.rst.txt"
    text = target.read_text()
    target.write_text(text.replace("Handling Exceptions", "Catching Zorblax Exceptions", 1))
    (corpus_copy / "man7" / "glob.7.gz").unlink()
    report = run_ingest(cfg, corpus_copy, source="c", prune=True)
    assert (report.new, report.updated, report.deleted) == (0, 1, 1)
    snap = snapshot(cfg)
    assert_consistent(snap)
    assert not any(p.startswith("man7/glob") for *_, p in snap["documents"].values())
    hits = search(cfg, "zorblax", k=3, mode="bm25")
    assert hits and hits[0].path == "python-tutorial/errors.rst.txt"
    assert all(not h.path.startswith("man7/glob") for h in search(cfg, "glob pathname", k=20, mode="bm25"))

def test_cli_delete_by_path(tmp_path, corpus_copy, ray_session, installed_models):
    from click.testing import CliRunner

    from cli.main import main

    cfg = make_config(tmp_path / "idx")
    run_ingest(cfg, corpus_copy / "man7", source="m")
    runner = CliRunner()
    result = runner.invoke(main, ["--data-dir", str(cfg.storage.data_dir), "delete", "--path", "epoll.7.gz"])
    assert result.exit_code == 0, result.output
    assert "deleted 1 document" in result.output
    snap = snapshot(cfg)
    assert_consistent(snap)
    assert len(snap["documents"]) == 3
    result = runner.invoke(main, ["--data-dir", str(cfg.storage.data_dir), "delete", "--path", "nope"])
    assert result.exit_code != 0 and "no matching documents" in result.output


def test_cli_stats_and_search(sample_index):
    import json

    from click.testing import CliRunner

    from cli.main import main

    cfg, report = sample_index
    runner = CliRunner()
    base = ["--data-dir", str(cfg.storage.data_dir)]
    result = runner.invoke(main, [*base, "stats"])
    assert result.exit_code == 0, result.output
    stats = json.loads(result.output)
    assert stats["chunks"]["rows"] == report.chunks and stats["bm25_docs"] == report.chunks
    assert stats["embedder"].startswith("all-minilm-l6-v2/384/")
    result = runner.invoke(main, [*base, "search", "How do I create a virtual environment with venv?", "--mode", "vector", "-k", "2",
                                  "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["hits"][0]["path"] == "python-tutorial/venv.rst.txt"
    result = runner.invoke(main, [*base, "search", "   "])
    assert result.exit_code != 0 and "query is blank" in result.output
    result = runner.invoke(main, ["--data-dir", str(cfg.storage.data_dir) + "-missing", "search", "x"])
    assert result.exit_code != 0 and "run `strata ingest` first" in result.output


@pytest.mark.timeout(900)
def test_cli_demo_runs_the_main_job(tmp_path, ray_session, installed_models):
    from click.testing import CliRunner

    from cli.main import main

    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "notes.md").write_text("# Errors\n\nUse try and except to handle exceptions raised by a function.\n")
    (corpus / "manual.pdf").write_bytes((SAMPLES / "bzip2" / "manual.pdf").read_bytes())
    result = CliRunner().invoke(main, ["--data-dir", str(tmp_path / "idx"), "demo", "--corpus", str(corpus),
                                       "--pdf-question", "How much memory does bzip2 need to decompress a file?"])
    assert result.exit_code == 0, result.output
    assert "installed all-minilm-l6-v2" in result.output and "2 new" in result.output
    assert "1. [" in result.output and "notes.md" in result.output
    # the answer step (the default writer: extractive, the real cross-encoder) quotes notes.md with its citation
    answer, pdf_part = result.output.split("== answer", 1)[1].split("== a PDF:", 1)
    assert "refused:" not in answer and "verification: pass" in answer, answer
    assert "Use try and except to handle exceptions raised by a function [1]." in answer and "[1] notes.md" in answer
    # the PDF question: hits and citations name the manual's page (section 2.5 is on pages 8-9)
    assert re.search(r"[123]\. \[[\d.]+\] manual\.pdf § [^\n]*MEMORY MANAGEMENT, p\. [89]\b", pdf_part), pdf_part
    assert re.search(r"\[\d\] manual\.pdf § [^\n]*, pp?\. [89]", pdf_part), pdf_part
