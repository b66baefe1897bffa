"""A fast task stage feeding a slow actor stage, with and without the parse stage's run-ahead limit.

Run by ``tests/test_run_ahead.py`` in a subprocess with its own embedded Ray, so that what the test
session's Ray holds (object-store memory, CPUs of live actors) cannot hold the fast stage back in
the unlimited run by Ray Data's own budget:

    python tests/run_ahead_scenario.py OUT_DIR LIMIT

Prints one JSON object: for each run (``unlimited``, ``limited``), how many blocks the fast stage
had started beyond those the slow stage had finished, at the start of each slow call.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pyarrow as pa

REPO = Path(__file__).resolve().parent.parent
BLOCKS = 30


def produce(batch: pa.Table, out: str) -> pa.Table:
    """The fast stage (stands in for parsing): marks each block as started."""
    Path(out, f"produced-{batch.column('i')[0].as_py()}").touch()
    return batch


class Consume:
    """The slow stage (stands in for an embedding actor, its model load included): how far the fast
    one is ahead at each call."""

    def __init__(self, out: str):
        self.out, self.finished = Path(out), 0
        time.sleep(3)

    def __call__(self, batch: pa.Table) -> pa.Table:
        ahead = len(list(self.out.glob("produced-*"))) - self.finished
        time.sleep(0.1)
        self.finished += 1
        return pa.table({"call": [self.finished - 1], "ahead": [ahead]})


def ahead_by_call(ray, out: Path) -> list[int]:
    out.mkdir(parents=True)
    ds = ray.data.from_items([{"i": i} for i in range(BLOCKS)], override_num_blocks=BLOCKS)
    ds = ds.map_batches(produce, batch_format="pyarrow", batch_size=None, fn_kwargs={"out": str(out)},
                        compute=ray.data.TaskPoolStrategy(size=1), num_cpus=0.25)
    ds = ds.map_batches(Consume, batch_format="pyarrow", batch_size=None, fn_constructor_kwargs={"out": str(out)},
                        compute=ray.data.ActorPoolStrategy(size=1), num_cpus=1)
    rows = sorted(ds.take_all(), key=lambda row: row["call"])
    assert [row["call"] for row in rows] == list(range(BLOCKS)) and len(list(out.glob("produced-*"))) == BLOCKS
    return [row["ahead"] for row in rows]


def main() -> None:
    out, limit = Path(sys.argv[1]), int(sys.argv[2])
    sys.path.insert(0, str(REPO))
    import ray
    import ray.cloudpickle

    from pipelines.stages.run_ahead import limit_run_ahead

    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers cannot import this script
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        result = {"unlimited": ahead_by_call(ray, out / "unlimited")}
        limit_run_ahead(ray.data.DataContext.get_current(), produce.__name__, limit)
        result["limited"] = ahead_by_call(ray, out / "limited")
    finally:
        ray.shutdown()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
