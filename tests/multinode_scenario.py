"""A real multi-node Ray cluster on this machine: a head and two worker nodes, ingest and Serve on it.

Run by ``tests/test_multinode.py`` in a subprocess (the test session keeps its own embedded Ray):

    python tests/multinode_scenario.py CORPUS DATA_DIR OUT.json --port 18131

The head has 1 CPU and no ``strata_worker`` resource; each worker node has 1 CPU and
``strata_worker``. The nodes start in an empty folder with ``XDG_DATA_HOME`` pointing at it, so a
worker that looked for the models by its own default (``~/.local/share/strata/models``) or by a path
relative to its working directory (``--models-home models``), rather than by the absolute path the
driver resolved, would find nothing — as on a machine that sees only the shared storage. The
scenario ingests ``CORPUS`` with ``ingest.worker_resources`` and ``ingest.writer = "workers"``, deploys the Serve app with
``serve.replica_resources``, asks ``/v1/search``, and writes to ``OUT.json`` where Ray's state API saw
every parse task, embedding actor, fragment-writing task, BM25 shard writer and replica (node ids),
the driver's node, the ingest report and the search hits.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
WORKER_RESOURCE = "strata_worker"
#: Settings shared with the single-node ingest the test compares against (same chunks, same batches,
#: BM25 in two shards, each written by its own actor: here on a worker node, there beside the driver).
INGEST = {"unit_tokens": 1024, "writer_batch_rows": 128, "bm25_shards": 2}
SOURCE = "multinode"
QUERY = "How do I create a virtual environment?"
START_ATTEMPTS = 2


def start_cluster(node_env: dict[str, str], node_cwd: Path):
    """Head (1 CPU, no worker resource) + 2 worker nodes (1 CPU, ``strata_worker``), started in
    ``node_cwd`` with ``node_env`` added to this process's environment (both restored afterwards)."""
    from ray.cluster_utils import Cluster

    saved = {k: os.environ.get(k) for k in node_env}
    os.environ.update(node_env)
    cwd = os.getcwd()
    os.chdir(node_cwd)
    try:
        for attempt in range(1, START_ATTEMPTS + 1):
            cluster = Cluster()
            try:
                cluster.add_node(num_cpus=1)  # the first node is the head
                workers = [cluster.add_node(num_cpus=1, resources={WORKER_RESOURCE: 100}) for _ in range(2)]
                cluster.wait_for_nodes()
                break
            except Exception as exc:  # a node that did not come up in Ray's fixed 30 s (a very busy machine)
                cluster.shutdown()
                if attempt == START_ATTEMPTS:
                    raise
                print(f"cluster start failed ({exc}); starting again", file=sys.stderr)
    finally:
        os.chdir(cwd)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return cluster, workers


def _wait_for(probe, what: str, timeout_s: float = 60.0):
    """Poll ``probe()`` until it returns something true (task events reach the state API ~1 s late)."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = probe()
        if value or time.monotonic() > deadline:
            if not value:
                raise TimeoutError(f"timed out waiting for {what}")
            return value
        time.sleep(1.0)


def ingest_placement(address: str) -> dict[str, list[dict]]:
    """Where Ray ran the parse tasks, the embedding actors and the fragment-writing tasks (Ray's state
    API, not the product code). ``address``: the cluster's (without it the state API picks the newest
    Ray on this host)."""
    from ray.util.state import list_actors, list_tasks

    def tasks_named(name: str):
        def probe():
            tasks = [t for t in list_tasks(address=address, filters=[("type", "=", "NORMAL_TASK")], detail=True,
                                           limit=10_000, raise_on_missing_output=False)
                     if name in t.name]
            done = tasks and all(t.state in ("FINISHED", "FAILED") for t in tasks)  # a retried attempt: FAILED
            return tasks if done else None
        return probe

    parse = _wait_for(tasks_named("parse_chunk_batch"), "the parse tasks' events")
    fragments = _wait_for(tasks_named("write_fragments_batch"), "the fragment-writing tasks' events")
    every_actor = list_actors(address=address, detail=True, limit=10_000, raise_on_missing_output=False)
    actors = [a for a in every_actor if "EmbedDocuments" in (a.repr_name or "") or "EmbedDocuments" in a.class_name]
    shard_writers = [a for a in every_actor if a.class_name == "Bm25ShardWriter"]
    return {"parse_tasks": [{"name": t.name, "node_id": t.node_id, "state": t.state} for t in parse],
            "fragment_tasks": [{"name": t.name, "node_id": t.node_id, "state": t.state} for t in fragments],
            "embed_actors": [{"name": a.repr_name or a.class_name, "node_id": a.node_id, "state": a.state}
                             for a in actors],
            "bm25_shard_writers": [{"node_id": a.node_id, "state": a.state} for a in shard_writers]}


def replica_placement(address: str, app_name: str) -> list[dict]:
    """Every live Serve replica of ``app_name`` and its node."""
    from ray.util.state import list_actors

    prefix = f"ServeReplica:{app_name}:"
    return [{"deployment": a.class_name[len(prefix):], "node_id": a.node_id}
            for a in list_actors(address=address, filters=[("state", "=", "ALIVE")], detail=True, limit=10_000,
                                 raise_on_missing_output=False)
            if a.class_name.startswith(prefix)]


def search_over_http(url: str, timeout_s: float = 300.0) -> list[dict]:
    import requests

    deadline = time.monotonic() + timeout_s
    while True:  # the app is RUNNING; /readyz also waits for the index to open
        try:
            if requests.get(f"{url}/readyz", timeout=30).status_code == 200:
                break
        except requests.RequestException:
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"{url}/readyz never answered 200")
        time.sleep(1.0)
    response = requests.post(f"{url}/v1/search", json={"query": QUERY, "top_k": 5, "use_cache": False}, timeout=120)
    response.raise_for_status()
    return response.json()["hits"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--port", type=int, default=18131)
    parser.add_argument("--models-home", help="models.home as given (e.g. relative to this process's directory)")
    args = parser.parse_args(argv)

    import ray
    from ray import serve

    from cluster.config import scripted_config
    from cluster.runtime import patient_ray_start
    from pipelines.ingest import run_ingest
    from serving.app import deploy

    patient_ray_start()
    os.environ.pop("RAY_ADDRESS", None)
    timings: dict[str, float] = {}
    started = time.perf_counter()
    empty_home = Path(tempfile.mkdtemp(prefix="strata-node-home-"))
    # The nodes: the code "installed" (PYTHONPATH), no models where a worker would look by default.
    python_path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    cluster, workers = start_cluster({"PYTHONPATH": python_path, "XDG_DATA_HOME": str(empty_home)}, empty_home)
    timings["cluster_start_s"] = time.perf_counter() - started
    result: dict = {"head": cluster.head_node.node_id, "workers": [w.node_id for w in workers]}
    try:
        cfg = scripted_config(
            args.data_dir, ray={"address": cluster.address},
            models={"home": args.models_home} if args.models_home else {},
            # the workers write the Lance fragments (the driver commits them), whatever the default writer
            ingest={**INGEST, "writer": "workers", "worker_resources": {WORKER_RESOURCE: 1}},
            answer={"enabled": False},  # no Reranker deployment: 5 replicas, 1.45 CPUs > one worker node
            serve={"port": args.port, "proxy_location": "HeadOnly",  # the nodes share one host, so one port
                   "replica_resources": {WORKER_RESOURCE: 1}, "retriever_cpus": 0.5},
        )
        assert not str(cfg.models.home).startswith(str(empty_home))
        t = time.perf_counter()
        report = run_ingest(cfg, args.corpus, source=SOURCE)
        result["driver_node"] = ray.get_runtime_context().get_node_id()
        timings["ingest_s"] = time.perf_counter() - t
        result["report"] = {"new": report.new, "chunks": report.chunks, "sections": report.sections,
                            "failed": [list(f) for f in report.failed]}
        result.update(ingest_placement(cluster.address))
        t = time.perf_counter()
        url = deploy(cfg, timeout_s=300)
        result["replicas"] = replica_placement(cluster.address, cfg.serve.app_name)
        result["hits"] = search_over_http(url)
        timings["serve_s"] = time.perf_counter() - t
    finally:
        t = time.perf_counter()
        try:
            if ray.is_initialized():
                serve.shutdown()
        finally:
            ray.shutdown()
            cluster.shutdown()
        timings["shutdown_s"] = time.perf_counter() - t
        result["timings"] = timings
        args.out.write_text(json.dumps(result, indent=1))
        shutil.rmtree(empty_home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(REPO))
    sys.exit(main())
