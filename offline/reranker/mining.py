"""Candidate lists from Strata's own hybrid retriever: hard negatives for training, and the lists a
reranker reorders during validation and evaluation.

Every query runs through the in-process :class:`~serving.services.local.SearchPipeline` (the code the
Serve app runs) with the evaluation request of ``bench/retrieval_quality.py`` (hybrid, linear
fusion, no multi-query/HyDE); each hit keeps its chunk id, BEIR corpus id, fused score and the
cross-encoder input (:func:`serving.rerank.text.passage_text`). Lists are saved as JSON lines so
a training run can reuse them.

>>> c = Candidate(chunk_id="c1", doc_id="d1", score=0.8, text="T\\nbody")
>>> qc = QueryCandidates(qid="q", query="claim", judgments={"d1": 1}, candidates=[c])
>>> qc.positives()[0].chunk_id, qc.negatives(10)
('c1', [])
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["MINING_REQUEST", "Candidate", "QueryCandidates", "load_candidates", "mine_candidates", "save_candidates"]

# The request of bench/retrieval_quality.py's "hybrid-linear" configuration (the baseline).
MINING_REQUEST: dict[str, Any] = {"mode": "hybrid", "fusion": "linear", "candidates": 200, "multi_query": False,
                                  "hyde": False, "use_cache": False, "rerank": False}


@dataclass
class Candidate:
    """One retrieved chunk: ids, fused retrieval score and the cross-encoder's input text."""

    chunk_id: str
    doc_id: str
    score: float
    text: str


@dataclass
class QueryCandidates:
    """A query, its judgments (corpus id → relevance) and its retrieved chunks, best first."""

    qid: str
    query: str
    judgments: dict[str, int]
    candidates: list[Candidate] = field(default_factory=list)

    def positives(self) -> list[Candidate]:
        """The best-ranked chunk of each judged-relevant document that retrieval found."""
        seen: set[str] = set()
        out = []
        for c in self.candidates:
            if self.judgments.get(c.doc_id, 0) > 0 and c.doc_id not in seen:
                seen.add(c.doc_id)
                out.append(c)
        return out

    def negatives(self, depth: int) -> list[Candidate]:
        """Chunks within the first ``depth`` that belong to no judged-relevant document."""
        return [c for c in self.candidates[:depth] if self.judgments.get(c.doc_id, 0) <= 0]


def mine_candidates(pipe, queries: Mapping[str, str], qrels: Mapping[str, Mapping[str, int]],
                    path_to_doc: Mapping[str, str], *, depth: int = 100, request: Mapping[str, Any] | None = None,
                    progress: Callable[[str], None] | None = None) -> list[QueryCandidates]:
    """Run every query through ``pipe`` (a ``SearchPipeline``) and keep its first ``depth`` chunks.

    ``path_to_doc`` maps a hit's ``path`` (relative to the ingested corpus root) to its BEIR id;
    hits of other documents are dropped."""
    from serving.protocol import SearchRequest
    from serving.rerank.text import passage_text

    out: list[QueryCandidates] = []
    started = time.perf_counter()
    for n, (qid, text) in enumerate(queries.items(), start=1):
        response = pipe.search(SearchRequest(query=text, top_k=depth, **{**MINING_REQUEST, **(request or {})}))
        cands = []
        for hit in response.hits:
            doc = path_to_doc.get(hit.path)
            if doc is None:
                continue
            cands.append(Candidate(hit.chunk_id, doc, float(hit.score),
                                   passage_text({"title": hit.title, "section_path": hit.section_path, "text": hit.text})))
        out.append(QueryCandidates(qid, text, {d: int(r) for d, r in qrels.get(qid, {}).items()}, cands))
        if progress is not None and (n % 100 == 0 or n == len(queries)):
            progress(f"mined {n}/{len(queries)} queries ({time.perf_counter() - started:.0f}s)")
    return out


def save_candidates(lists: Iterable[QueryCandidates], path: Path, meta: Mapping[str, Any]) -> None:
    """One JSON line of ``meta`` (what produced the lists), then one line per query."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(json.dumps({"meta": dict(meta)}) + "\n")
        for qc in lists:
            fh.write(json.dumps(asdict(qc)) + "\n")
    tmp.replace(path)


def load_candidates(path: Path) -> tuple[dict[str, Any], list[QueryCandidates]]:
    """``(meta, lists)`` written by :func:`save_candidates`."""
    with open(path, encoding="utf-8") as fh:
        meta = json.loads(fh.readline())["meta"]
        lists = []
        for line in fh:
            row = json.loads(line)
            row["candidates"] = [Candidate(**c) for c in row["candidates"]]
            lists.append(QueryCandidates(**row))
    return meta, lists
