"""What Ray and Ray Data take of this machine with nothing to compute: the ceiling of
``ingest_bench.py throughput``'s ratio that no setting of Strata's moves.

    python bench/ray_overhead_bench.py [--units 30] [--embed-s 5] [--parse-s 0.06]

The ingest's own pipeline shape (:func:`pipelines.ingest._run_pipeline`): one block per work unit →
parse tasks (as many at once as the defaults run) → one embedding actor per CPU (the default pool,
:func:`pipelines.stages.embed.plan_embed_pool`, with its CPU reservation and the parse stage's
run-ahead limit) → the driver's ``iter_batches``, on an embedded Ray started the way ``strata
ingest`` starts it (:func:`cluster.runtime.init_ray`, defaults). The stages *sleep* as long as the
real ones take a unit here (parse ~0.06 s, embed ~5 s), so whatever CPU the box spends meanwhile is
Ray's own: the driver's streaming executor, raylet, GCS, the dashboard and runtime-env agents, the
log monitor, Ray Data's stats, autoscaling-coordinator and actor-location actors, idle workers.
Every process's CPU seconds are sampled over a steady window (after the first outputs, before the
last), with the box's busy seconds. During a real ingest the embedding actors can have at most the
rest: ``1 - overhead_cores / cpus`` of the box (less the start-up and the work of parsing and
writing). Results are appended to bench/results/ingest.jsonl (``"bench": "ray_overhead"``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import psutil
import pyarrow as pa

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from ingest_bench import RESULTS, cpu_seconds, tree_rss  # noqa: E402


def sleeping_parse(batch: pa.Table, *, seconds: float) -> pa.Table:
    """The parse stage's stand-in: one call a work unit, no CPU."""
    time.sleep(seconds)
    return batch


class SleepingEmbedder:
    """The embedding actors' stand-in: one call a work unit, no CPU."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def __call__(self, batch: pa.Table) -> pa.Table:
        time.sleep(self.seconds)
        return batch


def process_cpu(root: psutil.Process) -> dict[int, tuple[str, float]]:
    """(title, user + system CPU seconds) of ``root`` (``driver``) and every descendant, by pid."""
    cpu_by_pid: dict[int, tuple[str, float]] = {}
    tree_rss(root, cpu_by_pid)
    return cpu_by_pid


def window_cpu(before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]]) -> dict[str, float]:
    """CPU seconds each process title spent between two :func:`process_cpu` samples, largest first
    (a process started in between counts from zero).

    >>> window_cpu({1: ("driver", 2.0)}, {1: ("driver", 3.5), 7: ("raylet", 0.25)})
    {'driver': 1.5, 'raylet': 0.25}
    """
    spent: dict[str, float] = {}
    for pid, (name, seconds) in after.items():
        spent[name] = spent.get(name, 0.0) + seconds - before.get(pid, (name, 0.0))[1]
    return {name: round(s, 2) for name, s in sorted(spent.items(), key=lambda kv: -kv[1])}


def run(units: int, embed_s: float, parse_s: float) -> dict:
    import ray

    from cluster.config import load_config
    from cluster.runtime import eligible_node_resources, init_ray
    from pipelines.ingest import _parse_tasks
    from pipelines.stages.embed import plan_embed_pool
    from pipelines.stages.run_ahead import limit_run_ahead, run_ahead_units

    cfg = load_config()
    init_ray(cfg.ray)
    eligible = eligible_node_resources(cfg.ingest.worker_resources)
    pool = plan_embed_pool(cfg.ingest, cfg.embedder, eligible)
    parse_tasks = _parse_tasks(cfg.ingest, eligible)
    cpus = sum(r.get("CPU", 0) for r in eligible)
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.verbose_progress = False
    limit_run_ahead(ctx, sleeping_parse.__name__, run_ahead_units(pool.actors, parse_tasks))
    ds = ray.data.from_items([{"unit": i} for i in range(units)], override_num_blocks=units)
    ds = ds.map_batches(sleeping_parse, batch_format="pyarrow", batch_size=None, num_cpus=cfg.ingest.parse_task_cpus,
                        compute=ray.data.TaskPoolStrategy(size=parse_tasks), fn_kwargs={"seconds": parse_s})
    ds = ds.map_batches(SleepingEmbedder, batch_format="pyarrow", batch_size=None,
                        compute=ray.data.ActorPoolStrategy(size=pool.actors), num_cpus=cfg.ingest.embed_actor_cpus,
                        fn_constructor_kwargs={"seconds": embed_s})
    driver = psutil.Process()
    started = time.perf_counter()
    first_s = before = box_before = window_start = None
    after = box_after = None
    skip = 2 * pool.actors  # the first outputs: every actor has started and run a unit
    stop = units - pool.actors  # the last outputs: the pool drains
    for n, _ in enumerate(ds.iter_batches(batch_size=None, batch_format="pyarrow", prefetch_batches=1), start=1):
        if n == 1:
            first_s = time.perf_counter() - started
        if n == skip:
            before, box_before, window_start = process_cpu(driver), psutil.cpu_times(), time.perf_counter()
        if n == stop:
            after, box_after, window_s = process_cpu(driver), psutil.cpu_times(), time.perf_counter() - window_start
    if before is None or after is None:
        raise SystemExit(f"--units {units} leaves no steady window for {pool.actors} actors")
    spent = window_cpu(before, after)
    overhead = sum(spent.values())
    box_busy = cpu_seconds({}, box_before, box_after)["box_busy"]
    return {"bench": "ray_overhead", "cpus": cpus, "embed_actors": pool.actors, "parse_tasks": parse_tasks,
            "units": units, "embed_s_per_unit": embed_s, "parse_s_per_unit": parse_s,
            "first_output_s": round(first_s, 1), "window_s": round(window_s, 1),
            "ray_cpu_s": round(overhead, 2), "ray_cores": round(overhead / window_s, 3),
            "box_busy_cores": round(box_busy / window_s, 3),
            "share_of_box": round(overhead / window_s / cpus, 3),
            "actors_ceiling": round(1 - overhead / window_s / cpus, 3), "cpu_s_by_process": spent}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=int, default=30, help="work units (blocks) through the pipeline")
    parser.add_argument("--embed-s", type=float, default=5.0, help="seconds an embedding actor 'works' a unit")
    parser.add_argument("--parse-s", type=float, default=0.06, help="seconds a parse task 'works' a unit")
    args = parser.parse_args()
    result = run(args.units, args.embed_s, args.parse_s)
    result["when"] = time.strftime("%Y-%m-%dT%H:%M:%S")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    with RESULTS.open("a") as fh:
        fh.write(json.dumps(result) + "\n")
    print(json.dumps(result, indent=2))
    print(f"Ray's own processes took {result['ray_cores']:.3f} cores of {result['cpus']:.0f} with nothing to compute: "
          f"embedding actors can have at most {result['actors_ceiling']:.3f} of the box")


if __name__ == "__main__":
    main()
