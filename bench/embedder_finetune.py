"""The embedder fallback of issue 50: all-MiniLM-L6-v2 fine-tuned on self-supervised pairs from several
corpora that no dev set uses, measured against the shipped MiniLM on every dev set's tune and test split.

    .venv/bin/python bench/embedder_finetune.py pairs                 # build the training pairs (JSONL)
    .venv/bin/python bench/embedder_finetune.py train --steps 300     # fine-tune, export ONNX (fp32)
    .venv/bin/python bench/embedder_finetune.py mix --alpha 0.5       # WiSE-FT: the base and tuned weights averaged
    .venv/bin/python bench/embedder_finetune.py eval --record         # dense nDCG@10, base vs tuned, paired
    .venv/bin/python bench/embedder_finetune.py product --record --pair llvm=MINILM_REPORT,TUNED_REPORT ...

``product`` compares two ``strata eval retrieval --configs bm25,dense,default`` reports of one set (the same
queries; one run with the default embedder, one with ``STRATA_MODELS__EMBEDDER_DIR`` at the tuned model's
directory, which needs a ``strata-model.json`` beside its ``model.onnx``): BM25, dense and the default fusion
through the product's chunks, each with the paired test.

Training pairs (``pairs``), capped per source so that no one corpus dominates:

* **heading → section** from four Debian documentation packages (the Linux kernel docs, perl-doc incl.
  the perlfaq questions, PostgreSQL 15, Python 3.11; the ingest-scale corpus of ``bench/ingest_bench.py``):
  the section's title (2–16 words, not a generic one such as "Description") as the query, the document
  title and the first ~180 words of the section's own body as the passage, as the chunker's header does;
* **claim → abstract**: the SciFact *tune* queries (``bench/data/scifact-heldout.txt`` left out) and the
  abstracts judged for them.

No pair comes from a dev set's corpus other than SciFact's tune queries. Training: in-batch negatives
(multiple-negatives ranking loss, scale 20), mean pooling, AdamW, linear warm-up and decay. Evaluation
(``eval``): every set of ``bench/fusion_bench.py`` (tune and test), documents as ``title + text`` cut at
256 tokens (the dense model's window; not the product's chunks), exact cosine search, nDCG@10, and a
paired sign-flip test per set. Rows go to ``bench/results/embedder-finetune.jsonl``.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import random
import re
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

BENCH = Path.home() / ".cache" / "strata-bench"
DEBIAN = BENCH / "debian" / "root" / "usr" / "share"
WORK = BENCH / "embedder-finetune"
RESULTS = REPO / "bench" / "results" / "embedder-finetune.jsonl"
SOURCES = {  # name -> folders under DEBIAN
    "linux-doc": ["doc/linux-doc-6.1"],
    "perl-doc": ["perl"],
    "postgresql-doc": ["doc/postgresql-doc-15"],
    "python-doc": ["doc/python3.11-doc", "doc/python3.11"],
}
GENERIC = {"description", "synopsis", "examples", "example", "notes", "note", "see also", "introduction",
           "overview", "options", "bugs", "author", "authors", "copyright", "license", "contents", "table of contents",
           "references", "summary", "parameters", "return value", "returns", "history", "footnotes", "usage",
           "name", "files", "environment", "diagnostics", "caveats", "availability", "index", "next", "previous",
           "navigation", "compatibility", "errors", "arguments", "changes", "changelog", "todo", "limitations"}


def _words(text: str) -> list[str]:
    return text.split()


def heading_pairs(source: str, per_source: int, per_doc: int, rng: random.Random, ict: bool = False) -> list[dict]:
    """(section title, doc title + section body) pairs from one Debian documentation package."""
    from pipelines.parse import parse_bytes

    files = []
    for folder in SOURCES[source]:
        root = DEBIAN / folder
        if root.exists():
            files += [p for p in root.rglob("*") if p.is_file() and not p.is_symlink()
                      and p.suffix.lower() in {".html", ".htm", ".txt", ".rst", ".pod", ".md"}]
    rng.shuffle(files)
    pairs: list[dict] = []
    for path in files:
        if len(pairs) >= per_source:
            break
        try:
            doc = parse_bytes(path.read_bytes(), path=path.name, doc_id=path.name)
        except Exception:  # noqa: BLE001 - a bench skips what does not parse (ParseError, ParserCrash)
            continue
        found = []
        for section in doc.sections:
            title = " ".join(section.title.split())
            n = len(_words(title))
            if section.level == 0 or not 2 <= n <= 16 or title.lower().strip(" :.") in GENERIC:
                continue
            if re.fullmatch(r"[\d.\s]+", title) or sum(c.isalpha() for c in title) < 6:
                continue
            body = _words(section.text)
            if len(body) < 40:
                continue
            if ict and len(body) >= 140:  # inverse cloze: a section's opening words ask for what follows
                head = (" ".join((doc.title or "").split()) + "\n") if doc.title else ""
                found.append({"query": " ".join(body[:60]), "passage": head + " ".join(body[60:240]),
                              "source": f"{source}-ict", "group": path.name})
            query = re.sub(r"^(?:[A-Z]\.)?[\d.]+\s+", "", title)
            doc_title = " ".join((doc.title or "").split())
            if query.lower() in doc_title.lower():  # the passage's header would hold the query itself
                continue
            passage = (doc_title + "\n" if doc_title else "") + " ".join(body[:180])
            found.append({"query": query, "passage": passage, "source": source, "group": path.name})
        rng.shuffle(found)
        pairs += found[:per_doc]
    return pairs[:per_source]


def scifact_pairs() -> list[dict]:
    """SciFact tune claims → their judged abstracts (the held-out ids left out)."""
    shared = REPO.parent / "shared" / "data" / "scifact"
    held = set((REPO / "bench" / "data" / "scifact-heldout.txt").read_text().split())
    with gzip.open(shared / "corpus.jsonl.gz", "rt", encoding="utf-8") as fh:
        corpus = {d["_id"]: d for d in map(json.loads, fh)}
    queries = {q["_id"]: q["text"] for q in map(json.loads, open(shared / "queries.jsonl", encoding="utf-8"))}
    pairs = []
    for line in open(shared / "qrels" / "train.tsv", encoding="utf-8"):
        q, d, *rest = line.rstrip("\n").split("\t")
        if q == "query-id" or q in held or d not in corpus:
            continue
        doc = corpus[d]
        passage = (doc.get("title") or "").strip() + "\n" + " ".join(_words(doc.get("text") or "")[:180])
        pairs.append({"query": queries[q], "passage": passage, "source": "scifact-tune", "group": d})
    return pairs


def build_pairs(args) -> int:
    rng = random.Random(args.seed)
    pairs = []
    for source in SOURCES:
        got = heading_pairs(source, args.per_source, args.per_doc, rng, ict=args.ict)
        print(f"{source}: {len(got)} pairs", flush=True)
        pairs += got
    sci = scifact_pairs()
    print(f"scifact-tune: {len(sci)} pairs")
    pairs += sci
    rng.shuffle(pairs)
    WORK.mkdir(parents=True, exist_ok=True)
    with open(Path(args.out), "w", encoding="utf-8") as fh:
        for p in pairs:
            fh.write(json.dumps(p, ensure_ascii=False) + "\n")
    print(f"{len(pairs)} pairs -> {args.out}")
    for p in pairs[:8]:
        print("  ", p["source"], "|", p["query"][:70], "->", p["passage"][:90].replace("\n", " / "))
    return 0


def _batches(pairs: list[dict], size: int, rng: random.Random):
    """Batches without two pairs of one group (a document): an in-batch negative must be a real negative."""
    pool = pairs[:]
    rng.shuffle(pool)
    while pool:
        batch, groups, rest = [], set(), []
        for p in pool:
            if len(batch) < size and p["group"] not in groups:
                batch.append(p)
                groups.add(p["group"])
            else:
                rest.append(p)
        pool = rest
        if len(batch) >= size // 2:
            yield batch


def train(args) -> int:
    import torch
    from tokenizers import Tokenizer
    from transformers import AutoModel

    from offline.reranker.model import base_model_dir

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    base = base_model_dir()
    tok = Tokenizer.from_file(str(base / "tokenizer.json"))
    pad = tok.token_to_id("[PAD]") or 0
    model = AutoModel.from_pretrained(str(base))
    model.train()
    pairs = [json.loads(line) for line in open(args.pairs, encoding="utf-8")]
    if args.max_pairs:
        pairs = pairs[:args.max_pairs]
    rng = random.Random(args.seed)

    def encode(texts: list[str], max_len: int):
        tok.enable_truncation(max_length=max_len)
        tok.enable_padding(pad_id=pad, pad_token="[PAD]")
        enc = tok.encode_batch(texts)
        ids = torch.tensor([e.ids for e in enc])
        mask = torch.tensor([e.attention_mask for e in enc])
        out = model(input_ids=ids, attention_mask=mask, token_type_ids=torch.zeros_like(ids)).last_hidden_state
        m = mask.unsqueeze(-1).float()
        v = (out * m).sum(1) / m.sum(1).clamp(min=1e-9)
        return torch.nn.functional.normalize(v, dim=-1)

    steps_per_epoch = sum(1 for _ in _batches(pairs, args.batch, random.Random(args.seed)))
    total = min(args.steps, steps_per_epoch * args.epochs) if args.steps else steps_per_epoch * args.epochs
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    warm = max(1, int(0.1 * total))
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min((s + 1) / warm, max(0.0, (total - s) / max(1, total - warm))))
    step, t0, losses = 0, time.monotonic(), []
    while step < total:
        for batch in _batches(pairs, args.batch, rng):
            q = encode([p["query"] for p in batch], 64)
            d = encode([p["passage"] for p in batch], args.passage_tokens)
            logits = args.scale * q @ d.T
            labels = torch.arange(len(batch))
            loss = torch.nn.functional.cross_entropy(logits, labels)
            if args.symmetric:
                loss = (loss + torch.nn.functional.cross_entropy(logits.T, labels)) / 2
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            losses.append(float(loss))
            step += 1
            if step % 10 == 0 or step == total:
                print(f"step {step}/{total} loss {np.mean(losses[-10:]):.4f} {time.monotonic() - t0:.0f}s", flush=True)
            if step >= total:
                break
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    model.eval()
    model.save_pretrained(str(out / "torch"))  # the weights, for interpolation with the base (``mix``)
    export(model, out / "model.onnx")
    for name in ("tokenizer.json", "config.json", "special_tokens_map.json", "tokenizer_config.json", "vocab.txt"):
        if (base / name).exists():
            (out / name).write_bytes((base / name).read_bytes())
    (out / "training.json").write_text(json.dumps({
        "base": "all-MiniLM-L6-v2", "pairs": len(pairs), "steps": total, "batch": args.batch, "lr": args.lr,
        "scale": args.scale, "symmetric": args.symmetric, "seed": args.seed,
        "seconds": round(time.monotonic() - t0), "final_loss": float(np.mean(losses[-20:]))}, indent=1))
    print(f"exported -> {out}")
    return 0


def mix(args) -> int:
    """Weight-space ensemble of the base and a tuned model (WiSE-FT): ``(1 - alpha) * base + alpha * tuned``."""
    from transformers import AutoModel

    from offline.reranker.model import base_model_dir

    base = AutoModel.from_pretrained(str(base_model_dir()))
    tuned = AutoModel.from_pretrained(str(Path(args.tuned) / "torch"))
    tuned_state = tuned.state_dict()
    mixed = {k: (1 - args.alpha) * v + args.alpha * tuned_state[k] if v.is_floating_point() else v
             for k, v in base.state_dict().items()}
    base.load_state_dict(mixed)
    base.eval()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    export(base, out / "model.onnx")
    for name in ("tokenizer.json", "config.json", "special_tokens_map.json", "tokenizer_config.json", "vocab.txt"):
        if (base_model_dir() / name).exists():
            (out / name).write_bytes((base_model_dir() / name).read_bytes())
    (out / "mix.json").write_text(json.dumps({"wise_ft_alpha": args.alpha, "tuned": json.loads(
        (Path(args.tuned) / "training.json").read_text())}, indent=1))
    print(f"alpha {args.alpha} -> {out}")
    return 0


def export(model, path: Path) -> None:
    import torch

    class _Hidden(torch.nn.Module):
        def __init__(self, inner) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.inner(input_ids=input_ids, attention_mask=attention_mask,
                              token_type_ids=token_type_ids).last_hidden_state

    names = ["input_ids", "attention_mask", "token_type_ids"]
    dummy = tuple(torch.ones(2, 16, dtype=torch.long) for _ in names)
    axes = {n: {0: "batch", 1: "sequence"} for n in names}
    axes["last_hidden_state"] = {0: "batch", 1: "sequence"}
    with torch.inference_mode():
        torch.onnx.export(_Hidden(model), dummy, str(path), input_names=names, output_names=["last_hidden_state"],
                          dynamic_axes=axes, opset_version=17, do_constant_folding=True, dynamo=False)


# -- evaluation -------------------------------------------------------------------------------------------
def _eval_sets() -> dict[str, tuple[dict, dict, dict]]:
    """name -> (corpus {id: text}, queries {id: text}, qrels {qid: {did: grade}}) for every fusion-bench set."""
    from fusion_bench import SETS, TEST_SETS, TUNE_SETS

    from offline.eval.beir import load_beir, load_qrels, read_id_list

    out = {}
    loaded: dict[str, dict] = {}
    for name in TUNE_SETS + TEST_SETS:
        s = SETS[name]
        ds = load_beir(s.beir, split=s.split)
        qrels = load_qrels(s.qrels) if s.qrels else ds.qrels
        corpus = loaded.setdefault(str(s.beir), ds.corpus)
        if s.ids:
            keep = set(read_id_list(s.ids))
            qrels = {q: r for q, r in qrels.items() if q in keep}
        if s.exclude:
            drop = set(read_id_list(s.exclude))
            qrels = {q: r for q, r in qrels.items() if q not in drop}
        qrels = {q: {d: g for d, g in r.items() if g > 0} for q, r in qrels.items()}
        qrels = {q: r for q, r in qrels.items() if r and q in ds.queries}
        queries = ds.queries
        out[name] = (corpus, queries, qrels)
    return out


def evaluate(args) -> int:
    from embedder_candidates import Encoder, parse_model

    from offline.eval.metrics import ndcg_at_k, paired_randomization_p

    models = [parse_model(spec) for spec in args.model]
    sets = _eval_sets()
    cache = WORK / "vectors"
    cache.mkdir(parents=True, exist_ok=True)
    per_query: dict[str, dict[str, np.ndarray]] = {}
    for name, directory, settings in models:
        enc = Encoder(name, directory, settings, args.threads)
        per_query[name] = {}
        corpus_vecs: dict[str, tuple[list[str], np.ndarray]] = {}
        for set_name, (corpus, queries, qrels) in sets.items():
            beir_key = str(id(corpus))
            if beir_key not in corpus_vecs:
                key = cache / f"{enc.key()}-{hashlib.sha1(chr(31).join(sorted(corpus)).encode()).hexdigest()[:12]}.npy"
                ids = sorted(corpus)
                if key.exists():
                    vecs = np.load(key)
                else:
                    t0 = time.monotonic()
                    texts = [(corpus[i].title.strip() + " " + corpus[i].text).strip() for i in ids]
                    vecs = enc.encode_ids(enc.tokenize(texts, settings["pp"]))
                    np.save(key, vecs)
                    print(f"  {name} {set_name}: {len(ids)} docs in {time.monotonic() - t0:.0f}s", flush=True)
                corpus_vecs[beir_key] = (ids, vecs)
            ids, vecs = corpus_vecs[beir_key]
            qids = sorted(qrels)
            qv = enc.encode_ids(enc.tokenize([queries[q] for q in qids], settings["qp"]))
            scores = qv @ vecs.T
            top = np.argsort(-scores, axis=1)[:, :10]
            per_query[name][set_name] = {q: ndcg_at_k([ids[j] for j in row], qrels[q], 10) for q, row in zip(qids, top)}
    base = models[0][0]
    def made(directory: Path) -> dict:
        for name in ("training.json", "mix.json"):
            if (directory / name).exists():
                return json.loads((directory / name).read_text())
        return {}

    row = {"when": time.strftime("%Y-%m-%dT%H:%M:%S"), "bench": "dense_documents",
           "models": {n: {"dir": str(d), **made(d)} for n, d, _ in models}, "ndcg@10": {}}
    print(f"{'set':<24}" + "".join(f"{n:>16}" for n, _, _ in models) + "   delta (p)")
    for set_name in sets:
        vals = {n: float(np.mean(list(per_query[n][set_name].values()))) for n, _, _ in models}
        row["ndcg@10"][set_name] = vals
        deltas = "  ".join(f"{vals[n] - vals[base]:+.4f} (p={paired_randomization_p(per_query[base][set_name], per_query[n][set_name]):.3f})"
                           for n, _, _ in models[1:])
        print(f"{set_name:<24}" + "".join(f"{vals[n]:>16.4f}" for n, _, _ in models) + "   " + deltas)
    if args.record:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        with open(RESULTS, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(row) + "\n")
    return 0


def product(args) -> int:
    """Paired comparison of two ``strata eval retrieval`` reports per set (the same queries, the product's
    chunks and fusion): ``--pair NAME=BASE_REPORT_DIR,TUNED_REPORT_DIR``."""
    from offline.eval.metrics import paired_randomization_p

    row = {"when": time.strftime("%Y-%m-%dT%H:%M:%S"), "bench": "product_eval_retrieval", "ndcg@10": {}}
    for spec in args.pair:
        name, _, dirs = spec.partition("=")
        base_dir, tuned_dir = (Path(os.path.expanduser(d)) for d in dirs.split(","))
        reports = [json.loads((d / "report.json").read_text()) for d in (base_dir, tuned_dir)]
        data = reports[0]["dataset"]
        row["ndcg@10"][name] = {"queries": len(reports[0]["results"][0]["per_query"]), "split": data.get("split"),
                                "queries_file": data.get("queries_file"),
                                "embedders": [rep["meta"].get("models", {}).get("embedder_dir")
                                              or rep["meta"].get("models", {}).get("embedder") for rep in reports]}
        cells = []
        for config in ("bm25", "dense", "default"):
            per = [{r["name"]: r for r in rep["results"]}[config]["per_query"] for rep in reports]
            a, b = ({q: scores["ndcg@10"] for q, scores in p.items()} for p in per)
            pval = paired_randomization_p(a, b)
            a, b = np.array(list(a.values())), np.array(list(b.values()))
            row["ndcg@10"][name][config] = {"base": float(a.mean()), "tuned": float(b.mean()), "p": pval}
            cells.append(f"{config} {a.mean():.4f} -> {b.mean():.4f} ({b.mean() - a.mean():+.4f}, p={pval:.3f})")
        print(f"{name:<16}" + " | ".join(cells))
    if args.record:
        with open(RESULTS, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(row) + "\n")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pairs")
    p.add_argument("--per-source", type=int, default=2500)
    p.add_argument("--per-doc", type=int, default=6)
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--ict", action="store_true", help="also inverse-cloze pairs (a section's first 60 words -> the next 180)")
    p.add_argument("--out", default=str(WORK / "pairs.jsonl"))
    t = sub.add_parser("train")
    t.add_argument("--steps", type=int, default=0, help="stop after N steps (0: the epochs)")
    t.add_argument("--epochs", type=int, default=1)
    t.add_argument("--batch", type=int, default=48)
    t.add_argument("--lr", type=float, default=2e-5)
    t.add_argument("--scale", type=float, default=20.0)
    t.add_argument("--symmetric", action="store_true")
    t.add_argument("--max-pairs", type=int, default=0)
    t.add_argument("--pairs", default=str(WORK / "pairs.jsonl"))
    t.add_argument("--passage-tokens", type=int, default=256)
    t.add_argument("--threads", type=int, default=2)
    t.add_argument("--seed", type=int, default=13)
    t.add_argument("--out", default=str(WORK / "tuned"))
    m = sub.add_parser("mix")
    m.add_argument("--tuned", default=str(WORK / "tuned"))
    m.add_argument("--alpha", type=float, default=0.5)
    m.add_argument("--out", default=str(WORK / "mixed"))
    e = sub.add_parser("eval")
    e.add_argument("--model", action="append",
                   default=None, help="NAME=DIR[,...] as in bench/embedder_candidates.py; the first is the baseline")
    e.add_argument("--threads", type=int, default=2)
    e.add_argument("--record", action="store_true")
    r = sub.add_parser("product")
    r.add_argument("--pair", action="append", required=True, help="NAME=BASE_REPORT_DIR,TUNED_REPORT_DIR")
    r.add_argument("--record", action="store_true")
    args = ap.parse_args()
    if args.cmd == "pairs":
        return build_pairs(args)
    if args.cmd == "train":
        return train(args)
    if args.cmd == "mix":
        return mix(args)
    if args.cmd == "product":
        return product(args)
    if not args.model:
        home = Path.home() / ".local" / "share" / "strata" / "models" / "all-minilm-l6-v2"
        args.model = [f"minilm={home}", f"tuned={WORK / 'tuned'},preset=minilm"]
    return evaluate(args)


if __name__ == "__main__":
    raise SystemExit(main())
