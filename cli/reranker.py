"""``strata reranker``: train and evaluate the cross-encoder (the logic lives in :mod:`offline.reranker`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from cli.common import config_of, csv_of


@click.group("reranker")
def reranker_group() -> None:
    """Train and evaluate the cross-encoder reranker (logic in offline/reranker; needs the train extra)."""


@reranker_group.command("train")
@click.argument("beir_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--split", default="train", show_default=True, help="qrels/<split>.tsv to train on")
@click.option("--exclude-queries", type=click.Path(exists=True, dir_okay=False), default=None,
              help="query ids never trained or tuned on (e.g. bench/data/scifact-heldout.txt)")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="model directory (default: <models.home>/<name>; select it with rerank.model = NAME)")
@click.option("--name", default="strata-reranker-custom", show_default=True, help="model name (manifest)")
@click.option("--epochs", type=click.IntRange(1, 50), default=2, show_default=True)
@click.option("--negatives", type=click.IntRange(1, 63), default=3, show_default=True, help="hard negatives per positive")
@click.option("--negative-depth", type=click.IntRange(1), default=20, show_default=True,
              help="negatives come from the first N hybrid hits")
@click.option("--max-length", type=click.IntRange(32, 512), default=256, show_default=True)
@click.option("--lr", type=float, default=5e-5, show_default=True)
@click.option("--seed", type=int, default=13, show_default=True)
@click.option("--threads", type=click.IntRange(1), default=2, show_default=True, help="torch CPU threads")
@click.option("--validation-fraction", type=click.FloatRange(0, 0.9), default=0.2, show_default=True)
@click.option("--top-n", "top_ns", default="20,30,50", show_default=True, callback=csv_of(int),
              help="rerank.top_n values compared on the validation queries")
@click.option("--max-queries", type=click.IntRange(1), default=None, help="only the first N judged queries (smoke runs)")
@click.option("--work-dir", type=click.Path(file_okay=False), default=None,
              help="mined candidates + fp32 export (default: <data_dir>/reranker-train/<name>)")
@click.option("--weak-set", "weak_sets", multiple=True, type=click.Path(exists=True, file_okay=False),
              help="also train on a weak-supervision set (`strata reranker weak-set`); repeatable")
@click.option("--weak-data-dir", type=click.Path(file_okay=False), default=None,
              help="index of the weak sets (default: <work-dir>/weak-index; ingested if needed)")
@click.option("--weak-max-queries", type=click.IntRange(1), default=None,
              help="at most N queries of each weak set (a seeded hash sample)")
@click.pass_context
def reranker_train(ctx: click.Context, beir_dir: str, split: str, exclude_queries: str | None, out_dir: str | None,
                   name: str, epochs: int, negatives: int, negative_depth: int, max_length: int, lr: float, seed: int,
                   threads: int, validation_fraction: float, top_ns: tuple[int, ...], max_queries: int | None,
                   work_dir: str | None, weak_sets: tuple[str, ...], weak_data_dir: str | None,
                   weak_max_queries: int | None) -> None:
    """Fine-tune a cross-encoder from all-MiniLM-L6-v2 on BEIR judgments with hard negatives mined by
    the hybrid retriever over the index at storage.data_dir; export int8 ONNX + model card."""
    from offline.reranker.job import TrainJob, run_training_job
    from offline.reranker.loop import TrainSettings

    cfg = config_of(ctx)
    job = TrainJob(
        beir_dir=Path(beir_dir), out_dir=Path(out_dir) if out_dir else Path(cfg.models.home).expanduser() / name,
        split=split, exclude_queries=Path(exclude_queries) if exclude_queries else None,
        settings=TrainSettings(epochs=epochs, negatives=negatives, negative_depth=negative_depth, max_length=max_length,
                               lr=lr, seed=seed, threads=threads),
        validation_fraction=validation_fraction, top_ns=top_ns or (cfg.rerank.top_n,), max_queries=max_queries,
        work_dir=Path(work_dir) if work_dir else None, name=name, command="strata " + " ".join(sys.argv[1:]),
        weak_sets=tuple(Path(w) for w in weak_sets), weak_data_dir=Path(weak_data_dir) if weak_data_dir else None,
        weak_max_queries=weak_max_queries)
    record = run_training_job(cfg, job, log=click.echo)
    chosen = (record.get("validation") or {}).get("chosen")
    if chosen:
        click.echo(f"validation nDCG@10 {record['validation']['baseline']['ndcg@10']:.4f} → "
                   f"{chosen['metrics']['ndcg@10']:.4f} with rerank.top_n={chosen['top_n']} rerank.weight={chosen['weight']}")
    click.echo(f"model: {job.out_dir} (use: rerank.model_dir = \"{job.out_dir}\", rerank.enabled = true)")


@reranker_group.command("weak-set")
@click.argument("trees", nargs=-1, required=True)
@click.option("--unpacked", type=click.Path(exists=True, file_okay=False), required=True,
              help="folder the Debian doc packages were unpacked into (dpkg-deb -x NAME_*.deb FOLDER)")
@click.option("--out", type=click.Path(file_okay=False), required=True, help="the BEIR directory to write")
@click.option("--files", type=click.IntRange(2), default=110, show_default=True, help="files sampled per tree")
@click.option("--heading-queries", type=click.IntRange(0), default=350, show_default=True)
@click.option("--ict-queries", type=click.IntRange(0), default=350, show_default=True)
def reranker_weak_set(trees: tuple[str, ...], unpacked: str, out: str, files: int, heading_queries: int,
                      ict_queries: int) -> None:
    """Build a weak-supervision set (heading → section body, inverse cloze) from Debian documentation
    TREES (e.g. python3.11-doc postgresql-doc-15); never from an evaluation corpus."""
    import json

    from offline.reranker.weak import KNOWN_TREES, build_weak_set, known_tree

    unknown = [t for t in trees if t not in KNOWN_TREES]
    if unknown:
        raise click.BadParameter(f"unknown trees {unknown}; known: {sorted(KNOWN_TREES)}")
    record = build_weak_set([known_tree(t, Path(unpacked)) for t in trees], Path(out), files=files,
                            heading_queries=heading_queries, ict_queries=ict_queries)
    click.echo(json.dumps({k: v for k, v in record.items() if k != "sources"}, indent=2))


@reranker_group.command("evaluate")
@click.argument("beir_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--queries-file", type=click.Path(exists=True, dir_okay=False), required=True,
              help="the evaluation query ids, e.g. bench/data/scifact-heldout.txt")
@click.option("--split", default="train", show_default=True)
@click.option("--model-dir", type=click.Path(exists=True, file_okay=False), default=None,
              help="default: the configured reranker (rerank.model_dir, else rerank.model under models.home)")
@click.option("--top-n", "top_ns", default="20,30,50,100", show_default=True, callback=csv_of(int))
@click.option("--record/--no-record", default=False, show_default=True,
              help="store the figures in the model's training.json and MODEL_CARD.md")
@click.option("--end-to-end/--no-end-to-end", default=True, show_default=True,
              help="also run every query through SearchPipeline with the rerank stage on (rerank.top_n)")
@click.pass_context
def reranker_evaluate(ctx: click.Context, beir_dir: str, queries_file: str, split: str, model_dir: str | None,
                      top_ns: tuple[int, ...], record: bool, end_to_end: bool) -> None:
    """Held-out nDCG@10/recall/MRR of hybrid retrieval with and without the reranker (rerank.weight)."""
    from cluster.models.registry import resolve_reranker_dir
    from offline.reranker.heldout import evaluate_heldout

    cfg = config_of(ctx)
    directory = Path(model_dir) if model_dir else resolve_reranker_dir(cfg)
    result = evaluate_heldout(cfg, Path(beir_dir), Path(queries_file), directory, split=split, top_ns=top_ns,
                              weight=cfg.rerank.weight, record=record, end_to_end=end_to_end, log=click.echo)
    for row in result["rows"]:
        m = row["metrics"]
        click.echo(f"{row['label']:<44} nDCG@10 {m['ndcg@10']:.4f}  recall@10 {m['recall@10']:.4f}  "
                   f"MRR@10 {m['mrr@10']:.4f}")
