"""Load and faults, measured: N clients of mixed ``/v1/search``, ``/v1/context`` and ``/v1/answer``
for a bounded time against ``strata serve`` (the defaults, loopback only) while ``strata ingest``
commits new documents; optionally with replicas and the ingest's embed actor killed at random moments.

    .venv/bin/python bench/load_bench.py                          # 8 clients, 120 s, no faults
    .venv/bin/python bench/load_bench.py --faults retriever,reranker,embed
    .venv/bin/python bench/load_bench.py --clients 4 --seconds 30 --faults retriever --batches 2

What it does, in a fresh work directory (``--work``, default a temporary one):

1. ingests ``samples/corpus`` with ``strata ingest`` (the defaults), then starts ``strata serve`` and
   waits for ``/readyz``;
2. runs ``--clients`` workers for ``--seconds``, each with one request in flight, picking search /
   context / answer by ``--mix`` (queries: the index's document and section titles);
3. meanwhile writes ``--batches`` batches of SciFact abstracts (``../shared/data/scifact``) as
   Markdown files and runs ``strata ingest`` on each, one after another; an ingest that fails
   (for example, its embed actor was killed) is run again, as an operator would: it resumes;
4. with ``--faults``, SIGKILLs each named process once, at a random moment of the run:
   ``retriever`` (a ``HybridRetriever`` replica), ``reranker`` (the ``Reranker`` replica),
   ``embed`` (the ingest's embed actor; waited for until an ingest runs one);
5. after the run: waits until ``/readyz`` answers 200 and every killed replica has a successor
   process, then checks the index: exactly the files ingested (no duplicates, no gaps), every
   document's chunks present, BM25 holding one posting document per chunk.

Goals (the exit status is 1 when one fails): every endpoint answered 200 to at least
``--min-success`` of its requests, and each 200 of search/context holds hits/passages; no 5xx other
than 503 (a replica restarting); every response a clear status with a JSON error body; the index
exact; each killed replica replaced by itself **and serving again**: a request that needs it (search,
context or answer for the retriever; answer for the reranker) started after its successor appeared
and got a 200; a killed embed actor's ingest finished on a later attempt.
It prints latency p50/p99 and counts by status per endpoint, and appends one JSON line to
``bench/results/load.jsonl``.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench.serve_bench import free_port, percentile  # noqa: E402  (the serving bench's helpers)

RESULTS = REPO / "bench" / "results" / "load.jsonl"
SCIFACT = REPO.parent / "shared" / "data" / "scifact"
STRATA = [sys.executable, "-m", "cli"]
#: the endpoints whose every request goes through a fault target's deployment
NEEDED_BY = {"retriever": ("search", "context", "answer"), "reranker": ("answer",)}
TARGETS = {  # fault name → process title prefix (Ray sets ``ray::<actor class or replica>``)
    "retriever": "ray::ServeReplica:strata:HybridRetriever",
    "reranker": "ray::ServeReplica:strata:Reranker",
    "embed": "ray::MapWorker(MapBatches(EmbedDocuments))",
}


# -- processes ----------------------------------------------------------------------------------------
def run_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def strata(data_dir: Path, *args: str, log: Path, timeout: float = 1800) -> tuple[int, float]:
    """Run one ``strata`` command to completion; (exit status, seconds)."""
    t0 = time.monotonic()
    with open(log, "a") as fh:
        fh.write(f"\n$ strata --data-dir {data_dir} {' '.join(args)}\n")
        fh.flush()
        proc = subprocess.run([*STRATA, "--data-dir", str(data_dir), *args], cwd=REPO, env=run_env(),
                              stdout=fh, stderr=subprocess.STDOUT, timeout=timeout)
    return proc.returncode, time.monotonic() - t0


def processes(prefix: str) -> list:
    """Live processes whose command line starts with ``prefix`` (Ray's process titles)."""
    import psutil

    out = []
    for proc in psutil.process_iter(["pid", "cmdline"]):
        cmd = proc.info.get("cmdline") or []
        if cmd and cmd[0].startswith(prefix):
            out.append(proc)
    return out


class Server:
    """``strata serve`` on a free loopback port, in its own session; stopped with SIGINT (then SIGKILL)."""

    def __init__(self, data_dir: Path, log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.fh = open(log, "a")
        self.proc = subprocess.Popen([*STRATA, "--data-dir", str(data_dir), "serve", "--port", str(self.port)],
                                     cwd=REPO, env=run_env(), stdout=self.fh, stderr=subprocess.STDOUT,
                                     start_new_session=True)

    def ready(self, timeout: float) -> float:
        import urllib.request

        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"strata serve exited ({self.proc.returncode}); see {self.fh.name}")
            try:
                with urllib.request.urlopen(f"{self.url}/readyz", timeout=10) as r:
                    if r.status == 200:
                        return time.monotonic() - t0
            except Exception:  # noqa: BLE001 - not up yet
                pass
            time.sleep(1)
        raise RuntimeError(f"strata serve not ready after {timeout:.0f} s; see {self.fh.name}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(timeout=90)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.fh.close()


# -- the corpus that is ingested during the run ----------------------------------------------------------
def scifact_batches(root: Path, batches: int, per_batch: int, seed: int) -> list[list[Path]]:
    """``batches`` × ``per_batch`` SciFact abstracts written as Markdown under ``root`` (not yet visible to
    an ingest: each batch is moved into the ingest directory when its turn comes)."""
    docs = []
    with gzip.open(SCIFACT / "corpus.jsonl.gz", "rt") if (SCIFACT / "corpus.jsonl.gz").exists() \
            else open(SCIFACT / "corpus.jsonl") as fh:
        for line in fh:
            row = json.loads(line)
            docs.append(row)
    rng = random.Random(seed)
    picked = rng.sample(docs, batches * per_batch)
    out: list[list[Path]] = []
    for b in range(batches):
        folder = root / f"batch-{b:02d}"
        folder.mkdir(parents=True)
        paths = []
        for row in picked[b * per_batch:(b + 1) * per_batch]:
            path = folder / f"scifact-{row['_id']}.md"
            path.write_text(f"# {row.get('title') or row['_id']}\n\n{row['text']}\n", encoding="utf-8")
            paths.append(path)
        out.append(paths)
    return out


@dataclass
class IngestLog:
    runs: list[dict] = field(default_factory=list)
    expected: set[str] = field(default_factory=set)
    failed_batches: int = 0


def ingest_during_run(data_dir: Path, batches: list[list[Path]], inbox: Path, log: Path, state: IngestLog,
                      stop: threading.Event, pause_s: float) -> None:
    """Move each batch into ``inbox`` and ingest it (source ``inbox``); a failed ingest runs again (≤ 2 times)."""
    for b, paths in enumerate(batches):
        if stop.is_set():
            return
        for path in paths:
            shutil.move(str(path), inbox / path.name)
        for attempt in range(3):
            rc, seconds = strata(data_dir, "ingest", str(inbox), log=log)
            state.runs.append({"batch": b, "attempt": attempt + 1, "rc": rc, "seconds": round(seconds, 1)})
            if rc == 0:
                state.expected.update(p.name for p in paths)
                break
        else:
            state.failed_batches += 1
        stop.wait(pause_s)


# -- faults --------------------------------------------------------------------------------------------
@dataclass
class Fault:
    target: str
    at_s: float
    killed_pid: int | None = None
    killed_at_s: float | None = None
    back_after_s: float | None = None
    served_again: bool = False
    served_after_run: bool = False
    note: str = ""


def inject(faults: list[Fault], t0: float, stop: threading.Event, wait_for_embed_s: float) -> None:
    """Kill each fault's process at its moment (the embed actor: as soon as one exists, up to ``wait_for_embed_s``
    later), then record when a successor process of the same kind appears."""
    for fault in sorted(faults, key=lambda f: f.at_s):
        while not stop.is_set() and time.monotonic() - t0 < fault.at_s:
            stop.wait(0.2)
        deadline = time.monotonic() + (wait_for_embed_s if fault.target == "embed" else 10)
        victims = []
        while not victims and time.monotonic() < deadline:
            victims = processes(TARGETS[fault.target])
            if not victims:
                time.sleep(0.25)
        if not victims:
            fault.note = "no such process during the run"
            continue
        victim = random.choice(victims)
        try:
            victim.send_signal(signal.SIGKILL)
        except Exception as exc:  # noqa: BLE001 - it may have exited by itself
            fault.note = f"kill failed: {exc}"
            continue
        fault.killed_pid, fault.killed_at_s = victim.pid, time.monotonic() - t0
    for fault in faults:
        if fault.killed_pid is None or fault.target == "embed":
            continue  # an embed actor lives only as long as its ingest: the ingest's result says what happened
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if any(p.pid != fault.killed_pid for p in processes(TARGETS[fault.target])):
                fault.back_after_s = round(time.monotonic() - t0 - fault.killed_at_s, 1)
                break
            time.sleep(0.5)


# -- load ----------------------------------------------------------------------------------------------
@dataclass
class Outcome:
    endpoint: str
    status: str
    ms: float
    clear: bool  # a JSON body; for errors, with an "error" message
    started_s: float = 0.0  # since the run started
    useful: bool = False  # a 200 with content: hits (search), passages (context), an answer or a refusal


def sample_queries(data_dir: Path, seed: int) -> list[str]:
    import lancedb

    db = lancedb.connect(str(data_dir / "lance"))
    titles = db.open_table("documents").to_lance().to_table(columns=["title"]).column("title").to_pylist()
    titles += db.open_table("sections").to_lance().to_table(columns=["title"]).column("title").to_pylist()
    queries = list(dict.fromkeys(t.strip() for t in titles if t and 2 <= len(t.split()) and len(t) <= 200))
    random.Random(seed).shuffle(queries)
    return queries


def useful(endpoint: str, data: object) -> bool:
    """A 200 body that holds what the endpoint is for (an empty 200 is not a success)."""
    if not isinstance(data, dict):
        return False
    if endpoint == "search":
        return bool(data.get("hits"))
    if endpoint == "context":
        return bool(data.get("passages"))
    return bool(data.get("answer")) or bool(data.get("refused"))


async def load(url: str, queries: list[str], clients: int, seconds: float, mix: dict[str, float], seed: int,
               headers: dict[str, str], timeout_s: float, t0: float | None = None) -> list[Outcome]:
    import aiohttp

    rng = random.Random(seed)
    endpoints, weights = list(mix), list(mix.values())
    outcomes: list[Outcome] = []
    deadline = time.monotonic() + seconds
    t0 = time.monotonic() if t0 is None else t0

    def body(endpoint: str, query: str) -> dict:
        if endpoint == "answer":
            return {"question": query}
        return {"query": query, "top_k": 10 if endpoint == "search" else 8}

    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout_s), headers=headers) as session:
        async def worker() -> None:
            while time.monotonic() < deadline:
                endpoint = rng.choices(endpoints, weights)[0]
                query = rng.choice(queries)
                started, started_at, good = time.perf_counter(), time.monotonic() - t0, False
                try:
                    async with session.post(f"{url}/v1/{endpoint}", json=body(endpoint, query)) as resp:
                        text = await resp.text()
                        status = str(resp.status)
                    try:
                        data = json.loads(text)
                        clear = isinstance(data, dict) and (status == "200" or bool(data.get("error")))
                        good = status == "200" and useful(endpoint, data)
                    except json.JSONDecodeError:
                        clear = False
                except Exception as exc:  # noqa: BLE001 - a connection error is an outcome too
                    status, clear = type(exc).__name__, False
                outcomes.append(Outcome(endpoint, status, (time.perf_counter() - started) * 1000, clear,
                                        started_at, good))

        await asyncio.gather(*(worker() for _ in range(clients)))
    return outcomes


def served_after(url: str, endpoint: str, query: str, headers: dict[str, str], timeout_s: float = 180) -> bool:
    """Whether ``endpoint`` answers 200 with content within ``timeout_s`` (one request at a time)."""
    import urllib.error
    import urllib.request

    body = json.dumps({"question": query} if endpoint == "answer" else {"query": query, "use_cache": False}).encode()
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        request = urllib.request.Request(f"{url}/v1/{endpoint}", data=body, method="POST",
                                         headers={"Content-Type": "application/json", **headers})
        try:
            with urllib.request.urlopen(request, timeout=60) as resp:
                if resp.status == 200 and useful(endpoint, json.loads(resp.read())):
                    return True
        except (urllib.error.URLError, OSError, json.JSONDecodeError):
            pass
        time.sleep(1)
    return False


def summarize(outcomes: list[Outcome]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for endpoint in sorted({o.endpoint for o in outcomes}):
        rows = [o for o in outcomes if o.endpoint == endpoint]
        ok = [o.ms for o in rows if o.status == "200"]
        by_status: dict[str, int] = {}
        for o in rows:
            by_status[o.status] = by_status.get(o.status, 0) + 1
        out[endpoint] = {"requests": len(rows), "ok": len(ok), "useful": sum(o.useful for o in rows),
                         "p50_ms": round(percentile(ok, 50), 1),
                         "p99_ms": round(percentile(ok, 99), 1), "by_status": by_status,
                         "unclear": sum(not o.clear for o in rows)}
    return out


# -- the index after the run ---------------------------------------------------------------------------------
def check_index(data_dir: Path, initial: set[str], ingested: set[str]) -> dict:
    """Documents by file name against what was ingested; chunk rows against ``n_chunks``; BM25 against chunks."""
    import lancedb

    from cluster.store.bm25 import Bm25Index

    db = lancedb.connect(str(data_dir / "lance"))
    docs = db.open_table("documents").to_lance().to_table(columns=["doc_id", "path", "n_chunks"]).to_pylist()
    chunk_ids = db.open_table("chunks").to_lance().to_table(columns=["doc_id"]).column("doc_id").to_pylist()
    per_doc: dict[str, int] = {}
    for doc_id in chunk_ids:
        per_doc[doc_id] = per_doc.get(doc_id, 0) + 1
    names = [Path(d["path"]).name if d["path"] else "" for d in docs]
    expected = initial | ingested
    duplicates = sorted({n for n in names if names.count(n) > 1})
    short = [d["doc_id"] for d in docs if per_doc.get(d["doc_id"], 0) != (d["n_chunks"] or 0)]
    orphans = sorted(set(per_doc) - {d["doc_id"] for d in docs})
    bm25_docs = Bm25Index(data_dir / "bm25").num_docs()
    report = {"documents": len(docs), "expected": len(expected), "missing": sorted(expected - set(names))[:10],
              "unexpected": sorted(set(names) - expected)[:10], "duplicates": duplicates[:10],
              "documents_with_wrong_chunk_count": len(short), "orphan_chunk_docs": len(orphans),
              "chunks": len(chunk_ids), "bm25_docs": bm25_docs}
    report["exact"] = (not report["missing"] and not report["unexpected"] and not duplicates and not short
                       and not orphans and bm25_docs == len(chunk_ids))
    return report


def corpus_names(root: Path) -> set[str]:
    return {p.name for p in root.rglob("*") if p.is_file()}


# -- main --------------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--mix", default="search=0.6,context=0.25,answer=0.15", help="endpoint=weight,…")
    ap.add_argument("--faults", default="", help="comma list of: " + ", ".join(TARGETS))
    ap.add_argument("--batches", type=int, default=3, help="SciFact batches ingested during the run")
    ap.add_argument("--per-batch", type=int, default=40, help="abstracts per batch")
    ap.add_argument("--work", type=Path, default=None, help="work directory (default: a temporary one, removed)")
    ap.add_argument("--api-key", default=os.environ.get("STRATA_API_KEY"), help="Bearer key (when auth is on)")
    ap.add_argument("--request-timeout", type=float, default=120)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--min-success", type=float, default=0.5,
                    help="goal: the share of each endpoint's requests answered 200 with content")
    ap.add_argument("--no-record", action="store_true", help="do not append to bench/results/load.jsonl")
    args = ap.parse_args(argv)

    mix = {k.strip(): float(v) for k, _, v in (p.partition("=") for p in args.mix.split(",") if p.strip())}
    unknown = [f for f in filter(None, args.faults.split(",")) if f not in TARGETS]
    if unknown:
        ap.error(f"unknown fault(s) {unknown}; choose from {sorted(TARGETS)}")
    rng = random.Random(args.seed)
    work = args.work or Path(tempfile.mkdtemp(prefix="strata-load-"))
    work.mkdir(parents=True, exist_ok=True)
    data_dir, log = work / "data", work / "load_bench.log"
    initial_src = work / "samples"
    if not initial_src.exists():
        shutil.copytree(REPO / "samples" / "corpus", initial_src)
    inbox = work / "inbox"
    inbox.mkdir(exist_ok=True)
    pending = work / "pending"
    shutil.rmtree(pending, ignore_errors=True)
    batches = scifact_batches(pending, args.batches, args.per_batch, args.seed)
    print(f"work directory {work} (log: {log})", flush=True)

    rc, seconds = strata(data_dir, "ingest", str(initial_src), log=log)
    if rc != 0:
        print(f"the initial ingest failed ({rc}); see {log}")
        return 2
    print(f"initial ingest of samples/corpus: {seconds:.0f} s", flush=True)
    server = Server(data_dir, log)
    failures: list[str] = []
    try:
        ready_s = server.ready(900)
        print(f"strata serve ready in {ready_s:.0f} s on {server.url}", flush=True)
        queries = sample_queries(data_dir, args.seed)
        faults = [Fault(t, at_s=rng.uniform(0.15, 0.7) * args.seconds) for t in filter(None, args.faults.split(","))]
        stop = threading.Event()
        ingests = IngestLog()
        t0 = time.monotonic()
        ingester = threading.Thread(target=ingest_during_run, daemon=True, args=(
            data_dir, batches, inbox, log, ingests, stop, 2.0))
        injector = threading.Thread(target=inject, daemon=True, args=(faults, t0, stop, args.seconds))
        ingester.start()
        injector.start()
        headers = {"Authorization": f"Bearer {args.api_key}"} if args.api_key else {}
        outcomes = asyncio.run(load(server.url, queries, args.clients, args.seconds, mix, args.seed, headers,
                                    args.request_timeout, t0))
        wall = time.monotonic() - t0
        ingester.join()  # every batch that started is finished (and retried) before the index is checked
        stop.set()
        injector.join(timeout=330)
        recovered_s = server.ready(300)
        for fault in faults:  # a successor that appeared after the last request: does it serve now?
            if fault.target != "embed" and fault.back_after_s is not None:
                fault.served_after_run = served_after(server.url, NEEDED_BY[fault.target][-1], queries[0], headers)
    finally:
        server.stop()

    summary = summarize(outcomes)
    index = check_index(data_dir, corpus_names(initial_src), ingests.expected)
    bad_5xx = {ep: {s: n for s, n in row["by_status"].items() if s.startswith("5") and s != "503"}
               for ep, row in summary.items()}
    if any(bad_5xx.values()):
        failures.append(f"5xx other than 503: {bad_5xx}")
    unclear = {ep: row["unclear"] for ep, row in summary.items() if row["unclear"]}
    if unclear:
        failures.append(f"responses without a clear status and JSON body: {unclear}")
    if not index["exact"]:
        failures.append(f"the index is not exact: {index}")
    if ingests.failed_batches:
        failures.append(f"{ingests.failed_batches} batch(es) failed 3 ingests in a row")
    not_back = [f.target for f in faults if f.killed_pid and f.target != "embed" and f.back_after_s is None]
    if not_back:
        failures.append(f"not restarted: {not_back}")
    for endpoint in mix:
        row = summary.get(endpoint, {"requests": 0, "useful": 0})
        if not row["requests"] or row["useful"] / row["requests"] < args.min_success:
            failures.append(f"{endpoint}: {row['useful']} of {row['requests']} requests answered 200 with content "
                            f"(goal ≥ {args.min_success:.0%})")
    for fault in faults:
        if fault.target == "embed" or fault.killed_pid is None or fault.back_after_s is None:
            continue
        back_at = fault.killed_at_s + fault.back_after_s
        served = [o for o in outcomes if o.useful and o.endpoint in NEEDED_BY[fault.target] and o.started_s >= back_at]
        fault.served_again = bool(served) or fault.served_after_run
        if not fault.served_again:
            failures.append(f"{fault.target}: no request that needs it succeeded after its successor appeared "
                            f"({back_at:.0f} s into the run)")

    print(f"\n{args.clients} clients × {wall:.0f} s, mix {args.mix}; faults: {args.faults or 'none'}")
    print(f"{'endpoint':<9} {'requests':>8} {'ok':>6} {'p50 ms':>8} {'p99 ms':>8}  by status")
    for endpoint, row in summary.items():
        print(f"{endpoint:<9} {row['requests']:>8} {row['useful']:>6} {row['p50_ms']:>8.0f} {row['p99_ms']:>8.0f}  "
              f"{row['by_status']}")
    for run in ingests.runs:
        print(f"ingest batch {run['batch']} attempt {run['attempt']}: exit {run['rc']} in {run['seconds']} s")
    for fault in faults:
        print(f"fault {fault.target}: " + (f"killed pid {fault.killed_pid} at {fault.killed_at_s:.0f} s"
                                           + (f", successor after {fault.back_after_s} s" if fault.back_after_s else "")
                                           + (", served again" if fault.served_again else "")
                                           if fault.killed_pid else fault.note))
    print(f"index: {index['documents']} documents ({index['expected']} expected), {index['chunks']} chunks, "
          f"{index['bm25_docs']} BM25 docs — {'exact' if index['exact'] else 'NOT exact'}")
    print(f"app ready again {recovered_s:.0f} s after the run")
    print("goals: " + ("all met" if not failures else "FAILED\n  " + "\n  ".join(failures)))

    if not args.no_record:
        from datetime import datetime, timezone

        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                                text=True).stdout.strip()
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        with open(RESULTS, "a") as fh:
            fh.write(json.dumps({"date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "commit": commit,
                                 "clients": args.clients, "seconds": round(wall, 1), "mix": mix,
                                 "faults": [f.__dict__ for f in faults], "endpoints": summary,
                                 "ingests": ingests.runs, "index": index, "failures": failures,
                                 "load_avg": os.getloadavg()[0]}) + "\n")
    if args.work is None and not failures:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
