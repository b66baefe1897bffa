"""The ingest report: what was ingested, what was skipped or failed and why.

>>> print(IngestReport(files_seen=2, new=1, failed=[("x.bin", "binary", "NUL bytes")]).summary().splitlines()[0])
Ingest: 2 files seen, 1 new, 0 updated, 0 unchanged, 0 deleted, 1 skipped/failed
>>> plan = {"embed_actors": 32, "device": "GPU", "parse_tasks": 8, "writer": "workers", "commit_rows": 65536,
...         "bm25_shards": 24, "bm25_writer_nodes": 8, "token_ids": True}
>>> print(IngestReport(plan=plan).summary().splitlines()[2])
Pipeline: 32 embedding actor(s) on GPU, 8 parse task(s) at a time, workers writer, 65,536-chunk commits, BM25 in 24 shard(s) on 8 node(s), token ids from the parse tasks
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass
class IngestReport:
    files_seen: int = 0
    new: int = 0
    updated: int = 0
    unchanged: int = 0
    rechunked: int = 0  # of the updated: indexed with other chunking settings (ChunkingConfig.signature)
    deleted: int = 0
    recovered: list[str] = field(default_factory=list)
    sections: int = 0
    chunks: int = 0
    tokens: int = 0
    commits: int = 0
    cache_hits: int = 0
    cache_misses: int = 0
    failed: list[tuple[str, str, str]] = field(default_factory=list)
    elapsed_s: float = 0.0
    first_batch_s: float | None = None  # from the start to the first embedded batch at the writer
    pipeline_s: float | None = None  # from the start to the last batch (then: the last commit, maintenance)
    index_actions: dict[str, str] = field(default_factory=dict)
    totals: dict[str, int] = field(default_factory=dict)
    tenant: str = "default"
    plan: dict[str, object] = field(default_factory=dict)  # how the pipeline ran: actors, device, writer, shards

    @property
    def cache_hit_rate(self) -> float:
        """Share of the distinct texts to embed whose vectors came from the embedding cache."""
        total = self.cache_hits + self.cache_misses
        return self.cache_hits / total if total else 0.0

    @property
    def tokens_per_s(self) -> float:
        return self.tokens / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def failures_by_reason(self) -> dict[str, int]:
        return dict(Counter(reason for _, reason, _ in self.failed))

    def summary(self, *, max_failures: int | None = 50) -> str:
        lines = [
            f"Ingest: {self.files_seen} files seen, {self.new} new, {self.updated} updated, {self.unchanged} unchanged, "
            f"{self.deleted} deleted, {len(self.failed)} skipped/failed",
            f"Wrote {self.sections} sections, {self.chunks} chunks, {self.tokens} tokens in {self.commits} commits; "
            f"{self.elapsed_s:.1f}s ({self.tokens_per_s:,.0f} tokens/s)",
        ]
        if self.rechunked:
            lines.append(f"Chunked again: {self.rechunked} documents indexed with other chunking settings")
        if self.plan:
            p = self.plan
            lines.append(f"Pipeline: {p['embed_actors']} embedding actor(s) on {p['device']}, {p['parse_tasks']} parse "
                         f"task(s) at a time, {p['writer']} writer, {p['commit_rows']:,}-chunk commits, "
                         f"BM25 in {p['bm25_shards']} shard(s)"
                         + (f" on {p['bm25_writer_nodes']} node(s)" if p.get("bm25_writer_nodes", 1) > 1 else "")
                         + (", token ids from the parse tasks" if p.get("token_ids") else ""))
        if self.cache_hits or self.cache_misses:
            lines.append(f"Embedding cache: {self.cache_hits} of {self.cache_hits + self.cache_misses} texts reused "
                         f"({self.cache_hit_rate:.0%}), {self.cache_misses} embedded")
        if self.totals:
            lines.append(("Index now holds: " if self.tenant == "default" else f"Index of tenant {self.tenant!r} now holds: ")
                         + ", ".join(f"{v} {k}" for k, v in self.totals.items()))
        if self.recovered:
            lines.append(f"Recovered from an interrupted ingest: {len(self.recovered)} documents re-queued")
        for table, action in self.index_actions.items():
            lines.append(f"Index {table}: {action}")
        if self.failed:
            lines.append("Skipped or failed files (" + ", ".join(f"{r}: {n}" for r, n in
                                                                 sorted(self.failures_by_reason().items())) + "):")
            shown = self.failed if max_failures is None else self.failed[:max_failures]
            lines += [f"  {path}: {reason}" + (f" ({detail})" if detail else "") for path, reason, detail in shown]
            if len(shown) < len(self.failed):
                lines.append(f"  … and {len(self.failed) - len(shown)} more (use --report FILE for all)")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {
            "files_seen": self.files_seen, "new": self.new, "updated": self.updated, "unchanged": self.unchanged,
            "rechunked": self.rechunked, "deleted": self.deleted, "recovered": self.recovered, "sections": self.sections, "chunks": self.chunks,
            "tokens": self.tokens, "commits": self.commits,
            "cache_hits": self.cache_hits, "cache_misses": self.cache_misses, "cache_hit_rate": self.cache_hit_rate, "elapsed_s": self.elapsed_s,
            "first_batch_s": self.first_batch_s, "pipeline_s": self.pipeline_s,
            "tokens_per_s": self.tokens_per_s, "index_actions": self.index_actions, "totals": self.totals,
            "failed": [{"path": p, "reason": r, "detail": d} for p, r, d in self.failed], "tenant": self.tenant,
            "plan": self.plan,
        }
