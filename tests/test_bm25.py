"""BM25 search is deterministic when scores tie, however the index was segmented."""

from __future__ import annotations

from pathlib import Path

from cluster.store.bm25 import Bm25Index


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
