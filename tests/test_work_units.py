"""Work units: every file once, largest first, full units until the tail, then shorter ones."""

from __future__ import annotations

import random

from pipelines.sources.units import TAIL_DIVISOR, work_units


def _items(sizes: list[int]) -> list[dict]:
    return [{"path": f"f{i}", "size": size} for i, size in enumerate(sizes)]


def test_every_file_once_largest_first_and_a_guided_tail():
    rng = random.Random(7)
    items = _items([rng.randint(200, 9_000) for _ in range(400)] + [150_000, 90_000])
    unit = 64_000
    units = work_units(items, unit_bytes=unit, workers=2)
    flat = [item for u in units for item in u]
    assert sorted(i["path"] for i in flat) == sorted(i["path"] for i in items)
    assert [i["size"] for i in flat] == sorted((i["size"] for i in items), reverse=True)
    text = [sum(i["size"] for i in u) for u in units]
    assert text[:2] == [150_000, 90_000]  # a file larger than a unit is a unit alone
    # Full units while more than two units a worker are left; then each unit about half a worker's
    # share of the rest, never below the tail's smallest unit (but the very last one).
    left = sum(text)
    tail = []
    for size in text:
        if left > 2 * 2 * unit:
            assert size >= unit
        else:
            tail.append(size)
            assert size >= unit // TAIL_DIVISOR or size == left
            assert size <= max(left // 4, unit // TAIL_DIVISOR) + 9_000
        left -= size
    assert len(tail) >= 4 and tail[-1] < unit // 2


def test_one_worker_keeps_full_units():
    items = _items([1_000] * 100)
    assert [len(u) for u in work_units(items, unit_bytes=10_000)] == [10] * 10
    assert [len(u) for u in work_units(items, unit_bytes=10_000, workers=1)] == [10] * 10
