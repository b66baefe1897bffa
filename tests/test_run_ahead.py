"""The parse stage's run-ahead limit: a fast task stage stays a few blocks ahead of a slow actor."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pyarrow as pa
import pytest
import ray.cloudpickle

from pipelines.stages.run_ahead import LIMITS_KEY, limit_run_ahead, run_ahead_units

BLOCKS = 30
# Ray's workers cannot import this test module: its stage functions travel by value.
ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])


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


def _ahead_by_call(ray, out: Path) -> list[int]:
    ds = ray.data.from_items([{"i": i} for i in range(BLOCKS)], override_num_blocks=BLOCKS)
    ds = ds.map_batches(produce, batch_format="pyarrow", batch_size=None, fn_kwargs={"out": str(out)},
                        compute=ray.data.TaskPoolStrategy(size=1), num_cpus=0.25)
    ds = ds.map_batches(Consume, batch_format="pyarrow", batch_size=None, fn_constructor_kwargs={"out": str(out)},
                        compute=ray.data.ActorPoolStrategy(size=1), num_cpus=1)
    rows = sorted(ds.take_all(), key=lambda row: row["call"])
    assert [row["call"] for row in rows] == list(range(BLOCKS)) and len(list(out.glob("produced-*"))) == BLOCKS
    return [row["ahead"] for row in rows]


def _within(ahead: list[int], limit: int) -> bool:
    """Whether the fast stage stopped while ``limit`` or more blocks were ahead: after what it made while
    the slow stage started (Ray Data's liveness rule lets a stage run while nothing else does), each
    slow call may find one block fewer ahead, or at most ``limit``."""
    return all(a <= max(limit, ahead[0] - call) for call, a in enumerate(ahead))


def test_a_limited_stage_stays_within_its_units_of_the_next(ray_session, tmp_path):
    ray = ray_session
    ctx = ray.data.DataContext.get_current()
    limit = run_ahead_units(actors=1, parse_tasks=1)
    assert limit == 4
    try:
        unlimited = tmp_path / "unlimited"
        unlimited.mkdir()
        ctx.remove_config(LIMITS_KEY)
        free = _ahead_by_call(ray, unlimited)
        limited = tmp_path / "limited"
        limited.mkdir()
        limit_run_ahead(ctx, produce.__name__, limit)
        held = _ahead_by_call(ray, limited)
    finally:
        ctx.remove_config(LIMITS_KEY)
    # Unlimited, the fast stage keeps going while the slow one works: all its blocks were made early.
    assert not _within(free, limit) and max(free) > 2 * limit, free
    # Limited: once the slow stage runs, the fast one waits until it is within the limit, and stays there.
    assert _within(held, limit), held


@pytest.mark.parametrize("actors,parse_tasks,units", [(2, 1, 7), (32, 8, 104), (0, 0, 4)])
def test_run_ahead_units(actors, parse_tasks, units):
    assert run_ahead_units(actors, parse_tasks) == units
