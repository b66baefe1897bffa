"""The parse stage's run-ahead limit: a fast task stage stays a few blocks ahead of a slow actor."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pipelines.stages.run_ahead import run_ahead_units

SCRIPT = Path(__file__).resolve().parent / "run_ahead_scenario.py"


def _within(ahead: list[int], limit: int) -> bool:
    """Whether the fast stage stopped while ``limit`` or more blocks were ahead: after what it made while
    the slow stage started (Ray Data's liveness rule lets a stage run while nothing else does), each
    slow call may find one block fewer ahead, or at most ``limit``."""
    return all(a <= max(limit, ahead[0] - call) for call, a in enumerate(ahead))


def test_a_limited_stage_stays_within_its_units_of_the_next(tmp_path):
    limit = run_ahead_units(actors=1, parse_tasks=1)
    assert limit == 4
    proc = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path), str(limit)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    free, held = result["unlimited"], result["limited"]
    # Unlimited, the fast stage keeps going while the slow one works: all its blocks were made early.
    assert not _within(free, limit) and max(free) > 2 * limit, free
    # Limited: once the slow stage runs, the fast one waits until it is within the limit, and stays there.
    assert _within(held, limit), held


@pytest.mark.parametrize("actors,parse_tasks,units", [(2, 1, 7), (32, 8, 104), (0, 0, 4)])
def test_run_ahead_units(actors, parse_tasks, units):
    assert run_ahead_units(actors, parse_tasks) == units
