"""Fusion methods side by side on several BEIR sets: BM25 alone, dense alone, fixed-weight linear
fusion (Weaviate's relative score fusion), RRF, distribution-based score fusion (Qdrant's DBSF) and
Strata's adaptive fusion (BM25 share per query from the cross-encoder's verdict on each retriever's
best hit, prior 0.5, temperature T; the product's default T = 6 was chosen on the tuning sets
scifact-tune and llvm-dev), from the same candidate lists.

For every judged query of every set the bench retrieves, once, the BM25 and the dense top
``--depth`` chunks of the query text with the product's retriever over an index ingested by
``strata eval retrieval`` (cached as JSONL next to the index). Every fusion method then ranks the
same lists (documents score as their best chunk), so the differences are the methods' alone.
nDCG@10 per set and method, and each method's ratio to the better of BM25 and dense on that set.

    python bench/fusion_bench.py                      # the three sets below (indexes must exist)
    python bench/fusion_bench.py --sets scifact-heldout,business-reports

Sets (name → index data dir, BEIR dir, split, query ids):
  scifact-heldout    ~/.cache/strata-bench/scifact, ../shared/data/scifact, train, bench/data/scifact-heldout.txt
  scifact-tune       the same index, the other judged train queries (what tuning may look at)
  business-reports   ~/.cache/strata-bench/br, ../shared/data/business-reports, test, with the judgments
                     of bench/data/business-reports-qrels.tsv (the shipped qrels are mislabeled: bench/data/README.md)
  llvm-dev|llvm-test ~/.cache/strata-bench/llvm, ~/.cache/strata-bench/llvm-headings, dev|test
Build an index with ``strata --data-dir DIR eval retrieval BEIR_DIR --configs bm25 --top-k-sweep ''``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from offline.eval.beir import corpus_paths, load_beir, load_qrels, read_id_list  # noqa: E402
from offline.eval.metrics import collapse_to_documents, evaluate  # noqa: E402
from serving.retrieval import fusion  # noqa: E402

BENCH = Path.home() / ".cache" / "strata-bench"
SHARED = REPO.parent / "shared" / "data"
RESULTS = REPO / "bench" / "results" / "fusion.jsonl"


@dataclass(frozen=True)
class EvalSet:
    name: str
    data_dir: Path
    beir: Path
    split: str
    source: str
    ids: Path | None = None
    exclude: Path | None = None
    qrels: Path | None = None  # judgments replacing the set's own


SETS = {s.name: s for s in (
    EvalSet("scifact-heldout", BENCH / "scifact", SHARED / "scifact", "train", "scifact",
            ids=REPO / "bench" / "data" / "scifact-heldout.txt"),
    EvalSet("scifact-tune", BENCH / "scifact", SHARED / "scifact", "train", "scifact",
            exclude=REPO / "bench" / "data" / "scifact-heldout.txt"),
    EvalSet("business-reports", BENCH / "br", SHARED / "business-reports", "test", "business-reports",
            qrels=REPO / "bench" / "data" / "business-reports-qrels.tsv"),
    EvalSet("llvm-dev", BENCH / "llvm", BENCH / "llvm-headings", "dev", "llvm-headings"),
    EvalSet("llvm-test", BENCH / "llvm", BENCH / "llvm-headings", "test", "llvm-headings"),
)}

Hit = tuple[str, float]  # (corpus id, score)


def candidate_lists(s: EvalSet, depth: int) -> tuple[dict[str, dict], dict[str, dict[str, int]]]:
    """``{qid: {"text", "bm25": [(chunk, corpus id, score)], "dense": [...]}}`` and the qrels (cached)."""
    ds = load_beir(s.beir, split=s.split)
    if s.qrels:
        ds.qrels = load_qrels(s.qrels)
    qids = sorted(q for q, rels in ds.qrels.items() if any(v > 0 for v in rels.values()) and q in ds.queries)
    if s.ids:
        keep = set(read_id_list(s.ids))
        qids = [q for q in qids if q in keep]
    if s.exclude:
        drop = set(read_id_list(s.exclude))
        qids = [q for q in qids if q not in drop]
    cache = s.data_dir / f"fusion-lists-{s.name}-{depth}.jsonl"
    if cache.is_file():
        lists = {row["qid"]: row for row in map(json.loads, cache.read_text().splitlines())}
        if set(qids) <= set(lists):
            return {q: lists[q] for q in qids}, {q: ds.qrels[q] for q in qids}
    from cluster.config import scripted_config
    from serving.embedding import QueryEncoder
    from serving.index.handle import IndexHandle
    from serving.retrieval.filters import ResolvedFilters
    from serving.retrieval.hybrid import HybridRetriever
    from serving.services.stages import CrossEncoderJudge

    cfg = scripted_config(s.data_dir)
    index = IndexHandle(cfg)
    view = index.get("default")
    retriever, encoder, judge = HybridRetriever(view), QueryEncoder.load(cfg), CrossEncoderJudge(cfg).for_view(view)
    path_to_id = corpus_paths(ds.corpus)
    docs = view.store.scan("documents", ["doc_id", "path", "source"]).to_pylist()
    corpus_of = {d["doc_id"]: path_to_id.get(d["path"]) for d in docs if d["source"] == s.source}
    lists = {}
    t0 = time.perf_counter()
    with cache.open("w") as fh:
        for q in qids:
            text = ds.queries[q]
            vector = encoder.encode([text], tenant="default")[0]
            row = {"qid": q, "text": text,
                   "bm25": [(c, corpus_of.get(d), sc) for c, d, sc in retriever.bm25(text, depth, ResolvedFilters())],
                   "dense": [(c, corpus_of.get(d), sc) for c, d, sc in retriever.dense(vector, depth, ResolvedFilters())]}
            tops = [row[name][0][0] for name in ("bm25", "dense") if row[name]]
            row["judge"] = judge(text, tops) if len(tops) == 2 and tops[0] != tops[1] else None  # the adaptive verdict
            lists[q] = row
            fh.write(json.dumps(row) + "\n")
    print(f"  {s.name}: retrieved {len(qids)} queries in {time.perf_counter() - t0:.0f}s → {cache}", file=sys.stderr)
    return lists, {q: ds.qrels[q] for q in qids}


Method = Callable[[dict], list[str]]


def _docs(ranked: list[tuple[str, float]], corpus_of: dict[str, str]) -> list[str]:
    return collapse_to_documents([corpus_of.get(c) or f"\x00{c}" for c, _ in ranked])


def methods() -> dict[str, Method]:
    def scored(row, name):
        return [(c, s) for c, _, s in row[name]]

    def corpus(row):
        return {c: d for name in ("bm25", "dense") for c, d, _ in row[name] if d}

    def fixed_linear(w):
        return lambda row: _docs(fusion.linear([scored(row, "bm25"), scored(row, "dense")], weights=[w, 1 - w]),
                                 corpus(row))

    def fixed_dbsf(w):
        return lambda row: _docs(fusion.dbsf([scored(row, "bm25"), scored(row, "dense")], weights=[w, 1 - w]),
                                 corpus(row))

    def rrf(row):
        return _docs(fusion.rrf([[c for c, _ in scored(row, "bm25")], [c for c, _ in scored(row, "dense")]]),
                     corpus(row))

    def adaptive(row, temperature=6.0):
        bm25, dense = scored(row, "bm25"), scored(row, "dense")
        verdict = row.get("judge")
        w = fusion.judged_bm25_share(0.5, *verdict, temperature=temperature) if verdict else 0.5
        return _docs(fusion.linear([bm25, dense], weights=[w, 1 - w]), corpus(row))

    out: dict[str, Method] = {
        "bm25": lambda row: _docs(scored(row, "bm25"), corpus(row)),
        "dense": lambda row: _docs(scored(row, "dense"), corpus(row)),
        "rrf": rrf,
    }
    for w in (0.3, 0.5):
        out[f"linear w={w}"] = fixed_linear(w)
        out[f"dbsf w={w}"] = fixed_dbsf(w)
    for t in (2.0, 6.0):
        out[f"adaptive T={t:g}"] = lambda row, t=t: adaptive(row, t)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default="scifact-tune,llvm-dev,scifact-heldout,business-reports,llvm-test")
    ap.add_argument("--depth", type=int, default=100, help="candidates per retriever (retrieval.candidates)")
    ap.add_argument("--no-record", action="store_true")
    args = ap.parse_args()
    table: dict[str, dict[str, float]] = {}
    counts = {}
    for name in args.sets.split(","):
        s = SETS[name]
        lists, qrels = candidate_lists(s, args.depth)
        counts[name] = len(lists)
        for method, rank in methods().items():
            run = {q: rank(row) for q, row in lists.items()}
            table.setdefault(method, {})[name] = evaluate(run, qrels, ks=(10,))["ndcg@10"]
    sets = list(counts)
    print(f"nDCG@10 (queries: {', '.join(f'{n} {c}' for n, c in counts.items())}); ratio = ÷ max(BM25, dense)")
    print(f"{'method':<20}" + "".join(f"{n:>20}" for n in sets) + f"{'min ratio':>12}")
    for method, row in table.items():
        ratios = [row[n] / max(table["bm25"][n], table["dense"][n]) for n in sets]
        print(f"{method:<20}" + "".join(f"{row[n]:>12.4f} ({r:.3f})" for n, r in zip(sets, ratios))
              + f"{min(ratios):>12.3f}")
    if not args.no_record:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        with RESULTS.open("a") as fh:
            fh.write(json.dumps({"when": time.strftime("%Y-%m-%dT%H:%M:%S"), "depth": args.depth, "queries": counts,
                                 "ndcg@10": table}) + "\n")


if __name__ == "__main__":
    main()
