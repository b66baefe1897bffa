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
from offline.eval.metrics import collapse_to_documents, evaluate, paired_randomization_p, per_query  # noqa: E402
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


SETS_DIR = BENCH / "sets"  # built by bench/devsets.py


def _split_sets(kind: str, index: Path, beir: Path, source: str, splits=("tune", "test")) -> list[EvalSet]:
    return [EvalSet(f"{kind}-{split}", index, beir, split, source) for split in splits]


#: Every dev set by kind, each with a tuning and a held-out split (tune/test; SciFact: tune/heldout,
#: LLVM headings: dev/test). The kinds: scientific claims (scifact), questions over long multi-part
#: reports where dense leads (business-reports), Arabic encyclopedic questions where BM25 leads (arcd),
#: short keyword look-up of documentation sections (llvm), entity look-up by description
#: (man-describe), long queries (br-longq).
SETS = {s.name: s for s in (
    EvalSet("scifact-heldout", BENCH / "scifact", SHARED / "scifact", "train", "scifact",
            ids=REPO / "bench" / "data" / "scifact-heldout.txt"),
    EvalSet("scifact-tune", BENCH / "scifact", SHARED / "scifact", "train", "scifact",
            exclude=REPO / "bench" / "data" / "scifact-heldout.txt"),
    EvalSet("business-reports", BENCH / "br", SHARED / "business-reports", "test", "business-reports",
            qrels=REPO / "bench" / "data" / "business-reports-qrels.tsv"),
    *_split_sets("business-reports", BENCH / "br", SETS_DIR / "business-reports", "business-reports"),
    *_split_sets("arcd", BENCH / "arcd", SETS_DIR / "arcd", "arcd"),
    *_split_sets("man-describe", BENCH / "man-describe", SETS_DIR / "man-describe", "man-describe"),
    *_split_sets("br-longq", BENCH / "br-longq", SETS_DIR / "br-longq", "br-longq"),
    EvalSet("llvm-dev", BENCH / "llvm", BENCH / "llvm-headings", "dev", "llvm-headings"),
    EvalSet("llvm-test", BENCH / "llvm", BENCH / "llvm-headings", "test", "llvm-headings"),
)}
TUNE_SETS = ["scifact-tune", "business-reports-tune", "arcd-tune", "man-describe-tune", "br-longq-tune", "llvm-dev"]
TEST_SETS = ["scifact-heldout", "business-reports-test", "arcd-test", "man-describe-test", "br-longq-test", "llvm-test"]


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

    def shipped(row):
        """The default: adaptive T=6 around the route's prior, 0.7 for a query mostly outside the Latin script
        (the bench's indexes use the English MiniLM; serving.analysis.script)."""
        from serving.analysis.script import latin_share

        prior = 0.7 if latin_share(row["text"]) < 0.5 else 0.5
        verdict = row.get("judge")
        w = fusion.judged_bm25_share(prior, *verdict, temperature=6.0) if verdict else prior
        return _docs(fusion.linear([scored(row, "bm25"), scored(row, "dense")], weights=[w, 1 - w]), corpus(row))

    out["default (adaptive T=6, script prior)"] = shipped
    return out


def loso(depth: int, l2: float) -> dict[str, dict[str, float]]:
    """Leave one kind out (offline/fusion_share.py): per kind, nDCG@10 on its test split of rules fitted
    on the other kinds' tuning splits, beside the shipped rule (adaptive T=6) and the better single
    retriever. Returns ``{rule: {test set: nDCG@10}}``."""
    import numpy as np

    from offline.fusion_share import FEATURES, leave_one_kind_out, ndcg_by_share, share_features

    def arrays(name: str):
        lists, qrels = candidate_lists(SETS[name], depth)
        xs, tables, shipped = [], [], []
        for q, row in lists.items():
            bm25, dense = [(c, sc) for c, _, sc in row["bm25"]], [(c, sc) for c, _, sc in row["dense"]]
            corpus_of = {c: d for n in ("bm25", "dense") for c, d, _ in row[n] if d}
            feats = share_features(row["text"], bm25, dense, row.get("judge"))
            xs.append([feats[f] for f in FEATURES])
            tables.append(ndcg_by_share(bm25, dense, corpus_of, qrels[q]))
            verdict = row.get("judge")
            shipped.append(fusion.judged_bm25_share(0.5, *verdict, temperature=6.0) if verdict else 0.5)
        return np.array(xs), np.array(tables), np.array(shipped)

    data = {name: arrays(name) for name in TUNE_SETS + TEST_SETS}
    kinds = {test: ((data[tune][0], data[tune][1]), (data[test][0], data[test][1]))
             for tune, test in zip(TUNE_SETS, TEST_SETS)}
    rules = {"judge verdict": ["judge_diff"],
             "judge + agreement": ["judge_diff", "overlap", "bm25_top_in_dense", "dense_top_in_bm25"],
             "judge + score gaps": ["judge_diff", "bm25_gap", "dense_gap"],
             "every feature": list(FEATURES)}
    out = {"best single": {t: max(data[t][1][:, 0].mean(), data[t][1][:, -1].mean()) for t in TEST_SETS}}
    out["shipped: adaptive T=6"] = {t: float(np.mean([np.interp(s, np.linspace(0, 1, data[t][1].shape[1]), row)
                                                      for s, row in zip(data[t][2], data[t][1])])) for t in TEST_SETS}
    for rule, feats in rules.items():
        out[f"fitted LOSO: {rule}"] = leave_one_kind_out(kinds, feats, l2=l2)
    print(f"leave one kind out: nDCG@10 of each kind's test split, the rule fitted on the other kinds' tuning splits")
    print(f"{'rule':<36}" + "".join(f"{t:>22}" for t in TEST_SETS) + f"{'min vs best':>12}")
    for rule, row in out.items():
        worst = min(row[t] - out["best single"][t] for t in TEST_SETS)
        print(f"{rule:<36}" + "".join(f"{row[t]:>22.4f}" for t in TEST_SETS) + f"{worst:>+12.4f}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sets", default=",".join(TUNE_SETS + TEST_SETS))
    ap.add_argument("--depth", type=int, default=100, help="candidates per retriever (retrieval.candidates)")
    ap.add_argument("--no-record", action="store_true")
    ap.add_argument("--loso", action="store_true", help="also fit share rules leaving one kind out (see "
                                                          "offline/fusion_share.py) and score the held-out kind")
    ap.add_argument("--l2", type=float, default=0.01, help="--loso: L2 penalty on the scaled weights")
    args = ap.parse_args()
    table: dict[str, dict[str, float]] = {}
    by_query: dict[str, dict[str, dict[str, float]]] = {}
    counts = {}
    for name in args.sets.split(","):
        s = SETS[name]
        lists, qrels = candidate_lists(s, args.depth)
        counts[name] = len(lists)
        for method, rank in methods().items():
            run = {q: rank(row) for q, row in lists.items()}
            table.setdefault(method, {})[name] = evaluate(run, qrels, ks=(10,))["ndcg@10"]
            by_query.setdefault(method, {})[name] = {q: v["ndcg@10"] for q, v in per_query(run, qrels, ks=(10,),
                                                                                         metrics=("ndcg",)).items()}
    sets = list(counts)
    print(f"nDCG@10 (queries: {', '.join(f'{n} {c}' for n, c in counts.items())}); ratio = ÷ max(BM25, dense)")
    print(f"{'method':<20}" + "".join(f"{n:>20}" for n in sets) + f"{'min ratio':>12}")
    for method, row in table.items():
        ratios = [row[n] / max(table["bm25"][n], table["dense"][n]) for n in sets]
        print(f"{method:<20}" + "".join(f"{row[n]:>12.4f} ({r:.3f})" for n, r in zip(sets, ratios))
              + f"{min(ratios):>12.3f}")
    paired = {}
    for method in ("adaptive T=6", "default (adaptive T=6, script prior)"):
        if method not in table:
            continue
        print(f"{method} − the better single retriever per set: mean difference (paired randomization p)")
        for n in sets:
            best = "bm25" if table["bm25"][n] >= table["dense"][n] else "dense"
            diff = table[method][n] - table[best][n]
            p = paired_randomization_p(by_query[method][n], by_query[best][n], trials=5000)
            paired.setdefault(method, {})[n] = {"vs": best, "diff": round(diff, 4), "p": round(p, 4)}
            print(f"  {n:<24} {diff:+.4f} vs {best:<6} (p = {p:.3f})")
    loso_table = loso(args.depth, args.l2) if args.loso else None
    if not args.no_record:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        with RESULTS.open("a") as fh:
            fh.write(json.dumps({"when": time.strftime("%Y-%m-%dT%H:%M:%S"), "depth": args.depth, "queries": counts,
                                 "ndcg@10": table, "paired_vs_best_single": paired,
                                 **({"leave_one_kind_out": loso_table} if loso_table else {})}) + "\n")


if __name__ == "__main__":
    main()
