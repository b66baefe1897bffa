"""Hierarchical awareness expansion: hits → neighbours, sections, parents, siblings and
section-tier matches, within a token budget.

Budget policy (docs/concepts/sections-awareness.md): each target's best ``min_hits_per_target`` hits are
seated first (the budget permitting; the search service seats all ``top_k`` for a question asking an amount of a
financial measure, ``awareness.amount_hits_first``), then further direct hits in rank order up to ``1 -
expansion_share`` of the budget (the expansion's share is at most ``expansion_max_tokens``: a large
budget's rest goes to whole hits). Then the kinds of unit take turns, one each (none is a table of contents
or a pointer to another document): the section tier's best chunks (sections relevant to the query whose
chunks missed the pack; the chunk the retriever ranked best in the section, else the one most similar to the
target), the neighbourhoods of the top hits (``window``: ±n chunks; ``heading``: ±n within the hit's section;
``section``: the whole section if it fits half the budget), and the **outline**: the lead (``summary_tokens``) of
the top hits' parent sections and of their sibling sections that have nothing in the pack yet, the
siblings closest to the target first, and in a pack of at least ``excerpt_min_budget`` tokens the **excerpts**: the
best sentence window (``excerpt_tokens``) of each of the first retrieved chunks the pack does not hold whole.
Leftover room goes back to further direct hits, and then (``fill_with_hits``) to the hits ranked below ``top_k``,
whole, in rank order: a large budget is not left half empty. Every piece records why it is there.

>>> # AwarenessExpander(view).expand(query, candidates, sections, vectors, ExpansionSettings(...))
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from cluster.config import StrataConfig
from pipelines.chunk.rows import HEAD_LOOKBACK, head_above, is_row, starts_in_table
from pipelines.chunk.sentences import split_sentences
from serving.expansion.packing import PackedPassage, Piece, pack
from serving.index.view import IndexView
from serving.retrieval.contentless import is_contents, is_navigation
from serving.retrieval.hybrid import Candidate
from serving.retrieval.notices import is_notice
from serving.rerank.text import best_window
from serving.retrieval.sections import SectionHit


@dataclass
class ExpansionSettings:
    budget_tokens: int
    top_k: int
    mode: str = "heading"
    window: int = 1
    awareness: bool = True
    expand_hits: int = 5
    parents: bool = False
    siblings: bool = True
    max_siblings: int = 3
    summary_tokens: int = 32
    expansion_share: float = 0.4
    min_hits_per_target: int = 3
    excerpt_tokens: int = 0
    excerpt_min_budget: int = 0
    sibling_hits: bool = False
    neighbours: str = "turns"
    expansion_max_tokens: int = 800
    fill_with_hits: bool = True
    #: per target, the words that pick a long chunk's excerpt window: the target with its rephrasings (the
    #: statement's words: "capex" searched as "capital expenditures"), as the search service gives them
    window_queries: dict[str, str] = field(default_factory=dict)

    def window_query(self, target: str | None, fallback: str = "") -> str:
        """The text whose terms choose the excerpt window of a chunk found for ``target`` (the target itself when
        the service gave none; ``fallback`` for a hit without a target).

        >>> s = ExpansionSettings(1000, 8, window_queries={"capex in 2023?": "capex in 2023? capital expenditures"})
        >>> s.window_query("capex in 2023?"), s.window_query("other"), s.window_query(None, "fallback")
        ('capex in 2023? capital expenditures', 'other', 'fallback')
        """
        return self.window_queries.get(target or "", target or fallback)

    @classmethod
    def from_config(cls, cfg: StrataConfig, **overrides) -> "ExpansionSettings":
        a = cfg.awareness
        values = dict(budget_tokens=a.budget_tokens, top_k=8, mode=a.mode, window=a.window, expand_hits=a.expand_hits,
                      parents=a.parents, siblings=a.siblings, max_siblings=a.max_siblings,
                      summary_tokens=a.summary_tokens,
                      min_hits_per_target=a.min_hits_per_target, excerpt_tokens=a.excerpt_tokens,
                      excerpt_min_budget=a.excerpt_min_budget,
                      sibling_hits=a.sibling_hits,
                      neighbours=a.neighbours, expansion_max_tokens=a.expansion_max_tokens,
                      fill_with_hits=a.fill_with_hits)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)


@dataclass
class ExpansionResult:
    passages: list[PackedPassage]
    used_tokens: int
    dropped: int
    counts: dict[str, int] = field(default_factory=dict)


def _summary_tokens(text: str) -> int:
    return max(1, len(text) // 4 + 1)  # summaries are short; ~4 characters per wordpiece


def lead_of(summary: str, max_tokens: int) -> str:
    """The leading sentences of ``summary`` that fit ``max_tokens`` (~4 characters a token); a first
    sentence longer than that is cut at a word and marked with "…".

    >>> lead_of("Sales rose 4%. Costs fell. Margins widened sharply.", 8)
    'Sales rose 4%. Costs fell.'
    >>> lead_of("One very long opening sentence that keeps going on", 5)
    'One very long…'
    """
    room = max_tokens * 4
    text = " ".join(summary.split())
    if len(text) <= room:
        return text
    cut = 0
    for _, end in split_sentences(text):
        if end > room:
            break
        cut = end
    if cut:
        return text[:cut].rstrip()
    head = text[:room].rsplit(" ", 1)[0] if " " in text[:room] else text[:room]
    return head.rstrip(" ,;:") + "…"


#: Excerpts are cut from at most this many retrieved chunks that the pack does not hold (a request retrieves ~100; an
#: 800-token expansion room takes a dozen 64-token excerpts at most, in rank order).
_EXCERPT_DEPTH = 24


class _Budget:
    def __init__(self, total: int) -> None:
        self.total, self.used, self.dropped = total, 0, 0
        self.pieces: dict[str, Piece] = {}  # chunk id or "summary:<section>" → piece
        self.places: dict[tuple[str, int], Piece] = {}  # (document, ordinal) → its whole chunk's piece

    def has(self, key: str) -> bool:
        return key in self.pieces

    def add(self, key: str, piece: Piece, *, limit: int | None = None) -> bool:
        if key in self.pieces:
            existing = self.pieces[key]
            existing.reasons += [r for r in piece.reasons if r not in existing.reasons]
            existing.priority = min(existing.priority, piece.priority)
            return True
        if key.startswith("excerpt:") and key.removeprefix("excerpt:") in self.pieces:
            return True  # the whole chunk is in the pack
        if piece.head and (piece.doc_id, piece.ordinal - 1) in self.places:  # the chunk above is in: no head again
            piece = replace(piece, head="", head_tokens=0, n_tokens=piece.n_tokens - piece.head_tokens)
        whole = piece.ordinal >= 0 and not piece.excerpt
        below = self.places.get((piece.doc_id, piece.ordinal + 1)) if whole else None
        freed = below.head_tokens if below is not None and below.head else 0  # its head is not needed below it
        excerpt = self.pieces.pop(f"excerpt:{key}", None)  # a whole chunk replaces its excerpt
        room = (self.total if limit is None else limit) + (excerpt.n_tokens if excerpt is not None else 0) + freed
        if self.used + piece.n_tokens > room:
            if excerpt is not None:
                self.pieces[f"excerpt:{key}"] = excerpt
            self.dropped += 1
            return False
        if excerpt is not None:
            self.used -= excerpt.n_tokens
            piece.reasons += [r for r in excerpt.reasons if r not in piece.reasons]
        self.pieces[key] = piece
        self.used += piece.n_tokens
        if whole:
            self.places[(piece.doc_id, piece.ordinal)] = piece
        if freed:  # the chunk below no longer needs its table's head repeated
            self.used -= freed
            below.n_tokens -= freed
            below.head, below.head_tokens = "", 0
        return True


def _title_only(section: dict) -> bool:
    """A section whose summary is only its title (no text, no subsections): nothing for the outline to add."""
    return " ".join((section.get("summary") or "").split()).casefold() == " ".join((section.get("title") or "").split()).casefold()


def _contents(section: dict) -> bool:
    """A section that is a table of contents (:func:`serving.retrieval.contentless.is_contents`): it names every
    section of the document and says nothing, so it is never a sibling worth the budget."""
    return is_contents(section.get("summary") or "")


def _says_nothing(row: dict, hit: Candidate | None = None) -> bool:
    """A chunk not worth a unit of the expansion: retrieval demoted it as contentless (only its header, a table of
    contents, a pointer to another document: :func:`serving.retrieval.contentless.demote_contentless`), or, for a
    chunk retrieval did not score, its text is contents or a pointer."""
    if hit is not None and "contentless" in hit.scores:
        return True
    return is_navigation(row.get("text") or "")


def _interleave(*queues: list) -> list:
    """[a1, a2], [b1] → [a1, b1, a2]."""
    out = []
    for i in range(max((len(q) for q in queues), default=0)):
        out += [q[i] for q in queues if i < len(q)]
    return out


def _head_tokens(head: str, tokens_per_char: float) -> int:
    """The tokens a table's head costs in front of a piece, at its chunk's tokens per character."""
    return round(len(head) * tokens_per_char) + 1 if head else 0


def _reason(kind: str, hit: Candidate) -> dict:
    """Why a retrieved chunk is in the pack: ``kind`` ("direct", whole; "excerpt", its best sentences), the hit and
    its target's score."""
    return {"kind": kind, "of": hit.chunk_id, "target": hit.target, "score": hit.score}


def _chunk_piece(row: dict, reason: dict, score: float, priority: int) -> Piece:
    head = row.get("head") or ""  # a chunk that starts inside a table: its table's head (see :meth:`_attach_heads`)
    head_tokens = _head_tokens(head, row["n_tokens"] / max(len(row["text"]), 1))
    return Piece(row["doc_id"], row["section_id"], row["ordinal"], row["start"], row["end"], row["text"],
                 row["n_tokens"] + head_tokens, [row["chunk_id"]], [reason], score, priority,
                 {k: row[k] for k in ("source", "path", "title", "section_path")},
                 row.get("first_page"), row.get("last_page"), head=head, head_tokens=head_tokens)


def excerpt_piece(row: dict, query: str, max_tokens: int, reason: dict, score: float, priority: int) -> Piece | None:
    """The run of whole sentences of a chunk within ``max_tokens`` that shares the most terms with ``query``
    (``serving.rerank.text.best_window``), as a piece with its own offsets; a chunk that fits is the piece
    whole; None for a longer chunk of one sentence.

    >>> row = {"doc_id": "d", "section_id": "s", "ordinal": 3, "start": 100, "end": 160, "n_tokens": 15,
    ...        "chunk_id": "c", "source": "", "path": "a.txt", "title": "", "section_path": "S",
    ...        "text": "Intro words here. The umask is octal. Other things follow later."}
    >>> p = excerpt_piece(row, "octal umask", 6, {"kind": "excerpt"}, 1.0, 0)
    >>> p.text, p.start, p.end, p.excerpt
    ('The umask is octal.', 118, 137, True)

    A window of a table's rows carries the table's head (from above it in the chunk, or the chunk's own ``head``):

    >>> rows = {**row, "n_tokens": 40, "text": "Results\\nYear | 2024 | 2023\\nSales | 5 | 6\\nCost | 3 | 4\\nLoss | (7) | (8)"}
    >>> p = excerpt_piece(rows, "loss", 4, {"kind": "excerpt"}, 1.0, 0)
    >>> p.text, p.head
    ('Loss | (7) | (8)', 'Results\\nYear | 2024 | 2023')
    """
    text = row["text"]
    if row["n_tokens"] <= max_tokens:
        return _chunk_piece(row, reason, score, priority)
    spans = split_sentences(text)
    if len(spans) <= 1:
        return None
    per_char = row["n_tokens"] / max(len(text), 1)
    lengths = [max(1, round((e - s) * per_char)) for s, e in spans]
    heads = [_window_head(row, s, e) for s, e in spans]  # a window starting at a row is quoted under its table's head
    i, j = best_window(query, [text[s:e] for s, e in spans], lengths, max_tokens, heads)
    a, b = spans[i][0], spans[j - 1][1]
    head = heads[i]
    head_tokens = _head_tokens(head, per_char)
    return Piece(row["doc_id"], row["section_id"], row["ordinal"], row["start"] + a, row["start"] + b, text[a:b],
                 sum(lengths[i:j]) + head_tokens, [row["chunk_id"]], [reason], score, priority,
                 {k: row[k] for k in ("source", "path", "title", "section_path")},
                 row.get("first_page"), row.get("last_page"), excerpt=True, head=head, head_tokens=head_tokens)


def _window_head(row: dict, start: int, end: int) -> str:
    """The head of the table a window of ``row``'s text from ``start`` begins inside (a row of its body): from above
    the window in the chunk, or, when only rows are above it, the chunk's own ``head``; '' for a window of prose."""
    text = row["text"]
    if not starts_in_table(text[start:end]):
        return ""
    above = text[:start].strip()
    head = head_above([above]) if above else ""
    if not head and all(is_row(line) for line in above.split("\n") if line.strip()):
        head = row.get("head") or ""
    return head


class AwarenessExpander:
    """Builds context packs from retrieval results over one index."""

    def __init__(self, view: IndexView) -> None:
        self.view = view

    def expand(self, candidates: list[Candidate], sections: list[SectionHit], vectors: dict[str, np.ndarray],
               target_texts: dict[str, str], settings: ExpansionSettings) -> ExpansionResult:
        """``target_texts`` maps each target to the text whose vector picks the best chunk of a section."""
        budget = _Budget(settings.budget_tokens)
        direct = candidates[: settings.top_k]
        rows = self.view.chunks_by_id(c.chunk_id for c in direct)
        self._attach_heads(rows.values())
        direct = [c for c in direct if c.chunk_id in rows]
        counts = {"direct": 0, "section_tier": 0, "neighbour": 0, "parent": 0, "sibling": 0, "excerpt": 0}
        share = int(settings.budget_tokens * settings.expansion_share)  # the expansion units' room
        capped = 0 < settings.expansion_max_tokens < share  # a large budget: the rest of it goes to whole hits
        if capped:
            share = settings.expansion_max_tokens
        first_limit = max(settings.budget_tokens - share, 1)

        seated: dict[str | None, set[str]] = {}  # target → its hits in the pack

        def add_direct(limit: int | None, floor: int = 0) -> None:
            """Hits in rank order; each target's first ``floor`` hits (at least one) may use the whole budget,
            the rest stay within ``limit`` and the pass stops at the first of them that does not fit."""
            full = False
            for rank, c in enumerate(direct):
                if budget.has(c.chunk_id):
                    seated.setdefault(c.target, set()).add(c.chunk_id)
                    continue
                guaranteed = len(seated.get(c.target, ())) < max(floor, 1)
                if full and not guaranteed:
                    continue
                piece = _chunk_piece(rows[c.chunk_id], _reason("direct", c), c.score, rank)
                if budget.add(c.chunk_id, piece, limit=None if guaranteed else limit):
                    counts["direct"] += 1
                    seated.setdefault(c.target, set()).add(c.chunk_id)
                elif limit is not None and not guaranteed:
                    full = True  # keep rank order in the first pass

        add_direct(first_limit)  # every target's best hit first, then rank order within the first share
        add_direct(first_limit, settings.min_hits_per_target)
        if settings.awareness:
            tier = self._section_tier(sections, vectors, target_texts, budget, len(direct), candidates)
            around_hits = self._neighbourhoods(direct, rows, settings, budget)
            outline = self._summaries(direct, rows, vectors, target_texts, settings, budget, candidates)
            excerpts = self._excerpts(candidates, target_texts, settings, budget)
            # the section tier, the hits' neighbourhoods (unless they wait for the leftover room), the outline and
            # the excerpts of the hits below the whole ones share the room, one unit each in turn
            later = around_hits if settings.neighbours == "leftover" else []
            turns = [tier, outline, excerpts] if later else [tier, around_hits, outline, excerpts]
            room = min(budget.total, budget.used + share) if capped else None
            for key, piece in _interleave(*turns):
                if piece.ordinal < 0 and piece.section_id in {p.section_id for p in budget.pieces.values()}:
                    continue  # a summary of a section the pack already quotes
                if budget.add(key, piece, limit=room):
                    counts[piece.reasons[0]["kind"] if piece.reasons[0]["kind"] != "section" else "neighbour"] += 1
            seeds = [(key, piece) for key, piece in tier if budget.has(key)]
            if later:
                add_direct(None)
            for key, piece in later + self._seed_neighbourhoods(seeds, settings, budget):
                if budget.add(key, piece):
                    counts["neighbour"] += 1
        else:
            for key, piece in self._neighbourhoods(direct, rows, settings, budget):
                if budget.add(key, piece):
                    counts["neighbour"] += 1
        add_direct(None)
        if settings.awareness and settings.fill_with_hits:
            counts["beyond_top_k"] = self._fill(candidates[settings.top_k:], budget, settings.top_k)
        passages = pack(list(budget.pieces.values()))
        return ExpansionResult(passages, sum(p.n_tokens for p in passages), budget.dropped, counts)

    def _fill(self, deeper: list[Candidate], budget: _Budget, first_rank: int, depth: int = 40, batch: int = 8) -> int:
        """The hits ranked below ``top_k`` (the first at ``first_rank``; at most ``depth`` of them) whole, in rank
        order, into the room the pack has left; how many went in. Their rows are read ``batch`` at a time, while
        there is room."""
        deeper = [(first_rank + i, c) for i, c in enumerate(deeper[:depth]) if not budget.has(c.chunk_id)]
        added = 0
        for start in range(0, len(deeper), batch):
            if budget.total - budget.used < 16:
                break
            part = deeper[start:start + batch]
            rows = self.view.chunks_by_id(c.chunk_id for _, c in part)
            self._attach_heads(rows.values())
            for rank, c in part:
                if c.chunk_id in rows:
                    added += budget.add(c.chunk_id, _chunk_piece(rows[c.chunk_id], _reason("direct", c), c.score, rank))
        return added

    # -- excerpts: the hits the pack does not hold whole, quoted by their best sentence window -------------
    def _excerpts(self, candidates: list[Candidate], target_texts: dict[str, str], settings: ExpansionSettings,
                  budget: _Budget, depth: int = _EXCERPT_DEPTH) -> list[tuple[str, Piece]]:
        """Excerpt units of the first ``depth`` retrieved chunks (past ``top_k`` too) that the pack does not hold, in
        rank order; none in a pack smaller than ``excerpt_min_budget``."""
        if settings.excerpt_tokens <= 0 or settings.budget_tokens < settings.excerpt_min_budget:
            return []
        left = [(rank, c) for rank, c in enumerate(candidates) if not budget.has(c.chunk_id)][:depth]
        rows = self.view.chunks_by_id(c.chunk_id for _, c in left)
        self._attach_heads(rows.values())
        units = []
        for rank, c in left:
            if c.chunk_id not in rows or _says_nothing(rows[c.chunk_id], c):
                continue
            query = settings.window_query(c.target, next(iter(target_texts), ""))
            piece = excerpt_piece(rows[c.chunk_id], query, settings.excerpt_tokens, _reason("excerpt", c), c.score, rank)
            if piece is not None:
                units.append((f"excerpt:{c.chunk_id}", piece))
        return units

    # -- the section tier: the best chunk of each relevant section outside the hits ------------------
    def _section_tier(self, sections: list[SectionHit], vectors, target_texts, budget: _Budget,
                      base_priority: int, candidates: list[Candidate] = ()) -> list[tuple[str, Piece]]:
        covered = {p.section_id for p in budget.pieces.values()}
        wanted = [s for s in sections if s.section_id not in covered]
        if not wanted:
            return []
        chunks = self.view.chunks_of_sections([s.section_id for s in wanted], with_vectors=True)
        self._attach_heads(chunks)
        by_section: dict[str, list[dict]] = {}
        for row in chunks:
            if not _says_nothing(row):
                by_section.setdefault(row["section_id"], []).append(row)
        empty = [s.section_id for s in wanted if s.section_id not in by_section]
        if empty:  # a heading with no body of its own: use its subsections' chunks
            children = self.view.children_of(empty)
            child_rows = self.view.chunks_of_sections([c["section_id"] for c in children], with_vectors=True)
            parent_of = {c["section_id"]: c["parent_id"] for c in children}
            self._attach_heads(child_rows)
            for row in child_rows:
                if not _says_nothing(row):
                    by_section.setdefault(parent_of[row["section_id"]], []).append(row)
        retrieved: dict[str, int] = {}
        for rank, c in enumerate(candidates):
            retrieved.setdefault(c.chunk_id, rank)
        units = []
        for i, hit in enumerate(wanted):
            options = by_section.get(hit.section_id)
            if not options:
                continue
            vector = vectors.get(target_texts.get(hit.target or "", ""))
            ranked = [r for r in options if r["chunk_id"] in retrieved]
            if ranked and hit.kind != "reference":  # the retriever's ranking picks the section's chunk
                best = min(ranked, key=lambda r: retrieved[r["chunk_id"]])
            elif hit.kind == "reference" or vector is None:
                best = min(options, key=lambda r: (r["section_id"] != hit.section_id, r["ordinal"]))
            else:
                matrix = np.asarray([r["vector"] for r in options], dtype=np.float32)
                best = options[int(np.argmax(matrix @ vector.astype(np.float32)))]
            reason = {"kind": "section_tier", "of": hit.section_id, "target": hit.target, "score": hit.score}
            units.append((best["chunk_id"], _chunk_piece(best, reason, hit.score, base_priority + i)))
        return units

    # -- neighbours / whole sections ------------------------------------------------------------------
    def _around(self, row: dict, score: float, priority: int, settings: ExpansionSettings,
                budget: _Budget) -> list[tuple[str, Piece]]:
        kind = "section" if settings.mode == "section" else "neighbour"
        units = []
        for other in sorted(self._neighbours(row, settings, budget.total), key=lambda r: abs(r["ordinal"] - row["ordinal"])):
            if other["chunk_id"] != row["chunk_id"]:
                reason = {"kind": kind, "of": row["chunk_id"], "target": None, "score": None}
                units.append((other["chunk_id"], _chunk_piece(other, reason, score, priority)))
        return units

    def _neighbourhoods(self, direct: list[Candidate], rows: dict[str, dict], settings: ExpansionSettings,
                        budget: _Budget) -> list[tuple[str, Piece]]:
        """Neighbourhood units of the top hits that made it into the pack, best hit first."""
        units = []
        for rank, c in enumerate(direct[: settings.expand_hits]):
            if budget.has(c.chunk_id):
                units += self._around(rows[c.chunk_id], c.score, rank, settings, budget)
        return units

    def _seed_neighbourhoods(self, seeds: list[tuple[str, Piece]], settings: ExpansionSettings,
                             budget: _Budget) -> list[tuple[str, Piece]]:
        if not seeds:
            return []
        rows = self.view.chunks_by_id(key for key, _ in seeds)
        units = []
        for key, piece in seeds:
            if key in rows:
                units += self._around(rows[key], piece.score, piece.priority, settings, budget)
        return units

    def _neighbours(self, row: dict, settings: ExpansionSettings, total: int) -> list[dict]:
        if settings.mode == "section":
            whole = self.view.chunks_of_sections([row["section_id"]])
            if sum(r["n_tokens"] for r in whole) <= total // 2:
                self._attach_heads(whole)
                return whole
        if settings.window <= 0:
            return []
        around = self.view.chunks_in_range(row["doc_id"], row["ordinal"] - settings.window,
                                           row["ordinal"] + settings.window)
        if settings.mode in ("heading", "section"):
            around = [r for r in around if r["section_id"] == row["section_id"]]
        self._attach_heads(around)
        return around

    # -- table heads ------------------------------------------------------------------------------------
    def _attach_heads(self, rows) -> None:
        """Give each chunk row that starts inside a table (:func:`pipelines.chunk.rows.starts_in_table`) the head of
        that table (``row["head"]``: caption and header rows, :func:`pipelines.chunk.rows.head_above`) from the
        chunks above it in its section, all read at once; '' where there is none."""
        rows = list(rows)
        known = {(r["doc_id"], r["ordinal"]): r for r in rows}
        pending = []
        for r in rows:
            if "head" in r:
                continue
            r["head"] = ""
            if r["ordinal"] > 0 and starts_in_table(r["text"]):
                pending.append(r)
        if not pending:
            return
        known.update(self.view.chunks_at({(r["doc_id"], r["ordinal"] - back) for r in pending
                                          for back in range(1, HEAD_LOOKBACK + 1)} - known.keys()))
        for r in pending:
            above = []  # the texts of the chunks above it in its section, nearest first
            for back in range(1, HEAD_LOOKBACK + 1):
                chunk = known.get((r["doc_id"], r["ordinal"] - back))
                if chunk is None or chunk["section_id"] != r["section_id"]:
                    break
                above.append(chunk["text"])
            r["head"] = head_above(above)

    # -- parent and sibling summaries -----------------------------------------------------------------
    def _summaries(self, direct: list[Candidate], rows: dict[str, dict], vectors: dict[str, np.ndarray],
                   target_texts: dict[str, str], settings: ExpansionSettings, budget: _Budget,
                   candidates: list[Candidate] = ()) -> list[tuple[str, Piece]]:
        """The outline units: short lead summaries (``summary_tokens``) of the top hits' parent sections
        and of their sibling sections that have nothing in the pack yet, the siblings closest to the
        hit's target first (by their chunks' centroid; without a vector, nearest in the document). With
        ``sibling_hits``, a sibling that retrieval found a chunk of (in ``candidates``) is quoted as that
        chunk's best sentence window of the same size instead: what the retriever matched in it, not its opening."""
        if not (settings.parents or settings.siblings):
            return []
        found: dict[str, tuple[Candidate, dict]] = {}  # section → its best retrieved chunk outside the pack
        if settings.sibling_hits:
            later = [c for c in candidates if not budget.has(c.chunk_id)]
            later_rows = self.view.chunks_by_id(c.chunk_id for c in later)
            self._attach_heads(later_rows.values())
            for c in later:
                row = later_rows.get(c.chunk_id)
                if row is not None and row["section_id"] not in found and not _says_nothing(row, c):
                    found[row["section_id"]] = (c, row)
        hits = [c for c in direct[: settings.expand_hits] if budget.has(c.chunk_id)]
        hit_rows = [rows[c.chunk_id] for c in hits]
        sections = self.view.sections_by_id(r["section_id"] for r in hit_rows)
        parents = self.view.sections_by_id(s["parent_id"] for s in sections.values() if s["parent_id"])
        siblings_of: dict[str, list[dict]] = {}
        if settings.siblings and settings.max_siblings:
            for row in self.view.children_of(parents, with_vectors=True):
                siblings_of.setdefault(row["parent_id"], []).append(row)
        covered = {p.section_id for p in budget.pieces.values()}
        in_pack = {p.text for p in budget.pieces.values()}
        units: list[tuple[str, Piece]] = []
        chosen: set[str] = set()

        def add_summary(section: dict, kind: str, of: str, priority: int) -> None:
            summary = lead_of(section["summary"] or "", settings.summary_tokens)
            if (not section["parent_id"] or not summary.strip() or summary in in_pack
                    or section["section_id"] in chosen or _title_only(section) or _contents(section)):
                return  # nothing new: no summary, quoted already, or only the title (a section without text)
            text = f"[{section['path_str']}] {summary}"
            units.append((f"summary:{section['section_id']}", Piece(
                section["doc_id"], section["section_id"], -1, section["start"], section["start"], text,
                _summary_tokens(text), [], [{"kind": kind, "of": of, "target": None, "score": None}],
                0.0, priority, {"section_path": section["path_str"]})))
            chosen.add(section["section_id"])

        for rank, (hit, row) in enumerate(zip(hits, hit_rows)):
            section = sections.get(row["section_id"])
            if section is None or not section["parent_id"]:
                continue
            parent = parents.get(section["parent_id"])
            if settings.parents and parent is not None:
                add_summary(parent, "parent", section["section_id"], rank)
            query = hit.target or next(iter(target_texts), "")
            siblings = [s for s in siblings_of.get(section["parent_id"], [])
                        if s["section_id"] not in covered and s["section_id"] not in chosen
                        and (s["section_id"] in found or not _title_only(s)) and not _contents(s)
                        and not is_notice(s["title"], query)]
            vector = vectors.get(target_texts.get(hit.target or "", ""))
            if vector is not None:
                similarity = {s["section_id"]: float(np.dot(np.asarray(s["centroid"], np.float32), vector))
                              for s in siblings if s["centroid"] is not None}
                siblings.sort(key=lambda s: (-similarity.get(s["section_id"], -2.0), abs(s["ordinal"] - section["ordinal"])))
            else:
                siblings.sort(key=lambda s: abs(s["ordinal"] - section["ordinal"]))
            for sibling in siblings[: settings.max_siblings]:
                hit_in = found.get(sibling["section_id"])
                if hit_in is not None:
                    c, row = hit_in
                    reason = {"kind": "sibling", "of": section["section_id"], "target": c.target, "score": c.score}
                    piece = excerpt_piece(row, settings.window_query(c.target, next(iter(target_texts), "")),
                                          settings.summary_tokens,
                                          reason, c.score, rank)
                    if piece is not None:
                        units.append((c.chunk_id if not piece.excerpt else f"excerpt:{c.chunk_id}", piece))
                        chosen.add(sibling["section_id"])
                        continue
                add_summary(sibling, "sibling", section["section_id"], rank)
        return units
