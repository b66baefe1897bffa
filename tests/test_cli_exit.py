"""How a ``strata`` process ends (cli/main.py): the interpreter's final garbage collection is left
out (the OS takes the memory back anyway), while every exit hook still runs and flushes."""

from __future__ import annotations

import subprocess
import sys

from support import REPO

EXIT_WITH_A_CYCLE = """
import gc, logging, sys
import cli.main  # what every `strata` command imports
log_file = sys.argv[1]
handler = logging.FileHandler(log_file, delay=True)
logging.getLogger("strata-exit").addHandler(handler)

class Noisy:
    def __del__(self):
        print("collected", flush=True)

cycle = Noisy()
cycle.self = cycle  # only a garbage collection frees a cycle
gc.disable()  # no collection before the exit's own
del cycle
logging.getLogger("strata-exit").warning("written at exit")  # the log handler flushes in an exit hook
print("done", flush=True)
"""


def test_a_strata_process_exits_without_the_final_collection_and_still_flushes(tmp_path):
    log_file = tmp_path / "exit.log"
    out = subprocess.run([sys.executable, "-c", EXIT_WITH_A_CYCLE, str(log_file)], cwd=REPO, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split() == ["done"]  # without cli.main's exit hook the final collection prints "collected"
    assert "written at exit" in log_file.read_text()
