"""BEIR loading, corpus files that Strata's parser reads back, and the pinned held-out split."""

from __future__ import annotations

import doctest
import gzip
import json

import pytest

import offline.eval.beir as beir
from offline.eval.beir import (
    CorpusDoc,
    load_beir,
    load_qrels,
    read_id_list,
    safe_file_stem,
    split_queries,
    write_corpus_files,
)
from support import REPO, SHARED_DATA

SCIFACT = SHARED_DATA / "scifact"
HELDOUT = REPO / "bench" / "data" / "scifact-heldout.txt"


def test_docstring_examples():
    result = doctest.testmod(beir)
    assert result.attempted > 0 and result.failed == 0


def _write_dataset(root, *, gz: bool):
    rows = [{"_id": "d1", "title": "Alpha", "text": "First."}, {"_id": "d/2", "title": "", "text": "Second."},
            {"_id": "d3", "text": "No title key."}]
    data = "".join(json.dumps(r) + "\n" for r in rows) + "\n"
    if gz:
        with gzip.open(root / "corpus.jsonl.gz", "wt", encoding="utf-8") as fh:
            fh.write(data)
    else:
        (root / "corpus.jsonl").write_text(data)
    (root / "queries.jsonl").write_text('{"_id": "q1", "text": "alpha?"}\n{"_id": "q2", "text": "second"}\n')
    (root / "qrels").mkdir()
    (root / "qrels" / "dev.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t2\nq1\td3\t0\nq2\td/2\t1\n\n")


@pytest.mark.parametrize("gz", [False, True])
def test_load_beir(tmp_path, gz):
    _write_dataset(tmp_path, gz=gz)
    ds = load_beir(tmp_path)
    assert ds.split == "dev"
    assert ds.corpus["d1"] == CorpusDoc("d1", "Alpha", "First.")
    assert ds.corpus["d3"].title == ""
    assert ds.queries == {"q1": "alpha?", "q2": "second"}
    assert ds.qrels == {"q1": {"d1": 2, "d3": 0}, "q2": {"d/2": 1}}


@pytest.mark.parametrize("text", ["query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t0\n",
                                  "q1\td1\t1\nq1\td2\t0\n",               # no header (published sets do both)
                                  "qid\tdocid\trel\nq1\td1\t1\nq1\td2\t0\n",  # another header
                                  "q1\t0\td1\t1\nq1\t0\td2\t0\n"])        # TREC's four columns
def test_load_qrels_with_or_without_a_header(tmp_path, text):
    (tmp_path / "x.tsv").write_text(text)
    assert load_qrels(tmp_path / "x.tsv") == {"q1": {"d1": 1, "d2": 0}}


@pytest.mark.parametrize("text, reason", [("q1\td1\t1\nq2\td2\thigh\n", "x.tsv:2: the score 'high'"),
                                          ("q1 d1 1\n", "x.tsv:1: expected 3 tab-separated columns")])
def test_load_qrels_names_the_bad_line(tmp_path, text, reason):
    (tmp_path / "x.tsv").write_text(text)
    with pytest.raises(ValueError, match=reason):
        load_qrels(tmp_path / "x.tsv")


def test_missing_files_are_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="corpus.jsonl"):
        beir.load_corpus(tmp_path)


def test_safe_file_stem_never_collides_or_escapes():
    ids = ["1", "a/b", "a_b", "../x", ".hidden", "a b", "ä", "x" * 300]
    stems = [safe_file_stem(i) for i in ids]
    assert len(set(stems)) == len(ids)
    assert all("/" not in s and not s.startswith(".") and len(s) < 130 for s in stems)
    assert safe_file_stem("a_b") == "a_b"


def test_written_files_parse_to_titled_documents(tmp_path):
    """The Markdown Strata ingests: title → document title and heading; text → body."""
    from pipelines.parse import parse_bytes

    corpus = {"d1": CorpusDoc("d1", "Alpha *beta*\nsplit", "Body text.\n\nSecond paragraph."),
              "d/2": CorpusDoc("d/2", "", "Untitled body.")}
    mapping = write_corpus_files(corpus, tmp_path)
    assert sorted(mapping.values()) == ["d/2", "d1"]
    rel = {v: k for k, v in mapping.items()}
    assert rel["d1"] == "d1.md" and (tmp_path / rel["d/2"]).is_file()
    doc = parse_bytes((tmp_path / "d1.md").read_bytes(), path=str(tmp_path / "d1.md"), doc_id="x", max_bytes=10_000)
    assert doc.format == "markdown"
    assert doc.title == "Alpha beta split"
    assert "Body text." in doc.text and "Second paragraph." in doc.text
    untitled = parse_bytes((tmp_path / rel["d/2"]).read_bytes(), path="u.md", doc_id="y", max_bytes=10_000)
    assert "Untitled body." in untitled.text


def test_rewriting_unchanged_files_keeps_mtime(tmp_path):
    corpus = {"d1": CorpusDoc("d1", "T", "x")}
    write_corpus_files(corpus, tmp_path)
    before = (tmp_path / "d1.md").stat().st_mtime_ns
    write_corpus_files(corpus, tmp_path)
    assert (tmp_path / "d1.md").stat().st_mtime_ns == before
    write_corpus_files({"d1": CorpusDoc("d1", "T", "changed")}, tmp_path)
    assert (tmp_path / "d1.md").read_text() == "# T\n\nchanged\n"
    assert not list(tmp_path.glob(".*"))


def test_paths_match_what_discovery_reports(tmp_path):
    """Hits carry ``path`` = the relative path discovery reports; the mapping keys must equal it."""
    from pipelines.sources.files import SourceFile, discover

    mapping = write_corpus_files({"a/1": CorpusDoc("a/1", "T", "x"), "2": CorpusDoc("2", "U", "y")}, tmp_path)
    found = {f.relpath for f in discover(tmp_path, include=["*.md"], exclude=[".*"], max_bytes=1000)
             if isinstance(f, SourceFile)}
    assert found == set(mapping)


def test_split_is_deterministic_and_disjoint():
    ids = [str(i) for i in range(2000)]
    train, held = split_queries(ids, 0.2)
    assert sorted(train + held) == sorted(ids) and not set(train) & set(held)
    assert 0.17 < len(held) / len(ids) < 0.23
    # independent of order, duplicates and the other ids present
    assert split_queries(list(reversed(ids)) + ids[:10], 0.2) == (train, held)
    sub_train, sub_held = split_queries(ids[:500], 0.2)
    assert set(sub_held) == set(held) & set(ids[:500])
    # a larger fraction only adds queries to the held-out side
    assert set(held) <= set(split_queries(ids, 0.3)[1])
    assert split_queries(ids, 0.2, seed="other")[1] != held
    with pytest.raises(ValueError):
        split_queries(ids, 1.5)


@pytest.mark.skipif(not (SCIFACT / "qrels" / "train.tsv").is_file(), reason="../shared/data/scifact is absent")
def test_scifact_and_the_pinned_heldout_split():
    ds = load_beir(SCIFACT, split="train")
    assert len(ds.corpus) == 5183 and len(ds.queries) == 809
    assert sum(len(v) for v in ds.qrels.values()) == 919
    assert all(d in ds.corpus for judged in ds.qrels.values() for d in judged)
    _, held = split_queries(ds.qrels, 0.2, seed="strata-heldout-v1")
    assert read_id_list(HELDOUT) == held, "the pinned held-out file must match split_queries (never edit it)"
    assert len(held) == 176
