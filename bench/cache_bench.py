"""The embedding cache's hit rate and what it saves, each case against a first ingest, in one run.

    python bench/cache_bench.py --tokens 300000

On a copy of a real Debian documentation corpus (bench/corpora.py), every `strata ingest` with the
defaults in a fresh process (as a user runs it):

* ``first``: a new index (no cache lookups: the cache is empty);
* ``moved``: every file moved to another folder, ingested with ``--prune`` (new paths, so new
  document ids; the same texts);
* ``edited``: one word changed in the middle of 10% of the files;
* ``overlap 0`` and ``chunk 160``: a chunking change (``chunking.overlap_tokens`` 32 → 0, then
  ``chunking.chunk_tokens`` 200 → 160), which chunks every document again;
* ``crash``: a second new index, its ingest killed (SIGKILL, the whole process group) once about
  half of the first ingest's chunks are committed, then resumed: what the resumed run reused.

Each line: wall time, texts reused from the cache and texts embedded, the hit rate, and the wall
time ÷ the first ingest's. Results append to bench/results/ingest.jsonl.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from ingest_bench import REPO, WORK, corpus, record, timed_ingest


def _copy_corpus(src: Path, dst: Path) -> Path:
    """A writable copy of ``src`` (its files are links into the package cache)."""
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst, symlinks=False)
    return dst


def _edit(root: Path, share: float = 0.1) -> int:
    """Change one word in the middle of every ``1/share``-th uncompressed file; returns how many."""
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix != ".gz")
    edited = 0
    for path in files[::max(1, round(1 / share))]:
        data = path.read_bytes()
        at = data.find(b" the ", len(data) // 2)
        if at < 0:
            continue
        path.write_bytes(data[:at] + b" this " + data[at + 5:])
        edited += 1
    return edited


def _chunk_rows(data_dir: Path) -> int:
    from cluster.config import load_config
    from cluster.store.lance_store import LanceStore
    from cluster.store.schema import CHUNKS

    try:
        return LanceStore.open(load_config(storage={"data_dir": str(data_dir)}).storage, dim=384).table(CHUNKS).count_rows()
    except Exception:
        return 0


def _killed_ingest(src: Path, data_dir: Path, kill_at_chunks: int) -> tuple[float, int]:
    """``strata ingest`` killed with SIGKILL (its process group: the driver and its Ray) once the index
    holds ``kill_at_chunks`` chunks; returns (wall s until the kill, chunks committed)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("STRATA_") and k != "RAY_ADDRESS"}
    env["STRATA_STORAGE__DATA_DIR"] = str(data_dir)
    started = time.perf_counter()
    with open(data_dir.with_suffix(".killed.log"), "w") as log:
        proc = subprocess.Popen([sys.executable, "-m", "cli.main", "ingest", str(src), "--source", "bench",
                                 "--no-progress"], env=env, cwd=REPO, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
    rows = 0
    while proc.poll() is None:
        rows = _chunk_rows(data_dir)
        if rows >= kill_at_chunks:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            break
        time.sleep(2)
    else:
        raise SystemExit(f"the ingest ended ({proc.returncode}) before {kill_at_chunks} chunks were committed")
    wall = time.perf_counter() - started
    time.sleep(5)  # Ray's own processes notice their driver is gone and exit
    return wall, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tokens", type=int, default=300_000, help="corpus size (estimated tokens)")
    args = parser.parse_args()
    work = WORK / f"cache-{args.tokens}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    src = _copy_corpus(corpus(args.tokens), work / "corpus" / "docs")
    index = work / "index"
    cases: list[dict] = []

    def run(case: str, path: Path, data_dir: Path, *, env: dict | None = None, prune: bool = False) -> dict:
        wall, _, report = timed_ingest(path, data_dir, env=env, prune=prune)
        hits, misses = report["cache_hits"], report["cache_misses"]
        row = {"case": case, "wall_s": round(wall, 1), "documents_changed": report["new"] + report["updated"],
               "chunks": report["chunks"], "texts_reused": hits, "texts_embedded": misses,
               "hit_rate": round(hits / (hits + misses), 3) if hits + misses else None}
        if cases:
            row["wall_over_first"] = round(wall / cases[0]["wall_s"], 2)
        cases.append(row)
        print(f"{case:>10}: {row}", flush=True)
        return row

    first = run("first", src, index)
    moved = work / "corpus-moved"
    (moved / "archive").parent.mkdir(parents=True, exist_ok=True)
    shutil.move(str(work / "corpus"), moved / "archive")  # every path changes
    src = moved
    run("moved", src, index, prune=True)
    edited = _edit(src)
    print(f"edited {edited} files", flush=True)
    run("edited", src, index)
    run("overlap 0", src, index, env={"STRATA_CHUNKING__OVERLAP_TOKENS": "0"})
    run("chunk 160", src, index, env={"STRATA_CHUNKING__OVERLAP_TOKENS": "0", "STRATA_CHUNKING__CHUNK_TOKENS": "160"})

    crashed = work / "index-crash"
    killed_s, committed = _killed_ingest(src, crashed, kill_at_chunks=first["chunks"] // 2)
    print(f"killed after {killed_s:.0f}s with {committed} of {first['chunks']} chunks committed", flush=True)
    resumed = run("crash", src, crashed)
    resumed.update(killed_after_s=round(killed_s, 1), chunks_committed_at_kill=committed)
    record({"bench": "embed_cache", "corpus_tokens_estimate": args.tokens, "cases": cases})


if __name__ == "__main__":
    main()
