"""The section tier of awareness retrieval: sections found by their own embeddings.

A section is matched by its summary embedding (``vector``) and by the centroid of its chunks
(``centroid``), so a section about the query is found even when none of its chunks made the
chunk top-k. Explicit references ("section 89", "chapter 2.1") are resolved by heading number
(or, failing that, position) inside the documents in play.

>>> # SectionTier(view, cfg).search(plan, vectors, ResolvedFilters(), candidates)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from cluster.config import StrataConfig
from cluster.store.schema import SECTIONS
from serving.index.view import IndexView
from serving.retrieval.filters import ResolvedFilters
from serving.retrieval.notices import is_notice

SECTION_HIT_COLUMNS = ["section_id", "doc_id", "title", "path_str", "level", "ordinal"]


@dataclass
class SectionHit:
    section_id: str
    doc_id: str
    title: str
    path: str
    score: float
    target: str | None
    kind: str = "similar"  # similar | reference


class SectionTier:
    def __init__(self, view: IndexView, cfg: StrataConfig) -> None:
        self.view = view
        self.cfg = cfg

    def _search_column(self, column: str, vector: np.ndarray, k: int, where: str | None) -> list[dict]:
        query = (self.view.store.table(SECTIONS).search(vector.astype(np.float32), vector_column_name=column)
                 .distance_type("cosine"))
        if where:
            query = query.where(where, prefilter=True)
        rows = query.select([*SECTION_HIT_COLUMNS, "_distance"]).limit(k).to_arrow().to_pylist()
        return [r for r in rows if r["_distance"] is not None and not math.isnan(r["_distance"])]

    def similar(self, vector: np.ndarray, *, k: int, filters: ResolvedFilters, target: str | None) -> list[SectionHit]:
        """Sections whose summary or chunk centroid is close to ``vector`` (best first)."""
        best: dict[str, SectionHit] = {}
        where = filters.sections_where()
        allowed = self._subtree(filters.section_id) if filters.section_id else None
        for column in ("vector", "centroid"):
            for row in self._search_column(column, vector, k * 2 if allowed else k, where):
                if allowed is not None and row["section_id"] not in allowed:
                    continue
                score = 1.0 - float(row["_distance"])
                if score < self.cfg.awareness.section_min_similarity or is_notice(row["title"], target or ""):
                    continue
                hit = best.get(row["section_id"])
                if hit is None or score > hit.score:
                    best[row["section_id"]] = SectionHit(row["section_id"], row["doc_id"], row["title"],
                                                         row["path_str"], score, target)
        return sorted(best.values(), key=lambda h: -h.score)[:k]

    def _subtree(self, section_id: str) -> set[str]:
        allowed, frontier = {section_id}, [section_id]
        while frontier:
            children = [c["section_id"] for c in self.view.children_of(frontier)]
            frontier = [c for c in children if c not in allowed]
            allowed.update(frontier)
        return allowed

    def references(self, refs, doc_ids: list[str]) -> list[SectionHit]:
        """Resolve "section N" references within ``doc_ids`` (heading number first, then position)."""
        hits: list[SectionHit] = []
        if not refs or not doc_ids:
            return hits
        sections = self.view.sections_of_documents(doc_ids)
        for ref in refs:
            number = re.escape(ref.number)
            pattern = re.compile(rf"^\s*(?:{re.escape(ref.label.split()[0])}\s+)?{number}(?:[.):\s]|$)", re.IGNORECASE)
            for doc_id in doc_ids:
                in_doc = [s for s in sections if s["doc_id"] == doc_id and s["parent_id"]]
                match = None
                if not ref.number.startswith("-"):
                    match = next((s for s in in_doc if pattern.match(s["title"] or "")), None)
                if match is None and ref.number.lstrip("-").isdigit() and in_doc:
                    top = min(s["level"] for s in in_doc)
                    ordered = [s for s in in_doc if s["level"] == top]
                    n = int(ref.number)
                    n = len(ordered) + 1 + n if n < 0 else n  # -1: the last one
                    match = ordered[n - 1] if 1 <= n <= len(ordered) else None
                if match is not None:
                    hits.append(SectionHit(match["section_id"], doc_id, match["title"], match["path_str"], 1.0,
                                           ref.label, kind="reference"))
                    break
        return hits

    def _named_first(self, query: str, doc_ids: list[str]) -> list[str]:
        """Candidate documents, those whose title or file name the query mentions first."""
        words = {w.lower() for w in re.findall(r"\w{3,}", query)}

        def named(doc_id: str) -> bool:
            doc = self.view.document(doc_id) or {}
            name = f"{doc.get('title') or ''} {(doc.get('path') or '').rsplit('/', 1)[-1]}"
            return bool(words & {w.lower() for w in re.findall(r"[A-Za-z]{3,}", name)})

        return sorted(doc_ids, key=lambda d: not named(d))

    def search(self, plan, vectors: dict[str, np.ndarray], filters: ResolvedFilters, candidates) -> list[SectionHit]:
        """Section-tier matches for every target of ``plan`` and, for a decomposed question, for the question as a
        whole ("Who first drafted the manual, and in which year?" matches its "Early history" section only whole),
        the searches taking turns (each one's best section before any one's second: the scores of different query
        vectors do not compare); resolved section references come first."""
        k = self.cfg.awareness.section_top_k
        found: dict[str, SectionHit] = {}
        place: dict[str, int] = {}  # section → its best rank in any one search (the searches take turns)
        if k and vectors:
            for text, target in plan.section_searches():
                vector = vectors.get(text)
                if vector is None:
                    continue
                for rank, hit in enumerate(self.similar(vector, k=k, filters=filters, target=target)):
                    place[hit.section_id] = min(place.get(hit.section_id, rank), rank)
                    if hit.section_id not in found or hit.score > found[hit.section_id].score:
                        found[hit.section_id] = hit
        if plan.section_refs:
            docs = filters.doc_ids if filters.doc_ids else self._named_first(
                plan.query, list(dict.fromkeys(c.doc_id for c in candidates))[:5])
            for hit in self.references(plan.section_refs, list(docs)):
                found[hit.section_id] = hit
        return sorted(found.values(), key=lambda h: (h.kind != "reference", place.get(h.section_id, 0), -h.score))
