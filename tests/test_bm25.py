"""BM25 search is deterministic when scores tie, however the index was segmented; a sharded index
holds and finds what one directory does."""

from __future__ import annotations

from pathlib import Path

import pytest

from cluster.store.bm25 import Bm25Index, ShardCountError, ShardedBm25, open_bm25, shard_of


def _row(chunk_id: str, text: str) -> dict:
    return {"chunk_id": chunk_id, "doc_id": f"doc-{chunk_id}", "title": "", "section_path": "",
            "section_facet": "/d/s", "text": text}


def _index(path: Path, order: list[str], commits: int) -> Bm25Index:
    """The same documents added in ``order`` over ``commits`` commits (one segment each)."""
    index = Bm25Index(path, create=True)
    index.open_writer(threads=2)
    step = max(1, len(order) // commits)
    for start in range(0, len(order), step):
        index.add_chunks([_row(c, "the flag sets the cache size" if c.startswith("tie") else f"unrelated words {c}")
                          for c in order[start:start + step]])
        index.commit()
    index.close_writer()
    return index


def test_equal_scores_come_back_in_chunk_id_order_whatever_the_segments(tmp_path: Path) -> None:
    ties = [f"tie-{i:02d}" for i in range(12)]
    others = [f"other-{i:02d}" for i in range(30)]
    forward = _index(tmp_path / "a", ties + others, commits=1)
    backward = _index(tmp_path / "b", list(reversed(others + ties)), commits=6)
    for k in (1, 5, 12, 20):
        hits_a = forward.search("cache size flag", k=k)
        hits_b = backward.search("cache size flag", k=k)
        assert [h.chunk_id for h in hits_a] == [h.chunk_id for h in hits_b] == ties[:k]
        assert len({h.score for h in hits_a}) == 1
    assert forward.search("cache size flag", k=0) == []


def _docs(n_docs: int = 24) -> list[dict]:
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]
    return [{"chunk_id": f"d{d:02d}-c{c}", "doc_id": f"d{d:02d}", "title": f"Doc {d}", "section_path": "",
             "section_facet": f"/d{d:02d}/s{c % 2}",
             "text": f"{words[d % 6]} {words[(d + c) % 6]} marker{d} common text chunk {c}"}
            for d in range(n_docs) for c in range(3)]


def test_a_sharded_index_holds_and_finds_what_one_directory_does(tmp_path: Path) -> None:
    single, sharded = open_bm25(tmp_path / "one", create=True), open_bm25(tmp_path / "four", create=True, shards=4)
    assert isinstance(sharded, ShardedBm25) and sharded.shards == 4
    rows = _docs()
    for index in (single, sharded):
        index.open_writer(threads=1)
        index.add_chunks(rows)
        index.commit()
        index.close_writer()
    assert single.num_docs() == sharded.num_docs() == len(rows)
    per_shard = [part.num_docs() for part in sharded.parts]
    assert sum(per_shard) == len(rows) and sum(n > 0 for n in per_shard) >= 3  # spread by document hash
    for part_index, part in enumerate(sharded.parts):  # every document's chunks in its own shard only
        for row in rows:
            found = part.search(f"marker{row['doc_id'][1:].lstrip('0') or '0'}", k=10, doc_ids=[row["doc_id"]])
            assert bool(found) == (shard_of(row["doc_id"], 4) == part_index)
    # A term only one document has: the same hits from both (the scores are each shard's own).
    for d in (0, 7, 19):
        assert [h.chunk_id for h in sharded.search(f"marker{d}", k=5)] == \
               [h.chunk_id for h in single.search(f"marker{d}", k=5)] == [f"d{d:02d}-c{c}" for c in range(3)]
    # Common terms: every chunk comes back once, ordered by score then chunk_id.
    hits = sharded.search("common text", k=100)
    assert sorted(h.chunk_id for h in hits) == sorted(r["chunk_id"] for r in rows)
    assert hits == sorted(hits, key=lambda h: (-h.score, h.chunk_id))
    # Filters go to the shards that hold the documents.
    assert {h.doc_id for h in sharded.search("common", k=50, doc_ids=["d03", "d11"])} == {"d03", "d11"}
    assert {h.chunk_id for h in sharded.search("common", k=50, section_facet="/d05/s1")} == {"d05-c1"}
    # Deletes are routed too.
    sharded.open_writer(threads=1)
    sharded.delete_documents(["d03", "d04"])
    sharded.commit()
    sharded.close_writer()
    assert sharded.num_docs() == len(rows) - 6 and not sharded.search("marker3", k=5)


def test_a_sharded_index_keeps_its_shard_count(tmp_path: Path) -> None:
    open_bm25(tmp_path / "idx", create=True, shards=3)
    assert open_bm25(tmp_path / "idx", create=True).shards == 3  # 0: as the index has
    with pytest.raises(ShardCountError, match="has 3 shards; ingest.bm25_shards = 2 needs a new index"):
        open_bm25(tmp_path / "idx", create=True, shards=2)
    with pytest.raises(FileNotFoundError, match="run `strata ingest` first"):
        open_bm25(tmp_path / "missing")
    with pytest.raises(ValueError, match="pass shards"):
        open_bm25(tmp_path / "idx").add_json(['{"chunk_id": "x"}'])


def _old_schema_index(path: Path) -> None:
    """An index as ingests before 2026-11 built it: positions, and title/section_path fields."""
    import tantivy

    from cluster.store.bm25 import schema_before_2026_11

    path.mkdir(parents=True)
    writer = tantivy.Index(schema_before_2026_11(), path=str(path)).writer(heap_size=20_000_000, num_threads=1)
    writer.add_json('{"chunk_id": "old-c0", "doc_id": "old", "text": "Old guide\\nepoll waits for events", '
                    '"title": "Old guide", "section_path": "", "section": "/old/s0"}')
    writer.commit()
    writer.wait_merging_threads()


def test_an_index_built_with_the_earlier_schema_keeps_working(tmp_path: Path) -> None:
    _old_schema_index(tmp_path / "old")
    index = open_bm25(tmp_path / "old")  # opened with its own schema, not refused for differing
    assert [h.chunk_id for h in index.search("epoll events", k=5)] == ["old-c0"]
    index.open_writer(threads=1)
    index.add_chunks(_docs(2))
    index.delete_documents(["d00"])
    index.commit()
    index.close_writer()
    assert index.num_docs() == 4
    assert {h.doc_id for h in index.search("marker1 epoll", k=10)} == {"old", "d01"}
    assert {h.chunk_id for h in index.search("common", k=10, section_facet="/d01/s1")} == {"d01-c1"}
    assert index.search("epoll_wait", k=5)[0].chunk_id == "old-c0"


def test_no_query_text_makes_the_parser_fail_on_an_index_without_positions(tmp_path: Path) -> None:
    """Queries are bags of words: whatever the text (identifiers, combining marks, scripts without
    spaces, punctuation), no word reaches tantivy as a phrase, which a ``freq`` field refuses."""
    import random

    index = Bm25Index(tmp_path / "idx", create=True)
    index.open_writer(threads=1)
    index.add_chunks(_docs(3) + [_row("id-c0", "call epoll_wait(2) with naïve été l'homme 日本語 x\u093ey a½b")])
    index.commit()
    index.close_writer()
    assert [h.chunk_id for h in index.search("epoll_wait", k=1)] == ["id-c0"]
    tricky = ["foo_bar", "e\u0301te\u0301", "l'homme", "x\u093ey", "a½b", "C++/CLI", "O'Reilly's", "ﬁle", "Ⅻ ⅻ",
              "①②", "x²", "٣٤", "\u200bzero\u200cwidth", "ǅemal", "İstanbul", "straße", "ᾅ", "🙂emoji🙂", "\x00nul"]
    rng = random.Random(12)
    pools = [range(0x20, 0x250), range(0x300, 0x370), range(0x900, 0x980), range(0x3040, 0x30ff),
             range(0x4e00, 0x4e80), range(0x2150, 0x2190), range(0x1f600, 0x1f650), range(0xff00, 0xff60)]
    for _ in range(400):
        tricky.append("".join(chr(rng.choice(rng.choice(pools))) for _ in range(rng.randint(1, 24))))
    for text in tricky:
        index.search(text, k=3)  # raises ValueError if a word became a phrase


def test_a_reader_opened_before_a_commit_finds_what_it_added(tmp_path: Path) -> None:
    """Readers do not reload on every commit behind a search's back (an ingest's driver holds every
    shard): a search reloads, so it sees the latest commit all the same."""
    reader = Bm25Index(tmp_path, create=True)
    assert reader.search("helium", k=5) == []
    writer = Bm25Index(tmp_path)
    writer.open_writer(threads=1)
    writer.add_chunks([_row("c1", "helium lines")])
    writer.commit()
    writer.close_writer()
    assert [hit.chunk_id for hit in reader.search("helium", k=5)] == ["c1"]
    assert reader.num_docs() == 1
