"""One GPU node's CPU budget, measured: can a 16-core node keep its H100 busy while it also indexes
its BM25 shards, and what does tokenizing cost it?

    .venv/bin/python bench/gpu_embed_bench.py prepare --tokens 1700000 --data /tmp/gpu-embed   # here
    python bench/gpu_node_bench.py --data /tmp/gpu-embed                                       # on the GPU node

``bench/gpu_embed_bench.py`` times the GPU alone on pre-tokenized texts and the tokenizer alone;
``bench/head_writer_bench.py`` times shard writers alone. On a GPU node of a ``workers`` ingest they
all run at once: the embedding actor tokenizes its texts (Hugging Face ``tokenizers``, Rust threads
over every core, as fastembed does) and runs the model, and the node hosts
:data:`pipelines.stages.embed.GPU_BM25_SHARDS_PER_GPU` BM25 shard writers
(:class:`cluster.store.bm25.Bm25Index`, one indexing thread each, as
:class:`pipelines.sink.bm25_shards.Bm25ShardWriter`). This bench runs them together on
``--repeat`` copies of the pipeline's embed inputs (the texts of ``prepare``, each copy a new
document set), each stage as fast as it can, and reports each stage's rate and the node's CPU:

* ``gpu_only``: the model on pre-tokenized ids (no CPU work beside it): the GPU's ceiling;
* ``tokenize_on_node``: the actor as today, tokenizing each unit (``--unit-texts``) in a thread while
  the GPU embeds the last, plus ``--shards`` shard writers indexing the same number of chunks;
* ``ids_from_chunker``: the same with the ids handed over ready (what the parse tasks' token ids,
  ``ingest.token_ids``, the GPU default since this measurement, leave the actor), plus the shard writers;
* ``actors=N`` (``--actors``): N processes sharing the GPU (``ingest.embed_actor_gpus = 1/N``), each
  doing what :class:`cluster.models.embedder.Embedder` does on a GPU, one unit after another: count
  every text's tokens, sort, then per batch of :data:`cluster.models.embedder.CUDA_BATCH_SIZE`
  tokenize again (padded, as fastembed) and run the model, in one thread; plus the shard writers.

A stage's rate is its items over its own wall time; the node's rate is the slower of the embedder and
the shard writers together. Not run here: the Lance fragment writes (7–13k chunks/s per process,
``head_writer_bench``) and parsing, which may run on other nodes. Prints JSON and appends it to
``bench/results/gpu_node.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import queue
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

RESULTS = REPO / "bench" / "results" / "gpu_node.jsonl"
COMMIT_DOCS = 65_536  # a shard writer commits once per GPU commit (pipelines.stages.embed.GPU_COMMIT_ROWS)


def shard_writer(texts: list[str], repeat: int, shard: int, shards: int, root: str, start, results) -> None:
    """Index this shard's share of ``repeat`` copies of ``texts`` as chunk documents, one thread."""
    from cluster.store.bm25 import Bm25Index, document_json

    index = Bm25Index(Path(root) / f"shard-{shard}", create=True)
    index.open_writer(threads=1)
    docs = [document_json({"chunk_id": f"{copy}-{i}", "doc_id": f"{copy}-{i // 8}", "title": "",
                           "section_path": "", "section_facet": f"/{copy}-{i // 8}/s", "text": text})
            for copy in range(repeat) for i, text in enumerate(texts) if (copy * len(texts) + i) % shards == shard]
    start.wait()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for at in range(0, len(docs), 2048):
        index.add_json(docs[at:at + 2048])
        if (at // 2048 + 1) % (COMMIT_DOCS // 2048 // shards or 1) == 0:
            index.commit()
    index.commit()
    wall = time.perf_counter() - wall0
    results.put({"shard": shard, "docs": len(docs), "seconds": wall, "cpu_s": time.process_time() - cpu0})
    index.close_writer()


def embed_stream(model, units, size: int) -> tuple[int, float]:
    """Embed each unit's ids in token-length order, ``size`` a batch; (texts, seconds)."""
    import torch

    from gpu_embed_bench import batches, mean_pooled

    cuda = next(model.parameters()).is_cuda
    sync = torch.cuda.synchronize if cuda else (lambda: None)
    done = 0
    sync()
    started = time.perf_counter()
    with torch.inference_mode():
        for ids in units:
            order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
            for _, input_ids, mask in batches(ids, order, size):
                input_ids_t, mask_t = torch.from_numpy(input_ids), torch.from_numpy(mask)
                if cuda:
                    input_ids_t = input_ids_t.pin_memory().to("cuda", non_blocking=True)
                    mask_t = mask_t.pin_memory().to("cuda", non_blocking=True)
                mean_pooled(model, input_ids_t, mask_t).cpu()
            done += len(ids)
    sync()
    return done, time.perf_counter() - started


def tokenized_units(tokenizer, texts: list[str], repeat: int, unit: int):
    """Tokenize unit after unit in a thread, one unit ahead of the GPU (as an actor's next batch)."""
    ahead: queue.Queue = queue.Queue(maxsize=2)

    def produce() -> None:
        for copy in range(repeat):
            for at in range(0, len(texts), unit):
                ahead.put([e.ids for e in tokenizer.encode_batch(texts[at:at + unit], add_special_tokens=True)])
        ahead.put(None)

    threading.Thread(target=produce, daemon=True).start()
    while (ids := ahead.get()) is not None:
        yield ids


def actor(data: str, units: list[tuple[int, int]], texts: list[str], batch: int, ready, start, results) -> None:
    """One embedding actor on a shared GPU: the Embedder's GPU path with torch in place of onnxruntime."""
    import torch
    from tokenizers import Tokenizer

    from gpu_embed_bench import MAX_TOKENS, mean_pooled

    counter = Tokenizer.from_file(str(Path(data) / "minilm" / "tokenizer.json"))
    counter.no_padding()
    counter.enable_truncation(MAX_TOKENS)
    padded = Tokenizer.from_file(str(Path(data) / "minilm" / "tokenizer.json"))
    padded.enable_truncation(MAX_TOKENS)
    padded.enable_padding()
    model, device = load(Path(data) / "minilm")

    def embed(part: list[str]) -> None:
        encoded = padded.encode_batch(part)
        input_ids = torch.from_numpy(np.array([e.ids for e in encoded], dtype=np.int64)).to(device)
        mask = torch.from_numpy(np.array([e.attention_mask for e in encoded], dtype=np.int64)).to(device)
        with torch.inference_mode():
            mean_pooled(model, input_ids, mask).cpu().numpy()

    embed(texts[:batch])  # warm-up: CUDA context, kernels
    sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    sync()
    ready.put(1)
    start.wait()
    started, done = time.perf_counter(), 0
    for lo, hi in units:
        unit = texts[lo:hi]
        lengths = [len(e.ids) for e in counter.encode_batch(unit)]
        order = sorted(range(len(unit)), key=lengths.__getitem__)
        for at in range(0, len(order), batch):
            embed([unit[i] for i in order[at:at + batch]])
        done += len(unit)
    sync()
    results.put({"texts": done, "seconds": time.perf_counter() - started})


def load(model_dir: Path):
    """(model, device): fp16 on the GPU, or fp32 on the CPU for a smoke run where there is none."""
    import torch

    from gpu_embed_bench import load_model

    device = "cuda" if torch.cuda.is_available() else "cpu"
    return load_model(model_dir, torch.float16 if device == "cuda" else torch.float32, device), device


def cpu_busy(before, after) -> float:
    """The share of the node's CPU time that was busy between two ``psutil.cpu_times()``."""
    busy = sum(getattr(after, f) - getattr(before, f) for f in ("user", "system", "nice", "irq", "softirq"))
    idle = (after.idle - before.idle) + (after.iowait - before.iowait)
    return round(busy / (busy + idle), 3)


def bm25_figures(shard_runs: list[dict]) -> dict:
    """The shard writers' documents, wall time, docs/s in all and per writer, CPU µs a document."""
    docs, wall = sum(r["docs"] for r in shard_runs), max(r["seconds"] for r in shard_runs)
    return {"bm25_docs": docs, "bm25_seconds": round(wall, 2), "bm25_docs_per_s": round(docs / wall),
            "bm25_per_writer": [round(r["docs"] / r["seconds"]) for r in shard_runs],
            "bm25_cpu_us_per_doc": round(sum(r["cpu_s"] for r in shard_runs) / docs * 1e6, 1)}


def run_actors(n: int, texts: list[str], args) -> dict:
    """``n`` actor processes share the GPU and the units; the shard writers index as many chunks."""
    import psutil

    ctx = mp.get_context("spawn")
    root = tempfile.mkdtemp(prefix="bm25-node-", dir=args.scratch)
    start, results, ready, embedded = ctx.Event(), ctx.Queue(), ctx.Queue(), ctx.Queue()
    writers = [ctx.Process(target=shard_writer, args=(texts, args.repeat, s, args.shards, root, start, results))
               for s in range(args.shards)]
    all_units = [(at, min(at + args.unit_texts, len(texts))) for at in range(0, len(texts), args.unit_texts)] * args.repeat
    actors = [ctx.Process(target=actor, args=(str(args.data), all_units[a::n], texts, args.actor_batch, ready,
                                              start, embedded)) for a in range(n)]
    for p in writers + actors:
        p.start()
    for _ in actors:
        ready.get(timeout=300)
    time.sleep(args.settle_s)
    cpu0 = psutil.cpu_times()
    start.set()
    runs = [embedded.get(timeout=900) for _ in actors]
    shard_runs = [results.get(timeout=600) for _ in writers]
    cpu1 = psutil.cpu_times()
    for p in writers + actors:
        p.join()
    shutil.rmtree(root, ignore_errors=True)
    texts_done, wall = sum(r["texts"] for r in runs), max(r["seconds"] for r in runs)
    out = {"case": f"actors={n}", "texts": texts_done, "embed_seconds": round(wall, 2),
           "embed_texts_per_s": round(texts_done / wall), "node_cpu_busy": cpu_busy(cpu0, cpu1), **bm25_figures(shard_runs)}
    out["node_texts_per_s"] = min(out["embed_texts_per_s"], out["bm25_docs_per_s"])
    print(json.dumps(out), flush=True)
    return out


def run_case(name: str, model, tokenizer, texts, ids, args) -> dict:
    import psutil

    ctx = mp.get_context("spawn")
    root = tempfile.mkdtemp(prefix="bm25-node-", dir=args.scratch)
    start, results = ctx.Event(), ctx.Queue()
    writers = [] if name == "gpu_only" else [
        ctx.Process(target=shard_writer, args=(texts, args.repeat, s, args.shards, root, start, results))
        for s in range(args.shards)]
    for w in writers:
        w.start()
    time.sleep(args.settle_s if writers else 0)  # the writers render their documents first
    if name == "tokenize_on_node":
        units = tokenized_units(tokenizer, texts, args.repeat, args.unit_texts)
    else:
        units = (ids[at:at + args.unit_texts] for _ in range(args.repeat) for at in range(0, len(ids), args.unit_texts))
    cpu0 = psutil.cpu_times()
    start.set()
    embedded, seconds = embed_stream(model, units, args.batch)
    shard_runs = [results.get(timeout=600) for _ in writers]
    cpu1 = psutil.cpu_times()
    for w in writers:
        w.join()
    shutil.rmtree(root, ignore_errors=True)
    out = {"case": name, "texts": embedded, "embed_seconds": round(seconds, 2),
           "embed_texts_per_s": round(embedded / seconds), "node_cpu_busy": cpu_busy(cpu0, cpu1)}
    if shard_runs:
        out.update(bm25_figures(shard_runs))
        out["node_texts_per_s"] = min(out["embed_texts_per_s"], out["bm25_docs_per_s"])
    print(json.dumps(out), flush=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="what gpu_embed_bench.py prepare wrote")
    parser.add_argument("--repeat", type=int, default=40, help="copies of the texts (each a new document set)")
    parser.add_argument("--shards", type=int, default=3)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--unit-texts", type=int, default=1640, help="texts a unit (~262k tokens: GPU_UNIT_TOKENS)")
    parser.add_argument("--settle-s", type=float, default=8.0)
    parser.add_argument("--cases", nargs="+", default=["gpu_only", "tokenize_on_node", "ids_from_chunker"])
    parser.add_argument("--actors", type=int, nargs="*", default=[], help="actor processes per GPU, one case each")
    parser.add_argument("--actor-batch", type=int, default=128, help="texts a model call (CUDA_BATCH_SIZE)")
    parser.add_argument("--limit-texts", type=int, default=0, help="the first N texts only (a smoke run)")
    parser.add_argument("--no-record", action="store_true")
    parser.add_argument("--scratch", default=None)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()

    import torch
    from tokenizers import Tokenizer

    from gpu_embed_bench import MAX_TOKENS, load_texts

    texts = load_texts(args.data / "texts.jsonl.xz")[:args.limit_texts or None]
    tokenizer = Tokenizer.from_file(str(args.data / "minilm" / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(MAX_TOKENS)
    ids = [e.ids for e in tokenizer.encode_batch(texts, add_special_tokens=True)]
    model, device = load(args.data / "minilm")
    embed_stream(model, [ids[:4096]], args.batch)  # warm-up: kernels, allocator
    result = {"gpu": torch.cuda.get_device_name(0) if device == "cuda" else "none (smoke run)", "cores": os.cpu_count(), "texts": len(texts) * args.repeat,
              "tokens_per_text": round(sum(map(len, ids)) / len(ids), 1), "shards": args.shards,
              "batch": args.batch, "unit_texts": args.unit_texts, "cases": []}
    for name in args.cases:
        result["cases"].append(run_case(name, model, tokenizer, texts, ids, args))
    del model
    torch.cuda.empty_cache()
    for n in args.actors:
        result["cases"].append(run_actors(n, texts, args))
    result["when"] = time.strftime("%Y-%m-%dT%H:%M:%S")
    print(json.dumps(result, indent=2))
    if args.out:
        args.out.write_text(json.dumps(result, indent=2))
    if args.no_record:
        return
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with open(RESULTS, "a") as fh:
        fh.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
