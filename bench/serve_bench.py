"""Serving benchmark: ``POST /v1/search`` latency (p50/p99) and throughput at 1, 8 and 32 concurrent
clients, the Ray Serve app next to a naive single-process pipeline, measured in the same run.

    .venv/bin/python bench/serve_bench.py                              # SciFact bench index, 1,8,32 clients
    .venv/bin/python bench/serve_bench.py --data-dir DIR --requests 300 --rounds 2
    .venv/bin/python bench/serve_bench.py --rounds 2 --naive-variants "default:;t1:embedder.threads=1" \
        --variants "default:;t2:embedder_threads=2;nolog:logging.enable_access_log=false"

Systems (each started as its own subprocess, one at a time, on the same index):

* **naive** — one process: ``uvicorn`` serving :func:`serving.api.api_router.build_fastapi_app` with
  ``app.state.service = SearchService(cfg, LocalStages(cfg))`` (what :class:`serving.services.local.SearchPipeline`
  runs). The stages are plain calls that block the event loop, so requests are served one after another.
* **serve** — the real Ray Serve application (:func:`serving.app.build_application`) on an embedded
  Ray with ``--num-cpus`` (default 2) and its own temp dir, behind Serve's HTTP proxy.

``--variants`` / ``--naive-variants`` name knob sets (``cfg.serve`` keys, or ``section.key`` such as
``embedder.threads``), each a fresh start; ratios are against the first naive variant (and, with
several, also against the best naive one per level). ``--rounds N`` measures everything N times,
alternating the order, and reports medians (other work on the machine drifts over minutes).

Fairness: the same distinct queries in the same order go to every system (SciFact queries for a
SciFact index, else document and section titles sampled from the index); each level uses its own
slice, so no query repeats within a system; ``"use_cache": false`` on every request and
``serve.embedding_cache_size = serve.result_cache_size = 0`` in every config; same ``mode``
(default ``auto``) and ``top_k`` (10). Each system gets warm-up requests (other queries) first.
The load generator (aiohttp, exactly C workers each with one request in flight) runs in this
process; throughput is successful requests ÷ wall time of the level (including the drain at the end).
Server CPU time per request (user+system of the server process and all its descendants — for Serve
the replicas, proxy, controller, raylet, GCS and agents) is reported too: unlike wall time it barely
moves when other work shares the machine, and ``cores ÷ cpu-per-request`` bounds the throughput.

Figures print as a table; one JSON line per run is appended to ``bench/results/serve.jsonl`` (date,
git commit, load average, index tokens/chunks, knobs, per-round and median figures, CPU by
process, Serve÷naive ratios).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

RESULTS = REPO / "bench" / "results" / "serve.jsonl"
SCIFACT_WORK = Path(os.environ.get("STRATA_BENCH_DIR", Path.home() / ".cache" / "strata-bench")) / "scifact"
SCIFACT_QUERIES = REPO.parent / "shared" / "data" / "scifact" / "queries.jsonl"
NO_CACHE = {"embedding_cache_size": 0, "result_cache_size": 0}


# -- configuration --------------------------------------------------------------------------------
def parse_knobs(text: str) -> dict:
    """``"retriever_replicas=1,embedder.threads=1"`` → ``{"retriever_replicas": 1, "embedder.threads": 1}``."""
    out: dict = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, _, value = part.partition("=")
        if not _:
            raise SystemExit(f"bad knob {part!r}: use serve_key=value")
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out


def parse_variants(text: str) -> list[tuple[str, dict]]:
    """``"default:;r1:retriever_replicas=1"`` → ``[("default", {}), ("r1", {"retriever_replicas": 1})]``."""
    variants = []
    for item in filter(None, (v.strip() for v in text.split(";"))):
        name, _, knobs = item.partition(":")
        variants.append((name.strip(), parse_knobs(knobs)))
    return variants


def make_config(data_dir: str, knobs: dict):
    """The config of both systems: ``knobs`` are ``cfg.serve`` keys, or ``section.key`` for other
    sections (e.g. ``embedder.threads``); ``logging.*`` keys go to Serve's ``LoggingConfig`` (e.g.
    ``logging.enable_access_log=false``; the shipped deploy/serve config logs access); the caches are always off."""
    from cluster.config import dotted_overrides, load_config, merge_overrides

    settings = {k: v for k, v in knobs.items() if not k.startswith("logging.")}  # logging.*: Serve's, not Strata's
    overrides = merge_overrides({"storage": {"data_dir": data_dir}, "serve": {}},
                                dotted_overrides(settings, default_section="serve"))
    overrides["serve"].update(NO_CACHE)
    overrides.setdefault("answer", {}).setdefault("enabled", False)  # search only: no vLLM writer (answer_bench.py)
    return load_config(**overrides)


# -- the index ------------------------------------------------------------------------------------
def index_stats(data_dir: str) -> dict:
    import lancedb

    db = lancedb.connect(str(Path(data_dir) / "lance"))
    docs = db.open_table("documents").to_lance().to_table(columns=["source", "n_tokens", "n_chunks"])
    sources = sorted(set(docs.column("source").to_pylist()))
    return {"data_dir": str(data_dir), "documents": docs.num_rows,
            "tokens": int(sum(v or 0 for v in docs.column("n_tokens").to_pylist())),
            "chunks": int(sum(v or 0 for v in docs.column("n_chunks").to_pylist())),
            "sources": sources[:5]}


def load_queries(path: Path | None, data_dir: str, stats: dict, needed: int, seed: int) -> tuple[list[str], str]:
    """Distinct, realistic queries: a file (one per line, or JSONL with ``text``), SciFact's queries
    for a SciFact index, else titles of documents and sections sampled from the index."""
    if path is None and "scifact" in stats["sources"] and SCIFACT_QUERIES.exists():
        path = SCIFACT_QUERIES
    if path is not None:
        queries = []
        for line in path.read_text().splitlines():
            line = line.strip()
            if line:
                queries.append(json.loads(line)["text"] if line.startswith("{") else line)
        origin = str(path)
    else:
        import lancedb

        db = lancedb.connect(str(Path(data_dir) / "lance"))
        titles = db.open_table("documents").to_lance().to_table(columns=["title"]).column("title").to_pylist()
        titles += db.open_table("sections").to_lance().to_table(columns=["title"]).column("title").to_pylist()
        queries = [t.strip() for t in titles if t and len(t.split()) >= 2 and len(t) <= 200]
        origin = "document+section titles of the index"
    queries = list(dict.fromkeys(queries))  # distinct, first occurrence order
    random.Random(seed).shuffle(queries)
    if len(queries) < needed:
        raise SystemExit(f"{len(queries)} distinct queries from {origin}; need {needed} "
                         f"(lower --requests/--warmup or pass --queries FILE)")
    return queries, origin


# -- servers (subprocesses of this script) ----------------------------------------------------------
def run_naive_server(args: argparse.Namespace) -> None:
    import uvicorn

    from serving.api.api_router import build_fastapi_app
    from serving.services.search import SearchService
    from serving.services.stages import LocalStages

    cfg = make_config(args.data_dir, parse_knobs(args.knobs))
    stages = LocalStages(cfg)
    app = build_fastapi_app()
    app.state.service = SearchService(cfg, stages, stages.index)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning", access_log=False)


def run_serve_server(args: argparse.Namespace) -> None:
    import ray
    from ray import serve

    from serving.app import build_application

    os.environ.pop("RAY_ADDRESS", None)
    knobs = parse_knobs(args.knobs)
    cfg = make_config(args.data_dir, knobs)
    logging_config = {k.removeprefix("logging."): v for k, v in knobs.items() if k.startswith("logging.")} or None
    ray.init(num_cpus=args.num_cpus, include_dashboard=False, log_to_driver=False, _temp_dir=args.ray_temp_dir)
    stop = {"now": False}

    def _stop(*_):
        stop["now"] = True

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    try:
        serve.start(http_options={"host": "127.0.0.1", "port": args.port})
        serve.run(build_application(cfg), name="strata", route_prefix="/", logging_config=logging_config)
        print("serve app up", flush=True)
        while not stop["now"]:
            time.sleep(0.2)
    finally:
        try:
            serve.shutdown()
        finally:
            ray.shutdown()


def _label(cmd: list[str]) -> str:
    if not cmd:
        return "?"
    head = cmd[0]
    if head.startswith("ray::"):
        return head.split(".")[0].replace("ray::ServeReplica:strata:", "replica:")
    for part in cmd[:3]:
        base = Path(part).name
        if base in ("raylet", "gcs_server") or base.endswith(".py") and "python" not in base:
            return base
    return Path(head).name


class Server:
    """One system under test: a subprocess of this script, stopped (SIGTERM, then SIGKILL) on exit."""

    def __init__(self, role: str, data_dir: str, port: int, knobs: dict, extra: list[str], log: Path) -> None:
        self.role, self.port, self.log = role, port, log
        self.ready_s = 0.0
        cmd = [sys.executable, str(Path(__file__).resolve()), f"_{role}", "--data-dir", data_dir, "--port", str(port),
               "--knobs", ",".join(f"{k}={json.dumps(v)}" for k, v in knobs.items()), *extra]
        env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
        self.fh = open(log, "w")
        self.proc = subprocess.Popen(cmd, cwd=REPO, stdout=self.fh, stderr=subprocess.STDOUT, env=env,
                                     start_new_session=True)

    def wait_ready(self, timeout: float) -> float:
        import urllib.request

        t0 = time.monotonic()
        while time.monotonic() - t0 < timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.role} server exited ({self.proc.returncode}); see {self.log}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/readyz", timeout=5) as r:
                    if r.status == 200:
                        return time.monotonic() - t0
            except Exception:
                pass
            time.sleep(1)
        raise RuntimeError(f"{self.role} server not ready after {timeout}s; see {self.log}")

    def cpu_by_process(self) -> dict[str, float]:
        """User+system CPU seconds of the server process and all its descendants (for the Serve app:
        Ray's raylet, GCS, agents, Serve controller, proxy and replicas), keyed by a process label."""
        import psutil

        out: dict[str, float] = {}
        try:
            root = psutil.Process(self.proc.pid)
            procs = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            return out
        for proc in procs:
            try:
                t = proc.cpu_times()
                cmd = proc.cmdline()
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
            label = f"{self.role} driver" if proc.pid == root.pid else _label(cmd)
            out[label] = out.get(label, 0.0) + t.user + t.system
        return out

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.fh.close()


def start(role: str, data_dir: str, port: int, knobs: dict, extra: list[str], log: Path, timeout: float,
          attempts: int = 3) -> Server:
    """Start a server and wait until ``/readyz`` answers; retried, because Ray's node start can time
    out when the machine is busy ("The current node timed out during startup")."""
    for attempt in range(1, attempts + 1):
        server = Server(role, data_dir, port, knobs, extra, log)
        try:
            server.ready_s = server.wait_ready(timeout)
            return server
        except RuntimeError as exc:
            server.stop()
            if attempt == attempts:
                raise
            print(f"[{role}] start failed ({exc}); retrying ({attempt}/{attempts - 1})", flush=True)
            time.sleep(10)
    raise AssertionError("unreachable")


def free_port() -> int:
    """A free loopback port outside the kernel's ephemeral range (32768–60999) and Ray's worker ports
    (10002–19999). A port from ``bind(0)`` is ephemeral, and the connections of a Ray cluster starting in the
    meantime can take it before the server binds it (seen: Serve's proxy "Failed to bind to address")."""
    pick = random.SystemRandom()
    for _ in range(200):
        port = pick.randint(20000, 32000)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- load generation ---------------------------------------------------------------------------------
def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(q / 100 * len(ordered) + 0.5)) - 1))
    return ordered[k]


async def run_level(port: int, queries: list[str], concurrency: int, body: dict, timeout_s: float) -> dict:
    """``concurrency`` workers, each with exactly one request in flight, until ``queries`` are used up."""
    import aiohttp

    url = f"http://127.0.0.1:{port}/v1/search"
    todo = iter(queries)
    latencies: list[float] = []
    server_ms: dict[str, list[float]] = {}
    errors: dict[str, int] = {}

    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=concurrency, force_close=False),
                                     timeout=aiohttp.ClientTimeout(total=timeout_s)) as session:
        async def worker() -> None:
            for query in todo:
                t0 = time.perf_counter()
                try:
                    async with session.post(url, json={**body, "query": query}) as resp:
                        data = await resp.json(content_type=None)
                        status = resp.status
                except Exception as exc:  # noqa: BLE001 - counted, reported
                    errors[type(exc).__name__] = errors.get(type(exc).__name__, 0) + 1
                    continue
                elapsed = (time.perf_counter() - t0) * 1000
                if status != 200:
                    errors[str(status)] = errors.get(str(status), 0) + 1
                    continue
                latencies.append(elapsed)
                for stage, ms in (data.get("timings_ms") or {}).items():
                    server_ms.setdefault(stage, []).append(ms)

        t0 = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        wall = time.perf_counter() - t0

    return {"clients": concurrency, "requests": len(queries), "ok": len(latencies),
            "errors": sum(errors.values()), "error_kinds": errors, "wall_s": round(wall, 3),
            "throughput_rps": round(len(latencies) / wall, 2) if wall else 0.0,
            "p50_ms": round(percentile(latencies, 50), 1), "p99_ms": round(percentile(latencies, 99), 1),
            "mean_ms": round(statistics.fmean(latencies), 1) if latencies else None,
            "server_mean_ms": {k: round(statistics.fmean(v), 1) for k, v in sorted(server_ms.items())}}


def measure(name: str, server: Server, queries: list[str], warmup: int, levels: list[int], per_level: int,
            body: dict, timeout_s: float) -> dict:
    ready_s = server.ready_s
    print(f"[{name}] ready after {ready_s:.0f}s; warm-up {warmup} requests", flush=True)
    asyncio.run(run_level(server.port, queries[:warmup], min(4, max(1, warmup)), body, timeout_s))
    out = {"ready_s": round(ready_s, 1), "levels": []}
    offset = warmup
    for c in levels:
        cpu0, client0 = server.cpu_by_process(), time.process_time()
        res = asyncio.run(run_level(server.port, queries[offset:offset + per_level], c, body, timeout_s))
        cpu1, client1 = server.cpu_by_process(), time.process_time()
        offset += per_level
        per_req = {k: (v - cpu0.get(k, 0.0)) * 1000 / max(1, res["ok"]) for k, v in cpu1.items()}
        res["server_cpu_ms_per_request"] = round(sum(per_req.values()), 1)
        res["server_cpu_ms_by_process"] = {k: round(v, 1) for k, v in sorted(per_req.items(), key=lambda kv: -kv[1])
                                           if v >= 0.5}
        res["client_cpu_ms_per_request"] = round((client1 - client0) * 1000 / max(1, res["ok"]), 1)
        out["levels"].append(res)
        print(f"[{name}] {c:>3} clients: p50 {res['p50_ms']:8.1f} ms  p99 {res['p99_ms']:8.1f} ms  "
              f"{res['throughput_rps']:6.2f} req/s  errors {res['errors']}  "
              f"cpu {res['server_cpu_ms_per_request']} ms/req  server {res['server_mean_ms']}\n"
              f"        cpu by process (ms/req): {res['server_cpu_ms_by_process']}", flush=True)
    return out


# -- driver ---------------------------------------------------------------------------------------------
def git_commit() -> str | None:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True,
                              check=True).stdout.strip()
    except Exception:
        return None


def cpu_load() -> list[float]:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


SERVE_KEYS = ("ingress_replicas", "embedder_replicas", "retriever_replicas", "expander_replicas", "ingress_cpus",
              "embedder_cpus", "retriever_cpus", "expander_cpus", "embedder_threads", "max_ongoing_requests",
              "max_batch_size", "batch_wait_timeout_s", "embedding_cache_size", "result_cache_size")


def summarise(runs: list[dict]) -> list[dict]:
    """Per level, the median over rounds of each figure (a round's figures are kept in ``rounds``)."""
    out = []
    for i, first in enumerate(runs[0]["levels"]):
        per = [r["levels"][i] for r in runs]
        out.append({"clients": first["clients"], "rounds": len(per),
                    **{k: round(statistics.median(lv[k] for lv in per), 2) for k in (
                        "throughput_rps", "p50_ms", "p99_ms", "server_cpu_ms_per_request")},
                    "errors": sum(lv["errors"] for lv in per)})
    return out


def ratios(levels: list[dict], base: dict[int, dict]) -> dict[str, dict]:
    return {str(lv["clients"]): {"throughput": round(lv["throughput_rps"] / b["throughput_rps"], 3),
                                 "p50": round(lv["p50_ms"] / b["p50_ms"], 3),
                                 "p99": round(lv["p99_ms"] / b["p99_ms"], 3)}
            for lv in levels if (b := base.get(lv["clients"])) and b["throughput_rps"]}


def print_table(index: dict, results: dict[str, dict], base: dict[int, dict], base_name: str) -> None:
    print(f"\nindex {index['data_dir']}: {index['tokens']:,} tokens, {index['chunks']:,} chunks, "
          f"{index['documents']:,} documents")
    head = f"{'system':<26}{'clients':>8}{'p50 ms':>10}{'p99 ms':>10}{'req/s':>9}{'errors':>8}" \
           f"{'cpu ms/req':>12}{'req/s ÷ naive':>15}{'p50 ÷ naive':>13}"
    print(head)
    print("-" * len(head))
    for name, res in results.items():
        for lv in res["summary"]:
            b = base.get(lv["clients"])
            tr = f"{lv['throughput_rps'] / b['throughput_rps']:.2f}" if b and not name.startswith("naive") else ""
            pr = f"{lv['p50_ms'] / b['p50_ms']:.2f}" if b and not name.startswith("naive") else ""
            print(f"{name:<26}{lv['clients']:>8}{lv['p50_ms']:>10.1f}{lv['p99_ms']:>10.1f}{lv['throughput_rps']:>9.2f}"
                  f"{lv['errors']:>8}{lv['server_cpu_ms_per_request']:>12.1f}{tr:>15}{pr:>13}")
    print(f"ratios against {base_name}")
    for name, res in results.items():
        print(f"  {name}: {res['knobs'] or '(defaults)'}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data-dir", default=str(SCIFACT_WORK),
                    help="an existing Strata index (storage.data_dir); default: the SciFact bench index")
    ap.add_argument("--clients", default="1,8,32", help="concurrency levels")
    ap.add_argument("--requests", type=int, default=200, help="requests per level (distinct queries)")
    ap.add_argument("--warmup", type=int, default=20, help="warm-up requests per system (other queries)")
    ap.add_argument("--port", type=int, default=0, help="Serve HTTP port (naive: port+1); 0 picks free ports")
    ap.add_argument("--queries", type=Path, default=None,
                    help="one query per line (or JSONL with 'text'); default: SciFact queries or index titles")
    ap.add_argument("--mode", default="auto", help="request mode (both systems)")
    ap.add_argument("--top-k", type=int, default=10)
    ap.add_argument("--num-cpus", type=int, default=2, help="CPUs of the embedded Ray for the Serve app")
    ap.add_argument("--variants", default="default:",
                    help="Serve knob sets 'name:key=value,...;name2:...' (cfg.serve keys, or section.key such as "
                         "embedder.threads), each a fresh Serve start")
    ap.add_argument("--naive-variants", default="default:",
                    help="knob sets of the naive baseline, same syntax; ratios are against the first")
    ap.add_argument("--rounds", type=int, default=1,
                    help="measure every system this many times, alternating the order; figures are medians")
    ap.add_argument("--systems", default="naive,serve", help="which systems to run")
    ap.add_argument("--timeout", type=float, default=120.0, help="per-request client timeout (s)")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--no-record", action="store_true", help="do not append to bench/results/serve.jsonl")
    args = ap.parse_args()

    data_dir = str(Path(args.data_dir).expanduser().resolve())
    if not (Path(data_dir) / "lance" / "documents.lance").exists():
        raise SystemExit(f"no Strata index at {data_dir} (run `strata ingest` or bench/retrieval_quality.py first)")
    levels = [int(c) for c in args.clients.split(",") if c.strip()]
    wanted = {s.strip() for s in args.systems.split(",")}
    systems = [("naive", f"naive/{n}", k) for n, k in parse_variants(args.naive_variants) if "naive" in wanted]
    systems += [("serve", f"serve/{n}", k) for n, k in parse_variants(args.variants) if "serve" in wanted]
    if not systems:
        raise SystemExit("nothing to run (--systems)")
    for _, _, knobs in systems:
        make_config(data_dir, knobs)  # validates every knob set before anything starts
    stats = index_stats(data_dir)
    print(f"index {data_dir}: {stats['tokens']:,} tokens (sum documents.n_tokens), {stats['chunks']:,} chunks, "
          f"{stats['documents']:,} documents", flush=True)
    queries, origin = load_queries(args.queries, data_dir, stats, args.warmup + args.requests * len(levels), args.seed)
    print(f"queries: {origin} ({len(queries)} distinct; {args.warmup} warm-up + {args.requests} per level)", flush=True)
    body = {"top_k": args.top_k, "mode": args.mode, "use_cache": False}
    load_start = cpu_load()
    if load_start and load_start[0] > 1.5 * (os.cpu_count() or 1):
        print(f"WARNING: load average {load_start} on {os.cpu_count()} CPUs: other work is running, "
              f"figures will be noisy", flush=True)
    logs = Path(os.environ.get("STRATA_BENCH_DIR", "/tmp/strata-bench")) / "serve-bench-logs"
    logs.mkdir(parents=True, exist_ok=True)
    ray_temp = f"/tmp/ssb{os.getpid()}"  # short: Ray's socket paths have a length limit

    runs: dict[str, list[dict]] = {name: [] for _, name, _ in systems}
    try:
        for r in range(args.rounds):
            for role, name, knobs in (systems if r % 2 == 0 else systems[::-1]):
                if role == "naive":
                    port, extra = (args.port + 1 if args.port else free_port()), []
                else:
                    port = args.port or free_port()
                    extra = ["--num-cpus", str(args.num_cpus), "--ray-temp-dir", ray_temp]
                server = start(role, data_dir, port, knobs, extra, logs / f"{name.replace('/', '-')}.log",
                               args.timeout * 10)
                try:
                    res = measure(name + (f" (round {r + 1})" if args.rounds > 1 else ""), server, queries,
                                  args.warmup, levels, args.requests, body, args.timeout)
                finally:
                    server.stop()
                res["loadavg"] = cpu_load()
                runs[name].append(res)
    finally:
        shutil.rmtree(ray_temp, ignore_errors=True)  # the Ray sessions' files; servers' output stays in `logs`

    results = {}
    for role, name, knobs in systems:
        results[name] = {"role": role, "knobs": knobs, "summary": summarise(runs[name]), "runs": runs[name]}
        if role == "serve":
            full = make_config(data_dir, knobs)
            results[name]["serve_config"] = {k: getattr(full.serve, k) for k in SERVE_KEYS if hasattr(full.serve, k)}
            threads = getattr(full.serve, "embedder_threads", None) or full.embedder.threads
        else:
            threads = make_config(data_dir, knobs).embedder.threads
        results[name]["onnx_threads"] = threads or os.cpu_count()
    naive_names = [name for role, name, _ in systems if role == "naive"]
    base_name = naive_names[0] if naive_names else None
    if base_name:
        base = {lv["clients"]: lv for lv in results[base_name]["summary"]}
        best = {c: max((lv for n in naive_names for lv in results[n]["summary"] if lv["clients"] == c),
                       key=lambda lv: lv["throughput_rps"]) for c in levels}
        for name, res in results.items():
            if res["role"] == "serve":
                res["ratio_vs_naive"] = ratios(res["summary"], base)
                if len(naive_names) > 1:
                    res["ratio_vs_best_naive"] = ratios(res["summary"], best)
        print_table(stats, results, base, base_name)
        if len(naive_names) > 1:
            for name, res in results.items():
                if res["role"] == "serve":
                    best_ratios = res["ratio_vs_best_naive"].items()
                    print(f"  {name} ÷ best naive per level (req/s, p50): " + ", ".join(
                        f"{c} clients {v['throughput']:.2f}, {v['p50']:.2f}" for c, v in best_ratios))
    if args.no_record:
        return
    record = {"bench": "serve_search", "when": time.strftime("%Y-%m-%dT%H:%M:%S"), "git_commit": git_commit(),
              "cpus": os.cpu_count(), "ray_num_cpus": args.num_cpus, "loadavg_at_start": load_start,
              "loadavg_at_end": cpu_load(), "index": stats,
              "queries": {"origin": origin, "warmup": args.warmup, "per_level": args.requests},
              "request": body, "clients": levels, "rounds": args.rounds, "baseline": base_name, "systems": results,
              "goal": "serve throughput > naive at 8+ clients"}
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with open(RESULTS, "a") as fh:
        fh.write(json.dumps(record) + "\n")
    print(f"appended to {RESULTS}")


def server_main(role: str) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data-dir", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--knobs", default="")
    ap.add_argument("--num-cpus", type=int, default=2)
    ap.add_argument("--ray-temp-dir", default="/tmp/ssb")
    args = ap.parse_args(sys.argv[2:])
    (run_naive_server if role == "_naive" else run_serve_server)(args)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] in ("_naive", "_serve"):
        server_main(sys.argv[1])
    else:
        main()
