"""Compare candidate ONNX text embedders against all-MiniLM-L6-v2: dense-retrieval nDCG@10 on SciFact
(train queries), business-reports (the bench's own qrels) and ARCD (Arabic), and encoding throughput.

    .venv/bin/python bench/embedder_candidates.py \
        --model minilm=~/.local/share/strata/models/all-minilm-l6-v2 \
        --model me5-small-q4=/tmp/embcands/multilingual-e5-small-q4,pooling=mean,max=512,qp=query: ,pp=passage: \
        --sets scifact,business-reports,arcd --threads 2 --throughput 300

Each ``--model NAME=DIR[,key=value...]`` is a directory holding ``model.onnx`` (inputs ``input_ids``,
``attention_mask``, optionally ``token_type_ids``; first output the last hidden state) and a Hugging Face
``tokenizer.json``. Settings (later wins): built-in defaults (mean pooling, 512 tokens, no prefixes), the
directory's ``strata-model.json`` (``pooling``, ``max_tokens``, ``query_prefix``, ``passage_prefix``),
a ``preset=`` (minilm, e5, bge, arctic) and explicit ``pooling=mean|cls``, ``max=N``, ``qp=``, ``pp=``
(prefix values run to the next comma; a trailing space is kept). Vectors are L2-normalised; documents are
``title + " " + text``; batches of 32 texts sorted by length, padded per batch. nDCG@10 uses the qrels'
graded relevance (score > 0), queries without qrels are skipped. Throughput (after all retrieval runs):
the first N SciFact abstracts (corpus order) encoded as passages after one warm-up batch, the models taking
turns at each thread count for ``--rounds`` rounds; the best round counts (``throughput-best`` rows);
passages/s and real (non-pad) tokens/s, plus the process CPU seconds (the box may be shared). Use
``--sets ""`` for throughput only. Every row prints and appends one JSON line to
``bench/results/embedder-candidates.jsonl``. Document vectors are cached under ``--cache`` (keyed by the
model file's size+mtime, the settings and the set) so re-runs only encode queries.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
import os
import random
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data"
RESULTS = REPO / "bench" / "results" / "embedder-candidates.jsonl"
BGE_QP = "Represent this sentence for searching relevant passages: "
PRESETS = {
    "minilm": {"pooling": "mean", "max": 256, "qp": "", "pp": ""},
    "e5": {"pooling": "mean", "max": 512, "qp": "query: ", "pp": "passage: "},
    "bge": {"pooling": "cls", "max": 512, "qp": BGE_QP, "pp": ""},
    "arctic": {"pooling": "cls", "max": 512, "qp": BGE_QP, "pp": ""},
}
SETS = {
    "scifact": dict(corpus=DATA / "scifact" / "corpus.jsonl.gz", queries=DATA / "scifact" / "queries.jsonl",
                    qrels=DATA / "scifact" / "qrels" / "train.tsv"),
    "business-reports": dict(corpus=DATA / "business-reports" / "corpus.jsonl.gz",
                             queries=DATA / "business-reports" / "queries.jsonl",
                             qrels=REPO / "bench" / "data" / "business-reports-qrels.tsv"),
    "arcd": dict(corpus=DATA / "arcd" / "corpus.jsonl", queries=DATA / "arcd" / "queries.jsonl",
                 qrels=DATA / "arcd" / "qrels" / "test.tsv"),
}


def _open(p: Path):
    return gzip.open(p, "rt", encoding="utf-8") if p.suffix == ".gz" else open(p, encoding="utf-8")


def load_set(name: str, max_queries: int | None, seed: int):
    spec = SETS[name]
    with _open(spec["corpus"]) as fh:
        docs = [json.loads(line) for line in fh if line.strip()]
    doc_ids = [d["_id"] for d in docs]
    doc_texts = [(d.get("title") or "").strip() + " " + (d.get("text") or "") if (d.get("title") or "").strip()
                 else (d.get("text") or "") for d in docs]
    qrels: dict[str, dict[str, int]] = {}
    with open(spec["qrels"], encoding="utf-8") as fh:
        for line in fh:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3 or parts[0] == "query-id":
                continue
            if int(float(parts[2])) > 0:
                qrels.setdefault(parts[0], {})[parts[1]] = int(float(parts[2]))
    with _open(spec["queries"]) as fh:
        queries = [q for q in map(json.loads, (l for l in fh if l.strip())) if q["_id"] in qrels]
    if max_queries and len(queries) > max_queries:
        queries = random.Random(seed).sample(queries, max_queries)
    return doc_ids, doc_texts, queries, qrels


def ndcg_at_10(ranked: list[str], rel: dict[str, int]) -> float:
    dcg = sum((2 ** rel.get(d, 0) - 1) / math.log2(i + 2) for i, d in enumerate(ranked[:10]))
    ideal = sorted(rel.values(), reverse=True)[:10]
    idcg = sum((2 ** r - 1) / math.log2(i + 2) for i, r in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


class Encoder:
    def __init__(self, name: str, directory: Path, settings: dict, threads: int):
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self.name, self.dir, self.s = name, directory, settings
        self.tok = Tokenizer.from_file(str(directory / "tokenizer.json"))
        self.tok.no_padding()
        self.tok.enable_truncation(max_length=int(settings["max"]))
        self.pad_id = self._pad_id()
        self.set_threads(threads)

    def _pad_id(self) -> int:
        for t in ("[PAD]", "<pad>"):
            i = self.tok.token_to_id(t)
            if i is not None:
                return i
        return 0

    def set_threads(self, threads: int) -> None:
        import onnxruntime as ort

        so = ort.SessionOptions()
        so.intra_op_num_threads = threads
        so.inter_op_num_threads = 1
        so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        self.threads = threads
        self.sess = ort.InferenceSession(str(self.dir / "model.onnx"), so, providers=["CPUExecutionProvider"])
        self.inputs = {i.name for i in self.sess.get_inputs()}

    def tokenize(self, texts: list[str], prefix: str):
        return [e.ids for e in self.tok.encode_batch([prefix + t for t in texts])]

    def encode_ids(self, ids: list[list[int]], batch: int = 32) -> np.ndarray:
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        out = np.zeros((len(ids), 0), dtype=np.float32)
        vecs = [None] * len(ids)
        for b in range(0, len(order), batch):
            idx = order[b:b + batch]
            L = max(len(ids[i]) for i in idx)
            arr = np.full((len(idx), L), self.pad_id, dtype=np.int64)
            mask = np.zeros((len(idx), L), dtype=np.int64)
            for r, i in enumerate(idx):
                arr[r, :len(ids[i])] = ids[i]
                mask[r, :len(ids[i])] = 1
            feed = {"input_ids": arr, "attention_mask": mask}
            if "token_type_ids" in self.inputs:
                feed["token_type_ids"] = np.zeros_like(arr)
            hs = self.sess.run(None, feed)[0]
            if self.s["pooling"] == "cls":
                v = hs[:, 0, :]
            else:
                m = mask[:, :, None].astype(np.float32)
                v = (hs * m).sum(1) / np.maximum(m.sum(1), 1e-9)
            v = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
            for r, i in enumerate(idx):
                vecs[i] = v[r]
        return np.stack(vecs).astype(np.float32) if vecs else out

    def key(self) -> str:
        st = (self.dir / "model.onnx").stat()
        raw = json.dumps([str(self.dir), st.st_size, int(st.st_mtime), self.s], sort_keys=True)
        return hashlib.sha1(raw.encode()).hexdigest()[:16]


def parse_model(spec: str) -> tuple[str, Path, dict]:
    name, _, rest = spec.partition("=")
    parts = rest.split(",")
    directory = Path(os.path.expanduser(parts[0]))
    s = {"pooling": "mean", "max": 512, "qp": "", "pp": ""}
    meta = directory / "strata-model.json"
    if meta.exists():
        j = json.loads(meta.read_text())
        s["pooling"] = j.get("pooling", s["pooling"])
        s["max"] = int(j.get("max_tokens", s["max"]))
        s["qp"] = j.get("query_prefix", s["qp"])
        s["pp"] = j.get("passage_prefix", s["pp"])
    for kv in parts[1:]:
        k, _, v = kv.partition("=")
        if k == "preset":
            s.update(PRESETS[v])
        elif k in ("pooling", "qp", "pp"):
            s[k] = v
        elif k == "max":
            s[k] = int(v)
        else:
            raise SystemExit(f"unknown model setting {k!r} in {spec!r}")
    return name, directory, s


def record(row: dict) -> None:
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with open(RESULTS, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", action="append", required=True, help="NAME=DIR[,preset=..,pooling=..,max=..,qp=..,pp=..]")
    ap.add_argument("--sets", default="scifact,business-reports,arcd")
    ap.add_argument("--scifact-queries", type=int, default=0, help="random subset of the 809 train queries (0 = all)")
    ap.add_argument("--threads", type=int, default=2, help="onnxruntime intra-op threads for the retrieval runs")
    ap.add_argument("--throughput", type=int, default=0, help="N SciFact abstracts for the throughput run (0 = skip)")
    ap.add_argument("--throughput-threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=2, help="throughput rounds (best counts)")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--cache", default="/tmp/embcands/cache")
    ap.add_argument("--no-record", action="store_true")
    args = ap.parse_args()

    models = [parse_model(m) for m in args.model]
    sets = [s for s in args.sets.split(",") if s]
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%S")
    table: dict[str, dict[str, float]] = {}
    tput: dict[str, dict[int, tuple[float, float]]] = {}
    encoders: list[Encoder] = []

    for name, directory, s in models:
        enc = Encoder(name, directory, s, args.threads)
        print(f"# {name}: {directory} {s}", flush=True)
        for set_name in sets:
            doc_ids, doc_texts, queries, qrels = load_set(
                set_name, args.scifact_queries if set_name == "scifact" else None, args.seed)
            cf = cache / f"{name}-{enc.key()}-{set_name}.npy"
            t0 = time.perf_counter()
            if cf.exists():
                D = np.load(cf)
                doc_s = 0.0
            else:
                ids = enc.tokenize(doc_texts, s["pp"])
                D = enc.encode_ids(ids, args.batch)
                np.save(cf, D)
                doc_s = time.perf_counter() - t0
            Q = enc.encode_ids(enc.tokenize([q["text"] for q in queries], s["qp"]), args.batch)
            S = Q @ D.T
            top = np.argsort(-S, axis=1)[:, :100]
            nd, r10, r100 = [], [], []
            for qi, q in enumerate(queries):
                ranked = [doc_ids[j] for j in top[qi]]
                rel = qrels[q["_id"]]
                nd.append(ndcg_at_10(ranked, rel))
                r10.append(len(set(ranked[:10]) & set(rel)) / len(rel))
                r100.append(len(set(ranked) & set(rel)) / len(rel))
            row = {"ts": stamp, "bench": "retrieval", "model": name, "dir": str(directory), "settings": s,
                   "set": set_name, "queries": len(queries), "docs": len(doc_ids),
                   "ndcg@10": round(float(np.mean(nd)), 4), "recall@10": round(float(np.mean(r10)), 4),
                   "recall@100": round(float(np.mean(r100)), 4), "doc_encode_s": round(doc_s, 1),
                   "threads": args.threads}
            table.setdefault(name, {})[set_name] = row["ndcg@10"]
            print(json.dumps(row, ensure_ascii=False), flush=True)
            if not args.no_record:
                record(row)

        encoders.append(enc)

    if args.throughput:
        # Interleaved: every round times each thread count for each model in turn; the best round counts
        # (the box is shared, so the fastest round is the least disturbed one).
        with gzip.open(SETS["scifact"]["corpus"], "rt", encoding="utf-8") as fh:
            texts = []
            for line in fh:
                d = json.loads(line)
                texts.append(d["title"] + " " + d["text"])
                if len(texts) >= args.throughput:
                    break
        best: dict[tuple[str, int], dict] = {}
        for rnd in range(args.rounds):
            for th in [int(x) for x in args.throughput_threads.split(",")]:
                for enc in encoders:
                    s = enc.s
                    ids = enc.tokenize(texts, s["pp"])
                    ntok = sum(len(i) for i in ids)
                    enc.set_threads(th)
                    enc.encode_ids(ids[: args.batch], args.batch)  # warm-up
                    t0, c0 = time.perf_counter(), time.process_time()
                    enc.encode_ids(ids, args.batch)
                    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
                    row = {"ts": stamp, "bench": "throughput", "model": enc.name, "dir": str(enc.dir),
                           "settings": s, "texts": len(ids), "tokens": ntok, "mean_tokens": round(ntok / len(ids), 1),
                           "threads": th, "batch": args.batch, "round": rnd, "seconds": round(dt, 2),
                           "cpu_seconds": round(cpu, 2), "passages_per_s": round(len(ids) / dt, 2),
                           "tokens_per_s": round(ntok / dt, 1), "load1": round(os.getloadavg()[0], 2)}
                    print(json.dumps(row), flush=True)
                    k = (enc.name, th)
                    if k not in best or row["passages_per_s"] > best[k]["passages_per_s"]:
                        best[k] = row
        for (name, th), row in best.items():
            tput.setdefault(name, {})[th] = (row["passages_per_s"], row["tokens_per_s"])
            if not args.no_record:
                record({**row, "bench": "throughput-best", "rounds": args.rounds})

    print("\nnDCG@10")
    print("| model | " + " | ".join(sets) + " |")
    print("|---|" + "---|" * len(sets))
    for name, _, _ in models:
        print(f"| {name} | " + " | ".join(f"{table.get(name, {}).get(x, float('nan')):.4f}" for x in sets) + " |")
    if tput:
        ths = sorted({t for v in tput.values() for t in v})
        print("\nthroughput (passages/s, tokens/s)")
        print("| model | " + " | ".join(f"{t} thread(s)" for t in ths) + " |")
        print("|---|" + "---|" * len(ths))
        for name, v in tput.items():  # noqa: B007
            print(f"| {name} | " + " | ".join(f"{v[t][0]:.1f} p/s, {v[t][1]:.0f} tok/s" if t in v else "-" for t in ths) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
